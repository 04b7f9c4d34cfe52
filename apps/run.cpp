// `mbdae run`: load, prepare, simulate; stream the sensors to CSV; print a summary.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

#include <fmt/core.h>

#include <mbdae/io/CsvWriter.h>
#include <mbdae/io/PoseRecorder.h>
#include <mbdae/io/Run.h>
#include <mbdae/io/StateFile.h>

#include "commands.h"

namespace mbdae::cli {

namespace {

// Lock-free, so a signal handler may set it; the integrators read it between their steps.
std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free);
extern "C" void on_sigint(int) { g_interrupted = true; }

std::string json_string(const std::string& s) {
  std::string o = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      o.push_back('\\');
      o.push_back(static_cast<char>(c));
    } else if (c < 0x20) {
      o += fmt::format("\\u{:04x}", c);
    } else {
      o.push_back(static_cast<char>(c));
    }
  }
  o.push_back('"');
  return o;
}

/// Beside results.csv: results.meta.json with the units of every column, for the plots.
void write_meta(const std::string& csv, const io::LoadedModel& m, const io::SensorSet& sensors) {
  std::filesystem::path p(csv);
  p.replace_extension(".meta.json");
  std::ofstream out(p);
  if (!out) return;  // the plot falls back to names without units
  out << "{\n  \"model\": " << json_string(m.system.name.empty() ? m.file : m.system.name)
      << ",\n  \"file\": " << json_string(m.file) << ",\n  \"solver\": "
      << json_string(m.solver_name()) << ",\n  \"columns\": [\n"
      << "    {\"name\": \"time\", \"unit\": \"s\", \"sensor\": \"time\", \"output\": \"time\"}";
  for (int c = 0; c < sensors.size(); ++c) {
    const io::SensorSpec& sp = sensors.specs()[static_cast<size_t>(sensors.column_sensor()[static_cast<size_t>(c)])];
    out << ",\n    {\"name\": " << json_string(sensors.columns()[static_cast<size_t>(c)])
        << ", \"unit\": " << json_string(sensors.units()[static_cast<size_t>(c)])
        << ", \"sensor\": " << json_string(sp.name) << ", \"output\": " << json_string(io::to_string(sp.output))
        << "}";
  }
  out << "\n  ]\n}\n";
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
  std::unique_ptr<io::CsvWriter> csv;
  try {
    const std::filesystem::path parent = std::filesystem::path(csv_path).parent_path();
    if (!parent.empty()) std::filesystem::create_directories(parent);
    std::vector<std::string> header{"time"};
    header.insert(header.end(), columns.begin(), columns.end());
    csv = std::make_unique<io::CsvWriter>(csv_path, header);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mbdae: %s\n", e.what());
    return kOtherError;
  }
  write_meta(csv_path, m, sensors);
  // Body poses and the scene beside the CSV, for `mbdae view` (one frame per CSV row).
  std::unique_ptr<io::PoseRecorder> poses;
  try {
    if (o.poses)
      poses = std::make_unique<io::PoseRecorder>(csv_path, run->kinematics(), m.sensors,
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
  g_interrupted = false;
  auto previous_handler = std::signal(SIGINT, on_sigint);
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
    std::signal(SIGINT, previous_handler);
    progress.finish();
    std::fprintf(stderr, "mbdae: solver failure: %s\n", e.what());
    return kSolverFailure;
  }
  std::signal(SIGINT, previous_handler);
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

  // Summary on stdout.
  const SolverStats& st = res.stats;
  fmt::print("model        {} ({})\n", m.system.name.empty() ? "(no name)" : m.system.name, m.file);
  fmt::print("solver       {}\n", run->method_summary());
  fmt::print("status       {} at t = {:g} s of {:g} s\n", to_string(res.status), res.t_reached, ss.t_end);
  if (implicit)
    fmt::print("steps        {} accepted, {} rejected; {} Newton iterations, {} Jacobians, {} factorizations\n",
               st.steps, st.rejected_steps, st.newton_iterations, st.jacobian_evaluations, st.factorizations);
  // Generalized-α without numerical damping: only weakly stable on index-3 constraints.
  const bool undamped = implicit && ss.solver == SolverType::GeneralizedAlpha && ss.rho_inf >= 0.999;
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
  if (undamped)
    fmt::print("note         rho_inf {:g}: no numerical damping. On index-3 constraints (joints, Euler parameters) "
               "generalized-alpha is then only weakly stable: the velocity violation and the energy error can grow "
               "with time; rho_inf < 1 damps them\n",
               ss.rho_inf);
  fmt::print("wall time    {:.3f} s (solver {:.3f} s)\n", wall, st.wall_time);
  if (restart) fmt::print("restart      continued from {} at t = {:.10g} s\n", o.restart, restart->t);
  if (!saved.empty()) fmt::print("state        {}\n", saved);
  fmt::print("results      {} ({} rows, {} columns)\n", csv_path, rows, ncols + 1);
  if (poses)
    fmt::print("poses        {} ({} frames of {} bod{}, {} bytes a frame, {:.3g} MB)\n", poses->writer().path(),
               poses->writer().frames(), poses->writer().bodies(), poses->writer().bodies() == 1 ? "y" : "ies",
               io::pose_frame_bytes(poses->writer().bodies()), static_cast<double>(poses->writer().bytes()) / 1e6);
  std::fflush(stdout);

  int code = kSuccess;
  if (!write_error.empty()) {
    std::fprintf(stderr, "mbdae: %s\n", write_error.c_str());
    code = kOtherError;
  } else if (res.status == SolveStatus::Interrupted) {
    std::fprintf(stderr, "mbdae: interrupted at t = %g s; results up to then are in %s\n", res.t_reached,
                 csv_path.c_str());
    code = kInterrupted;
  } else if (!res.ok()) {
    // Not located in the file: a joint named in a Newton failure is rarely its cause.
    std::fprintf(stderr, "%s: solver failure (%s): %s\n", m.file.c_str(), to_string(res.status),
                 res.message.c_str());
    std::fprintf(stderr, "mbdae: results up to t = %g s are in %s\n", res.t_reached, csv_path.c_str());
    code = kSolverFailure;
  }
  if (o.animate && rows > 0 && code != kInterrupted && poses) {
    ViewOptions vo;
    vo.results = csv_path;
    vo.three_js = o.three_js;
    const int vc = view_command(vo);
    if (vc != kSuccess && code == kSuccess) code = vc;
  }
  if (o.plot && rows > 0 && code != kInterrupted) {
    std::filesystem::path prefix(csv_path);
    prefix.replace_extension();
    const int pc = plot_command(csv_path, prefix.string(), true);
    if (pc == 0) fmt::print("plot         {}.png, {}.svg\n", prefix.string(), prefix.string());
    else if (code == kSuccess) code = kOtherError;
  }
  return code;
}

}  // namespace mbdae::cli
