// The typed values of a config's keys, read strictly: a value of the wrong type, not finite or out
// of the range of its field is an InputError naming the key (the run config's readers,
// io/run_config_json.hpp, and its traces', io/run_config_traces_json.hpp).
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace ringsim::io::json_values {

// doc[key] as a finite number.
double number(const nlohmann::json& doc, const char* key);
// doc[key] as an integer. JSON integers reach 2^64: each is checked at full width before it is
// narrowed, since a narrowing cast wraps silently (4294967297 iterations would run one).
long long integer(const nlohmann::json& doc, const char* key);
// An integer held in an int (counts of rows, columns, iterations, members): at most 2^31 - 1.
int int_value(const nlohmann::json& doc, const char* key, const std::string& where);
// A seed: any integer from -2^63 to 2^64 - 1, taken modulo 2^64 (the generators' seed width).
std::uint64_t seed_value(const nlohmann::json& doc, const char* key);
// A number at most `most`: what feeds a cost or a size must stay finite, and exact where SimGrid
// takes it as an integer (a message's bytes are a 64-bit count).
double number_at_most(const nlohmann::json& doc, const char* key, double most, const std::string& where);
std::string text(const nlohmann::json& doc, const char* key);

}  // namespace ringsim::io::json_values
