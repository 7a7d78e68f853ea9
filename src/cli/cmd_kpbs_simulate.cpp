// `ringsim kpbs-simulate FILE|-`: plan a KPBS schedule (as `ringsim kpbs`), then execute it in
// SimGrid on the KPBS paper's two clusters joined by a backbone, and simulate the unscheduled
// all-at-once transfer in a child process (fork before any Engine: one simulation per process).
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <xbt/log.h>

#include "cli/command_table.hpp"
#include "cli/commands.hpp"
#include "io/process.hpp"
#include "model/run_config.hpp"
#include "platform/simgrid_options.hpp"
#include "io/json_input.hpp"
#include "io/kpbs_json.hpp"
#include "model/errors.hpp"
#include "planners/kpbs/kpbs_planner.hpp"
#include "kpbs_sim/kpbs_simulation.hpp"

namespace ringsim::cli {
namespace {

const char* const kHelp = R"(Input: the `ringsim kpbs` instance with "clusters" required, e.g.
  {"beta": 0.5, "bytes": [[3e7, 2e7], [0, 1.5e7]],
   "clusters": {"b1": 1e7, "b2": 1e7, "bb": 2e7}, "latency": 0, "algorithm": "ggp"}
  ("matrix" in time units also works: bytes = amount * min(b1, b2, bb)). b1, b2, bb in bytes/s;
  optional "latency": backbone latency in s (default 1e-4; node links have none).
Platform: v1 + v2 hosts (c1-i, c2-j), each on its own link (b1, b2) to its switch, the switches
  joined by the backbone (bb); routes c1-i -> link -> backbone -> link -> c2-j (Full zone).
Schedule playback: each step sleeps beta, starts its transfers together, waits for all.
All-at-once (child process): sleeps beta once, starts every pair's whole message at time 0.
Output: algorithm, k, beta, unit_bandwidth, latency, network_model, lower_bound (eta),
  planned_time, simulated_time, ratio_to_eta (simulated / eta), all_at_once {planned_time,
  simulated_time, ratio_to_eta}, steps [{planned, simulated, comms}].
Under the linear model with latency 0, a step's simulated duration is beta + its longest amount.
SimGrid options pass through: --cfg=name:value, --log=category.thres:level.)";

// "latency" is ours; the rest is the `ringsim kpbs` contract, parsed by the same reader.
double take_latency(nlohmann::json& doc) {
  if (!doc.is_object() || !doc.contains("latency")) return 1e-4;
  const auto v = doc["latency"];
  doc.erase("latency");
  if (!v.is_number()) throw InputError("'latency' must be a number (seconds)");
  const double l = v.get<double>();
  if (!std::isfinite(l) || l < 0) throw InputError("'latency' must be finite and >= 0");
  return l;
}

kpbs_sim::KpbsPlatformSpec platform_of(const nlohmann::json& doc, const KpbsInstance& inst, double latency, bool linear) {
  const auto& c = doc["clusters"];
  kpbs_sim::KpbsPlatformSpec p;
  p.b1 = c["b1"].get<double>();
  p.b2 = c["b2"].get<double>();
  p.bb = c["bb"].get<double>();
  // Idle nodes beyond the matrix change nothing: only the matrix's nodes are built.
  p.v1 = inst.senders();
  p.v2 = inst.receivers();
  p.latency = latency;
  p.linear_model = linear;
  return p;
}

}  // namespace

void add_kpbs_simulate_command(CLI::App* cmd) {
  std::string footer = kHelp;
  footer += "\nAlgorithms (field \"algorithm\" or --algorithm; default ggp):";
  for (const auto& a : kpbs::kpbs_algorithms()) footer += "\n  " + a.name + ": " + a.description;
  cmd->footer(footer);
  cmd->allow_extras();
  auto input = std::make_shared<std::string>();
  auto scheduler = std::make_shared<std::string>();
  auto model = std::make_shared<std::string>("linear");
  auto no_aao = std::make_shared<bool>(false);
  cmd->add_option("FILE", *input, "instance file, or - for standard input")->required();
  cmd->add_option("--algorithm", *scheduler, "overrides the instance's \"algorithm\" field (ggp, oggp, greedy, all-at-once)");
  cmd->add_option("--network-model", *model, "linear (CM02, no TCP effects; default) or lv08 (TCP-like)");
  cmd->add_flag("--no-all-at-once", *no_aao, "skip the all-at-once simulation (child process)");
  cmd->callback([cmd, input, scheduler, model, no_aao] {
    if (*model != "linear" && *model != "lv08") throw InputError("--network-model must be linear or lv08, not '" + *model + "'");
    nlohmann::json doc = io::read_kpbs_document(*input);
    const double latency = take_latency(doc);
    if (doc.is_object() && !doc.contains("clusters"))
      throw InputError("kpbs-simulate needs 'clusters' (b1, b2, bb) to build the platform");
    auto req = io::parse_kpbs_request(doc);
    if (!scheduler->empty()) req.scheduler = *scheduler;
    const std::vector<std::string> extras = cmd->remaining();
    io::EngineArgs args(extras);  // rejects stray arguments before any simulation starts
    RunConfig setup;  // what SimGrid is told: the command line and the model preset, no platform file
    setup.platform.clear();
    setup.network_model = *model == "linear" ? NetworkModel::linear : NetworkModel::lv08;
    platform::check_simgrid_setup(setup, extras);
    const kpbs_sim::KpbsPlatformSpec spec = platform_of(doc, req.instance, latency, *model == "linear");
    const double unit = *req.unit_bandwidth;
    const KpbsSchedule sched = kpbs::plan_kpbs(req.instance, req.scheduler);
    const KpbsSchedule aao = kpbs::plan_kpbs(req.instance, "all-at-once");
    xbt_log_control_set("xbt_cfg.thres:warning");

    std::unique_ptr<io::ChildValue> child;
    if (!*no_aao)
      child = std::make_unique<io::ChildValue>(
          [&] {
            io::EngineArgs child_args(extras);
            return kpbs_sim::simulate_kpbs_schedule(aao, req.instance.beta, unit, spec, &child_args.argc, child_args.argv.data())
                .makespan;
          },
          "all-at-once simulation");
    const auto res = kpbs_sim::simulate_kpbs_schedule(sched, req.instance.beta, unit, spec, &args.argc, args.argv.data());
    const double aao_sim = *no_aao ? NAN : child->get();

    const double eta = sched.lower_bound;
    auto ratio = [eta](double t) { return eta > 0 ? nlohmann::json(t / eta) : nlohmann::json(nullptr); };
    nlohmann::json out;
    out["algorithm"] = sched.scheduler;
    out["k"] = req.instance.k;
    out["beta"] = req.instance.beta;
    out["unit_bandwidth"] = unit;
    out["latency"] = latency;
    out["network_model"] = *model;
    out["lower_bound"] = eta;
    out["planned_time"] = sched.time;
    out["simulated_time"] = res.makespan;
    out["ratio_to_eta"] = ratio(res.makespan);
    if (*no_aao) {
      out["all_at_once"] = {{"planned_time", aao.time}, {"simulated_time", nullptr}};
    } else {
      out["all_at_once"] = {{"planned_time", aao.time}, {"simulated_time", aao_sim}, {"ratio_to_eta", ratio(aao_sim)}};
    }
    nlohmann::json steps = nlohmann::json::array();
    for (std::size_t s = 0; s < sched.steps.size(); ++s)
      steps.push_back({{"planned", sched.steps[s].duration},
                       {"simulated", s < res.step_durations.size() ? res.step_durations[s] : NAN},
                       {"comms", sched.steps[s].comms.size()}});
    out["steps"] = steps;
    std::cout << out.dump() << '\n';
  });
}

}  // namespace ringsim::cli
