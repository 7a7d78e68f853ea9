#include "cli/run_cli.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

#include "io/process.hpp"

namespace ringsim::cli {

void describe_application(CLI::App& app) {
  app.description(
      "ringsim: data redistribution, ring construction and simulation of iterative applications on "
      "heterogeneous platforms (SimGrid)");
  app.set_version_flag("--version", RINGSIM_VERSION);
  app.require_subcommand(1);
}

int run_cli(CLI::App& app, int argc, char** argv) {
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
    return io::report_failure(std::current_exception());
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

}  // namespace ringsim::cli
