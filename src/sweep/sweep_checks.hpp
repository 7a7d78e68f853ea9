// What a sweep checks with SimGrid before its first run (the platform loaded once in a child, the
// options and log settings asked of it): one line and exit 2 for a sweep that could not run, rather
// than a failure per run. Its configs and schemes are checked as it is read (experiment.hpp).
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "sweep/experiment.hpp"

namespace ringsim::sweep {

// load_experiment's HostCount: the hosts of the largest set that reach each other both ways, asked
// of SimGrid in a child (the sweep's process runs no simulation and keeps no engine), once the hosts
// the runs name are found in the platform.
std::size_t usable_host_count(const std::string& platform, const std::vector<NamedHost>& named);

// The sweep's --cfg=name:value[,name:value...] as (name, value) pairs, as SimGrid splits them.
std::vector<std::pair<std::string, std::string>> cfg_options(const std::vector<std::string>& extras);

// Each run gets the sweep's --cfg options in its config ("simgrid", over the experiment's own), so
// that its config.json says what ran and a resumed sweep reruns what they changed. A traced run
// writes its trace in its own folder (the file name the user gave, or simgrid.trace).
void add_command_line_options(Experiment& e, const std::filesystem::path& out,
                              const std::vector<std::pair<std::string, std::string>>& options);

// The suspect lines of the sweep's trace files (io::suspect_trace_lines, with the platform's peak
// speeds asked of SimGrid in a child), once for the whole sweep before any run starts: each a
// warning line on standard error, or with `strict` the sweep's refusal (InputError, the first).
// Every run of a sweep has the same trace files and iterations.
void check_trace_lines(const Experiment& e, const std::string& where, bool strict);

// SimGrid's word on every distinct setup of the sweep (options, log settings, network preset),
// before any run starts.
void check_simgrid_setups(const Experiment& e, const std::string& where, const std::vector<std::string>& logs);

}  // namespace ringsim::sweep
