// `mbdae run`: load, prepare, simulate; stream the sensors to CSV; print a summary.

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <fmt/core.h>

#include <mbdae/io/CsvWriter.h>
#include <mbdae/io/FilePolicy.h>
#include <mbdae/io/PoseRecorder.h>
#include <mbdae/io/ResultMeta.h>
#include <mbdae/io/Run.h>
#include <mbdae/io/StateFile.h>

#include "commands.h"

namespace mbdae::cli {

namespace {

// Lock-free, so a signal handler may set it; the integrators read it between their steps.
std::atomic<bool> g_interrupted{false};
std::atomic<int> g_signal{0};  // the first signal that stopped the run
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free);
extern "C" void on_stop_signal(int sig) {
  int none = 0;
  g_signal.compare_exchange_strong(none, sig);
  g_interrupted = true;
}

/// The signals that stop a run with its results committed under their names: Ctrl-C, SIGTERM
/// (a batch system's time limit), SIGHUP (the terminal closed), SIGQUIT, SIGPIPE (a reader of
/// standard output gone; the summary's write then fails and says so) and SIGUSR1. The exit code
/// is 128 + the signal's number. Installed for the run, the previous handlers restored after.
class StopSignals {
 public:
  StopSignals() {
    g_interrupted = false;
    g_signal = 0;
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < kSignals.size(); ++i) sigaction(kSignals[i], &sa, &previous_[i]);
  }
  ~StopSignals() { restore(); }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
  void restore() {
    if (restored_) return;
    restored_ = true;
    for (size_t i = 0; i < kSignals.size(); ++i) sigaction(kSignals[i], &previous_[i], nullptr);
  }
  static constexpr std::array<int, 6> kSignals{SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1};

 private:
  std::array<struct sigaction, kSignals.size()> previous_{};
  bool restored_ = false;
};

/// The temporary files of runs that did not finish (killed, the machine stopped) beside `csv`:
/// ".STEM-partialPID.EXT" whose process is gone.
std::vector<std::string> abandoned_partials(const std::string& csv) {
  namespace fs = std::filesystem;
  const fs::path p(csv);
  const std::string prefix = "." + p.stem().string() + "-partial", ext = p.extension().string();
  std::vector<std::string> found;
  std::error_code ec;
  const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() <= prefix.size() + ext.size() || name.compare(0, prefix.size(), prefix) != 0 ||
        name.compare(name.size() - ext.size(), ext.size(), ext) != 0)
      continue;
    const std::string pid = name.substr(prefix.size(), name.size() - prefix.size() - ext.size());
    if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) continue;
    const long n = std::strtol(pid.c_str(), nullptr, 10);
    if (n == ::getpid() || (::kill(static_cast<pid_t>(n), 0) == 0 || errno == EPERM)) continue;  // still running
    found.push_back(it->path().string());
  }
  std::sort(found.begin(), found.end());
  return found;
}

/// Beside results.csv: results.meta.json with the units of every column, for the plots.
void write_meta(const std::string& csv, const io::LoadedModel& m, const io::SensorSet& sensors) {
  std::filesystem::path p(csv);
  p.replace_extension(".meta.json");
  std::ofstream out(p);
  if (!out) return;  // the plot falls back to names without units
  out << io::run_meta_json(m, sensors);
}

/// A one-line progress bar on stderr, shown only on a terminal and only after the first second.
class Progress {
 public:
  Progress(double t0, double t_end, bool enabled)
      : t0_(t0), t_end_(t_end), enabled_(enabled && isatty(STDERR_FILENO)), start_(clock::now()) {}
  void update(double t) {
    if (!enabled_) return;
    const auto now = clock::now();
    if (std::chrono::duration<double>(now - start_).count() < 1.0) return;
    if (shown_ && std::chrono::duration<double>(now - last_).count() < 0.1) return;
    last_ = now;
    shown_ = true;
    const double f = std::clamp((t - t0_) / (t_end_ - t0_), 0.0, 1.0);
    const int n = static_cast<int>(f * 30);
    std::fprintf(stderr, "\r[%s%s] %3.0f%%  t = %.4g s ", std::string(static_cast<size_t>(n), '#').c_str(),
                 std::string(static_cast<size_t>(30 - n), ' ').c_str(), 100 * f, t);
    std::fflush(stderr);
  }
  void finish() {
    if (shown_) std::fprintf(stderr, "\r%60s\r", "");
  }

 private:
  using clock = std::chrono::steady_clock;
  double t0_, t_end_;
  bool enabled_;
  bool shown_ = false;
  clock::time_point start_, last_;
};

std::string default_output(const io::LoadedModel& m) {
  if (!m.output.file.empty()) return m.output.file;
  return std::filesystem::path(m.file).stem().string() + ".csv";
}

namespace fs = std::filesystem;

/// True if the path p lies in the folder dir (or below it); both made absolute and normalized.
bool inside(const fs::path& p, const fs::path& dir) {
  std::error_code ec;
  const fs::path rel = fs::weakly_canonical(fs::absolute(p), ec).lexically_relative(fs::weakly_canonical(fs::absolute(dir), ec));
  return !rel.empty() && *rel.begin() != "..";
}

/// The files of a run's results. Each is written under a temporary name in its target folder and
/// renamed to its own when the run ends (success, failure or interruption), so that a reader
/// never sees a half-written file and two runs never interleave their rows; a lock file beside
/// the CSV refuses a second run on the same results while one is going on.
class ResultFiles {
 public:
  explicit ResultFiles(const std::string& csv) : csv_(csv) {
    const fs::path p(csv);
    const std::string tmp = "." + p.stem().string() + "-partial" + std::to_string(::getpid()) + p.extension().string();
    tmp_csv_ = (p.parent_path() / tmp).string();
    lock_ = (p.parent_path() / ("." + p.filename().string() + ".lock")).string();
  }
  ~ResultFiles() { discard(); }
  ResultFiles(const ResultFiles&) = delete;
  ResultFiles& operator=(const ResultFiles&) = delete;

  /// Takes the lock; false (and `why`) if another run holds it or it cannot be made.
  bool lock(std::string& why) {
    lock_fd_ = ::open(lock_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (lock_fd_ < 0) {
      why = "cannot create the lock file '" + lock_ + "': " + std::strerror(errno);
      return false;
    }
    if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
      why = "another run is writing '" + csv_ + "' (it holds '" + lock_ + "'); choose another -o";
      ::close(lock_fd_);
      lock_fd_ = -1;
      return false;
    }
    return true;
  }
  /// The temporary CSV; the pose, scene and meta files follow from it as from the final CSV.
  const std::string& temporary_csv() const { return tmp_csv_; }
  /// Renames every temporary file that exists to its final name; returns the first error.
  std::string commit() {
    std::string error;
    for (const auto& [tmp, final] : pairs()) {
      std::error_code ec;
      if (!fs::exists(tmp, ec)) continue;
      fs::rename(tmp, final, ec);
      if (ec && error.empty()) error = "cannot rename '" + tmp + "' to '" + final + "': " + ec.message();
    }
    unlock();
    return error;
  }

 private:
  std::vector<std::pair<std::string, std::string>> pairs() const {
    auto ext = [](const std::string& path, const char* e) { return fs::path(path).replace_extension(e).string(); };
    return {{tmp_csv_, csv_},
            {ext(tmp_csv_, ".meta.json"), ext(csv_, ".meta.json")},
            {io::pose_path_for(tmp_csv_), io::pose_path_for(csv_)},
            {io::scene_path_for(tmp_csv_), io::scene_path_for(csv_)}};
  }
  void discard() {
    // Only if commit() did not run (an early return): the temporary files go.
    if (lock_fd_ < 0) return;
    for (const auto& pr : pairs()) {
      std::error_code ec;
      fs::remove(pr.first, ec);
    }
    unlock();
  }
  void unlock() {
    if (lock_fd_ < 0) return;
    ::unlink(lock_.c_str());
    ::close(lock_fd_);
    lock_fd_ = -1;
  }
  std::string csv_, tmp_csv_, lock_;
  int lock_fd_ = -1;
};

std::string sci(double x) { return std::isfinite(x) ? fmt::format("{:.3g}", x) : std::string("n/a"); }

}  // namespace

int run_command(const RunOptions& o) {
  const auto wall_start = std::chrono::steady_clock::now();
  auto loaded = load_model(o.model, o.sets);
  if (!loaded) return kBadInput;
  const io::LoadedModel& m = *loaded;

  // Formulation, redundant constraints, consistent initial state, integrator and sensors.
  std::unique_ptr<io::ModelRun> run;
  std::optional<io::RunState> restart;
  if (!o.restart.empty()) {
    try {
      restart = io::read_state_file(o.restart);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "mbdae: %s\n", e.what());
      return kBadInput;
    }
  }
  try {
    run = std::make_unique<io::ModelRun>(m, restart ? &*restart : nullptr);
  } catch (const std::bad_alloc&) {
    throw OutOfMemory("preparing the run of " + m.file + " (" + model_size(m) + ")");
  } catch (const std::exception& e) {
    print_setup_error(m, e);
    return kBadInput;
  }
  if (!o.quiet)
    for (size_t i = 0; i < run->warnings().size(); ++i)
      print_problem(m, {run->warnings()[i], run->warning_items()[i]}, "warning: ");
  const SolverInfo& solver = run->solver();
  const bool implicit = solver.path == SolverPath::Implicit;
  const io::SensorSet& sensors = run->sensors();
  const std::vector<std::string>& columns = sensors.columns();
  const int ncols = static_cast<int>(columns.size());

  const std::string csv_path = o.output.empty() ? default_output(m) : o.output;
  // An output.file written in the model may not reach outside the working folder or the model's
  // folder (a model from elsewhere must not write anywhere it likes).
  if (o.output.empty() && !m.output.file.empty() && !o.output_anywhere &&
      !inside(csv_path, fs::current_path()) && !inside(csv_path, fs::path(o.model).parent_path().empty() ? fs::path(".") : fs::path(o.model).parent_path())) {
    std::fprintf(stderr,
                 "%s: output.file '%s' is outside the working folder and the model's folder; give -o, or "
                 "--allow-output-anywhere\n",
                 m.file.c_str(), csv_path.c_str());
    return kBadInput;
  }
  // Every file written is checked by the one output policy (FilePolicy.h) before any is made.
  {
    auto ext = [&](const char* e) { return fs::path(csv_path).replace_extension(e).string(); };
    std::vector<std::string> outputs{csv_path, ext(".meta.json")};
    if (o.poses) outputs.insert(outputs.end(), {io::pose_path_for(csv_path), io::scene_path_for(csv_path)});
    if (o.animate) outputs.push_back(ext(".html"));
    if (o.plot) outputs.insert(outputs.end(), {ext(".png"), ext(".svg")});
    outputs.push_back(o.save_state);
    std::vector<std::string> inputs = m.input_files;
    inputs.push_back(o.restart);
    inputs.push_back(o.three_js);
    if (!outputs_allowed(outputs, inputs)) return kBadInput;
  }
  ResultFiles files(csv_path);
  std::unique_ptr<io::CsvWriter> csv;
  try {
    const std::filesystem::path parent = std::filesystem::path(csv_path).parent_path();
    if (!parent.empty()) std::filesystem::create_directories(parent);
    std::string why;
    if (!files.lock(why)) {
      std::fprintf(stderr, "mbdae: %s\n", why.c_str());
      return kOtherError;
    }
    // A run killed before it could commit (SIGKILL, a crash of the machine) left its rows under a
    // temporary name: say where, and leave them (they are the only copy).
    for (const std::string& p : abandoned_partials(csv_path))
      std::fprintf(stderr, "mbdae: note: %s holds the rows of an earlier run on %s that did not finish (killed?); "
                   "it is left as it is\n", p.c_str(), csv_path.c_str());
    std::vector<std::string> header{"time"};
    header.insert(header.end(), columns.begin(), columns.end());
    csv = std::make_unique<io::CsvWriter>(files.temporary_csv(), header);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mbdae: %s\n", e.what());
    return kOtherError;
  }
  write_meta(files.temporary_csv(), m, sensors);
  // Body poses and the scene beside the CSV, for `mbdae view` (one frame per CSV row).
  std::unique_ptr<io::PoseRecorder> poses;
  try {
    if (o.poses)
      poses = std::make_unique<io::PoseRecorder>(files.temporary_csv(), run->kinematics(), m.sensors,
                                                 m.system.name.empty() ? m.file : m.system.name);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mbdae: %s\n", e.what());
    return kOtherError;
  }

  // One CSV row per output time; stop on a write error. Ctrl-C is read between steps.
  std::vector<double> row(static_cast<size_t>(ncols + 1));
  std::string write_error;
  Progress progress(restart ? restart->t : 0.0, m.settings.t_end, !o.quiet);
  // --save-state: at the first output time ≥ --save-at, or at the end.
  std::string saved;
  auto save = [&]() {
    try {
      io::write_state_file(o.save_state, run->save_state());
      saved = fmt::format("saved at t = {:.10g} s to {}", run->integrator().time(), o.save_state);
    } catch (const std::exception& e) {
      write_error = e.what();
    }
  };
  const double save_at = o.save_at - 1e-9 * std::abs(m.settings.output_every);
  StopSignals stop_signals;
  const io::RowObserver observer = [&](const StateView& s, std::span<const double> values) {
    row[0] = s.t;
    std::copy(values.begin(), values.end(), row.begin() + 1);
    try {
      csv->write_row(row);
      if (poses) poses->record(s);
    } catch (const std::exception& e) {
      write_error = e.what();
      return false;
    }
    if (!o.save_state.empty() && o.save_at >= 0 && saved.empty() && s.t >= save_at) {
      save();
      if (!write_error.empty()) return false;
    }
    progress.update(s.t);
    return true;
  };

  const SimulationSettings& ss = m.settings;
  SolveResult res;
  try {
    res = run->run(observer, &g_interrupted);
  } catch (const std::exception& e) {
    stop_signals.restore();
    progress.finish();
    const long rows_so_far = csv->rows();
    csv.reset();
    if (poses) {
      try {
        poses->close();
      } catch (const std::exception&) {
      }
    }
    files.commit();  // the rows so far
    if (dynamic_cast<const std::bad_alloc*>(&e)) {
      std::fprintf(stderr, "mbdae: out of memory while running %s at t = %.6g s (%s); %ld rows kept in %s\n",
                   m.file.c_str(), run->integrator().time(), model_size(m).c_str(), rows_so_far, csv_path.c_str());
      return kOutOfMemory;
    }
    std::fprintf(stderr, "mbdae: solver failure: %s\n", e.what());
    return kSolverFailure;
  }
  progress.finish();
  if (!o.save_state.empty() && saved.empty() && write_error.empty()) save();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  const long rows = csv->rows();
  csv.reset();  // closes the file
  if (poses) {
    try {
      poses->close();
    } catch (const std::exception& e) {
      if (write_error.empty()) write_error = e.what();
    }
  }
  if (std::string e = files.commit(); !e.empty() && write_error.empty()) write_error = e;

  // Summary on stdout (none with -q: errors and warnings still go to stderr).
  if (!o.quiet) {
    const SolverStats& st = res.stats;
    fmt::print("model        {} ({})\n", m.system.name.empty() ? "(no name)" : m.system.name, m.file);
    print_placement(m);
    fmt::print("solver       {}\n", run->method_summary());
    fmt::print("status       {} at t = {:g} s of {:g} s\n", to_string(res.status), res.t_reached, ss.t_end);
    if (implicit)
      fmt::print("steps        {} accepted, {} rejected; {} Newton iterations, {} Jacobians, {} factorizations\n",
                 st.steps, st.rejected_steps, st.newton_iterations, st.jacobian_evaluations, st.factorizations);
    // Generalized-α without numerical damping: only weakly stable on index-3 constraints.
    const bool index3 = implicit && ss.solver == SolverType::GeneralizedAlpha && ss.formulation == AlphaFormulation::Index3;
    const bool undamped = index3 && ss.rho_inf >= 0.999;
    if (implicit && st.regularized_steps > 0)
      fmt::print("compliant    {} steps with compliant constraints, taken where Newton failed with the exact ones "
                 "(singular configurations{})\n",
                 st.regularized_steps, undamped ? ", or the growth noted below" : "");
    if (!implicit)
      fmt::print("steps        {} accepted, {} rejected; {} right-hand-side evaluations\n", st.steps,
                 st.rejected_steps, st.residual_evaluations);
    if (const ImpulseStats* pgs = run->impulse_stats())
      fmt::print("contacts     at most {} at once, deepest penetration {} m; PGS {} sweeps in all, at most {} in a "
                 "step, {} step{} at the cap, largest final residual {} m/s\n",
                 pgs->max_contacts, sci(pgs->max_penetration), pgs->total_iterations, pgs->max_iterations,
                 pgs->steps_at_cap, pgs->steps_at_cap == 1 ? "" : "s", sci(pgs->max_residual));
    fmt::print("constraints  max violation {} (position), {} (velocity)\n", sci(st.max_position_violation),
               sci(st.max_velocity_violation));
    const double dE = st.energy_final - st.energy_initial;
    fmt::print("energy       {:.6g} J -> {:.6g} J, change {} J{}\n", st.energy_initial, st.energy_final, sci(dE),
               std::abs(st.energy_initial) > 0 ? fmt::format(" ({} of the initial)", sci(dE / std::abs(st.energy_initial)))
                                               : std::string());
    if (std::isfinite(st.force_work))
      fmt::print("work         {:.6g} J by the loads, motors, user forces and dampers; energy less work changed by {} J\n",
                 st.force_work, sci(dE - st.force_work));
    if (undamped)
      fmt::print("note         rho_inf {:g}: no numerical damping. On index-3 constraints (joints, Euler parameters) "
                 "generalized-alpha is then only weakly stable: the velocity violation and the energy error can grow "
                 "with time; rho_inf < 1 damps them\n",
                 ss.rho_inf);
    // The index-3 form does not impose the velocity constraints: say so when they are visibly off.
    if (index3 && st.max_velocity_violation > 1e-8)
      fmt::print("note         generalized-alpha on the index-3 form imposes the position constraints only; the velocity "
                 "constraints then hold to O(h^2) (here {}). solver.formulation: index2_ggl imposes both\n",
                 sci(st.max_velocity_violation));
    fmt::print("wall time    {:.3f} s (solver {:.3f} s)\n", wall, st.wall_time);
    if (restart) fmt::print("restart      continued from {} at t = {:.10g} s\n", o.restart, restart->t);
    if (!saved.empty()) fmt::print("state        {}\n", saved);
    fmt::print("results      {} ({} rows, {} columns)\n", csv_path, rows, ncols + 1);
    if (poses)
      fmt::print("poses        {} ({} frames of {} bod{}, {} bytes a frame, {:.3g} MB)\n", io::pose_path_for(csv_path),
                 poses->writer().frames(), poses->writer().bodies(), poses->writer().bodies() == 1 ? "y" : "ies",
                 io::pose_frame_bytes(poses->writer().bodies()), static_cast<double>(poses->writer().bytes()) / 1e6);
  }
  // Problems are about the results' own names, not the temporary ones.
  for (size_t at; !write_error.empty() && (at = write_error.find(files.temporary_csv())) != std::string::npos;)
    write_error.replace(at, files.temporary_csv().size(), csv_path);
  int code = kSuccess;
  // A summary that could not be written (a closed pipe, a full disk) is a failed run.
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::fprintf(stderr, "mbdae: cannot write to standard output: %s\n", std::strerror(errno));
    code = kOtherError;
  }
  if (!write_error.empty()) {
    std::fprintf(stderr, "mbdae: %s\n", write_error.c_str());
    code = kOtherError;
  } else if (res.status == SolveStatus::Interrupted) {
    const int sig = g_signal.load() > 0 ? g_signal.load() : SIGINT;
    std::fprintf(stderr, "mbdae: interrupted (%s) at t = %g s; results up to then are in %s\n", strsignal(sig),
                 res.t_reached, csv_path.c_str());
    code = 128 + sig;
  } else if (!res.ok()) {
    // Not located in the file: a joint named in a Newton failure is rarely its cause.
    std::fprintf(stderr, "%s: solver failure (%s): %s\n", m.file.c_str(), to_string(res.status),
                 res.message.c_str());
    std::fprintf(stderr, "mbdae: results up to t = %g s are in %s\n", res.t_reached, csv_path.c_str());
    code = kSolverFailure;
  }
  if (o.animate && rows > 0 && res.status != SolveStatus::Interrupted && poses) {
    ViewOptions vo;
    vo.results = csv_path;
    vo.three_js = o.three_js;
    vo.quiet = o.quiet;
    const int vc = view_command(vo);
    if (vc != kSuccess && code == kSuccess) code = vc;
  }
  if (o.plot && rows > 0 && res.status != SolveStatus::Interrupted) {
    std::filesystem::path prefix(csv_path);
    prefix.replace_extension();
    const int pc = plot_command(csv_path, prefix.string(), true);
    if (pc == 0 && !o.quiet) fmt::print("plot         {}.png, {}.svg\n", prefix.string(), prefix.string());
    else if (code == kSuccess) code = kOtherError;
  }
  return code;
}

}  // namespace mbdae::cli
