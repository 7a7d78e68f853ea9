#include "sim/bare_ring.hpp"

#include <algorithm>
#include <vector>

#include <simgrid/s4u.hpp>


XBT_LOG_NEW_DEFAULT_CATEGORY(ringsim_bare, "ringsim: bare S4U ring (benchmark yardstick)");

namespace sg4 = simgrid::s4u;

namespace ringsim {
namespace {

int token = 0;

void bare_member(int i, int n, int iterations, double flops, double bytes, sg4::BarrierPtr barrier) {
  auto* from_pred = sg4::Mailbox::by_name("bare" + std::to_string(i) + "p");
  auto* from_succ = sg4::Mailbox::by_name("bare" + std::to_string(i) + "s");
  auto* to_succ = sg4::Mailbox::by_name("bare" + std::to_string((i + 1) % n) + "p");
  auto* to_pred = sg4::Mailbox::by_name("bare" + std::to_string((i + n - 1) % n) + "s");
  for (int it = 0; it < iterations; ++it) {
    sg4::this_actor::execute(flops);
    auto s1 = to_succ->put_async(&token, static_cast<uint64_t>(bytes));
    auto s2 = to_pred->put_async(&token, static_cast<uint64_t>(bytes));
    from_pred->get<int>();
    from_succ->get<int>();
    s1->wait();
    s2->wait();
    if (barrier) barrier->wait();
  }
}

}  // namespace

double run_bare_ring(const std::string& platform, int n, int iterations, double flops, double bytes, bool barrier,
                     int* argc, char** argv) {
  sg4::Engine e(argc, argv);
  sg4::Engine::set_config("network/model:CM02");
  sg4::Engine::set_config("network/TCP-gamma:0");
  sg4::Engine::set_config("network/crosstraffic:0");
  e.load_platform(platform);
  auto hosts = e.get_all_hosts();
  std::sort(hosts.begin(), hosts.end(), [](const sg4::Host* a, const sg4::Host* b) { return a->get_name() < b->get_name(); });
  const sg4::BarrierPtr sync = barrier ? sg4::Barrier::create(static_cast<unsigned>(n)) : nullptr;
  for (int i = 0; i < n; ++i)
    sg4::Actor::create("bare-" + std::to_string(i), hosts[static_cast<std::size_t>(i)], bare_member, i, n, iterations,
                       flops, bytes, sync);
  e.run();
  return sg4::Engine::get_clock();
}

}  // namespace ringsim
