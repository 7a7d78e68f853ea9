// The redistribution policies a run can name in its `scheme` (policies.def lists them).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sim/policies/policy.hpp"

namespace ringsim::policy {

// The built-in policies (policies.def), then any added with add_policy.
std::vector<PolicyEntry> registered_policies();

// The policy a scheme names; InputError for an unknown or malformed scheme.
std::unique_ptr<RedistributionPolicy> make_policy(const std::string& scheme, int iterations);

// "none, once, every-K, ...": the syntaxes, for help texts and error messages.
std::string scheme_syntaxes();

// A policy from outside the built-in list (a test's, a plugin's); it is tried after those.
void add_policy(PolicyEntry entry);

// A scheme's integer parameter: positive, all digits; InputError naming `what` otherwise.
int positive_int_of(const std::string& text, const std::string& what);

}  // namespace ringsim::policy
