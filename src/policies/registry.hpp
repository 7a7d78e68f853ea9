// The redistribution policies a run can name in its `scheme` (policies.def lists them).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "policies/policy.hpp"

namespace ringsim::policy {

// The policy a scheme names, tried against the built-in policies (policies.def), then those added
// with add_policy; InputError for an unknown or malformed scheme.
std::unique_ptr<RedistributionPolicy> make_policy(const std::string& scheme, int iterations);

// "none, once, every-K, ...": the syntaxes, for help texts and error messages.
std::string scheme_syntaxes();

// A policy from outside the built-in list (a test's, a plugin's); it is tried after those.
void add_policy(PolicyEntry entry);

// A scheme's integer parameter: positive, all digits; InputError naming `what` otherwise.
int positive_int_of(const std::string& text, const std::string& what);

}  // namespace ringsim::policy
