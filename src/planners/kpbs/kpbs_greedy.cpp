// A greedy baseline (not from the KPBS paper). Each step takes the heaviest remaining communications
// one after the other, skipping those whose sender or receiver is already busy, until k are
// taken or none fits (a maximal matching of at most k edges, heaviest first). Then it chooses
// how long the step lasts: the length d, among the taken communications' remaining amounts,
// that moves the most data per unit of step time, sum of min(left, d) / (beta + d); each taken
// communication sends min(left, d). With beta = 0 this cuts at the shortest (nobody waits, as in
// GGP's peeling); with a large beta it sends everything in full (fewer setups). Cutting always at
// the shortest instead costs one setup per communication when k is large: 10000 steps and 15
// times eta on a dense 100 x 100 matrix with beta = 1. At least one communication finishes per
// step, so there are at most m steps.
#include <algorithm>
#include <set>

#include "planners/kpbs/kpbs_algorithms.hpp"

namespace ringsim::kpbs {

KpbsSchedule plan_greedy(const KpbsInstance& inst) {
  struct Comm {
    std::size_t from, to;
    double left;
  };
  std::vector<Comm> comms;
  for (std::size_t i = 0; i < inst.senders(); ++i)
    for (std::size_t j = 0; j < inst.receivers(); ++j)
      if (inst.times[i][j] > 0) comms.push_back({i, j, inst.times[i][j]});
  // Heaviest first; ties in row-major order, so that the schedule is deterministic.
  auto heavier = [&](std::size_t a, std::size_t b) {
    return comms[a].left != comms[b].left ? comms[a].left > comms[b].left : a < b;
  };
  std::set<std::size_t, decltype(heavier)> pending(heavier);
  for (std::size_t x = 0; x < comms.size(); ++x) pending.insert(x);

  KpbsSchedule sched;
  sched.scheduler = "greedy";
  std::vector<std::size_t> sender_busy(inst.senders(), 0), receiver_busy(inst.receivers(), 0);
  std::vector<std::size_t> taken;
  for (std::size_t step_id = 1; !pending.empty(); ++step_id) {
    taken.clear();
    for (std::size_t x : pending) {
      if (taken.size() == inst.k) break;
      if (sender_busy[comms[x].from] == step_id || receiver_busy[comms[x].to] == step_id) continue;
      sender_busy[comms[x].from] = receiver_busy[comms[x].to] = step_id;
      taken.push_back(x);
    }
    // Taken heaviest first: cutting at the i-th taken amount d moves i * d plus the lighter ones.
    double d = comms[taken.back()].left, best_rate = -1.0, lighter = 0.0;
    for (std::size_t i = taken.size(); i-- > 0;) {
      const double cut = comms[taken[i]].left;
      const double rate = (static_cast<double>(i + 1) * cut + lighter) / (inst.beta + cut);
      if (rate > best_rate) {
        best_rate = rate;
        d = cut;
      }
      lighter += cut;
    }
    KpbsStep step;
    step.duration = inst.beta + d;
    for (std::size_t x : taken) {
      pending.erase(x);
      const double amount = std::min(d, comms[x].left);
      comms[x].left = amount == comms[x].left ? 0.0 : comms[x].left - amount;
      step.comms.push_back({comms[x].from, comms[x].to, amount});
      if (comms[x].left > 0) pending.insert(x);
    }
    sched.time += step.duration;
    sched.steps.push_back(std::move(step));
  }
  return sched;
}

}  // namespace ringsim::kpbs
