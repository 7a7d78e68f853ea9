// Every choice made by name (redistribution and KPBS algorithms, ring methods, schemes) refuses an
// unknown name one way: UnknownName (bad input, exit 2), "unknown <kind> 'name' (known: ...)"
// listing every registered name.
#include <doctest/doctest.h>

#include <string>

#include "model/named.hpp"
#include "planners/kpbs/kpbs_planner.hpp"
#include "planners/redistribution/redistribution_planner.hpp"
#include "planners/ring/ring_planner.hpp"
#include "policy/registry.hpp"

namespace ringsim {
namespace {

// What `call` throws for the unknown name "magic": an UnknownName whose message has this form.
template <class Call>
std::string refusal(const Call& call) {
  try {
    call();
  } catch (const UnknownName& e) {
    return e.what();
  }
  FAIL("no UnknownName thrown");
  return "";
}

void check_lists(const std::string& message, const std::string& kind, const std::vector<NamedInfo>& known) {
  CHECK(message.rfind("unknown " + kind + " 'magic' (known: ", 0) == 0);
  CHECK(message.back() == ')');
  for (const auto& k : known) CHECK_MESSAGE(message.find(k.name) != std::string::npos, k.name);
}

TEST_CASE("redistribution algorithms: unknown names refused as read and as planned, auto listed first") {
  check_lists(refusal([] { redistribution::check_redistribution_algorithm("magic"); }), "algorithm", redistribution::redistribution_algorithms());
  RingInstance inst;
  inst.loads = {1, 3};
  inst.targets = {2, 2};
  inst.cost_next = {1, 1};
  const std::string planned = refusal([&] { redistribution::plan_redistribution(inst, "magic"); });
  check_lists(planned, "algorithm", redistribution::redistribution_algorithms());
  CHECK(planned.find("(known: auto, ") != std::string::npos);
  CHECK_NOTHROW(redistribution::check_redistribution_algorithm("auto"));
  for (const auto& a : redistribution::redistribution_algorithms()) CHECK_NOTHROW(redistribution::check_redistribution_algorithm(a.name));
}

TEST_CASE("KPBS algorithms, ring methods and schemes: one form") {
  check_lists(refusal([] { kpbs::check_kpbs_algorithm("magic"); }), "algorithm", kpbs::kpbs_algorithms());
  check_lists(refusal([] { kpbs::check_kpbs_algorithm("magic", "KPBS algorithm"); }), "KPBS algorithm", kpbs::kpbs_algorithms());
  check_lists(refusal([] { ring::check_method("magic"); }), "ring method", ring::ring_methods());
  const std::string scheme = refusal([] { policy::make_policy("magic", 10); });
  CHECK(scheme == "unknown scheme 'magic' (known: " + policy::scheme_syntaxes() + ")");
  for (const auto& a : kpbs::kpbs_algorithms()) CHECK_NOTHROW(kpbs::check_kpbs_algorithm(a.name));
  for (const auto& m : ring::ring_methods()) CHECK_NOTHROW(ring::check_method(m.name));
}

TEST_CASE("the registry says whether a scheme ever redistributes, checking it") {
  CHECK_FALSE(policy::scheme_redistributes("none", 100, "cfg"));
  CHECK(policy::scheme_redistributes("once", 100, "cfg"));
  CHECK_FALSE(policy::scheme_redistributes("once", 1, "cfg"));        // no iteration to redistribute after
  CHECK_FALSE(policy::scheme_redistributes("every-10", 10, "cfg"));  // every-K from K, before the last
  CHECK(policy::scheme_redistributes("every-10", 11, "cfg"));
  CHECK(policy::scheme_redistributes("hindsight", 11, "cfg"));
  CHECK_FALSE(policy::scheme_redistributes("hindsight", 1, "cfg"));  // no point to choose
  CHECK(policy::scheme_redistributes("rent-or-buy", 11, "cfg"));
  CHECK_THROWS_WITH_AS(policy::scheme_redistributes("every-0", 10, "'c.json'"),
                       doctest::Contains("'c.json': the period"), InputError);
  CHECK_THROWS_WITH_AS(policy::scheme_redistributes("magic", 10, "'c.json'"),
                       doctest::Contains("'c.json': unknown scheme 'magic' (known: "), InputError);
}

}  // namespace
}  // namespace ringsim
