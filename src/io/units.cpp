#include "io/units.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <system_error>
#include <tuple>
#include <utility>
#include <vector>

#include "io/text_fields.hpp"
#include "model/errors.hpp"

namespace ringsim::io {
namespace {

using UnitTable = std::map<std::string, double, std::less<>>;

// SimGrid's generator: a unit, its value, and the decimal (k, M, ...) or binary (Ki, Mi, ...)
// prefixes, abbreviated or spelled out.
void add_prefixed(UnitTable& table, const std::string& unit, double value, bool binary, bool abbreviated) {
  static const std::array<const char*, 8> dec_abbr = {"k", "M", "G", "T", "P", "E", "Z", "Y"};
  static const std::array<const char*, 8> dec_long = {"kilo", "mega", "giga", "tera", "peta", "exa", "zeta", "yotta"};
  static const std::array<const char*, 8> bin_abbr = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi", "Yi"};
  static const std::array<const char*, 8> bin_long = {"kibi", "mebi", "gibi", "tebi", "pebi", "exbi", "zebi", "yobi"};
  const auto& prefixes = binary ? (abbreviated ? bin_abbr : bin_long) : (abbreviated ? dec_abbr : dec_long);
  const double mult = binary ? 1024.0 : 1000.0;
  table.emplace(unit, value);
  for (const char* prefix : prefixes) {
    value *= mult;
    table.emplace(std::string(prefix) + unit, value);
  }
}

const UnitTable& speed_units() {
  static const UnitTable table = [] {
    UnitTable t;
    add_prefixed(t, "f", 1.0, false, true);
    add_prefixed(t, "flops", 1.0, false, false);
    return t;
  }();
  return table;
}

const UnitTable& bandwidth_units() {
  static const UnitTable table = [] {
    UnitTable t;
    add_prefixed(t, "bps", 0.125, true, true);
    add_prefixed(t, "bps", 0.125, false, true);
    add_prefixed(t, "Bps", 1.0, true, true);
    add_prefixed(t, "Bps", 1.0, false, true);
    return t;
  }();
  return table;
}

const UnitTable& time_units() {
  static const UnitTable table = {{"w", 7 * 24 * 3600.0}, {"d", 24 * 3600.0}, {"h", 3600.0}, {"m", 60.0},
                                  {"s", 1.0},           {"ms", 1e-3},         {"us", 1e-6},   {"ns", 1e-9},
                                  {"ps", 1e-12}};
  return table;
}

double parse_with_unit(const std::string& text, const std::string& what, const UnitTable& units,
                       const char* quantity, const char* base_unit) {
  const char* begin = text.c_str();
  char* end = nullptr;
  errno = 0;
  const double number = std::strtod(begin, &end);
  if (end == begin || holds_hexadecimal(text))
    throw InputError("cannot read a number in " + std::string(quantity) + " '" + text + "' of " + what +
                     (end == begin ? "" : " (numbers are decimal)"));
  if (errno == ERANGE || !std::isfinite(number))
    throw InputError(std::string(quantity) + " '" + text + "' of " + what + " is out of range");
  const std::string unit = *end == '\0' ? std::string(base_unit) : std::string(end);
  const auto it = units.find(unit);
  if (it == units.end())
    throw InputError("unknown unit '" + unit + "' in " + quantity + " '" + text + "' of " + what);
  return number * it->second;
}

bool reads_back(const std::string& mantissa, double scale, double value) {
  return std::strtod(mantissa.c_str(), nullptr) * scale == value;
}

// "0.25275" -> 5, "68.667" -> 5, "1250" -> 4, "1e-07" -> 1.
std::size_t significant_digits(const std::string& number) {
  std::size_t digits = 0;
  bool leading = true;
  for (char c : number) {
    if (c == 'e') break;
    if (c < '0' || c > '9') continue;
    if (leading && c == '0') continue;
    leading = false;
    ++digits;
  }
  return digits;
}

// How far a mantissa is from [1, 1000), in powers of ten: 0.25 -> 1, 278066 -> 3.
int decades_out_of_range(double mantissa) {  // by steps of ten, not log10: the same everywhere
  int decades = 0;
  for (; mantissa >= 1000; mantissa /= 10) ++decades;
  for (; mantissa < 1; mantissa *= 10) ++decades;
  return decades;
}

// Among the texts that read back to exactly `value` in some unit: the fewest significant digits,
// then no exponent, then the mantissa nearest to [1, 1000), then the larger unit. `units_desc`
// lists the units by decreasing scale, the base unit (scale 1, which always reads back) among them.
std::string format_with_units(double value, const std::vector<std::pair<const char*, double>>& units_desc,
                              const char* what) {
  if (!std::isfinite(value) || value < 0) throw std::invalid_argument(std::string("cannot format ") + what);
  if (value == 0) {
    for (const auto& [unit, scale] : units_desc)
      if (scale == 1.0) return std::string("0") + unit;
  }
  std::string best;
  std::tuple<std::size_t, bool, int> best_score{};
  for (const auto& [unit, scale] : units_desc) {
    const double mantissa = value / scale;
    // The quotient may be one ulp off the decimal the user meant: try it and its neighbours.
    for (const double candidate : {mantissa, std::nextafter(mantissa, 0.0), std::nextafter(mantissa, HUGE_VAL)}) {
      const std::string number = format_number(candidate);
      if (!reads_back(number, scale, value)) continue;
      const std::tuple<std::size_t, bool, int> score{significant_digits(number), number.find('e') != std::string::npos,
                                                      decades_out_of_range(candidate)};
      if (best.empty() || score < best_score) {
        best = number + unit;
        best_score = score;
      }
      break;
    }
  }
  return best;
}

}  // namespace

double parse_speed(const std::string& text, const std::string& what) {
  return parse_with_unit(text, what, speed_units(), "speed", "f");
}

double parse_bandwidth(const std::string& text, const std::string& what) {
  return parse_with_unit(text, what, bandwidth_units(), "bandwidth", "Bps");
}

double parse_time(const std::string& text, const std::string& what) {
  return parse_with_unit(text, what, time_units(), "time", "s");
}

std::string format_number(double value) {
  std::array<char, 64> buf{};
  const auto res = std::to_chars(buf.data(), buf.data() + buf.size(), value);
  if (res.ec != std::errc()) throw std::invalid_argument("cannot format a number");
  return std::string(buf.data(), res.ptr);
}

std::string format_speed(double flops) {
  return format_with_units(flops, {{"Ef", 1e18}, {"Pf", 1e15}, {"Tf", 1e12}, {"Gf", 1e9}, {"Mf", 1e6}, {"kf", 1e3}, {"f", 1.0}},
                           "a speed");
}

std::string format_bandwidth(double bytes_per_second) {
  return format_with_units(bytes_per_second,
                           {{"TBps", 1e12}, {"GBps", 1e9}, {"MBps", 1e6}, {"kBps", 1e3}, {"Bps", 1.0}}, "a bandwidth");
}

std::string format_time(double seconds) {
  return format_with_units(seconds, {{"s", 1.0}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}, {"ps", 1e-12}}, "a time");
}

}  // namespace ringsim::io
