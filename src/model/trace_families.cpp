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

const char* to_string(OnOffDurations d) { return d == OnOffDurations::pareto ? "pareto" : "geometric"; }

double pareto_duration(double mean, double shape, double u) {
  const double scale = mean * (shape - 1.0) / shape;
  return scale * std::pow(1.0 - u, -1.0 / shape);  // inverse of F(x) = 1 - (scale / x)^shape
}

double pareto_residual(double mean, double shape, double u) {
  // F_e(x) = x / mean below the scale, where it reaches (shape - 1) / shape; above it,
  // 1 - F_e(x) = (scale / x)^(shape - 1) / shape.
  const double scale = mean * (shape - 1.0) / shape;
  const double below = (shape - 1.0) / shape;
  if (u < below) return u * mean;
  return scale * std::pow(shape * (1.0 - u), -1.0 / (shape - 1.0));
}

void validate(const OnOffSpec& spec, const std::string& where) {
  if (!(std::isfinite(spec.available) && spec.available >= 1.0 && std::isfinite(spec.loaded) && spec.loaded >= 1.0))
    throw InputError(where + ": on-off 'available' and 'loaded' must be >= 1 (mean durations in iterations)");
  if (!(std::isfinite(spec.load_factor) && spec.load_factor > 0.0))
    throw InputError(where + ": on-off 'load_factor' must be > 0");
  if (spec.durations == OnOffDurations::pareto && !(std::isfinite(spec.shape) && spec.shape > 1.0))
    throw InputError(where + ": on-off 'shape' must be > 1 (Pareto durations with a finite mean)");
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

namespace {

// One host's heavy-tailed on/off trace (OnOffSpec, durations pareto).
HostTrace pareto_on_off(const std::string& name, double peak, const OnOffSpec& spec, int iterations,
                        std::mt19937_64& rng) {
  HostTrace t{name, peak, {}};
  const double p_loaded = spec.loaded / (spec.available + spec.loaded);
  bool loaded = uniform_unit(rng) < p_loaded;
  if (loaded) t.changes.push_back({0, spec.load_factor});
  // The current period ends at `end` (continuous, in iterations); iteration k takes the state at k.
  double end = pareto_residual(loaded ? spec.loaded : spec.available, spec.shape, uniform_unit(rng));
  bool recorded = loaded;
  for (int it = 1; it <= iterations; ++it) {
    while (end <= it) {  // compared as doubles: a period of any length, however long, is never cast
      loaded = !loaded;
      end += pareto_duration(loaded ? spec.loaded : spec.available, spec.shape, uniform_unit(rng));
    }
    if (loaded != recorded) {
      t.changes.push_back({it, loaded ? spec.load_factor : 1.0});
      recorded = loaded;
    }
  }
  return t;
}

}  // namespace

std::vector<HostTrace> on_off_traces(const std::vector<std::pair<std::string, double>>& hosts, const OnOffSpec& spec,
                                     int iterations) {
  validate(spec, "traces");
  std::mt19937_64 rng(spec.seed);
  if (spec.durations == OnOffDurations::pareto) {
    std::vector<HostTrace> traces;
    traces.reserve(hosts.size());
    for (const auto& [name, peak] : hosts) traces.push_back(pareto_on_off(name, peak, spec, iterations, rng));
    return traces;
  }
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
