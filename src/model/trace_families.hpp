// Seeded speed-trace families beyond the HiPC 2004 windows (issue 11): a random walk of each host's
// speed multiplier, and on/off background load (a two-state Markov chain per host). Pure and
// deterministic: the same spec, hosts and iteration count give the same traces.
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
struct OnOffSpec {
  std::uint64_t seed = 1;
  double available = 20.0;
  double loaded = 10.0;
  double load_factor = 0.25;
};

// Throws InputError for bad parameters (as `where`: ...).
void validate(const RandomWalkSpec& spec, const std::string& where);
void validate(const OnOffSpec& spec, const std::string& where);

// One trace per host, in the given order, covering iterations 0..iterations.
std::vector<HostTrace> random_walk_traces(const std::vector<std::pair<std::string, double>>& hosts,
                                          const RandomWalkSpec& spec, int iterations);
std::vector<HostTrace> on_off_traces(const std::vector<std::pair<std::string, double>>& hosts, const OnOffSpec& spec,
                                     int iterations);

}  // namespace ringsim
