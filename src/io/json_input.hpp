// Strict reading of JSON documents: every error is an InputError naming the key and the problem.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace ringsim::io {

// The bytes of FILE, or of standard input when path is "-" (InputError if unreadable).
std::string read_text(const std::string& path);

// Parses FILE, or standard input when path is "-".
nlohmann::json read_json_document(const std::string& path);

// Rejects keys outside `allowed` ("unknown key 'x' in <where>").
void require_known_keys(const nlohmann::json& obj, std::initializer_list<const char*> allowed, const std::string& where);
void require_known_keys(const nlohmann::json& obj, const std::vector<std::string>& allowed, const std::string& where);

}  // namespace ringsim::io
