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

RingMember::RingMember(const RunSetup& setup, const RingShape& ring, std::size_t member, int first_iteration,
                       RingHistory& rings, RingMembers& members, RingSync& sync, Decision& decision,
                       ColumnMoves& moves, RunOutputs& out)
    : setup_(setup), ring_(ring), rings_(rings), members_(members), sync_(sync), decision_(decision), moves_(moves),
      out_(out), member_(member), first_iteration_(first_iteration),
      computed_from_(out.record_computed_from ? &out.computed_from[ring.hosts[member]] : nullptr) {}

sg4::Mailbox* RingMember::border_box(sg4::Mailbox*& kept, std::size_t member, const char* side) {
  if (!kept) kept = sync_.mailboxes.get("b", member, side);
  return kept;
}

// One iteration: compute, then exchange border columns with both neighbours; a piggybacking
// policy's reports ride on them (member_reports.cpp), each adding report_bytes.
void RingMember::iterate(int it) {
  const std::size_t i = member_;
  MemberState& m = members_.states[i];
  const double start = sg4::Engine::get_clock();
  enter_phase(ring_.hosts[i], Phase::compute);
  execute_in_iteration(setup_, ring_, i, static_cast<double>(m.columns.size()) * setup_.flops_per_column, it);
  m.last_compute = sg4::Engine::get_clock() - start;
  m.iter_start = start;
  if (computed_from_) {  // when traces are written after the run
    std::vector<double>& from = *computed_from_;
    if (from.size() <= static_cast<std::size_t>(it)) from.resize(static_cast<std::size_t>(it) + 1, -1.0);
    from[static_cast<std::size_t>(it)] = start;
  }
  BorderNote* from_pred = nullptr;
  BorderNote* from_succ = nullptr;
  if (ring_.n > 1) {
    enter_phase(ring_.hosts[i], Phase::border);
    post_report(setup_, members_, i, it);
    BorderNote* next_note = note_for(members_.known, relay_, ring_.n, i, it, true);
    BorderNote* prev_note = note_for(members_.known, relay_, ring_.n, i, it, false);
    const AppSettings& app = setup_.app;
    auto bytes = [&app](const BorderNote* note) {
      return static_cast<uint64_t>(app.column_bytes + static_cast<double>(note->reports.size()) * app.report_bytes);
    };
    std::vector<sg4::CommPtr> comms;
    comms.reserve(4);  // one allocation per iteration, not three
    comms.push_back(border_box(from_pred_, i, "p")->get_async<BorderNote>(&from_pred));
    comms.push_back(border_box(from_succ_, i, "s")->get_async<BorderNote>(&from_succ));
    auto to_succ = border_box(to_succ_, ring_.succ(i), "p")->put_init(next_note, bytes(next_note));
    auto to_pred = border_box(to_pred_, ring_.pred(i), "s")->put_init(prev_note, bytes(prev_note));
    if (!ring_.rate_next.empty()) {  // the ring planner's bandwidth fractions (SharedRing model)
      to_succ->set_rate(ring_.rate_next[i]);
      to_pred->set_rate(ring_.rate_prev[i]);
    }
    comms.push_back(to_succ->start());
    comms.push_back(to_pred->start());
    sg4::Comm::wait_all(comms);
  }
  enter_phase(ring_.hosts[i], Phase::wait);
  learn(members_, relay_, i, it, from_pred, from_succ);
  const double end = sg4::Engine::get_clock();
  m.iter_end = end;
  m.iter_span = end - start;
  XBT_VERB("iteration %d: member %zu computed %zu columns in %g s, then exchanged borders in %g s", it, i,
           m.columns.size(), m.last_compute, end - start - m.last_compute);
}

// The iteration ran from the first member's start to the last member's end: member 0 reads every
// member's times, once all are at the barrier.
void RingMember::record_iteration(int it) {
  const std::vector<MemberState>& members = members_.states;
  IterationRecord rec;
  rec.iteration = it;
  const MemberState& first = members.front();
  rec.start = first.iter_start;
  rec.end = first.iter_end;
  // The member whose own computation took longest (the first such): its neighbours' spans include
  // waiting for it.
  std::size_t slowest = 0;
  rec.loads.reserve(members.size());  // not grown one by one: once per iteration, on every run
  for (std::size_t j = 0; j < members.size(); ++j) {
    const MemberState& m = members[j];
    rec.start = std::min(rec.start, m.iter_start);
    rec.end = std::max(rec.end, m.iter_end);
    if (m.last_compute > members[slowest].last_compute) slowest = j;
    rec.loads.push_back(static_cast<long>(m.columns.size()));
  }
  rec.slowest = ring_.hosts[slowest]->get_name();
  XBT_VERB("iteration %d: %g s, slowest member %s", it, rec.end - rec.start, rec.slowest.c_str());
  out_.iterations.push_back(std::move(rec));
}

void RingMember::start_next_ring(const RingShape& next, int it) {
  const Rebuild& rb = setup_.app.rebuilds.at(it);
  for (std::size_t j = 0; j < next.n; ++j)
    sg4::Actor::create("member-" + std::to_string(j) + "-r" + std::to_string(rb.index + 1), next.hosts[j],
                       RingMember(setup_, next, j, it + 1, rings_, members_, sync_, decision_, moves_, out_));
}

// The member's iterations; after each, its policy answers from what this member knows, and all
// answers must agree (checked by member 0 once every member has answered).
void RingMember::play() {
  const std::size_t i = member_;
  await_columns(moves_, members_.states[i], sync_);
  double together = -1.0;  // when the members last left a barrier together (not yet: -1)
  for (int it = first_iteration_; it <= setup_.app.iterations; ++it) {
    iterate(it);
    MemberState& me = members_.states[i];
    me.act = me.policy->after_iteration(view_of(setup_, members_, i, it));
    sync_.barrier->wait();
    const double now = sg4::Engine::get_clock();
    me.ring_time = together >= 0.0 ? now - together : 0.0;
    together = now;
    if (i == 0) {
      record_iteration(it);
      check_agreement(setup_.app.scheme, members_, it);
    }
    if (setup_.app.rebuilds.count(it)) {
      rebuild_point(setup_, ring_, rings_, members_, sync_, moves_, out_, i, it,
                    [this](const RingShape& next, int after) { start_next_ring(next, after); });
      return;  // the rebuilt ring's members carry on (this member's state went with its ring)
    }
    if (me.act != policy::Act::carry_on && it < setup_.app.iterations) {
      redistribution_point(setup_, ring_, members_, sync_, decision_, out_, i, it, me.act);
      together = sg4::Engine::get_clock();  // a point ends at a barrier too
    }
  }
  enter_phase(ring_.hosts[i], Phase::done);
}

}  // namespace ringsim::sim
