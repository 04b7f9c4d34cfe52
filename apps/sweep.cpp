// `mbdae sweep STUDY`: runs the cases of a parameter study in worker processes (all cores by
// default) or across the ranks of an MPI job, writes the result table as cases finish, resumes an
// interrupted study, plots outputs against parameters.

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include <fmt/core.h>

#include <mbdae/io/FilePolicy.h>
#include <mbdae/study/ResultTable.h>

#include "commands.h"
#include "sweep.h"

namespace mbdae::cli {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free);
extern "C" void on_interrupt(int) { g_interrupted = true; }

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string duration_text(double s) {
  if (!std::isfinite(s)) return "?";
  if (s < 100) return fmt::format("{:.0f} s", s);
  if (s < 6000) return fmt::format("{:.0f} min", s / 60);
  return fmt::format("{:.1f} h", s / 3600);
}

/// The processors this process may run on (taskset, cgroups and Slurm allocations respected).
int available_cpus() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  const long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<int>(n) : 1;
}

/// Processor time of this process so far (user and system, all threads; not its children), s.
double process_cpu_time() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

/// 'text' for a POSIX shell.
std::string shell_quote(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+.,/=:[]") ==
                        std::string::npos)
    return s;
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// Writes `text` to `path` through a temporary file and a rename (never half a file).
bool write_file_atomically(const std::string& path, const std::string& text, std::string& error) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) {
      error = "cannot write '" + tmp + "': " + std::strerror(errno);
      return false;
    }
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) error = "cannot rename '" + tmp + "' to '" + path + "': " + ec.message();
  return !ec;
}

}  // namespace

int plot_study(const study::Study& study, const std::string& table, bool quiet) {
  std::vector<std::string> args{find_script("plot_sweep.py"), table, "--output", fs::path(table).replace_extension().string(),
                                "--parameters"};
  for (const study::Parameter& p : study.parameters) args.push_back(p.name);
  args.push_back("--outputs");
  for (const study::Output& o : study.outputs) args.push_back(o.name);
  if (quiet) args.push_back("--quiet");
  if (args[0].empty()) {
    std::fprintf(stderr, "mbdae sweep: cannot find plot_sweep.py\n");
    return kOtherError;
  }
  return run_python("mbdae sweep --plot", args);
}

bool sweep_interrupted() { return g_interrupted.load(); }

void catch_interrupts() {
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a waiting poll() returns at once
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

bool launched_by_mpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"})
    if (std::getenv(v)) return true;
  return false;
}

namespace {
/// The MPI rank the launcher gave this process (before MPI_Init), 0 if none.
int launcher_rank() {
  for (const char* v : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"})
    if (const char* r = std::getenv(v)) return std::atoi(r);
  return 0;
}
}  // namespace

// ---- Coordinator --------------------------------------------------------------------------------

Coordinator::Coordinator(const study::Study& study, const std::vector<study::Case>& cases, std::string table, bool quiet)
    : study_(study), cases_(cases), table_(std::move(table)), quiet_(quiet), rows_(cases.size()) {
  start_ = last_flush_ = last_progress_ = Clock::now();
  tty_ = isatty(STDERR_FILENO);
}

Coordinator::~Coordinator() {
  if (file_) std::fclose(file_);
}

int Coordinator::open(bool resume, bool force) {
  std::error_code ec;
  const bool exists = fs::exists(table_, ec);
  if (exists && !resume && !force) {
    std::fprintf(stderr,
                 "mbdae sweep: %s exists: --resume continues its study (finished cases are kept), --force "
                 "starts again\n",
                 table_.c_str());
    return kBadInput;
  }
  std::string text = study::table_header(study_);
  if (exists && resume) {
    study::TableContents t;
    try {
      t = study::read_table(table_, study_, cases_);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "mbdae sweep: cannot resume: %s\n", e.what());
      return kBadInput;
    }
    for (const study::TableRow& r : t.rows) {
      rows_[static_cast<size_t>(r.id)] = r.line;
      ++counts_[static_cast<int>(r.status)];
      text += r.line;
    }
    done_ = resumed_ = static_cast<long>(t.rows.size());
    if (!quiet_)
      std::fprintf(stderr, "mbdae sweep: resuming %s: %ld of %zu cases done%s\n", table_.c_str(), done_,
                   cases_.size(), t.dropped ? " (a last row cut short is run again)" : "");
  }
  // The table as read back (a row cut short is left out), then appended to.
  const fs::path parent = fs::path(table_).parent_path();
  if (!parent.empty()) fs::create_directories(parent, ec);
  std::string error;
  if (!write_file_atomically(table_, text, error) || !(file_ = std::fopen(table_.c_str(), "a"))) {
    std::fprintf(stderr, "mbdae sweep: %s\n", error.empty() ? (table_ + ": " + std::strerror(errno)).c_str() : error.c_str());
    return kOtherError;
  }
  begin();
  return kSuccess;
}

void Coordinator::begin() {
  start_ = Clock::now();
  cpu_at_begin_ = process_cpu_time();
}

const study::Case* Coordinator::next() {
  while (next_ < cases_.size() && !rows_[next_].empty()) ++next_;
  if (next_ >= cases_.size()) return nullptr;
  return &cases_[next_++];
}

void Coordinator::record(const study::CaseResult& r) {
  if (r.id < 0 || r.id >= static_cast<long>(cases_.size()) || !rows_[static_cast<size_t>(r.id)].empty()) return;
  std::string& row = rows_[static_cast<size_t>(r.id)];
  row = study::table_row(cases_[static_cast<size_t>(r.id)], r);
  if (write_error_.empty() && std::fputs(row.c_str(), file_) < 0) write_error_ = table_ + ": " + std::strerror(errno);
  dirty_ = true;
  ++done_;
  ++run_now_;
  ++counts_[static_cast<int>(r.status)];
  busy_ += r.wall_time;
  load_ += r.load_time;
  setup_ += r.setup_time;
  solve_ += r.solve_time;
  if (r.status != study::CaseStatus::Ok && failures_.size() < 5)
    failures_.push_back(fmt::format("case {}: {}: {}", r.id, study::to_string(r.status), r.message));
  tick();
}

void Coordinator::tick() {
  // Rows reach the file within 0.1 s of their case (and at once when they come slowly).
  if (dirty_ && since(last_flush_) >= 0.1) {
    if (std::fflush(file_) != 0 && write_error_.empty()) write_error_ = table_ + ": " + std::strerror(errno);
    dirty_ = false;
    last_flush_ = Clock::now();
  }
  progress(false);
}

void Coordinator::progress(bool final) {
  if (quiet_) return;
  // On a terminal one line redrawn 4 times a second; in a log a line every 10 s.
  const double every = tty_ ? 0.25 : 10.0;
  if (!final && since(last_progress_) < every) return;
  if (final && !progress_shown_) return;
  last_progress_ = Clock::now();
  const long total = static_cast<long>(cases_.size());
  const long failed = done_ - counts_[static_cast<int>(study::CaseStatus::Ok)];
  const double elapsed = since(start_);
  const double rate = elapsed > 0 ? static_cast<double>(run_now_) / elapsed : 0;
  const std::string line = fmt::format("sweep: {}/{} cases done, {} failed, {:.3g} cases/s, ETA {}", done_, total,
                                       failed, rate,
                                       run_now_ > 0 ? duration_text(static_cast<double>(total - done_) / rate) : "?");
  if (tty_) std::fprintf(stderr, "\r%-78s%s", line.c_str(), final ? "\n" : "");
  else std::fprintf(stderr, "%s\n", line.c_str());
  std::fflush(stderr);
  progress_shown_ = true;
}

int Coordinator::finish(bool interrupted, const std::string& workers) {
  if (file_) {
    if (std::fflush(file_) != 0 && write_error_.empty()) write_error_ = table_ + ": " + std::strerror(errno);
    std::fclose(file_);
    file_ = nullptr;
  }
  progress(true);
  // A complete table is rewritten in case order (rows came in the order cases finished).
  if (all_done() && write_error_.empty()) {
    std::string text = study::table_header(study_);
    for (const std::string& r : rows_) text += r;
    write_file_atomically(table_, text, write_error_);
  }
  const double wall = since(start_);
  const long total = static_cast<long>(cases_.size());
  const double n = static_cast<double>(std::max(run_now_, 1L));
  using S = study::CaseStatus;
  fmt::print("study        {} ({}), {} cases, {}\n", study_.name.empty() ? "(no name)" : study_.name, study_.file,
             total, study::to_string(study_.design));
  fmt::print("model        {}\n", study_.model_file);
  fmt::print("workers      {}\n", workers);
  fmt::print("cases        {} run now, {} from the table; {} ok, {} failed, {} timeout, {} invalid, {} crashed{}\n",
             run_now_, resumed_, counts_[int(S::Ok)], counts_[int(S::Failed)], counts_[int(S::Timeout)],
             counts_[int(S::Invalid)], counts_[int(S::Crashed)],
             all_done() ? "" : fmt::format("; {} not run", total - done_));
  fmt::print("wall time    {:.3f} s, {:.4g} cases/s\n", wall, wall > 0 ? static_cast<double>(run_now_) / wall : 0.0);
  if (run_now_ > 0) {
    fmt::print("per case     {:.3g} s in its worker: load {:.3g} ms, setup {:.3g} ms, run {:.3g} ms\n", busy_ / n,
               1e3 * load_ / n, 1e3 * setup_ / n, 1e3 * solve_ / n);
    // The coordinator's own processor time (its workers not included) while the cases ran: its
    // load per case, the figure of the scaling model in docs/sweeps.md.
    fmt::print("coordinator  {:.3g} ms of processor time to start, then {:.3g} µs per case\n", 1e3 * cpu_at_begin_,
               1e6 * (process_cpu_time() - cpu_at_begin_) / n);
  }
  fmt::print("table        {} ({} rows)\n", table_, done_);
  std::fflush(stdout);
  for (const std::string& f : failures_) std::fprintf(stderr, "mbdae sweep: %s\n", f.c_str());
  if (!write_error_.empty()) {
    std::fprintf(stderr, "mbdae sweep: %s\n", write_error_.c_str());
    return kOtherError;
  }
  if (interrupted) {
    std::fprintf(stderr, "mbdae sweep: interrupted with %ld of %ld cases done; add --resume to go on\n", done_, total);
    return kInterrupted;
  }
  return kSuccess;
}

// ---- the command --------------------------------------------------------------------------------

int sweep_command(const SweepOptions& o) {
  study::Study st;
  try {
    st = study::load_study_file(o.study);
  } catch (const io::LoadError& e) {
    if (launcher_rank() != 0) return kBadInput;  // under MPI every rank reads the study: rank 0 says why
    for (const io::Diagnostic& d : e.diagnostics()) std::fprintf(stderr, "%s\n", d.to_string().c_str());
    std::fprintf(stderr, "mbdae sweep: %zu problem%s\n", e.diagnostics().size(), e.diagnostics().size() == 1 ? "" : "s");
    return kBadInput;
  }
  // Under MPI only rank 0 needs the list: the other ranks get each case in its message.
  const std::vector<study::Case> cases = launched_by_mpi() && launcher_rank() != 0 ? std::vector<study::Case>{} : st.cases();
  if (o.list) {
    for (const study::Case& c : cases) {
      std::string line = fmt::format("{}\tmbdae run {}", c.id, shell_quote(st.model_file));
      for (const io::Override& ov : st.overrides(c)) line += " --set " + shell_quote(ov.key + "=" + ov.value);
      fmt::print("{}\n", line);
    }
    return kSuccess;
  }
  const std::string table = o.table.empty() ? st.default_table() : o.table;
  {
    // The table (and its plots) by the one output policy: never the study, the model or a file
    // the model reads, never a FIFO, device or link.
    std::vector<std::string> inputs{o.study, st.model_file};
    try {
      const io::LoadedModel m = io::load_model_file(st.model_file);
      inputs.insert(inputs.end(), m.input_files.begin(), m.input_files.end());
    } catch (const std::exception&) {
      // A model that does not load fails in every case, which reports it; its file is still an input.
    }
    std::vector<std::string> outputs{table, table + ".tmp"};
    if (o.plot) {
      const std::string prefix = fs::path(table).replace_extension().string();
      outputs.insert(outputs.end(), {prefix + ".png", prefix + ".svg"});
    }
    try {
      io::require_outputs(outputs, inputs);
    } catch (const io::OutputRefused& e) {
      if (launcher_rank() == 0) std::fprintf(stderr, "mbdae sweep: %s\n", e.what());
      return kBadInput;
    }
  }
  std::string series_dir;
  if (o.series || st.series) {
    series_dir = fs::path(table).replace_extension(".series").string();
    std::error_code ec;
    fs::create_directories(series_dir, ec);
    if (ec) {
      std::fprintf(stderr, "mbdae sweep: cannot create %s: %s\n", series_dir.c_str(), ec.message().c_str());
      return kOtherError;
    }
  }
  // A case that does not stop at its limit (a step that never ends) is killed a while after it.
  const double kill_after = st.time_limit > 0 ? st.time_limit + std::max(2.0, 0.5 * st.time_limit) : 0;

  int rc = kSuccess;
  if (launched_by_mpi()) {
#ifdef MBDAE_WITH_MPI
    return sweep_mpi(st, cases, o, table, series_dir, kill_after);  // plots on rank 0
#else
    std::fprintf(stderr,
                 "mbdae sweep: started by an MPI launcher, but this mbdae was built without MPI "
                 "(MBDAE_WITH_MPI=OFF); every rank would run the whole study\n");
    return kBadInput;
#endif
  } else {
    Coordinator co(st, cases, table, o.quiet);
    if (const int open_rc = co.open(o.resume, o.force)) return open_rc;
    const int jobs = static_cast<int>(std::min<long>(o.jobs > 0 ? o.jobs : available_cpus(), std::max(co.remaining(), 1L)));
    bool interrupted = false;
    if (!co.all_done()) {
      catch_interrupts();
      WorkerPool pool(st, jobs, series_dir, kill_after);
      co.begin();
      while (!co.all_done()) {
        if (sweep_interrupted()) {
          interrupted = true;
          pool.kill_all();
          break;
        }
        for (int w = 0; w < pool.size(); ++w)
          if (!pool.busy(w))
            if (const study::Case* c = co.next()) pool.start(w, *c);
        for (const WorkerPool::Finished& f : pool.wait(100)) co.record(f.result);
        co.tick();
      }
    }
    rc = co.finish(interrupted, fmt::format("{} process{} on this machine", jobs, jobs == 1 ? "" : "es"));
    if (interrupted) {
      // The table is closed and the summary written: leave at once rather than free a large
      // study case by case (a million cases took 0.6-0.7 s after the signal). The workers are
      // killed; init reaps them.
      std::fflush(nullptr);
      std::_Exit(rc);
    }
  }
  if (rc == kSuccess && o.plot) rc = plot_study(st, table, o.quiet);
  return rc;
}

}  // namespace mbdae::cli
