#include "io/json_input.hpp"

#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include <nlohmann/json.hpp>

#include "model/errors.hpp"

namespace ringsim::io {

std::string read_text(const std::string& path) {
  std::string text;
  if (path == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError("cannot read '" + path + "'");
    // In blocks, not character by character: platform files run to megabytes.
    char block[1 << 16];
    while (in.read(block, sizeof block) || in.gcount() > 0) text.append(block, static_cast<std::size_t>(in.gcount()));
    if (in.bad()) throw InputError("cannot read '" + path + "'");
  }
  return text;
}

nlohmann::json read_json_document(const std::string& path) {
  const std::string text = read_text(path);
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    const std::string where = path == "-" ? "standard input" : "'" + path + "'";
    throw InputError("malformed JSON in " + where + " at byte " + std::to_string(e.byte));
  } catch (const nlohmann::json::exception& e) {  // e.g. a number too large for a double
    const std::string where = path == "-" ? "standard input" : "'" + path + "'";
    throw InputError("malformed JSON in " + where + ": " + e.what());
  }
}

void require_known_keys(const nlohmann::json& obj, std::initializer_list<const char*> allowed, const std::string& where) {
  for (const auto& item : obj.items()) {
    bool known = false;
    for (const char* k : allowed) known = known || item.key() == k;
    if (!known) throw InputError("unknown key '" + item.key() + "' in " + where);
  }
}

void require_known_keys(const nlohmann::json& obj, const std::vector<std::string>& allowed, const std::string& where) {
  for (const auto& item : obj.items()) {
    bool known = false;
    for (const auto& k : allowed) known = known || item.key() == k;
    if (!known) throw InputError("unknown key '" + item.key() + "' in " + where);
  }
}

}  // namespace ringsim::io
