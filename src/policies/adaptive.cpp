// The adaptive policy: redistribute when, on what every member knows, the time a move is expected
// to save exceeds what deciding, looking and moving cost (the planners' predictions). HiPC 2004
// (Section 7) leaves "how frequently redistributions must occur" open; the slides' profitability
// test T_redistribution + n_left T'_step <= n_left T_step is its starting point.
//
// Information. Each member's report rides on the border messages, so after iteration t every
// member holds every report of iteration t - floor(n/2) + 1 (member_reports.cpp): the policy
// decides on that common snapshot, every member alike, with no extra message. Where the network
// dominates, watching costs nothing but the report bytes. A "look" is an all-gather both ways
// (floor(n/2) rounds of report messages) that shows the present; it is taken
//   - periodically, every ceil(G / (3% of an iteration)) iterations (G the look's cost from the
//     routes): every iteration where computation dominates, never where the network does;
//   - before a move seen in a snapshot older than 3 iterations (a ring of 32: 15 iterations), or
//     whenever the look costs less than a quarter of the move.
//
// Saving. A move from loads L to the balanced targets T of speeds s saves per iteration
// d = max_j L_j w / s_j - max_j T_j w / s_j (w flop per column; the border exchange is the same
// before and after), over the iterations left, or fewer: a balance lasts about as long as a member
// keeps its speed, P seconds, estimated from the settled speed changes in the last 10 snapshots
// (with none seen, the member-seconds watched); and speeds must hold while the columns move (a
// member keeps its speed through a move of m seconds with probability exp(-m / P)):
//   saving = d * min(n_left, P / T'_step) * exp(-m / P).
// The snapshot's move is planned (decision_flops at every member) when its saving exceeds twice the
// decision, a one-port lower bound of the move (the slides' bidirectional bound) and the look if
// one is needed; the plan is carried out when the saving, on the planners' predicted T_redistribution
// and T'_step, exceeds 1.5 times T_redistribution on fresh reports (twice on the snapshot), and P
// also counts the members whose fresh speed differs from the snapshot's (a burst shows there
// first). A refused plan is not planned again until the snapshot's targets change.
//
// Bursts. While the speeds change in a burst (over the last 2 snapshots, changes settle at least
// twice as often as over the whole run so far: the first changes after a calm start are one, a
// steady churn is not) and the snapshots' balanced targets still move (by more than 40% of the
// move they ask for, over those 2 snapshots), no move is planned: a plan then chases speeds that
// are still changing: on a ring of 32, whose snapshots are 15 iterations old, a window of changes
// would otherwise be chased twice, amid it and after it (experiments/when/NOTES.md, "The adaptive
// policy", has the measurements and the seeds these numbers were checked on).
#include <algorithm>
#include <cmath>
#include <deque>
#include <utility>

#include "planners/redistribution/load_balance.hpp"
#include "policies/lasting_share.hpp"
#include "policies/predictions.hpp"
#include "policies/registry.hpp"

namespace ringsim::policy {
namespace {

// How long a balance lasts: the members' speed changes counted on the common snapshots, which
// every member sees alike, over the last `window` snapshots (speeds change in bursts: a calm
// spell after a burst is long-lived again). A change counts once it has settled (a reading more
// than 5% off the previous one and within 5% of the next), so a computation that straddled it
// counts once.
class SpeedChanges {
 public:
  static constexpr std::size_t window = 10;

  void observe(const std::vector<Report>& snapshot) {
    int changes = 0;
    if (before_.size() == snapshot.size() && last_.size() == snapshot.size())
      for (std::size_t j = 0; j < snapshot.size(); ++j)
        changes += differ(last_[j], before_[j]) && !differ(snapshot[j], last_[j]);
    double time = 0.0;
    for (const Report& rep : snapshot) time += rep.time / static_cast<double>(snapshot.size());
    recent_.push_back({time, changes});
    if (recent_.size() > window) recent_.pop_front();
    if (first_time_ < 0.0) first_time_ = time;
    total_changes_ += changes;
    last_time_ = time;
    before_ = std::move(last_);
    last_ = snapshot;
  }
  // Mean seconds a member keeps its speed, over the window. With no change seen there, what was
  // watched is all that is known: the estimate is the member-seconds watched, as if one change
  // were about to come (so a short look at a calm start promises little; infinite before any).
  double persistence() const {
    if (recent_.empty()) return INFINITY;
    int changes = 0;
    for (std::size_t k = 1; k < recent_.size(); ++k) changes += recent_[k].second;
    const double watched = static_cast<double>(last_.size()) * (recent_.back().first - recent_.front().first);
    return watched / std::max(changes, 1);
  }
  // Whether two snapshots have been watched: before that, nothing is known of how long speeds hold.
  bool watched() const { return recent_.size() >= 2; }
  // Seconds an iteration took, on average over the snapshots watched (one iteration apart).
  double pace() const {
    if (recent_.size() < 2) return 0.0;
    return (recent_.back().first - recent_.front().first) / static_cast<double>(recent_.size() - 1);
  }
  // Whether speeds change in a burst: over the last `k` snapshots, changes settle more than
  // `factor` times as often as over every snapshot seen (a calm start, or a steady churn, is none).
  bool in_burst(std::size_t k, double factor) const {
    if (total_changes_ == 0) return true;  // the first changes, not yet settled: all is burst
    if (recent_.size() <= k) return false;
    int recent_changes = 0;
    for (std::size_t m = recent_.size() - k; m < recent_.size(); ++m) recent_changes += recent_[m].second;
    const double recent_span = recent_.back().first - recent_[recent_.size() - 1 - k].first;
    const double span = last_time_ - first_time_;
    if (!(recent_span > 0.0) || !(span > 0.0)) return false;
    return recent_changes / recent_span > factor * total_changes_ / span;
  }
  // Mean seconds the ring keeps all its speeds, over the window: the seconds watched per snapshot
  // in which some member's speed settled at a new value (with none, the seconds watched). A balance
  // is for all n speeds and ends at the first change of any; members' changes come together (a
  // window of changes, a load on several hosts at once), and counting each as its own end of the
  // balance (one member's persistence over n) would promise the paper's traces a balance of under
  // two iterations where the next window is 20 away (experiments/when/NOTES.md, "Changes that come
  // together"). Changes apart count apart.
  double ring_persistence() const {
    if (recent_.empty()) return INFINITY;
    int changed = 0;
    for (std::size_t k = 1; k < recent_.size(); ++k) changed += recent_[k].second > 0;
    return (recent_.back().first - recent_.front().first) / std::max(changed, 1);
  }
  // The same two, from the changes between the last snapshot and fresh speeds measured at `now`:
  // a burst shows here before the snapshots catch up with it.
  double recent_persistence(const std::vector<double>& fresh, double now) const {
    const Fresh c = changed_since(fresh, now);
    return c.members == 0 ? INFINITY : static_cast<double>(fresh.size()) * c.seconds / c.members;
  }
  double recent_ring_persistence(const std::vector<double>& fresh, double now) const {
    const Fresh c = changed_since(fresh, now);
    return c.members == 0 ? INFINITY : c.seconds;
  }

 private:
  struct Fresh {
    int members = 0;       // whose fresh speed differs from the last snapshot's
    double seconds = 0.0;  // since the last snapshot's reports, on average
  };
  Fresh changed_since(const std::vector<double>& fresh, double now) const {
    if (last_.size() != fresh.size() || last_.empty()) return {};
    Fresh c;
    for (std::size_t j = 0; j < fresh.size(); ++j) {
      c.members += std::abs(fresh[j] - last_[j].speed) > 0.05 * last_[j].speed;
      c.seconds += (now - last_[j].time) / static_cast<double>(fresh.size());
    }
    c.seconds = std::max(c.seconds, 0.0);
    return c;
  }
  static bool differ(const Report& a, const Report& b) { return std::abs(a.speed - b.speed) > 0.05 * b.speed; }
  std::vector<Report> before_, last_;
  std::deque<std::pair<double, int>> recent_;  // per snapshot: its mean time, changes settled in it
  int total_changes_ = 0;
  double first_time_ = -1.0, last_time_ = 0.0;
};

class Adaptive final : public RedistributionPolicy {
 public:
  static constexpr double information_share = 0.03;  // of the run's time spent on periodic all-gathers
  static constexpr double stale_margin = 2.0;        // a move seen in the snapshot must save twice its cost
  static constexpr double look_margin = 2.0;         // a move seen in old reports is worth a look
  static constexpr double fresh_margin = 1.5;        // a move planned on fresh reports must save 1.5 times its cost
  static constexpr double look_share = 0.25;         // a look costing less than this share of the move is taken
  static constexpr int max_report_age = 3;           // iterations: older snapshots are checked by a gather
  static constexpr std::size_t stable_snapshots = 2;  // snapshots over which targets must hold still
  static constexpr double stable_share = 0.4;         // ... moving by at most this share of the move
  static constexpr double burst_factor = 2.0;         // a burst: changes this many times as often as ever

  // `lasting` (scheme adaptive-lasting): the saving is counted lag by lag at the share of it that
  // balances have delivered at that lag in this run (LastingShare), instead of over a horizon of
  // one member's persistence; everything else is adaptive's.
  explicit Adaptive(bool lasting = false) : lasting_(lasting) {}

  bool piggybacks_reports() const override { return true; }
  bool gathers_both_ways() const override { return true; }

  Act after_iteration(const MemberView& v) override {
    const Act act = answer(v);
    if (act != Act::carry_on) rise_ = Rise{rise_.floor};  // measured anew from the loads it leaves
    return act;
  }

  // adaptive-lasting's return to the initial balance (answer() asked for it): balanced for the
  // nominal speeds, which is where the run started.
  std::optional<std::vector<double>> balance_for(const MemberView& v) override {
    if (!returning_) return std::nullopt;
    return v.ring->peak;
  }

  bool accept(const MemberView& v, const Prediction& p) override {
    const int left = v.ring->iterations - v.iteration;
    if (returning_) {
      returning_ = false;
      return p.moves && return_rate_ * left > stale_margin * p.transfer_time;
    }
    const double margin = p.fresh ? fresh_margin : stale_margin;
    double saved = 0.0, leave = 0.0;
    if (lasting_) {
      double ring_persistence = changes_.ring_persistence();
      if (p.fresh) ring_persistence = std::min(ring_persistence, changes_.recent_ring_persistence(p.speeds, p.time));
      const LastingShare::Delivered d =
          lasting_delivered(p.tstep_before - p.tstep_after, left, p.tstep_after, p.transfer_time, ring_persistence,
                            p.fresh ? 0 : v.iteration - v.common_iteration, p.tstep_before);
      saved = d.lasting;
      // A balance that turns harmful once it stops saving must also be left: either its harm is
      // borne (what balances lost, past that lag, against the loads they replaced) or a move is
      // paid, about this one's size. Under on/off load on a ring of 32 a balance lasted an
      // iteration or two and then gave a member just loaded a larger share than the initial
      // balance did; each such move repaid itself against the loads it replaced, but the run lost
      // to never moving (what moves_in_hindsight shows). A balance that ages into loads no worse
      // than those it replaced (the paper's traces: the next window of changes) costs little or
      // nothing, so the charge is the harm measured, not a whole move (experiments/when/NOTES.md).
      // Leaving is not free at once: nothing tells the policy that a balance has turned until its
      // harm shows (a rise, the return's snapshots), so it is left as the rise rule buys a look, by
      // ski rental: the harm is borne until it has cost about a move, then the move is made, twice
      // the move at most (Karlin, Manasse, Rudolph and Sleator, 1988); charging one move would
      // take balances whose harm outlasts it (experiments/when/NOTES.md, "Leaving by ski rental").
      leave = std::min(2.0 * p.transfer_time, -d.harm);
    } else {
      double persistence = changes_.persistence();
      if (p.fresh) persistence = std::min(persistence, changes_.recent_persistence(p.speeds, p.time));
      saved = expected_saving(p.tstep_before - p.tstep_after, left, p.tstep_after, p.transfer_time, persistence);
    }
    const bool pays = p.moves && saved > margin * p.transfer_time + leave;
    going_back_ = lasting_ && p.fresh && !pays && return_at_look(v, p.speeds, left);
    if (!pays && !planned_.empty()) refused_ = planned_;
    // Until columns move, undoing a rise costs at least the move just refused.
    rise_.floor = pays ? 0.0 : std::max(rise_.floor, p.transfer_time);
    return pays;
  }

 private:
  Act answer(const MemberView& v) {
    const RingFacts& f = *v.ring;
    const int left = f.iterations - v.iteration;
    if (left <= 0 || f.n < 2) return Act::carry_on;
    std::vector<double> speeds = f.peak;  // before any report is common: the nominal speeds
    if (v.common_iteration > 0) {
      speeds = speeds_of(*v.common);
      if (v.common_iteration > observed_) {
        changes_.observe(*v.common);
        past_targets_.push_back(balanced_targets(speeds, f.columns));
        if (past_targets_.size() > stable_snapshots + 1) past_targets_.pop_front();
        if (lasting_) {
          lasting_share_.observe(*v.common, speeds, past_targets_.back(), f.flops_per_column);
          recent_speeds_.emplace_back(v.common_iteration, speeds);
          if (recent_speeds_.size() > return_window) recent_speeds_.pop_front();
        }
      }
      observed_ = v.common_iteration;
    }
    const double now = compute_time_of(*v.loads, speeds, f.flops_per_column);
    const double gather = gather_cost(f);
    const double decision = f.decision_flops / *std::min_element(speeds.begin(), speeds.end());
    // Back to the initial balance (adaptive-lasting), asked by the last look or by the snapshots.
    if (lasting_ && (std::exchange(going_back_, false) || (v.common_iteration > 0 && should_return(v, f, decision, left)))) {
      returning_ = true;
      planned_.clear();
      return Act::decide;
    }
    // A look the rise has paid for (adaptive-lasting), if what a move would save (at the share
    // balances deliver, as accept() counts it) can repay the move and the look.
    const double look = gather + decision;
    if (lasting_ && rise_.paid(v, f, look) &&
        lasting_saving(rise_.excess, left, rise_.reference, rise_.move, changes_.ring_persistence(), 0, v.ring_time) >
            fresh_margin * rise_.move + look)
      return look_now(v.iteration);
    // A fresh look every P iterations, P such that gathering costs at most `information_share`
    // of the iterations between two looks: often where computation dominates, never where the
    // network does.
    const double period = std::ceil(gather / (information_share * (now + f.border_time)));
    if (period <= left && v.iteration - last_gather_ >= period) return look_now(v.iteration);
    // Reports no newer than the last all-gather tell nothing that gather did not.
    if (v.common_iteration == 0 || v.common_iteration <= last_gather_) return Act::carry_on;
    const std::vector<Count>& targets = past_targets_.back();  // the common snapshot's, balanced
    if (std::equal(targets.begin(), targets.end(), v.loads->begin()) || targets == refused_) return Act::carry_on;
    if (changes_.in_burst(stable_snapshots, burst_factor) && still_moving(targets, *v.loads)) return Act::carry_on;
    const double after = compute_time_of(targets, speeds, f.flops_per_column);
    const double move = decision + move_lower_bound(f, *v.loads, targets);
    const double gain = lasting_ ? lasting_saving(now - after, left, after + f.border_time, move,
                                                  changes_.ring_persistence(), v.iteration - v.common_iteration,
                                                  now + f.border_time)
                                 : expected_saving(now - after, left, after + f.border_time, move, changes_.persistence());
    // Speeds drift in bursts: a plan on reports older than a few iterations may move columns
    // towards processors that have slowed since (and did, on the paper's traces, on a ring of 32);
    // then the present is looked at first, and that look is part of the cost. A look that costs
    // little against the move is taken anyway (on/off load changes within a few iterations).
    const bool recent = v.iteration - v.common_iteration <= max_report_age && gather > look_share * move;
    const double cost = move + (recent ? 0.0 : gather);
    if (gain <= (recent ? stale_margin : look_margin) * cost) return Act::carry_on;
    planned_ = targets;
    if (recent) return Act::decide;
    last_gather_ = v.iteration;
    return Act::gather_and_decide;
  }

  // An all-gather now, planned on its reports alone (no snapshot's targets pending).
  Act look_now(int iteration) {
    last_gather_ = iteration;
    planned_.clear();
    return Act::gather_and_decide;
  }

  // What a move saves, `per_iteration` on each iteration after it, if speeds hold: over the
  // iterations left, or over the time a member keeps its speed (`persistence`, s) when that is
  // shorter; and only if the speeds have not changed while the columns moved (each member keeps
  // its speed through a move of `move` seconds with probability exp(-move / persistence)).
  static double expected_saving(double per_iteration, int left, double tstep, double move, double persistence) {
    if (!(persistence > 0.0)) return 0.0;  // nothing watched yet: nothing to promise
    const double iterations = std::min(static_cast<double>(left), persistence / std::max(tstep, 1e-300));
    return per_iteration * iterations * std::exp(-move / persistence);
  }
  // adaptive-lasting's saving: `per_iteration` on each of the `left` iterations after the move,
  // times the share a balance still delivers at that lag after the speeds it was made for (the
  // snapshot is `age` iterations old and the move lasts `move` s: the first iteration after it is
  // age + 1 + move / pace lags after the snapshot, `pace` the iteration time of the loads now, s).
  // The backtest's lags are iterations run at the pace of the loads it watched, not of the balance
  // planned: a move of 35 s spans 2.5 iterations of 14 s, not 14 iterations of the 2.5 s balance
  // (counted at the balance's pace, the saving would start past the lags a balance has been seen
  // to last: experiments/when/NOTES.md, "A move's span in lags"). Where the backtest has not watched a balance
  // that long, the share is the chance that no member has changed its speed since: the ring keeps
  // all its speeds `ring_persistence` s on average (SpeedChanges::ring_persistence: changes that
  // come together end a balance once; adaptive's own rule counts one member's persistence).
  // Speeds may change at instants (profiles) or per iteration (traces placed by iteration, every
  // family of experiments/when/), which a member cannot tell apart: a lag lasts the balance's
  // iteration (`tstep`) or the iteration watched (`SpeedChanges::pace`), whichever is longer, so
  // that a balance that speeds iterations up is not credited with more lags per change than were
  // watched (experiments/when/NOTES.md, "A lag at the pace watched").
  // No move is credited for longer than balances have been seen, or speeds known, to last, and none
  // before two snapshots have been watched: a look at a calm start (persistence unknown, infinite)
  // credited a ring of 32 under on/off load with a balance for the 85 iterations left, which the
  // next iteration broke. The harm (LastingShare::Delivered) is scaled alike.
  LastingShare::Delivered lasting_delivered(double per_iteration, int left, double tstep, double move,
                                            double ring_persistence, int age, double pace) const {
    if (!(ring_persistence > 0.0) || !changes_.watched()) return {};
    const double step = std::max(tstep, 1e-300);
    const int first = age + 1 + static_cast<int>(move / std::max(pace, 1e-300));
    const double lag_time = std::max(step, changes_.pace());
    auto unseen = [&](int lag) {
      return std::isfinite(ring_persistence) ? std::exp(-lag * lag_time / ring_persistence) : 1.0;
    };
    const LastingShare::Delivered d = lasting_share_.delivered(first, left, unseen);
    return {per_iteration * d.lasting, per_iteration * d.harm};
  }
  double lasting_saving(double per_iteration, int left, double tstep, double move, double ring_persistence, int age,
                        double pace) const {
    return lasting_delivered(per_iteration, left, tstep, move, ring_persistence, age, pace).lasting;
  }

  // Whether to go back to the initial balance (adaptive-lasting): the loads held have lost to it,
  // on average over the snapshots taken since they were set (at least `return_seen` of the last
  // `return_window`; older ones predate them, and today's loads were chosen knowing speeds they do
  // not show), and that loss over the iterations left repays twice the move back. Tracking a
  // churn can leave the run worse off than never moving, a state no tracking move undoes: under
  // on/off load on a ring of 32, each balance lasted an iteration or two and left a member just
  // loaded with more columns than the initial balance gave it (what moves_in_hindsight shows).
  bool should_return(const MemberView& v, const RingFacts& f, double decision, int left) {
    if (holds_initial(v, f)) return false;
    double lost = 0.0;
    std::size_t seen = 0;
    for (const auto& [iteration, speeds] : recent_speeds_)
      if (iteration > v.last_move) {
        lost += loss_to_initial(v, f, speeds);
        ++seen;
      }
    if (seen < return_seen) return false;
    return return_pays(v, f, lost / static_cast<double>(seen), decision, left);
  }
  // Going back at a look (adaptive-lasting): a look shows the present; when no move for it pays
  // and the loads held lose to the initial balance on its speeds by enough to repay twice the move
  // back over the iterations left, the policy goes back at once. Leaving a balance that has turned
  // is charged as ski rental would leave it (accept: the harm borne until it has cost about a move,
  // then the move); waiting for `return_seen` snapshots since the loads were set, which reach a
  // ring of 32 15 iterations late and average in the iterations when the balance still paid, is
  // not that (experiments/when/NOTES.md, "Going back at a look").
  bool return_at_look(const MemberView& v, const std::vector<double>& speeds, int left) {
    const RingFacts& f = *v.ring;
    if (holds_initial(v, f)) return false;
    const double decision = f.decision_flops / *std::min_element(speeds.begin(), speeds.end());
    return return_pays(v, f, loss_to_initial(v, f, speeds), decision, left);
  }
  bool holds_initial(const MemberView& v, const RingFacts& f) {
    if (initial_.empty()) initial_ = balanced_targets(f.peak, f.columns);
    return std::equal(initial_.begin(), initial_.end(), v.loads->begin());
  }
  // s an iteration that the loads held lose to the initial balance at these speeds.
  double loss_to_initial(const MemberView& v, const RingFacts& f, const std::vector<double>& speeds) const {
    return compute_time_of(*v.loads, speeds, f.flops_per_column) - compute_time_of(initial_, speeds, f.flops_per_column);
  }
  // Whether losing `rate` s an iteration over the iterations left repays twice the move back.
  bool return_pays(const MemberView& v, const RingFacts& f, double rate, double decision, int left) {
    return_rate_ = rate;
    return rate * left > stale_margin * (decision + move_lower_bound(f, *v.loads, initial_));
  }

  // Whether the snapshots' targets still move: over the last `stable_snapshots` snapshots they
  // moved by more than `stable_share` of the move they ask for now (a burst of speed changes in
  // progress: a plan now would chase speeds that are still changing).
  bool still_moving(const std::vector<Count>& targets, const std::vector<long>& loads) const {
    if (past_targets_.size() <= stable_snapshots) return false;
    double drift = 0.0, move = 0.0;
    for (std::size_t j = 0; j < targets.size(); ++j) {
      drift += std::abs(static_cast<double>(targets[j]) - static_cast<double>(past_targets_.front()[j]));
      move += std::abs(static_cast<double>(targets[j]) - static_cast<double>(loads[j]));
    }
    return drift > stable_share * move;
  }

  // Stop at a rise (adaptive-lasting): a look is bought once the time the ring has lost since the
  // last decision pays for it. Members start each iteration together and leave its barrier
  // together, so every member measures the iteration's time alike (MemberView::ring_time): a
  // slowdown is common knowledge the iteration after it happens, where reports reach every member
  // floor(n/2) iterations later (16 iterations of a 5x slowdown on a ring of 32, paper's traces,
  // ratio 1). What is lost is the excess of each iteration over the first one after the last
  // decision (its loads, the speeds then). Buying a look (an all-gather and a planner run) and
  // the least move that could undo the rise when the loss reaches their cost is the ski-rental
  // rule (Karlin, Manasse, Rudolph and Sleator, 1988): what is spent on looks never exceeds what
  // had been lost, and a rise that lasts is looked at within (look + move) / excess iterations.
  // Nicol and Saltz's Stop-At-Rise (1988) also decides on the degradation measured since the last
  // remap. Whether to move stays accept()'s, as after any look.
  struct Rise {
    double floor = 0.0;      // s, the least move known for the present loads (a refused plan's)
    double reference = 0.0;  // s, the first iteration after the last decision (0: not yet seen)
    double lost = 0.0;       // s, the excess over it summed since
    double excess = 0.0;     // s, the last iteration's
    double move = 0.0;       // s, at least what undoing the last excess would move
    // Whether the loss up to the previous iteration reaches a look (`look`, s) and the least move.
    bool paid(const MemberView& v, const RingFacts& f, double look) {
      if (!(v.ring_time > 0.0) || v.last_move >= v.iteration - 1) return false;  // unknown, or before a move
      if (reference == 0.0) {
        reference = v.ring_time;
        return false;
      }
      excess = std::max(0.0, v.ring_time - reference);
      lost += excess;
      move = std::max(floor, least_move(f, *v.loads, v.ring_time, reference));
      return lost >= look + move;
    }
    // A lower bound on a move that takes an iteration of `from` s back to `to`: the slowest member,
    // whichever it is, computes from - border s and must shed the share 1 - (to - border) /
    // (from - border) of its columns, to its two neighbours at once (one port per link: the split
    // that ends both sends together).
    static double least_move(const RingFacts& f, const std::vector<long>& loads, double from, double to) {
      if (!(from > to)) return 0.0;
      const double keep = std::clamp((to - f.border_time) / std::max(from - f.border_time, 1e-300), 0.0, 1.0);
      double least = INFINITY;
      for (std::size_t m = 0; m < loads.size(); ++m) {
        const double next = f.cost_next[m], prev = f.cost_prev[m];
        least = std::min(least, static_cast<double>(loads[m]) * (1.0 - keep) * next * prev / (next + prev));
      }
      return std::isfinite(least) ? least : 0.0;
    }
  };

  bool lasting_ = false;
  static constexpr std::size_t return_window = 10;  // snapshots
  static constexpr std::size_t return_seen = 5;     // ... of them taken since the loads were set
  bool returning_ = false;
  bool going_back_ = false;  // a look asked to go back (return_at_look): at the next iteration
  double return_rate_ = 0.0;  // s an iteration that the loads held lose to the initial balance
  std::vector<Count> initial_;
  std::deque<std::pair<int, std::vector<double>>> recent_speeds_;  // the last snapshots' iteration and speeds
  Rise rise_;
  LastingShare lasting_share_;
  std::deque<std::vector<Count>> past_targets_;
  SpeedChanges changes_;
  int observed_ = 0;
  int last_gather_ = 0;
  std::vector<Count> planned_, refused_;
};

}  // namespace

PolicyEntry adaptive_policy() {
  return {"adaptive, adaptive-lasting",
          "reports piggybacked on border messages; move when the predicted saving exceeds the cost (-lasting: the "
          "saving counted at the share of it that earlier balances delivered, lag by lag, and a look bought once the "
          "ring's iteration time has risen by enough to pay for it)",
          [](const std::string& s, int) -> std::unique_ptr<RedistributionPolicy> {
            if (s == "adaptive") return std::make_unique<Adaptive>();
            if (s == "adaptive-lasting") return std::make_unique<Adaptive>(true);
            return nullptr;
          }};
}

}  // namespace ringsim::policy
