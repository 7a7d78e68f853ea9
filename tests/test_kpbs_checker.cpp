// The KPBS schedule checker must reject every kind of broken schedule; otherwise the property
// tests that rely on it could not fail.
#include <doctest/doctest.h>

#include "model/kpbs.hpp"
#include "oracles/kpbs_instances.hpp"

using namespace ringsim;

namespace {

// A schedule of the KPBS paper's cost (Section 1.2: beta + 2 + beta + 4 + beta + 1 = 16). Figure 4
// itself is not in the text; this one has its three durations and cuts x1 -> y1 (3 units) in two.
KpbsSchedule figure4() {
  KpbsSchedule s;
  s.steps = {{5, {{0, 0, 2}, {1, 2, 2}, {2, 3, 2}, {3, 1, 1.5}}},
             {7, {{2, 2, 4}, {0, 1, 2}, {1, 0, 2}, {3, 3, 1}}},
             {4, {{0, 0, 1}, {3, 2, 1}}}};
  s.time = 16;
  return s;
}

bool rejects(const KpbsSchedule& s, const char* fragment) {
  const auto c = check_kpbs_schedule(testing::seed_figure2(), s);
  INFO("checker said: " << c.error);
  return !c.ok && c.error.find(fragment) != std::string::npos;
}

}  // namespace

TEST_CASE("the checker accepts the KPBS paper's 16-unit schedule of Figure 2") {
  const auto c = check_kpbs_schedule(testing::seed_figure2(), figure4());
  CHECK_MESSAGE(c.ok, c.error);
}

TEST_CASE("the checker rejects each kind of violation") {
  SUBCASE("more than k communications") {
    auto inst = testing::seed_figure2();
    inst.k = 3;
    const auto c = check_kpbs_schedule(inst, figure4());
    CHECK_FALSE(c.ok);
    CHECK(c.error.find("more than k") != std::string::npos);
  }
  SUBCASE("a sender twice in a step") {
    auto s = figure4();
    s.steps[2].comms[1] = {0, 1, 1};  // x1 -> y2 while x1 -> y1 runs
    CHECK(rejects(s, "sends twice"));
  }
  SUBCASE("a receiver twice in a step") {
    auto s = figure4();
    s.steps[2].comms[1] = {1, 0, 1};  // x2 -> y1 while x1 -> y1 runs
    CHECK(rejects(s, "receives twice"));
  }
  SUBCASE("amounts that do not add up") {
    auto s = figure4();
    s.steps[2].comms[0].amount = 0.5;
    s.steps[2].duration = 4;  // still beta + longest (1)
    CHECK(rejects(s, "in total"));
  }
  SUBCASE("too much sent") {
    auto s = figure4();
    s.steps[0].comms[0].amount = 2.5;
    s.steps[0].duration = 5.5;
    s.time = 16.5;
    CHECK(rejects(s, "in total"));
  }
  SUBCASE("duration differs from beta + longest") {
    auto s = figure4();
    s.steps[1].duration = 6;
    s.time = 15;
    CHECK(rejects(s, "duration"));
  }
  SUBCASE("time is not the sum of the durations") {
    auto s = figure4();
    s.time = 15;
    CHECK(rejects(s, "sum of the durations"));
  }
  SUBCASE("a pair with nothing to send") {
    auto s = figure4();
    s.steps[2].comms.push_back({1, 1, 0.5});
    CHECK(rejects(s, "no data"));
  }
  SUBCASE("a node out of range") {
    auto s = figure4();
    s.steps[2].comms.push_back({4, 0, 0.5});
    CHECK(rejects(s, "out of range"));
  }
  SUBCASE("a zero amount") {
    auto s = figure4();
    s.steps[2].comms.push_back({1, 2, 0.0});
    CHECK(rejects(s, "positive"));
  }
  SUBCASE("an empty step") {
    auto s = figure4();
    s.steps.push_back({3, {}});
    s.time = 19;
    CHECK(rejects(s, "no communication"));
  }
  SUBCASE("a missing step") {
    auto s = figure4();
    s.steps.pop_back();
    s.time = 12;
    CHECK(rejects(s, "in total"));
  }
}

TEST_CASE("the conservation check accepts everything at once but not lost data") {
  KpbsSchedule s;
  KpbsStep all{20, {}};
  const auto inst = testing::seed_figure2();
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 4; ++j)
      if (inst.times[i][j] > 0) all.comms.push_back({i, j, inst.times[i][j]});
  s.steps.push_back(all);
  s.time = 20;
  CHECK(check_kpbs_conservation(inst, s).ok);
  CHECK_FALSE(check_kpbs_schedule(inst, s).ok);
  s.steps[0].duration = s.time = 6.5;  // below beta + longest = 7
  CHECK_FALSE(check_kpbs_conservation(inst, s).ok);
  s.steps[0].duration = s.time = 20;
  s.steps[0].comms.pop_back();
  CHECK_FALSE(check_kpbs_conservation(inst, s).ok);
}
