// Bad input (files, JSON, command-line values): the command line answers exit status 2 with
// the message, which must name the problem in one line.
#pragma once

#include <stdexcept>
#include <string>

namespace ringsim {

struct InputError : std::runtime_error {
  explicit InputError(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace ringsim
