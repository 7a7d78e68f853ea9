// Paje tracing (--cfg=tracing:yes ...) on platforms where SimGrid 3.32 itself cannot trace, each
// reproduced with a bare S4U program (bench/bare_s4u_ring.cpp with the same --cfg):
//  - a Floyd zone with tracing/platform/topology on (SimGrid's default): the load stops with
//    "No route from 'a' to 'b'" (the topology is read before Floyd has computed its routes). Worked
//    around: the topology is left out (tracing/platform/topology:no), and ringsim says so.
//  - nested zones: "map::at" with the topology (then tried without, as above);
//  - a Dijkstra zone, and nested zones whose links are declared on routes: "container X already present";
//    a <cluster> with split-duplex links: "container with name X_UP/_DOWN not found" (or a crash
//    with the topology off). Nothing in SimGrid 3.32 traces these platforms: exit 2, one line.
//  - a host with a speed profile, tracing/actor on and tracing/platform off: TracingError "type with
//    name (speed) not found in parent type (HOST)". ringsim turns tracing/platform on with tracing
//    unless told not to (platform/simgrid_options.hpp); told not to, exit 2 and one line.
#pragma once

#include <string>

namespace ringsim::platform {

// With tracing on, after the options are set and before the platform is loaded: loads `platform`
// once in a forked child (its trace to /dev/null) and applies the workaround above when it is
// needed and the user left its option alone. Throws InputError naming the SimGrid limit when
// nothing works. Does nothing when tracing is off.
void avoid_tracing_limits(const std::string& platform);

// With tracing on, before anything is simulated: refuses (InputError, one line) a tracing/filename
// that cannot be written (a missing or read-only folder, a folder, a link to nothing, a FIFO no
// process reads). avoid_tracing_limits calls it first.
void check_trace_file();

// Before Engine::run: a run whose host speeds change (`speeds_change`: a speed profile of ringsim's
// or of the platform's) cannot be traced when SimGrid 3.32 follows hosts for the actors (or VMs,
// or categories) without their speed variable (tracing/platform, /categorized and /uncategorized
// off, or tracing/disable_power on): SimGrid would stop mid-run on the first change. Throws
// InputError with the limit's one line; does nothing otherwise.
void refuse_untraceable_speed_changes(bool speeds_change);

// The one line for a TracingError or a load that tracing broke: the limit, and what traces instead.
std::string tracing_limit(const std::string& what);

// The run's Paje trace is written to "<tracing/filename>.part" and renamed when the run has ended
// well, every byte written (a failed write, such as a full disk, is an error: InputError); a run
// that fails removes it (nothing half-written is left behind). A path ringsim cannot write (a
// missing folder) is refused when constructed. Devices and FIFOs are written through, links
// followed, as io::write_file_atomically does. Construct after the options are set and before the
// platform is loaded (SimGrid opens the file then).
class PajeTraceFile {
 public:
  PajeTraceFile();
  ~PajeTraceFile();  // removes the partial file unless finish() renamed it
  PajeTraceFile(const PajeTraceFile&) = delete;
  PajeTraceFile& operator=(const PajeTraceFile&) = delete;
  void finish();                                  // after Engine::run (SimGrid has closed the file)
  // In a forked child that simulates what the run does not report: its trace events go to
  // /dev/null, not into the parent's file (they share its descriptor and offset).
  void discard_writes() const;
  const std::string& name() const { return final_; }  // empty when the run is not traced
 private:
  std::string final_;    // tracing/filename as given
  std::string target_;   // the file it names, its links followed
  std::string partial_;  // target_ + ".part" while the run writes it
  std::string written_;  // the file SimGrid writes: partial_, or final_ written through
};

}  // namespace ringsim::platform
