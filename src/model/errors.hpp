// Bad input (files, JSON, command-line values): the command line answers exit status 2 with
// the message, which must name the problem in one line.
#pragma once

#include <stdexcept>
#include <string>

namespace ringsim {

struct InputError : std::runtime_error {
  explicit InputError(const std::string& what) : std::runtime_error(what) {}
};

// Runs body(); a refusal it raises (InputError, or std::invalid_argument from a model check) is
// raised again naming `where` (the input's file) unless its message already does: models and
// planners name only the problem, and every error must name the file it comes from.
template <class Body>
void naming_the_input(const std::string& where, Body&& body) {
  const auto named = [&where](const char* what) {
    const std::string message = what;
    return InputError(message.find(where) == std::string::npos ? where + ": " + message : message);
  };
  try {
    body();
  } catch (const InputError& e) {
    throw named(e.what());
  } catch (const std::invalid_argument& e) {
    throw named(e.what());
  }
}

}  // namespace ringsim
