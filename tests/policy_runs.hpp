// Runs of a policy over made-up snapshots, for the policies' tests: the answers of every member of
// random rings (which must be alike), runs whose snapshots come late, the first act on a slowdown
// and the acts after a while, and the check of a rule that moves at a step or never.
#pragma once

#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "planners/redistribution/load_balance.hpp"
#include "policy/predictions.hpp"
#include "policy/registry.hpp"
#include "policy_views.hpp"

namespace ringsim::policy {

// What members_answer_alike_on_random_rings draws and asks beside each member's after_iteration.
struct AlikeRings {
  // The ring of n members (its columns and costs drawn from rng); by default an even ring of 200 to
  // 2 199 columns.
  std::function<Ring(std::mt19937_64& rng, std::size_t n)> make_ring = [](std::mt19937_64& rng, std::size_t n) {
    return even_ring(n, 200 + static_cast<long>(rng() % 2000), 100);
  };
  // Whether the members that decide or look are also asked balance_for and accept (a random plan).
  bool ask_decisions = false;
};

// `rings` random rings, each member with its own policy of `scheme`, six iterations of the same
// common snapshots (speeds drifting a little) and private measurements and newest reports that
// differ from member to member: every member must answer alike. Returns how often each answer came.
inline std::array<int, 3> members_answer_alike_on_random_rings(const std::string& scheme, std::uint64_t seed,
                                                               int rings, const AlikeRings& how = {}) {
  std::mt19937_64 rng(seed);
  std::array<int, 3> acts_seen{0, 0, 0};
  for (int k = 0; k < rings; ++k) {
    const std::size_t n = 2 + rng() % 30;
    Ring r = how.make_ring(rng, n);
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
      Prediction plan;
      if (how.ask_decisions) {
        plan.moves = true;
        plan.fresh = rng() % 2 == 0;
        plan.speeds = speeds;
        plan.targets = redistribution::balanced_targets(speeds, r.facts.columns, 0.0);
        plan.transfer_time = std::uniform_real_distribution<double>(0.0, 10.0)(rng);
      }
      std::vector<Act> acts;
      std::vector<std::optional<std::vector<double>>> own;
      std::vector<bool> accepted;
      for (std::size_t i = 0; i < n; ++i) {
        MemberView v = view_of(r, i, first + step + age, first + step);
        v.own.speed = speeds[i] * std::uniform_real_distribution<double>(0.5, 2.0)(rng);
        v.own.time = std::uniform_real_distribution<double>(0.0, 100.0)(rng);
        v.iteration_time = std::uniform_real_distribution<double>(0.0, 100.0)(rng);
        std::vector<Report> newest = r.common;
        for (auto& rep : newest) rep.speed *= std::uniform_real_distribution<double>(0.1, 10.0)(rng);
        v.newest = &newest;
        acts.push_back(members[i]->after_iteration(v));
        if (how.ask_decisions && acts.back() != Act::carry_on) {
          own.push_back(members[i]->balance_for(v));
          accepted.push_back(members[i]->accept(v, plan));
        }
      }
      for (Act a : acts) CHECK(a == acts.front());
      for (const auto& o : own) CHECK(o == own.front());
      for (bool a : accepted) CHECK(a == accepted.front());
      ++acts_seen[static_cast<std::size_t>(acts.front())];
    }
  }
  return acts_seen;
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

// Snapshots 1..last with member `slow(k)` at a quarter of the speed in snapshot k (-1: none);
// the first snapshot after which `scheme` acts (0: never).
template <class Slow>
int first_act_on_slowdown(Ring& r, int last, Slow slow, const std::string& scheme) {
  auto p = make_policy(scheme, 100);
  for (int k = 1; k <= last; ++k) {
    std::vector<double> speeds(r.facts.n, 1e8);
    if (slow(k) >= 0) speeds[static_cast<std::size_t>(slow(k))] = 2.5e7;
    set_speeds(r, speeds, k);
    if (p->after_iteration(view_of(r, 0, k, k)) != Act::carry_on) return k;
  }
  return 0;
}

// The same snapshots under `scheme`; how many acts come after snapshot `from` (the policy having watched that
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

// For a rule that moves at a step or never: checks which it did against `moves`, and counts it.
inline void check_at_step_or_never(bool moves, int acted, int step, int& moved, int& never) {
  if (moves) {
    CHECK(acted == step);
    ++moved;
  } else {
    CHECK(acted == 0);
    ++never;
  }
}

}  // namespace ringsim::policy
