#include "io/ring_json.hpp"

#include <cmath>

#include <nlohmann/json.hpp>

namespace ringsim::io {
namespace {

nlohmann::json number(double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr); }

nlohmann::json numbers(const std::vector<double>& xs) {
  auto out = nlohmann::json::array();
  for (double x : xs) out.push_back(number(x));
  return out;
}

nlohmann::json path_json(const ring::RingNetwork& net, const ring::HostPath& path, double bw, const char* role) {
  auto links = nlohmann::json::array();
  for (auto l : path.links) links.push_back(net.link_name(l));
  return {{"from", net.host_name(path.from)}, {"to", net.host_name(path.to)}, {"role", role},
          {"links", links},                   {"bandwidth", bw},              {"time", nullptr}};
}

}  // namespace

nlohmann::json ring_plan_to_json(const ring::RingNetwork& net, const ring::Workload& load, const ring::RingPlan& plan) {
  nlohmann::json doc;
  doc["method"] = plan.method;
  doc["tstep"] = number(plan.tstep);
  auto ring = nlohmann::json::array();
  for (auto h : plan.ring) ring.push_back(net.host_name(h));
  doc["ring"] = ring;
  doc["alpha"] = numbers(plan.alpha);
  auto paths = nlohmann::json::array();
  for (std::size_t m = 0; m < plan.succ.size(); ++m) {
    auto s = path_json(net, plan.succ[m], plan.succ_bw[m], "succ");
    s["time"] = load.comm / plan.succ_bw[m];
    paths.push_back(s);
    auto p = path_json(net, plan.pred[m], plan.pred_bw[m], "pred");
    p["time"] = load.comm / plan.pred_bw[m];
    paths.push_back(p);
  }
  doc["paths"] = paths;
  doc["q"] = plan.ring.size();
  doc["work"] = load.work;
  doc["comm"] = load.comm;
  doc["tstep_per_work"] = number(plan.tstep / load.work);
  doc["tstep_eq4"] = number(plan.tstep_eq4);
  doc["wcumul"] = number(plan.wcumul);
  auto members = nlohmann::json::array();
  for (std::size_t m = 0; m < plan.ring.size(); ++m)
    members.push_back({{"host", net.host_name(plan.ring[m])},
                       {"speed", net.speed(plan.ring[m])},
                       {"alpha", number(plan.alpha[m])},
                       {"compute_time", number(plan.compute_time[m])},
                       {"comm_time", number(plan.comm_time[m])},
                       {"time", number(plan.compute_time[m] + plan.comm_time[m])}});
  doc["members"] = members;
  doc["fractions"] = plan.fractions;
  if (std::isfinite(plan.fraction_gap)) doc["fraction_gap"] = plan.fraction_gap;
  if (!plan.objective_name.empty()) {
    doc["objective_name"] = plan.objective_name;
    doc["objective"] = number(plan.objective);
  }
  if (plan.optimal) doc["optimal"] = *plan.optimal;
  if (std::isfinite(plan.mip_gap)) doc["mip_gap"] = plan.mip_gap;
  if (!plan.tstep_by_size.empty()) doc["tstep_by_size"] = numbers(plan.tstep_by_size);
  if (!plan.objective_by_size.empty()) doc["objective_by_size"] = numbers(plan.objective_by_size);
  if (!plan.criterion.empty()) doc["criterion"] = plan.criterion;
  if (plan.candidates > 0) {
    doc["candidates"] = plan.candidates;
    doc["exact_evaluations"] = plan.evaluations;
  }
  if (!plan.note.empty()) doc["note"] = plan.note;
  doc["platform"] = {{"hosts", net.host_count()},
                     {"links", net.link_count()},
                     {"routing", to_string(net.platform().routing)},
                     {"paths", net.fixed_routes() ? "the platform's routes" : "chosen (widest paths)"}};
  return doc;
}

}  // namespace ringsim::io
