// The "no schedule" baseline: every communication starts at once and the network shares itself.
// This is not a KPBS schedule (it ignores k and the one-port rule; kpbs_feasible is false), so
// its time is an estimate under a fluid model, the one SimGrid's CM02 network model uses:
// max-min fair sharing (progressive filling) of
//   - each sender's link: sender_capacity (1 unless the cluster bandwidths say b1 / min(b1, b2, bb)),
//   - each receiver's link: receiver_capacity (1, or b2 / min(b1, b2, bb)),
//   - the backbone: backbone_capacity (k, or bb / min(b1, b2, bb)),
// in units of one full-speed transfer, so that a communication alone runs at rate 1 (its matrix
// entry is its time). Rates are recomputed whenever a communication ends. One setup delay beta
// is paid once, all connections being opened together: time = beta + fluid makespan. The
// makespan is at least max(W, P / backbone_capacity) and usually more, because fair sharing
// does not favour the busiest node. The simulation measures the real thing (TCP, latencies).
// The output holds one "step" with every communication in full and duration = time.
#include <algorithm>
#include <limits>

#include "planners/kpbs/kpbs_algorithms.hpp"

namespace ringsim::kpbs {
namespace {

struct Flow {
  std::size_t from, to;
  double left;
  double rate = 0.0;
  bool frozen = false;
  bool done = false;
};

// Max-min fair rates of the flows not done (progressive filling): raise every unfrozen rate
// together until a link saturates, freeze the flows through it, repeat. Links: senders
// 0..n1-1, receivers n1..n1+n2-1, the backbone last; `members` lists each link's flows.
void fair_rates(std::vector<Flow>& flows, const std::vector<std::vector<std::size_t>>& members,
                const std::vector<double>& capacity, std::size_t n1) {
  const std::size_t C = capacity.size();
  std::vector<double> room = capacity;
  std::vector<std::size_t> count(C, 0);
  std::size_t unfrozen = 0;
  for (auto& f : flows) {
    if (f.done) continue;
    f.frozen = false;
    ++unfrozen;
    ++count[f.from];
    ++count[n1 + f.to];
    ++count[C - 1];
  }
  std::vector<std::size_t> links;
  for (std::size_t c = 0; c < C; ++c)
    if (count[c] > 0) links.push_back(c);
  double level = 0.0;
  std::vector<std::size_t> saturated;
  while (unfrozen > 0) {
    double delta = std::numeric_limits<double>::infinity();
    for (std::size_t c : links) delta = std::min(delta, room[c] / static_cast<double>(count[c]));
    level += delta;
    saturated.clear();
    for (std::size_t c : links) {
      const double share = room[c] / static_cast<double>(count[c]);
      room[c] -= delta * static_cast<double>(count[c]);
      if (share <= delta * (1 + 1e-12)) saturated.push_back(c);
    }
    for (std::size_t c : saturated)
      for (std::size_t x : members[c]) {
        Flow& f = flows[x];
        if (f.done || f.frozen) continue;
        f.frozen = true;
        f.rate = level;
        --unfrozen;
        --count[f.from];
        --count[n1 + f.to];
        --count[C - 1];
      }
    links.erase(std::remove_if(links.begin(), links.end(), [&](std::size_t c) { return count[c] == 0; }), links.end());
  }
}

}  // namespace

KpbsSchedule plan_all_at_once(const KpbsInstance& inst) {
  KpbsSchedule sched;
  sched.scheduler = "all-at-once";
  sched.kpbs_feasible = false;
  sched.notes.push_back("not a KPBS schedule: every communication starts at once (k and one-port ignored); time = "
                        "beta + makespan of max-min fair fluid sharing of the sender, receiver and backbone links");
  std::vector<Flow> flows;
  KpbsStep step;
  for (std::size_t i = 0; i < inst.senders(); ++i)
    for (std::size_t j = 0; j < inst.receivers(); ++j)
      if (inst.times[i][j] > 0) {
        flows.push_back({i, j, inst.times[i][j]});
        step.comms.push_back({i, j, inst.times[i][j]});
      }
  if (flows.empty()) return sched;
  const std::size_t n1 = inst.senders(), n2 = inst.receivers();
  std::vector<double> capacity(n1, inst.sender_capacity);
  capacity.resize(n1 + n2, inst.receiver_capacity);
  capacity.push_back(inst.backbone_capacity > 0 ? inst.backbone_capacity : static_cast<double>(inst.k));
  std::vector<std::vector<std::size_t>> members(capacity.size());
  for (std::size_t x = 0; x < flows.size(); ++x) {
    members[flows[x].from].push_back(x);
    members[n1 + flows[x].to].push_back(x);
    members.back().push_back(x);
  }
  double now = 0.0;
  for (std::size_t active = flows.size(); active > 0;) {
    fair_rates(flows, members, capacity, n1);
    double dt = std::numeric_limits<double>::infinity();
    for (const auto& f : flows)
      if (!f.done) dt = std::min(dt, f.left / f.rate);
    now += dt;
    for (auto& f : flows) {
      if (f.done) continue;
      const double moved = f.rate * dt;
      // Flows ending within rounding of the first one end with it.
      if (f.left - moved <= 1e-12 * inst.times[f.from][f.to]) {
        f.done = true;
        --active;
      } else {
        f.left -= moved;
      }
    }
  }
  // duration >= beta + longest amount, since no flow runs faster than 1.
  step.duration = inst.beta + now;
  sched.time = step.duration;
  sched.steps.push_back(std::move(step));
  return sched;
}

}  // namespace ringsim::kpbs
