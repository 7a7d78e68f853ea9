// The replay checker must reject every kind of broken schedule; otherwise the property tests
// that rely on it could not fail.
#include <doctest/doctest.h>

#include <utility>
#include <vector>

#include "model/replay.hpp"

using namespace ringsim;

namespace {

// P0 (3 items) sends 2 to P1 which forwards 1 to P2; unit costs.
RingInstance chain_instance() {
  RingInstance inst;
  inst.bidirectional = true;
  inst.loads = {3, 1, 1};
  inst.targets = {1, 2, 2};
  inst.cost_next = {1, 1, 1};
  inst.cost_prev = {1, 1, 1};
  return inst;
}

// A plan on a ring of three that sends nothing counter-clockwise.
RedistributionPlan plan_of(double time, std::vector<Count> send_next, std::vector<Transfer> transfers) {
  RedistributionPlan p;
  p.time = time;
  p.send_next = std::move(send_next);
  p.send_prev = {0, 0, 0};
  p.transfers = std::move(transfers);
  return p;
}

RedistributionPlan chain_plan() {
  return plan_of(2, {2, 1, 0}, {{0, 1, Direction::next, 2, 0, 2}, {1, 2, Direction::next, 1, 1, 2}});
}

}  // namespace

TEST_CASE("replay accepts a valid forwarding schedule") {
  const auto rep = replay(chain_instance(), chain_plan());
  CHECK_MESSAGE(rep.ok, rep.error);
  CHECK(rep.final_loads == std::vector<Count>{1, 2, 2});
}

TEST_CASE("replay accepts forwarding at the instant of arrival") {
  auto inst = chain_instance();
  inst.loads = {3, 0, 1};  // P1 holds nothing: it can only forward what arrives at t = 1
  inst.targets = {1, 1, 2};
  const auto rep = replay(inst, chain_plan());
  CHECK_MESSAGE(rep.ok, rep.error);
}

TEST_CASE("replay rejects each kind of violation") {
  const auto inst = chain_instance();
  SUBCASE("item not held") {
    auto inst2 = inst;
    inst2.loads = {3, 0, 1};
    inst2.targets = {1, 1, 2};
    auto p = chain_plan();
    p.transfers[1].start = 0.5;
    p.transfers[1].end = 1.5;
    const auto rep = replay(inst2, p);
    CHECK_FALSE(rep.ok);
    CHECK(rep.error.find("does not hold") != std::string::npos);
  }
  SUBCASE("duration differs from items * cost") {
    auto p = chain_plan();
    p.transfers[0].end = 1.5;
    CHECK_FALSE(replay(inst, p).ok);
  }
  SUBCASE("two sends at once") {
    auto p = chain_plan();
    p.transfers.push_back({0, 2, Direction::prev, 1, 1, 2});
    p.send_prev = {1, 0, 0};
    const auto rep = replay(inst, p);
    CHECK_FALSE(rep.ok);
    CHECK(rep.error.find("one-port") != std::string::npos);
  }
  SUBCASE("two receives at once") {
    auto p = chain_plan();
    p.transfers[1] = {2, 1, Direction::prev, 1, 0, 1};
    p.send_next = {2, 0, 0};
    p.send_prev = {0, 0, 1};
    const auto rep = replay(inst, p);
    CHECK_FALSE(rep.ok);
    CHECK(rep.error.find("receives") != std::string::npos);
  }
  SUBCASE("wrong final loads") {
    auto p = chain_plan();
    p.transfers.pop_back();
    p.send_next = {2, 0, 0};
    p.time = 2;
    const auto rep = replay(inst, p);
    CHECK_FALSE(rep.ok);
    CHECK(rep.error.find("target") != std::string::npos);
  }
  SUBCASE("reported time differs") {
    auto p = chain_plan();
    p.time = 1.5;
    CHECK_FALSE(replay(inst, p).ok);
  }
  SUBCASE("receiver is not a neighbour in that direction") {
    auto p = chain_plan();
    p.transfers[1].to = 0;
    CHECK_FALSE(replay(inst, p).ok);
  }
  SUBCASE("backwards on a unidirectional ring") {
    auto uni = inst;
    uni.bidirectional = false;
    uni.cost_prev.clear();
    auto p = chain_plan();
    p.transfers[1] = {1, 0, Direction::prev, 1, 1, 2};
    CHECK_FALSE(replay(uni, p).ok);
  }
  SUBCASE("counters disagree with the blocks") {
    auto p = chain_plan();
    p.send_next = {2, 2, 0};
    CHECK_FALSE(replay(inst, p).ok);
  }
  SUBCASE("empty block and negative start") {
    auto p = chain_plan();
    p.transfers[1].items = 0;
    CHECK_FALSE(replay(inst, p).ok);
    p = chain_plan();
    p.transfers[0].start = -1;
    p.transfers[0].end = 1;
    CHECK_FALSE(replay(inst, p).ok);
  }
}

// P0 sends 3 items to P1 over a slow link (cost 2); P1 holds nothing and forwards them over a fast
// one (cost 1) as they arrive: one paced block, leaving at 2, 4, 6.
namespace {

RingInstance paced_instance() {
  RingInstance inst;
  inst.loads = {4, 0, 1};
  inst.targets = {1, 0, 4};
  inst.cost_next = {2, 1, 1};
  return inst;
}

RedistributionPlan paced_plan() {
  return plan_of(7, {3, 3, 0}, {{0, 1, Direction::next, 3, 0, 6}, {1, 2, Direction::next, 3, 2, 7, 2.0}});
}

}  // namespace

TEST_CASE("replay accepts a paced block that forwards items at the pace they arrive") {
  const auto rep = replay(paced_instance(), paced_plan());
  CHECK_MESSAGE(rep.ok, rep.error);
  CHECK(rep.final_loads == std::vector<Count>{1, 0, 4});
}

TEST_CASE("replay rejects a paced block that is too fast, ends wrong, or forwards too early") {
  SUBCASE("period shorter than the item cost") {
    auto p = paced_plan();
    p.transfers[1].period = 0.5;
    p.transfers[1].end = 4;
    const auto rep = replay(paced_instance(), p);
    CHECK_FALSE(rep.ok);
    CHECK(rep.error.find("paced faster") != std::string::npos);
  }
  SUBCASE("end not start + (items-1) * period + cost") {
    auto p = paced_plan();
    p.transfers[1].end = 6;
    p.time = 6;
    const auto rep = replay(paced_instance(), p);
    CHECK_FALSE(rep.ok);
    CHECK(rep.error.find("(items-1) * period") != std::string::npos);
  }
  SUBCASE("an item forwarded before it arrives") {
    auto p = paced_plan();
    p.transfers[1] = {1, 2, Direction::next, 3, 2, 6, 1.5};  // leaves at 2, 3.5, 5: the 2nd arrives at 4
    p.time = 6;
    const auto rep = replay(paced_instance(), p);
    CHECK_FALSE(rep.ok);
    CHECK(rep.error.find("does not hold") != std::string::npos);
  }
}
