// One entry per scheme a run config can name (schemes.def lists them): the online policies, which
// decide during the run on what a member can know (policy.hpp), and the references, which choose
// their points before the run from what no member can know (the traces, or the load's law) and are
// then simulated as the fixed scheme of those points. Both kinds are one entry type, shaped like the
// other registries' (NamedInfo: the name is the scheme's syntax, the description its line of help).
//
// Adding a scheme: one file in src/policy/ defining `SchemeEntry NAME_scheme()` and one line
// `RINGSIM_SCHEME(NAME)` in src/policy/schemes.def. A scheme's name, or the syntax of each of its
// forms, is written once, in its entry: the registry reads a scheme against it and hands an online
// policy's factory what the form's parameter says (SchemeArgs).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "model/named.hpp"
#include "model/run_config.hpp"
#include "model/run_result.hpp"
#include "model/speed_traces.hpp"
#include "planners/points/hindsight_plan.hpp"
#include "policy/policy.hpp"

namespace ringsim::policy {

// What a scheme knows when it decides; the first three are what a member can know.
enum class Knows {
  iteration_count,      // fixed points: the run's length only
  reports,              // the members' measurements, as they reach it in simulated messages
  gathered_reports,     // the same, gathered around the ring at each look
  load_states_and_law,  // every member's on/off state after each iteration and the load's law (a bound)
  future_traces,        // every speed of the run in advance (clairvoyant: a bound)
};
const char* to_string(Knows k);

// What a reference plans from: the simulation's model of this run (the planners' costs, each
// member's computation as the members will apply their traces) and the traces themselves.
struct ReferenceInput {
  const RunConfig* config = nullptr;
  const points::RunModel* model = nullptr;
  std::vector<double> peak;                 // the members' nominal speeds, flop/s
  std::vector<const HostTrace*> traces;     // per member; empty: constant speeds
  std::vector<bool> placed_by_iteration;    // per member: its changes fall between iterations
};

// A reference's answer: the points to simulate and, where it chose them, the loads each point
// moves to (by the iteration it follows; absent: the point balances for its decision speeds).
struct ReferencePlan {
  std::vector<int> points;
  std::map<int, std::vector<std::int64_t>> point_loads;
};

struct SchemeEntry : NamedInfo {
  Knows knows = Knows::reports;
  // An online policy: the policy a scheme names, nullptr for a scheme that is not this entry's,
  // InputError for one of its own that is malformed (every-0).
  std::function<std::unique_ptr<RedistributionPolicy>(const std::string& scheme, int iterations)> make;
  // A reference (exactly its name): its points, its own fields written into the run's result.
  using Planner = std::function<ReferencePlan(const ReferenceInput& in, RunResult& result)>;
  Planner plan;
  // What the reference asks of the rest of the config (InputError starting with `prefix`, which
  // names the config and the scheme); rebuilds are refused for every reference before it is asked.
  using FitCheck = std::function<void(const RunConfig& cfg, const std::string& prefix)>;
  FitCheck check_fits;
  // A clairvoyant reference is optimal over fixed points only under the simulation's model, which
  // is not exact (moves and outages that follow the clock, shared links): the run also simulates
  // the config's `reference_check` schemes and reports the fastest, so that the reference is never
  // slower in the simulation than a scheme it must beat. (online-optimal is not: its optimum is an
  // expectation over the load's law, which one run's traces may beat.)
  bool checked_in_simulation = false;

  bool is_reference() const { return static_cast<bool>(plan); }
};

// A scheme as the registry read it against one form of an entry's syntax. A form is a name
// ("adaptive"), a name and a positive integer K ("every-K": "every-7"), or a name and a list of
// iterations before the last ("after:a,b,..": "after:3,8"); malformed parameters are refused with
// an InputError before any factory runs.
struct SchemeArgs {
  std::string scheme;        // as the config wrote it, for messages
  int iterations = 0;        // the run's
  int period = 0;            // K of a form NAME-K (0: the form has none)
  std::set<int> listed;      // the iterations of a form NAME:a,b,.. (empty: the form has none)
};

// An online policy's factory: the policy a scheme written in its form names.
using PolicyFactory = std::function<std::unique_ptr<RedistributionPolicy>(const SchemeArgs& args)>;

// One form of an online policy's syntax and its factory.
struct SchemeForm {
  std::string syntax;
  PolicyFactory make;
};

// The entry of an online policy: its forms (its syntax lists them in this order, as "none, once,
// every-K"), its line of help, what it knows. Its `make` finds the form a scheme is written in
// (registry.cpp).
SchemeEntry online_policy(std::vector<SchemeForm> forms, std::string summary, Knows knows);
// The same for a policy of one form, most often its name alone.
inline SchemeEntry online_policy(std::string syntax, std::string summary, Knows knows, PolicyFactory make) {
  return online_policy({SchemeForm{std::move(syntax), std::move(make)}}, std::move(summary), knows);
}

// The parameters of `scheme` when it is written in the form `syntax` (one form: "every-K"), or
// nullopt when it is not; InputError when it is, with a malformed parameter ("every-0").
std::optional<SchemeArgs> read_scheme_form(const std::string& syntax, const std::string& scheme, int iterations);

// The entry of a reference: its name, its line of help, what it knows, its planner and what it
// asks of the config (none: only the refusal of rebuilds every reference shares).
inline SchemeEntry reference_entry(std::string name, std::string summary, Knows knows, SchemeEntry::Planner plan,
                                   SchemeEntry::FitCheck check_fits = nullptr) {
  SchemeEntry e;
  e.name = std::move(name);
  e.description = std::move(summary);
  e.knows = knows;
  e.plan = std::move(plan);
  e.check_fits = std::move(check_fits);
  return e;
}

// What a reference's planning took, s of wall-clock time since `t0` (its report's `seconds`).
inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace ringsim::policy
