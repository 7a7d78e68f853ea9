#include "sweep/cluster_scripts.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "io/files.hpp"
#include "model/errors.hpp"

namespace ringsim::sweep {

namespace fs = std::filesystem;

namespace {

bool is_control(char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }

// The value as one printable line: control characters as \n, \t or \xNN.
std::string escaped(const std::string& value) {
  std::string out;
  for (char c : value) {
    if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (is_control(c)) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned char>(c));
      out += hex;
    } else out += c;
  }
  return out;
}

// A SLURM file name pattern naming exactly `path`: '%' starts a replacement symbol there, '%%' is one '%'.
std::string slurm_pattern(const std::string& path) {
  std::string out;
  for (char c : path) out += c == '%' ? std::string("%%") : std::string(1, c);
  return out;
}

void write_script(const fs::path& path, const std::string& text) {
  io::write_file_atomically(path.string(), text);
  if (chmod(path.c_str(), 0755) != 0) throw InputError("cannot make '" + path.string() + "' executable");
}

}  // namespace

std::string shell_word(const std::string& word) {
  const bool safe = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::string("_./:=+-,@%").find(c) != std::string::npos;
  });
  if (safe) return word;
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string shell_line(const std::vector<std::string>& words) {
  std::string line;
  for (const auto& w : words) line += (line.empty() ? "" : " ") + shell_word(w);
  return line;
}

void refuse_control_characters(const std::string& value, const std::string& what) {
  if (std::any_of(value.begin(), value.end(), is_control))
    throw InputError(what + " '" + escaped(value) + "' holds a control character (a newline, a tab, ...): "
                     "it could not be written as one word of a command line");
}

void write_slurm_job(const fs::path& dir_in, const std::string& name, const std::vector<ClusterRun>& runs,
                     const std::string& merge_command, std::size_t max_tasks) {
  const fs::path dir = fs::absolute(dir_in);
  std::error_code error;
  fs::create_directories(dir / "logs", error);
  if (error) throw InputError("cannot create the SLURM job folder '" + dir.string() + "': " + error.message());
  std::ostringstream commands, results;
  for (const auto& r : runs) {
    commands << r.command << '\n';
    results << fs::absolute(r.result).string() << '\n';
  }
  io::write_file_atomically((dir / "commands.txt").string(), commands.str());
  io::write_file_atomically((dir / "results.txt").string(), results.str());
  // SLURM caps array sizes (MaxArraySize, 1001 by default): task k runs runs k, k + tasks, ...
  const std::size_t tasks = std::max<std::size_t>(1, std::min(max_tasks, runs.size()));
  const std::string d = shell_word(dir.string());
  std::ostringstream array;
  array << "#!/bin/bash\n"
        << "#SBATCH --job-name=" << shell_word("ringsim-" + name) << "\n"
        << "#SBATCH --array=1-" << tasks << "\n"
        << "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n"
        << "#SBATCH --output=" << shell_word(slurm_pattern((dir / "logs").string()) + "/task-%a.out") << "\n"
        << "# A ringsim sweep of " << runs.size() << " runs: task k runs lines k, k + " << tasks
        << ", ... of commands.txt;\n# a run whose result.json exists is skipped, so resubmitting resumes.\n"
        << "set -euo pipefail\n"
        << "task=${SLURM_ARRAY_TASK_ID:?run this script with sbatch (or set SLURM_ARRAY_TASK_ID)}\n"
        << "runs=$(wc -l < " << d << "/commands.txt)\n"
        << "for ((line = task; line <= runs; line += " << tasks << ")); do\n"
        << "  result=$(sed -n \"${line}p\" " << d << "/results.txt)\n"
        << "  if [ -s \"$result\" ]; then echo \"run $line: done already\"; continue; fi\n"
        << "  command=$(sed -n \"${line}p\" " << d << "/commands.txt)\n"
        << "  eval \"$command\"\n"
        << "done\n";
  write_script(dir / "array.sbatch", array.str());
  std::ostringstream merge;
  merge << "#!/bin/bash\n"
        << "#SBATCH --job-name=" << shell_word("ringsim-" + name + "-merge") << "\n"
        << "#SBATCH --ntasks=1\n"
        << "#SBATCH --output=" << shell_word(slurm_pattern((dir / "logs" / "merge.out").string())) << "\n"
        << "# Merges the runs into runs.csv, iterations.csv and summary.json (missing runs are reported).\n"
        << "set -euo pipefail\n"
        << merge_command << "\n";
  write_script(dir / "merge.sbatch", merge.str());
  std::ostringstream submit;
  submit << "#!/bin/bash\n"
         << "# Submits the array, then the merge once every task has ended.\n"
         << "set -euo pipefail\n"
         << "job=$(sbatch --parsable " << d << "/array.sbatch)\n"
         << "job=${job%%;*}\n"
         << "sbatch --parsable --dependency=afterany:\"$job\" " << d << "/merge.sbatch\n";
  write_script(dir / "submit.sh", submit.str());
}

}  // namespace ringsim::sweep
