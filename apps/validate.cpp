// `mbdae validate`: runs the validation suite (validation/include/mbdae/validation/Suite.h) and
// prints one table — case, solver, quantity, reference, result, error, tolerance, norm,
// pass/fail, wall time — optionally also as Markdown and CSV, and work–precision plots through
// scripts/plot_validation.py (python3-matplotlib).

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <spawn.h>
#include <sys/wait.h>

#include <mbdae/solvers/SolverRegistry.h>
#include <mbdae/validation/Suite.h>

#include "commands.h"

extern char** environ;

namespace mbdae::cli {
namespace {

namespace fs = std::filesystem;
namespace vs = mbdae::validation::suite;

bool write_file(const std::string& path, const std::string& text) {
  std::error_code ec;
  const fs::path p(path);
  if (p.has_parent_path()) fs::create_directories(p.parent_path(), ec);
  std::ofstream f(path, std::ios::binary);
  f << text;
  f.close();
  if (!f) {
    std::fprintf(stderr, "mbdae validate: cannot write %s: %s\n", path.c_str(), std::strerror(errno));
    return false;
  }
  return true;
}

/// Output of a command (first line), or "" if it fails.
std::string capture(const std::string& cmd) {
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return {};
  char buf[256];
  std::string out;
  while (std::fgets(buf, sizeof buf, p)) out += buf;
  const int rc = pclose(p);
  if (rc != 0) return {};
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

/// The commit of the source tree this program was built from: `git rev-parse` at run time (the
/// build-time value goes stale after a commit), else the compile-time value, else "unknown".
std::string git_commit() {
  std::string c = capture("git -C '" MBDAE_SOURCE_DIR "' rev-parse --short=12 HEAD 2>/dev/null");
  if (c.empty()) c = MBDAE_GIT_COMMIT;
  return c.empty() ? "unknown" : c;
}

std::string utc_date() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", &tm);
  return buf;
}

int run_plot_script(const std::string& work_csv, const std::string& dir) {
  const std::string script = find_script("plot_validation.py", "MBDAE_VALIDATION_PLOT_SCRIPT");
  if (script.empty()) {
    std::fprintf(stderr, "mbdae validate: cannot find plot_validation.py\n");
    return kOtherError;
  }
  return run_python("mbdae validate", {script, work_csv, "--output-dir", dir});
}

}  // namespace

int validate_command(const ValidateOptions& o) {
  if (o.list) {
    for (const vs::Case& c : vs::registry())
      std::printf("%-28s %-5s %s\n", c.name.c_str(), c.slow ? "slow" : "quick", c.description.c_str());
    return kSuccess;
  }
  if (!find_solver("ida")) {
    std::fprintf(stderr, "mbdae validate: the validation suite needs the ida solver (several of its references are "
                         "IDA runs); this mbdae was built without SUNDIALS IDA (MBDAE_WITH_IDA=OFF)\n");
    return kOtherError;
  }
  // Every file it will write, refused by the output policy (io/FilePolicy.h) before the suite
  // runs: the tables, the plots' folder (a real folder, not a link) and each plot in it.
  std::vector<std::string> outputs{o.markdown, o.csv};
  if (!o.plots.empty()) {
    std::error_code ec;
    const fs::file_status st = fs::symlink_status(o.plots, ec);
    if (fs::is_symlink(st) || (fs::exists(st) && !fs::is_directory(st))) {
      std::fprintf(stderr, "mbdae validate: --plots '%s' is %s; give a folder\n", o.plots.c_str(),
                   fs::is_symlink(st) ? "a symbolic link (not followed)" : "not a folder");
      return kBadInput;
    }
    outputs.push_back((fs::path(o.plots) / "validation_work_precision.csv").string());
    for (const vs::Case& c : vs::registry()) outputs.push_back((fs::path(o.plots) / ("validation_" + c.name + ".png")).string());
  }
  if (!outputs_allowed(outputs, {})) return kBadInput;
  vs::SuiteOptions opt;
  opt.full = o.full;
  opt.names = o.cases;
  opt.jobs = o.jobs;
  if (!o.quiet)
    opt.progress = [](const std::string& name, const std::vector<vs::Row>& rows, double wall) {
      int bad = 0;
      for (const auto& r : rows) bad += !r.pass && !r.known_failure && r.norm != "info";
      std::fprintf(stderr, "  %-28s %3zu rows %s  %7.2f s\n", name.c_str(), rows.size(),
                   bad ? "FAIL" : "ok  ", wall);
    };
  vs::SuiteResult r;
  try {
    r = vs::RunSuite(opt);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "mbdae validate: %s (see mbdae validate --list)\n", e.what());
    return kBadInput;
  }
  std::fputs(vs::FormatText(r).c_str(), stdout);
  std::fflush(stdout);
  std::string selection = o.full ? " --full" : "";
  for (const auto& c : o.cases) selection += " --case " + c;
  bool written = true;
  if (!o.markdown.empty())
    written &= write_file(o.markdown, vs::FormatMarkdown(r, utc_date(), git_commit(), selection));
  if (!o.csv.empty()) written &= write_file(o.csv, vs::FormatCsv(r));
  if (!o.plots.empty()) {
    const std::string work = (fs::path(o.plots) / "validation_work_precision.csv").string();
    written &= write_file(work, vs::FormatWorkCsv(r));
    if (written) written &= run_plot_script(work, o.plots) == kSuccess;
  }
  if (!r.ok()) return kValidationFailure;
  return written ? kSuccess : kOtherError;
}

}  // namespace mbdae::cli
