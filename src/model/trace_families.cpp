#include "model/trace_families.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include <boost/math/special_functions/gamma.hpp>

#include "model/errors.hpp"
#include "model/tiers_generator.hpp"

namespace ringsim {

void check_multiplier(double m, const std::string& what) {
  if (!(m >= kLeastMultiplier && m <= kGreatestMultiplier))
    throw InputError(what + " must be in [1e-06, 1e+06] (a speed multiplier SimGrid can resolve)");
}

void validate(const RandomWalkSpec& spec, const std::string& where) {
  if (!(std::isfinite(spec.step) && spec.step > 0.0))
    throw InputError(where + ": random-walk 'step' must be > 0");
  if (!(std::isfinite(spec.low) && std::isfinite(spec.high) && spec.low > 0.0 && spec.low <= spec.high))
    throw InputError(where + ": random-walk bounds must satisfy 0 < low <= high");
  check_multiplier(spec.low, where + ": random-walk 'low'");
  check_multiplier(spec.high, where + ": random-walk 'high'");
  if (spec.every < 1) throw InputError(where + ": random-walk 'every' must be >= 1");
}

const char* to_string(OnOffDurations d) {
  switch (d) {
    case OnOffDurations::pareto: return "pareto";
    case OnOffDurations::weibull: return "weibull";
    case OnOffDurations::hyperexponential: return "hyperexponential";
    case OnOffDurations::geometric: break;
  }
  return "geometric";
}

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

static double weibull_scale(double mean, double shape) { return mean / std::tgamma(1.0 + 1.0 / shape); }

double weibull_duration(double mean, double shape, double u) {
  return weibull_scale(mean, shape) * std::pow(-std::log1p(-u), 1.0 / shape);  // inverse of F
}

double weibull_residual(double mean, double shape, double u) {
  // F_e(x) = P(1 / shape, (x / scale)^shape): with y = (x / scale)^shape, the equilibrium density
  // exp(-y) / mean dx integrates to gamma(1 / shape, y) scale / (shape mean) = P(1 / shape, y).
  if (u <= 0.0) return 0.0;
  return weibull_scale(mean, shape) * std::pow(boost::math::gamma_p_inv(1.0 / shape, u), 1.0 / shape);
}

// The probability of phase 1, from cv^2 + 1 = 1 / (2 p (1 - p)) for balanced means.
static double hyperexponential_first_phase(double cv) {
  const double c2 = cv * cv;
  return 0.5 * (1.0 + std::sqrt((c2 - 1.0) / (c2 + 1.0)));
}

// One uniform draws the phase (u below `first_weight`: phase 1) and, rescaled to [0, 1) within it,
// the exponential of that phase's mean (mean / (2 p) or mean / (2 (1 - p))). A whole period picks
// phase 1 with probability p, an equilibrium remainder with probability 1/2.
static double hyperexponential_draw(double mean, double cv, double first_weight, double u) {
  const double p = hyperexponential_first_phase(cv);
  const bool first = u < first_weight;
  const double v = first ? u / first_weight : (u - first_weight) / (1.0 - first_weight);
  return -(mean / (2.0 * (first ? p : 1.0 - p))) * std::log1p(-std::min(v, 1.0 - 1e-16));
}

double hyperexponential_duration(double mean, double cv, double u) {
  return hyperexponential_draw(mean, cv, hyperexponential_first_phase(cv), u);
}

double hyperexponential_residual(double mean, double cv, double u) { return hyperexponential_draw(mean, cv, 0.5, u); }

void validate(const OnOffSpec& spec, const std::string& where) {
  if (!(std::isfinite(spec.available) && spec.available >= 1.0 && std::isfinite(spec.loaded) && spec.loaded >= 1.0))
    throw InputError(where + ": on-off 'available' and 'loaded' must be >= 1 (mean durations in iterations)");
  if (!(std::isfinite(spec.load_factor) && spec.load_factor > 0.0))
    throw InputError(where + ": on-off 'load_factor' must be > 0");
  check_multiplier(spec.load_factor, where + ": on-off 'load_factor'");
  if (spec.durations == OnOffDurations::pareto && !(std::isfinite(spec.shape) && spec.shape > 1.0))
    throw InputError(where + ": on-off 'shape' must be > 1 (Pareto durations with a finite mean)");
  // The scale is mean / Gamma(1 + 1 / shape), and Gamma overflows a double for shapes below about
  // 0.0059: 0.01 is the least shape taken.
  if (spec.durations == OnOffDurations::weibull && !(std::isfinite(spec.shape) && spec.shape >= 0.01))
    throw InputError(where + ": on-off 'shape' must be >= 0.01 (Weibull durations)");
  if (spec.durations == OnOffDurations::hyperexponential && !(std::isfinite(spec.cv) && spec.cv >= 1.0))
    throw InputError(where + ": on-off 'cv' must be >= 1 (hyperexponential durations; 1 is exponential)");
  // The phases' probability is computed from cv^2, which must stay well inside a double.
  if (spec.durations == OnOffDurations::hyperexponential && spec.cv > 1000.0)
    throw InputError(where + ": on-off 'cv' must be at most 1000 (hyperexponential durations)");
}

void validate(const DailySpec& spec, const std::string& where) {
  if (!(std::isfinite(spec.period) && spec.period >= 2.0))
    throw InputError(where + ": daily 'period' must be >= 2 (iterations per day; a shorter one aliases)");
  if (!(std::isfinite(spec.low) && std::isfinite(spec.high) && spec.low > 0.0 && spec.low <= spec.high))
    throw InputError(where + ": daily bounds must satisfy 0 < low <= high");
  check_multiplier(spec.low, where + ": daily 'low'");
  check_multiplier(spec.high, where + ": daily 'high'");
  // The cosine's argument 2 pi (k + phase) / period loses every digit beyond 2^53; past 1e9 the
  // cycle is no longer a cycle.
  if (spec.period > 1e9) throw InputError(where + ": daily 'period' must be at most 1e9 (iterations per day)");
  if (!(std::isfinite(spec.noise) && spec.noise >= 0.0))
    throw InputError(where + ": daily 'noise' must be >= 0 (the noise's standard deviation)");
  if (!(std::isfinite(spec.correlation) && spec.correlation >= 0.0 && spec.correlation < 1.0))
    throw InputError(where + ": daily 'correlation' must be in [0, 1)");
  if (!spec.random_phase && !(std::isfinite(spec.phase) && std::abs(spec.phase) <= 1e9))
    throw InputError(where + ": daily 'phase' must be \"random\" or a number of iterations in [-1e9, 1e9]");
  if (spec.every < 1) throw InputError(where + ": daily 'every' must be >= 1");
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

// One host's on/off trace in continuous time (OnOffSpec, durations pareto, weibull or
// hyperexponential): an alternating renewal process started in equilibrium.
HostTrace renewal_on_off(const std::string& name, double peak, const OnOffSpec& spec, int iterations,
                         std::mt19937_64& rng) {
  // A whole period of the given mean, or (`remainder`) the part of one left at an equilibrium start.
  auto draw = [&](double mean, bool remainder) {
    const double u = uniform_unit(rng);
    switch (spec.durations) {
      case OnOffDurations::weibull:
        return remainder ? weibull_residual(mean, spec.shape, u) : weibull_duration(mean, spec.shape, u);
      case OnOffDurations::hyperexponential:
        return remainder ? hyperexponential_residual(mean, spec.cv, u) : hyperexponential_duration(mean, spec.cv, u);
      default:
        return remainder ? pareto_residual(mean, spec.shape, u) : pareto_duration(mean, spec.shape, u);
    }
  };
  HostTrace t{name, peak, {}};
  const double p_loaded = spec.loaded / (spec.available + spec.loaded);
  bool loaded = uniform_unit(rng) < p_loaded;
  if (loaded) t.changes.push_back({0, spec.load_factor});
  // The current period ends at `end` (continuous, in iterations); iteration k takes the state at k.
  double end = draw(loaded ? spec.loaded : spec.available, true);
  bool recorded = loaded;
  for (int it = 1; it <= iterations; ++it) {
    while (end <= it) {  // compared as doubles: a period of any length, however long, is never cast
      loaded = !loaded;
      end += draw(loaded ? spec.loaded : spec.available, false);
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
  if (spec.durations != OnOffDurations::geometric) {
    std::vector<HostTrace> traces;
    traces.reserve(hosts.size());
    for (const auto& [name, peak] : hosts) traces.push_back(renewal_on_off(name, peak, spec, iterations, rng));
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

namespace {
constexpr double kPi = 3.14159265358979323846;  // the library builds as C++17 (no std::numbers)
}  // namespace

double daily_cycle(const DailySpec& spec, double phase, double k) {
  const double mid = 0.5 * (spec.low + spec.high);
  const double amp = 0.5 * (spec.high - spec.low);
  return mid + amp * std::cos(2.0 * kPi * (k + phase) / spec.period);
}

namespace {

// A standard normal deviate by Box-Muller from two uniforms, so that the traces are the same with
// every standard library (std::normal_distribution's algorithm is not specified).
double standard_normal(std::mt19937_64& rng) {
  const double u1 = 1.0 - uniform_unit(rng);  // in (0, 1]
  const double u2 = uniform_unit(rng);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * kPi * u2);
}

}  // namespace

std::vector<HostTrace> daily_traces(const std::vector<std::pair<std::string, double>>& hosts, const DailySpec& spec,
                                    int iterations) {
  validate(spec, "traces");
  std::mt19937_64 rng(spec.seed);
  const double innovation = std::sqrt(1.0 - spec.correlation * spec.correlation);
  std::vector<HostTrace> traces;
  traces.reserve(hosts.size());
  for (const auto& [name, peak] : hosts) {
    HostTrace t{name, peak, {}};
    const double phase = spec.random_phase ? uniform_unit(rng) * spec.period : spec.phase;
    double e = spec.noise * standard_normal(rng);
    double m = 1.0;
    for (int it = 0; it <= iterations; it += spec.every) {
      if (it > 0) e = spec.correlation * e + innovation * spec.noise * standard_normal(rng);
      const double next = std::clamp(daily_cycle(spec, phase, it) + e, spec.low, spec.high);
      if (next != m) t.changes.push_back({it, next});
      m = next;
    }
    traces.push_back(std::move(t));
  }
  return traces;
}

}  // namespace ringsim
