#include "sim/bare_ring.hpp"

#include <algorithm>
#include <sstream>
#include <vector>

#include <simgrid/s4u.hpp>

#include "io/json_input.hpp"
#include "model/tiers_generator.hpp"

XBT_LOG_NEW_DEFAULT_CATEGORY(ringsim_bare, "ringsim: bare S4U ring (benchmark yardstick)");

namespace sg4 = simgrid::s4u;

namespace ringsim {
namespace {

int token = 0;

void bare_member(int i, int n, int iterations, double flops, double bytes) {
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
  }
}

}  // namespace

double run_bare_ring(const std::string& platform, int n, int iterations, double flops, double bytes, int* argc,
                     char** argv) {
  sg4::Engine e(argc, argv);
  sg4::Engine::set_config("network/model:CM02");
  sg4::Engine::set_config("network/TCP-gamma:0");
  sg4::Engine::set_config("network/crosstraffic:0");
  e.load_platform(platform);
  auto hosts = e.get_all_hosts();
  std::sort(hosts.begin(), hosts.end(), [](const sg4::Host* a, const sg4::Host* b) { return a->get_name() < b->get_name(); });
  for (int i = 0; i < n; ++i)
    sg4::Actor::create("bare-" + std::to_string(i), hosts[static_cast<std::size_t>(i)], bare_member, i, n, iterations,
                       flops, bytes);
  e.run();
  return sg4::Engine::get_clock();
}

void write_star_platform(const std::string& path, int n) {
  const auto& mf = embedded_measured_values().machine_mflops;
  std::ostringstream x;
  x << "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
    << "<platform version=\"4.1\">\n  <zone id=\"star\" routing=\"Full\">\n";
  for (int i = 0; i < n; ++i)
    x << "    <host id=\"h" << (i < 10 ? "0" : "") << i << "\" speed=\"" << mf[static_cast<std::size_t>(i) % mf.size()] << "Mf\"/>\n";
  for (int i = 0; i < n; ++i) x << "    <link id=\"l" << i << "\" bandwidth=\"12.5MBps\" latency=\"100us\"/>\n";
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      x << "    <route src=\"h" << (i < 10 ? "0" : "") << i << "\" dst=\"h" << (j < 10 ? "0" : "") << j
        << "\"><link_ctn id=\"l" << i << "\"/><link_ctn id=\"l" << j << "\"/></route>\n";
  x << "  </zone>\n</platform>\n";
  io::write_file_atomically(path, x.str());
}

}  // namespace ringsim
