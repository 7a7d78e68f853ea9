#include "io/files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "io/fnv1a.hpp"
#include "model/errors.hpp"

namespace ringsim::io {
namespace {

InputError cannot_write(const std::string& path, const std::string& reason) {
  return InputError("cannot write '" + path + "': " + reason);
}

InputError cannot_write(const std::string& path, int error) { return cannot_write(path, std::strerror(error)); }

// Writes all of `text` to `fd`; the errno of the first failure, or 0.
int write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    done += static_cast<std::size_t>(n);
  }
  return 0;
}

// A new file `path` holding `text`, on the disk (fsync) when this returns if `synced`; removed on
// failure.
void write_new_file_synced(const std::string& path, const std::string& shown, const std::string& text,
                           bool synced = true) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) throw cannot_write(shown, errno);
  int error = write_all(fd, text);
  if (error == 0 && synced && ::fsync(fd) != 0) error = errno;
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error != 0) {
    std::remove(path.c_str());
    throw cannot_write(shown, error);
  }
}

// What is not a regular file, written as it is: a device, a FIFO (refused without a reader: an
// open would wait for one forever), a terminal, /dev/stdout.
void write_through(const std::string& path, const struct stat& st, const std::string& text) {
  if (S_ISDIR(st.st_mode)) throw cannot_write(path, "it is a folder");
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | (S_ISFIFO(st.st_mode) ? O_NONBLOCK : 0));
  if (fd < 0) throw cannot_write(path, errno == ENXIO ? std::string("no process reads this FIFO") : std::strerror(errno));
  if (S_ISFIFO(st.st_mode)) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  int error = write_all(fd, text);
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error != 0) throw cannot_write(path, error);
}

// The file a link names, for write_file_atomically: the path itself when it is no link.
std::string followed_link(const std::string& path) {
  struct stat own {};
  if (::lstat(path.c_str(), &own) != 0 || !S_ISLNK(own.st_mode)) return path;
  char real[PATH_MAX];
  if (::realpath(path.c_str(), real) == nullptr)
    throw cannot_write(path, "it is a symbolic link to a missing file (" + std::string(std::strerror(errno)) + ")");
  return real;
}

// A byte as percent-encoding writes it: %XX, upper-case hex.
std::string percent_byte(unsigned char c) {
  static const char digits[] = "0123456789ABCDEF";
  return std::string{'%', digits[c >> 4], digits[c & 15]};
}

// The bytes file_name_of keeps as they are: portable in file names on every file system.
bool kept_in_file_name(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
         c == '-';
}

// 16 lower-case hex digits.
std::string hex16(std::uint64_t v) {
  static const char digits[] = "0123456789abcdef";
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4) s[static_cast<std::size_t>(i)] = digits[v & 15];
  return s;
}

// The one identity of an output path: absolute, links followed, "." and ".." resolved, no
// trailing '/'.
std::string output_identity(const std::string& path) {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::weakly_canonical(std::filesystem::absolute(path), ec);
  if (ec) p = std::filesystem::absolute(path).lexically_normal();
  if (!p.has_filename() && p.has_relative_path()) p = p.parent_path();  // "d/" is "d"
  return p.string();
}

// A field of a CSV record (RFC 4180) whose separator is among `specials`: quoted, its quotes
// doubled, when it holds one of them.
std::string field_quoted_if(const std::string& text, const char* specials) {
  if (text.find_first_of(specials) == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + '"';
}

// The outermost folder of `dir` that does not exist yet (empty when `dir` exists): what writing
// into `dir` creates, and what a failed write removes again.
std::filesystem::path first_missing_folder(const std::string& dir) {
  std::filesystem::path missing;
  std::error_code ec;
  for (std::filesystem::path p = std::filesystem::absolute(dir).lexically_normal(); p.has_relative_path();
       p = p.parent_path()) {
    if (std::filesystem::exists(p, ec) || ec) break;
    missing = p;
  }
  return missing;
}

// Removes the folders from `dir` up to `outermost` (the ones a failed write had created) while they
// are empty: what another process put there meanwhile stays.
void remove_empty_folders(const std::string& dir, const std::filesystem::path& outermost) {
  if (outermost.empty()) return;
  std::error_code ec;
  for (std::filesystem::path p = std::filesystem::absolute(dir).lexically_normal(); p.has_relative_path();
       p = p.parent_path()) {
    if (p.filename().empty()) continue;  // "dir/" ends with an empty component
    if (!std::filesystem::remove(p, ec) || p == outermost) break;
  }
}

// write_file_set's files, written in a staging folder inside the existing `dir`, then renamed.
void write_set_into(const std::string& dir, const std::vector<std::pair<std::string, std::string>>& files) {
  for (const auto& [name, text] : files) {
    const std::string path = dir + "/" + name;
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
      throw cannot_write(path, "it exists and is not a regular file (ringsim replaces only its own files)");
  }
  std::string staging = dir + "/.ringsim-staging.XXXXXX";
  if (::mkdtemp(staging.data()) == nullptr) throw cannot_write(dir, errno);
  try {
    for (const auto& [name, text] : files) write_new_file_synced(staging + "/" + name, dir + "/" + name, text);
    for (const auto& [name, text] : files)
      if (std::rename((staging + "/" + name).c_str(), (dir + "/" + name).c_str()) != 0)
        throw cannot_write(dir + "/" + name, errno);
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove_all(staging, ignored);
    throw;
  }
  ::rmdir(staging.c_str());
}

}  // namespace

void write_file_atomically(const std::string& path, const std::string& text, Durability durability) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) return write_through(path, st, text);
  const std::string target = followed_link(path);
  // A name of our own: two processes writing the same file never share a temporary.
  const std::string tmp = target + ".tmp." + std::to_string(static_cast<long>(getpid()));
  write_new_file_synced(tmp, path, text, durability == Durability::synced);
  if (std::rename(tmp.c_str(), target.c_str()) != 0) {
    const int error = errno;
    std::remove(tmp.c_str());
    throw cannot_write(path, error);
  }
}

void write_file_set(const std::string& dir, const std::vector<std::pair<std::string, std::string>>& files) {
  const std::filesystem::path created = first_missing_folder(dir);
  std::filesystem::create_directories(dir);
  try {
    write_set_into(dir, files);
  } catch (...) {
    remove_empty_folders(dir, created);
    throw;
  }
}

std::string file_name_of(const std::string& name) {
  if (name.empty()) return "%";  // a lone '%' is no escape of any other name
  std::string escaped;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const auto c = static_cast<unsigned char>(name[i]);
    escaped += kept_in_file_name(c) && !(i == 0 && c == '.') ? std::string(1, name[i]) : percent_byte(c);
  }
  if (escaped.size() <= 200) return escaped;
  std::size_t cut = 180;  // never inside a %XX
  if (escaped[cut - 1] == '%') cut -= 1;
  else if (escaped[cut - 2] == '%') cut -= 2;
  return escaped.substr(0, cut) + "~" + hex16(fnv1a(name));
}

void refuse_shared_outputs(const std::vector<Output>& outputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i)
    for (std::size_t j = 0; j < outputs.size(); ++j) {
      const Output& a = outputs[i];
      const Output& b = outputs[j];
      // Each pair once: two files (or folders) in the order given, a file and a folder as (file, folder).
      if (i == j || a.path.empty() || b.path.empty() || (a.folder && !b.folder) || (i > j && a.folder == b.folder))
        continue;
      const std::string inner = output_identity(a.path), outer = output_identity(b.path);
      if (inner == outer)
        throw InputError(a.what + " '" + a.path + "' and " + b.what + " '" + b.path +
                         "' name one path: each output needs a path of its own");
      if (b.folder && inner.rfind(outer + "/", 0) == 0)
        throw InputError(a.what + " '" + a.path + "' is inside " + b.what + " '" + b.path +
                         "', whose files are that output's: give it a path outside");
    }
}

void refuse_unwritable_output(const std::string& path, const std::string& created_folder) {
  if (path.empty()) return;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw cannot_write(path, "it is a folder");
    return;
  }
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  if (folder.empty()) return;
  const std::string created = created_folder.empty() ? "" : output_identity(created_folder);
  const std::string id = output_identity(folder.string());
  if (!created.empty() && (created == id || created.rfind(id + "/", 0) == 0)) return;  // made before it is written
  if (::stat(folder.c_str(), &st) != 0) throw cannot_write(path, errno);
  if (!S_ISDIR(st.st_mode)) throw cannot_write(path, "'" + folder.string() + "' is not a folder");
}

std::string basename_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string csv_field(const std::string& text) { return field_quoted_if(text, ",\"\r\n"); }

std::string csv_list_field(const std::vector<std::string>& items) {
  std::string list;
  for (std::size_t i = 0; i < items.size(); ++i) list += (i ? ";" : "") + field_quoted_if(items[i], ";\"\r\n");
  return csv_field(list);
}

}  // namespace ringsim::io
