// Scheme `best-period`: play the fixed scheme that would have been fastest so far. HiPC 2004
// (Section 7) compares fixed redistribution frequencies and leaves open which one a real run
// should use; the answer depends on the load, which a run learns only as it goes. Every member
// holds the common snapshot (member_reports.cpp: every member's report of iteration
// t - floor(n/2) + 1 after iteration t), so every member can replay, on those speeds, what each of
// the paper's fixed schemes (none, once, every-20, every-10, every-5, every-2) would have cost up
// to the snapshot, and all find the same leader. The policy redistributes as the leader does:
// once the iterations since its own last point reach the leader's period (`once`: at half the
// run, if not passed). This is "follow the leader" over a finite set of experts (N. Cesa-Bianchi
// and G. Lugosi, Prediction, Learning, and Games, 2006, Section 4.3): where one period stays best
// over the run, the policy plays it after a learning phase; it makes no promise where the best
// period changes within the run, and it never beats the best fixed scheme by more than the luck
// of its switches. Nothing in it was tuned: the experts are the paper's schemes.
//
// The replay (each expert's loads and time, advanced one snapshot at a time): an iteration costs
// the slowest member's computation on the expert's loads at the snapshot's speeds, plus the border
// exchange; an expert's point costs an all-gather, the planner's work at the slowest speed and the
// move from its loads to the balance of the snapshot's speeds, as a fixed scheme plans it on the
// speeds its gather brings. The move is priced by its lower bound (predictions.hpp, shared links
// included) times the ratio of predicted to bounded moves that this run's own plans have shown.
// Iterations between two snapshots (none while the ring runs; after a point the reports restart)
// are charged at the newer snapshot's speeds.
#include <algorithm>
#include <array>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "planners/redistribution/load_balance.hpp"
#include "policy/predictions.hpp"
#include "policy/registry.hpp"

namespace ringsim::policy {
namespace {

// The paper's fixed schemes (Figures 3 and 4) and every-2, as a run config names them.
constexpr std::array<const char*, 6> kExperts = {"none", "once", "every-20", "every-10", "every-5", "every-2"};

// What one fixed scheme would have done on the speeds known so far. Its points are the registry's
// (fixed_points_of: fixed_points.cpp states where each fixed scheme's points fall).
struct Expert {
  std::vector<int> points;  // increasing, each before the run's last iteration
  int period = 0;           // every-K: K; 0 for a scheme of given points (none, once)
  std::vector<long> loads;
  double time = 0.0;  // s, its iterations and points up to the newest speeds known

  Expert(const std::string& scheme, int iterations, std::vector<long> initial)
      : points(*fixed_points_of(scheme, iterations)), loads(std::move(initial)) {
    if (const std::optional<SchemeArgs> every = read_scheme_form("every-K", scheme, iterations)) period = every->period;
  }

  bool has_point_after(int iteration) const { return std::binary_search(points.begin(), points.end(), iteration); }
  // Its first point after `iteration` (0: none).
  int next_point_after(int iteration) const {
    const auto next = std::upper_bound(points.begin(), points.end(), iteration);
    return next == points.end() ? 0 : *next;
  }
  // Its points from `iteration` on.
  int points_from(int iteration) const {
    return static_cast<int>(points.end() - std::lower_bound(points.begin(), points.end(), iteration));
  }
  // Whether it moves at a point this policy makes after `iteration`: every-K at any, a scheme of
  // given points from its first on.
  bool redistributes_after(int iteration, int iterations) const {
    return period > 0 || (!points.empty() && iteration >= points.front() && iteration < iterations);
  }
};

class BestPeriod final : public RedistributionPolicy {
 public:
  bool piggybacks_reports() const override { return true; }
  bool gathers_both_ways() const override { return true; }  // as gather_cost() prices a point

  Act after_iteration(const MemberView& v) override {
    const RingFacts& f = *v.ring;
    if (experts_.empty()) start(v);
    if (v.common_iteration > known_at_ && v.common && v.common->size() == f.n)
      learn(f, speeds_of(*v.common), v.common_iteration);
    if (v.iteration >= f.iterations || f.n < 2) return Act::carry_on;
    if (due(leader(f), v.iteration) || rise_pays_a_look(v, f)) return point(v.iteration);
    return Act::carry_on;
  }

  // The plan and the look at hand are this run's best evidence of what points cost: the leader
  // is chosen again with them before the columns move.
  bool accept(const MemberView& v, const Prediction& p) override {
    const RingFacts& f = *v.ring;
    looked_ += p.decision_time;
    priced_ += point_cost(f, p.speeds);
    if (p.moves) {
      const std::vector<Count> targets(p.targets.begin(), p.targets.end());
      const double bound = move_lower_bound(f, *v.loads, targets);
      if (bound > 0.0 && p.transfer_time > 0.0) {
        predicted_ += p.transfer_time;
        bounded_ += bound;
      }
    }
    if (p.fresh && v.iteration > known_at_) learn(f, p.speeds, v.iteration);
    leader_ = -1;
    return p.moves && leader(f).redistributes_after(v.iteration, f.iterations);
  }

 private:
  void start(const MemberView& v) {
    const RingFacts& f = *v.ring;
    for (const char* scheme : kExperts) experts_.emplace_back(scheme, f.iterations, *v.loads);
    known_ = f.peak;
    reference_ = compute_time_of(*v.loads, f.peak, f.flops_per_column) + f.border_time;
  }

  Act point(int iteration) {
    last_point_ = iteration;
    reference_ = 0.0;
    lost_ = 0.0;
    return Act::gather_and_decide;
  }

  // Whether the policy's own point falls after this iteration, playing expert `e`: every-K, K
  // iterations after its own last point; a scheme of given points, at the first of them after its
  // own last point (none: never; once: at half the run, if not passed).
  bool due(const Expert& e, int iteration) const {
    if (e.period > 0) return iteration - last_point_ >= e.period;
    const int next = e.next_point_after(last_point_);
    return next != 0 && iteration >= next;
  }

  // Ski rental on looks (Karlin, Manasse, Rudolph and Sleator, 1988): the time the ring has lost
  // since its last point, over the first iteration after it (at the start: over the iteration the
  // nominal speeds predict), buys a look once it reaches the look's cost. Every member measures the
  // ring's iteration alike (MemberView::ring_time), a snapshot's news come floor(n/2) iterations
  // later: without it, a ring of 32 would play 15 iterations on a balance that the load has broken.
  bool rise_pays_a_look(const MemberView& v, const RingFacts& f) {
    if (!(v.ring_time > 0.0)) return false;
    if (reference_ == 0.0) {
      reference_ = v.ring_time;
      return false;
    }
    lost_ += std::max(0.0, v.ring_time - reference_);
    return lost_ >= measured_point_cost(f, known_);
  }

  // An all-gather and the planner's work at the slowest speed, s, as the ring's routes predict it.
  static double point_cost(const RingFacts& f, const std::vector<double>& speeds) {
    return gather_cost(f) + f.decision_flops / *std::min_element(speeds.begin(), speeds.end());
  }
  // A point and a move as this run's own points and plans have cost against those predictions.
  double measured_point_cost(const RingFacts& f, const std::vector<double>& speeds) const {
    return (priced_ > 0.0 ? looked_ / priced_ : 1.0) * point_cost(f, speeds);
  }
  double move_cost(const RingFacts& f, const std::vector<long>& loads, const std::vector<Count>& balance) const {
    return (bounded_ > 0.0 ? predicted_ / bounded_ : 1.0) * move_lower_bound(f, loads, balance);
  }

  // Advances every expert to iteration `at`, whose speeds stand for the iterations since the
  // newest known ones.
  void learn(const RingFacts& f, std::vector<double> speeds, int at) {
    for (std::size_t j = 0; j < speeds.size(); ++j)  // a member that computed nothing measured nothing
      if (!(speeds[j] > 0.0)) speeds[j] = known_[j];
    known_ = std::move(speeds);
    balance_ = redistribution::balanced_targets(known_, f.columns);
    const double point = measured_point_cost(f, known_);
    for (int it = known_at_ + 1; it <= at; ++it)
      for (Expert& e : experts_) {
        e.time += compute_time_of(e.loads, known_, f.flops_per_column) + f.border_time;
        if (!e.has_point_after(it)) continue;
        e.time += point + move_cost(f, e.loads, balance_);
        e.loads.assign(balance_.begin(), balance_.end());
      }
    known_at_ = at;
    leader_ = -1;
  }

  // What the expert's run would cost from the newest known iteration to the end if the speeds
  // known held: its loads until its next point, the move there to their balance, then the balance,
  // and every point's look and planning.
  double projected(const RingFacts& f, const Expert& e) const {
    const double iteration = f.border_time;
    const double held = compute_time_of(e.loads, known_, f.flops_per_column) + iteration;
    const int next = e.next_point_after(known_at_);
    if (next == 0) return (f.iterations - known_at_) * held;
    const double balanced = compute_time_of(balance_, known_, f.flops_per_column) + iteration;
    const int points = e.points_from(next);
    return (next - known_at_) * held + move_cost(f, e.loads, balance_) + points * measured_point_cost(f, known_) +
           (f.iterations - next) * balanced;
  }

  // The expert of least time so far and as projected (the first in kExperts on a tie).
  const Expert& leader(const RingFacts& f) {
    if (leader_ < 0) {
      if (balance_.empty()) balance_ = redistribution::balanced_targets(known_, f.columns);
      double best = std::numeric_limits<double>::infinity();
      for (std::size_t k = 0; k < experts_.size(); ++k) {
        const double total = experts_[k].time + projected(f, experts_[k]);
        if (total < best) {
          best = total;
          leader_ = static_cast<int>(k);
        }
      }
    }
    return experts_[static_cast<std::size_t>(leader_)];
  }

  std::vector<Expert> experts_;
  std::vector<double> known_;     // the newest speeds known, per member
  std::vector<Count> balance_;    // their balance
  int known_at_ = 0;              // their iteration
  int leader_ = -1;               // the leading expert for them (-1: to find)
  int last_point_ = 0;            // this policy's last point (0: none yet)
  double reference_ = 0.0;        // s, the ring's first iteration after the last point (0: not yet)
  double lost_ = 0.0;             // s, the excess over it since
  double predicted_ = 0.0, bounded_ = 0.0;  // this run's plans: predicted and lower-bound move time, s
  double looked_ = 0.0, priced_ = 0.0;      // this run's points: what deciding cost, and its prediction, s
};

}  // namespace

SchemeEntry best_period_scheme() {
  return online_policy("best-period",
                       "reports piggybacked; plays the fixed scheme (none, once, every-20, -10, -5, -2) that would "
                       "have been fastest so far on the common snapshots' speeds",
                       Knows::reports,
                       [](const SchemeArgs&) { return std::make_unique<BestPeriod>(); });
}

}  // namespace ringsim::policy
