#include "bench/star_platform.hpp"

#include <vector>

#include "io/platform_xml.hpp"
#include "model/platform_graph.hpp"
#include "model/tiers_generator.hpp"

namespace ringsim {

void write_star_platform(const std::string& path, int n) {
  const auto& mf = embedded_measured_values().machine_mflops;
  Platform star;
  star.zone_name = "star";
  star.routing = ZoneRouting::full;
  std::vector<std::size_t> host(static_cast<std::size_t>(n)), link(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    host[static_cast<std::size_t>(i)] =
        star.add_host((i < 10 ? "h0" : "h") + std::to_string(i), mf[static_cast<std::size_t>(i) % mf.size()] * 1e6);
  for (int i = 0; i < n; ++i) link[static_cast<std::size_t>(i)] = star.add_link("l" + std::to_string(i), 12.5e6, 100e-6);
  // Each pair through its two links, both ways (SimGrid's default for a route).
  for (std::size_t i = 0; i < host.size(); ++i)
    for (std::size_t j = i + 1; j < host.size(); ++j)
      star.routes.push_back({host[i], host[j], {link[i], link[j]}, true});
  io::write_platform_xml(star, path);
}

}  // namespace ringsim
