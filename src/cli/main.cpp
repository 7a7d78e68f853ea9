#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <stdexcept>

#include <CLI/CLI.hpp>

#include "cli/commands.hpp"
#include "cli/sim_process.hpp"
#include "model/errors.hpp"

int main(int argc, char** argv) {
  CLI::App app{"ringsim: data redistribution, ring construction and simulation of iterative "
               "applications on heterogeneous platforms (SimGrid)"};
  app.set_version_flag("--version", RINGSIM_VERSION);
  app.require_subcommand(1);
  ringsim::cli::add_redistribute_command(app);
  ringsim::cli::add_balance_command(app);
  ringsim::cli::add_simulate_command(app);
  ringsim::cli::add_run_command(app);
  ringsim::cli::add_traces_command(app);
  ringsim::cli::add_bench_command(app);
  ringsim::cli::add_platform_command(app);
  ringsim::cli::add_kpbs_command(app);
  ringsim::cli::add_kpbs_simulate_command(app);
  ringsim::cli::add_ring_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "ringsim: " << e.what() << '\n';
    return 2;
  } catch (...) {
    return ringsim::cli::report_failure(std::current_exception());
  }
  // An answer that cannot be written (a full disk, `> /dev/full`, a closed pipe) is an error, not
  // a silent exit 0: the caller would believe it saved.
  errno = 0;
  std::cout.flush();
  if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout)) {
    const int e = errno;
    std::cerr << "ringsim: error: cannot write the answer to standard output"
              << (e ? std::string(": ") + std::strerror(e) : std::string()) << '\n';
    return 2;
  }
  return 0;
}
