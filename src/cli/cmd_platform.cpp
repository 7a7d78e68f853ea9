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

#include "cli/command_table.hpp"
#include "cli/commands.hpp"
#include "io/files.hpp"
#include "io/json_input.hpp"
#include "io/legacy_xml_2005.hpp"
#include "io/platform_formats.hpp"
#include "io/platform_xml.hpp"
#include "io/tiers_reader.hpp"
#include "io/units.hpp"
#include "model/errors.hpp"
#include "model/platform_graph.hpp"
#include "model/tiers_generator.hpp"
#include "platform/describe.hpp"
#include "platform/platform_reader.hpp"
#include "platform/ring_platform.hpp"

#include <simgrid/s4u/Engine.hpp>

namespace ringsim::cli {
namespace {

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
    if (!values.empty()) s += " --values " + io::basename_of(values);
    return s;
  }

  MeasuredValues measured_values() const {
    return values.empty() ? embedded_measured_values() : io::read_measured_values(values);
  }
};

// A SimGrid 4.1 platform, loaded by SimGrid, as one zone: its own declaration when it is one
// Full/Floyd/Dijkstra zone, otherwise the routes SimGrid computes between its hosts (a Full zone of
// explicit routes; hosts that cannot reach the others both ways are left out, and said so).
Platform simgrid_platform_as_one_zone(const std::string& path, std::vector<std::string>& left_out) {
  auto& engine = platform::reading_engine();
  platform::LoadedPlatform lp(engine, path);
  lp.seal();
  if (lp.declared()) return *lp.declared();
  auto flat = platform::read_ring_platform(lp, RingRouting::platform, 0);
  left_out = flat.left_out;
  flat.model.zone_name = lp.zones().front().name;
  expand_host_routes(flat.model);  // the XML writer reads explicit routes
  return flat.model;
}

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
    io::refuse_shared_outputs({{"-o", *output == "-" ? "" : *output}, {"--tiers-file", *tiers_file}});
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
      "import", "Convert a Tiers .tiers file, a SimGrid 2005 XML or any SimGrid platform to one zone of SimGrid XML 4.1");
  auto input = std::make_shared<std::string>();
  auto output = std::make_shared<std::string>();
  auto conv = std::make_shared<ConversionOptions>();
  cmd->add_option("FILE", *input, "platform to convert (format recognized by content)")->required();
  cmd->add_option("-o,--output", *output, "platform file to write (SimGrid XML 4.1), - for standard output")->required();
  conv->add_to(cmd);
  cmd->footer(
      "Tiers files become graph platforms the way `platform tiers` does (the options above);\n"
      "2005 files (<cpu power=MFlops>, <network_link bandwidth=MB/s latency=s>, explicit routes)\n"
      "become a Full zone with the same routes; 4.1 files are loaded by SimGrid and rewritten: a platform of one\n"
      "Full/Floyd/Dijkstra zone as declared, any other (clusters, fat trees, nested zones) as a Full zone of the\n"
      "routes SimGrid computes between its hosts.\n");
  auto routing_opt = cmd->get_option("--routing");
  cmd->callback([input, output, conv, routing_opt] {
    const auto format = io::sniff_platform_format(*input);
    Platform p;
    std::string provenance = "ringsim platform import " + io::basename_of(*input);
    std::vector<std::string> left_out;
    if (format == io::PlatformFormat::tiers) {
      const auto graph = io::read_tiers_file(*input);
      p = tiers_to_platform(graph, conv->measured_values(), conv->conversion());
      provenance += conv->describe();
    } else {
      if (conv->tiers_specific_given())
        throw InputError("--seed, --hosts, --host-probability, --prune-routers and --values apply to Tiers files only");
      if (format == io::PlatformFormat::simgrid2005) {
        p = io::read_legacy_platform_2005(*input);
      } else {
        p = simgrid_platform_as_one_zone(*input, left_out);
      }
      if (routing_opt->count()) {
        if (!p.graph_routed()) throw InputError("--routing applies to graph platforms, and '" + *input + "' has explicit routes");
        p.routing = conv->graph_routing();
        provenance += " --routing " + conv->routing;
      }
    }
    write_platform(p, *output, provenance);
    if (*output == "-") return;
    auto out = summary(p, *output);
    out["input_format"] = io::format_name(format);
    if (!left_out.empty()) out["left_out"] = left_out;
    std::cout << out.dump() << '\n';
  });
}

void add_describe_command(CLI::App* platform) {
  auto* cmd = platform->add_subcommand(
      "describe", "Load a platform with SimGrid and describe it (JSON): zones, hosts, links, spreads, reachability");
  auto input = std::make_shared<std::string>();
  auto options = std::make_shared<platform::DescribeOptions>();
  cmd->add_option("FILE", *input, "platform: any file SimGrid loads (XML 4.1), a .tiers file or the 2005 XML")->required();
  cmd->add_option("--pairs", options->max_pairs,
                  "route checks: every ordered host pair when there are at most this many, else a seeded sample "
                  "of this many pairs")
      ->default_val(100000)
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 40));
  cmd->add_option("--seed", options->seed, "seed of the sample of pairs")->default_val(1);
  cmd->add_flag("--timings", options->timings, "add the time taken to load and to check the routes");
  cmd->callback([input, options] { std::cout << platform::describe_platform(*input, *options).dump(2) << '\n'; });
}

}  // namespace

void add_platform_command(CLI::App* platform) {
  platform->require_subcommand(1);
  add_tiers_command(platform);
  add_import_command(platform);
  add_describe_command(platform);
}

}  // namespace ringsim::cli
