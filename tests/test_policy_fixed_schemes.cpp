// The fixed schemes (src/policy/fixed_points.cpp: none, once, every-K, after:, and
// adaptive-gather-K of src/policy/adaptive_gather.cpp): the iterations they redistribute after;
// and the names the policy registry accepts, refuses (naming them) and adds at run time.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "model/errors.hpp"
#include "policy/registry.hpp"

using namespace ringsim;
using namespace ringsim::policy;

namespace {

// The iterations after which a fresh policy of `scheme` acts, on a calm ring of 4 members.
std::vector<int> points_of(const std::string& scheme, int iterations) {
  auto p = make_policy(scheme, iterations);
  RingFacts f;
  f.n = 4;
  f.iterations = iterations;
  std::vector<long> loads(4, 25);
  std::vector<int> points;
  for (int it = 1; it <= iterations; ++it) {
    MemberView v;
    v.ring = &f;
    v.iteration = it;
    v.loads = &loads;
    if (p->after_iteration(v) != Act::carry_on) points.push_back(it);
  }
  return points;
}

}  // namespace

TEST_CASE("the paper's five schemes have 0, 1, 4, 9 and 19 redistribution points") {
  CHECK(points_of("none", 100).empty());
  CHECK(points_of("once", 100) == std::vector<int>{50});
  CHECK(points_of("every-20", 100) == std::vector<int>{20, 40, 60, 80});
  CHECK(points_of("every-10", 100).size() == 9);
  CHECK(points_of("every-5", 100).size() == 19);
  CHECK(points_of("after:80,20,20", 100) == std::vector<int>{20, 80});
  CHECK(points_of("adaptive-gather-7", 100).size() == 14);
  CHECK(points_of("adaptive-gather", 100).size() == 19);
  CHECK(make_policy("none", 100)->never_redistributes());
  CHECK(make_policy("once", 1)->never_redistributes());
  CHECK_FALSE(make_policy("every-5", 100)->never_redistributes());
  CHECK_FALSE(make_policy("adaptive", 100)->never_redistributes());
  CHECK(make_policy("adaptive", 100)->piggybacks_reports());
  CHECK_FALSE(make_policy("every-5", 100)->piggybacks_reports());
  CHECK_FALSE(make_policy("adaptive-gather-3", 100)->piggybacks_reports());
}

TEST_CASE("the registry refuses unknown and malformed schemes, naming them") {
  for (const char* bad : {"after:100", "every-0", "every-x", "every-", "every--3", "every-+3", "sometimes",
                          "adaptive-7", "adaptive-gather-0", "after:", "after:3,,4", "Adaptive", ""}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(make_policy(bad, 100), InputError);
    try {
      make_policy(bad, 100);
    } catch (const InputError& e) {
      CHECK(std::string(e.what()).find(std::string("'") + bad) != std::string::npos);
    }
  }
  CHECK(scheme_syntaxes().find("adaptive-gather-K") != std::string::npos);
}

TEST_CASE("a policy added at run time is found after the built-in ones") {
  struct Never : RedistributionPolicy {
    Act after_iteration(const MemberView&) override { return Act::carry_on; }
  };
  add_policy("never-ever", "test", [](const SchemeArgs&) { return std::make_unique<Never>(); });
  CHECK(make_policy("never-ever", 10) != nullptr);
  CHECK(scheme_syntaxes().find("never-ever") != std::string::npos);
}
