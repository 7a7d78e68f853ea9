// Options of the commands that run a config (simulate, traces, run): --max-memory GB, the budget
// that a run's sizes are checked against before anything is allocated (model/run_memory.hpp), and
// --strict, which makes the suspect lines of trace files errors (io/trace_files.hpp).
#pragma once

#include <cmath>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "model/run_memory.hpp"

namespace ringsim::cli {

inline std::shared_ptr<double> add_max_memory_option(CLI::App* cmd) {
  auto gb = std::make_shared<double>(kDefaultMemoryBudgetBytes / 1e9);
  cmd->add_option("--max-memory", *gb,
                  "refuse a run whose sizes would hold more than this many GB (default " +
                      format_bytes(kDefaultMemoryBudgetBytes) + "; 10 bytes per column, see --help)")
      ->check(CLI::Validator(
          [](std::string& text) {
            // A positive, finite number of GB: CLI::Range would let NaN through.
            double v = 0;
            try {
              std::size_t used = 0;
              v = std::stod(text, &used);
              if (used != text.size()) return std::string("'" + text + "' is not a number of GB");
            } catch (const std::exception&) {
              return std::string("'" + text + "' is not a number of GB");
            }
            if (!(v > 0) || !std::isfinite(v)) return std::string("must be a positive number of GB, got '" + text + "'");
            return std::string();
          },
          "GB"));
  return gb;
}

inline std::shared_ptr<bool> add_strict_option(CLI::App* cmd) {
  auto strict = std::make_shared<bool>(false);
  cmd->add_flag("--strict", *strict,
                "refuse (exit 2) trace files with a change past the last iteration or a speed below 0.001 of "
                "the host's peak, instead of one warning line each");
  return strict;
}

}  // namespace ringsim::cli
