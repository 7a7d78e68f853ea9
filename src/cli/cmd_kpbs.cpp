// `ringsim kpbs FILE|-`: schedule the transfers between two clusters through a backbone (KPBS,
// seeds/kpbs-ggp-backbone-message-scheduling.md). JSON in, JSON out (docs/design.md, the JSON contracts).
#include <iostream>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "io/json_input.hpp"
#include "io/kpbs_json.hpp"
#include "model/errors.hpp"
#include "planners/kpbs/kpbs_planner.hpp"
#include "planners/kpbs/lower_bound.hpp"

namespace ringsim::cli {
namespace {

const char* const kInputHelp = R"(Input (JSON object), times given directly:
  {"k": 3, "beta": 1.0, "matrix": [[0, 2], [1, 1]], "algorithm": "ggp"}
    matrix[i][j] >= 0: time for sender i (cluster 1) to send its data for receiver j
    (cluster 2) at full speed; 0: nothing to send. k >= 1: most transfers at once.
    beta >= 0: setup delay paid by every step, in the same time unit.
or bytes and the clusters (the KPBS paper's Section 1.1):
  {"beta": 0.1, "bytes": [[3e7, 2e7], [0, 1.5e7]],
   "clusters": {"b1": 1e7, "b2": 1e7, "bb": 4e7, "v1": 4, "v2": 4}}
    b1, b2: bandwidth of a node's link to its switch in cluster 1 / 2; bb: backbone
    bandwidth (bytes per time unit); v1, v2: nodes per cluster (default: matrix rows /
    columns). k = min(v1, v2, floor(bb / min(b1, b2, bb))) and time = bytes / min(b1, b2, bb).
    "clusters" can also come with "matrix" to derive k (then "k" must not be given).
Output: algorithm, time (sum of step durations), lower_bound (eta = eta_d + beta * eta_e,
  with eta_d = max(W, P/k), eta_e = max(Delta, ceil(m/k)); the KPBS paper's ceil(P/k) is not a
  bound when preemption amounts are real, see lower_bound.hpp), lower_bound_terms, k, beta,
  kpbs_feasible, notes, unit_bandwidth (with "clusters": bytes = amount * unit_bandwidth) and
  steps: [{"duration", "comms": [{"from", "to", "amount"}]}]: at most k comms per step, each
  node at most once, duration = beta + longest amount, amounts of a pair add up to its entry.
beta = 0: GGP/OGGP round weights to a tiny power-of-two unit instead of beta (the KPBS paper divides
  by beta) and reach time = max(W, P/k), the optimum, up to about 2^-40 of it.
all-at-once is not a KPBS schedule (kpbs_feasible: false): its single step holds every
  transfer, and its time is beta + the makespan of a fluid model, max-min fair sharing of each
  node's link (capacity 1 transfer, or b1/min, b2/min) and of the backbone (k, or bb/min).
Algorithms (field "algorithm" or --algorithm; default ggp):)";

}  // namespace

void add_kpbs_command(CLI::App* cmd) {
  std::string footer = kInputHelp;
  for (const auto& a : kpbs::kpbs_algorithms()) footer += "\n  " + a.name + ": " + a.description;
  cmd->footer(footer);
  auto input = std::make_shared<std::string>();
  auto scheduler = std::make_shared<std::string>();
  cmd->add_option("FILE", *input, "instance file, or - for standard input")->required();
  cmd->add_option("--algorithm", *scheduler, "overrides the instance's \"algorithm\" field (ggp, oggp, greedy, all-at-once)");
  cmd->callback([input, scheduler] {
    io::KpbsRequest req;
    KpbsSchedule sched;
    kpbs::KpbsLowerBound b;
    naming_the_input(*input == "-" ? "standard input" : "'" + *input + "'", [&] {
      req = io::parse_kpbs_request(io::read_kpbs_document(*input));
      if (!scheduler->empty()) req.scheduler = *scheduler;
      sched = kpbs::plan_kpbs(req.instance, req.scheduler);
      b = kpbs::kpbs_lower_bound(req.instance);
    });
    nlohmann::json out = io::kpbs_schedule_to_json(sched);
    out["k"] = req.instance.k;
    out["beta"] = req.instance.beta;
    out["lower_bound_terms"] = {{"W", b.W}, {"P", b.P}, {"Delta", b.Delta}, {"m", b.m},
                                {"eta_d", b.eta_d}, {"eta_e", b.eta_e}};
    if (req.unit_bandwidth) out["unit_bandwidth"] = *req.unit_bandwidth;
    std::cout << out.dump() << '\n';
  });
}

}  // namespace ringsim::cli
