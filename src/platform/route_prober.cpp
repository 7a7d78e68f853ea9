#include "platform/route_prober.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <deque>
#include <stdexcept>
#include <string>

#include <simgrid/s4u.hpp>
#include <xbt/log.h>

#include "io/process.hpp"
#include "platform/simgrid_log.hpp"

XBT_LOG_NEW_DEFAULT_CATEGORY(ringsim_route_prober, "ringsim: asking SimGrid for routes in forked children");

namespace sg4 = simgrid::s4u;

namespace ringsim::platform {
namespace {

// ---- the child: answers go through a buffer that a crash handler still flushes ----

constexpr std::size_t kBufferSize = 1 << 20;
char g_buffer[kBufferSize];
std::size_t g_used = 0;
int g_out = -1;
sg4::Host* g_from = nullptr;  // the pair being asked, for the crash record
sg4::Host* g_to = nullptr;

void write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t k = ::write(fd, data, size);
    if (k < 0) {
      if (errno == EINTR) continue;
      ::_exit(71);
    }
    data += k;
    size -= static_cast<std::size_t>(k);
  }
}

void flush_buffer() {
  write_all(g_out, g_buffer, g_used);
  g_used = 0;
}

void put(const void* data, std::size_t size) {
  if (g_used + size > kBufferSize) flush_buffer();
  std::memcpy(g_buffer + g_used, data, size);
  g_used += size;
}

template <class T>
void put_value(T v) {
  put(&v, sizeof v);
}

// Async-signal-safe: only write() and _exit().
void on_crash(int sig) {
  char record[1 + 2 * sizeof(void*) + sizeof(int)];
  record[0] = 'A';
  std::memcpy(record + 1, &g_from, sizeof(void*));
  std::memcpy(record + 1 + sizeof(void*), &g_to, sizeof(void*));
  std::memcpy(record + 1 + 2 * sizeof(void*), &sig, sizeof(int));
  if (g_used + sizeof record <= kBufferSize) {
    std::memcpy(g_buffer + g_used, record, sizeof record);
    g_used += sizeof record;
  }
  write_all(g_out, g_buffer, g_used);
  ::_exit(70);
}

void become_probe_child(int out_fd) {
  g_out = out_fd;
  g_used = 0;
  // A pipe holds 64 KiB by default: writing the 1 MiB buffer then waits for the parent to read and
  // decode most of it, and the two take turns instead of working at once. A pipe as large as the
  // buffer lets the child go on asking while the parent decodes (a hint: if the system refuses,
  // the answers are the same, only slower).
  ::fcntl(out_fd, F_SETPIPE_SZ, static_cast<int>(kBufferSize));
  struct rlimit no_core {};
  ::setrlimit(RLIMIT_CORE, &no_core);
  for (int sig : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL}) ::signal(sig, on_crash);
  // SimGrid's xbt_assert writes a symbolized backtrace before it aborts unless told no_loc (its
  // --log=no_loc): about 0.1 s of DWARF reading per abort, of which the answer keeps only the
  // CRITICAL line (abort_reason). Where most pairs abort (SimGrid's cloud.xml: Vivaldi zones
  // without coordinates, one child per aborted pair) that is nearly all of the probe's time.
  xbt_log_control_set("no_loc");
}

ProbedRoute ask_simgrid(sg4::Host* from, sg4::Host* to, bool want_links) {
  ProbedRoute r;
  try {
    from->route_to(to, r.links, &r.latency);
    r.routed = !(r.links.empty() && r.latency == 0.0 && from != to);
    if (!r.routed) r.why = "SimGrid has no route from '" + from->get_name() + "' to '" + to->get_name() + "'";
  } catch (const std::exception& e) {
    r.routed = false;
    r.why = e.what();
  }
  if (!want_links) r.links.clear();
  return r;
}

void record_answer(const ProbedRoute& r) {
  if (r.routed) {
    put_value<char>('R');
    put_value<double>(r.latency);
    put_value<std::uint32_t>(static_cast<std::uint32_t>(r.links.size()));
    for (auto* l : r.links) put_value<sg4::Link*>(l);
  } else {
    put_value<char>('N');
    put_value<std::uint32_t>(static_cast<std::uint32_t>(r.why.size()));
    put(r.why.data(), r.why.size());
  }
}

// A child's last record: every question was answered ('E'), and the buffer goes out. Its exit
// status.
int end_answers() {
  put_value<char>('E');
  flush_buffer();
  return 0;
}

// One question asked in a child: the pair is named first, for the crash record if SimGrid aborts.
ProbedRoute ask_and_record(sg4::Host* from, sg4::Host* to, bool want_links) {
  g_from = from;
  g_to = to;
  ProbedRoute r = ask_simgrid(from, to, want_links);
  record_answer(r);
  return r;
}

// ---- the parent ----

bool g_answer_here = false;
// From this many pairs on, two children ask them at once (below, a second fork costs more than it
// saves; split_probes_from changes it).
std::size_t g_split_pairs = std::size_t{1} << 18;

// How a probing child's output ended: its 'E' (the algorithm finished), its 'A' (it died on the
// pair `crash`, by `signal`, if it could say), or neither (it died before saying anything).
struct ChildEnd {
  bool finished = false;
  std::pair<sg4::Host*, sg4::Host*> crash{nullptr, nullptr};
  int signal = 0;
};

// Reads a probing child's answers from `fd` (its pipe, as they arrive, or the file it wrote) and
// hands each complete one to `take` (a record cut by the end of a chunk waits for the next chunk),
// until the child's end or its death.
template <class Take>
ChildEnd read_child_answers(int fd, Take&& take) {
  ChildEnd end;
  bool crashed = false;
  std::string pending;
  char chunk[1 << 16];
  ProbedRoute r;
  for (;;) {
    const ssize_t k = ::read(fd, chunk, sizeof chunk);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) break;
    pending.append(chunk, static_cast<std::size_t>(k));
    std::size_t used = 0;
    auto has = [&](std::size_t bytes) { return used + bytes <= pending.size(); };
    auto get = [&](auto& v) {
      std::memcpy(&v, pending.data() + used, sizeof v);
      used += sizeof v;
    };
    while (!end.finished && !crashed && has(1)) {
      const std::size_t at = used;
      char tag = 0;
      get(tag);
      if (tag == 'E') {
        end.finished = true;
      } else if (tag == 'A') {
        if (!has(2 * sizeof(void*) + sizeof(int))) {
          used = at;
          break;
        }
        get(end.crash.first);
        get(end.crash.second);
        get(end.signal);
        crashed = true;
      } else if (tag == 'R') {
        std::uint32_t count = 0;
        if (!has(sizeof(double) + sizeof count)) {
          used = at;
          break;
        }
        get(r.latency);
        get(count);
        if (!has(count * sizeof(void*))) {
          used = at;
          break;
        }
        r.routed = true;
        r.why.clear();
        r.links.resize(count);
        for (auto& l : r.links) get(l);
        take(r);
      } else if (tag == 'N') {
        std::uint32_t count = 0;
        if (!has(sizeof count)) {
          used = at;
          break;
        }
        get(count);
        if (!has(count)) {
          used = at;
          break;
        }
        r.routed = false;
        r.links.clear();
        r.latency = 0.0;
        r.why.assign(pending.data() + used, count);
        used += count;
        take(r);
      } else {
        throw std::logic_error("route probe: unreadable answer");
      }
    }
    pending.erase(0, used);
  }
  return end;
}

// The answer of the pair a child died asking: "SimGrid aborts", with SimGrid's own last words
// from the children's shared log `err_fd` (emptied for the next child) or the signal.
ProbedRoute aborted_answer(int err_fd, const ChildEnd& end) {
  const std::string said = abort_reason(read_whole_fd(err_fd));
  if (::ftruncate(err_fd, 0) != 0) XBT_WARN("cannot reset the probe's log");
  ::lseek(err_fd, 0, SEEK_SET);  // the next child writes from the start (children share the offset)
  ProbedRoute aborted;
  aborted.why = end.crash.first ? "SimGrid aborts when routing from '" + end.crash.first->get_name() + "' to '" +
                                      end.crash.second->get_name() + "'"
                                : "SimGrid aborts when routing";
  if (!said.empty())
    aborted.why += ": " + said;
  else if (end.signal != 0)
    aborted.why += std::string(" (") + ::strsignal(end.signal) + ")";
  XBT_DEBUG("probe child died: %s", aborted.why.c_str());
  return aborted;
}

// An anonymous file in memory, closed with its holder.
class MemoryFile {
 public:
  explicit MemoryFile(const char* name) : fd_(::memfd_create(name, 0)) {
    if (fd_ < 0) throw std::runtime_error(std::string("route probe: memfd_create: ") + std::strerror(errno));
  }
  ~MemoryFile() { ::close(fd_); }
  MemoryFile(const MemoryFile&) = delete;
  MemoryFile& operator=(const MemoryFile&) = delete;
  int fd() const { return fd_; }

 private:
  int fd_;
};

// The children of one probe, forked one after another (each continues after the pair its
// predecessor died on). They share one memory file for their standard error: SimGrid's CRITICAL
// line and backtrace, kept for the answer of the pair a child died on.
class ProbeChildren {
 public:
  ProbeChildren() : err_("ringsim-route-probe") {
    options_.what = "route probe";
    options_.stderr_fd = err_.fd();
  }
  ProbeChildren(const ProbeChildren&) = delete;
  ProbeChildren& operator=(const ProbeChildren&) = delete;

  // A child that runs `ask` (its exit status) with its answers buffered for the parent and a crash
  // record written on SimGrid's abort. It seals the root zone itself: routes need a sealed root,
  // and sealing there leaves this process free to extend its platform first. Its answers go
  // through a pipe (Child::from_child), or into the file `into` when one is given: then it never
  // waits for the parent, who reads the file once the child has ended.
  io::Child fork(const std::function<int()>& ask, int into = -1) const {
    io::ChildOptions options = options_;
    options.pipe_from_child = into < 0;
    return io::fork_child(
        [&](const io::ChildEnds& ends) {
          become_probe_child(into < 0 ? ends.to_parent : into);
          sg4::Engine::get_instance()->get_netzone_root()->seal();
          return ask();
        },
        options);
  }

  // The answer of the pair the last child died on (see aborted_answer).
  ProbedRoute aborted(const ChildEnd& end) const { return aborted_answer(err_.fd(), end); }

 private:
  MemoryFile err_;
  io::ChildOptions options_;
};

}  // namespace

void answer_routes_here(bool yes) { g_answer_here = yes; }
void split_probes_from(std::size_t pairs) { g_split_pairs = pairs; }

std::size_t run_with_probes(const std::function<void(const RouteProbe&)>& search, bool want_links) {
  std::deque<ProbedRoute> known;  // deque: answers handed out by reference stay put
  std::size_t asked = 0;
  if (g_answer_here) {
    search([&](sg4::Host* from, sg4::Host* to) -> const ProbedRoute& {
      known.push_back(ask_simgrid(from, to, want_links));
      ++asked;
      return known.back();
    });
    return asked;
  }
  const ProbeChildren children;
  for (;;) {
    io::Child child = children.fork([&] {
      std::deque<ProbedRoute> mine;
      std::size_t index = 0;
      try {
        search([&](sg4::Host* from, sg4::Host* to) -> const ProbedRoute& {
          const std::size_t i = index++;
          if (i < known.size()) return known[i];
          mine.push_back(ask_and_record(from, to, want_links));
          return mine.back();
        });
        return end_answers();
      } catch (...) {
        flush_buffer();
        return 72;
      }
    });
    const std::size_t before = known.size();
    const ChildEnd end = read_child_answers(child.from_child(), [&](const ProbedRoute& r) { known.push_back(r); });
    const io::ChildStatus status = child.wait();
    asked += known.size() - before;
    if (end.finished) break;
    if (status.exit_status() == 72)
      throw std::runtime_error("route probe: the probing algorithm failed in the child");
    // The child died asking the next question: that pair's answer is "SimGrid aborts".
    known.push_back(children.aborted(end));
    ++asked;
  }
  std::size_t index = 0;
  search([&](sg4::Host*, sg4::Host*) -> const ProbedRoute& {
    if (index >= known.size()) throw std::logic_error("route probe: the algorithm asked more here than in the child");
    return known[index++];
  });
  return asked;
}

namespace {

// Asks pairs first .. last - 1 (pair_at(x) names pair x), writing the answers for the parent; the
// body of a probing child.
template <class PairAt>
int ask_pairs(std::size_t first, std::size_t last, PairAt& pair_at, bool want_links) {
  for (std::size_t x = first; x < last; ++x) {
    const auto [from, to] = pair_at(x);
    ask_and_record(from, to, want_links);
  }
  return end_answers();
}

// The answers of pairs 0 .. total - 1 (pair_at(x) names pair x), handed to take(x, answer) in
// order. A child that dies on pair x is followed by one that starts at x + 1: the questions are
// fixed in advance, so nothing is asked twice or replayed (run_with_probes replays a search's
// earlier answers in every child, which for a long list of pairs of which many abort, as
// SimGrid's cloud.xml, cost O(aborts x pairs) copies).
//
// A long list is cut in two halves asked at once, SimGrid's routing being most of the probe's
// time (16.7 million routes of a 4096-host fat tree: 10 s in one child): the first half through a
// pipe, handed on as it comes, the second written by its own child into a memory file, read once
// the first half is done. The answers and their order are those of one child.
template <class PairAt>
std::size_t probe_pairs_in_order(std::size_t total, PairAt pair_at, bool want_links,
                                 const std::function<void(std::size_t, const ProbedRoute&)>& take) {
  if (g_answer_here) {
    for (std::size_t x = 0; x < total; ++x) {
      const auto [from, to] = pair_at(x);
      take(x, ask_simgrid(from, to, want_links));
    }
    return total;
  }
  const ProbeChildren children;
  std::size_t next = 0;  // the first pair without an answer
  // Pairs next .. last - 1 through pipes, a child after each that died.
  auto through_pipes = [&](std::size_t last) {
    while (next < last) {
      io::Child child = children.fork([&] { return ask_pairs(next, last, pair_at, want_links); });
      const ChildEnd end = read_child_answers(child.from_child(), [&](const ProbedRoute& r) { take(next++, r); });
      child.wait();
      if (end.finished) break;
      // The child died asking pair `next`: its answer is "SimGrid aborts".
      take(next++, children.aborted(end));
    }
  };
  const std::size_t half = total >= std::max<std::size_t>(g_split_pairs, 2) ? total / 2 : total;
  if (half < total) {
    const MemoryFile file("ringsim-route-answers");
    // Its own log (both halves may die at once); if it dies, the pipes below ask its last pair
    // again and record why, as for any pair.
    const ProbeChildren second_children;
    io::Child second = second_children.fork([&] { return ask_pairs(half, total, pair_at, want_links); }, file.fd());
    through_pipes(half);
    second.wait();
    ::lseek(file.fd(), 0, SEEK_SET);  // the child moved the offset it shares with this process
    read_child_answers(file.fd(), [&](const ProbedRoute& r) { take(next++, r); });
  }
  through_pipes(total);
  return total;
}

}  // namespace

std::size_t probe_ordered_pairs(const std::vector<sg4::Host*>& hosts, bool want_links,
                                const std::function<void(std::size_t, const ProbedRoute&)>& take) {
  const std::size_t n = hosts.size(), total = n > 0 ? n * (n - 1) : 0;
  auto pair_at = [&](std::size_t x) {
    const std::size_t a = x / (n - 1), b = x % (n - 1);
    return std::make_pair(hosts[a], hosts[b < a ? b : b + 1]);
  };
  return probe_pairs_in_order(total, pair_at, want_links, take);
}

std::vector<std::pair<sg4::Host*, sg4::Host*>> ordered_pairs(const std::vector<sg4::Host*>& hosts) {
  std::vector<std::pair<sg4::Host*, sg4::Host*>> pairs;
  const std::size_t n = hosts.size();
  pairs.reserve(n > 0 ? n * (n - 1) : 0);
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = 0; b < n; ++b)
      if (a != b) pairs.emplace_back(hosts[a], hosts[b]);
  return pairs;
}

std::vector<ProbedRoute> probe_routes(const std::vector<std::pair<sg4::Host*, sg4::Host*>>& pairs, bool want_links) {
  std::vector<ProbedRoute> out(pairs.size());
  probe_pairs_in_order(
      pairs.size(), [&](std::size_t x) { return pairs[x]; }, want_links,
      [&](std::size_t x, const ProbedRoute& r) { out[x] = r; });
  return out;
}

}  // namespace ringsim::platform
