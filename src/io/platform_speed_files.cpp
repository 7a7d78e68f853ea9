#include "io/platform_speed_files.hpp"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>

#include <pugixml.hpp>

#include "io/json_input.hpp"
#include "io/text_fields.hpp"
#include "model/speed_traces.hpp"
#include "model/errors.hpp"

namespace ringsim::io {
namespace {

namespace fs = std::filesystem;

std::string find_beside(const std::string& file, const std::string& platform_path) {
  if (fs::path(file).is_absolute() || fs::exists(file)) return file;
  const fs::path beside = fs::path(platform_path).parent_path() / file;
  return fs::exists(beside) ? beside.lexically_normal().string() : file;
}

void collect(const pugi::xml_node& node, std::map<std::string, pugi::xml_node>& traces,
             std::vector<pugi::xml_node>& hosts, std::vector<pugi::xml_node>& connects,
             std::vector<pugi::xml_node>* links = nullptr) {
  const auto is = [](const pugi::xml_node& n, const char* name) { return std::strcmp(n.name(), name) == 0; };
  for (const auto& child : node.children()) {
    if (is(child, "host") || is(child, "peer")) hosts.push_back(child);
    else if (is(child, "link") && links) links->push_back(child);
    else if (is(child, "trace")) traces[child.attribute("id").value()] = child;
    else if (is(child, "trace_connect")) connects.push_back(child);
    collect(child, traces, hosts, connects, links);
  }
}

// A profile's points: lines "time value", blank lines, '#' comments and SimGrid's LOOPAFTER /
// PERIODICITY lines aside. Numbers are decimal (SimGrid would also read "0x10"); a repeating
// profile's period (LOOPAFTER, or `periodicity` given as the text's LOOPAFTER line) is at least
// kLeastProfilePeriod. InputError naming `where`:line otherwise.
std::vector<std::pair<double, double>> profile_points(const std::string& text, const std::string& where) {
  std::vector<std::pair<double, double>> points;
  std::istringstream in(text);
  std::string line;
  double loop_after = -1.0;
  for (std::size_t lineno = 1; std::getline(in, line); ++lineno) {
    std::istringstream fields(line);
    std::string t, v;
    if (!(fields >> t) || t[0] == '#' || !(fields >> v)) continue;
    const std::string at = where + ":" + std::to_string(lineno);
    if (holds_hexadecimal(t) || holds_hexadecimal(v)) throw InputError(at + ": numbers are decimal, got '" + line + "'");
    char* end = nullptr;
    const double time = std::strtod(t.c_str(), &end);
    if (*end != '\0') {
      if (t == "LOOPAFTER" || t == "PERIODICITY") loop_after = std::strtod(v.c_str(), nullptr);
      continue;
    }
    const double value = std::strtod(v.c_str(), &end);
    if (*end == '\0') points.emplace_back(time, value);
  }
  if (loop_after >= 0.0 && !points.empty()) {
    const double period = points.back().first - points.front().first + loop_after;
    if (!(period >= kLeastProfilePeriod)) {
      std::ostringstream os;
      os << where << ": a period of " << period << " s, less than " << kLeastProfilePeriod
         << " s (SimGrid would step through every repetition)";
      throw InputError(os.str());
    }
  }
  return points;
}

// A latency or bandwidth below 0 has no meaning; SimGrid would run with it.
void refuse_negative(const PlatformProfile& p) {
  if (p.what != "latency" && p.what != "bandwidth") return;
  for (const auto& point : p.points)
    if (point.second < 0.0) throw InputError(describe(p, point) + ": a " + p.what + " must be >= 0");
}

}  // namespace

std::map<std::string, DeclaredSpeedProfile> declared_speed_profiles(const std::string& platform_path) {
  const std::string text = read_text(platform_path);
  pugi::xml_document doc;
  if (!doc.load_buffer(text.data(), text.size(), pugi::parse_default | pugi::parse_doctype))
    throw InputError("'" + platform_path + "' is not XML");
  std::map<std::string, pugi::xml_node> traces;
  std::vector<pugi::xml_node> hosts, connects;
  collect(doc, traces, hosts, connects);
  std::map<std::string, DeclaredSpeedProfile> out;
  for (const auto& h : hosts)
    if (const auto f = h.attribute("speed_file"); f && *f.value()) {
      const std::string path = find_beside(f.value(), platform_path);
      out[h.attribute("id").value()] = {path, read_text(path)};
    }
  for (const auto& c : connects) {
    if (std::string(c.attribute("kind").value()) != "SPEED") continue;
    const std::string id = c.attribute("trace").value();
    const auto t = traces.find(id);
    if (t == traces.end()) throw InputError("'" + platform_path + "': <trace_connect> names no <trace id='" + id + "'>");
    DeclaredSpeedProfile p;
    if (const auto f = t->second.attribute("file"); f && *f.value()) {
      p.where = find_beside(f.value(), platform_path);
      p.text = read_text(p.where);  // SimGrid ignores the periodicity of a trace read from a file
    } else {
      p.where = "'" + platform_path + "' <trace id='" + id + "'>";
      p.text = t->second.text().get();
      // An inline trace's periodicity is SimGrid's repeat delay, as a profile's LOOPAFTER.
      if (const auto per = t->second.attribute("periodicity"); per && *per.value())
        p.text += std::string("\nLOOPAFTER ") + per.value() + "\n";
    }
    out[c.attribute("element").value()] = std::move(p);
  }
  return out;
}

std::vector<PlatformProfile> profiles_in(const pugi::xml_document& doc, const std::string& platform_path) {
  std::map<std::string, pugi::xml_node> traces;
  std::vector<pugi::xml_node> hosts, connects, links;
  collect(doc, traces, hosts, connects, &links);
  std::vector<PlatformProfile> out;
  auto from_file = [&](bool host, const pugi::xml_node& n, const char* attribute, const char* what) {
    if (const auto f = n.attribute(attribute); f && *f.value()) {
      const std::string path = find_beside(f.value(), platform_path);
      out.push_back({host, n.attribute("id").value(), what, "'" + path + "'", profile_points(read_text(path), "'" + path + "'")});
    }
  };
  for (const auto& h : hosts) {
    from_file(true, h, "speed_file", "speed");
    from_file(true, h, "state_file", "state");
  }
  for (const auto& l : links) {
    from_file(false, l, "bandwidth_file", "bandwidth");
    from_file(false, l, "latency_file", "latency");
    from_file(false, l, "state_file", "state");
  }
  for (const auto& c : connects) {
    const std::string kind = c.attribute("kind").value();
    const bool host = kind == "SPEED" || kind == "HOST_AVAIL";
    const char* what = kind == "SPEED" ? "speed" : kind == "BANDWIDTH" ? "bandwidth" : kind == "LATENCY" ? "latency"
                                                                                                        : "state";
    if (!host && kind != "BANDWIDTH" && kind != "LATENCY" && kind != "LINK_AVAIL") continue;
    const auto t = traces.find(c.attribute("trace").value());
    if (t == traces.end()) continue;  // SimGrid's load says what is wrong
    PlatformProfile p{host, c.attribute("element").value(), what, "", {}};
    if (const auto f = t->second.attribute("file"); f && *f.value()) {
      const std::string path = find_beside(f.value(), platform_path);
      p.where = "'" + path + "'";
      p.points = profile_points(read_text(path), p.where);
    } else {
      p.where = "'" + platform_path + "' <trace id='" + t->first + "'>";
      std::string inline_text = t->second.text().get();
      if (const auto per = t->second.attribute("periodicity"); per && *per.value())
        inline_text += std::string("\nLOOPAFTER ") + per.value() + "\n";
      p.points = profile_points(inline_text, p.where);
    }
    out.push_back(std::move(p));
  }
  for (const auto& p : out) refuse_negative(p);
  return out;
}

const std::pair<double, double>* first_outside(const PlatformProfile& p, double least, double most) {
  for (const auto& point : p.points)
    if (!(point.second >= least && point.second <= most)) return &point;
  return nullptr;
}

std::string describe(const PlatformProfile& p, const std::pair<double, double>& point) {
  std::ostringstream os;
  os << (p.host ? "host '" : "link '") << p.element << "' ";
  if (p.what == "state" && point.second <= 0.0) os << "is turned off";
  else os << "has its " << p.what << " at " << point.second;
  os << " at t = " << point.first << " s by its " << p.what << " profile " << p.where;
  return os.str();
}

}  // namespace ringsim::io
