// The redistribution policies a run can name in its `scheme` (policies.def lists them).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "model/run_config.hpp"
#include "policies/policy.hpp"

namespace ringsim::policy {

// Not a policy: the hindsight-optimal points, chosen before the run with the traces known
// (planners/points/hindsight.hpp), which the simulation then runs as the fixed scheme of its points.
// Checked and listed with the policies' schemes; make_policy never gets it.
inline constexpr const char* kHindsightScheme = "hindsight";
// The same with chosen targets: points that may balance for any iteration's speeds or return to
// the initial loads (planners/points/hindsight_targets.hpp), simulated as the fixed scheme of its
// points with each point's move given. Speeds indexed by the iteration only.
inline constexpr const char* kHindsightTargetsScheme = "hindsight-targets";
// Not a policy either: the points of the best online rule that knows every member's on/off state
// and the load's law, not its future (planners/points/online_optimal.hpp), chosen before the run
// along its traces and simulated like hindsight's.
inline constexpr const char* kOnlineOptimalScheme = "online-optimal";

// Whether the scheme is resolved into fixed points before the run (hindsight, hindsight-targets,
// online-optimal).
bool scheme_chosen_before_run(const std::string& scheme);

// What a scheme asks of the rest of the config, checked before any run (InputError prefixed with
// `where`): online-optimal needs geometric on/off traces placed by iteration, a ring of at most
// 8 members (its recursion is over the 2^n joint states) and no rebuilds; hindsight no rebuilds;
// hindsight-targets no rebuilds and traces placed by iteration (the simulation refuses, when the
// run starts, the other traces whose speeds follow the clock).
void check_scheme_fits(const RunConfig& cfg, const std::string& where);

// The policy a scheme names, tried against the built-in policies (policies.def), then those added
// with add_policy; UnknownName for a scheme none of them reads, InputError for a malformed one
// (every-0).
std::unique_ptr<RedistributionPolicy> make_policy(const std::string& scheme, int iterations);

// Checks a config's scheme (UnknownName, InputError prefixed with `where`) and says whether its
// policy ever redistributes.
bool scheme_redistributes(const std::string& scheme, int iterations, const std::string& where);

// "none, once, every-K, ...": the syntaxes, for help texts and error messages.
std::string scheme_syntaxes();
// The same one by one ("every-K", "after:a,b,..", ..., "online-optimal"): `ringsim config-keys`.
std::vector<std::string> scheme_syntax_list();

// A policy from outside the built-in list (a test's, a plugin's); it is tried after those.
void add_policy(PolicyEntry entry);

// A scheme's integer parameter: positive, all digits; InputError naming `what` otherwise.
int positive_int_of(const std::string& text, const std::string& what);

}  // namespace ringsim::policy
