// Every platform is read by SimGrid's own loader (Engine::load_platform): ringsim reads back from
// the loaded engine what its planners need. Files SimGrid does not read (.tiers, the 2005 XML) are
// converted to SimGrid XML 4.1 first (io/platform_formats.hpp) and then loaded the same way.
// While SimGrid parses, the routes the file declares are recorded (NetZoneImpl::on_route_creation):
// for a platform of one Full, Floyd or Dijkstra zone they give ringsim's model of it (hosts,
// routers, links in file order; the graph's edges or the explicit routes), which the `free`
// routing mode of the ring planners searches.
#pragma once

#include <cstddef>
#include <map>
#include <unordered_map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <simgrid/forward.h>

#include "io/platform_formats.hpp"
#include "model/platform_graph.hpp"

namespace ringsim::platform {

struct ZoneSummary {
  std::string name;
  std::string kind;   // SimGrid's routing: Full, Floyd, Dijkstra, Cluster, Torus, FatTree, Dragonfly, Star, Vivaldi, Wifi, None
  std::size_t depth = 0;  // 0: the root zone
  std::size_t hosts = 0;  // hosts of this zone itself (not of its children)
  std::size_t children = 0;
};

class LoadedPlatform {
 public:
  // Loads `path` into `engine` (which holds no platform yet). SimGrid's own errors become
  // InputError with its message in one line. The root zone is left open: seal() before routes.
  LoadedPlatform(simgrid::s4u::Engine& engine, const std::string& path);

  // Seals the root zone (needed before Host::route_to). Nothing can be added to it afterwards.
  void seal();
  bool sealed() const { return sealed_; }

  const std::string& path() const { return path_; }
  simgrid::s4u::Engine& engine() const { return *engine_; }
  // Hosts in the order the file creates them.
  const std::vector<simgrid::s4u::Host*>& hosts() const { return hosts_; }
  // Links in the order the file creates them (a split-duplex link counts as its two directions).
  const std::vector<simgrid::s4u::Link*>& links() const { return links_; }
  std::size_t link_index(const simgrid::s4u::Link* l) const;  // in links()
  std::size_t router_count() const { return routers_; }
  const std::vector<ZoneSummary>& zones() const { return zones_; }  // depth-first from the root

  // The platform as ringsim's model when it is one Full, Floyd or Dijkstra zone whose declared
  // routes are all symmetric one-link edges (graph zones) or explicit host routes (Full zone);
  // otherwise nullopt, and why_no_model() says why.
  const std::optional<Platform>& declared() const {
    build_declared();
    return declared_;
  }
  const std::string& why_no_model() const {
    build_declared();
    return why_no_model_;
  }
  // One graph-routed zone (Floyd/Dijkstra) read as a graph: the `free` routing mode applies.
  bool graph_known() const { return declared() && declared()->graph_routed(); }
  // Why the free routing mode does not apply ("" when it does).
  std::string why_no_graph() const;
  // The file's format (SimGrid XML 4.1, or one ringsim converted).
  io::PlatformFormat format() const { return format_; }

  // Whether some host may have a speed profile of its own: the file says speed_file= or
  // <trace_connect (otherwise no host has one, and nobody need ask SimGrid host by host).
  bool may_hold_speed_profiles() const;

  // No route question can abort the process: one Full zone (a missing route is an empty answer
  // there), no host SimGrid cannot route. Other zone kinds and hierarchies may abort (docs/design.md).
  bool routes_cannot_abort() const;

  // Hosts SimGrid cannot route at all, known from their zone (routing="None"; a Vivaldi zone's
  // host without coordinates), with the reason. Asking their routes would abort the process.
  const std::map<const simgrid::s4u::Host*, std::string>& unroutable_hosts() const { return unroutable_; }

 private:
  simgrid::s4u::Engine* engine_;
  std::string path_;
  io::PlatformFormat format_;
  bool sealed_ = false;
  std::vector<simgrid::s4u::Host*> hosts_;
  std::vector<simgrid::s4u::Link*> links_;
  std::unordered_map<const simgrid::s4u::Link*, std::size_t> link_index_;  // asked for every link of millions of routes
  std::size_t routers_ = 0;
  std::vector<ZoneSummary> zones_;
  // A route as the file declares it, recorded while SimGrid parses.
  struct DeclaredRoute {
    const simgrid::kernel::routing::NetPoint* src = nullptr;
    const simgrid::kernel::routing::NetPoint* dst = nullptr;
    bool through_gateways = false;
    bool symmetrical = false;
    std::vector<const simgrid::kernel::resource::StandardLinkImpl*> links;
  };
  // The constructor's steps: SimGrid loads `file`, hosts, links and routes recorded as created;
  // hosts_ and links_ without repeats nor SimGrid's internal links (link_index_ set); zones_ from
  // zone `z` down; unroutable_ and the wifi stations' rate levels.
  void load_recording_creations(const std::string& file);
  void keep_hosts_once();
  void keep_platform_links();
  void summarize_zones(const simgrid::s4u::NetZone* z, std::size_t depth);
  void prepare_host_routing();
  void build_declared() const;
  mutable std::vector<DeclaredRoute> declared_routes_;
  mutable bool declared_built_ = false;
  mutable std::optional<Platform> declared_;
  mutable std::string why_no_model_;
  std::map<const simgrid::s4u::Host*, std::string> unroutable_;
  std::set<const simgrid::kernel::resource::StandardLinkImpl*> split_duplex_parts_;
};

// Adds a loaded link to a model: its name, bandwidth, latency, FATPIPE or else shared (SimGrid's
// wifi and non-linear links are shared in the model).
std::size_t add_loaded_link(Platform& p, const simgrid::s4u::Link* l);

// The process's one engine, for commands that read platforms and simulate nothing (created on the
// first call, without SimGrid options; never destroyed: SimGrid keeps it to the end).
simgrid::s4u::Engine& reading_engine();

// The kind of a zone, in SimGrid's words (see ZoneSummary::kind).
std::string zone_kind(const simgrid::s4u::NetZone* zone);

}  // namespace ringsim::platform
