// Choices made by name -- redistribution algorithms, KPBS algorithms, ring methods, policies: each
// a list of entries with a name and a description, found one way and refused one way: an unknown
// name is bad input (exit 2) whose one line lists the known names.
#pragma once

#include <string>
#include <vector>

#include "model/errors.hpp"

namespace ringsim {

struct NamedInfo {
  std::string name;
  std::string description;
};

struct UnknownName : InputError {
  UnknownName(const std::string& kind, const std::string& name, const std::string& known)
      : InputError("unknown " + kind + " '" + name + "' (known: " + known + ")") {}
};

// "a, b, c": the names of `entries` (each a NamedInfo), after `first` when given.
template <class Entry>
std::string known_names(const std::vector<Entry>& entries, const std::string& first = "") {
  std::string known = first;
  for (const NamedInfo& e : entries) known += (known.empty() ? "" : ", ") + e.name;
  return known;
}

// The entry named `name`; UnknownName(kind, ...) otherwise. `also_known`: names accepted before
// the lookup (such as "auto"), listed first in the message.
template <class Entry>
const Entry& find_named(const std::vector<Entry>& entries, const std::string& name, const std::string& kind,
                        const std::string& also_known = "") {
  for (const Entry& e : entries)
    if (static_cast<const NamedInfo&>(e).name == name) return e;
  throw UnknownName(kind, name, known_names(entries, also_known));
}

// The names and descriptions alone (help texts).
template <class Entry>
std::vector<NamedInfo> infos_of(const std::vector<Entry>& entries) {
  return {entries.begin(), entries.end()};
}

}  // namespace ringsim
