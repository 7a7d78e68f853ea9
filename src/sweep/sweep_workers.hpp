// The runs of a sweep, simulated from platforms loaded once. Each of the `jobs` workers is a
// process that loads one platform (Engine, network model, SimGrid's parse of the file) and then
// forks one child per run from that state: the child does what `ringsim simulate CONFIG
// --no-baseline --out RESULT --iterations-csv ITERATIONS` does, writing its standard output and
// error to the run's log, and exits. Still one simulation per process, and the same results as a
// fresh process (docs/design.md: a child forked after load_platform has a fresh process's clock and
// state), without paying start-up and the platform's parse at every run.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace ringsim::sweep {

struct SweepRun {
  std::string config, result, iterations, log;
};

// Runs runs[k] for each k of `todo` (in that order, runs on one platform kept together), at most
// `jobs` at once; `done(k, status)` is called as each ends, with the exit status `ringsim simulate`
// would have had (0: its result is written; 2: bad input; other: a failure, 128 + N: signal N).
// A platform that cannot be loaded once is not an error here: its runs are then simulated from
// scratch, each child reporting its own error in its log, as `ringsim simulate` would.
// `engine_args`: the sweep's --log= settings, given to every run's Engine (its --cfg= are in the
// runs' configs, "simgrid").
void run_sweep(const std::vector<SweepRun>& runs, const std::vector<std::size_t>& todo, int jobs,
               const std::vector<std::string>& engine_args, const std::function<void(std::size_t, int)>& done);

}  // namespace ringsim::sweep
