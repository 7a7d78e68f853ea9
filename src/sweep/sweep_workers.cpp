#include "sweep/sweep_workers.hpp"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>

#include <xbt/log.h>

#include "sweep/run_files.hpp"
#include "io/process.hpp"
#include "sim/ring_simulation.hpp"
#include "platform/simgrid_options.hpp"

namespace ringsim::sweep {
namespace {

// A worker that could not load its platform exits with this status before taking any run.
constexpr int kLoadFailed = 3;

// The platform a run starts from, with what SimGrid was told before loading it (network preset,
// the config's "simgrid" options and log settings); an empty key means "from scratch" (no shared
// load). A traced run loads its own platform: SimGrid opens the trace file when it loads one.
struct LoadKey {
  std::optional<RunConfig> cfg;
  std::string text() const {
    if (!cfg) return {};
    std::string t = std::string(to_string(cfg->network_model)) + '\n' + cfg->platform;
    for (const auto& [name, value] : cfg->simgrid) t += '\n' + name + ':' + value;
    for (const auto& l : cfg->simgrid_log) t += "\nlog " + l;
    return t;
  }
};

bool traced(const RunConfig& cfg) {
  for (const auto& [name, value] : cfg.simgrid)
    if (name == "tracing" && platform::option_is_true(value)) return true;
  return false;
}

LoadKey key_of(const SweepRun& run) {
  try {
    RunConfig cfg = read_simulate_config(run.config);
    if (traced(cfg)) return {};
    return {std::move(cfg)};
  } catch (const std::exception&) {
    return {};  // the run's own child will say what is wrong, in its log
  }
}

void write_all(int fd, const std::string& text) {
  std::size_t at = 0;
  while (at < text.size()) {
    const ssize_t n = write(fd, text.data() + at, text.size() - at);
    if (n <= 0) throw std::runtime_error("pipe closed");
    at += static_cast<std::size_t>(n);
  }
}

// Reads one line ("...\n") from fd; nullopt at end of file.
std::optional<std::string> read_line(int fd, std::string& pending) {
  for (;;) {
    const auto nl = pending.find('\n');
    if (nl != std::string::npos) {
      std::string line = pending.substr(0, nl);
      pending.erase(0, nl + 1);
      return line;
    }
    char buf[64];
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0) return std::nullopt;
    pending.append(buf, static_cast<std::size_t>(n));
  }
}

// What `ringsim simulate CONFIG --no-baseline --out RESULT --iterations-csv ITERATIONS` does, from
// the loaded platform when there is one. Returns the exit status that command would have.
int simulate_run(const SweepRun& run, sim::LoadedSimulation* loaded, const std::vector<std::string>& engine_args) {
  try {
    RunConfig cfg = read_simulate_config(run.config);
    cfg.baseline = false;
    std::optional<RunResult> res;
    if (loaded) {
      res = sim::run_simulation(cfg, *loaded);
    } else {
      io::EngineArgs args(engine_args);
      xbt_log_control_set("xbt_cfg.thres:warning");
      res = sim::run_simulation(cfg, &args.argc, args.argv.data());
    }
    write_simulate_outputs(cfg, *res, 0.0, run.result, run.iterations);
    return 0;
  } catch (...) {
    return io::report_failure(std::current_exception());
  }
}

// Loads the key's platform with standard output and error captured (SimGrid's warnings while
// parsing belong in every run's log, as they would be had each run parsed the file itself).
std::unique_ptr<sim::LoadedSimulation> load(const LoadKey& key, const std::vector<std::string>& engine_args,
                                       std::string& said) {
  std::FILE* capture = std::tmpfile();
  if (!capture) return nullptr;
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  const int saved_out = dup(STDOUT_FILENO), saved_err = dup(STDERR_FILENO);
  dup2(fileno(capture), STDOUT_FILENO);
  dup2(fileno(capture), STDERR_FILENO);
  std::unique_ptr<sim::LoadedSimulation> loaded;
  static io::EngineArgs args(engine_args);  // SimGrid keeps argv for the Engine's lifetime
  try {
    xbt_log_control_set("xbt_cfg.thres:warning");
    loaded = std::make_unique<sim::LoadedSimulation>(*key.cfg, &args.argc, args.argv.data());
  } catch (const std::exception&) {
    loaded.reset();
  }
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  dup2(saved_out, STDOUT_FILENO);
  dup2(saved_err, STDERR_FILENO);
  close(saved_out);
  close(saved_err);
  std::rewind(capture);
  char buf[4096];
  std::size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, capture)) > 0) said.append(buf, n);
  std::fclose(capture);
  return loaded;
}

// A worker's life: load, then one forked child per run index read from `in`, its exit status
// (or 128 + signal) written back to `out`, until `in` closes. Ends the worker (end_child): the
// loaded platform is never torn down.
[[noreturn]] void worker_main(int in, int out, const LoadKey& key, const std::vector<SweepRun>& runs,
                              const std::vector<std::string>& engine_args) {
  std::signal(SIGPIPE, SIG_DFL);
  std::string said;
  std::unique_ptr<sim::LoadedSimulation> loaded;
  if (key.cfg) {
    loaded = load(key, engine_args, said);
    if (!loaded) io::end_child(kLoadFailed);
  }
  std::string pending;
  while (const auto line = read_line(in, pending)) {
    const std::size_t k = std::stoul(*line);
    io::ChildOptions options;
    options.what = "sweep run";
    options.stdout_file = options.stderr_file = runs[k].log;
    options.close_in_child = {in, out};
    int code = 1;
    try {
      code = io::fork_child(
                 [&] {
                   if (!said.empty() && write(STDERR_FILENO, said.data(), said.size()) < 0) return 1;
                   return simulate_run(runs[k], loaded.get(), engine_args);
                 },
                 options)
                 .wait()
                 .exit_status();
    } catch (const std::exception&) {
      code = 1;  // no child
    }
    try {
      write_all(out, std::to_string(code) + "\n");
    } catch (const std::exception&) {
      io::end_child(1);
    }
  }
  io::end_child(0);
}

struct Worker {
  io::Child process;  // its pipes: process.to_child() takes run indices, process.from_child() gives statuses
  std::string key;
  bool busy = false;
  std::size_t run = 0;
  std::string pending;
};

class Pool {
 public:
  Pool(const std::vector<SweepRun>& runs, int jobs, const std::vector<std::string>& engine_args,
       const std::function<void(std::size_t, int)>& done)
      : runs_(runs), jobs_(static_cast<std::size_t>(jobs)), engine_args_(engine_args), done_(done) {}
  ~Pool() {
    for (auto& w : workers_) retire(*w);
  }

  void add(std::size_t k, const LoadKey& key) {
    const std::string text = key.text();
    if (!queues_.count(text)) order_.push_back(text);
    queues_[text].push_back(k);
    keys_.emplace(text, key);
    ++remaining_;
  }

  void run() {
    while (remaining_ > 0) {
      fill();
      wait_for_one();
    }
  }

 private:
  const std::vector<SweepRun>& runs_;
  std::size_t jobs_;
  const std::vector<std::string>& engine_args_;
  const std::function<void(std::size_t, int)>& done_;
  std::map<std::string, std::deque<std::size_t>> queues_;
  std::map<std::string, LoadKey> keys_;
  std::vector<std::string> order_;
  std::vector<std::unique_ptr<Worker>> workers_;
  std::size_t remaining_ = 0;

  std::size_t busy() const {
    std::size_t b = 0;
    for (const auto& w : workers_) b += w->busy;
    return b;
  }

  const std::string* next_key() const {
    for (const auto& k : order_)
      if (!queues_.at(k).empty()) return &k;
    return nullptr;
  }

  // Idle workers take their own platform's runs first; a free slot starts a worker for the next
  // platform with runs waiting, retiring an idle worker whose platform has none left.
  void fill() {
    for (auto& w : workers_)
      if (!w->busy && !queues_[w->key].empty()) give(*w);
    while (busy() < jobs_) {
      const std::string* key = next_key();
      if (!key) return;
      if (workers_.size() >= jobs_) {
        auto idle = std::find_if(workers_.begin(), workers_.end(), [](const auto& w) { return !w->busy; });
        retire(**idle);
        workers_.erase(idle);
      }
      workers_.push_back(start(*key));
      give(*workers_.back());
    }
  }

  std::unique_ptr<Worker> start(const std::string& key) {
    io::ChildOptions options;
    options.what = "sweep";
    options.pipe_to_child = options.pipe_from_child = true;
    for (const auto& w : workers_) {  // other workers' pipes: their ends must close when the parent's do
      options.close_in_child.push_back(w->process.to_child());
      options.close_in_child.push_back(w->process.from_child());
    }
    auto w = std::make_unique<Worker>();
    w->process = io::fork_child(
        [&](const io::ChildEnds& ends) -> int {
          worker_main(ends.from_parent, ends.to_parent, keys_.at(key), runs_, engine_args_);
        },
        options);
    w->key = key;
    return w;
  }

  void give(Worker& w) {
    auto& q = queues_[w.key];
    w.run = q.front();
    q.pop_front();
    w.busy = true;
    try {
      write_all(w.process.to_child(), std::to_string(w.run) + "\n");
    } catch (const std::exception&) {
      // The worker is gone (it failed to load, or was killed): its death is read in wait_for_one.
    }
  }

  io::ChildStatus retire(Worker& w) { return w.process.wait(); }

  void wait_for_one() {
    std::vector<pollfd> fds;
    std::vector<Worker*> who;
    for (auto& w : workers_)
      if (w->busy) {
        fds.push_back({w->process.from_child(), POLLIN, 0});
        who.push_back(w.get());
      }
    if (fds.empty()) return;
    while (poll(fds.data(), fds.size(), -1) < 0) {
      if (errno != EINTR) throw std::runtime_error("poll failed");
    }
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (!fds[i].revents) continue;
      Worker& w = *who[i];
      if (const auto line = read_line(w.process.from_child(), w.pending)) {
        w.busy = false;
        --remaining_;
        int status = 1;
        try {
          status = std::stoi(*line);
        } catch (const std::exception&) {
        }
        if (status == 0 && !std::filesystem::exists(runs_[w.run].result)) status = 1;
        done_(w.run, status);
        continue;
      }
      finish_dead(w);
    }
  }

  // A worker's pipe closed during a run. If it could not load its platform, its runs (this one
  // first) go to workers that simulate from scratch; otherwise the run failed.
  void finish_dead(Worker& w) {
    const io::ChildStatus status = retire(w);
    const std::string key = w.key;
    const std::size_t k = w.run;
    workers_.erase(std::find_if(workers_.begin(), workers_.end(), [&](const auto& p) { return p.get() == &w; }));
    if (status.exit_status() == kLoadFailed && !key.empty()) {
      auto& scratch = queues_[""];
      if (std::find(order_.begin(), order_.end(), "") == order_.end()) order_.insert(order_.begin(), "");
      keys_.emplace("", LoadKey{});
      std::deque<std::size_t> moved{k};
      moved.insert(moved.end(), queues_[key].begin(), queues_[key].end());
      queues_[key].clear();
      scratch.insert(scratch.begin(), moved.begin(), moved.end());
      return;
    }
    --remaining_;
    done_(k, status.signal() ? status.exit_status() : 1);
  }
};

}  // namespace

void run_sweep(const std::vector<SweepRun>& runs, const std::vector<std::size_t>& todo, int jobs,
               const std::vector<std::string>& engine_args, const std::function<void(std::size_t, int)>& done) {
  if (todo.empty()) return;
  // A worker that dies while idle must not kill the sweep when it is given a run.
  const auto previous = std::signal(SIGPIPE, SIG_IGN);
  try {
    Pool pool(runs, jobs, engine_args, done);
    for (const std::size_t k : todo) pool.add(k, key_of(runs[k]));
    pool.run();
  } catch (...) {
    std::signal(SIGPIPE, previous);
    throw;
  }
  std::signal(SIGPIPE, previous);
}

}  // namespace ringsim::sweep
