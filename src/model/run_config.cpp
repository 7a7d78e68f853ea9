#include "model/run_config.hpp"

#include <algorithm>
#include <sstream>

#include "model/errors.hpp"

namespace ringsim {
namespace {

int positive_int_of(const std::string& text, const std::string& what) {
  std::size_t used = 0;
  int v = 0;
  try {
    v = std::stoi(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || v < 1) throw InputError(what + " must be a positive integer, got '" + text + "'");
  return v;
}

}  // namespace

const char* to_string(RingSelection s) {
  switch (s) {
    case RingSelection::random: return "random";
    case RingSelection::hosts: return "hosts";
    case RingSelection::planner: return "planner";
  }
  return "";
}
const char* to_string(TargetMode m) { return m == TargetMode::oracle ? "oracle" : "measured"; }
const char* to_string(NetworkModel m) { return m == NetworkModel::linear ? "linear" : "lv08"; }

Scheme parse_scheme(const std::string& s, int iterations) {
  Scheme sc;
  sc.name = s;
  auto every = [&](int k) {
    for (int it = k; it < iterations; it += k) sc.after.push_back(it);
  };
  if (s == "none") {
  } else if (s == "once") {
    if (iterations > 1) sc.after = {iterations / 2};
  } else if (s.rfind("every-", 0) == 0) {
    every(positive_int_of(s.substr(6), "the period of scheme '" + s + "'"));
  } else if (s.rfind("after:", 0) == 0) {
    std::stringstream list(s.substr(6));
    std::string item;
    while (std::getline(list, item, ',')) {
      const int it = positive_int_of(item, "an iteration of scheme '" + s + "'");
      if (it >= iterations)
        throw InputError("scheme '" + s + "': iteration " + item + " is not before the last iteration");
      sc.after.push_back(it);
    }
    std::sort(sc.after.begin(), sc.after.end());
    sc.after.erase(std::unique(sc.after.begin(), sc.after.end()), sc.after.end());
    if (sc.after.empty()) throw InputError("scheme '" + s + "' lists no iteration");
  } else if (s == "adaptive" || s.rfind("adaptive-", 0) == 0) {
    sc.adaptive = true;
    sc.period = s == "adaptive" ? 5 : positive_int_of(s.substr(9), "the period of scheme '" + s + "'");
    every(sc.period);
  } else {
    throw InputError("unknown scheme '" + s + "' (none, once, every-K, after:a,b,..., adaptive, adaptive-K)");
  }
  return sc;
}

}  // namespace ringsim
