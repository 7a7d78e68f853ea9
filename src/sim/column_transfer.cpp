#include "sim/column_transfer.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>

#include <simgrid/s4u.hpp>

#include "planners/kpbs/kpbs_planner.hpp"

XBT_LOG_NEW_DEFAULT_CATEGORY(ringsim_column_transfer, "ringsim: columns moved with KPBS schedules");

namespace sg4 = simgrid::s4u;

namespace ringsim::sim {

TransferRoutes transfer_routes(const std::vector<sg4::Host*>& senders, const std::vector<sg4::Host*>& receivers,
                               const ColumnMove& move) {
  TransferRoutes out;
  out.pairs.assign(senders.size(), std::vector<kpbs::PairRoute>(receivers.size()));
  std::map<const sg4::Link*, std::size_t> index;
  for (std::size_t i = 0; i < senders.size(); ++i)
    for (std::size_t j = 0; j < receivers.size(); ++j) {
      kpbs::PairRoute& pr = out.pairs[i][j];
      if (senders[i] == receivers[j] || move.count(i, j) == 0) continue;
      std::vector<sg4::Link*> links;
      double latency = 0.0;
      senders[i]->route_to(receivers[j], links, &latency);
      if (links.empty()) continue;
      pr.used = true;
      pr.rate = INFINITY;
      for (const sg4::Link* l : links) {
        auto [it, fresh] = index.emplace(l, out.capacity.size());
        if (fresh)
          out.capacity.push_back(l->get_sharing_policy() == sg4::Link::SharingPolicy::FATPIPE ? INFINITY
                                                                                              : l->get_bandwidth());
        pr.links.push_back(it->second);
        pr.rate = std::min(pr.rate, l->get_bandwidth());
      }
    }
  return out;
}

ColumnTransfer plan_column_transfer(std::vector<sg4::Host*> senders, std::vector<sg4::Host*> receivers,
                                    ColumnMove move, double column_bytes, std::size_t k, double beta,
                                    const std::string& scheduler) {
  ColumnTransfer t;
  t.senders = std::move(senders);
  t.receivers = std::move(receivers);
  t.move = std::move(move);
  t.column_bytes = column_bytes;
  const TransferRoutes routes = transfer_routes(t.senders, t.receivers, t.move);
  t.local.assign(t.senders.size(), std::vector<bool>(t.receivers.size(), true));
  t.column_time.assign(t.senders.size(), std::vector<double>(t.receivers.size(), 0.0));
  for (std::size_t i = 0; i < t.senders.size(); ++i)
    for (std::size_t j = 0; j < t.receivers.size(); ++j)
      if (routes.pairs[i][j].used) {
        t.local[i][j] = false;
        t.column_time[i][j] = column_bytes / routes.pairs[i][j].rate;
      }
  if (k == 0) k = kpbs::interference_free_concurrency(routes.pairs, routes.capacity);
  // The one-port rule alone never lets more than min(v1, v2) run at once: a larger k means "no limit".
  k = std::min(k, std::max<std::size_t>(1, std::min(t.senders.size(), t.receivers.size())));
  t.instance = kpbs_instance_of(t.move, t.column_time, t.local, k, beta);
  t.schedule = kpbs::plan_kpbs(t.instance, scheduler);
  const KpbsCheck check = t.schedule.kpbs_feasible ? check_kpbs_schedule(t.instance, t.schedule)
                                                   : check_kpbs_conservation(t.instance, t.schedule);
  if (!check.ok) throw std::logic_error("KPBS planner '" + scheduler + "' produced an invalid schedule: " + check.error);
  return t;
}

namespace {

// Columns of each pair arrive in order, one whenever the data sent so far covers it.
class Deliveries {
 public:
  Deliveries(const ColumnTransfer& t, const std::function<void(std::size_t, long)>& deliver)
      : t_(t), deliver_(deliver), sent_(t.senders.size(), std::vector<double>(t.receivers.size(), 0.0)),
        next_(t.senders.size(), std::vector<std::size_t>(t.receivers.size(), 0)) {}

  long deliver_local() {
    long n = 0;
    for (std::size_t i = 0; i < t_.senders.size(); ++i)
      for (std::size_t j = 0; j < t_.receivers.size(); ++j)
        if (t_.local[i][j]) n += release(i, j, t_.move.columns[i][j].size());
    return n;
  }

  void sent(const KpbsComm& c) {
    sent_[c.from][c.to] += c.amount;
    // Relative slack: preempted amounts add up to the entry only up to rounding.
    const double covered = sent_[c.from][c.to] * (1 + 1e-9) / t_.column_time[c.from][c.to];
    const auto whole = static_cast<std::size_t>(std::floor(covered));
    release(c.from, c.to, std::min(whole, t_.move.columns[c.from][c.to].size()));
  }

  long over_network() const {
    long n = 0;
    for (std::size_t i = 0; i < t_.senders.size(); ++i)
      for (std::size_t j = 0; j < t_.receivers.size(); ++j)
        if (!t_.local[i][j]) n += static_cast<long>(next_[i][j]);
    return n;
  }

  void check_complete() const {
    for (std::size_t i = 0; i < t_.senders.size(); ++i)
      for (std::size_t j = 0; j < t_.receivers.size(); ++j)
        if (next_[i][j] != t_.move.columns[i][j].size())
          throw std::logic_error("column transfer lost columns: " +
                                 std::to_string(t_.move.columns[i][j].size() - next_[i][j]) + " of " +
                                 t_.senders[i]->get_name() + " never reached " + t_.receivers[j]->get_name());
  }

 private:
  long release(std::size_t i, std::size_t j, std::size_t upto) {
    long n = 0;
    for (; next_[i][j] < upto; ++next_[i][j], ++n) deliver_(j, t_.move.columns[i][j][next_[i][j]]);
    return n;
  }

  const ColumnTransfer& t_;
  const std::function<void(std::size_t, long)>& deliver_;
  std::vector<std::vector<double>> sent_;
  std::vector<std::vector<std::size_t>> next_;
};

}  // namespace

ColumnTransferTimes play_column_transfer(const ColumnTransfer& t,
                                         const std::function<void(std::size_t receiver, long column)>& deliver) {
  ColumnTransferTimes out;
  out.start = sg4::Engine::get_clock();
  Deliveries deliveries(t, deliver);
  out.columns_local = deliveries.deliver_local();
  const double beta = t.instance.beta;
  for (const auto& step : t.schedule.steps) {
    const double start = sg4::Engine::get_clock();
    if (beta > 0) sg4::this_actor::sleep_for(beta);
    std::vector<sg4::CommPtr> comms;
    std::vector<const KpbsComm*> carried;
    for (const auto& c : step.comms) {
      // amount is time at the pair's full rate: column_bytes per column_time.
      const double bytes = std::max(1.0, std::round(c.amount / t.column_time[c.from][c.to] * t.column_bytes));
      comms.push_back(sg4::Comm::sendto_async(t.senders[c.from], t.receivers[c.to], static_cast<uint64_t>(bytes)));
      carried.push_back(&c);
    }
    while (!comms.empty()) {
      const auto done = static_cast<std::size_t>(sg4::Comm::wait_any(comms));
      deliveries.sent(*carried[done]);
      comms.erase(comms.begin() + static_cast<long>(done));
      carried.erase(carried.begin() + static_cast<long>(done));
    }
    out.step_durations.push_back(sg4::Engine::get_clock() - start);
  }
  deliveries.check_complete();
  out.columns_over_network = deliveries.over_network();
  out.end = sg4::Engine::get_clock();
  XBT_DEBUG("%zu steps, %ld columns over the network, %ld local, %g s", t.schedule.steps.size(),
            out.columns_over_network, out.columns_local, out.end - out.start);
  return out;
}

}  // namespace ringsim::sim
