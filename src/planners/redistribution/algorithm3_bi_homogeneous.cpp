// Algorithm 3 (HiPC 2004, Section 5): homogeneous bidirectional ring, unit steps of length c,
// store-and-forward (an item received during step s can leave from step s+1 on). Each step
// recomputes delta_max (line 1) on the current imbalances and applies lines 3-30; Theorem 3
// claims delta_max then drops by one per step, which makes the run last exactly Lemma 3's bound.
//
// Checking the printed rules against exact solvers (docs/design.md, tests/test_bi_homogeneous.cpp)
// shows they need repairs; each can be switched off (Options) to measure it:
//  1. lines 25-30 must be applied until nothing changes (one pass in index order leaves
//     forwarding chains open and delta_max stays at 1);
//  2. the free choices of lines 21 and 24 ("send to P_(i+1)", "receive from P_(i-1)") may name a
//     neighbour that holds nothing, that already sends elsewhere, or that already receives: take
//     the other neighbour then;
//  3. lines 4-18 may ask a processor holding nothing to send (an end of a slice of imbalance
//     2 delta_max - 1, which can spare one outlet for one step): it rests;
//  4. the rules read imbalances only, never holdings, so a feasible step can still drain a
//     processor that is needed later: every step is checked with a one-step lookahead (the
//     certificate below) and, when it fails, other combinations of the free choices are tried;
//  5. when no combination passes, the step is replaced by the first step of a schedule proven to
//     finish in time (the certified schedule below), which keeps the run on the Lemma 3 bound.
// Which repairs fired is reported in plan.notes.
//
// Per step the rules need, for every processor, whether it is the left or right end of a slice
// whose imbalance passes a threshold. With cyclic prefix sums F of the current delta (F[n-1] = 0)
// the slice C_{k,l} has imbalance F[l] - F[k-1], and the non-trivial slices are exactly the
// ordered pairs of distinct indices (l, k-1); so "P_k starts a slice with imbalance >= t" is
// max_{j != k-1} F[j] - F[k-1] >= t, answered in O(1) from the two largest values of F (and the
// two smallest for the other cases). A step costs O(n) (a step that fails the lookahead tries at
// most 256 variants of its free choices), a run O(n * delta_max).
//
// Certified schedule (the constructive proof that Lemma 3 is tight, behind repairs 4 and 5).
// Let D >= Lemma 3's bound. Net edge flows are g_i = F_i + x (items crossing P_i -> P_(i+1),
// negative: the other way) for an integer circulation x; since max F - min F <= 2D, every x in
// [-D - min F, D - max F] gives |g_i| <= D. A processor sending both ways has g_(i-1) < 0 < g_i and
// sends g_i - g_(i-1) = delta_i <= D items; one receiving from both sides receives -delta_i <= D;
// every other processor sends and receives on one side only, at most |g| <= D items each way.
// Schedule rightward items as soon as possible (P_i sends during steps 1..g_i) and leftward items
// as late as possible (P_i sends during steps D+g_(i-1)+1..D), "RA". A two-way sender uses disjoint
// windows because its total is <= D, same for a two-way receiver. Holdings: a processor sending
// both ways (or sending without receiving) receives nothing and holds target_i + delta_i, more than
// it sends; a rightward forwarder
// holds h_i + min(s-1, g_(i-1)) - (s-1) at step s <= g_i, which is h_i when s-1 <= g_(i-1) and
// otherwise >= h_i - delta_i + 1 = target_i + 1; a leftward (late) forwarder holds, at step s,
// target_i + (its sends still to come) - (its receipts still to come) >= target_i >= 1 whenever it
// sends. So RA is feasible iff every P_i with g_i > 0 holds an item now: initially true (loads >= 1)
// for every x, which proves Lemma 3 tight. The mirror "LA" (leftward early, rightward late) needs
// h_i >= 1 wherever g_(i-1) < 0. The conditions are monotone in x, so only x = -D - min F (RA) and
// x = D - max F (LA) need testing: O(n). After the first step of an RA (LA) schedule, the rest is
// an RA (LA) schedule of length D - 1 for the new state, so a certified state stays certified.
// The certificate is sufficient, not necessary (it tries two patterns of one family): on about 1
// in 3000 seeded rings of 10-300 processors it rejected a state that the exact time-expanded solver
// can finish, so repair 5 replaced a step the rules would have survived; the time is the same.
#include "planners/redistribution/algorithm3_bi_homogeneous.hpp"
#include "planners/redistribution/block_budget.hpp"

#include <algorithm>
#include <deque>
#include <limits>
#include <stdexcept>

#include "model/errors.hpp"
#include "planners/redistribution/redistribution_algorithms.hpp"
#include "planners/redistribution/ring_math.hpp"

namespace ringsim::redistribution::algorithm3 {
namespace {

struct Ring {
  std::size_t n;
  std::size_t next(std::size_t i) const { return i + 1 == n ? 0 : i + 1; }
  std::size_t prev(std::size_t i) const { return i == 0 ? n - 1 : i - 1; }
};

// held_i = target_i + delta_i: the rules read delta, availability reads held.
struct State {
  std::vector<Count> held;
  std::vector<Count> delta;
  std::vector<Count> F;
};

State make_state(const std::vector<Count>& held, const std::vector<Count>& targets) {
  State st;
  st.held = held;
  st.delta.resize(held.size());
  for (std::size_t i = 0; i < held.size(); ++i) st.delta[i] = held[i] - targets[i];
  st.F = prefix_imbalances(st.delta);
  return st;
}

// Line 1: delta_max = max(max |delta_i|, max ceil(|delta_{k,l}| / 2)) = Lemma 3 in steps.
Count lemma3_steps(const State& st) { return redistribution::lemma3_steps(st.delta, st.F); }

// The two largest and two smallest prefix sums: max/min of F over all indices but one, in O(1).
struct Extremes {
  Count max1 = std::numeric_limits<Count>::min(), max2 = std::numeric_limits<Count>::min();
  Count min1 = std::numeric_limits<Count>::max(), min2 = std::numeric_limits<Count>::max();
  std::size_t argmax = 0, argmin = 0;

  explicit Extremes(const std::vector<Count>& F) {
    for (std::size_t i = 0; i < F.size(); ++i) {
      if (F[i] > max1) { max2 = max1; max1 = F[i]; argmax = i; }
      else if (F[i] > max2) { max2 = F[i]; }
      if (F[i] < min1) { min2 = min1; min1 = F[i]; argmin = i; }
      else if (F[i] < min2) { min2 = F[i]; }
    }
  }
  Count max_except(std::size_t j) const { return j == argmax ? max2 : max1; }
  Count min_except(std::size_t j) const { return j == argmin ? min2 : min1; }
};

StepSends empty_step(std::size_t n) { return {std::vector<char>(n, 0), std::vector<char>(n, 0)}; }

struct RuleCounters {
  Count availability = 0, one_port = 0;
  bool fixpoint_fired = false;
  Count rested = 0;
  std::size_t free_choices = 0;  // lines 21 and 24 decisions taken in this step
};

bool sends_in_step(const StepSends& s, std::size_t i) { return s.next[i] || s.prev[i]; }
bool receives_in_step(const Ring& ring, const StepSends& s, std::size_t i) {
  return s.next[ring.prev(i)] || s.prev[ring.next(i)];
}

// Lines 3-18: the ends of the slices whose imbalance reaches delta_max's threshold send.
void apply_slice_rules(const Ring& ring, const State& st, Count dmax, StepSends& s) {
  const std::size_t n = ring.n;
  const auto& F = st.F;
  const Extremes ex(F);
  // Slice C_{k,l} has imbalance F[l] - F[k-1] over pairs l != k-1 (see the header comment).
  auto pos_left = [&](std::size_t k, Count t) { const auto j = ring.prev(k); return ex.max_except(j) - F[j] >= t; };
  auto pos_right = [&](std::size_t l, Count t) { return F[l] - ex.min_except(l) >= t; };
  auto neg_left = [&](std::size_t k, Count t) { const auto j = ring.prev(k); return ex.min_except(j) - F[j] <= -t; };
  auto neg_right = [&](std::size_t l, Count t) { return F[l] - ex.max_except(l) <= -t; };

  if (dmax != 2) {
    // Lines 4-9: delta_{k,l} > 1 and ceil(|delta_{k,l}|/2) = dmax, i.e. |delta_{k,l}| >= max(2, 2 dmax - 1)
    // (no slice exceeds 2 dmax by line 1).
    const Count t = std::max<Count>(2, 2 * dmax - 1);
    for (std::size_t i = 0; i < n; ++i) {
      if (pos_left(i, t)) s.prev[i] = 1;              // line 5
      if (pos_right(i, t)) s.next[i] = 1;             // line 6
      if (neg_left(i, t)) s.next[ring.prev(i)] = 1;   // line 8
      if (neg_right(i, t)) s.prev[ring.next(i)] = 1;  // line 9
    }
  } else {
    for (std::size_t i = 0; i < n; ++i) {
      if (pos_right(i, 3)) s.next[i] = 1;             // lines 11-12
      if (pos_left(i, 4)) s.prev[i] = 1;              // lines 13-14 (no slice exceeds 4)
      if (neg_left(i, 3)) s.next[ring.prev(i)] = 1;   // lines 15-16
      if (neg_right(i, 4)) s.prev[ring.next(i)] = 1;  // lines 17-18
    }
  }
}

// Repair 3: lines 4-18 ignore holdings. A slice of imbalance +-(2 delta_max - 1) can spare one
// of its two ports for one step, so a processor holding nothing that a rule names for it rests
// (the lookahead then judges the step). At +-2 delta_max no port can rest, but every schedule
// then uses both ports at every step, so in a certified (hence feasible) state both hold items.
void rest_senders_holding_nothing(const Ring& ring, const State& st, RuleCounters& cnt, StepSends& s) {
  for (std::size_t i = 0; i < ring.n; ++i) {
    if (st.held[i] >= 1 || !sends_in_step(s, i)) continue;
    s.next[i] = s.prev[i] = 0;
    ++cnt.rested;
  }
}

// Lines 19-24: a processor at +delta_max that sends nothing yet sends to one neighbour, one at
// -delta_max that receives nothing yet receives from one; cnt.free_choices counts these choices.
// `flips` (repair 4's search) inverts the k-th free choice of the step.
void apply_free_choices(const Ring& ring, const State& st, Count dmax, const Options& opt, RuleCounters& cnt,
                        const std::vector<char>* flips, StepSends& s) {
  const std::size_t n = ring.n;
  auto sending = [&](std::size_t i) { return sends_in_step(s, i); };
  auto receiving = [&](std::size_t i) { return receives_in_step(ring, s, i); };
  std::size_t choice = 0;
  auto flipped = [&]() { return flips != nullptr && choice < flips->size() && (*flips)[choice] != 0; };
  // Lines 19-21, in index order. Repair 2: if P_(i+1) already receives, line 21 would break its
  // receive port while P_(i-1) may be free; the paper's intuition (3) leaves the direction free.
  for (std::size_t i = 0; i < n; ++i) {
    if (st.delta[i] != dmax || sending(i)) continue;
    bool left = opt.aware_free_choices && receiving(ring.next(i)) && !receiving(ring.prev(i));
    if (left) ++cnt.one_port;
    if (flipped()) left = !left;
    ++choice;
    (left ? s.prev : s.next)[i] = 1;
  }
  // Lines 22-24. Repair 2: P_(i-1) may hold nothing (docs/design.md's example drains a 2-item P_3 in two
  // steps) or already send to P_(i-2); then take the item from P_(i+1) if it can give one.
  for (std::size_t i = 0; i < n; ++i) {
    if (st.delta[i] != -dmax || receiving(i)) continue;
    const std::size_t left = ring.prev(i), right = ring.next(i);
    auto can_give = [&](std::size_t j) { return !sending(j) && st.held[j] >= 1; };
    bool from_right = opt.aware_free_choices && !can_give(left) && can_give(right);
    if (from_right) {
      if (st.held[left] < 1) ++cnt.availability; else ++cnt.one_port;
    }
    if (flipped()) from_right = !from_right;
    ++choice;
    if (from_right) s.prev[right] = 1; else s.next[left] = 1;
  }
  cnt.free_choices = choice;
}

// Lines 25-30 (delta_max = 1): a processor at zero imbalance passes on, in the same direction, an
// item it receives.
void apply_forwarding(const Ring& ring, const State& st, const Options& opt, RuleCounters& cnt, StepSends& s) {
  const std::size_t n = ring.n;
  // As printed: one pass in index order.
  auto forward = [&](std::size_t i) {
    bool changed = false;
    if (st.delta[i] != 0) return changed;
    if (s.next[ring.prev(i)] && !s.next[i]) { s.next[i] = 1; changed = true; }
    if (s.prev[ring.next(i)] && !s.prev[i]) { s.prev[i] = 1; changed = true; }
    return changed;
  };
  for (std::size_t i = 0; i < n; ++i) forward(i);
  if (!opt.iterate_forwarding) return;
  // Repair 1: a chain of zero-imbalance processors must pass an item all the way in the same
  // step (delta_max = 1 is the last step), whatever the index order; a worklist reaches the
  // fixpoint in O(n).
  std::deque<std::size_t> work;
  for (std::size_t i = 0; i < n; ++i) work.push_back(i);
  while (!work.empty()) {
    const std::size_t i = work.front();
    work.pop_front();
    if (forward(i)) {
      cnt.fixpoint_fired = true;
      work.push_back(ring.next(i));
      work.push_back(ring.prev(i));
    }
  }
}

// Lines 3-30 for one step; `dmax` is line 1's value on the current state.
StepSends rule_step(const Ring& ring, const State& st, Count dmax, const Options& opt, RuleCounters& cnt,
                    const std::vector<char>* flips = nullptr) {
  StepSends s = empty_step(ring.n);
  apply_slice_rules(ring, st, dmax, s);
  if (opt.rest_empty_senders) rest_senders_holding_nothing(ring, st, cnt, s);
  apply_free_choices(ring, st, dmax, opt, cnt, flips, s);
  if (dmax == 1) apply_forwarding(ring, st, opt, cnt, s);
  return s;
}

// The paper's convention: however many rules ask P_i to send to P_j, one item goes. On a ring of
// two, "to P_(i+1)" and "to P_(i-1)" are the same processor.
void merge_duplicate_sends(const Ring& ring, StepSends& s) {
  if (ring.n != 2) return;
  for (std::size_t i = 0; i < 2; ++i)
    if (s.next[i] && s.prev[i]) s.prev[i] = 0;
}

struct StepCheck {
  Failure failure = Failure::none;
  std::string message;
};

// One-port (Section 2) on both sides, and senders must hold an item at the start of the step.
StepCheck check_step(const Ring& ring, const State& st, const StepSends& s) {
  for (std::size_t i = 0; i < ring.n; ++i) {
    if (s.next[i] && s.prev[i])
      return {Failure::send_one_port, "P" + std::to_string(i) + " is asked to send to both neighbours"};
    if (ring.n > 2 && s.next[ring.prev(i)] && s.prev[ring.next(i)])
      return {Failure::receive_one_port, "P" + std::to_string(i) + " is asked to receive from both neighbours"};
    if ((s.next[i] || s.prev[i]) && st.held[i] < 1)
      return {Failure::availability, "P" + std::to_string(i) + " is asked to send an item it does not hold"};
  }
  return {};
}

std::vector<Count> apply_step(const Ring& ring, const State& st, const StepSends& s) {
  std::vector<Count> held = st.held;
  for (std::size_t i = 0; i < ring.n; ++i) {
    if (s.next[i]) { --held[i]; ++held[ring.next(i)]; }
    if (s.prev[i]) { --held[i]; ++held[ring.prev(i)]; }
  }
  return held;
}

struct Certificate {
  bool ok = false;
  bool right_early = true;  // RA (rightward as soon as possible) or LA
  Count x = 0;
};

// See "Certified schedule" in the header comment: a schedule of `horizon` steps exists if one of
// the two extreme circulations passes the holdings test of its early direction.
Certificate certify(const Ring& ring, const State& st, Count horizon) {
  if (lemma3_steps(st) > horizon) return {};
  const Count lo = *std::min_element(st.F.begin(), st.F.end());
  const Count hi = *std::max_element(st.F.begin(), st.F.end());
  const Count x_ra = -horizon - lo;
  bool ra = true;
  for (std::size_t i = 0; i < ring.n && ra; ++i)
    if (st.F[i] + x_ra > 0 && st.held[i] < 1) ra = false;
  if (ra) return {true, true, x_ra};
  const Count x_la = horizon - hi;
  for (std::size_t i = 0; i < ring.n; ++i)
    if (st.F[ring.prev(i)] + x_la < 0 && st.held[i] < 1) return {};
  return {true, false, x_la};
}

// First step of the certified schedule: the early direction sends on every edge that still
// carries flow, the late direction only on edges whose remaining flow equals the horizon.
StepSends certified_step(const Ring& ring, const State& st, const Certificate& cert, Count horizon) {
  StepSends s = empty_step(ring.n);
  for (std::size_t i = 0; i < ring.n; ++i) {
    const Count right = st.F[i] + cert.x;             // edge P_i -> P_(i+1)
    const Count left = st.F[ring.prev(i)] + cert.x;   // edge P_(i-1) -> P_i, negative: P_i sends left
    if (cert.right_early) {
      s.next[i] = right > 0;
      s.prev[i] = left == -horizon;
    } else {
      s.prev[i] = left < 0;
      s.next[i] = right == horizon;
    }
  }
  return s;
}

void require_applicable(const RingInstance& inst) {
  validate(inst);
  if (!inst.bidirectional)
    throw std::invalid_argument("bi-homogeneous (Algorithm 3) needs a bidirectional ring");
  if (!inst.homogeneous())
    throw std::invalid_argument("bi-homogeneous (Algorithm 3) needs equal costs on every link in both directions");
}

std::string step_label(Count step) { return "step " + std::to_string(step) + ": "; }

}  // namespace

const char* to_string(Failure f) {
  switch (f) {
    case Failure::none: return "none";
    case Failure::send_one_port: return "send one-port";
    case Failure::receive_one_port: return "receive one-port";
    case Failure::availability: return "availability";
    case Failure::no_progress: return "no progress";
  }
  return "?";
}

namespace {

struct Evaluation {
  StepCheck check;
  State after;
  bool certified = false;  // the state after the step has a certified schedule of horizon - 1 steps
  bool accepted() const { return check.failure == Failure::none && certified; }
};

Evaluation evaluate(const Ring& ring, const RingInstance& inst, const State& st, StepSends& s, Count horizon,
                    bool need_certificate) {
  merge_duplicate_sends(ring, s);
  Evaluation ev;
  ev.check = check_step(ring, st, s);
  if (ev.check.failure != Failure::none) return ev;
  ev.after = make_state(apply_step(ring, st, s), inst.targets);
  const Count left = lemma3_steps(ev.after);
  if (left > horizon - 1) {
    ev.check = {Failure::no_progress,
                "delta_max is " + std::to_string(left) + " after the step, expected " + std::to_string(horizon - 1)};
    return ev;
  }
  ev.certified = !need_certificate || certify(ring, ev.after, horizon - 1).ok;
  return ev;
}

// Flip masks over `k` free choices, fewest flips first, at most `limit` of them (mask 0 excluded).
std::vector<std::vector<char>> flip_masks(std::size_t k, std::size_t limit) {
  std::vector<std::vector<char>> masks;
  std::vector<char> mask(k, 0);
  // Subsets of size r in lexicographic order, r = 1, 2, ...
  for (std::size_t r = 1; r <= k && masks.size() < limit; ++r) {
    std::vector<std::size_t> idx(r);
    for (std::size_t j = 0; j < r; ++j) idx[j] = j;
    while (masks.size() < limit) {
      std::fill(mask.begin(), mask.end(), 0);
      for (std::size_t j : idx) mask[j] = 1;
      masks.push_back(mask);
      std::size_t j = r;
      while (j > 0 && idx[j - 1] == k - r + j - 1) --j;
      if (j == 0) break;
      ++idx[j - 1];
      for (std::size_t m = j; m < r; ++m) idx[m] = idx[m - 1] + 1;
    }
  }
  return masks;
}

constexpr std::size_t kMaxFlipMasks = 256;

// The rules take Lemma 3's steps one at a time, each over every processor: the time grows with the
// items, not with the ring. 2^28 processor-steps are a few seconds; the early-late schedule meets
// the same bound in O(n).
constexpr Count kMaxProcessorSteps = Count{1} << 28;

void check_step_work(Count steps, std::size_t n) {
  if (steps <= kMaxProcessorSteps / static_cast<Count>(n)) return;
  throw InputError("bi-homogeneous (Algorithm 3) would take Lemma 3's " + std::to_string(steps) +
                   " unit steps one at a time over " + std::to_string(n) + " processors, more than 2^28 "
                   "processor-steps, the most ringsim plays: bi-homogeneous-early-late meets the same bound in O(n)");
}

}  // namespace

Run run_rules(const RingInstance& inst, const Options& opt, StepBlocks* blocks) {
  require_applicable(inst);
  const Ring ring{inst.size()};
  const bool need_certificate = opt.lookahead_search || opt.certified_fallback;
  State st = make_state(inst.loads, inst.targets);
  Run run;
  run.bound_steps = lemma3_steps(st);
  check_step_work(run.bound_steps, ring.n);
  for (Count step = 1; step <= run.bound_steps; ++step) {
    const Count horizon = run.bound_steps - step + 1;  // steps left, this one included
    const Count dmax = lemma3_steps(st);                 // line 1
    RuleCounters cnt;
    StepSends s = rule_step(ring, st, dmax, opt, cnt);
    Evaluation ev = evaluate(ring, inst, st, s, horizon, need_certificate);
    const Evaluation rules_ev = ev;
    if (!ev.accepted() && opt.lookahead_search) {
      // Repair 4: lines 21 and 24 fix one direction "to simplify the algorithm" (Section 5,
      // intuition 3), but any direction is allowed. Try other combinations of these free choices,
      // fewest changes first, and keep the first whose step is feasible and whose next state is
      // certified: a one-step lookahead that sees holdings, which the rules never read.
      for (const auto& mask : flip_masks(cnt.free_choices, kMaxFlipMasks)) {
        RuleCounters flipped_cnt;
        StepSends t = rule_step(ring, st, dmax, opt, flipped_cnt, &mask);
        Evaluation tev = evaluate(ring, inst, st, t, horizon, need_certificate);
        if (tev.accepted()) {
          s = std::move(t);
          ev = std::move(tev);
          cnt = flipped_cnt;
          ++run.lookahead_steps;
          break;
        }
      }
    }
    if (ev.accepted()) {
      run.free_choice_availability += cnt.availability;
      run.free_choice_one_port += cnt.one_port;
      run.empty_senders_rested += cnt.rested;
      if (cnt.fixpoint_fired) ++run.forwarding_fixpoint_steps;
    } else if (opt.certified_fallback) {
      // Repair 5: no variant of the rules' step is feasible with a certified next state. The
      // current state is certified (invariant), so the certified schedule's first step keeps the
      // run on the Lemma 3 bound.
      const Certificate cert = certify(ring, st, horizon);
      if (!cert.ok) throw std::logic_error("bi-homogeneous: lost the certified-state invariant at " + step_label(step));
      run.fallback_reasons.push_back(step_label(step) + (rules_ev.check.failure == Failure::none
                                                             ? std::string("the rules' step leaves an uncertified state")
                                                             : rules_ev.check.message));
      ++run.fallback_steps;
      s = certified_step(ring, st, cert, horizon);
      ev.after = make_state(apply_step(ring, st, s), inst.targets);
    } else if (ev.check.failure != Failure::none) {
      run.failure = ev.check.failure;
      run.failed_step = step;
      run.message = step_label(step) + ev.check.message;
      return run;
    }
    // Without repair 5 an uncertified (but feasible, progressing) step is kept: later steps tell.
    if (blocks) blocks->add(s);
    else run.steps.push_back(std::move(s));
    st = std::move(ev.after);
  }
  run.ok = std::all_of(st.delta.begin(), st.delta.end(), [](Count d) { return d == 0; });
  if (!run.ok) {
    run.failure = Failure::no_progress;
    run.failed_step = run.bound_steps;
    run.message = "imbalances left after the last step";
  }
  return run;
}

Run run_certified_construction(const RingInstance& inst) {
  require_applicable(inst);
  const Ring ring{inst.size()};
  State st = make_state(inst.loads, inst.targets);
  Run run;
  run.bound_steps = lemma3_steps(st);
  for (Count horizon = run.bound_steps; horizon > 0; --horizon) {
    const Certificate cert = certify(ring, st, horizon);
    if (!cert.ok) {
      run.failure = Failure::no_progress;
      run.failed_step = run.bound_steps - horizon + 1;
      run.message = step_label(run.failed_step) + "state not certified";
      return run;
    }
    StepSends s = certified_step(ring, st, cert, horizon);
    const StepCheck check = check_step(ring, st, s);
    if (check.failure != Failure::none) {
      run.failure = check.failure;
      run.failed_step = run.bound_steps - horizon + 1;
      run.message = step_label(run.failed_step) + check.message;
      return run;
    }
    st = make_state(apply_step(ring, st, s), inst.targets);
    run.steps.push_back(std::move(s));
  }
  run.ok = std::all_of(st.delta.begin(), st.delta.end(), [](Count d) { return d == 0; });
  return run;
}

StepBlocks::StepBlocks(const RingInstance& inst, double c)
    : inst_(inst), c_(c), open_{std::vector<Count>(inst.size(), kClosed), std::vector<Count>(inst.size(), kClosed)} {
  plan_.send_next.assign(inst.size(), 0);
  plan_.send_prev.assign(inst.size(), 0);
}

void StepBlocks::close(std::size_t i, Direction dir) {
  Count& from = open_[dir == Direction::next ? 0 : 1][i];
  const Count items = steps_ - from;
  plan_.transfers.push_back({i, neighbour(inst_, i, dir), dir, items, static_cast<double>(from) * c_,
                             static_cast<double>(steps_) * c_});
  (dir == Direction::next ? plan_.send_next : plan_.send_prev)[i] += items;
  from = kClosed;
}

void StepBlocks::add(const StepSends& step) {
  for (std::size_t i = 0; i < inst_.size(); ++i) {
    for (Direction dir : {Direction::next, Direction::prev}) {
      const bool sends = (dir == Direction::next ? step.next : step.prev)[i] != 0;
      const bool open = open_[dir == Direction::next ? 0 : 1][i] != kClosed;
      if (sends && !open) {
        BlockBudget::check(++opened_);
        open_[dir == Direction::next ? 0 : 1][i] = steps_;
      } else if (!sends && open) {
        close(i, dir);
      }
    }
  }
  ++steps_;
}

RedistributionPlan StepBlocks::finish() {
  for (std::size_t i = 0; i < inst_.size(); ++i)
    for (Direction dir : {Direction::next, Direction::prev})
      if (open_[dir == Direction::next ? 0 : 1][i] != kClosed) close(i, dir);
  plan_.time = static_cast<double>(steps_) * c_;
  std::sort(plan_.transfers.begin(), plan_.transfers.end(), [](const Transfer& a, const Transfer& b) {
    return a.start != b.start ? a.start < b.start : a.from != b.from ? a.from < b.from : a.dir < b.dir;
  });
  return std::move(plan_);
}

RedistributionPlan plan_from_steps(const RingInstance& inst, const std::vector<StepSends>& steps, double c) {
  StepBlocks blocks(inst, c);
  for (const auto& s : steps) blocks.add(s);
  return blocks.finish();
}

}  // namespace ringsim::redistribution::algorithm3

namespace ringsim::redistribution {

RedistributionPlan plan_algorithm3(const RingInstance& inst) {
  algorithm3::StepBlocks blocks(inst, inst.cost_next.front());
  const algorithm3::Run run = algorithm3::run_rules(inst, algorithm3::Options{}, &blocks);
  if (!run.ok) throw std::logic_error("bi-homogeneous: " + run.message);  // repair 5 makes this unreachable
  RedistributionPlan plan = blocks.finish();
  plan.planner = "bi-homogeneous";
  plan.notes.push_back("Algorithm 3 (HiPC 2004, Section 5) step by step, " + std::to_string(run.bound_steps) +
                       " steps = Lemma 3 bound");
  if (run.forwarding_fixpoint_steps > 0)
    plan.notes.push_back("repair: forwarding rule (lines 25-30) iterated to a fixpoint");
  if (run.free_choice_availability > 0)
    plan.notes.push_back("repair: free choice (line 24) changed for availability, " +
                         std::to_string(run.free_choice_availability) + " time(s)");
  if (run.free_choice_one_port > 0)
    plan.notes.push_back("repair: free choice (lines 21/24) changed for one-port, " +
                         std::to_string(run.free_choice_one_port) + " time(s)");
  if (run.empty_senders_rested > 0)
    plan.notes.push_back("repair: processor holding nothing rested instead of a send of lines 4-18, " +
                         std::to_string(run.empty_senders_rested) + " time(s)");
  if (run.lookahead_steps > 0)
    plan.notes.push_back("repair: free choices (lines 21/24) changed by the one-step lookahead in " +
                         std::to_string(run.lookahead_steps) + " step(s)");
  for (const auto& why : run.fallback_reasons)
    plan.notes.push_back("repair: certified step replaced the rules' step (" + why + ")");
  return plan;
}

}  // namespace ringsim::redistribution
