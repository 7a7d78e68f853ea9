// What a member knows, and only that (policy/policy.hpp): its own measurements, the ring's
// facts, and the reports that reached it. A piggybacking policy's reports ride on the border
// messages of every iteration: each member sends its own report of the iteration with both border
// columns, and passes on what it received in the previous iteration, so that a report travels one
// hop per iteration each way: forward (to successors) up to F = floor(n/2) hops, backward up to
// n - 1 - F, and every member is reached. After iteration t, member i holds member j's report of
// iteration t - d + 1 (d the hops between them), hence every member holds every report of
// iteration t - F + 1: that common snapshot lets all members take the same decision with no
// further message.
#include "sim/member_reports.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "policy/registry.hpp"

namespace ringsim::sim {
std::size_t forward_reach(std::size_t n) { return n / 2; }
std::size_t backward_reach(std::size_t n) { return n == 0 ? 0 : n - 1 - forward_reach(n); }

namespace {

// Hops from member `from` to member `to` going forward (successors) / backward.
std::size_t hops_forward(std::size_t n, std::size_t from, std::size_t to) { return (to + n - from) % n; }

int common_iteration_after(std::size_t n, int it) {
  return n <= 1 ? it : it - static_cast<int>(forward_reach(n)) + 1;
}

BorderNote no_reports;  // the payload of border messages that carry no report
const std::vector<policy::Report> no_common;  // what a member that reads no common snapshot is shown

// Member j's report of iteration s reached member k. Only what the policy reads is kept up
// (start_policies): with an empty `seen`, nothing is. Reports arrive in the order of their
// iterations (one hop per iteration along one way round), so the newest one's iteration says
// which of them reached k.
void hold(const ReportsInFlight& reports, MemberKnowledge& k, ReportRef ref) {
  if (k.seen.empty()) return;
  k.seen[ref.member] = ref.iteration;
  if (!k.newest.empty()) k.newest[ref.member] = reports.row(ref.iteration)[ref.member];
}

}  // namespace

// One policy instance per member of the ring in effect, from iteration `first_iteration` on;
// what the members knew of an earlier ring is forgotten.
void start_policies(const RunSetup& s, const RingShape& ring, int first_iteration, RingMembers& ms) {
  const std::size_t n = ring.n;
  for (auto& m : ms.states) m.policy = policy::make_policy(s.app.scheme, s.app.iterations);
  ms.known.piggyback = n > 1 && ms.states.front().policy->piggybacks_reports();
  const bool newest = ms.known.piggyback && ms.states.front().policy->reads_newest();
  const bool common = ms.known.piggyback && ms.states.front().policy->reads_common();
  MemberKnowledge fresh;
  fresh.first_iteration = first_iteration;
  fresh.reads_common = common;
  // Only what the policy reads is kept: the reports' values once for the ring (n reports of each
  // of the last floor(n/2) + 1 iterations, or of each of the ring's iterations if it has fewer),
  // and at each member the iteration of the newest report of each member that reached it (and
  // that report's value, if the policy reads it).
  if (newest || common) fresh.seen.assign(n, 0);
  if (newest) fresh.newest.assign(n, {});
  const auto ring_iterations = static_cast<std::size_t>(std::max(1, s.app.iterations - first_iteration + 1));
  const std::size_t rows = std::min(forward_reach(n) + 1, ring_iterations);
  ms.reports.rows.assign(newest || common ? rows : 0, std::vector<policy::Report>(n));
  for (auto& m : ms.states) {
    m.act = policy::Act::carry_on;
    m.knowledge = fresh;
  }

  policy::RingFacts& f = ms.known.facts;
  f.n = n;
  f.iterations = s.app.iterations;
  f.columns = s.app.columns;
  f.flops_per_column = s.flops_per_column;
  f.column_bytes = s.app.column_bytes;
  f.report_bytes = s.app.report_bytes;
  f.decision_flops = s.app.decision_flops;
  f.peak = ring.peak;
  f.border_time = ring.border_time;
  f.cost_next = ring.cost_next;
  f.cost_prev = ring.cost_prev;
  f.routes = ring.routes;
  f.latency_next.assign(n, 0.0);
  f.latency_prev.assign(n, 0.0);
  f.bandwidth_next.assign(n, INFINITY);
  f.bandwidth_prev.assign(n, INFINITY);
  for (std::size_t i = 0; n > 1 && i < n; ++i) {
    route_latency_bandwidth(ring.hosts[i], ring.hosts[ring.succ(i)], f.latency_next[i], f.bandwidth_next[i]);
    route_latency_bandwidth(ring.hosts[i], ring.hosts[ring.pred(i)], f.latency_prev[i], f.bandwidth_prev[i]);
  }
}

static policy::Report own_report(const RunSetup& s, const MemberState& m, int it) {
  policy::Report rep;
  rep.iteration = it;
  rep.load = static_cast<long>(m.columns.size());
  rep.compute_time = m.last_compute;
  rep.time = m.iter_start + m.last_compute;
  rep.speed = measured_speed(s, m);
  rep.speed_error = measured_speed_error(m);
  return rep;
}

// Member i's report of iteration `it`, once measured, before its border messages leave: its
// value, for whoever it reaches (it replaces the report of iteration it - floor(n/2) - 1, which
// nobody reads any more).
void post_report(const RunSetup& s, RingMembers& ms, std::size_t i, int it) {
  if (ms.known.piggyback && !ms.reports.rows.empty()) ms.reports.row(it)[i] = own_report(s, ms.states[i], it);
}

// The payload of member i's border message of iteration `it` to its successor (or predecessor):
// its own report and those received last iteration that still have hops to go that way.
BorderNote* note_for(const CommonKnowledge& known, ReportRelay& relay, std::size_t n, std::size_t i, int it,
                     bool to_succ) {
  if (!known.piggyback) return &no_reports;
  const std::size_t reach = to_succ ? forward_reach(n) : backward_reach(n);
  BorderNote& note = to_succ ? relay.to_succ : relay.to_pred;
  note.reports.clear();
  if (reach == 0) return &note;
  note.reports.push_back({static_cast<std::uint32_t>(i), it});
  for (const ReportRef& ref : to_succ ? relay.from_pred : relay.from_succ) {
    const std::size_t travelled = to_succ ? hops_forward(n, ref.member, i) : hops_forward(n, i, ref.member);
    if (travelled < reach) note.reports.push_back(ref);
  }
  return &note;
}

// Member i after the border exchange of iteration `it`: its own report and the notes received
// (copied: their senders rebuild them next iteration).
void learn(RingMembers& ms, ReportRelay& relay, std::size_t i, int it, const BorderNote* from_pred,
           const BorderNote* from_succ) {
  if (!ms.known.piggyback) return;
  const std::size_t n = ms.states.size();
  MemberKnowledge& k = ms.states[i].knowledge;
  hold(ms.reports, k, {static_cast<std::uint32_t>(i), it});
  relay.from_pred.clear();
  relay.from_succ.clear();
  for (auto [note, keep] : {std::pair{from_pred, &relay.from_pred}, std::pair{from_succ, &relay.from_succ}}) {
    if (note == nullptr) continue;
    for (const ReportRef& ref : note->reports) {
      hold(ms.reports, k, ref);
      keep->push_back(ref);
    }
  }
  const int s = common_iteration_after(n, it);
  if (!k.reads_common || s < k.first_iteration) return;
  const std::vector<policy::Report>& row = ms.reports.row(s);
  for (std::size_t j = 0; j < n; ++j)
    if (k.seen[j] < s || row[j].iteration != s)
      throw std::logic_error("member " + std::to_string(j) + "'s report of iteration " + std::to_string(s) +
                             " has not reached member " + std::to_string(i) + " after iteration " + std::to_string(it));
  k.common = &row;
  k.common_iteration = s;
}

policy::MemberView view_of(const RunSetup& s, const RingMembers& ms, std::size_t i, int it) {
  policy::MemberView v;
  v.ring = &ms.known.facts;
  v.me = i;
  v.iteration = it;
  const MemberState& m = ms.states[i];
  v.own = own_report(s, m, it);
  v.iteration_time = m.iter_span;
  v.ring_time = m.ring_time;
  v.loads = &ms.known.loads;
  v.last_move = ms.known.last_move;
  const MemberKnowledge& k = m.knowledge;
  v.newest = &k.newest;
  v.common_iteration = k.common_iteration;
  v.common = k.common != nullptr ? k.common : &no_common;
  return v;
}

// Every member must have answered alike: a policy decides on what all of them know.
void check_agreement(const std::string& scheme, const RingMembers& ms, int it) {
  for (std::size_t i = 1; i < ms.states.size(); ++i)
    if (ms.states[i].act != ms.states[0].act)
      throw std::logic_error("policy '" + scheme + "' answered differently at members 0 and " +
                             std::to_string(i) + " after iteration " + std::to_string(it) +
                             ": a decision must rest on what every member knows");
}

}  // namespace ringsim::sim
