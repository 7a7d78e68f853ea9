// Whether a platform file is the HiPC 2004 paper's 90-host platform: platforms/paper2004_tiers90.xml
// (SimGrid XML 4.1) or the 2005 XML it was imported from (platforms/reference/), recognized by
// content (size and FNV-1a hash), wherever the file lies and whatever its name. A file that differs
// by one byte is another platform: the paper's speeds no longer describe its hosts.
#pragma once

#include <string>

namespace ringsim::io {

bool is_paper_platform(const std::string& path);

}  // namespace ringsim::io
