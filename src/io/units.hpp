// SimGrid's unit suffixes for speeds, bandwidths and times (the platform XML's attributes).
// Parsing follows SimGrid 3.32 (src/xbt/xbt_parse_units.cpp): a number read by strtod, then a
// suffix from the tables below; a bare number is taken in the base unit (f, Bps, s), as SimGrid
// does with a deprecation warning. Formatting prints, in some decimal unit, the text with the
// fewest significant digits that reads back to the very same double (ties: no exponent, then a
// mantissa nearest to [1, 1000), then the larger unit).
#pragma once

#include <string>

namespace ringsim::io {

// Each parser returns the value in base units (flop/s, bytes/s, seconds) and throws InputError
// ("unknown unit 'Xf' in speed '1Xf' of host 'h1'") naming `what` when the text is not a number
// followed by a known unit. Signs and zero are not checked here: validation does that.
double parse_speed(const std::string& text, const std::string& what);
double parse_bandwidth(const std::string& text, const std::string& what);
double parse_time(const std::string& text, const std::string& what);

// "68.667Mf", "1.25MBps", "514.433us", "0s". Values must be finite and >= 0.
std::string format_speed(double flops);
std::string format_bandwidth(double bytes_per_second);
std::string format_time(double seconds);

// Shortest decimal text that strtod reads back to `value` exactly ("0.1", "1e-07", "68667000").
std::string format_number(double value);

}  // namespace ringsim::io
