// Seeded speed-trace families beyond the HiPC 2004 windows: a random walk of each host's
// speed multiplier, on/off background load (a two-state Markov chain per host, or heavy-tailed
// periods), and a daily cycle with noise. Pure and deterministic: the same spec, hosts
// and iteration count give the same traces.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/speed_traces.hpp"

namespace ringsim {

// Multiplicative random walk: every `every` iterations (at iterations every, 2 every, ... <=
// iterations) the multiplier is multiplied by (1 + step) or divided by (1 + step), each with
// probability 1/2, then clamped to [low, high]. It starts at 1 (peak speed) clamped to [low, high]
// (a change at iteration 0 when 1 lies outside). A change is recorded only when the value moves.
struct RandomWalkSpec {
  std::uint64_t seed = 1;
  double step = 0.1;
  double low = 0.5;
  double high = 1.5;
  int every = 1;
};

// On/off load: each host alternates available periods (multiplier 1) and loaded periods
// (multiplier load_factor). Each iteration, an available host becomes loaded with probability
// 1 / available and a loaded one becomes available with probability 1 / loaded, so that the periods
// last geometric numbers of iterations with means `available` and `loaded` (>= 1). The state at
// iteration 0 is drawn from the stationary distribution (loaded with probability
// loaded / (available + loaded)). Changes are recorded at the iterations where the state switches.
//
// Heavy-tailed durations (`durations` pareto): the periods are Pareto distributed with shape
// `shape` (> 1, so that the means are finite; desktop-grid availability studies measure shapes
// between about 1 and 2) and the same means, `available` and `loaded`: scale = mean (shape - 1) /
// shape. The process runs in continuous time counted in iterations, and iteration k takes the state
// at time k (periods shorter than an iteration may then pass unseen). It starts in equilibrium: the
// state loaded with probability loaded / (available + loaded), and the first period's remainder
// drawn from the equilibrium (residual life) distribution of its state's durations, so that no
// iteration is special. Changes are recorded at the iterations whose state differs from the last.
//
// Weibull durations (`durations` weibull): the same process with Weibull periods of shape `shape`
// (>= 0.01) and the given means: F(x) = 1 - exp(-(x / scale)^shape), scale = mean / Gamma(1 + 1 /
// shape). Availability studies fit machine availability with Weibull laws (Nurmi, Brevik and
// Wolski, Euro-Par 2005); a shape below 1 is a hazard that falls as a period lasts (a machine idle
// for long tends to stay idle), many short periods and a few long ones. The first period's
// remainder follows the equilibrium density (1 - F(x)) / mean, whose distribution function is the
// regularized incomplete gamma function P(1 / shape, (x / scale)^shape).
//
// Hyperexponential durations (`durations` hyperexponential): each period is exponential with one
// of two means, drawn anew for each period, so that its coefficient of variation is `cv` (>= 1;
// 1 is exponential). Machine availability was fitted best by hyperexponentials, then by Weibull
// laws (Nurmi, Brevik and Wolski, Euro-Par 2005). Two phases with balanced means (each phase
// carries half of the mean): phase 1 with probability p = (1 + sqrt((cv^2 - 1) / (cv^2 + 1))) / 2
// and mean mean / (2 p), phase 2 with mean mean / (2 (1 - p)). The equilibrium remainder is then
// a mixture of the same two exponentials with weights p_i mean_i / mean = 1/2 each.
enum class OnOffDurations { geometric, pareto, weibull, hyperexponential };

struct OnOffSpec {
  std::uint64_t seed = 1;
  double available = 20.0;
  double loaded = 10.0;
  double load_factor = 0.25;
  OnOffDurations durations = OnOffDurations::geometric;
  double shape = 1.5;  // with durations pareto (> 1) or weibull (>= 0.01, given in the config)
  double cv = 2.0;     // with durations hyperexponential (>= 1, given in the config)
};

const char* to_string(OnOffDurations d);

// Daily cycle with noise: each host's multiplier follows a day/night cosine of `period` iterations
// between `low` (the busiest hour) and `high` (the idlest), plus noise, clipped to [low, high]:
//   m(k) = clamp(mid + amp cos(2 pi (k + phase_h) / period) + e(k), low, high),
//   mid = (low + high) / 2, amp = (high - low) / 2,
// sampled at iterations 0, every, 2 every, ... <= iterations (each value held until the next).
// e is a Gaussian AR(1) over those samples, stationary from the first: e(0) ~ N(0, noise^2),
// e(next) = correlation e + sqrt(1 - correlation^2) N(0, noise^2), so that its standard deviation
// is `noise` at every sample and successive samples correlate by `correlation` (load persists).
// The clipping is symmetric about mid, so the mean over a period stays mid. phase_h (iterations)
// is drawn uniformly in [0, period) per host and seed (random_phase: hosts lie in independent
// timezones, the traces knowing hosts only by name), or given, the same for every host (one
// timezone; 0: every host at its idlest at iteration 0). A change is recorded only when the value
// moves (the first one at iteration 0 unless the value there is 1).
struct DailySpec {
  std::uint64_t seed = 1;
  double period = 24.0;  // iterations per day
  double low = 0.5;
  double high = 1.0;
  double noise = 0.05;
  double correlation = 0.5;
  bool random_phase = true;
  double phase = 0.0;  // iterations, when !random_phase
  int every = 1;
};

// A Pareto duration of mean `mean` and shape `shape` > 1, from a uniform u in [0, 1).
double pareto_duration(double mean, double shape, double u);
// The equilibrium (residual life) distribution of those durations, from u in [0, 1): density
// (1 - F(x)) / mean, uniform below the scale, a Pareto tail of shape - 1 above it.
double pareto_residual(double mean, double shape, double u);

// A Weibull duration of mean `mean` and shape `shape` >= 0.01, from a uniform u in [0, 1).
double weibull_duration(double mean, double shape, double u);
// The equilibrium (residual life) distribution of those durations, from u in [0, 1).
double weibull_residual(double mean, double shape, double u);

// A two-phase hyperexponential duration of mean `mean` and coefficient of variation `cv` >= 1
// (balanced means), from a uniform u in [0, 1); and its equilibrium remainder.
double hyperexponential_duration(double mean, double cv, double u);
double hyperexponential_residual(double mean, double cv, double u);

// Throws InputError for bad parameters (as `where`: ...).
// The speed multipliers a trace may give: SimGrid's solver works to a relative precision, so a host
// slowed a million-fold or more would stop the simulation (its work never resolves), and one sped
// up as much would make every other cost vanish beside it.
constexpr double kLeastMultiplier = 1e-6;
constexpr double kGreatestMultiplier = 1e6;

// Refuses a multiplier outside [kLeastMultiplier, kGreatestMultiplier] ("<what> must be in [...]").
void check_multiplier(double m, const std::string& what);

void validate(const RandomWalkSpec& spec, const std::string& where);
void validate(const OnOffSpec& spec, const std::string& where);
void validate(const DailySpec& spec, const std::string& where);

// One trace per host, in the given order, covering iterations 0..iterations.
std::vector<HostTrace> random_walk_traces(const std::vector<std::pair<std::string, double>>& hosts,
                                          const RandomWalkSpec& spec, int iterations);
std::vector<HostTrace> on_off_traces(const std::vector<std::pair<std::string, double>>& hosts, const OnOffSpec& spec,
                                     int iterations);
std::vector<HostTrace> daily_traces(const std::vector<std::pair<std::string, double>>& hosts, const DailySpec& spec,
                                    int iterations);
// The cycle alone (no noise, no clipping needed): mid + amp cos(2 pi (k + phase) / period).
double daily_cycle(const DailySpec& spec, double phase, double k);

}  // namespace ringsim
