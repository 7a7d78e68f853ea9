// The schemes a run can name in its `scheme` (schemes.def lists them, scheme.hpp says what an
// entry is): found one way, refused one way.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/run_config.hpp"
#include "policy/policy.hpp"
#include "policy/scheme.hpp"

namespace ringsim::policy {

// Every entry: the built-in ones (schemes.def), then those added with add_scheme.
const std::vector<SchemeEntry>& scheme_entries();

// The reference a scheme names (chosen before the run, then simulated as the fixed scheme of its
// points), or nullptr for an online policy's scheme.
const SchemeEntry* reference_scheme(const std::string& scheme);

// What a scheme asks of the rest of the config, checked before any run (InputError prefixed with
// `where`): no reference combines with rebuilds (each plans for one ring), and each reference's
// own conditions (scheme.hpp, check_fits).
void check_scheme_fits(const RunConfig& cfg, const std::string& where);

// The policy a scheme names, tried against the online policies in their order; UnknownName for a
// scheme no entry reads, InputError for a malformed one (every-0), logic_error for a reference.
std::unique_ptr<RedistributionPolicy> make_policy(const std::string& scheme, int iterations);

// Checks a config's scheme (UnknownName, InputError prefixed with `where`) and says whether it
// ever redistributes.
bool scheme_redistributes(const std::string& scheme, int iterations, const std::string& where);

// "none, once, every-K, ...": the syntaxes, for help texts and error messages.
std::string scheme_syntaxes();
// The same one by one ("every-K", "after:a,b,..", ..., "online-optimal"): `ringsim config-keys`.
std::vector<std::string> scheme_syntax_list();

// A scheme from outside the built-in list (a test's, a plugin's); it is tried after those.
void add_scheme(SchemeEntry entry);
// An online policy from outside the built-in list: its syntax (one form), help and factory.
void add_policy(std::string syntax, std::string summary, PolicyFactory make);

// A scheme's integer parameter: positive, all digits; InputError naming `what` otherwise.
int positive_int_of(const std::string& text, const std::string& what);

// The scheme that never redistributes: every run's baseline (normalized_time divides by it).
inline constexpr const char* kBaselineScheme = "none";

// The fixed scheme that redistributes after exactly `points` ("after:a,b,.." or "none"): how a
// reference's points are simulated (fixed_points.cpp reads it back).
std::string fixed_scheme_of(const std::vector<int>& points);
// The points of a fixed scheme (none, once, every-K, after:..), increasing; nullopt for any other
// scheme, InputError for a malformed one.
std::optional<std::vector<int>> fixed_points_of(const std::string& scheme, int iterations);
// Whether a scheme is a fixed one (InputError for a malformed one), in the time of its text.
bool is_fixed_scheme(const std::string& scheme, int iterations);

}  // namespace ringsim::policy
