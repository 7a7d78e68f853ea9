// Route questions asked in forked children (platform/route_prober): a long list is cut in two
// halves asked at once, the second written into a memory file. The answers, their order and the
// answers of the pairs SimGrid aborts on must be those of one child asking every pair. Each test
// case loads one platform (each case is its own process under ctest).
#include <doctest/doctest.h>

#include <cstddef>
#include <string>
#include <vector>

#include <simgrid/s4u.hpp>

#include "platform/platform_reader.hpp"
#include "platform/route_prober.hpp"

namespace sg4 = simgrid::s4u;
using namespace ringsim::platform;

namespace {

std::vector<ProbedRoute> every_pair(const LoadedPlatform& lp, std::size_t split_from) {
  split_probes_from(split_from);
  return probe_routes(ordered_pairs(lp.hosts()), true);
}

std::vector<ProbedRoute> every_pair_streamed(const LoadedPlatform& lp, std::size_t split_from) {
  split_probes_from(split_from);
  std::vector<ProbedRoute> out;
  probe_ordered_pairs(lp.hosts(), true, [&](std::size_t x, const ProbedRoute& r) {
    REQUIRE(x == out.size());  // in order, each once
    out.push_back(r);
  });
  return out;
}

void check_same(const std::vector<ProbedRoute>& a, const std::vector<ProbedRoute>& b) {
  REQUIRE(a.size() == b.size());
  for (std::size_t x = 0; x < a.size(); ++x) {
    CAPTURE(x);
    CHECK(a[x].routed == b[x].routed);
    CHECK(a[x].latency == b[x].latency);
    CHECK(a[x].links == b[x].links);
    CHECK(a[x].why == b[x].why);
  }
}

std::size_t aborted_in(const std::vector<ProbedRoute>& answers, std::size_t first, std::size_t last) {
  std::size_t n = 0;
  for (std::size_t x = first; x < last; ++x) n += answers[x].why.find("SimGrid aborts") != std::string::npos;
  return n;
}

struct Loaded {
  int argc = 2;
  char name[16] = "sim_tests";
  char quiet[32] = "--log=root.thres:critical";
  char* argv[3] = {name, quiet, nullptr};
  sg4::Engine engine{&argc, argv};
  LoadedPlatform lp;
  explicit Loaded(const std::string& file) : lp(engine, std::string(RINGSIM_TEST_PLATFORM_DIR) + "/" + file) {}
};

}  // namespace

TEST_CASE("a probe cut in two halves answers as one child where SimGrid aborts") {
  // vol-oslo has no coordinates: every route from or to it aborts SimGrid, in both halves.
  Loaded loaded("vivaldi_missing_coords.xml");
  const auto one = every_pair(loaded.lp, std::size_t{1} << 40);
  const std::size_t total = one.size();
  REQUIRE(total == loaded.lp.hosts().size() * (loaded.lp.hosts().size() - 1));
  // The platform must make children die in each half, or the check below proves little.
  REQUIRE(aborted_in(one, 0, total / 2) > 0);
  REQUIRE(aborted_in(one, total / 2, total) > 0);
  REQUIRE(aborted_in(one, 0, total) < total);
  for (std::size_t from : {std::size_t{2}, total - 1, total}) {
    CAPTURE(from);
    check_same(one, every_pair(loaded.lp, from));
    check_same(one, every_pair_streamed(loaded.lp, from));
  }
}

TEST_CASE("a probe cut in two halves answers as one child on a hierarchy") {
  Loaded loaded("zones_hierarchy.xml");
  const auto one = every_pair(loaded.lp, std::size_t{1} << 40);
  REQUIRE(aborted_in(one, 0, one.size()) == 0);
  check_same(one, every_pair_streamed(loaded.lp, 2));
  check_same(one, every_pair(loaded.lp, 3));
}
