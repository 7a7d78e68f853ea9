#include "io/redistribution_json.hpp"

#include <cmath>

#include <nlohmann/json.hpp>

#include "io/json_input.hpp"
#include "model/errors.hpp"

namespace ringsim::io {
namespace {

const nlohmann::json& field(const nlohmann::json& doc, const char* key) {
  const auto it = doc.find(key);
  if (it == doc.end()) throw InputError(std::string("missing field '") + key + "'");
  return *it;
}

std::vector<Count> integer_array(const nlohmann::json& doc, const char* key) {
  const auto& a = field(doc, key);
  if (!a.is_array()) throw InputError(std::string("'") + key + "' must be an array of integers");
  std::vector<Count> v;
  v.reserve(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto& x = a[i];
    if (!x.is_number_integer())
      throw InputError(std::string(key) + "[" + std::to_string(i) + "] must be an integer");
    v.push_back(x.get<Count>());
  }
  return v;
}

std::vector<double> number_array(const nlohmann::json& doc, const char* key) {
  const auto& a = field(doc, key);
  if (!a.is_array()) throw InputError(std::string("'") + key + "' must be an array of numbers");
  std::vector<double> v;
  v.reserve(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto& x = a[i];
    if (!x.is_number()) throw InputError(std::string(key) + "[" + std::to_string(i) + "] must be a number");
    v.push_back(x.get<double>());
  }
  return v;
}

}  // namespace

RedistributionRequest parse_redistribution_request(const nlohmann::json& doc) {
  if (!doc.is_object()) throw InputError("the instance must be a JSON object");
  require_known_keys(doc, {"bidirectional", "loads", "targets", "cost_next", "cost_prev", "algorithm"},
                     "the instance");
  RedistributionRequest req;
  RingInstance& inst = req.instance;
  if (const auto it = doc.find("bidirectional"); it != doc.end()) {
    if (!it->is_boolean()) throw InputError("'bidirectional' must be true or false");
    inst.bidirectional = it->get<bool>();
  }
  inst.loads = integer_array(doc, "loads");
  inst.targets = integer_array(doc, "targets");
  inst.cost_next = number_array(doc, "cost_next");
  if (doc.contains("cost_prev")) inst.cost_prev = number_array(doc, "cost_prev");
  if (const auto it = doc.find("algorithm"); it != doc.end()) {
    if (!it->is_string()) throw InputError("'algorithm' must be a string");
    req.algorithm = it->get<std::string>();
  }
  validate(inst);
  return req;
}

nlohmann::json plan_to_json(const RedistributionPlan& plan) {
  nlohmann::json transfers = nlohmann::json::array();
  for (const auto& t : plan.transfers)
    transfers.push_back({{"from", t.from}, {"to", t.to}, {"direction", to_string(t.dir)},
                         {"items", t.items}, {"start", t.start}, {"end", t.end}});
  nlohmann::json out = {{"algorithm", plan.algorithm},
                        {"time", plan.time},
                        {"lower_bound", plan.lower_bound},
                        {"optimal", plan.optimal},
                        {"send_next", plan.send_next},
                        {"send_prev", plan.send_prev},
                        {"transfers", std::move(transfers)}};
  if (!plan.notes.empty()) out["notes"] = plan.notes;
  return out;
}

}  // namespace ringsim::io
