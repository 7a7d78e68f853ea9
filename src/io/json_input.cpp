#include "io/json_input.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <set>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/errors.hpp"

namespace ringsim::io {

std::size_t max_input_bytes() {
  const char* v = std::getenv(kMaxInputBytesVariable);
  if (v == nullptr || *v == '\0') return kMaxInputBytes;
  std::size_t n = 0;
  const char* end = v + std::strlen(v);
  const auto r = std::from_chars(v, end, n);
  if (r.ec != std::errc() || r.ptr != end || n < 1)
    throw InputError(std::string(kMaxInputBytesVariable) + " must be a number of bytes >= 1, got '" + v + "'");
  return std::min(n, kMaxInputBytes);
}

namespace {

// Appends `in` to `text` in blocks (platform files run to megabytes), refusing more than
// kMaxInputBytes: an endless input (/dev/zero, a pipe that never closes its writer's side while
// writing) must end in one line, not in memory growing until the kernel kills the process.
void append_bounded(std::istream& in, std::string& text, const std::string& where) {
  const std::size_t most = max_input_bytes();
  char block[1 << 16];
  while (in.read(block, sizeof block) || in.gcount() > 0) {
    if (text.size() + static_cast<std::size_t>(in.gcount()) > most)
      throw InputError(where + " is larger than " +
                       (most == kMaxInputBytes ? std::to_string(kMaxInputBytes >> 20) + " MiB"
                                               : std::to_string(most) + " bytes (" + kMaxInputBytesVariable + ")") +
                       ", the most ringsim reads from one input");
    text.append(block, static_cast<std::size_t>(in.gcount()));
  }
}

// Where a file is expected, only a regular file (or a link to one) is read: a FIFO would block
// without a word, a directory or a device is not an input file.
// Returns its size, so that its text is read into one allocation (a platform of megabytes grown
// block by block would be copied and its pages touched again at each doubling).
std::size_t require_regular_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw InputError("cannot read '" + path + "': " + std::strerror(errno));
  if (!S_ISREG(st.st_mode))
    throw InputError("cannot read '" + path + "': not a regular file" +
                     (S_ISDIR(st.st_mode) ? std::string(" (a directory)") : std::string()));
  return static_cast<std::size_t>(st.st_size);
}

}  // namespace

std::string where_of(const std::string& path) { return path == "-" ? "standard input" : "'" + path + "'"; }

std::string read_text(const std::string& path) {
  std::string text;
  if (path == "-") {
    append_bounded(std::cin, text, where_of(path));
    return text;
  }
  text.reserve(std::min(require_regular_file(path), max_input_bytes()) + 1);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read '" + path + "'");
  append_bounded(in, text, where_of(path));
  if (in.bad()) throw InputError("cannot read '" + path + "'");
  return text;
}

nlohmann::json read_json_document(const std::string& path) { return parse_json_text(read_text(path), where_of(path)); }

nlohmann::json parse_json_text(const std::string& text, const std::string& where) {
  // JSON leaves duplicate keys undefined and nlohmann keeps the last one: a config with
  // "ratio": 0.1, "ratio": 10 would silently run at 10. The parser's callback sees every key of
  // every object, so each object's keys are tracked while it is open.
  std::vector<std::set<std::string>> open_objects;
  const auto refuse_duplicates = [&](int, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    using event_t = nlohmann::json::parse_event_t;
    if (event == event_t::object_start) open_objects.emplace_back();
    else if (event == event_t::object_end && !open_objects.empty()) open_objects.pop_back();
    else if (event == event_t::key && !open_objects.empty() && !open_objects.back().insert(parsed.get<std::string>()).second)
      throw InputError("duplicate key '" + parsed.get<std::string>() + "' in " + where +
                       " (each key once per object)");
    return true;
  };
  try {
    return nlohmann::json::parse(text, refuse_duplicates);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError("malformed JSON in " + where + " at byte " + std::to_string(e.byte));
  } catch (const nlohmann::json::exception& e) {  // e.g. a number too large for a double
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
