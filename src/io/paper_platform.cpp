#include "io/paper_platform.hpp"

#include "io/fnv1a.hpp"

#include <cstdint>
#include <filesystem>
#include <system_error>

#include "io/json_input.hpp"

namespace ringsim::io {
namespace {

struct KnownFile {
  std::uintmax_t size;
  std::uint64_t fnv1a;
};

// platforms/paper2004_tiers90.xml and platforms/reference/paper2004_tiers90_platform_2005dtd.xml.
constexpr KnownFile kPaperFiles[] = {{2270759, 0xd6515f93af9198acULL}, {2761127, 0x7140806bf668f97bULL}};

}  // namespace

bool is_paper_platform(const std::string& path) {
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) return false;
  bool sized = false;
  for (const auto& k : kPaperFiles) sized = sized || k.size == size;
  if (!sized) return false;  // most platforms: no need to read them
  const std::uint64_t h = fnv1a(read_text(path));
  for (const auto& k : kPaperFiles)
    if (k.size == size && k.fnv1a == h) return true;
  return false;
}

}  // namespace ringsim::io
