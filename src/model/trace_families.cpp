#include "model/trace_families.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include "model/errors.hpp"
#include "model/tiers_generator.hpp"

namespace ringsim {

void validate(const RandomWalkSpec& spec, const std::string& where) {
  if (!(std::isfinite(spec.step) && spec.step > 0.0))
    throw InputError(where + ": random-walk 'step' must be > 0");
  if (!(std::isfinite(spec.low) && std::isfinite(spec.high) && spec.low > 0.0 && spec.low <= spec.high))
    throw InputError(where + ": random-walk bounds must satisfy 0 < low <= high");
  if (spec.every < 1) throw InputError(where + ": random-walk 'every' must be >= 1");
}

void validate(const OnOffSpec& spec, const std::string& where) {
  if (!(std::isfinite(spec.available) && spec.available >= 1.0 && std::isfinite(spec.loaded) && spec.loaded >= 1.0))
    throw InputError(where + ": on-off 'available' and 'loaded' must be >= 1 (mean durations in iterations)");
  if (!(std::isfinite(spec.load_factor) && spec.load_factor > 0.0))
    throw InputError(where + ": on-off 'load_factor' must be > 0");
}

std::vector<HostTrace> random_walk_traces(const std::vector<std::pair<std::string, double>>& hosts,
                                          const RandomWalkSpec& spec, int iterations) {
  validate(spec, "traces");
  std::mt19937_64 rng(spec.seed);
  std::vector<HostTrace> traces;
  traces.reserve(hosts.size());
  for (const auto& [name, peak] : hosts) {
    HostTrace t{name, peak, {}};
    double m = std::clamp(1.0, spec.low, spec.high);
    if (m != 1.0) t.changes.push_back({0, m});
    for (int it = spec.every; it <= iterations; it += spec.every) {
      const bool up = uniform_below(rng, 2) == 1;
      const double next = std::clamp(up ? m * (1.0 + spec.step) : m / (1.0 + spec.step), spec.low, spec.high);
      if (next != m) t.changes.push_back({it, next});
      m = next;
    }
    traces.push_back(std::move(t));
  }
  return traces;
}

std::vector<HostTrace> on_off_traces(const std::vector<std::pair<std::string, double>>& hosts, const OnOffSpec& spec,
                                     int iterations) {
  validate(spec, "traces");
  std::mt19937_64 rng(spec.seed);
  const double p_loaded = spec.loaded / (spec.available + spec.loaded);
  std::vector<HostTrace> traces;
  traces.reserve(hosts.size());
  for (const auto& [name, peak] : hosts) {
    HostTrace t{name, peak, {}};
    bool loaded = uniform_unit(rng) < p_loaded;
    if (loaded) t.changes.push_back({0, spec.load_factor});
    for (int it = 1; it <= iterations; ++it) {
      const double leave = 1.0 / (loaded ? spec.loaded : spec.available);
      if (uniform_unit(rng) < leave) {
        loaded = !loaded;
        t.changes.push_back({it, loaded ? spec.load_factor : 1.0});
      }
    }
    traces.push_back(std::move(t));
  }
  return traces;
}

}  // namespace ringsim
