// A sweep run elsewhere than by `ringsim run --jobs`: the command lines of its runs for GNU parallel
// (`--list`), and a SLURM array job with its merge step (`--slurm DIR`). Each run is the same
// `ringsim simulate` process `ringsim run` starts; `ringsim run EXPERIMENT --merge` builds the CSVs.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace ringsim::sweep {

// One word for a POSIX shell: as it is when it holds only safe characters, else single-quoted.
std::string shell_word(const std::string& word);

// A command line from its words.
std::string shell_line(const std::vector<std::string>& words);

// Every value the generated scripts and `--list` hold (the experiment's name and file, --out,
// --slurm, the SimGrid options) is a word of one line: a control character (below 0x20, or 0x7f)
// would end a line of commands.txt or results.txt, or a comment, however it is quoted. Refused:
// InputError "<what> '<value>' holds a control character (...)", the value shown escaped.
void refuse_control_characters(const std::string& value, const std::string& what);

struct ClusterRun {
  std::string command;            // the `ringsim simulate` line
  std::filesystem::path result;   // its result.json: a run whose result exists is done
};

// Writes into `dir` (created): commands.txt and results.txt (one run a line), array.sbatch (a SLURM
// array of at most `max_tasks` tasks, each running its runs, skipping those already done),
// merge.sbatch (the merge command) and submit.sh (submits both, the merge after the array).
// Every file is written atomically; paths in them are absolute and shell-quoted, and no value is
// written into a comment.
void write_slurm_job(const std::filesystem::path& dir, const std::string& name, const std::vector<ClusterRun>& runs,
                     const std::string& merge_command, std::size_t max_tasks = 1000);

}  // namespace ringsim::sweep
