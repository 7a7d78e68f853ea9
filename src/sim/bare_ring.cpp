#include "sim/bare_ring.hpp"

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
    // Both receives posted before waiting: a comm starts once both sides are posted, and a
    // blocking receive from one side would hold back the other's.
    int* got_pred = nullptr;
    int* got_succ = nullptr;
    sg4::Comm::wait_all({from_pred->get_async<int>(&got_pred), from_succ->get_async<int>(&got_succ),
                         to_succ->put_async(&token, static_cast<uint64_t>(bytes)),
                         to_pred->put_async(&token, static_cast<uint64_t>(bytes))});
    if (barrier) barrier->wait();
  }
}

}  // namespace

double run_bare_ring(const std::string& platform, const std::vector<BareMember>& members, int iterations, double bytes,
                     bool barrier, int* argc, char** argv) {
  sg4::Engine e(argc, argv);
  sg4::Engine::set_config("network/model:CM02");
  sg4::Engine::set_config("network/TCP-gamma:0");
  sg4::Engine::set_config("network/crosstraffic:0");
  e.load_platform(platform);
  const int n = static_cast<int>(members.size());
  const sg4::BarrierPtr sync = barrier ? sg4::Barrier::create(static_cast<unsigned>(n)) : nullptr;
  for (int i = 0; i < n; ++i) {
    const BareMember& m = members[static_cast<std::size_t>(i)];
    sg4::Actor::create("bare-" + std::to_string(i), e.host_by_name(m.host), bare_member, i, n, iterations, m.flops,
                       bytes, sync);
  }
  e.run();
  return sg4::Engine::get_clock();
}

}  // namespace ringsim
