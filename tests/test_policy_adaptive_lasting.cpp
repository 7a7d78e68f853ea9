// Scheme adaptive-lasting (src/policy/adaptive_lasting.cpp): a lasting slowdown moved for, a churn
// not; each balance credited for the lags it saves (LastingShare's backtest, lasting_share.hpp,
// each counted up to its promise), a move's span, a balance that turns harmful charged for leaving
// it (lasting_saving.hpp); loads that lose to the initial balance returned from
// (return_to_initial.hpp); a rise of the ring's iteration time
// buying a look (the rise rule, rise.hpp, by hand); plans on a snapshot only once every member
// holds one; its answers alike at every member of random rings.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "policy/lasting_share.hpp"
#include "policy/predictions.hpp"
#include "policy/registry.hpp"
#include "policy/rise.hpp"
#include "policy_runs.hpp"
#include "policy_views.hpp"
#include "trial_count.hpp"

using namespace ringsim;
using namespace ringsim::policy;

namespace {

// Iterations 1..last of member 0 under `scheme`, told the ring's time of each previous iteration
// (`time(k)` s for iteration k); the common reports are those of iterations 1..`calm` (nominal
// speeds, each arriving the iteration after it), none later: no report shows a rise after
// `calm`. The iterations after which it acts.
template <class Time>
std::vector<int> acts_on_ring_times(Ring r, int last, Time time, const std::string& scheme, int calm = 0) {
  auto p = make_policy(scheme, 100);
  std::vector<int> acts;
  for (int it = 1; it <= last; ++it) {
    const int common = std::min(it - 1, calm);
    if (common > 0) set_speeds(r, r.facts.peak, common);
    MemberView v = view_of(r, 0, it, common);
    v.ring_time = it > 1 ? time(it - 1) : 0.0;
    if (p->after_iteration(v) != Act::carry_on) acts.push_back(it);
  }
  return acts;
}

// Member 0 under `scheme` after watching snapshots 1..last, member `slow(k)` at a quarter of the
// speed in snapshot k (-1: none), each common the iteration it is taken.
template <class Slow>
std::unique_ptr<RedistributionPolicy> watched(Ring& r, int last, Slow slow, const std::string& scheme, int last_move = 0) {
  auto p = make_policy(scheme, 100);
  for (int k = 1; k <= last; ++k) {
    std::vector<double> speeds(r.facts.n, 1e8);
    if (slow(k) >= 0) speeds[static_cast<std::size_t>(slow(k))] = 2.5e7;
    set_speeds(r, speeds, k);
    MemberView v = view_of(r, 0, k, k);
    v.last_move = last_move;
    p->after_iteration(v);
  }
  return p;
}

// The largest transfer time (s) of a plan `p` that the policy accepts after iteration `it`, to
// 1e-9 s (accepting is monotone in it: the saving is fixed, the cost grows).
double largest_accepted(RedistributionPolicy& policy, const MemberView& v, Prediction p) {
  double lo = 0.0, hi = 1e3;
  while (hi - lo > 1e-9) {
    p.transfer_time = 0.5 * (lo + hi);
    (policy.accept(v, p) ? lo : hi) = p.transfer_time;
  }
  return lo;
}

// The largest transfer adaptive-lasting accepts, for a plan on the snapshot from `before` to
// `after` s an iteration, once it has watched snapshots 1..10 of a ring of 8 (speeds_at(ring, k)
// at snapshot k, one every `pace` s).
template <class SpeedsAt>
double largest_after_ten(SpeedsAt speeds_at, double pace, double before, double after) {
  Ring r = slow_report_ring(0.001);
  auto p = make_policy("adaptive-lasting", 100);
  for (int k = 1; k <= 10; ++k) {
    set_speeds(r, speeds_at(r, k), k);
    for (Report& rep : r.common) rep.time = pace * k;
    p->after_iteration(view_of(r, 0, k, k));
  }
  Prediction plan;
  plan.moves = true;
  plan.tstep_before = before;
  plan.tstep_after = after;
  return largest_accepted(*p, view_of(r, 0, 10, 10), plan);
}

}  // namespace

TEST_CASE("adaptive-lasting: on 3000 random rings every member answers alike") {
  const int rings = testing::trials(3000, 2);
  const auto acts_seen = members_answer_alike_on_random_rings("adaptive-lasting", 20261126, rings);
  CHECK(acts_seen[0] > rings / 30);
  CHECK(acts_seen[1] + acts_seen[2] > rings / 30);
}

TEST_CASE("adaptive-lasting: a lasting slowdown is moved for, a churn is not") {
  // One member slow from snapshot 10 on, for good: moved for once the change has settled (the
  // burst rule waits two snapshots), as adaptive does when the move is cheap; an expensive one
  // (0.1 s a column) waits until the balance has been watched to hold for a few snapshots (adaptive
  // moves at snapshot 12, this policy at 18).
  for (double column : {0.001, 0.01, 0.1}) {
    Ring r = slow_report_ring(column);
    const int acted = first_act_on_slowdown(r, 60, [](int k) { return k >= 10 ? 0 : -1; }, "adaptive-lasting");
    INFO("column cost ", column);
    CHECK(acted > 10);
    CHECK(acted < 20);
    Ring a = slow_report_ring(column);
    if (column <= 0.01) CHECK(first_act_on_slowdown(a, 60, [](int k) { return k >= 10 ? 0 : -1; }, "adaptive") == acted);
  }
  // Each snapshot a different member of 24 is slow: yesterday's balance gives today's slow member
  // more columns, so the backtest finds that no balance saves anything, however cheap the move:
  // once 4 snapshots are watched, never moved for (adaptive, counting one member's persistence,
  // asks for a move at nearly every snapshot; the test's loads never change, so a wanted move is
  // asked again at each).
  Ring r = slow_report_ring(0.001, 24);
  CHECK(acts_after(r, 4, 60, [](int k) { return (k - 1) % 24; }, "adaptive-lasting") == 0);
  Ring ra = slow_report_ring(0.001, 24);
  CHECK(acts_after(ra, 4, 60, [](int k) { return (k - 1) % 24; }, "adaptive") > 40);
  // The slow members come back (8 members, each slow every 8 snapshots): a balance for one of them
  // saves once per cycle and loses in the 7 others; after the first snapshots, hardly ever moved for.
  Ring cycle = slow_report_ring(0.001);
  CHECK(acts_after(cycle, 4, 90, [](int k) { return k % 8; }, "adaptive-lasting") < 5);
  // The same slow member at every snapshot: every balance keeps its promise, moved for at once
  // (the price is tiny) and asked again at every snapshot, as the loads never change here.
  Ring q = slow_report_ring(0.001);
  CHECK(first_act_on_slowdown(q, 90, [](int) { return 3; }, "adaptive-lasting") == 2);
  Ring q2 = slow_report_ring(0.001);
  CHECK(acts_after(q2, 4, 90, [](int) { return 3; }, "adaptive-lasting") == 86);
}

TEST_CASE("adaptive-lasting: a balance is credited for the lags it saves, not for what a stale one loses after") {
  // The slowdown stays on one member of 8 for 6 snapshots, then moves to the next: a balance saves
  // for as long as its slow member stays slow, then (the next member, now slow, holding more
  // columns than before) loses a little at every later lag. A cheap move pays within the lags it
  // saves; after them the policy balances again for the speeds then. Asked for at 65 of the 78
  // snapshots after the 12th (the test's loads never change, so a wanted move is asked again);
  // counting the stale balance's losses over every iteration left, at 16.
  auto runs_of_6 = [](int k) { return (k / 6) % 8; };
  Ring r = slow_report_ring(0.001);
  CHECK(acts_after(r, 12, 90, runs_of_6, "adaptive-lasting") > 40);
}

TEST_CASE("adaptive-lasting: a rise of the ring's iteration time buys a look once the time lost pays for it") {
  // Ring of 8, 125 columns each; a look costs 4 s (4 report hops of 1 s) and 0.01 s of planning
  // (1 Mflop at 100 Mflop/s): periodic looks never pay. Iterations take 1 s, then 3 s from
  // iteration 10 on, which members are told after iteration 11; the reports of iterations 1-9
  // (calm, 1.3 s apart) are common, no later one. Undoing the rise moves at least the share
  // 1 - 0.99 / 2.99 of the slowest member's 125 columns, half each way: 0.042 s at 0.001 s a
  // column, 4.18 s at 0.1 s, 41.8 s at 1 s. The look is bought when the 2 s lost per iteration
  // reach look and move: after iteration 13 (6 s >= 4.05 s), resp. 15 (10 s >= 8.19 s); once
  // looked, the 3 s iterations are the new reference: no further look. A member kept its speed
  // over the 10.4 s watched, so the ring keeps all 8 for 10.4 s: a balance is credited
  // exp(-lag 8 / 83.2) of its 2 s per iteration at each lag from the move's end, 19.8 s from lag 1
  // (0.001 s a column) and 18 s from lag 2 (0.1 s), more than 1.5 moves and the look; 5.7 s from
  // lag 14 (1 s a column: 41.8 s spans 14 iterations of 3 s), less: never looked at.
  auto rise_at_10 = [](int k) { return k >= 10 ? 3.0 : 1.0; };
  CHECK(acts_on_ring_times(slow_report_ring(0.001), 60, rise_at_10, "adaptive-lasting", 9) == std::vector<int>{13});
  CHECK(acts_on_ring_times(slow_report_ring(0.1), 60, rise_at_10, "adaptive-lasting", 9) == std::vector<int>{15});
  CHECK(acts_on_ring_times(slow_report_ring(1.0), 60, rise_at_10, "adaptive-lasting", 9).empty());
  // Before two reports are common nothing is known of how long a balance lasts, and nothing is
  // credited (a look at a calm start credited a balance for every iteration left, under on/off
  // load on a ring of 32: it broke the next iteration); two reports 1.3 s apart promise too little.
  CHECK(acts_on_ring_times(slow_report_ring(0.001), 60, rise_at_10, "adaptive-lasting").empty());
  CHECK(acts_on_ring_times(slow_report_ring(0.001), 60, rise_at_10, "adaptive-lasting", 2).empty());
  // adaptive does not read the ring's time: nothing in its reports has changed.
  CHECK(acts_on_ring_times(slow_report_ring(0.001), 60, rise_at_10, "adaptive", 9).empty());
  // A slow iteration that does not last loses 2 s, less than the look: never bought; nor a rise
  // too late to lose that much (0.1 s a column, from iteration 96 on: 6 s by the end, short of 8.19 s).
  CHECK(acts_on_ring_times(slow_report_ring(0.001), 60, [](int k) { return k == 10 ? 3.0 : 1.0; }, "adaptive-lasting", 9)
            .empty());
  CHECK(acts_on_ring_times(slow_report_ring(0.1), 99, [](int k) { return k >= 96 ? 3.0 : 1.0; }, "adaptive-lasting", 9)
            .empty());
  // Steady iterations: nothing lost, no look.
  CHECK(acts_on_ring_times(slow_report_ring(0.001), 99, [](int) { return 2.0; }, "adaptive-lasting", 9).empty());
}

TEST_CASE("adaptive-lasting plans on a snapshot only once every member holds one") {
  // Before the first common snapshot (a ring of n: floor(n/2) - 1 iterations), a move may only be
  // planned on a look, never on reports nobody holds yet.
  std::mt19937_64 rng(11);
  int acted = 0;
  for (int k = 0; k < 2000; ++k) {
    Ring r = random_ring_with_hops(rng, -5.0);
    run_with_late_snapshots(r, "adaptive-lasting", rng, 5, [&](RedistributionPolicy&, Act a, int, int,
                                                               const std::vector<double>&) { acted += a != Act::carry_on; });
  }
  CHECK(acted > 100);
}

TEST_CASE("adaptive-lasting: a move spans the lags of the pace it interrupts, not of the balance it plans") {
  // The slowdown stays on one member of 8 for 10 snapshots, then moves to the next: a balance saves
  // for 9 lags. An iteration takes 5 s on the present loads (the slow member's 125 columns at a
  // quarter of 100 Mflop/s) and 1.4 s balanced; the move takes a few seconds (0.05 s a column),
  // under one iteration of the present pace, so its saving counts from the first lag. Asked for at
  // 63 of the 70 snapshots after the 20th (the test's loads never change, so a wanted move is asked
  // again); counted with the move's span at the balance's pace, it would be asked for at 2.
  auto runs_of_10 = [](int k) { return (k / 10) % 8; };
  Ring r = slow_report_ring(0.05);
  CHECK(acts_after(r, 20, 90, runs_of_10, "adaptive-lasting") > 40);
}

TEST_CASE("adaptive-lasting: a balance that turns harmful is charged for leaving it, one that lasts is not") {
  // Each slowdown holds 2 snapshots and passes to the next member: a balance made for it saves at
  // lag 1 half the time and from lag 2 on gives the member just slowed more columns than the even
  // loads did (-0.14 of its promise at each lag watched, but where the cycle of 16 comes back).
  // The plan, on the snapshot: even loads (5 s) to a balance (1.38 s), its transfer under an
  // iteration (first lag 1). Its credit is the same whether the run ends after that lag or goes
  // on; going on, the balance must then be left or borne: its harm (0.52 s with 2 iterations left,
  // more later), up to the most leaving by ski rental costs (the harm borne until it equals the
  // move, then the move: twice the move). Over many iterations the cost counts 4 times instead of
  // twice, so the largest transfer accepted is 1/2 of the one accepted with one iteration left
  // (2/3 if leaving were charged one move); with 2 iterations left the harm, under two moves, is
  // what is charged: the largest transfer accepted is the one-left one less half the harm.
  Ring r = slow_report_ring(0.001);
  auto policy = watched(r, 40, [](int k) { return (k / 2) % 8; }, "adaptive-lasting");
  Prediction plan;
  plan.moves = true;
  plan.tstep_before = 5.01;
  plan.tstep_after = 1.39;
  r.facts.iterations = 41;
  const double last_iteration = largest_accepted(*policy, view_of(r, 0, 40, 40), plan);
  r.facts.iterations = 100;
  const double going_on = largest_accepted(*policy, view_of(r, 0, 40, 40), plan);
  CHECK(last_iteration > 0.1);
  CHECK(going_on == doctest::Approx(0.5 * last_iteration).epsilon(1e-6));
  r.facts.iterations = 42;
  const double two_left = largest_accepted(*policy, view_of(r, 0, 40, 40), plan);
  CHECK(two_left == doctest::Approx(last_iteration - 0.5 * 0.52).epsilon(0.01));
  CHECK(two_left > going_on);
  // The same slowdown for good: every balance keeps its promise at every lag, nothing to leave;
  // going on only adds lags of saving.
  Ring q = slow_report_ring(0.001);
  auto lasting = watched(q, 40, [](int) { return 3; }, "adaptive-lasting");
  q.facts.iterations = 41;
  const double one_left = largest_accepted(*lasting, view_of(q, 0, 40, 40), plan);
  q.facts.iterations = 100;
  CHECK(largest_accepted(*lasting, view_of(q, 0, 40, 40), plan) > 10 * one_left);
}

TEST_CASE("adaptive-lasting: loads that lose to the initial balance on the speeds seen since are returned from") {
  // Member 0 holds 300 of 1000 columns since iteration 1 (others 100); it is slow at every other
  // snapshot, others in turn between: these loads take 8 s an iteration on average where the
  // initial even loads take 5 s, and the snapshots' own balances churn (no move for them pays).
  // Once 5 snapshots taken since the loads were set show it, the policy goes back: a plan
  // balanced for the nominal speeds, accepted when 3 s an iteration over the iterations left
  // repays twice the move.
  auto slow = [](int k) { return k % 2 == 0 ? 0 : 1 + k % 7; };
  auto skewed = [] {
    Ring r = slow_report_ring(0.001);
    r.loads.assign(8, 100);
    r.loads[0] = 300;
    return r;
  };
  Ring r = skewed();
  auto before = watched(r, 5, slow, "adaptive-lasting", 1);
  MemberView v5 = view_of(r, 0, 5, 5);
  v5.last_move = 1;
  CHECK_FALSE(before->balance_for(v5).has_value());  // 4 snapshots since: not yet
  Ring r6 = skewed();
  auto policy = make_policy("adaptive-lasting", 100);
  int returned_at = 0;
  for (int k = 1; k <= 30 && returned_at == 0; ++k) {
    std::vector<double> speeds(8, 1e8);
    speeds[static_cast<std::size_t>(slow(k))] = 2.5e7;
    set_speeds(r6, speeds, k);
    MemberView v = view_of(r6, 0, k, k);
    v.last_move = 1;
    if (policy->after_iteration(v) != Act::carry_on && policy->balance_for(v) == r6.facts.peak)
      returned_at = k;
  }
  CHECK(returned_at == 6);
  Prediction back;
  back.moves = true;
  back.tstep_before = 8.0;
  back.tstep_after = 5.0;
  back.transfer_time = 1.0;
  MemberView v6 = view_of(r6, 0, 6, 6);
  v6.last_move = 1;
  Prediction dear = back;
  dear.transfer_time = 1e4;  // twice this is more than 3 s an iteration over the 94 left
  auto copy_policy = [&] {
    Ring c = skewed();
    return watched(c, 6, slow, "adaptive-lasting", 1);
  };
  CHECK(copy_policy()->accept(v6, back));
  CHECK_FALSE(copy_policy()->accept(v6, dear));
  // Snapshots older than the loads do not count: loads set after iteration 20 are returned from
  // after snapshot 25, not before.
  Ring late = skewed();
  auto waits = watched(late, 24, slow, "adaptive-lasting", 20);
  MemberView v24 = view_of(late, 0, 24, 24);
  v24.last_move = 20;
  CHECK_FALSE(waits->balance_for(v24).has_value());
  std::vector<double> speeds(8, 1e8);
  speeds[static_cast<std::size_t>(slow(25))] = 2.5e7;
  set_speeds(late, speeds, 25);
  MemberView v25 = view_of(late, 0, 25, 25);
  v25.last_move = 20;
  CHECK(waits->after_iteration(v25) == Act::decide);
  CHECK(waits->balance_for(v25) == late.facts.peak);
  // The initial loads themselves: nothing to return to, ever.
  Ring even = slow_report_ring(0.001);
  auto stays = make_policy("adaptive-lasting", 100);
  for (int k = 1; k <= 40; ++k) {
    std::vector<double> sp(8, 1e8);
    sp[static_cast<std::size_t>(slow(k))] = 2.5e7;
    set_speeds(even, sp, k);
    stays->after_iteration(view_of(even, 0, k, k));
    CHECK_FALSE(stays->balance_for(view_of(even, 0, k, k)).has_value());
  }
}

TEST_CASE("adaptive-lasting: beyond the lags watched, a lag lasts at least the iteration watched") {
  // Ten calm snapshots, each one iteration apart, iterations of `pace` s: nothing changed, so each
  // member kept its speed for the 8 x 9 pace member-seconds watched; no balance promised anything,
  // so every lag is beyond those measured. A plan on the snapshot (5.01 s to 1.39 s) is credited
  // exp(-lag 8 t / P) at lag t, t the longer of the balance's iteration and the one watched: for
  // iterations watched longer than the balance's, the credit, and the largest move accepted, are
  // the same whatever the pace (9 iterations watched); counted in the balance's seconds they would
  // grow with the pace (17.9 s at 2 s an iteration, 100.2 s at 20 s).
  auto largest_after_calm = [](double pace) {
    return largest_after_ten([](const Ring& r, int) { return r.facts.peak; }, pace, 5.01, 1.39);
  };
  const double slow = largest_after_calm(2.0), slower = largest_after_calm(20.0);
  CHECK(slow > 0.1);
  CHECK(slower == doctest::Approx(slow).epsilon(1e-9));
  // Iterations watched shorter than the balance's: a lag lasts the balance's, longer credit for
  // a longer watch.
  CHECK(largest_after_calm(0.5) < largest_after_calm(1.0));
}

TEST_CASE("adaptive-lasting: changes that come together end a balance once") {
  // Ten snapshots of a ring of 8 with even loads; from snapshot 5 on the members of `slowed` (at
  // `when`[m] for member m) run at half speed and stay so. Every balance watched since kept its
  // promise (a share of 1 at every lag watched), and beyond those lags the credit is the chance that
  // the ring has kept all its speeds: one end of a balance per snapshot that showed a change.
  auto largest_after = [](const std::vector<int>& when) {
    auto speeds_at = [&when](const Ring& r, int k) {
      std::vector<double> speeds = r.facts.peak;
      for (std::size_t m = 0; m < when.size(); ++m)
        if (k >= when[m]) speeds[m] *= 0.5;
      return speeds;
    };
    return largest_after_ten(speeds_at, 1.3, 2.51, 1.68);
  };
  const double one = largest_after({5}), four_together = largest_after({5, 5, 5, 5});
  const double four_apart = largest_after({3, 4, 5, 6});
  // Four members slowed in one snapshot are one end of a balance, as one member slowed is (n times
  // one member's rate counted four: 2.11 s against 2.97 s); four apart are four (0.19 s).
  CHECK(one > 1.0);
  CHECK(four_together == doctest::Approx(one).epsilon(1e-9));
  CHECK(four_apart < 0.8 * four_together);
}

TEST_CASE("adaptive-lasting's backtest counts each balance up to its promise") {
  // Two members, a column of one flop, even loads (100, 100) throughout. Snapshot 1 at speeds
  // (1, 1.1): the balance (95, 105) promises 100 - 95.45 = 4.55 s; snapshot 2 at (1, 4): the
  // balance (40, 160) promises 100 - 40 = 60 s; snapshots 3 and 4 balance nothing (targets = loads).
  // At lag 2, snapshot 1's balance meets speeds (0.1, 4): it saves 1000 - 950 = 50 s, eleven times
  // its promise; snapshot 2's meets (1, 1.6): it saves 100 - 100 = 0. Counted up to its promise,
  // the first delivers 4.55 s: a share of 4.55 / 64.55 at lag 2, where the savings as they come
  // gave 50 / 64.55 = 0.775. At lags 1 and 3 every balance delivers at least its promise.
  auto snapshot = [] {
    std::vector<Report> reps(2);
    for (Report& rep : reps) rep.load = 100;
    return reps;
  };
  const std::vector<Count> even{100, 100};
  LastingShare share;
  share.observe(snapshot(), {1.0, 1.1}, {95, 105}, 1.0);
  share.observe(snapshot(), {1.0, 4.0}, {40, 160}, 1.0);
  share.observe(snapshot(), {0.1, 4.0}, even, 1.0);
  share.observe(snapshot(), {1.0, 1.6}, even, 1.0);
  auto nothing_unseen = [](int) { return 0.0; };
  const double first_promise = 100.0 - 105.0 / 1.1;
  CHECK(share.delivered(2, 1, nothing_unseen).lasting ==
        doctest::Approx(first_promise / (first_promise + 60.0)).epsilon(1e-12));
  CHECK(share.delivered(1, 1, nothing_unseen).lasting == doctest::Approx(1.0).epsilon(1e-12));
  CHECK(share.delivered(3, 1, nothing_unseen).lasting == doctest::Approx(1.0).epsilon(1e-12));
  // Over lags 1-3 the credit stops nowhere: 1 + 0.070 + 1.
  CHECK(share.delivered(1, 3, nothing_unseen).lasting ==
        doctest::Approx(2.0 + first_promise / (first_promise + 60.0)).epsilon(1e-12));
}

TEST_CASE("adaptive-lasting: a look that shows the loads losing to the initial balance goes back") {
  // Member 0 holds 300 of 1000 columns since iteration 7 (others 100; the initial balance 125
  // each). A look after iteration 10 shows member 0 at a quarter of its speed: these loads take
  // 12 s an iteration where the initial balance takes 5 s. The move the look plans (a balance
  // for those speeds) costs too much to pay; the policy then goes back at the next iteration, not
  // after the 5 snapshots since the loads were set that the return on snapshots waits for. A look
  // that shows another member slow (these loads 4 s, the initial balance 5 s) goes nowhere.
  auto after_look = [](std::size_t slow_member) {
    Ring r = slow_report_ring(0.001);
    r.loads.assign(8, 100);
    r.loads[0] = 300;
    auto p = make_policy("adaptive-lasting", 100);
    for (int k = 1; k <= 10; ++k) {
      set_speeds(r, r.facts.peak, k);
      MemberView v = view_of(r, 0, k, k);
      v.last_move = 7;
      p->after_iteration(v);
    }
    Prediction look;
    look.fresh = true;
    look.speeds = r.facts.peak;
    look.speeds[slow_member] = 2.5e7;
    look.moves = true;
    look.tstep_before = slow_member == 0 ? 12.01 : 4.01;
    look.tstep_after = 1.6;
    look.transfer_time = 1e6;
    MemberView v10 = view_of(r, 0, 10, 10);
    v10.last_move = 7;
    CHECK_FALSE(p->accept(v10, look));
    set_speeds(r, look.speeds, 11);
    MemberView v11 = view_of(r, 0, 11, 11);
    v11.last_move = 7;
    const Act act = p->after_iteration(v11);
    const auto speeds = p->balance_for(v11);
    return std::make_pair(act, speeds);
  };
  const auto [act, speeds] = after_look(0);
  CHECK(act == Act::decide);
  REQUIRE(speeds.has_value());
  CHECK(*speeds == slow_report_ring(0.001).facts.peak);
  CHECK_FALSE(after_look(3).second.has_value());
}

TEST_CASE("the rise rule, by hand: a look once the time lost since the decision pays for it and the least move") {
  // Two members of 10 columns, a column 2 s to a neighbour each way (both neighbours at once: 1 s a
  // column), borders of 1 s.
  Ring r = uniform_ring(2, 10, 1e5, 2.0, 1e-3, 1e8);
  r.facts.border_time = 1.0;
  const RingFacts& f = r.facts;
  // From 11 s back to 6 s (1 s of it the borders): the slowest keeps half its 10 columns.
  CHECK(Rise::least_move(f, r.loads, 11.0, 6.0) == doctest::Approx(5.0));
  CHECK(Rise::least_move(f, r.loads, 6.0, 6.0) == 0.0);
  MemberView v = view_of(r, 0, 1, 0);
  auto after = [&](int iteration, double ring_time) {
    v.iteration = iteration;
    v.ring_time = ring_time;
  };
  Rise rise;
  after(1, 0.0);
  CHECK_FALSE(rise.paid(v, f, 2.0));  // the first iteration's time is not known
  after(2, 6.0);
  CHECK_FALSE(rise.paid(v, f, 2.0));  // the reference
  CHECK(rise.reference == 6.0);
  after(3, 11.0);
  CHECK_FALSE(rise.paid(v, f, 2.0));  // 5 s lost, less than the look (2 s) and the least move (5 s)
  CHECK(rise.lost == doctest::Approx(5.0));
  CHECK(rise.move == doctest::Approx(5.0));
  after(4, 11.0);
  CHECK(rise.paid(v, f, 2.0));  // 10 s lost >= 7 s
  // A refused plan's move is the least known: it raises the price.
  Rise dearer{20.0};
  for (int iteration = 2; iteration <= 6; ++iteration) {  // 0, 5, 10, 15, 20 s lost: under 22 s
    after(iteration, iteration == 2 ? 6.0 : 11.0);
    CHECK_FALSE(dearer.paid(v, f, 2.0));
  }
  after(7, 11.0);
  CHECK(dearer.paid(v, f, 2.0));  // 25 s
  // Right after a move (columns moved after the previous iteration), nothing is measured.
  Rise moved;
  v.last_move = 6;
  after(7, 11.0);
  CHECK_FALSE(moved.paid(v, f, 2.0));
  CHECK(moved.reference == 0.0);
}
