// Redistribution policies in-process (src/policy/): the fixed schemes' points, the names the
// registry accepts and refuses, and the adaptive policy's test on hand-made and random views; its
// answers depend only on what every member holds alike.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <random>

#include "model/errors.hpp"
#include "planners/redistribution/load_balance.hpp"
#include "policy/lasting_share.hpp"
#include "policy/predictions.hpp"
#include "policy/registry.hpp"
#include "policy/rise.hpp"
#include "policy/speed_changes.hpp"
#include "policy_views.hpp"
#include "trial_count.hpp"

using namespace ringsim;
using namespace ringsim::policy;

namespace {

std::vector<int> points_of(const std::string& scheme, int iterations) {
  auto p = make_policy(scheme, iterations);
  RingFacts f;
  f.n = 4;
  f.iterations = iterations;
  std::vector<long> loads(4, 25);
  std::vector<int> points;
  for (int it = 1; it <= iterations; ++it) {
    MemberView v;
    v.ring = &f;
    v.iteration = it;
    v.loads = &loads;
    if (p->after_iteration(v) != Act::carry_on) points.push_back(it);
  }
  return points;
}

Ring ring_of(std::size_t n, long columns, int iterations) {
  Ring r;
  r.facts.n = n;
  r.facts.iterations = iterations;
  r.facts.columns = columns;
  r.facts.flops_per_column = 1e6;
  r.facts.decision_flops = 1e6;
  r.facts.cost_next.assign(n, 0.01);
  r.facts.cost_prev.assign(n, 0.01);
  r.facts.border_time = 0.01;
  r.facts.report_bytes = 16;
  r.facts.peak.assign(n, 1e8);
  r.facts.latency_next.assign(n, 0.005);
  r.facts.latency_prev.assign(n, 0.005);
  r.facts.bandwidth_next.assign(n, 1e6);
  r.facts.bandwidth_prev.assign(n, 1e6);
  r.loads.assign(n, columns / static_cast<long>(n));
  r.loads[0] += columns - r.loads[0] * static_cast<long>(n);
  return r;
}

}  // namespace

TEST_CASE("the paper's five schemes have 0, 1, 4, 9 and 19 redistribution points") {
  CHECK(points_of("none", 100).empty());
  CHECK(points_of("once", 100) == std::vector<int>{50});
  CHECK(points_of("every-20", 100) == std::vector<int>{20, 40, 60, 80});
  CHECK(points_of("every-10", 100).size() == 9);
  CHECK(points_of("every-5", 100).size() == 19);
  CHECK(points_of("after:80,20,20", 100) == std::vector<int>{20, 80});
  CHECK(points_of("adaptive-gather-7", 100).size() == 14);
  CHECK(points_of("adaptive-gather", 100).size() == 19);
  CHECK(make_policy("none", 100)->never_redistributes());
  CHECK(make_policy("once", 1)->never_redistributes());
  CHECK_FALSE(make_policy("every-5", 100)->never_redistributes());
  CHECK_FALSE(make_policy("adaptive", 100)->never_redistributes());
  CHECK(make_policy("adaptive", 100)->piggybacks_reports());
  CHECK_FALSE(make_policy("every-5", 100)->piggybacks_reports());
  CHECK_FALSE(make_policy("adaptive-gather-3", 100)->piggybacks_reports());
}

TEST_CASE("the registry refuses unknown and malformed schemes, naming them") {
  for (const char* bad : {"after:100", "every-0", "every-x", "every-", "every--3", "every-+3", "sometimes",
                          "adaptive-7", "adaptive-gather-0", "after:", "after:3,,4", "Adaptive", ""}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(make_policy(bad, 100), InputError);
    try {
      make_policy(bad, 100);
    } catch (const InputError& e) {
      CHECK(std::string(e.what()).find(std::string("'") + bad) != std::string::npos);
    }
  }
  CHECK(scheme_syntaxes().find("adaptive-gather-K") != std::string::npos);
}

TEST_CASE("a policy added at run time is found after the built-in ones") {
  struct Never : RedistributionPolicy {
    Act after_iteration(const MemberView&) override { return Act::carry_on; }
  };
  add_policy("never-ever", "test", [](const SchemeArgs&) { return std::make_unique<Never>(); });
  CHECK(make_policy("never-ever", 10) != nullptr);
  CHECK(scheme_syntaxes().find("never-ever") != std::string::npos);
}

// The policy watches calm snapshots of iterations 1..last (equal speeds, balanced loads): it
// carries on, and learns that speeds have held that long.
void watch_calm(RedistributionPolicy& p, Ring& r, int last) {
  for (int s = 1; s <= last; ++s) {
    set_speeds(r, std::vector<double>(r.facts.n, 1e8), s);
    CHECK(p.after_iteration(view_of(r, 0, s + 3, s)) == Act::carry_on);
  }
}

// A fresh adaptive policy that watched calm snapshots up to `snapshot` - 3, then sees `speeds` in
// the last three snapshots (the iterations before `iteration`): its answer after the third. After
// the first two it waits: the change is a burst whose targets have not yet held for two
// snapshots (the test below on bursts).
Act after_calm_then(Ring& r, const std::vector<double>& speeds, int iteration, int snapshot,
                    std::unique_ptr<RedistributionPolicy>* keep = nullptr) {
  auto p = make_policy("adaptive", 100);
  watch_calm(*p, r, snapshot - 3);
  for (int back = 2; back >= 1; --back) {
    set_speeds(r, speeds, snapshot - back);
    CHECK(p->after_iteration(view_of(r, 0, iteration - back, snapshot - back)) == Act::carry_on);
  }
  set_speeds(r, speeds, snapshot);
  const Act a = p->after_iteration(view_of(r, 0, iteration, snapshot));
  if (keep) *keep = std::move(p);
  return a;
}

TEST_CASE("adaptive, network-dominated ring: no periodic look, a large imbalance is planned, old reports looked at") {
  Ring r = ring_of(8, 1000, 100);
  // One report hop costs 1 s: an all-gather (4 rounds) is 4 s against 1.26 s iterations, a look
  // every 106 iterations would cost 3% of them: never within 100 iterations.
  r.facts.latency_next.assign(8, 1.0);
  r.facts.latency_prev.assign(8, 1.0);
  std::vector<double> speeds(8, 1e8);
  speeds[3] = 2.5e7;  // member 3 four times slower: 125 columns take 5 s instead of 1.25 s

  CHECK(make_policy("adaptive", 100)->after_iteration(view_of(r, 0, 3, 0)) == Act::carry_on);  // nothing known yet
  CHECK(after_calm_then(r, speeds, 10, 7) == Act::decide);  // reports 3 iterations old
  // Reports 8 iterations old: the present is looked at first.
  std::unique_ptr<RedistributionPolicy> old;
  CHECK(after_calm_then(r, speeds, 15, 7, &old) == Act::gather_and_decide);
  // ...and reports no newer than that look are not acted upon.
  set_speeds(r, speeds, 8);
  CHECK(old->after_iteration(view_of(r, 0, 16, 8)) == Act::carry_on);
  // Straight after a calm start, one snapshot of an imbalance promises little: no move yet.
  auto hasty = make_policy("adaptive", 100);
  set_speeds(r, speeds, 1);
  CHECK(hasty->after_iteration(view_of(r, 0, 4, 1)) == Act::carry_on);

  // Near the end the saving no longer pays for the move (a column now costs 0.1 s a hop).
  r.facts.cost_next.assign(8, 0.1);
  r.facts.cost_prev.assign(8, 0.1);
  CHECK(after_calm_then(r, speeds, 10, 7) == Act::decide);
  CHECK(after_calm_then(r, speeds, 99, 96) == Act::carry_on);
  r.facts.cost_next.assign(8, 0.01);
  r.facts.cost_prev.assign(8, 0.01);

  // A plan that costs more than it saves is refused, and not planned again for the same targets.
  std::unique_ptr<RedistributionPolicy> q;
  CHECK(after_calm_then(r, speeds, 10, 7, &q) == Act::decide);
  Prediction dear;
  dear.moves = true;
  dear.tstep_before = 5.01;
  dear.tstep_after = 1.5;
  dear.transfer_time = 1e6;
  CHECK_FALSE(q->accept(view_of(r, 0, 10, 7), dear));
  set_speeds(r, speeds, 8);
  CHECK(q->after_iteration(view_of(r, 0, 11, 8)) == Act::carry_on);
  speeds[3] = 2e7;  // other targets: planned again, and accepted when the move is cheap
  set_speeds(r, speeds, 9);
  CHECK(q->after_iteration(view_of(r, 0, 12, 9)) == Act::decide);
  Prediction cheap = dear;
  cheap.transfer_time = 10.0;
  CHECK(q->accept(view_of(r, 0, 12, 9), cheap));
  CHECK_FALSE(q->accept(view_of(r, 0, 12, 9), Prediction{}));  // nothing moves
}

TEST_CASE("adaptive, compute-dominated ring: a fresh look as often as 3% of the time allows") {
  Ring r = ring_of(8, 1000, 100);
  set_speeds(r, std::vector<double>(8, 1e8), 5);
  // Gather: 4 rounds of 5 ms + 16 B at 1 MB/s = 0.020064 s; iteration 1.26 s: every
  // ceil(0.020064 / (0.03 * 1.26)) = 1 iteration.
  auto p = make_policy("adaptive", 100);
  for (int it = 6; it < 100; ++it) CHECK(p->after_iteration(view_of(r, 0, it, it - 3)) == Act::gather_and_decide);
  CHECK(p->after_iteration(view_of(r, 0, 100, 97)) == Act::carry_on);  // nothing left to gain
  // 50 ms hops: 0.2006 s a gather, every ceil(0.2006 / 0.0378) = 6 iterations.
  r.facts.latency_next.assign(8, 0.05);
  r.facts.latency_prev.assign(8, 0.05);
  auto q = make_policy("adaptive", 100);
  std::vector<int> looks;
  for (int it = 6; it < 40; ++it)
    if (q->after_iteration(view_of(r, 0, it, it - 3)) == Act::gather_and_decide) looks.push_back(it);
  CHECK(looks == std::vector<int>{6, 12, 18, 24, 30, 36});
}

namespace {

// `rings` random rings, each member with its own policy of `scheme`, six iterations of the same
// common snapshots (speeds drifting a little) and private measurements and newest reports that
// differ from member to member: every member must answer alike. Returns how often each answer came.
std::array<int, 3> members_answer_alike(const std::string& scheme, std::uint64_t seed, int rings) {
  std::mt19937_64 rng(seed);
  std::array<int, 3> acts_seen{0, 0, 0};
  for (int k = 0; k < rings; ++k) {
    const std::size_t n = 2 + rng() % 30;
    Ring r = ring_of(n, 200 + static_cast<long>(rng() % 2000), 100);
    const double hop = std::pow(10.0, std::uniform_real_distribution<double>(-4.0, 0.5)(rng));
    r.facts.latency_next.assign(n, hop);
    r.facts.latency_prev.assign(n, hop);
    std::vector<double> speeds(n);
    for (auto& s : speeds) s = std::uniform_real_distribution<double>(1e7, 1e9)(rng);
    const int first = 1 + static_cast<int>(rng() % 80);
    const int age = static_cast<int>(rng() % 8);
    std::vector<std::unique_ptr<RedistributionPolicy>> members;
    for (std::size_t i = 0; i < n; ++i) members.push_back(make_policy(scheme, 100));
    for (int step = 0; step < 6 && first + step + age <= 100; ++step) {
      for (auto& s : speeds) s *= std::uniform_real_distribution<double>(0.9, 1.1)(rng);
      set_speeds(r, speeds, first + step);
      std::vector<Act> acts;
      for (std::size_t i = 0; i < n; ++i) {
        MemberView v = view_of(r, i, first + step + age, first + step);
        v.own.speed = speeds[i] * std::uniform_real_distribution<double>(0.5, 2.0)(rng);
        v.own.time = std::uniform_real_distribution<double>(0.0, 100.0)(rng);
        v.iteration_time = std::uniform_real_distribution<double>(0.0, 100.0)(rng);
        std::vector<Report> newest = r.common;
        for (auto& rep : newest) rep.speed *= std::uniform_real_distribution<double>(0.1, 10.0)(rng);
        v.newest = &newest;
        acts.push_back(members[i]->after_iteration(v));
      }
      for (Act a : acts) CHECK(a == acts.front());
      ++acts_seen[static_cast<std::size_t>(acts.front())];
    }
  }
  return acts_seen;
}

}  // namespace

TEST_CASE("adaptive: on 3000 random rings the answer depends only on what every member holds") {
  const int rings = testing::trials(3000, 2);
  const auto acts_seen = members_answer_alike("adaptive", 20261123, rings);
  // The property is checked on every answer, not on carry_on alone.
  CHECK(acts_seen[0] > rings / 30);
  CHECK(acts_seen[1] > rings / 30);
  CHECK(acts_seen[2] > rings / 30);
}

TEST_CASE("adaptive waits out a burst of speed changes, but not a steady churn") {
  Ring r = ring_of(8, 1000, 100);
  r.facts.latency_next.assign(8, 1.0);  // network-dominated: no periodic look
  r.facts.latency_prev.assign(8, 1.0);
  // After a calm start, members 1..4 slow down one snapshot after another (a burst): while the
  // snapshots' targets still move, nothing is planned; two snapshots after the last change, the
  // move is.
  {
    auto p = make_policy("adaptive", 100);
    watch_calm(*p, r, 6);
    std::vector<double> speeds(8, 1e8);
    std::vector<Act> acts;
    for (int s = 7; s <= 14; ++s) {
      if (s <= 10) speeds[static_cast<std::size_t>(s - 6)] = 2.5e7;
      set_speeds(r, speeds, s);
      acts.push_back(p->after_iteration(view_of(r, 0, s + 3, s)));
    }
    for (int s = 7; s <= 11; ++s) CHECK_MESSAGE(acts[static_cast<std::size_t>(s - 7)] == Act::carry_on, "snapshot " << s);
    CHECK(std::find(acts.begin() + 5, acts.end(), Act::decide) != acts.end());
  }
  // A steady churn from the very first snapshot on: two slow members, a different pair at every
  // snapshot (so the targets move as much as in any burst), but changes come no faster than ever:
  // moves are planned while the targets still move (counted once two snapshots are known).
  {
    auto p = make_policy("adaptive", 100);
    int planned = 0;
    for (int s = 1; s <= 30; ++s) {
      std::vector<double> speeds(8, 1e8);
      speeds[static_cast<std::size_t>(s) % 8] = 2.5e7;
      speeds[static_cast<std::size_t>(s + 1) % 8] = 2.5e7;
      set_speeds(r, speeds, s);
      if (p->after_iteration(view_of(r, 0, s + 3, s)) != Act::carry_on && s > 3) ++planned;
    }
    CHECK(planned > 10);
  }
}

// ---- rent-or-buy (src/policy/rent_or_buy.cpp) ----

namespace {

// A ring of 4 to 31 members, 100 iterations, whose report hops cost 10^u s with u uniform in
// [log10_hop_low, -0.5], drawn from rng.
Ring random_ring_with_hops(std::mt19937_64& rng, double log10_hop_low) {
  const std::size_t n = 4 + rng() % 28;
  Ring r = ring_of(n, 50 * static_cast<long>(n) + static_cast<long>(rng() % 500), 100);
  const double hop = std::pow(10.0, std::uniform_real_distribution<double>(log10_hop_low, -0.5)(rng));
  r.facts.latency_next.assign(n, hop);
  r.facts.latency_prev.assign(n, hop);
  return r;
}

// Iterations 1..40 of member 0 of `r` under `scheme`, one random member's speed redrawn every
// `every` iterations, the common snapshot floor(n/2) - 1 iterations behind and none before it:
// checks that nothing is decided before a snapshot exists, and hands each act to `seen(act,
// iteration, common iteration, speeds)` with the policy.
template <class Seen>
void run_with_late_snapshots(Ring& r, const std::string& scheme, std::mt19937_64& rng, int every, Seen seen) {
  const std::size_t n = r.facts.n;
  const int lag = static_cast<int>(n / 2);
  auto p = make_policy(scheme, 100);
  std::vector<double> speeds(n, 1e8);
  for (int it = 1; it <= 40; ++it) {
    if (it % every == 1) speeds[rng() % n] = std::uniform_real_distribution<double>(1e7, 1e8)(rng);
    const int common = it > lag ? it - lag + 1 : 0;
    if (common > 0) set_speeds(r, speeds, common);
    const Act a = p->after_iteration(view_of(r, 0, it, common));
    if (common == 0) CHECK(a != Act::decide);
    seen(*p, a, it, common, speeds);
  }
}

// A ring of n where periodic looks never pay (a report hop costs 1 s) and a column costs
// `column` s to move.
Ring network_ring(double column, std::size_t n = 8) {
  Ring r = ring_of(n, 125 * static_cast<long>(n), 100);
  r.facts.latency_next.assign(n, 1.0);
  r.facts.latency_prev.assign(n, 1.0);
  r.facts.cost_next.assign(n, column);
  r.facts.cost_prev.assign(n, column);
  return r;
}

// Snapshots 1..last with member `slow(k)` at a quarter of the speed in snapshot k (-1: none);
// the first snapshot after which the policy acts (0: never).
template <class Slow>
int first_act(Ring& r, int last, Slow slow, const std::string& scheme = "rent-or-buy") {
  auto p = make_policy(scheme, 100);
  for (int k = 1; k <= last; ++k) {
    std::vector<double> speeds(r.facts.n, 1e8);
    if (slow(k) >= 0) speeds[static_cast<std::size_t>(slow(k))] = 2.5e7;
    set_speeds(r, speeds, k);
    if (p->after_iteration(view_of(r, 0, k, k)) != Act::carry_on) return k;
  }
  return 0;
}

// The same snapshots; how many acts come after snapshot `from` (the policy having watched that
// many snapshots).
template <class Slow>
int acts_after(Ring& r, int from, int last, Slow slow, const std::string& scheme) {
  auto p = make_policy(scheme, 100);
  int acts = 0;
  for (int k = 1; k <= last; ++k) {
    std::vector<double> speeds(r.facts.n, 1e8);
    if (slow(k) >= 0) speeds[static_cast<std::size_t>(slow(k))] = 2.5e7;
    set_speeds(r, speeds, k);
    if (p->after_iteration(view_of(r, 0, k, k)) != Act::carry_on && k > from) ++acts;
  }
  return acts;
}

}  // namespace

TEST_CASE("rent-or-buy: a lasting slowdown is bought once its regret reaches the move's price, not before") {
  for (double column : {0.01, 0.1, 0.5}) {
    Ring r = network_ring(column);
    const int change = 10;
    const int acted = first_act(r, 60, [&](int k) { return k >= change ? 0 : -1; });
    // The rent of one iteration, and the price (decision at the slowest speed + the move's bound),
    // as every member predicts them.
    std::vector<double> slow(8, 1e8);
    slow[0] = 2.5e7;
    const auto targets = redistribution::balanced_targets(slow, 1000);
    const double rent = compute_time_of(r.loads, slow, 1e6) -
                        compute_time_of(std::vector<long>(targets.begin(), targets.end()), slow, 1e6);
    const double move = 1e6 / 2.5e7 + move_lower_bound(r.facts, r.loads, targets);
    // A look (an all-gather, 4 hops of 1 s) is taken first when it costs no more than the move.
    const double look = gather_cost(r.facts);
    const double price = move + (look <= move ? look : 0.0);
    // The balance for the slowdown is anchored at its first snapshot; each later one adds a rent.
    const int expected = change + static_cast<int>(std::ceil(price / rent));
    INFO("column cost ", column, ": rent ", rent, " s, price ", price, " s");
    CHECK(rent > 0.0);
    CHECK(acted == expected);
    CHECK(acted > change);  // never on the snapshot that first shows it
  }
}

TEST_CASE("rent-or-buy: a churn faster than a balance lasts is never bought") {
  // Each snapshot a different member of 24 is slow: yesterday's balance gives today's slow member
  // more columns, so no move would have saved anything, however cheap.
  Ring r = network_ring(0.001, 24);
  CHECK(first_act(r, 24, [](int k) { return k - 1; }) == 0);
  // When the slow members come back (8 members, each slow every 8 snapshots), a balance for one of
  // them saves 3.6 s once per cycle and loses 0.5 s in each of the 7 others: it is bought once
  // those 0.12 s per cycle have paid the (tiny) price.
  Ring cycle = network_ring(0.001);
  CHECK(first_act(cycle, 90, [](int k) { return k % 8; }) > 16);
  // The same slow member every snapshot is bought at once (the price is tiny).
  Ring q = network_ring(0.001);
  CHECK(first_act(q, 90, [](int) { return 3; }) == 2);
}

TEST_CASE("rent-or-buy: on 3000 random rings every member answers alike") {
  const int rings = testing::trials(3000, 2);
  const auto acts_seen = members_answer_alike("rent-or-buy", 20261125, rings);
  CHECK(acts_seen[0] > rings / 30);
  CHECK(acts_seen[1] + acts_seen[2] > rings / 30);
}

TEST_CASE("rent-or-buy decides on the snapshot only when the snapshot is what it last saw") {
  // Looks come before any snapshot on a long ring (a snapshot is floor(n/2) - 1 iterations old):
  // a move seen in a look must be planned on a look again, never on snapshots nobody holds yet.
  std::mt19937_64 rng(7);
  int decided_on_looks = 0;
  for (int k = 0; k < 2000; ++k) {
    Ring r = random_ring_with_hops(rng, -3.0);
    const std::size_t n = r.facts.n;
    const double column = std::pow(10.0, std::uniform_real_distribution<double>(-5.0, -1.0)(rng));
    r.facts.cost_next.assign(n, column);
    r.facts.cost_prev.assign(n, column);
    run_with_late_snapshots(r, "rent-or-buy", rng, 7, [&](RedistributionPolicy& p, Act a, int it, int common,
                                                          const std::vector<double>& speeds) {
      if (a != Act::gather_and_decide) return;
      Prediction pred;
      pred.fresh = true;
      pred.speeds = speeds;
      pred.moves = true;
      pred.tstep_before = 2.0;
      pred.tstep_after = 1.0;
      pred.transfer_time = std::uniform_real_distribution<double>(0.0, 50.0)(rng);
      decided_on_looks += p.accept(view_of(r, 0, it, common), pred) ? 0 : 1;
    });
  }
  CHECK(decided_on_looks > 100);
}

// ---- adaptive-lasting (src/policy/adaptive_lasting.cpp, LastingShare) ----

TEST_CASE("adaptive-lasting: on 3000 random rings every member answers alike") {
  const int rings = testing::trials(3000, 2);
  const auto acts_seen = members_answer_alike("adaptive-lasting", 20261126, rings);
  CHECK(acts_seen[0] > rings / 30);
  CHECK(acts_seen[1] + acts_seen[2] > rings / 30);
}

TEST_CASE("forecast-lasting: on 3000 random rings every member answers alike") {
  const int rings = testing::trials(3000, 2);
  const auto acts_seen = members_answer_alike("forecast-lasting", 20261129, rings);
  CHECK(acts_seen[0] > rings / 30);
  CHECK(acts_seen[1] + acts_seen[2] > rings / 30);
}

TEST_CASE("adaptive-lasting: a lasting slowdown is moved for, a churn is not") {
  // One member slow from snapshot 10 on, for good: moved for once the change has settled (the
  // burst rule waits two snapshots), as adaptive does when the move is cheap; an expensive one
  // (0.1 s a column) waits until the balance has been watched to hold for a few snapshots (adaptive
  // moves at 12, this policy at 18; crediting no lag beyond those watched, at 22).
  for (double column : {0.001, 0.01, 0.1}) {
    Ring r = network_ring(column);
    const int acted = first_act(r, 60, [](int k) { return k >= 10 ? 0 : -1; }, "adaptive-lasting");
    INFO("column cost ", column);
    CHECK(acted > 10);
    CHECK(acted < 20);
    Ring a = network_ring(column);
    if (column <= 0.01) CHECK(first_act(a, 60, [](int k) { return k >= 10 ? 0 : -1; }, "adaptive") == acted);
  }
  // Each snapshot a different member of 24 is slow: yesterday's balance gives today's slow member
  // more columns, so the backtest finds that no balance saves anything, however cheap the move:
  // once 4 snapshots are watched, never moved for (adaptive, counting one member's persistence,
  // asks for a move at nearly every snapshot; the test's loads never change, so a wanted move is
  // asked again at each).
  Ring r = network_ring(0.001, 24);
  CHECK(acts_after(r, 4, 60, [](int k) { return (k - 1) % 24; }, "adaptive-lasting") == 0);
  Ring ra = network_ring(0.001, 24);
  CHECK(acts_after(ra, 4, 60, [](int k) { return (k - 1) % 24; }, "adaptive") > 40);
  // The slow members come back (8 members, each slow every 8 snapshots): a balance for one of them
  // saves once per cycle and loses in the 7 others; after the first snapshots, hardly ever moved for.
  Ring cycle = network_ring(0.001);
  CHECK(acts_after(cycle, 4, 90, [](int k) { return k % 8; }, "adaptive-lasting") < 5);
  // The same slow member at every snapshot: every balance keeps its promise, moved for at once
  // (the price is tiny) and asked again at every snapshot, as the loads never change here.
  Ring q = network_ring(0.001);
  CHECK(first_act(q, 90, [](int) { return 3; }, "adaptive-lasting") == 2);
  Ring q2 = network_ring(0.001);
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
  Ring r = network_ring(0.001);
  CHECK(acts_after(r, 12, 90, runs_of_6, "adaptive-lasting") > 40);
}

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

}  // namespace

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
  CHECK(acts_on_ring_times(network_ring(0.001), 60, rise_at_10, "adaptive-lasting", 9) == std::vector<int>{13});
  CHECK(acts_on_ring_times(network_ring(0.1), 60, rise_at_10, "adaptive-lasting", 9) == std::vector<int>{15});
  CHECK(acts_on_ring_times(network_ring(1.0), 60, rise_at_10, "adaptive-lasting", 9).empty());
  // Before two reports are common nothing is known of how long a balance lasts, and nothing is
  // credited (a look at a calm start credited a balance for every iteration left, under on/off
  // load on a ring of 32: it broke the next iteration); two reports 1.3 s apart promise too little.
  CHECK(acts_on_ring_times(network_ring(0.001), 60, rise_at_10, "adaptive-lasting").empty());
  CHECK(acts_on_ring_times(network_ring(0.001), 60, rise_at_10, "adaptive-lasting", 2).empty());
  // adaptive does not read the ring's time: nothing in its reports has changed.
  CHECK(acts_on_ring_times(network_ring(0.001), 60, rise_at_10, "adaptive", 9).empty());
  // A slow iteration that does not last loses 2 s, less than the look: never bought; nor a rise
  // too late to lose that much (0.1 s a column, from iteration 96 on: 6 s by the end, short of 8.19 s).
  CHECK(acts_on_ring_times(network_ring(0.001), 60, [](int k) { return k == 10 ? 3.0 : 1.0; }, "adaptive-lasting", 9)
            .empty());
  CHECK(acts_on_ring_times(network_ring(0.1), 99, [](int k) { return k >= 96 ? 3.0 : 1.0; }, "adaptive-lasting", 9)
            .empty());
  // Steady iterations: nothing lost, no look.
  CHECK(acts_on_ring_times(network_ring(0.001), 99, [](int) { return 2.0; }, "adaptive-lasting", 9).empty());
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
  // again); counting the move's span at the balance's pace, at 2 (seen).
  auto runs_of_10 = [](int k) { return (k / 10) % 8; };
  Ring r = network_ring(0.05);
  CHECK(acts_after(r, 20, 90, runs_of_10, "adaptive-lasting") > 40);
}

namespace {

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

}  // namespace

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
  // (2/3 with leaving charged one move, seen); with 2 iterations left the harm, under two moves, is
  // what is charged: the largest transfer accepted is the one-left one less half the harm.
  Ring r = network_ring(0.001);
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
  Ring q = network_ring(0.001);
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
    Ring r = network_ring(0.001);
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
  Ring even = network_ring(0.001);
  auto stays = make_policy("adaptive-lasting", 100);
  for (int k = 1; k <= 40; ++k) {
    std::vector<double> sp(8, 1e8);
    sp[static_cast<std::size_t>(slow(k))] = 2.5e7;
    set_speeds(even, sp, k);
    stays->after_iteration(view_of(even, 0, k, k));
    CHECK_FALSE(stays->balance_for(view_of(even, 0, k, k)).has_value());
  }
}

namespace {

// The largest transfer adaptive-lasting accepts, for a plan on the snapshot from `before` to
// `after` s an iteration, once it has watched snapshots 1..10 of a ring of 8 (speeds_at(ring, k)
// at snapshot k, one every `pace` s).
template <class SpeedsAt>
double largest_after_ten(SpeedsAt speeds_at, double pace, double before, double after) {
  Ring r = network_ring(0.001);
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

TEST_CASE("adaptive-lasting: beyond the lags watched, a lag lasts at least the iteration watched") {
  // Ten calm snapshots, each one iteration apart, iterations of `pace` s: nothing changed, so each
  // member kept its speed for the 8 x 9 pace member-seconds watched; no balance promised anything,
  // so every lag is beyond those measured. A plan on the snapshot (5.01 s to 1.39 s) is credited
  // exp(-lag 8 t / P) at lag t, t the longer of the balance's iteration and the one watched: for
  // iterations watched longer than the balance's, the credit, and the largest move accepted, are
  // the same whatever the pace (9 iterations watched); counted in the balance's seconds they grew
  // with the pace (seen: 17.9 s at 2 s an iteration, 100.2 s at 20 s).
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
  // one member's rate counted four: seen 2.11 s against 2.97 s); four apart are four (0.19 s).
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
  // gave 50 / 64.55 (seen: 0.775). At lags 1 and 3 every balance delivers at least its promise.
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
    Ring r = network_ring(0.001);
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
  CHECK(*speeds == network_ring(0.001).facts.peak);
  CHECK_FALSE(after_look(3).second.has_value());
}

// ---- stop-at-rise (src/policy/stop_at_rise.cpp, Nicol and Saltz 1988) ----

namespace {

// Degradation of the snapshot's speeds on the ring's loads and the remap cost C, as the rule
// defines them (the slowest computation over its balance's, and the planner's work at the slowest
// speed plus the move's one-port bound).
struct StepCosts {
  double degradation = 0.0;
  double remap = 0.0;
};

StepCosts step_costs(const Ring& r, const std::vector<double>& speeds) {
  const auto targets = redistribution::balanced_targets(speeds, r.facts.columns);
  StepCosts c;
  c.degradation = compute_time_of(r.loads, speeds, r.facts.flops_per_column) -
                  compute_time_of(targets, speeds, r.facts.flops_per_column);
  c.remap = r.facts.decision_flops / *std::min_element(speeds.begin(), speeds.end()) +
            move_lower_bound(r.facts, r.loads, targets);
  return c;
}

// For a rule that moves at a step or never: checks which it did against `moves`, and counts it.
void check_at_step_or_never(bool moves, int acted, int step, int& moved, int& never) {
  if (moves) {
    CHECK(acted == step);
    ++moved;
  } else {
    CHECK(acted == 0);
    ++never;
  }
}

// Snapshots 1..40 at speeds(k), with a move after iteration 12: the first snapshot after which
// `scheme` acts (0: never).
template <class Speeds>
int first_act_after_move_at_12(Ring& r, Speeds speeds, const std::string& scheme) {
  auto p = make_policy(scheme, 100);
  for (int k = 1; k <= 40; ++k) {
    set_speeds(r, speeds(k), k);
    MemberView v = view_of(r, 0, k, k);
    v.last_move = k > 12 ? 12 : 0;
    if (p->after_iteration(v) != Act::carry_on) return k;
  }
  return 0;
}

}  // namespace

TEST_CASE("stop-at-rise: a step of degradation D after s - 1 balanced steps is moved for at once iff (s - 1) D > C") {
  // W(n) = (C + S_n) / n; with delta_j = D from step s on, W(n) > W(n - 1) reads (s - 1) D > C
  // at every n >= s: the rule moves at the step or never.
  std::vector<double> slow(8, 1e8);
  slow[0] = 2.5e7;
  int moved = 0, never = 0;
  for (double column : {0.001, 0.01, 0.1, 0.5, 2.0}) {
    for (int s : {2, 4, 10, 30}) {
      Ring r = network_ring(column);
      const StepCosts c = step_costs(r, slow);
      const int acted = first_act(r, 80, [&](int k) { return k >= s ? 0 : -1; }, "stop-at-rise");
      INFO("column cost ", column, ", step at ", s, ": D ", c.degradation, " s, C ", c.remap, " s");
      CHECK(c.degradation > 0.0);
      check_at_step_or_never((s - 1) * c.degradation > c.remap, acted, s, moved, never);
    }
  }
  CHECK(moved >= 4);  // both sides of the condition are reached
  CHECK(never >= 4);
}

TEST_CASE("stop-at-rise: on a ramp it moves at the first rise of the average cost per step, not before") {
  // Member 0 slows a little more at each snapshot: the degradations grow, and the rule fires at
  // the first n >= 2 where (C_n + S_n) / n > (C_n + S_(n-1)) / (n - 1), C_n the cost of the move now.
  int later = 0;
  for (double column : {0.001, 0.05, 0.5}) {
    for (double rate : {0.002, 0.01, 0.05}) {
      Ring r = network_ring(column);
      auto p = make_policy("stop-at-rise", 200);
      double sum = 0.0;
      int expected = 0, acted = 0;
      for (int k = 1; k <= 150 && acted == 0; ++k) {
        std::vector<double> speeds(8, 1e8);
        speeds[0] = 1e8 / (1.0 + rate * k);
        set_speeds(r, speeds, k);
        const StepCosts c = step_costs(r, speeds);
        const double before = sum;
        sum += c.degradation;
        if (expected == 0 && k >= 2 && (sum + c.remap) / k > (before + c.remap) / (k - 1)) expected = k;
        if (p->after_iteration(view_of(r, 0, k, k)) != Act::carry_on) acted = k;
      }
      INFO("column cost ", column, ", slowdown rate ", rate);
      CHECK(expected >= 2);
      CHECK(acted == expected);
      later += expected > 2;
    }
  }
  CHECK(later >= 4);  // not only at the first step that can rise
}

TEST_CASE("stop-at-rise: a balanced ring is never moved, and a move starts a new cycle") {
  Ring r = network_ring(0.001);
  CHECK(first_act(r, 60, [](int) { return -1; }, "stop-at-rise") == 0);
  // Eleven balanced snapshots, then a move after iteration 12 and a lasting slowdown from
  // snapshot 13. Counted from before the move it would be a step after 11 balanced steps, moved
  // for at once (11 D > C); the move starts a new cycle, in which it is a step at s = 1, never
  // moved for ((s - 1) D = 0 is no more than C): the rule's average only falls.
  std::vector<double> slow(8, 1e8);
  slow[2] = 2.5e7;
  auto slow_from_13 = [&](int k) { return k >= 13 ? slow : std::vector<double>(8, 1e8); };
  const StepCosts c = step_costs(r, slow);
  CHECK(11 * c.degradation > c.remap);  // without the new cycle it would move at 13
  CHECK(first_act_after_move_at_12(r, slow_from_13, "stop-at-rise") == 0);
}

TEST_CASE("stop-at-rise: on 3000 random rings every member answers alike") {
  const auto acts_seen = members_answer_alike("stop-at-rise", 20261128, 3000);
  CHECK(acts_seen[0] > 100);
  CHECK(acts_seen[1] + acts_seen[2] > 100);
}

// ---- meta-balancer (src/policy/meta_balancer.cpp, Menon et al. 2012) ----

TEST_CASE("meta-balancer: a lasting excess D from the start is moved for after C / D iterations, never before five samples") {
  // All samples equal: the line is flat at D, so (m / 2) tau^2 + b tau = C gives tau = C / D.
  std::vector<double> slow(8, 1e8);
  slow[0] = 2.5e7;
  int early = 0, late = 0;
  for (double column : {0.0001, 0.001, 0.01, 0.1, 0.5, 2.0}) {
    Ring r = network_ring(column);
    const StepCosts c = step_costs(r, slow);
    const int acted = first_act(r, 90, [](int) { return 0; }, "meta-balancer");
    const int tau = static_cast<int>(c.remap / c.degradation);
    INFO("column cost ", column, ": D ", c.degradation, " s, C ", c.remap, " s, tau ", tau);
    if (tau >= 90) {
      CHECK(acted == 0);
    } else {
      CHECK(acted == std::max(5, tau));
      early += tau < 5;
      late += tau > 5;
    }
  }
  CHECK(early >= 1);
  CHECK(late >= 2);
  Ring balanced = network_ring(0.0001);
  CHECK(first_act(balanced, 90, [](int) { return -1; }, "meta-balancer") == 0);
}

TEST_CASE("meta-balancer: on a ramp it moves once the area under its two-halves line reaches the move's cost") {
  // The line through the means of the samples' two halves (slope 2 (second - first) / span, value
  // first - slope total / 4 at the cycle's start); the policy moves at the first iteration t from
  // the fifth sample on where the period floor(tau) is reached, i.e. the area under that line up
  // to t + 1 exceeds C (the positive root of the area's quadratic is tau).
  int later = 0;
  for (double column : {0.0001, 0.01, 0.3}) {
    for (double rate : {0.002, 0.01, 0.05}) {
      Ring r = network_ring(column);
      auto p = make_policy("meta-balancer", 200);
      std::vector<double> excess;
      int expected = 0, acted = 0;
      for (int k = 1; k <= 150 && acted == 0; ++k) {
        std::vector<double> speeds(8, 1e8);
        speeds[0] = 1e8 / (1.0 + rate * k);
        set_speeds(r, speeds, k);
        const StepCosts c = step_costs(r, speeds);
        excess.push_back(c.degradation);
        if (expected == 0 && excess.size() >= 5) {
          const std::size_t total = excess.size(), half = total / 2;
          double first = 0.0, second = 0.0;
          for (std::size_t i = 0; i < total; ++i) (i < half ? first : second) += excess[i];
          first /= static_cast<double>(half);
          second /= static_cast<double>(total - half);
          const double slope = 2.0 * (second - first) / static_cast<double>(total);
          const double start = first - slope * static_cast<double>(total) / 4.0;
          const double t = static_cast<double>(k + 1);
          if (slope > 0.0 && slope / 2.0 * t * t + start * t > c.remap) expected = k;
        }
        if (p->after_iteration(view_of(r, 0, k, k)) != Act::carry_on) acted = k;
      }
      INFO("column cost ", column, ", slowdown rate ", rate);
      CHECK(expected >= 5);
      CHECK(acted == expected);
      later += expected > 5;
    }
  }
  CHECK(later >= 4);
}

TEST_CASE("meta-balancer: on 3000 random rings every member answers alike") {
  const auto acts_seen = members_answer_alike("meta-balancer", 20261129, 3000);
  CHECK(acts_seen[0] > 100);
  CHECK(acts_seen[1] + acts_seen[2] > 100);
}

// ---- boulmier (src/policy/boulmier.cpp, Boulmier, Abdennadher and Chopard 2021) ----

namespace {

// The criterion's imbalance of a snapshot: the longest computation time minus their mean.
double max_minus_mean(const Ring& r) {
  double longest = 0.0, sum = 0.0;
  for (const Report& rep : r.common) {
    longest = std::max(longest, rep.compute_time);
    sum += rep.compute_time;
  }
  return longest - sum / static_cast<double>(r.common.size());
}

// Snapshots 1..last at speeds(k), computed here as the criterion states it: the first snapshot
// sets the baseline B, each one adds U = max(0, imbalance - B) to S, and the rule fires at the
// first k with (k - 1) U_k - S_k >= C_k (k - 1 snapshots since the baseline's). Returns the
// snapshot it fires at by that reckoning and the one the policy acted at (0: never).
template <class Speeds>
std::pair<int, int> boulmier_by_hand(Ring& r, int last, Speeds speeds) {
  auto p = make_policy("boulmier", 100);
  double baseline = 0.0, sum = 0.0;
  int expected = 0, acted = 0;
  for (int k = 1; k <= last && acted == 0; ++k) {
    const std::vector<double> s = speeds(k);
    set_speeds(r, s, k);
    if (k == 1) baseline = max_minus_mean(r);
    const double u = std::max(0.0, max_minus_mean(r) - baseline);
    sum += u;
    const auto targets = redistribution::balanced_targets(s, r.facts.columns);
    const bool moves = !std::equal(targets.begin(), targets.end(), r.loads.begin());
    if (expected == 0 && moves && (k - 1) * u - sum >= step_costs(r, s).remap) expected = k;
    if (p->after_iteration(view_of(r, 0, k, k)) != Act::carry_on) acted = k;
  }
  return {expected, acted};
}

}  // namespace

TEST_CASE("boulmier: a step of imbalance D after a balanced baseline is moved for at once iff (s - 2) D >= C") {
  // Balanced until snapshot s, then member 0 at a quarter of its speed: U = D from s on, and at
  // snapshot k >= s the rule reads (k - 1) D - (k - s + 1) D = (s - 2) D >= C, the same at every k:
  // it moves at the step or never. D is the slow member's time over the mean: 5 - 13.75 / 8 s.
  constexpr double step = 5.0 - 13.75 / 8.0;
  int moved = 0, never = 0;
  for (double column : {0.001, 0.01, 0.1, 0.5, 2.0}) {
    for (int s : {2, 3, 5, 10, 30}) {
      Ring r = network_ring(column);
      std::vector<double> slow(8, 1e8);
      slow[0] = 2.5e7;
      const double cost = step_costs(r, slow).remap;
      const int acted = first_act(r, 80, [&](int k) { return k >= s ? 0 : -1; }, "boulmier");
      INFO("column cost ", column, ", step at ", s, ": C ", cost, " s");
      check_at_step_or_never((s - 2) * step >= cost, acted, s, moved, never);
    }
  }
  CHECK(moved >= 4);  // both sides of the condition are reached
  CHECK(never >= 4);
}

TEST_CASE("boulmier: imbalance already there at the baseline is not moved for, only its rise") {
  // Member 0 at a quarter of its speed from the first snapshot: the baseline is D1 = 5 - 13.75 / 8
  // s and nothing is ever moved for, though a balance would save 3.75 s an iteration. A second
  // member slowed alike lowers max - mean (5 - 17.5 / 8 s): still nothing. Member 0 down to an
  // eighth at snapshot s: U = (10 - 18.75 / 8) - D1 = 4.375 s from s on, moved for iff (s - 2) U >= C.
  constexpr double baseline = 5.0 - 13.75 / 8.0, rise = 10.0 - 18.75 / 8.0 - baseline;
  CHECK(rise == doctest::Approx(4.375));
  for (double column : {0.001, 0.1}) {
    Ring r = network_ring(column);
    CHECK(first_act(r, 90, [](int) { return 0; }, "boulmier") == 0);
    auto two_slow = [](int k) {
      std::vector<double> s(8, 1e8);
      s[0] = 2.5e7;
      if (k >= 10) s[1] = 2.5e7;
      return s;
    };
    CHECK(boulmier_by_hand(r, 90, two_slow) == std::make_pair(0, 0));
  }
  // Column costs from 1 ms to 5 s in steps of 10%: some C fall between (s - 2) U and what the
  // rule would read with no baseline, (s - 2) U - D1 ((s - 1) D1 + ... counted from zero).
  int moved = 0, never = 0, between = 0;
  for (int step = 0; step <= 90; ++step) {
    const double column = 0.001 * std::pow(1.1, step);
    for (int s : {3, 6, 20}) {
      Ring r = network_ring(column);
      auto deeper = [s](int k) {
        std::vector<double> sp(8, 1e8);
        sp[0] = k >= s ? 1.25e7 : 2.5e7;
        return sp;
      };
      std::vector<double> deepest(8, 1e8);
      deepest[0] = 1.25e7;
      const double cost = step_costs(r, deepest).remap;
      const auto [expected, acted] = boulmier_by_hand(r, 80, deeper);
      INFO("column cost ", column, ", deeper at ", s, ": C ", cost, " s");
      CHECK(acted == expected);
      check_at_step_or_never((s - 2) * rise >= cost, acted, s, moved, never);
      between += (s - 2) * rise >= cost && (s - 2) * rise - baseline < cost;
    }
  }
  CHECK(moved >= 3);
  CHECK(never >= 3);
  CHECK(between >= 2);
  // Below the baseline counts as zero, not as a credit: member 1 slowed alike from snapshot 5 to
  // 14 (max - mean 0.46875 s under D1), then member 0 down to an eighth from 15: moved for at 15
  // iff 13 U >= C, where counting those ten snapshots at -0.46875 s would read 13 U + 4.6875.
  constexpr double below = baseline - (5.0 - 17.5 / 8.0);
  CHECK(below == doctest::Approx(0.46875));
  int credited = 0;
  for (int step = 0; step <= 90; ++step) {
    Ring r = network_ring(0.001 * std::pow(1.1, step));
    auto dip_then_drop = [](int k) {
      std::vector<double> sp(8, 1e8);
      sp[0] = k >= 15 ? 1.25e7 : 2.5e7;
      if (k >= 5 && k < 15) sp[1] = 2.5e7;
      return sp;
    };
    const auto [expected, acted] = boulmier_by_hand(r, 80, dip_then_drop);
    const double cost = step_costs(r, dip_then_drop(15)).remap;
    CHECK(acted == expected);
    CHECK(expected == (13 * rise >= cost ? 15 : 0));
    credited += 13 * rise < cost && 13 * rise + 10 * below >= cost;
  }
  CHECK(credited >= 1);
}

TEST_CASE("boulmier: on a ramp and on a wave it moves at the first snapshot where (k - 1) U - S reaches C") {
  int later = 0, fired = 0, unfired = 0;
  for (double column : {0.001, 0.05, 0.5}) {
    for (double rate : {0.002, 0.01, 0.05}) {  // member 0 slows a little more at each snapshot
      Ring r = network_ring(column);
      const auto [expected, acted] = boulmier_by_hand(r, 150, [rate](int k) {
        std::vector<double> s(8, 1e8);
        s[0] = 1e8 / (1.0 + rate * k);
        return s;
      });
      INFO("ramp: column cost ", column, ", slowdown rate ", rate);
      CHECK(expected >= 3);
      CHECK(acted == expected);
      later += expected > 3;
    }
  }
  // The wave: at its k-th crest (k - 1) U - S grows about as k times the mean U, so it fires
  // unless the move costs more than the run's crests reach.
  for (double column : {0.001, 0.05, 0.5, 10.0}) {
    for (int period : {8, 20, 60}) {  // member 0's speed a wave between 1 and 1/3 of its peak
      Ring r = network_ring(column);
      const auto [expected, acted] = boulmier_by_hand(r, 90, [period](int k) {
        std::vector<double> s(8, 1e8);
        s[0] = 1e8 / (2.0 - std::cos(2.0 * 3.141592653589793 * (k - 1) / period));
        return s;
      });
      INFO("wave: column cost ", column, ", period ", period);
      CHECK(acted == expected);
      (expected > 0 ? fired : unfired) += 1;
    }
  }
  CHECK(later >= 4);  // not only at the first snapshot that can fire
  CHECK(fired >= 2);
  CHECK(unfired >= 1);
}

TEST_CASE("boulmier: a balanced ring is never moved, and a move sets a new baseline") {
  Ring r = network_ring(0.001);
  CHECK(first_act(r, 60, [](int) { return -1; }, "boulmier") == 0);
  // A move after iteration 12, then a lasting slowdown from snapshot 13. Counted from the run's
  // first baseline it is a step at s = 13, moved for at once (11 D >= C); the move's cycle takes
  // snapshot 13 as its baseline, and nothing rises above it.
  std::vector<double> slow(8, 1e8);
  slow[2] = 2.5e7;
  auto slow_from_13 = [&](int k) { return k >= 13 ? slow : std::vector<double>(8, 1e8); };
  CHECK(11 * (5.0 - 13.75 / 8.0) >= step_costs(r, slow).remap);  // without the new cycle it would move at 13
  CHECK(first_act_after_move_at_12(r, slow_from_13, "boulmier") == 0);
  // The same cycle, member 2 down to an eighth from snapshot 20: U = 4.375 s over the baseline,
  // moved for at 20 iff 6 U >= C (six snapshots since the baseline's). Against the run's first
  // baseline it would read 6 * 7.65625 - 7 * 3.28125 s, lower: the column costs scanned reach
  // C between the two.
  constexpr double d1 = 5.0 - 13.75 / 8.0, d2 = 10.0 - 18.75 / 8.0;
  int between = 0;
  for (int step = 0; step <= 90; ++step) {
    Ring q = network_ring(0.001 * std::pow(1.1, step));
    std::vector<double> deeper = slow;
    deeper[2] = 1.25e7;
    const double cost = step_costs(q, deeper).remap;
    const int acted = first_act_after_move_at_12(
        q, [&](int k) { return k >= 20 ? deeper : slow_from_13(k); }, "boulmier");
    INFO("column cost ", 0.001 * std::pow(1.1, step), ": C ", cost, " s");
    CHECK(acted == (6 * (d2 - d1) >= cost ? 20 : 0));
    between += 6 * (d2 - d1) >= cost && 6 * d2 - 7 * d1 < cost;
  }
  CHECK(between >= 1);
}

TEST_CASE("boulmier: on 3000 random rings every member answers alike") {
  const auto acts_seen = members_answer_alike("boulmier", 20261130, 3000);
  CHECK(acts_seen[0] > 100);
  CHECK(acts_seen[1] + acts_seen[2] > 100);
}

TEST_CASE("speed changes, by hand: a change counts once settled, and together-changes end a balance once") {
  // Two members; set_speeds stamps snapshot t at 1.3 t s.
  Ring r = uniform_ring(2, 10, 1e5, 1.0, 1e-3, 1e8);
  constexpr double pace = 1.3;
  SpeedChanges c;
  auto observe = [&](int t, double speed0, double speed1) {
    set_speeds(r, {speed0, speed1}, t);
    c.observe(r.common);
  };
  CHECK_FALSE(c.watched());
  CHECK(std::isinf(c.persistence()));
  CHECK(std::isinf(c.ring_persistence()));
  // Member 0 steps from 100 to 200 at the snapshot of t = 4; the next one (t = 5) confirms it.
  const std::array<double, 6> speed0{100, 100, 100, 200, 200, 200};
  for (int t = 1; t <= 6; ++t) observe(t, speed0[static_cast<std::size_t>(t - 1)], 100);
  CHECK(c.watched());
  CHECK(c.pace() == doctest::Approx(pace));
  CHECK(c.persistence() == doctest::Approx(2.0 * 5.0 * pace / 1.0));  // 2 members, 5 snapshots, 1 change
  CHECK(c.ring_persistence() == doctest::Approx(5.0 * pace));
  // One change in the last 2 snapshots against 1 in 5 overall: more than twice as often.
  CHECK(c.in_burst(2, 2.0));
  // Both members change at the snapshot of t = 9 (settled at t = 10): two member changes, one end
  // of a balance. The window holds t = 3..12.
  for (int t = 7; t <= 12; ++t) observe(t, t < 9 ? 200 : 400, t < 9 ? 100 : 50);
  CHECK(c.persistence() == doctest::Approx(2.0 * 9.0 * pace / 3.0));  // three member changes
  CHECK(c.ring_persistence() == doctest::Approx(9.0 * pace / 2.0));   // in two snapshots
  CHECK_FALSE(c.in_burst(2, 2.0));
  // Three snapshots later the window (t = 6..15) no longer holds the first change.
  for (int t = 13; t <= 15; ++t) observe(t, 400, 50);
  CHECK(c.persistence() == doctest::Approx(2.0 * 9.0 * pace / 2.0));
  CHECK(c.ring_persistence() == doctest::Approx(9.0 * pace));
  // Fresh speeds 2 s after the last snapshot: within 5% of it, or one member off it.
  const double now = 15 * pace + 2.0;
  CHECK(std::isinf(c.recent_ring_persistence({400, 51}, now)));
  CHECK(c.recent_persistence({400, 60}, now) == doctest::Approx(2.0 * 2.0 / 1.0));
  CHECK(c.recent_ring_persistence({400, 60}, now) == doctest::Approx(2.0));
}

TEST_CASE("speed changes, by hand: a reading that straddles a change is not a change of its own") {
  Ring r = uniform_ring(2, 10, 1e5, 1.0, 1e-3, 1e8);
  SpeedChanges c;
  // 100, then a computation half before and half after the step (150), then 200 from there on.
  const std::array<double, 6> speed0{100, 100, 100, 150, 200, 200};
  for (int t = 1; t <= 6; ++t) {
    set_speeds(r, {speed0[static_cast<std::size_t>(t - 1)], 100}, t);
    c.observe(r.common);
  }
  CHECK(c.persistence() == doctest::Approx(2.0 * 5.0 * 1.3 / 1.0));
  CHECK(c.ring_persistence() == doctest::Approx(5.0 * 1.3));
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
