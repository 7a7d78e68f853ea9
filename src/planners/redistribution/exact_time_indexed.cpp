// Exact optimum of a ring redistribution (any ring: the heterogeneous bidirectional case is the
// one the HiPC 2004 paper leaves open, Section 6) by a time-indexed integer program.
//
// Why integer time slots are enough: express every cost as an integer number of units u. Take any
// optimal schedule and shift each item transfer, in order of start time, as early as the one-port
// model and availability allow. Each shifted start is then 0 or the end of another transfer (the
// sender's or receiver's previous transfer, or the arrival of the item being forwarded), so by
// induction on the start order every start is an integer multiple of u, and the makespan did not
// grow. Hence the optimum is the least horizon T (in units) for which the program below is
// feasible, and it is searched from the System 2 lower bound up to the heuristic's makespan.
#include "planners/glpk_problem.hpp"
#include "planners/redistribution/exact_time_indexed.hpp"

#include <glpk.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "planners/redistribution/bounds.hpp"
#include "planners/redistribution/redistribution_algorithms.hpp"

namespace ringsim::redistribution {
namespace {

struct UnitCosts {
  double unit = 0.0;
  std::vector<std::int64_t> next, prev;  // costs in units (prev empty on a unidirectional ring)
};

// c = p / q with the least denominator q <= 1000, when there is one.
bool as_fraction(double c, std::int64_t& p, std::int64_t& q) {
  for (q = 1; q <= 1000; ++q) {
    const double scaled = c * static_cast<double>(q);
    if (scaled > 1e15) return false;
    const double r = std::round(scaled);
    if (r >= 1.0 && std::abs(scaled - r) <= 1e-9 * std::max(1.0, scaled)) {
      p = static_cast<std::int64_t>(r);
      return true;
    }
  }
  return false;
}

std::optional<UnitCosts> unit_costs(const RingInstance& inst) {
  std::vector<double> costs(inst.cost_next.begin(), inst.cost_next.end());
  costs.insert(costs.end(), inst.cost_prev.begin(), inst.cost_prev.end());
  std::vector<std::int64_t> num(costs.size()), den(costs.size());
  std::int64_t lcm = 1;
  for (std::size_t k = 0; k < costs.size(); ++k) {
    if (!as_fraction(costs[k], num[k], den[k])) return std::nullopt;
    lcm = std::lcm(lcm, den[k]);
    if (lcm > 1000000) return std::nullopt;
  }
  std::int64_t g = 0;
  std::vector<std::int64_t> scaled(costs.size());
  for (std::size_t k = 0; k < costs.size(); ++k) {
    if (num[k] > std::numeric_limits<std::int64_t>::max() / (lcm / den[k])) return std::nullopt;
    scaled[k] = num[k] * (lcm / den[k]);
    g = std::gcd(g, scaled[k]);
  }
  UnitCosts u;
  u.unit = static_cast<double>(g) / static_cast<double>(lcm);
  const std::size_t n = inst.size();
  for (std::size_t k = 0; k < costs.size(); ++k) (k < n ? u.next : u.prev).push_back(scaled[k] / g);
  return u;
}

// Binary start variables: y(i, d, s) for the starts s = 0 .. T - k(i, d) that end by T.
std::size_t binaries_for(const UnitCosts& u, std::int64_t T) {
  std::size_t v = 0;
  for (const auto* side : {&u.next, &u.prev})
    for (std::int64_t k : *side) v += static_cast<std::size_t>(std::max<std::int64_t>(0, T - k + 1));
  return v;
}

struct StartVar {
  std::size_t from;
  Direction dir;
  std::int64_t slot;
  std::int64_t length;
};

enum class Outcome { feasible, infeasible };
using Clock = std::chrono::steady_clock;

class TimeIndexedModel {
 public:
  TimeIndexedModel(const RingInstance& inst, const UnitCosts& u, std::int64_t T) : inst_(inst), u_(u), T_(T) {}

  Outcome solve(std::vector<StartVar>& starts, Clock::time_point deadline) {
    build();
    glp_iocp parm;
    glp_init_iocp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.presolve = GLP_ON;
    // Most horizons tried are feasible (the System 2 bound is usually tight) and finding one
    // schedule is the slow part: the feasibility pump and most-fractional branching find them
    // faster than GLPK's defaults on the hardest random instances (bench/NOTES.md, "Measurements behind the code's choices").
    parm.fp_heur = GLP_ON;
    parm.br_tech = GLP_BR_MFV;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    parm.tm_lim = static_cast<int>(std::max<long long>(1, left));
    const int rc = glp_intopt(lp_.get(), &parm);
    if (rc == GLP_ENOPFS) return Outcome::infeasible;  // presolve: the LP relaxation is infeasible
    const int status = glp_mip_status(lp_.get());
    if (status == GLP_OPT || status == GLP_FEAS) {
      starts.clear();
      for (std::size_t v = 0; v < vars_.size(); ++v)
        if (glp_mip_col_val(lp_.get(), static_cast<int>(v) + 1) > 0.5) starts.push_back(vars_[v]);
      return Outcome::feasible;
    }
    if (rc == 0 && status == GLP_NOFEAS) return Outcome::infeasible;
    if (rc == GLP_ETMLIM) {
      std::ostringstream os;
      os << "exact: no answer within the time limit of " << exact_time_limit_seconds << " s (horizon " << T_
         << " time units); the instance is too hard for the exact solver";
      throw std::invalid_argument(os.str());
    }
    std::ostringstream os;
    os << "exact: GLPK's branch-and-cut cannot solve the time-indexed program of this instance (return code " << rc
       << ", status " << status << ")";
    throw std::invalid_argument(os.str());
  }

 private:
  void build() {
    const std::size_t n = inst_.size();
    const auto slots = static_cast<std::size_t>(T_);
    glp_term_out(GLP_OFF);
    lp_.reset(glp_create_prob());
    glp_set_obj_dir(lp_.get(), GLP_MIN);  // pure feasibility: the first integer solution ends the search

    for (std::size_t i = 0; i < n; ++i)
      for (Direction d : {Direction::next, Direction::prev}) {
        if (d == Direction::prev && !inst_.bidirectional) continue;
        const std::int64_t k = (d == Direction::next ? u_.next : u_.prev)[i];
        for (std::int64_t s = 0; s + k <= T_; ++s) vars_.push_back({i, d, s, k});
      }
    const int nb = static_cast<int>(vars_.size());
    // Holdings h(j, t) after the arrivals ending at t and the departures starting at t,
    // t = 0 .. T: continuous (integrality follows from the binaries), >= 0 for availability.
    const int hcols = static_cast<int>(n * (slots + 1));
    if (nb + hcols > 0) glp_add_cols(lp_.get(), nb + hcols);
    for (int c = 1; c <= nb; ++c) glp_set_col_kind(lp_.get(), c, GLP_BV);
    auto hcol = [&](std::size_t j, std::size_t t) { return nb + 1 + static_cast<int>(j * (slots + 1) + t); };
    for (std::size_t j = 0; j < n; ++j) {
      for (std::size_t t = 0; t < slots; ++t) glp_set_col_bnds(lp_.get(), hcol(j, t), GLP_LO, 0.0, 0.0);
      const auto target = static_cast<double>(inst_.targets[j]);
      glp_set_col_bnds(lp_.get(), hcol(j, slots), GLP_FX, target, target);  // final holdings = targets
    }

    // Rows: send port busy (j, t), receive port busy (j, t), holdings balance (j, t).
    const int send_row0 = 1, recv_row0 = send_row0 + static_cast<int>(n * slots),
              bal_row0 = recv_row0 + static_cast<int>(n * slots);
    const int rows = bal_row0 - 1 + static_cast<int>(n * (slots + 1));
    glp_add_rows(lp_.get(), rows);
    auto send_row = [&](std::size_t j, std::size_t t) { return send_row0 + static_cast<int>(j * slots + t); };
    auto recv_row = [&](std::size_t j, std::size_t t) { return recv_row0 + static_cast<int>(j * slots + t); };
    auto bal_row = [&](std::size_t j, std::size_t t) { return bal_row0 + static_cast<int>(j * (slots + 1) + t); };
    for (int r = send_row0; r < bal_row0; ++r) glp_set_row_bnds(lp_.get(), r, GLP_UP, 0.0, 1.0);

    std::vector<int> ia{0}, ja{0};
    std::vector<double> ar{0.0};
    auto put = [&](int row, int col, double v) { ia.push_back(row), ja.push_back(col), ar.push_back(v); };
    for (int v = 0; v < nb; ++v) {
      const StartVar& y = vars_[static_cast<std::size_t>(v)];
      const std::size_t to = neighbour(inst_, y.from, y.dir);
      // One-port (HiPC 2004, Section 2): an item started at s occupies the sender's and the
      // receiver's port during slots s .. s+k-1; on a 2-ring both directions reach the same receiver.
      for (std::int64_t t = y.slot; t < y.slot + y.length; ++t) {
        put(send_row(y.from, static_cast<std::size_t>(t)), v + 1, 1.0);
        put(recv_row(to, static_cast<std::size_t>(t)), v + 1, 1.0);
      }
      // h(j, t) = h(j, t-1) + arrivals ending at t - departures starting at t.
      put(bal_row(y.from, static_cast<std::size_t>(y.slot)), v + 1, 1.0);
      put(bal_row(to, static_cast<std::size_t>(y.slot + y.length)), v + 1, -1.0);
    }
    for (std::size_t j = 0; j < n; ++j)
      for (std::size_t t = 0; t <= slots; ++t) {
        put(bal_row(j, t), hcol(j, t), 1.0);
        if (t > 0) put(bal_row(j, t), hcol(j, t - 1), -1.0);
        const double rhs = t == 0 ? static_cast<double>(inst_.loads[j]) : 0.0;
        glp_set_row_bnds(lp_.get(), bal_row(j, t), GLP_FX, rhs, rhs);
      }
    glp_load_matrix(lp_.get(), static_cast<int>(ia.size()) - 1, ia.data(), ja.data(), ar.data());
  }

  const RingInstance& inst_;
  const UnitCosts& u_;
  std::int64_t T_;
  planners::GlpkProblem lp_;
  std::vector<StartVar> vars_;
};

RedistributionPlan plan_from_starts(const RingInstance& inst, const UnitCosts& u, std::vector<StartVar> starts) {
  RedistributionPlan plan;
  plan.planner = "exact";
  const std::size_t n = inst.size();
  plan.send_next.assign(n, 0);
  plan.send_prev.assign(n, 0);
  std::sort(starts.begin(), starts.end(), [](const StartVar& a, const StartVar& b) {
    return std::tie(a.from, a.dir, a.slot) < std::tie(b.from, b.dir, b.slot);
  });
  for (std::size_t k = 0; k < starts.size();) {
    // Items leaving back to back (each starting when the previous one ends) form one block.
    std::size_t e = k + 1;
    while (e < starts.size() && starts[e].from == starts[k].from && starts[e].dir == starts[k].dir &&
           starts[e].slot == starts[e - 1].slot + starts[k].length)
      ++e;
    const StartVar& y = starts[k];
    Transfer t;
    t.from = y.from;
    t.dir = y.dir;
    t.to = neighbour(inst, y.from, y.dir);
    t.items = static_cast<Count>(e - k);
    t.start = static_cast<double>(y.slot) * u.unit;
    t.end = t.start + static_cast<double>(t.items) * item_cost(inst, y.from, y.dir);
    (y.dir == Direction::next ? plan.send_next : plan.send_prev)[y.from] += t.items;
    plan.transfers.push_back(t);
    k = e;
  }
  std::sort(plan.transfers.begin(), plan.transfers.end(),
            [](const Transfer& a, const Transfer& b) { return std::tie(a.start, a.from) < std::tie(b.start, b.from); });
  for (const auto& t : plan.transfers) plan.time = std::max(plan.time, t.end);
  if (!inst.bidirectional) plan.send_prev.clear();
  return plan;
}

}  // namespace

std::optional<double> commensurable_unit(const RingInstance& inst) {
  const auto u = unit_costs(inst);
  if (!u) return std::nullopt;
  return u->unit;
}

RedistributionPlan plan_exact(const RingInstance& inst) { return plan_exact(inst, ExactOptions{}); }

RedistributionPlan plan_exact(const RingInstance& inst, const ExactOptions& options) {
  const auto u = unit_costs(inst);
  if (!u)
    throw std::invalid_argument(
        "exact: costs are not commensurable (no common time unit with denominators up to 1000); "
        "the time-indexed program needs one");

  // An always-feasible schedule gives the upper end of the search (its times are integer
  // multiples of u: every start is 0 or the end of another item's transfer).
  RedistributionPlan upper = inst.bidirectional ? plan_general_heuristic(inst) : plan_algorithm2(inst);
  upper.planner = "exact";
  if (upper.time / u->unit > 1e9) {
    std::ostringstream os;
    os << "exact: instance too large: " << upper.time / u->unit << " time units of " << u->unit
       << " (limit " << exact_max_binaries << " binary variables)";
    throw std::invalid_argument(os.str());
  }
  const auto T_hi = static_cast<std::int64_t>(std::llround(upper.time / u->unit));
  const auto T_lo = std::min<std::int64_t>(
      T_hi, static_cast<std::int64_t>(std::ceil(instance_lower_bound(inst) / u->unit - 1e-6)));

  auto optimal_at = [&](std::int64_t T) {
    upper.optimal = true;
    std::ostringstream os;
    os << "time-indexed program: unit " << u->unit << ", optimum " << T << " units";
    upper.notes = {os.str()};
    return upper;
  };
  if (T_lo >= T_hi && !options.always_solve) return optimal_at(T_hi);  // the heuristic meets the lower bound

  const std::size_t largest = binaries_for(*u, options.always_solve ? T_hi : T_hi - 1);
  if (largest > exact_max_binaries) {
    std::ostringstream os;
    os << "exact: instance too large: proving the optimum needs horizons up to " << (options.always_solve ? T_hi : T_hi - 1) << " time units ("
       << largest << " binary variables; limit " << exact_max_binaries << ")";
    throw std::invalid_argument(os.str());
  }

  // Least feasible horizon in (T_lo - 1, T_hi]: T_hi is feasible (the heuristic's schedule). The
  // lower bound is usually tight, so it is tried first, then the rest is bisected.
  const auto deadline = Clock::now() + std::chrono::milliseconds(static_cast<long long>(exact_time_limit_seconds * 1000.0));
  std::vector<StartVar> starts, best_starts;
  bool improved = false, first = true;
  std::int64_t lo = T_lo, hi = T_hi;  // invariant: every horizon < lo is infeasible, hi is feasible
  while (lo < hi || (first && options.always_solve)) {
    const std::int64_t T = first ? lo : lo + (hi - lo) / 2;
    first = false;
    const bool feas = TimeIndexedModel(inst, *u, T).solve(starts, deadline) == Outcome::feasible;
    if (feas) {
      hi = T;
      best_starts = starts;
      improved = true;
    } else {
      lo = T + 1;
    }
  }
  if (lo > hi) throw std::logic_error("exact: the program rejects the horizon of a feasible schedule");
  if (!improved) return optimal_at(T_hi);
  RedistributionPlan plan = plan_from_starts(inst, *u, std::move(best_starts));
  plan.optimal = true;
  std::ostringstream os;
  os << "time-indexed program: unit " << u->unit << ", optimum " << hi << " units";
  plan.notes.push_back(os.str());
  return plan;
}

}  // namespace ringsim::redistribution
