// `mbdae run`: load, prepare, simulate; stream the sensors to CSV; print a summary.

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <unistd.h>

#include <fmt/core.h>

#include <mbdae/formulations/LieGroupBodies.h>
#include <mbdae/formulations/NewtonEuler.h>
#include <mbdae/io/CsvWriter.h>
#include <mbdae/io/PoseRecorder.h>
#include <mbdae/io/Sensors.h>
#include <mbdae/solvers/Explicit.h>
#include <mbdae/solvers/ImpulseStepper.h>
#include <mbdae/solvers/Simulation.h>

#include "commands.h"

namespace mbdae::cli {

namespace {

volatile std::sig_atomic_t g_interrupted = 0;
extern "C" void on_sigint(int) { g_interrupted = 1; }

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
template <class Sensors>
void write_meta(const std::string& csv, const io::LoadedModel& m, const Sensors& sensors) {
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

/// The explicit and impulse paths: the formulation, its initial state and its sensors.
struct ExplicitRun {
  std::unique_ptr<NewtonEulerSystem> ne;
  std::unique_ptr<LieGroupBodies> lg;
  LieGroupState s0;
  VecX q0, v0;
  std::unique_ptr<io::ExplicitSensorSet> sensors;
  ImpulseStats pgs;
};

int run_command(const RunOptions& o) {
  const auto wall_start = std::chrono::steady_clock::now();
  auto loaded = load_model(o.model, o.sets);
  if (!loaded) return kBadInput;
  const io::LoadedModel& m = *loaded;
  const io::SolverKind kind = m.explicit_settings.kind;
  const bool implicit = kind == io::SolverKind::Implicit;

  // Formulation, redundant constraints, consistent initial state.
  PreparedSystem prep;
  ExplicitRun ex;
  std::unique_ptr<io::SensorSet> sensors;
  try {
    if (implicit) {
      prep = prepare(m.system, 0.0);
    } else {
      ex.ne = std::make_unique<NewtonEulerSystem>(m.system);
      if (kind == io::SolverKind::LieRK4) {
        ex.lg = std::make_unique<LieGroupBodies>(m.system);
        ex.s0 = ex.lg->initial_state();
        ex.lg->to_coordinates(ex.s0, ex.q0, ex.v0);
      } else {
        ex.ne->initial_state(ex.q0, ex.v0);
        if (ex.ne->num_joint_rows() > 0) {
          // The joints hold at the acceleration level only: start on them.
          VecX c;
          ex.ne->joint_violation(ex.q0, c);
          const double before = c.cwiseAbs().maxCoeff();
          const VecX q_given = ex.q0;
          const double after = ex.ne->project_positions(ex.q0, 1e-12, 50);
          ex.ne->project_velocities(ex.q0, ex.v0);
          if (!(after <= 1e-8))
            throw std::runtime_error(fmt::format("the initial positions cannot satisfy the joints: max |C| {:.3g} -> "
                                                 "{:.3g} after projection",
                                                 before, after));
          if (!o.quiet && (ex.q0 - q_given).norm() > 1e-6)
            print_located(m, fmt::format("the initial positions were moved by |dq| = {:.3g} to close the joints "
                                         "(max |C| {:.3g} -> {:.3g})",
                                         (ex.q0 - q_given).norm(), before, after),
                          "warning: ");
        }
      }
    }
  } catch (const ModelError& e) {
    for (const std::string& p : e.problems()) print_located(m, p, "");
    return kBadInput;
  } catch (const std::exception& e) {
    print_located(m, e.what(), "");
    return kBadInput;
  }
  if (!o.quiet)
    for (const std::string& w : prep.warnings) print_located(m, w, "warning: ");

  try {
    if (implicit)
      sensors = std::make_unique<io::SensorSet>(m.sensors, *prep.system, prep.q0);
    else
      ex.sensors = std::make_unique<io::ExplicitSensorSet>(
          m.sensors, *ex.ne,
          ex.lg ? io::ExplicitSensorSet::Layout::LieGroup : io::ExplicitSensorSet::Layout::NewtonEuler, ex.q0);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", m.file.c_str(), e.what());
    return kBadInput;
  }
  const std::vector<std::string>& columns = implicit ? sensors->columns() : ex.sensors->columns();
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
  if (implicit) write_meta(csv_path, m, *sensors);
  else write_meta(csv_path, m, *ex.sensors);
  // Body poses and the scene beside the CSV, for `mbdae view` (one frame per CSV row).
  std::unique_ptr<io::PoseRecorder> poses;
  try {
    const std::string model_name = m.system.name.empty() ? m.file : m.system.name;
    const auto layout = ex.lg ? io::ExplicitSensorSet::Layout::LieGroup : io::ExplicitSensorSet::Layout::NewtonEuler;
    if (o.poses)
      poses = implicit ? std::make_unique<io::PoseRecorder>(csv_path, *prep.system, m.sensors, model_name)
                       : std::make_unique<io::PoseRecorder>(csv_path, *ex.ne, layout, m.sensors, model_name);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mbdae: %s\n", e.what());
    return kOtherError;
  }

  // Observer: one CSV row per output time; stop on Ctrl-C or a write error.
  std::vector<double> row(static_cast<size_t>(ncols + 1));
  std::string write_error;
  Progress progress(0.0, m.settings.t_end, !o.quiet);
  g_interrupted = 0;
  auto previous_handler = std::signal(SIGINT, on_sigint);
  const Observer observer = [&](const StateView& s) {
    row[0] = s.t;
    if (implicit) sensors->evaluate(s, std::span<double>(row).subspan(1));
    else ex.sensors->evaluate(s, std::span<double>(row).subspan(1));
    try {
      csv->write_row(row);
      if (poses) poses->record(s);
    } catch (const std::exception& e) {
      write_error = e.what();
      return false;
    }
    progress.update(s.t);
    return g_interrupted == 0;  // the row of this time is written before an interrupt stops the run
  };

  const SimulationSettings& ss = m.settings;
  SolveResult res;
  try {
    switch (kind) {
      case io::SolverKind::Implicit:
        res = simulate(*prep.system, 0.0, prep.q0, prep.v0, m.settings, observer);
        break;
      case io::SolverKind::RK4:
      case io::SolverKind::Dopri5: {
        ExplicitOptions eo;
        eo.method = kind == io::SolverKind::RK4 ? ExplicitMethod::RK4 : ExplicitMethod::Dopri5;
        eo.t_end = ss.t_end;
        eo.step = ss.step;
        eo.output_every = ss.output_every;
        eo.rtol = ss.rtol;
        eo.atol = ss.atol;
        const bool project = m.explicit_settings.projection && ex.ne->num_joint_rows() > 0;
        eo.project_positions = project;
        eo.project_velocities = project;
        res = solve_explicit(*ex.ne, 0.0, ex.q0, ex.v0, eo, observer);
        break;
      }
      case io::SolverKind::LieRK4: {
        LieGroupOptions lo;
        lo.method = LieGroupMethod::RK4;
        lo.t_end = ss.t_end;
        lo.step = ss.step;
        lo.output_every = ss.output_every;
        res = solve_lie_group(*ex.lg, 0.0, ex.s0, lo, observer);
        break;
      }
      case io::SolverKind::Impulse: {
        ImpulseOptions io_;
        io_.t_end = ss.t_end;
        io_.step = ss.step;
        io_.output_every = ss.output_every;
        io_.pgs_max_iterations = m.explicit_settings.pgs_iterations;
        io_.pgs_tolerance = m.explicit_settings.pgs_tolerance;
        io_.friction = m.explicit_settings.friction_cone ? FrictionModel::Cone : FrictionModel::Pyramid;
        io_.record_per_step = false;
        ImpulseResult ir = solve_impulse(*ex.ne, 0.0, ex.q0, ex.v0, io_, observer);
        res = std::move(ir.result);
        ex.pgs = std::move(ir.pgs);
        break;
      }
    }
  } catch (const SolverSettingsError& e) {
    std::signal(SIGINT, previous_handler);
    progress.finish();
    std::fprintf(stderr, "%s: solver settings: %s\n", m.file.c_str(), e.what());
    return kBadInput;
  } catch (const ModelError& e) {
    std::signal(SIGINT, previous_handler);
    progress.finish();
    for (const std::string& p : e.problems()) print_located(m, p, "");
    return kBadInput;
  } catch (const std::exception& e) {
    std::signal(SIGINT, previous_handler);
    progress.finish();
    std::fprintf(stderr, "mbdae: solver failure: %s\n", e.what());
    return kSolverFailure;
  }
  std::signal(SIGINT, previous_handler);
  progress.finish();
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
  std::string method = m.solver_name();
  if (implicit && ss.solver == SolverType::Ida)
    method += fmt::format(", rtol {:g}, atol {:g}, {}", ss.rtol, ss.atol, ss.sparse ? "sparse" : "dense");
  else if (implicit && ss.adaptive)
    method += fmt::format(", adaptive, first h = {:g} s, rtol {:g}, atol {:g}", ss.step, ss.rtol, ss.atol) +
              (ss.solver == SolverType::GeneralizedAlpha ? fmt::format(", rho_inf {:g}", ss.rho_inf) : "");
  else if (implicit)
    method += fmt::format(", h = {:g} s", ss.step) +
              (ss.solver == SolverType::GeneralizedAlpha ? fmt::format(", rho_inf {:g}", ss.rho_inf) : "");
  else if (kind == io::SolverKind::Dopri5)
    method += fmt::format(", first h = {:g} s, rtol {:g}, atol {:g}", ss.step, ss.rtol, ss.atol);
  else
    method += fmt::format(", h = {:g} s", ss.step);
  if ((kind == io::SolverKind::RK4 || kind == io::SolverKind::Dopri5) && ex.ne->num_joint_rows() > 0)
    method += m.explicit_settings.projection ? ", joints projected after every step" : ", joints not projected";
  fmt::print("model        {} ({})\n", m.system.name.empty() ? "(no name)" : m.system.name, m.file);
  fmt::print("solver       {}\n", method);
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
  if (kind == io::SolverKind::Impulse)
    fmt::print("contacts     at most {} at once, deepest penetration {} m; PGS {} sweeps in all, at most {} in a "
               "step, {} step{} at the cap, largest final residual {} m/s\n",
               ex.pgs.max_contacts, sci(ex.pgs.max_penetration), ex.pgs.total_iterations, ex.pgs.max_iterations,
               ex.pgs.steps_at_cap, ex.pgs.steps_at_cap == 1 ? "" : "s", sci(ex.pgs.max_residual));
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
  } else if (res.status == SolveStatus::StoppedByObserver && g_interrupted) {
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
