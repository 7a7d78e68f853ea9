#include "kpbs_sim/kpbs_simulation.hpp"

#include <cmath>
#include <string>

#include <simgrid/s4u.hpp>

#include "platform/abort_guard.hpp"
#include "platform/paje_tracing.hpp"
#include "platform/simgrid_options.hpp"

XBT_LOG_NEW_DEFAULT_CATEGORY(ringsim_kpbs_sim, "ringsim: KPBS schedules executed between two clusters");

namespace sg4 = simgrid::s4u;

namespace ringsim::kpbs_sim {
namespace {

struct TwoClusters {
  std::vector<sg4::Host*> senders, receivers;
};

std::string node_name(int cluster, std::size_t i) { return "c" + std::to_string(cluster) + "-" + std::to_string(i); }

// The KPBS paper's Figure 1. Routes only go from cluster 1 to cluster 2 (symmetrical), the only
// direction data moves; the switches are routers so that the platform reads like the figure.
TwoClusters build_two_clusters(const KpbsPlatformSpec& p) {
  auto* zone = sg4::create_full_zone("kpbs");
  TwoClusters c;
  std::vector<sg4::Link*> l1, l2;
  for (std::size_t i = 0; i < p.v1; ++i) {
    c.senders.push_back(zone->create_host(node_name(1, i), 1e9));
    l1.push_back(zone->create_link("l" + node_name(1, i), p.b1)->set_latency(0)->seal());
  }
  for (std::size_t j = 0; j < p.v2; ++j) {
    c.receivers.push_back(zone->create_host(node_name(2, j), 1e9));
    l2.push_back(zone->create_link("l" + node_name(2, j), p.b2)->set_latency(0)->seal());
  }
  zone->create_router("sw1");
  zone->create_router("sw2");
  auto* backbone = zone->create_link("backbone", p.bb)->set_latency(p.latency)->seal();
  for (std::size_t i = 0; i < p.v1; ++i)
    for (std::size_t j = 0; j < p.v2; ++j)
      zone->add_route(c.senders[i]->get_netpoint(), c.receivers[j]->get_netpoint(), nullptr, nullptr,
                      {sg4::LinkInRoute(l1[i]), sg4::LinkInRoute(backbone), sg4::LinkInRoute(l2[j])}, true);
  zone->seal();
  return c;
}

struct Playback {
  const KpbsSchedule* schedule;
  double beta;
  double unit_bandwidth;
  const TwoClusters* clusters;
  KpbsSimulationResult* result;
};

// The coordinator: steps are sequential (a step starts once every transfer of the previous one
// has ended), which is what the planners' step durations assume.
void play_schedule(Playback pb) {
  for (const auto& step : pb.schedule->steps) {
    const double start = sg4::Engine::get_clock();
    if (pb.beta > 0) sg4::this_actor::sleep_for(pb.beta);
    std::vector<sg4::CommPtr> comms;
    for (const auto& c : step.comms) {
      const double bytes = std::max(0.0, std::round(c.amount * pb.unit_bandwidth));
      comms.push_back(sg4::Comm::sendto_async(pb.clusters->senders.at(c.from), pb.clusters->receivers.at(c.to),
                                              static_cast<uint64_t>(bytes)));
    }
    sg4::Comm::wait_all(comms);
    pb.result->step_durations.push_back(sg4::Engine::get_clock() - start);
    XBT_DEBUG("step %zu: %zu transfers, %g s", pb.result->step_durations.size(), comms.size(),
              pb.result->step_durations.back());
  }
  pb.result->makespan = sg4::Engine::get_clock();
}

}  // namespace

KpbsSimulationResult simulate_kpbs_schedule(const KpbsSchedule& schedule, double beta, double unit_bandwidth,
                                            const KpbsPlatformSpec& platform, int* argc, char** argv) {
  sg4::Engine engine(argc, argv);
  platform::apply_run_options({}, platform.linear_model ? NetworkModel::linear : NetworkModel::lv08);
  platform::PajeTraceFile paje_trace;  // after the options, before the platform (SimGrid opens it then)
  const TwoClusters clusters = build_two_clusters(platform);
  KpbsSimulationResult result;
  sg4::Actor::create("coordinator", clusters.senders.front(), play_schedule,
                     Playback{&schedule, beta, unit_bandwidth, &clusters, &result});
  {
    const platform::AbortGuard guard("SimGrid stopped the KPBS simulation");
    engine.run();
  }
  paje_trace.finish();
  return result;
}

}  // namespace ringsim::kpbs_sim
