// What a bad input is refused with, for tests of one-line error messages.
#pragma once

#include <functional>
#include <string>

#include "model/errors.hpp"

namespace ringsim::testing {

// The InputError message `f` throws ("" when it throws none).
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace ringsim::testing
