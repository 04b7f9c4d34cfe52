// Where results may be written: the one decision for every command (FilePolicy.h).

#include <mbdae/io/FilePolicy.h>

#include <cerrno>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <sys/stat.h>

namespace mbdae::io {

namespace {

namespace fs = std::filesystem;

const char* kind_of(mode_t m) {
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISSOCK(m)) return "a socket";
  if (S_ISDIR(m)) return "a directory";
  return "not a regular file";
}

std::string normalized(const std::string& p) {
  std::error_code ec;
  fs::path a = fs::absolute(p, ec);
  if (ec) a = p;
  fs::path w = fs::weakly_canonical(a, ec);
  return (ec ? a.lexically_normal() : w).string();
}

}  // namespace

bool same_file(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty()) return false;
  struct stat sa {}, sb {};
  if (::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0)
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  return normalized(a) == normalized(b);
}

std::string output_refusal(const std::string& output, const std::vector<std::string>& inputs) {
  if (output.empty()) return "";
  struct stat s {};
  if (::lstat(output.c_str(), &s) == 0) {
    if (S_ISLNK(s.st_mode)) {
      std::error_code ec;
      const fs::path target = fs::read_symlink(output, ec);
      return "the output '" + output + "' is a symbolic link" + (ec ? std::string() : " to '" + target.string() + "'") +
             "; mbdae does not write through links: give the file's own path or a new name";
    }
    if (!S_ISREG(s.st_mode))
      return "the output '" + output + "' is " + kind_of(s.st_mode) +
             "; mbdae writes results only into regular files (give a file name; write to a scratch file and copy "
             "it if a pipe or device must receive it)";
  } else if (errno != ENOENT && errno != ENOTDIR) {
    return "the output '" + output + "' cannot be examined: " + std::strerror(errno);
  }
  for (const std::string& in : inputs)
    if (same_file(output, in))
      return "the output '" + output + "' would replace the input '" + in + "'; choose another output name";
  return "";
}

void require_outputs(const std::vector<std::string>& outputs, const std::vector<std::string>& inputs) {
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i].empty()) continue;
    if (std::string why = output_refusal(outputs[i], inputs); !why.empty()) throw OutputRefused(why);
    for (size_t j = 0; j < i; ++j)
      if (!outputs[j].empty() && same_file(outputs[i], outputs[j]))
        throw OutputRefused("the outputs '" + outputs[j] + "' and '" + outputs[i] + "' are the same file");
  }
}

namespace {
/// True if `p` lies in the folder `dir` or below it (both resolved: links and '..' followed).
bool inside(const std::string& p, const std::string& dir) {
  const fs::path rel = fs::path(normalized(p)).lexically_relative(normalized(dir.empty() ? "." : dir));
  return !rel.empty() && *rel.begin() != "..";
}
}  // namespace

std::string input_refusal(const std::string& path, const std::string& model_folder, const std::string& as_written) {
  if (inside(path, model_folder)) return "";
  if (const char* allowed = std::getenv("MBDAE_READ_PATHS")) {
    const std::string list = allowed;
    for (size_t b = 0; b <= list.size();) {
      size_t e = list.find(':', b);
      if (e == std::string::npos) e = list.size();
      if (e > b && inside(path, list.substr(b, e - b))) return "";
      b = e + 1;
    }
  }
  return "'" + as_written + "' is outside the model's folder; a model reads files only in its own folder (or in "
         "the folders listed in MBDAE_READ_PATHS)";
}

std::string read_bounded(const std::string& path, size_t max_bytes, const std::string& what) {
  struct stat s {};
  if (::stat(path.c_str(), &s) != 0) throw std::runtime_error(what + ": cannot read (" + std::strerror(errno) + ")");
  if (!S_ISREG(s.st_mode)) throw std::runtime_error(what + ": " + kind_of(s.st_mode) + ", not a file");
  if (static_cast<unsigned long long>(s.st_size) > max_bytes)
    throw std::runtime_error(what + ": " + std::to_string(s.st_size) + " bytes, more than the " +
                             std::to_string(max_bytes) + " read at most");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(what + ": cannot be read (" + std::strerror(errno) + ")");
  std::string text;
  char chunk[1 << 16];
  while (text.size() <= max_bytes && in.read(chunk, sizeof chunk).gcount() > 0)
    text.append(chunk, static_cast<size_t>(in.gcount()));
  if (in.bad()) throw std::runtime_error(what + ": cannot be read");
  if (text.size() > max_bytes)
    throw std::runtime_error(what + ": more than the " + std::to_string(max_bytes) + " bytes read at most");
  return text;
}

}  // namespace mbdae::io
