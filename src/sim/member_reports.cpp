// What a member knows, and only that (policies/policy.hpp): its own measurements, the ring's
// facts, and the reports that reached it. A piggybacking policy's reports ride on the border
// messages of every iteration: each member sends its own report of the iteration with both border
// columns, and passes on what it received in the previous iteration, so that a report travels one
// hop per iteration each way: forward (to successors) up to F = floor(n/2) hops, backward up to
// n - 1 - F, and every member is reached. After iteration t, member i holds member j's report of
// iteration t - d + 1 (d the hops between them), hence every member holds every report of
// iteration t - F + 1: that common snapshot lets all members take the same decision with no
// further message.
#include "sim/ring_app.hpp"

#include <cmath>
#include <stdexcept>

#include "policies/registry.hpp"

namespace ringsim::sim {
std::size_t forward_reach(std::size_t n) { return n / 2; }
std::size_t backward_reach(std::size_t n) { return n == 0 ? 0 : n - 1 - forward_reach(n); }

namespace {

// Hops from member `from` to member `to` going forward (successors) / backward.
std::size_t hops_forward(const RingRun& r, std::size_t from, std::size_t to) { return (to + r.n - from) % r.n; }

int common_iteration_after(const RingRun& r, int it) {
  return r.n <= 1 ? it : it - static_cast<int>(forward_reach(r.n)) + 1;
}

BorderNote no_reports;  // the payload of border messages that carry no report

// Only what the policy reads was allocated (start_policies): an empty vector is not kept up.
void hold(MemberKnowledge& k, std::size_t member, const policy::Report& rep) {
  if (!k.newest.empty()) k.newest[member] = rep;
  // Member j's report of iteration s is used after iteration s + floor(n/2) - 1 at the latest;
  // the next report to land in its slot is that of iteration s + depth, which arrives later.
  if (!k.slots.empty()) k.slots[member * k.depth + static_cast<std::size_t>(rep.iteration) % k.depth] = rep;
}

}  // namespace

// One policy instance per member of the ring in effect, from iteration `first_iteration` on;
// what the members knew of an earlier ring is forgotten.
void start_policies(RingRun& r, int first_iteration) {
  for (auto& m : r.members) m.policy = policy::make_policy(r.app.scheme, r.app.iterations);
  r.known.piggyback = r.n > 1 && r.members.front().policy->piggybacks_reports();
  MemberKnowledge fresh;
  fresh.first_iteration = first_iteration;
  fresh.depth = forward_reach(r.n) + 1;
  // Only what the policy reads is kept: n * (floor(n/2) + 1) report slots per member would be
  // O(n^2) per member (a third of a GB for a ring of 256) for policies that never read them.
  if (r.known.piggyback && r.members.front().policy->reads_newest()) fresh.newest.assign(r.n, {});
  if (r.known.piggyback && r.members.front().policy->reads_common()) fresh.slots.assign(r.n * fresh.depth, {});
  for (auto& m : r.members) {
    m.act = policy::Act::carry_on;
    m.knowledge = fresh;
  }

  policy::RingFacts& f = r.known.facts;
  f.n = r.n;
  f.iterations = r.app.iterations;
  f.columns = r.app.columns;
  f.flops_per_column = r.flops_per_column;
  f.column_bytes = r.app.column_bytes;
  f.report_bytes = r.app.report_bytes;
  f.decision_flops = r.app.decision_flops;
  f.peak = r.peak;
  f.border_time = r.border_time;
  f.cost_next = r.cost_next;
  f.cost_prev = r.cost_prev;
  f.latency_next.assign(r.n, 0.0);
  f.latency_prev.assign(r.n, 0.0);
  f.bandwidth_next.assign(r.n, INFINITY);
  f.bandwidth_prev.assign(r.n, INFINITY);
  for (std::size_t i = 0; r.n > 1 && i < r.n; ++i) {
    route_latency_bandwidth(r.hosts[i], r.hosts[succ(r, i)], f.latency_next[i], f.bandwidth_next[i]);
    route_latency_bandwidth(r.hosts[i], r.hosts[pred(r, i)], f.latency_prev[i], f.bandwidth_prev[i]);
  }
}

static policy::Report own_report(const RingRun& r, std::size_t i, int it) {
  policy::Report rep;
  rep.iteration = it;
  const MemberState& m = r.members[i];
  rep.load = static_cast<long>(m.columns.size());
  rep.compute_time = m.last_compute;
  rep.time = m.iter_start + m.last_compute;
  rep.speed = measured_speed(r, i);
  return rep;
}

// The payload of member i's border message of iteration `it` to its successor (or predecessor):
// its own report and those received last iteration that still have hops to go that way.
BorderNote* note_for(RingRun& r, std::size_t i, int it, bool to_succ) {
  if (!r.known.piggyback) return &no_reports;
  MemberKnowledge& k = r.members[i].knowledge;
  const std::size_t reach = to_succ ? forward_reach(r.n) : backward_reach(r.n);
  BorderNote& note = to_succ ? k.to_succ : k.to_pred;
  note.reports.clear();
  if (reach == 0) return &note;
  note.reports.emplace_back(i, own_report(r, i, it));
  for (const auto& [j, rep] : to_succ ? k.from_pred : k.from_succ) {
    const std::size_t travelled = to_succ ? hops_forward(r, j, i) : hops_forward(r, i, j);
    if (travelled < reach) note.reports.emplace_back(j, rep);
  }
  return &note;
}

// Member i after the border exchange of iteration `it`: its own report and the notes received
// (copied: their senders rebuild them next iteration).
void learn(RingRun& r, std::size_t i, int it, const BorderNote* from_pred, const BorderNote* from_succ) {
  if (!r.known.piggyback) return;
  MemberKnowledge& k = r.members[i].knowledge;
  hold(k, i, own_report(r, i, it));
  k.from_pred.clear();
  k.from_succ.clear();
  for (auto [note, keep] : {std::pair{from_pred, &k.from_pred}, std::pair{from_succ, &k.from_succ}}) {
    if (note == nullptr) continue;
    for (const auto& [j, rep] : note->reports) {
      hold(k, j, rep);
      keep->emplace_back(j, rep);
    }
  }
  const int s = common_iteration_after(r, it);
  if (k.slots.empty() || s < k.first_iteration) return;
  k.common.resize(r.n);
  for (std::size_t j = 0; j < r.n; ++j) {
    const policy::Report& rep = k.slots[j * k.depth + static_cast<std::size_t>(s) % k.depth];
    if (rep.iteration != s)
      throw std::logic_error("member " + std::to_string(j) + "'s report of iteration " + std::to_string(s) +
                             " has not reached member " + std::to_string(i) + " after iteration " + std::to_string(it));
    k.common[j] = rep;
  }
  k.common_iteration = s;
}

policy::MemberView view_of(const RingRun& r, std::size_t i, int it) {
  policy::MemberView v;
  v.ring = &r.known.facts;
  v.me = i;
  v.iteration = it;
  v.own = own_report(r, i, it);
  const MemberState& m = r.members[i];
  v.iteration_time = m.iter_span;
  v.loads = &r.known.loads;
  v.last_move = r.known.last_move;
  const MemberKnowledge& k = m.knowledge;
  v.newest = &k.newest;
  v.common_iteration = k.common_iteration;
  v.common = &k.common;
  return v;
}

// Every member must have answered alike: a policy decides on what all of them know.
void check_agreement(const RingRun& r, int it) {
  for (std::size_t i = 1; i < r.n; ++i)
    if (r.members[i].act != r.members[0].act)
      throw std::logic_error("policy '" + r.app.scheme + "' answered differently at members 0 and " +
                             std::to_string(i) + " after iteration " + std::to_string(it) +
                             ": a decision must rest on what every member knows");
}

}  // namespace ringsim::sim
