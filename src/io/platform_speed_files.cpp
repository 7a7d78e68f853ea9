#include "io/platform_speed_files.hpp"

#include <filesystem>
#include <sstream>

#include <pugixml.hpp>

#include "io/json_input.hpp"
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
             std::vector<pugi::xml_node>& hosts, std::vector<pugi::xml_node>& connects) {
  for (const auto& child : node.children()) {
    const std::string name = child.name();
    if (name == "host") hosts.push_back(child);
    else if (name == "trace") traces[child.attribute("id").value()] = child;
    else if (name == "trace_connect") connects.push_back(child);
    collect(child, traces, hosts, connects);
  }
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

}  // namespace ringsim::io
