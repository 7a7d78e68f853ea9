#include "model/speed_traces.hpp"

#include <random>
#include <sstream>
#include <iomanip>

#include "model/errors.hpp"
#include "model/tiers_generator.hpp"

namespace ringsim {

std::vector<HostTrace> generate_speed_traces(const std::vector<std::pair<std::string, double>>& hosts,
                                             const TraceSpec& spec) {
  if (spec.speed_list.empty() && !(spec.factor_low > 0.0 && spec.factor_low <= spec.factor_high))
    throw InputError("speed factor range must satisfy 0 < low <= high");
  for (const auto& [lo, hi] : spec.windows)
    if (lo < 0 || hi < lo) throw InputError("speed change window [" + std::to_string(lo) + ", " + std::to_string(hi) + "] is empty");
  std::mt19937_64 rng(spec.seed);
  std::vector<HostTrace> traces;
  traces.reserve(hosts.size());
  for (const auto& [name, peak] : hosts) {
    HostTrace t{name, peak, {}};
    double current = 1.0;
    for (const auto& [lo, hi] : spec.windows) {
      const int it = lo + static_cast<int>(uniform_below(rng, static_cast<std::uint64_t>(hi - lo + 1)));
      if (!spec.speed_list.empty()) {
        current = spec.speed_list[uniform_below(rng, spec.speed_list.size())] / peak;
      } else {
        current *= spec.factor_low + (spec.factor_high - spec.factor_low) * uniform_unit(rng);
      }
      if (!t.changes.empty() && t.changes.back().iteration >= it)
        throw InputError("speed change windows must be increasing and disjoint");
      t.changes.push_back({it, current});
    }
    traces.push_back(std::move(t));
  }
  return traces;
}

double multiplier_at_iteration(const HostTrace& trace, int iteration) {
  double m = 1.0;
  for (const auto& c : trace.changes)
    if (c.iteration <= iteration) m = c.multiplier;
  return m;
}

std::string speed_profile_text(const HostTrace& trace, double iteration_time, double origin) {
  std::ostringstream os;
  os << std::setprecision(17) << "0 1.0\n";
  for (const auto& c : trace.changes)
    os << origin + static_cast<double>(c.iteration) * iteration_time << ' ' << c.multiplier << '\n';
  return os.str();
}

double multiplier_at_time(const HostTrace& trace, double iteration_time, double t, double origin) {
  double m = 1.0;
  for (const auto& c : trace.changes)
    if (origin + static_cast<double>(c.iteration) * iteration_time <= t) m = c.multiplier;
  return m;
}

}  // namespace ringsim
