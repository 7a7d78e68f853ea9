#include "model/run_memory.hpp"

#include <algorithm>
#include <cstdio>

#include "model/errors.hpp"

namespace ringsim {

namespace {

constexpr double kBytesPerColumn = 10;
constexpr double kBytesPerIteration = 112;
constexpr double kBytesPerIterationAndMember = 8;
constexpr double kBytesPerStagingNodePair = 32;

// The most members the run can have: the ring's size and every rebuilt ring's. A ring the planner
// chooses is counted at its candidates (or the config's size): the platform decides the rest.
double most_members(const RunConfig& cfg) {
  double n = cfg.ring.selection == RingSelection::hosts ? static_cast<double>(cfg.ring.hosts.size())
                                                   : static_cast<double>(cfg.ring.size);
  if (cfg.ring.selection == RingSelection::planner && cfg.ring.candidates > 0)
    n = static_cast<double>(cfg.ring.candidates);
  for (const auto& rb : cfg.rebuild)
    n = std::max(n, rb.hosts.empty() ? static_cast<double>(rb.size) : static_cast<double>(rb.hosts.size()));
  return std::max(n, 1.0);
}

}  // namespace

double MemoryEstimate::total() const {
  double sum = 0;
  for (const auto& t : terms) sum += t.bytes;
  return sum;
}

MemoryEstimate estimate_run_memory(const RunConfig& cfg) {
  MemoryEstimate e;
  e.terms.push_back({"'columns' " + std::to_string(cfg.columns), kBytesPerColumn * cfg.columns});
  e.terms.push_back({"'iterations' " + std::to_string(cfg.iterations),
                     (kBytesPerIteration + kBytesPerIterationAndMember * most_members(cfg)) * cfg.iterations});
  if (cfg.staging.enabled) {
    const double nodes = static_cast<double>(cfg.staging.cluster.nodes);
    e.terms.push_back({"'staging' 'nodes' " + std::to_string(cfg.staging.cluster.nodes),
                       kBytesPerStagingNodePair * nodes * nodes});
  }
  std::stable_sort(e.terms.begin(), e.terms.end(),
                   [](const MemoryTerm& a, const MemoryTerm& b) { return a.bytes > b.bytes; });
  return e;
}

std::string format_bytes(double bytes) {
  const char* unit = "bytes";
  double v = bytes;
  for (const char* u : {"kB", "MB", "GB", "TB", "PB", "EB"}) {
    if (v < 999.5) break;  // what rounds to 1000 in three digits is written in the next unit
    v /= 1000;
    unit = u;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g %s", v, unit);
  return buf;
}

void check_run_memory(const RunConfig& cfg, double budget_bytes, const std::string& where) {
  const MemoryEstimate e = estimate_run_memory(cfg);
  if (e.total() <= budget_bytes) return;
  throw InputError(where + ": the run would hold about " + format_bytes(e.total()) + " (" + e.terms.front().size +
                   ": " + format_bytes(e.terms.front().bytes) + "), more than the " + format_bytes(budget_bytes) +
                   " allowed; --max-memory GB raises the limit");
}

}  // namespace ringsim
