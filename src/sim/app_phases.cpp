#include "sim/app_phases.hpp"

#include <simgrid/instr.h>
#include <simgrid/s4u/Host.hpp>
#include <xbt/config.hpp>

namespace ringsim::sim {
namespace {

bool g_tracing = false;
constexpr const char* kState = "ringsim_phase";

struct PhaseName {
  Phase phase;
  const char* name;
  const char* color;
};
constexpr PhaseName kPhases[] = {{Phase::compute, "compute", "0.2 0.4 0.8"},  {Phase::border, "border", "0.2 0.7 0.3"},
                                 {Phase::reports, "reports", "0.9 0.6 0.1"},  {Phase::decision, "decision", "0.6 0.3 0.7"},
                                 {Phase::columns, "columns", "0.8 0.2 0.2"},  {Phase::wait, "wait", "0.8 0.8 0.8"},
                                 {Phase::done, "done", "1 1 1"}};

}  // namespace

void declare_phases() {
  g_tracing = simgrid::config::get_value<bool>("tracing") && simgrid::config::get_value<bool>("tracing/platform");
  if (!g_tracing) return;
  TRACE_host_state_declare(kState);
  for (const auto& p : kPhases) TRACE_host_state_declare_value(kState, p.name, p.color);
}

void enter_phase(const simgrid::s4u::Host* host, Phase phase) {
  if (!g_tracing) return;
  TRACE_host_set_state(host->get_cname(), kState, kPhases[static_cast<int>(phase)].name);
}

}  // namespace ringsim::sim
