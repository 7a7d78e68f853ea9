// `ringsim platform tiers|import|describe`: Tiers-style platforms, conversions, SimGrid's view.
#include <array>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "io/json_input.hpp"
#include "io/legacy_xml_2005.hpp"
#include "io/platform_xml.hpp"
#include "io/tiers_reader.hpp"
#include "io/units.hpp"
#include "model/errors.hpp"
#include "model/platform.hpp"
#include "model/tiers_generator.hpp"
#include "sim/describe.hpp"

namespace ringsim::cli {
namespace {

enum class FileFormat { simgrid4, simgrid2005, tiers };

// By content: a Tiers file starts with '#' comments or numbers, an XML file with '<'; the root
// element tells the two SimGrid formats apart.
FileFormat sniff_format(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read '" + path + "'");
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  const auto first = head.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
  if (first == std::string::npos) throw InputError("'" + path + "' is empty");
  if (head[first] != '<') return FileFormat::tiers;
  for (auto pos = head.find('<'); pos != std::string::npos; pos = head.find('<', pos + 1)) {
    const char next = pos + 1 < head.size() ? head[pos + 1] : '\0';
    if (next == '?' || next == '!') continue;
    return head.compare(pos + 1, 20, "platform_description") == 0 ? FileFormat::simgrid2005 : FileFormat::simgrid4;
  }
  return FileFormat::simgrid4;  // let the XML reader say what is wrong
}

const char* format_name(FileFormat f) {
  switch (f) {
    case FileFormat::simgrid4: return "SimGrid XML 4.1";
    case FileFormat::simgrid2005: return "SimGrid XML 2005";
    case FileFormat::tiers: return "Tiers";
  }
  return "?";
}

std::string basename_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Options shared by `tiers` and `import`: how a Tiers graph becomes a platform.
struct ConversionOptions {
  std::uint64_t seed = 1;
  double host_probability = 0.7;
  std::size_t hosts = 0;
  bool prune = false;
  std::string routing = "Dijkstra";
  std::string values;
  CLI::Option* hosts_opt = nullptr;
  CLI::Option* probability_opt = nullptr;
  CLI::Option* seed_opt = nullptr;
  CLI::Option* prune_opt = nullptr;
  CLI::Option* values_opt = nullptr;

  void add_to(CLI::App* cmd) {
    seed_opt = cmd->add_option("--seed", seed, "random seed (same seed, same bytes)")->default_val(1);
    probability_opt = cmd->add_option("--host-probability", host_probability,
                                      "each LAN node becomes a host with this probability")
                          ->default_val(0.7);
    hosts_opt = cmd->add_option("--hosts", hosts, "exactly N hosts, chosen uniformly among the LAN nodes");
    hosts_opt->excludes(probability_opt);
    prune_opt = cmd->add_flag("--prune-routers", prune,
                              "drop routers that lead nowhere (repeatedly, routers with at most one link)");
    cmd->add_option("--routing", routing, "zone routing of the written platform: Dijkstra, DijkstraCache or Floyd")
        ->default_val("Dijkstra");
    values_opt = cmd->add_option("--values", values,
                                 "measured values (JSON like platforms/measured_platform_values.json; "
                                 "default: those values, built in)");
  }

  bool tiers_specific_given() const {
    return seed_opt->count() + hosts_opt->count() + probability_opt->count() + prune_opt->count() +
               values_opt->count() > 0;
  }

  TiersConversion conversion() const {
    TiersConversion c;
    c.seed = seed;
    c.host_probability = host_probability;
    if (hosts_opt->count()) c.host_count = hosts;
    c.prune_routers = prune;
    c.routing = graph_routing();
    return c;
  }

  ZoneRouting graph_routing() const {
    const auto r = zone_routing_from_string(routing);
    if (!r || *r == ZoneRouting::full) throw InputError("--routing must be Dijkstra, DijkstraCache or Floyd, got '" + routing + "'");
    return *r;
  }

  // The options as a command-line tail, for the provenance property (never the output paths).
  std::string describe() const {
    std::string s = " --seed " + std::to_string(seed);
    if (hosts_opt->count()) s += " --hosts " + std::to_string(hosts);
    else s += " --host-probability " + io::format_number(host_probability);
    if (prune) s += " --prune-routers";
    if (routing != "Dijkstra") s += " --routing " + routing;
    if (!values.empty()) s += " --values " + basename_of(values);
    return s;
  }

  MeasuredValues measured_values() const {
    return values.empty() ? embedded_measured_values() : io::read_measured_values(values);
  }
};

nlohmann::json summary(const Platform& p, const std::string& output) {
  return {{"output", output},
          {"routing", to_string(p.routing)},
          {"hosts", p.host_count()},
          {"routers", p.router_count()},
          {"links", p.links.size()},
          {"edges", p.edges.size()},
          {"explicit_routes", p.routes.size()}};
}

void write_platform(const Platform& p, const std::string& output, const std::string& provenance) {
  if (output == "-") {
    std::cout << io::format_platform_xml(p, provenance);
    return;
  }
  io::write_platform_xml(p, output, provenance);
}

void add_tiers_command(CLI::App* platform) {
  auto* cmd = platform->add_subcommand(
      "tiers", "Generate a Tiers-style platform (WAN/MAN/LAN hierarchy, measured speeds and links)");
  static const std::array<const char*, 11> names = {"NW", "NM", "NL", "SW", "SM", "SL", "RW", "RM", "RL", "RMW", "RLM"};
  static const std::array<const char*, 11> help = {
      "number of WANs (must be 1)",          "number of MANs per WAN",
      "number of LANs per MAN",              "number of nodes per WAN",
      "number of nodes per MAN",             "number of nodes per LAN",
      "intranetwork redundancy for the WAN", "intranetwork redundancy for MANs",
      "intranetwork redundancy for LANs",    "internetwork redundancy, MAN to WAN",
      "internetwork redundancy, LAN to MAN"};
  auto params = std::make_shared<std::array<int, 11>>();
  for (std::size_t i = 0; i < names.size(); ++i) cmd->add_option(names[i], (*params)[i], help[i])->required();
  auto conv = std::make_shared<ConversionOptions>();
  conv->add_to(cmd);
  auto output = std::make_shared<std::string>();
  auto tiers_file = std::make_shared<std::string>();
  cmd->add_option("-o,--output", *output, "platform file to write (SimGrid XML 4.1), - for standard output")->required();
  cmd->add_option("--tiers-file", *tiers_file, "also write the generated graph as a .tiers file");
  cmd->footer(
      "Example (the parameters of the reference WAN_3.tiers: 185 nodes, about 192 links, about 0.7 x 125 hosts):\n"
      "  ringsim platform tiers 1 5 5 10 10 5 2 1 1 2 1 --seed 1 -o wan3.xml\n"
      "Hosts are named h<id>, routers r<id>, links l<a>-<b> (Tiers node ids). See platforms/README.md.\n");
  cmd->callback([params, conv, output, tiers_file] {
    const auto& v = *params;
    TiersParameters tp;
    tp.nw = v[0], tp.nm = v[1], tp.nl = v[2], tp.sw = v[3], tp.sm = v[4], tp.sl = v[5];
    tp.rw = v[6], tp.rm = v[7], tp.rl = v[8], tp.rmw = v[9], tp.rlm = v[10];
    const auto conversion = conv->conversion();
    const auto graph = generate_tiers_graph(tp, conv->seed);
    const auto generated = tiers_to_platform(graph, conv->measured_values(), conversion);
    std::string command = "ringsim platform tiers";
    for (int x : v) command += " " + std::to_string(x);
    command += conv->describe();
    if (!tiers_file->empty()) io::write_file_atomically(*tiers_file, io::format_tiers(graph));
    write_platform(generated, *output, command);
    if (*output == "-") return;
    auto out = summary(generated, *output);
    out["tiers_nodes"] = graph.nodes.size();
    out["tiers_edges"] = graph.edges.size();
    out["seed"] = conv->seed;
    std::cout << out.dump() << '\n';
  });
}

void add_import_command(CLI::App* platform) {
  auto* cmd = platform->add_subcommand(
      "import", "Convert a Tiers .tiers file, a SimGrid 2005 XML or a SimGrid 4.1 XML to SimGrid XML 4.1");
  auto input = std::make_shared<std::string>();
  auto output = std::make_shared<std::string>();
  auto conv = std::make_shared<ConversionOptions>();
  cmd->add_option("FILE", *input, "platform to convert (format recognized by content)")->required();
  cmd->add_option("-o,--output", *output, "platform file to write (SimGrid XML 4.1), - for standard output")->required();
  conv->add_to(cmd);
  cmd->footer(
      "Tiers files become graph platforms the way `platform tiers` does (the options above);\n"
      "2005 files (<cpu power=MFlops>, <network_link bandwidth=MB/s latency=s>, explicit routes)\n"
      "become a Full zone with the same routes; 4.1 files are read and rewritten.\n");
  auto routing_opt = cmd->get_option("--routing");
  cmd->callback([input, output, conv, routing_opt] {
    const auto format = sniff_format(*input);
    Platform p;
    std::string provenance = "ringsim platform import " + basename_of(*input);
    if (format == FileFormat::tiers) {
      const auto graph = io::read_tiers_file(*input);
      p = tiers_to_platform(graph, conv->measured_values(), conv->conversion());
      provenance += conv->describe();
    } else {
      if (conv->tiers_specific_given())
        throw InputError("--seed, --hosts, --host-probability, --prune-routers and --values apply to Tiers files only");
      p = format == FileFormat::simgrid2005 ? io::read_legacy_platform_2005(*input) : io::read_platform_xml(*input);
      if (routing_opt->count()) {
        if (!p.graph_routed()) throw InputError("--routing applies to graph platforms, and '" + *input + "' has explicit routes");
        p.routing = conv->graph_routing();
        provenance += " --routing " + conv->routing;
      }
    }
    write_platform(p, *output, provenance);
    if (*output == "-") return;
    auto out = summary(p, *output);
    out["input_format"] = format_name(format);
    std::cout << out.dump() << '\n';
  });
}

void add_describe_command(CLI::App* platform) {
  auto* cmd = platform->add_subcommand(
      "describe", "Load a SimGrid XML 4.1 platform in SimGrid and describe it (JSON); checks that all hosts are connected");
  auto input = std::make_shared<std::string>();
  auto options = std::make_shared<sim::DescribeOptions>();
  cmd->add_option("FILE", *input, "SimGrid XML 4.1 platform")->required();
  cmd->add_flag("--via-model", options->via_model,
                "build the platform through the S4U API from ringsim's reading, instead of SimGrid's parser");
  cmd->add_flag("--timings", options->timings, "add the time taken to read, load and check the routes");
  cmd->callback([input, options] {
    const auto format = sniff_format(*input);
    if (format != FileFormat::simgrid4)
      throw InputError("'" + *input + "' is a " + format_name(format) +
                       " file: convert it first with 'ringsim platform import'");
    std::cout << sim::describe_platform(*input, *options).dump(2) << '\n';
  });
}

}  // namespace

void add_platform_command(CLI::App& app) {
  auto* platform = app.add_subcommand("platform", "Generate (Tiers-style), import and describe SimGrid platforms");
  platform->require_subcommand(1);
  add_tiers_command(platform);
  add_import_command(platform);
  add_describe_command(platform);
}

}  // namespace ringsim::cli
