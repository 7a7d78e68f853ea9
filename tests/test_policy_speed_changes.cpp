// How long speeds hold, by hand (src/policy/speed_changes.hpp, which adaptive and adaptive-lasting
// read): a change counts once settled, changes together end a balance once, and a reading that
// straddles a change is not a change of its own.
#include <doctest/doctest.h>

#include <array>
#include <cmath>

#include "policy/speed_changes.hpp"
#include "policy_views.hpp"

using namespace ringsim;
using namespace ringsim::policy;

TEST_CASE("speed changes, by hand: a change counts once settled, and together-changes end a balance once") {
  // Two members; set_speeds stamps snapshot t at 1.3 t s.
  Ring r = uniform_ring(2, 10, 1e5, 1.0, 1e-3, 1e8);
  constexpr double pace = 1.3;
  SpeedChanges c;
  auto observe = [&](int t, double speed0, double speed1) {
    set_speeds(r, {speed0, speed1}, t);
    c.observe(r.common);
  };
  CHECK_FALSE(c.watched());
  CHECK(std::isinf(c.persistence()));
  CHECK(std::isinf(c.ring_persistence()));
  // Member 0 steps from 100 to 200 at the snapshot of t = 4; the next one (t = 5) confirms it.
  const std::array<double, 6> speed0{100, 100, 100, 200, 200, 200};
  for (int t = 1; t <= 6; ++t) observe(t, speed0[static_cast<std::size_t>(t - 1)], 100);
  CHECK(c.watched());
  CHECK(c.pace() == doctest::Approx(pace));
  CHECK(c.persistence() == doctest::Approx(2.0 * 5.0 * pace / 1.0));  // 2 members, 5 snapshots, 1 change
  CHECK(c.ring_persistence() == doctest::Approx(5.0 * pace));
  // One change in the last 2 snapshots against 1 in 5 overall: more than twice as often.
  CHECK(c.in_burst(2, 2.0));
  // Both members change at the snapshot of t = 9 (settled at t = 10): two member changes, one end
  // of a balance. The window holds t = 3..12.
  for (int t = 7; t <= 12; ++t) observe(t, t < 9 ? 200 : 400, t < 9 ? 100 : 50);
  CHECK(c.persistence() == doctest::Approx(2.0 * 9.0 * pace / 3.0));  // three member changes
  CHECK(c.ring_persistence() == doctest::Approx(9.0 * pace / 2.0));   // in two snapshots
  CHECK_FALSE(c.in_burst(2, 2.0));
  // Three snapshots later the window (t = 6..15) no longer holds the first change.
  for (int t = 13; t <= 15; ++t) observe(t, 400, 50);
  CHECK(c.persistence() == doctest::Approx(2.0 * 9.0 * pace / 2.0));
  CHECK(c.ring_persistence() == doctest::Approx(9.0 * pace));
  // Fresh speeds 2 s after the last snapshot: within 5% of it, or one member off it.
  const double now = 15 * pace + 2.0;
  CHECK(std::isinf(c.recent_ring_persistence({400, 51}, now)));
  CHECK(c.recent_persistence({400, 60}, now) == doctest::Approx(2.0 * 2.0 / 1.0));
  CHECK(c.recent_ring_persistence({400, 60}, now) == doctest::Approx(2.0));
}

TEST_CASE("speed changes, by hand: a reading that straddles a change is not a change of its own") {
  Ring r = uniform_ring(2, 10, 1e5, 1.0, 1e-3, 1e8);
  SpeedChanges c;
  // 100, then a computation half before and half after the step (150), then 200 from there on.
  const std::array<double, 6> speed0{100, 100, 100, 150, 200, 200};
  for (int t = 1; t <= 6; ++t) {
    set_speeds(r, {speed0[static_cast<std::size_t>(t - 1)], 100}, t);
    c.observe(r.common);
  }
  CHECK(c.persistence() == doctest::Approx(2.0 * 5.0 * 1.3 / 1.0));
  CHECK(c.ring_persistence() == doctest::Approx(5.0 * 1.3));
}
