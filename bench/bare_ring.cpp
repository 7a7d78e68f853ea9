#include "bench/bare_ring.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
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

std::vector<BareMember> read_bare_members(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("cannot read members file '" + path + "'");
  std::vector<BareMember> members;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    std::istringstream words(line);
    BareMember m;
    std::string flops, extra;
    char* end = nullptr;
    if (words >> m.host >> flops) m.flops = std::strtod(flops.c_str(), &end);
    if (!end || *end != '\0' || (words >> extra) || !(m.flops >= 0))
      throw std::invalid_argument(path + ":" + std::to_string(number) + ": expected 'HOST FLOPS' with FLOPS >= 0");
    members.push_back(m);
  }
  if (members.size() < 2) throw std::invalid_argument("members file '" + path + "' names fewer than two members");
  return members;
}

std::string bare_members_text(const std::vector<BareMember>& members) {
  std::string text;
  char flops[64];
  for (const BareMember& m : members) {
    std::snprintf(flops, sizeof flops, "%.17g", m.flops);
    text += m.host + ' ' + flops + '\n';
  }
  return text;
}

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
