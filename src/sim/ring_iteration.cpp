// The iteration (HiPC 2004, Section 7): each member computes its columns, then exchanges one
// border column with each neighbour; the member actor (RingMember) runs its iterations and stops at
// the redistribution points and rebuilds.
#include "sim/ring_iteration.hpp"
#include "sim/member_reports.hpp"
#include "sim/redistribution_point.hpp"
#include "sim/kpbs_moves.hpp"

#include <algorithm>

#include <xbt/log.h>

#include "sim/app_phases.hpp"

XBT_LOG_EXTERNAL_CATEGORY(ringsim_app);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(ringsim_app_iteration, ringsim_app, "ringsim: each iteration (compute, border exchange)");


namespace ringsim::sim {

// One iteration of member i: compute, then exchange border columns with both neighbours; a
// piggybacking policy's reports ride on them (member_reports.cpp), each adding report_bytes.
static void iterate(RingRun& r, std::size_t i, int it) {
  MemberState& m = r.members[i];
  const double start = sg4::Engine::get_clock();
  enter_phase(r.hosts[i], Phase::compute);
  execute_in_iteration(r, i, static_cast<double>(m.columns.size()) * r.flops_per_column, it);
  m.last_compute = sg4::Engine::get_clock() - start;
  m.iter_start = start;
  if (m.computed_from) {  // when traces are written after the run
    std::vector<double>& from = *m.computed_from;
    if (from.size() <= static_cast<std::size_t>(it)) from.resize(static_cast<std::size_t>(it) + 1, -1.0);
    from[static_cast<std::size_t>(it)] = start;
  }
  BorderNote* from_pred = nullptr;
  BorderNote* from_succ = nullptr;
  if (r.n > 1) {
    enter_phase(r.hosts[i], Phase::border);
    post_report(r, i, it);
    BorderNote* next_note = note_for(r, i, it, true);
    BorderNote* prev_note = note_for(r, i, it, false);
    auto bytes = [&r](const BorderNote* note) {
      return static_cast<uint64_t>(r.app.column_bytes + static_cast<double>(note->reports.size()) * r.app.report_bytes);
    };
    std::vector<sg4::CommPtr> comms;
    comms.reserve(4);  // one allocation per iteration, not three
    comms.push_back(mailbox(r, "b", i, "p")->get_async<BorderNote>(&from_pred));
    comms.push_back(mailbox(r, "b", i, "s")->get_async<BorderNote>(&from_succ));
    auto to_succ = mailbox(r, "b", succ(r, i), "p")->put_init(next_note, bytes(next_note));
    auto to_pred = mailbox(r, "b", pred(r, i), "s")->put_init(prev_note, bytes(prev_note));
    if (!r.rate_next.empty()) {  // the ring planner's bandwidth fractions (SharedRing model)
      to_succ->set_rate(r.rate_next[i]);
      to_pred->set_rate(r.rate_prev[i]);
    }
    comms.push_back(to_succ->start());
    comms.push_back(to_pred->start());
    sg4::Comm::wait_all(comms);
  }
  enter_phase(r.hosts[i], Phase::wait);
  learn(r, i, it, from_pred, from_succ);
  const double end = sg4::Engine::get_clock();
  m.iter_end = end;
  m.iter_span = end - start;
  XBT_VERB("iteration %d: member %zu computed %zu columns in %g s, then exchanged borders in %g s", it, i,
           m.columns.size(), m.last_compute, end - start - m.last_compute);
}

// Member 0, once every member has ended iteration `it`: the iteration ran from the first member's
// start to the last member's end.
static void record_iteration(RingRun& r, int it) {
  IterationRecord rec;
  rec.iteration = it;
  const MemberState& first = r.members.front();
  rec.start = first.iter_start;
  rec.end = first.iter_end;
  // The member whose own computation took longest (the first such): its neighbours' spans include
  // waiting for it.
  std::size_t slowest = 0;
  rec.loads.reserve(r.members.size());  // not grown one by one: once per iteration, on every run
  for (std::size_t j = 0; j < r.members.size(); ++j) {
    const MemberState& m = r.members[j];
    rec.start = std::min(rec.start, m.iter_start);
    rec.end = std::max(rec.end, m.iter_end);
    if (m.last_compute > r.members[slowest].last_compute) slowest = j;
    rec.loads.push_back(static_cast<long>(m.columns.size()));
  }
  rec.slowest = r.hosts[slowest]->get_name();
  XBT_VERB("iteration %d: %g s, slowest member %s", it, rec.end - rec.start, rec.slowest.c_str());
  r.out.iterations.push_back(std::move(rec));
}

// A member's iterations; after each, its policy answers from what this member knows, and all
// answers must agree (checked by member 0 once every member has answered).
void RingMember::play() {
  RingRun& r = *ring_;
  const std::size_t i = member_;
  await_columns(r, i);
  double together = -1.0;  // when the members last left a barrier together (not yet: -1)
  for (int it = first_iteration_; it <= r.app.iterations; ++it) {
    iterate(r, i, it);
    MemberState& me = r.members[i];
    me.act = me.policy->after_iteration(view_of(r, i, it));
    r.sync.barrier->wait();
    const double now = sg4::Engine::get_clock();
    me.ring_time = together >= 0.0 ? now - together : 0.0;
    together = now;
    if (i == 0) {
      record_iteration(r, it);
      check_agreement(r, it);
    }
    if (r.app.rebuilds.count(it)) {
      rebuild_point(r, i, it);
      return;  // the rebuilt ring's members carry on (this member's state went with its ring)
    }
    if (me.act != policy::Act::carry_on && it < r.app.iterations) {
      redistribution_point(r, i, it, me.act);
      together = sg4::Engine::get_clock();  // a point ends at a barrier too
    }
  }
  enter_phase(r.hosts[i], Phase::done);
}

}  // namespace ringsim::sim
