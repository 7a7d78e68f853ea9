// Strict reading of JSON documents: every error is an InputError naming the key and the problem.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace ringsim::io {

// The most bytes read from one input file or standard input (512 MiB).
constexpr std::size_t kMaxInputBytes = std::size_t{512} << 20;
// An environment variable that lowers that limit (a number of bytes; larger values keep 512 MiB):
// for a shared machine, and for tests of the limit that need not stream half a gigabyte.
constexpr const char* kMaxInputBytesVariable = "RINGSIM_MAX_INPUT_BYTES";
// The limit in force: kMaxInputBytes, or less when kMaxInputBytesVariable says so.
std::size_t max_input_bytes();

// The bytes of FILE (a regular file), or of standard input when path is "-" (InputError if
// unreadable, not a regular file, or larger than max_input_bytes()).
std::string read_text(const std::string& path);

// Parses FILE, or standard input when path is "-"; a key given twice in one object is refused.
nlohmann::json read_json_document(const std::string& path);
// The same for text already read; `where` names it in errors ("'file.json'", "standard input").
nlohmann::json parse_json_text(const std::string& text, const std::string& where);
// How errors name PATH: 'PATH', or standard input for "-".
std::string where_of(const std::string& path);

// Rejects keys outside `allowed` ("unknown key 'x' in <where>").
void require_known_keys(const nlohmann::json& obj, std::initializer_list<const char*> allowed, const std::string& where);
void require_known_keys(const nlohmann::json& obj, const std::vector<std::string>& allowed, const std::string& where);

}  // namespace ringsim::io
