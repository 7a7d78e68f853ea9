#include "sweep/run_output.hpp"

#include <sstream>

#include <nlohmann/json.hpp>

#include "io/files.hpp"
#include "io/run_config_json.hpp"

namespace ringsim::sweep {
namespace {

nlohmann::json transfer_json(const ColumnTransferRecord& t) {
  return {{"after_iteration", t.after_iteration},
          {"senders", t.senders},
          {"receivers", t.receivers},
          {"algorithm", t.scheduler},
          {"k", t.k},
          {"beta", t.beta},
          {"kpbs_feasible", t.kpbs_feasible},
          {"columns_over_network", t.columns_over_network},
          {"columns_local", t.columns_local},
          {"lower_bound", t.lower_bound},
          {"planned", t.planned},
          {"simulated", t.simulated},
          {"simulated_over_planned", t.planned > 0 ? nlohmann::json(t.simulated / t.planned) : nlohmann::json()},
          {"decision_time", t.decision_time},
          {"start", t.start},
          {"end", t.end},
          {"planned_steps", t.planned_steps},
          {"simulated_steps", t.simulated_steps}};
}

nlohmann::json options_json(const std::vector<std::pair<std::string, std::string>>& options) {
  nlohmann::json o = nlohmann::json::object();
  for (const auto& [name, value] : options) o[name] = value;
  return o;
}

// Which moves paid, in hindsight: each performed point's saving until the next move against the
// point's whole time (decision and transfers); null when some move has no figure.
nlohmann::json moves_in_hindsight(const std::vector<RedistributionRecord>& points) {
  nlohmann::json moves = {{"paid", 0}, {"lost", 0}, {"saved", 0.0}, {"net", 0.0}};
  for (const auto& p : points) {
    if (p.hindsight_saved) {
      const double net = *p.hindsight_saved - (p.end - p.decision_start);
      const char* verdict = net > 0.0 ? "paid" : "lost";
      moves[verdict] = moves[verdict].get<int>() + 1;
      moves["saved"] = moves["saved"].get<double>() + *p.hindsight_saved;
      moves["net"] = moves["net"].get<double>() + net;
    } else if (p.performed) {
      return nlohmann::json();
    }
  }
  return moves;
}

nlohmann::json point_json(const RedistributionRecord& p) {
  nlohmann::json hindsight_saved, hindsight_net;
  if (p.hindsight_saved) {
    hindsight_saved = *p.hindsight_saved;
    hindsight_net = *p.hindsight_saved - (p.end - p.decision_start);
  }
  return {{"after_iteration", p.after_iteration},
          {"performed", p.performed},
          {"decision_time", p.transfers_start - p.decision_start},
          {"planned", p.plan_time},
          {"predicted", p.predicted},
          {"simulated", p.simulated},
          {"lower_bound", p.lower_bound},
          {"optimal", p.optimal},
          {"algorithm", p.planner},
          {"items_moved", p.items_moved},
          {"tstep_before", p.tstep_before},
          {"tstep_after", p.tstep_after},
          {"reports", p.fresh_reports ? "gathered" : "piggybacked"},
          {"balanced_for", p.planned ? "plan" : p.balanced_for_reports ? "reports" : "policy"},
          {"decided_by", p.decided_by},
          {"decision_start", p.decision_start},
          {"transfers_start", p.transfers_start},
          {"end", p.end},
          {"hindsight_saved", hindsight_saved},
          {"hindsight_net", hindsight_net}};
}

// The fields every summary has: the config, the ring, the times and the run's settings in force.
nlohmann::json summary_fields(const RunConfig& cfg, const RunResult& res, double baseline_makespan) {
  nlohmann::json points = nlohmann::json::array();
  for (const auto& p : res.points) points.push_back(point_json(p));
  return {
      {"config", io::run_config_to_json(cfg)},
      {"ring", res.ring},
      {"ring_size", res.ring.size()},
      {"ratio", cfg.ratio},
      {"scheme", cfg.scheme.name},
      {"makespan", res.makespan},
      {"baseline_makespan", baseline_makespan > 0 ? nlohmann::json(baseline_makespan) : nlohmann::json()},
      {"normalized_time", baseline_makespan > 0 ? nlohmann::json(res.makespan / baseline_makespan) : nlohmann::json()},
      {"ideal_time", res.ideal_time},
      {"time_over_ideal", res.ideal_time > 0 ? res.makespan / res.ideal_time : 0.0},
      {"redistributions", res.redistributions},
      {"redistribution_points", res.points.size()},
      {"moves_in_hindsight", moves_in_hindsight(res.points)},
      {"decision_time", res.decision_time},
      {"transfer_time", res.transfer_time},
      {"redistribution_time", res.decision_time + res.transfer_time},
      {"predicted_transfer_time", res.predicted_transfer_time},
      {"planned_transfer_time", res.planned_transfer_time},
      {"move_model", res.moves_share_links ? "shared links" : "one-port"},
      {"flops_per_column", res.flops_per_column},
      {"realized_ratio", res.realized_ratio},
      {"column_bytes", res.column_bytes},
      {"initial_iteration_time", res.initial_iteration_time},
      {"planned_tstep", res.planned_tstep > 0 ? nlohmann::json(res.planned_tstep) : nlohmann::json()},
      {"planned_ratio_rounds", res.planned_ratio_rounds > 0 ? nlohmann::json(res.planned_ratio_rounds) : nlohmann::json()},
      {"planned_ratio_converged",
       res.planned_ratio_rounds > 0 ? nlohmann::json(res.planned_ratio_converged) : nlohmann::json()},
      {"network_model", res.network_model.empty() ? std::string(to_string(cfg.network_model)) : res.network_model},
      {"simgrid_options", options_json(res.simgrid_options)},
      {"trace_source", trace_source_name(cfg)},
      {"speeds_from_2004_machine_list", draws_from_2004_machine_list(cfg)},
      {"simgrid_version", res.simgrid_version},
      {"ringsim_version", RINGSIM_VERSION},
      {"points", points}};
}

// Section "hindsight" of a reference chosen in hindsight (src/policy/scheme.hpp).
nlohmann::json hindsight_json(const RunResult::Hindsight& h, double makespan) {
  // The model's accuracy is judged on the reference's own points, simulated whether kept or not.
  const double points_makespan = h.checked.empty() ? makespan : h.points_makespan;
  nlohmann::json out = {
      {"points", h.points},
      {"simulated_as", h.simulated_as},
      {"predicted_makespan", h.predicted_makespan},
      {"predicted_makespan_without_points", h.predicted_none},
      {"simulated_over_predicted", h.predicted_makespan > 0 ? points_makespan / h.predicted_makespan : 0.0},
      {"optimal_under_model", h.exact},
      {"planner_calls", h.planner_calls},
      {"seconds", h.seconds}};
  if (!h.point_loads.empty()) out["targets"] = h.point_loads;
  if (!h.checked.empty()) {
    nlohmann::json checked = nlohmann::json::array();
    for (const auto& c : h.checked) checked.push_back({{"scheme", c.scheme}, {"makespan", c.makespan}});
    out["check"] = {{"points_makespan", h.points_makespan}, {"points_kept", h.points_kept}, {"checked", checked}};
  }
  return out;
}

// Section "online_optimal" of the online-optimal reference (src/policy/scheme.hpp).
nlohmann::json online_optimal_json(const RunResult::OnlineOptimal& o, double makespan) {
  return {{"points", o.points},
          {"simulated_as", o.simulated_as},
          {"expected_makespan", o.expected_makespan},
          {"expected_makespan_without_points", o.expected_none},
          {"predicted_makespan", o.predicted_makespan},
          {"simulated_over_predicted", o.predicted_makespan > 0 ? makespan / o.predicted_makespan : 0.0},
          {"loads", o.loads},
          {"planner_calls", o.planner_calls},
          {"seconds", o.seconds},
          {"any_target",
           {{"expected_makespan", o.expected_any_target},
            {"points", o.any_target_points},
            {"returns_to_initial", o.any_target_returns},
            {"predicted_makespan", o.any_target_makespan},
            {"predicted_makespan_without_points", o.any_target_none},
            {"hindsight",
             {{"points", o.hindsight_any_target_points},
              {"returns_to_initial", o.hindsight_any_target_returns},
              {"predicted_makespan", o.hindsight_any_target_makespan}}}}},
          {"late",
           {{"expected_makespan", o.expected_late},
            {"delay", o.late_delay},
            {"look", o.late_look},
            {"points", o.late_path.points},
            {"looks", o.late_path.looks},
            {"predicted_makespan", o.late_path.makespan},
            {"learning",
             {{"points", o.learning_path.points},
              {"looks", o.learning_path.looks},
              {"predicted_makespan", o.learning_path.makespan},
              {"solves", o.learning_path.solves},
              {"resolve", o.learning_resolve}}}}}};
}

}  // namespace

nlohmann::json run_summary_json(const RunConfig& cfg, const RunResult& res, double baseline_makespan) {
  nlohmann::json out = summary_fields(cfg, res, baseline_makespan);
  // Only when used, so that the summaries of runs without them do not change.
  if (res.staged) out["staging"] = transfer_json(res.staging);
  if (!res.ring_routing.empty()) out["ring_routing"] = res.ring_routing;
  if (!res.above_peak.empty()) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& a : res.above_peak)
      list.push_back({{"where", a.where}, {"host", a.host}, {"speed", a.speed}, {"peak", a.peak}});
    out["speeds_above_peak"] = list;
  }
  if (!res.rebuilds.empty()) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& t : res.rebuilds) list.push_back(transfer_json(t));
    out["rebuilds"] = list;
  }
  if (res.hindsight) out["hindsight"] = hindsight_json(*res.hindsight, res.makespan);
  if (res.online_optimal) out["online_optimal"] = online_optimal_json(*res.online_optimal, res.makespan);
  return out;
}

std::string above_peak_warning(const RunResult& res) {
  if (res.above_peak.empty()) return "";
  const SpeedAbovePeak& a = res.above_peak.front();
  std::ostringstream os;
  os.precision(17);
  os << res.above_peak.size() << " trace speed(s) above their host's peak, kept (SimGrid takes multipliers > 1; "
     << "listed in speeds_above_peak), the first at " << a.where << ": host '" << a.host << "' at " << a.speed
     << " flop/s, peak " << a.peak;
  return os.str();
}

std::string iterations_csv_text(const RunResult& res, const std::string& run_id) {
  std::ostringstream os;
  os.precision(17);
  os << (run_id.empty() ? "" : "run_id,") << "iteration,start,end,duration,slowest,loads\n";
  for (const auto& it : res.iterations) {
    if (!run_id.empty()) os << run_id << ',';
    os << it.iteration << ',' << it.start << ',' << it.end << ',' << it.end - it.start << ',' << io::csv_field(it.slowest) << ',';
    for (std::size_t k = 0; k < it.loads.size(); ++k) os << (k ? ";" : "") << it.loads[k];
    os << '\n';
  }
  return os.str();
}

}  // namespace ringsim::sweep
