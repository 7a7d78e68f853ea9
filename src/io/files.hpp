// Files as ringsim writes and names them.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace ringsim::io {

// Writes `text` to `path` so that readers never see half a file and a result reaches the disk
// before it is published: through a temporary file beside it, flushed to the disk (fsync), then
// renamed over it. Only regular files and new paths are replaced that way; a symbolic link is
// followed (the file it names is replaced, the link stays; a link to nothing is refused), and
// what is not a regular file (a character device such as /dev/null, a FIFO, /dev/stdout on a
// pipe) is written through, opened as it is (a FIFO without a reader is refused, never waited
// for). InputError "cannot write '<path>': <reason>" when it cannot be written, nothing left.
// `Durability::rewritable` skips the flush for what is derived again from its inputs whenever it
// is read (a sweep's run configs: each costs a flush, about 4 ms here, in the sweep's one process).
enum class Durability { synced, rewritable };
void write_file_atomically(const std::string& path, const std::string& text,
                           Durability durability = Durability::synced);

// Writes a set of files into the folder `dir` (created when missing) as one: each is written
// and flushed in a staging folder inside `dir`, and only when all are written are they renamed
// into `dir`; a failure leaves none of them (and no staging folder). `files` holds (file name,
// text) pairs, names without '/'. A name that exists in `dir` as something else than a regular
// file (a folder, a link, a FIFO) is refused before anything is written.
void write_file_set(const std::string& dir, const std::vector<std::pair<std::string, std::string>>& files);

// A name (a host's) as a file name that stays inside its folder and is its own: bytes outside
// [A-Za-z0-9._-] and a leading '.' become %XX (upper-case hex), so "../p" is "%2E.%2Fp", "a" and
// "./a" differ, ordinary names are unchanged, and the empty name is "%". The escape is reversible; a name whose escape
// exceeds 200 bytes keeps its first 180 bytes and ends with '~' and 16 hex digits of its FNV-1a
// hash ('~' never appears otherwise), so every file name stays below the 255-byte limit.
std::string file_name_of(const std::string& name);

// One output of a command: a file, or a folder it fills (--traces-dir); `path` empty when the
// output was not asked for.
struct Output {
  std::string what;  // how the user named it ("--out")
  std::string path;
  bool folder = false;
};

// Refuses (InputError, one line) outputs of one command that would write over each other: two
// files that are one, however spelt ("F", "./F", "d/../F", a link to F), or a file that is a
// folder output or lies inside it (the folder's files are its output's own).
void refuse_shared_outputs(const std::vector<Output>& outputs);

// Refuses (InputError "cannot write '<path>': <reason>", one line) an output file that cannot be
// written whatever the run finds: a folder, or a path whose folder does not exist and is not one
// the command creates (`created_folder`, such as --traces-dir, and the folders above it). Called
// before a run, so that its answer is not computed only to be lost (and nothing else of it written).
void refuse_unwritable_output(const std::string& path, const std::string& created_folder = "");

// The last component of a path ("a/b/c.xml" -> "c.xml").
std::string basename_of(const std::string& path);

// A CSV field (RFC 4180): as it is, unless it holds a comma, a quote or a line break; then quoted,
// its quotes doubled ("after:2,5" is one scheme, one field).
std::string csv_field(const std::string& text);

// A list as one CSV field: its items joined by ';', each item itself a CSV field with ';' as
// separator (quoted, quotes doubled, when it holds a ';', a quote or a line break), then the
// whole as a CSV field. Items without those characters read as before ("a;b;c"); Python reads
// the list back with csv.reader([field], delimiter=';').
std::string csv_list_field(const std::vector<std::string>& items);

}  // namespace ringsim::io
