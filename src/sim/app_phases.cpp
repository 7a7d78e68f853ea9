#include "sim/app_phases.hpp"

#include <unordered_map>

#include <simgrid/instr.h>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <xbt/config.hpp>

namespace ringsim::sim {
namespace {

bool g_tracing = false;
constexpr const char* kState = "ringsim_phase";
constexpr const char* kMultiplier = "speed_multiplier";
std::unordered_map<const simgrid::s4u::Host*, double> g_multiplier;  // last value traced, per host

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
  simgrid::instr::declare_host_variable(kMultiplier);
}

void enter_phase(const simgrid::s4u::Host* host, Phase phase) {
  if (!g_tracing) return;
  TRACE_host_set_state(host->get_cname(), kState, kPhases[static_cast<int>(phase)].name);
}

void trace_speed_multiplier(const simgrid::s4u::Host* host, double multiplier) {
  if (!g_tracing) return;
  const auto [last, first] = g_multiplier.try_emplace(host, multiplier);
  if (!first && last->second == multiplier) return;
  last->second = multiplier;
  simgrid::instr::set_host_variable(host->get_name(), kMultiplier, multiplier, simgrid::s4u::Engine::get_clock());
}

}  // namespace ringsim::sim
