#include "io/json_values.hpp"

#include <climits>
#include <cmath>
#include <cstdint>
#include <sstream>

#include <nlohmann/json.hpp>

#include "model/errors.hpp"

namespace ringsim::io::json_values {
namespace {

const nlohmann::json& typed(const nlohmann::json& doc, const char* key, nlohmann::json::value_t type,
                            const char* type_name) {
  const auto& v = doc.at(key);
  const bool ok = type == nlohmann::json::value_t::number_float ? v.is_number() : v.type() == type ||
                  (type == nlohmann::json::value_t::number_integer && v.is_number_unsigned());
  if (!ok) throw InputError(std::string("'") + key + "' must be " + type_name);
  return v;
}

}  // namespace

double number(const nlohmann::json& doc, const char* key) {
  const double v = typed(doc, key, nlohmann::json::value_t::number_float, "a number").get<double>();
  if (!std::isfinite(v)) throw InputError(std::string("'") + key + "' must be finite");
  return v;
}

long long integer(const nlohmann::json& doc, const char* key) {
  const auto& v = typed(doc, key, nlohmann::json::value_t::number_integer, "an integer");
  if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
    throw InputError(std::string("'") + key + "' must be an integer of at most " + std::to_string(INT64_MAX));
  return v.get<long long>();
}

int int_value(const nlohmann::json& doc, const char* key, const std::string& where) {
  const long long v = integer(doc, key);
  if (v > INT_MAX) throw InputError(where + ": '" + key + "' must be at most " + std::to_string(INT_MAX));
  if (v < INT_MIN) throw InputError(where + ": '" + key + "' must be at least " + std::to_string(INT_MIN));
  return static_cast<int>(v);
}

std::uint64_t seed_value(const nlohmann::json& doc, const char* key) {
  const auto& v = typed(doc, key, nlohmann::json::value_t::number_integer, "an integer");
  return v.is_number_unsigned() ? v.get<std::uint64_t>() : static_cast<std::uint64_t>(v.get<long long>());
}

double number_at_most(const nlohmann::json& doc, const char* key, double most, const std::string& where) {
  const double v = number(doc, key);
  if (v > most) {
    std::ostringstream os;
    os << where << ": '" << key << "' must be at most " << most;
    throw InputError(os.str());
  }
  return v;
}

std::string text(const nlohmann::json& doc, const char* key) {
  return typed(doc, key, nlohmann::json::value_t::string, "a string").get<std::string>();
}

}  // namespace ringsim::io::json_values
