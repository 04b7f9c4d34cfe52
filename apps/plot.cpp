// `mbdae plot` and `mbdae run --plot`: runs scripts/plot_results.py (python3-matplotlib); the
// scripts are found beside the executable (build tree), in ../share/mbdae (installed), or in the
// source tree this executable was built from.

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "plot.h"

extern char** environ;

namespace mbdae::cli {

namespace {

namespace fs = std::filesystem;

/// Debian's python3 (which has python3-matplotlib) unless MBDAE_PYTHON says otherwise.
std::string find_python() {
  if (const char* env = std::getenv("MBDAE_PYTHON"); env && *env) return env;
  std::error_code ec;
  if (fs::exists("/usr/bin/python3", ec)) return "/usr/bin/python3";
  return "python3";
}

}  // namespace

std::string find_script(const std::string& name, const char* env_override) {
  if (const char* env = env_override ? std::getenv(env_override) : nullptr; env && *env) return env;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  std::vector<fs::path> candidates;
  if (!ec) {
    candidates.push_back(exe.parent_path() / name);
    candidates.push_back(exe.parent_path().parent_path() / "share" / "mbdae" / name);
  }
  candidates.push_back(fs::path(MBDAE_SOURCE_DIR) / "scripts" / name);
  for (const fs::path& p : candidates)
    if (fs::exists(p, ec)) return p.string();
  return {};
}

int run_python(const std::string& who, const std::vector<std::string>& script_and_args) {
  const std::string python = find_python();
  std::vector<std::string> args{python};
  args.insert(args.end(), script_and_args.begin(), script_and_args.end());
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = python.find('/') != std::string::npos
                     ? posix_spawn(&pid, python.c_str(), nullptr, nullptr, argv.data(), environ)
                     : posix_spawnp(&pid, python.c_str(), nullptr, nullptr, argv.data(), environ);
  if (rc != 0) {
    std::fprintf(stderr, "%s: cannot start %s: %s\n", who.c_str(), python.c_str(), std::strerror(rc));
    return kOtherError;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      std::fprintf(stderr, "%s: waitpid: %s\n", who.c_str(), std::strerror(errno));
      return kOtherError;
    }
  }
  // Exit code 2: the script refused its input (a column a file does not have) and said why.
  if (WIFEXITED(status) && WEXITSTATUS(status) == kBadInput) return kBadInput;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "%s: %s %s failed (is python3-matplotlib installed? scripts/setup installs it)\n",
                 who.c_str(), python.c_str(), script_and_args.empty() ? "" : script_and_args[0].c_str());
    return kOtherError;
  }
  return kSuccess;
}

int plot_command(const std::string& csv, const std::string& prefix_in, bool quiet) {
  return plot_command(std::vector<std::string>{csv}, prefix_in, {}, quiet);
}

int plot_command(const std::vector<std::string>& csvs, const std::string& prefix_in,
                 const std::vector<std::string>& columns, bool quiet) {
  std::error_code ec;
  for (const std::string& csv : csvs)
    if (!fs::exists(csv, ec)) {
      std::fprintf(stderr, "mbdae plot: %s: no such file\n", csv.c_str());
      return kBadInput;
    }
  const std::string script = find_script("plot_results.py", "MBDAE_PLOT_SCRIPT");
  if (script.empty()) {
    std::fprintf(stderr, "mbdae plot: cannot find plot_results.py (set MBDAE_PLOT_SCRIPT)\n");
    return kOtherError;
  }
  std::string prefix = prefix_in;
  // Several results: PREFIX.overlay.png beside the first one, so that its own plot stays.
  if (prefix.empty()) prefix = fs::path(csvs.front()).replace_extension().string() + (csvs.size() > 1 ? ".overlay" : "");
  // The PNG and SVG it writes follow the output policy (io/FilePolicy.h): never a device, a FIFO,
  // a symbolic link, the results or their description.
  std::vector<std::string> inputs;
  for (const std::string& csv : csvs) {
    inputs.push_back(csv);
    inputs.push_back(fs::path(csv).replace_extension().string() + ".meta.json");
  }
  if (!outputs_allowed({prefix + ".png", prefix + ".svg"}, inputs)) return kBadInput;
  std::vector<std::string> args{script};
  args.insert(args.end(), csvs.begin(), csvs.end());
  args.insert(args.end(), {"--output", prefix});
  if (!columns.empty()) {
    args.push_back("--columns");
    args.insert(args.end(), columns.begin(), columns.end());
  }
  if (quiet) args.push_back("--quiet");
  return run_python("mbdae plot", args);
}

}  // namespace mbdae::cli
