#include "bench/star_platform.hpp"

#include <sstream>

#include "io/files.hpp"
#include "model/tiers_generator.hpp"

namespace ringsim {

void write_star_platform(const std::string& path, int n) {
  const auto& mf = embedded_measured_values().machine_mflops;
  std::ostringstream x;
  x << "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
    << "<platform version=\"4.1\">\n  <zone id=\"star\" routing=\"Full\">\n";
  for (int i = 0; i < n; ++i)
    x << "    <host id=\"h" << (i < 10 ? "0" : "") << i << "\" speed=\"" << mf[static_cast<std::size_t>(i) % mf.size()] << "Mf\"/>\n";
  for (int i = 0; i < n; ++i) x << "    <link id=\"l" << i << "\" bandwidth=\"12.5MBps\" latency=\"100us\"/>\n";
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      x << "    <route src=\"h" << (i < 10 ? "0" : "") << i << "\" dst=\"h" << (j < 10 ? "0" : "") << j
        << "\"><link_ctn id=\"l" << i << "\"/><link_ctn id=\"l" << j << "\"/></route>\n";
  x << "  </zone>\n</platform>\n";
  io::write_file_atomically(path, x.str());
}

}  // namespace ringsim
