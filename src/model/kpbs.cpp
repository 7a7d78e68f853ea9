#include "model/kpbs.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "model/errors.hpp"

namespace ringsim {

void validate(const KpbsInstance& inst) {
  if (inst.times.empty()) throw InputError("the matrix has no rows (no sender)");
  const std::size_t cols = inst.times.front().size();
  if (cols == 0) throw InputError("the matrix has no columns (no receiver)");
  double total = 0.0;
  std::size_t transfers = 0;
  for (std::size_t i = 0; i < inst.times.size(); ++i) {
    if (inst.times[i].size() != cols)
      throw InputError("matrix row " + std::to_string(i) + " has " + std::to_string(inst.times[i].size()) +
                       " entries, row 0 has " + std::to_string(cols));
    for (std::size_t j = 0; j < cols; ++j) {
      const double t = inst.times[i][j];
      const std::string where = "matrix[" + std::to_string(i) + "][" + std::to_string(j) + "]";
      if (!std::isfinite(t)) throw InputError(where + " is not a finite number");
      if (t < 0) throw InputError(where + " is negative");
      total += t;
      transfers += t > 0;
    }
  }
  if (!std::isfinite(total)) throw InputError("the matrix total is too large to compute with");
  if (inst.k < 1) throw InputError("k must be at least 1");
  if (!std::isfinite(inst.beta) || inst.beta < 0) throw InputError("beta must be a finite number >= 0");
  // Every schedule time is at most the total plus beta per transfer: keep it finite.
  if (!std::isfinite(total + inst.beta * static_cast<double>(transfers)))
    throw InputError("beta and the matrix are too large to add up");
  for (double c : {inst.sender_capacity, inst.receiver_capacity})
    if (!std::isfinite(c) || c <= 0) throw InputError("link capacities must be finite and positive");
  if (!std::isfinite(inst.backbone_capacity)) throw InputError("the backbone capacity must be finite");
}

namespace {

bool close(double a, double b, double scale, double tol) { return std::abs(a - b) <= tol * std::max(1.0, scale); }

std::string pair_name(std::size_t i, std::size_t j) {
  return "(" + std::to_string(i) + "," + std::to_string(j) + ")";
}

// Shared part of both checks; `kpbs` adds the k, one-port and duration rules.
KpbsCheck check(const KpbsInstance& inst, const KpbsSchedule& s, double tol, bool kpbs) {
  const std::size_t n1 = inst.senders(), n2 = inst.receivers();
  std::vector<std::vector<double>> sent(n1, std::vector<double>(n2, 0.0));
  std::vector<std::size_t> sender_seen(n1, 0), receiver_seen(n2, 0);  // step index + 1
  double total = 0.0;
  for (std::size_t t = 0; t < s.steps.size(); ++t) {
    const KpbsStep& step = s.steps[t];
    const std::string at = "step " + std::to_string(t) + ": ";
    if (step.comms.empty()) return {false, at + "no communication"};
    if (kpbs && step.comms.size() > inst.k)
      return {false, at + std::to_string(step.comms.size()) + " communications, more than k = " + std::to_string(inst.k)};
    double longest = 0.0;
    for (const KpbsComm& c : step.comms) {
      if (c.from >= n1 || c.to >= n2) return {false, at + "communication " + pair_name(c.from, c.to) + " out of range"};
      if (!(c.amount > 0) || !std::isfinite(c.amount))
        return {false, at + "amount of " + pair_name(c.from, c.to) + " is not positive and finite"};
      if (inst.times[c.from][c.to] <= 0) return {false, at + pair_name(c.from, c.to) + " has no data to send"};
      if (kpbs) {
        if (sender_seen[c.from] == t + 1) return {false, at + "sender " + std::to_string(c.from) + " sends twice"};
        if (receiver_seen[c.to] == t + 1) return {false, at + "receiver " + std::to_string(c.to) + " receives twice"};
        sender_seen[c.from] = receiver_seen[c.to] = t + 1;
      }
      sent[c.from][c.to] += c.amount;
      longest = std::max(longest, c.amount);
    }
    const double expected = inst.beta + longest;
    if (kpbs ? !close(step.duration, expected, expected, tol) : step.duration < expected - tol * std::max(1.0, expected)) {
      std::ostringstream msg;
      msg.precision(17);
      msg << at << "duration " << step.duration << (kpbs ? " differs from" : " is below") << " beta + longest = " << expected;
      return {false, msg.str()};
    }
    total += step.duration;
  }
  for (std::size_t i = 0; i < n1; ++i)
    for (std::size_t j = 0; j < n2; ++j)
      if (!close(sent[i][j], inst.times[i][j], inst.times[i][j], tol)) {
        std::ostringstream msg;
        msg.precision(17);
        msg << pair_name(i, j) << " receives " << sent[i][j] << " in total instead of " << inst.times[i][j];
        return {false, msg.str()};
      }
  if (!close(s.time, total, total, tol)) {
    std::ostringstream msg;
    msg.precision(17);
    msg << "time " << s.time << " differs from the sum of the durations " << total;
    return {false, msg.str()};
  }
  return {};
}

}  // namespace

KpbsCheck check_kpbs_schedule(const KpbsInstance& inst, const KpbsSchedule& schedule, double tolerance) {
  return check(inst, schedule, tolerance, true);
}

KpbsCheck check_kpbs_conservation(const KpbsInstance& inst, const KpbsSchedule& schedule, double tolerance) {
  return check(inst, schedule, tolerance, false);
}

}  // namespace ringsim
