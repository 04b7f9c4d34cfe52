// `mbdae statics`, `mbdae modes`, `mbdae kinematics`, `mbdae inverse`: the analyses of
// io/Analyses.h on a model file, each writing a CSV (with its .meta.json, and the poses for the
// viewer where there is a motion or a mode shape) and printing a summary like `mbdae run`.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <fmt/core.h>

#include <mbdae/io/Analyses.h>
#include <mbdae/io/CsvWriter.h>
#include <mbdae/io/FilePolicy.h>
#include <mbdae/io/PoseRecorder.h>
#include <mbdae/io/Scene.h>
#include <mbdae/model/math/Rotation.h>

#include "commands.h"

namespace mbdae::cli {

namespace {

namespace fs = std::filesystem;

/// Column names with their unit and the sensor (or group) they belong to, for the CSV and its
/// .meta.json (the plots group columns by `group`).
struct Columns {
  std::vector<std::string> names, units, groups, outputs;
  void add(const std::string& name, const std::string& unit, const std::string& group, const std::string& output = "") {
    names.push_back(name);
    units.push_back(unit);
    groups.push_back(group);
    outputs.push_back(output);
  }
  void add3(const std::string& group, const char* const (&suffix)[3], const std::string& unit, const std::string& output) {
    for (const char* s : suffix) add(group + s, unit, group, output);
  }
  /// The sensors' columns after the others. A sensor column named like one already there (a
  /// sensor named like a body or joint: `bead.x`) is written as `sensor:bead.x`, so that no column
  /// name repeats; returns the sensor columns so renamed.
  std::vector<std::string> add_sensors(const io::SensorSet& s) {
    const std::set<std::string> taken(names.begin(), names.end());
    std::vector<std::string> renamed;
    for (int c = 0; c < s.size(); ++c) {
      const io::SensorSpec& sp = s.specs()[static_cast<size_t>(s.column_sensor()[static_cast<size_t>(c)])];
      std::string name = s.columns()[static_cast<size_t>(c)];
      if (taken.count(name) != 0) {
        renamed.push_back(name);
        name = "sensor:" + name;
      }
      add(name, s.units()[static_cast<size_t>(c)], sp.name, io::to_string(sp.output));
    }
    return renamed;
  }
};

void write_meta(const std::string& csv, const io::LoadedModel& m, const std::string& analysis, const Columns& c) {
  fs::path p(csv);
  p.replace_extension(".meta.json");
  std::ofstream out(p);
  if (!out) return;  // the plot falls back to names without units
  out << "{\n  \"model\": " << json_string(m.system.name.empty() ? m.file : m.system.name)
      << ",\n  \"file\": " << json_string(m.file) << ",\n  \"solver\": " << json_string(analysis)
      << ",\n  \"columns\": [";
  for (size_t i = 0; i < c.names.size(); ++i)
    out << (i ? "," : "") << "\n    {\"name\": " << json_string(c.names[i]) << ", \"unit\": " << json_string(c.units[i])
        << ", \"sensor\": " << json_string(c.groups[i]) << ", \"output\": " << json_string(c.outputs[i]) << "}";
  out << "\n  ]\n}\n";
}

std::string default_output(const io::LoadedModel& m, const char* analysis) {
  return fs::path(m.file).stem().string() + "." + analysis + ".csv";
}

std::unique_ptr<io::CsvWriter> open_csv(const std::string& path, const std::vector<std::string>& header) {
  const fs::path parent = fs::path(path).parent_path();
  if (!parent.empty()) fs::create_directories(parent);
  return std::make_unique<io::CsvWriter>(path, header);
}

std::string sci(double x) { return std::isfinite(x) ? fmt::format("{:.3g}", x) : std::string("n/a"); }

/// What every analysis command shares: the model, its prepared formulation, the CSV.
struct Common {
  std::optional<io::LoadedModel> model;
  std::unique_ptr<io::ModelAnalysis> analysis;
  std::string csv_path;
  std::vector<std::string> inputs;  ///< the files the analysis reads (no output may replace one)
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();

  /// Loads and prepares; returns an exit code (kSuccess to go on).
  int load(const AnalysisOptions& o, const char* name) {
    model = load_model(o.model, o.sets);
    if (!model) return kBadInput;
    try {
      analysis = std::make_unique<io::ModelAnalysis>(*model);
    } catch (const std::exception& e) {
      print_setup_error(*model, e);
      return kBadInput;
    }
    if (!o.quiet)
      for (size_t i = 0; i < analysis->warnings().size(); ++i)
        print_problem(*model, {analysis->warnings()[i], analysis->warning_items()[i]}, "warning: ");
    csv_path = o.output.empty() ? default_output(*model, name) : o.output;
    // Every file this analysis may write, checked by the one output policy before any is made
    // (the mode shapes' files, whose count is known later, are checked as they are made).
    auto ext = [&](const std::string& path, const char* e) { return fs::path(path).replace_extension(e).string(); };
    std::vector<std::string> outputs{csv_path, ext(csv_path, ".meta.json")};
    if (o.plot) outputs.insert(outputs.end(), {ext(csv_path, ".png"), ext(csv_path, ".svg")});
    if (o.poses) {
      const std::string state = ext(csv_path, ".state.csv");
      outputs.insert(outputs.end(), {io::pose_path_for(csv_path), io::scene_path_for(csv_path), ext(csv_path, ".html"),
                                     state, ext(state, ".meta.json"), io::pose_path_for(state),
                                     io::scene_path_for(state), ext(state, ".html")});
    }
    inputs = model->input_files;
    inputs.push_back(o.three_js);
    if (!outputs_allowed(outputs, inputs)) return kBadInput;
    return kSuccess;
  }
  void print_model() const {
    fmt::print("model        {} ({})\n", model->system.name.empty() ? "(no name)" : model->system.name, model->file);
  }
  double wall() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); }
  int plot(const AnalysisOptions& o, long rows, int code) const {
    if (!o.plot || rows == 0) return code;
    fs::path prefix(csv_path);
    prefix.replace_extension();
    const int pc = plot_command(csv_path, prefix.string(), true);
    if (pc == 0) fmt::print("plot         {}.png, {}.svg\n", prefix.string(), prefix.string());
    else if (code == kSuccess) return kOtherError;
    return code;
  }
};

const char* const kXyz[3] = {".x", ".y", ".z"};
const char* const kRxyz[3] = {".rx", ".ry", ".rz"};
const char* const kF[3] = {".fx", ".fy", ".fz"};
const char* const kT[3] = {".tx", ".ty", ".tz"};

void put3(std::vector<double>& row, const Vec3& x) {
  for (int i = 0; i < 3; ++i) row.push_back(x[i]);
}

/// "N" or "N m" for a driven joint's effort, "m" or "rad" for its coordinate.
bool is_rotational(const Joint& j) { return j.type != JointType::Prismatic; }

void print_reactions(const MultibodySystem& sys, double t, const VecX& q, const VecX& lambda) {
  const auto& joints = sys.model().joints();
  if (joints.empty()) return;
  fmt::print("reactions    on each joint's second body at the joint point, joint axes: force [N], torque [N m]\n");
  for (int j = 0; j < static_cast<int>(joints.size()); ++j) {
    const JointReaction r = sys.reaction(j, t, q, lambda);
    fmt::print("  {:<12} F [{:.10g}, {:.10g}, {:.10g}]  T [{:.10g}, {:.10g}, {:.10g}]\n", joints[static_cast<size_t>(j)].name,
               r.force_J.x(), r.force_J.y(), r.force_J.z(), r.torque_J.x(), r.torque_J.y(), r.torque_J.z());
  }
}

void print_bodies(BodyKinematics& kin) {
  const auto& bodies = kin.model().bodies();
  fmt::print("bodies       reference point [m], rotation as xyz angles (R = Rx Ry Rz) [rad]\n");
  for (int i = 0; i < static_cast<int>(bodies.size()); ++i) {
    const Vec3 p = kin.position(i);
    const Vec3 r = math::matrix_to_rxyz(kin.rotation(i)).angles;
    fmt::print("  {:<12} p [{:.10g}, {:.10g}, {:.10g}]  r [{:.10g}, {:.10g}, {:.10g}]\n", bodies[static_cast<size_t>(i)].name,
               p.x(), p.y(), p.z(), r.x(), r.y(), r.z());
  }
}

}  // namespace

// ------------------------------------------------------------------------------------ statics

namespace {

/// The stability of a checked equilibrium in words: unstable directions first, then neutral ones
/// (zero stiffness, e.g. a free rotation: not stable, not unstable), else stable.
std::string stability_text(const io::StaticsStep& s) {
  auto dirs = [](int k) { return fmt::format("{} direction{}", k, k == 1 ? "" : "s"); };
  if (s.unstable_directions > 0)
    return fmt::format("UNSTABLE in {} (negative eigenvalues of the reduced stiffness){}", dirs(s.unstable_directions),
                       s.neutral_directions > 0 ? fmt::format(", neutral in {}", dirs(s.neutral_directions)) : "");
  if (s.neutral_directions > 0)
    return fmt::format("neutral in {} (zero eigenvalues of the reduced stiffness: no restoring force), stable in the "
                       "others",
                       dirs(s.neutral_directions));
  return "stable (the reduced stiffness is positive definite)";
}

}  // namespace

int statics_command(const AnalysisOptions& o) {
  Common c;
  if (const int rc = c.load(o, "statics"); rc != kSuccess) return rc;
  io::ModelAnalysis& a = *c.analysis;
  const MultibodySystem& sys = a.system();
  const System& model = sys.model();
  io::StaticsSettings st;
  st.load_steps = o.load_steps;
  io::StaticsReport rep;
  try {
    rep = io::solve_statics(a, st);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: statics: %s\n", c.model->file.c_str(), e.what());
    return kSolverFailure;
  }
  // At an equilibrium v = 0 and a = 0: every output is available.
  std::unique_ptr<io::SensorSet> sensors = a.make_sensors({true, true});

  // One row per converged load step.
  Columns cols;
  cols.add("load_fraction", "", "load_fraction");
  cols.add("iterations", "", "iterations");
  cols.add("force_residual", "", "residual");
  cols.add("constraint_residual", "", "residual");
  cols.add("unstable_directions", "", "unstable_directions");
  for (const RigidBody& b : model.bodies()) {
    cols.add3(b.name, kXyz, "m", "position");
    cols.add3(b.name, kRxyz, "rad", "rotation");
  }
  for (const Joint& j : model.joints()) {
    cols.add3(j.name, kF, "N", "reaction_force");
    cols.add3(j.name, kT, "N m", "reaction_torque");
  }
  if (const std::vector<std::string> renamed = cols.add_sensors(*sensors); !renamed.empty()) {
    std::string list;
    for (const std::string& r : renamed) list += (list.empty() ? "'" : ", '") + r + "'";
    std::fprintf(stderr,
                 "%s: statics: note: sensor column%s %s named like a body or joint column; written with the prefix "
                 "'sensor:'\n",
                 c.model->file.c_str(), renamed.size() == 1 ? "" : "s", list.c_str());
  }
  long rows = 0;
  try {
    auto csv = open_csv(c.csv_path, cols.names);
    write_meta(c.csv_path, *c.model, "statics", cols);
    std::vector<double> row, srow(static_cast<size_t>(sensors->size()));
    const VecX zero = VecX::Zero(sys.num_coordinates());
    for (const io::StaticsStep& s : rep.steps) {
      row.clear();
      row.insert(row.end(), {s.load_fraction, double(s.iterations), s.force_residual, s.constraint_residual,
                             double(s.unstable_directions)});
      BodyKinematics& kin = a.kinematics();
      // Sensors at the full model; at a load step the loads are scaled (the sensors read positions,
      // reactions from λ and the potentials of the unscaled model).
      sensors->evaluate(StateView{0.0, s.q, zero, zero, s.lambda}, srow);
      kin.update(StateView{0.0, s.q, zero, zero, s.lambda});
      for (int i = 0; i < static_cast<int>(model.bodies().size()); ++i) {
        put3(row, kin.position(i));
        put3(row, math::matrix_to_rxyz(kin.rotation(i)).angles);
      }
      for (int j = 0; j < static_cast<int>(model.joints().size()); ++j) {
        const JointReaction r = sys.reaction(j, 0.0, s.q, s.lambda);
        put3(row, r.force_J);
        put3(row, r.torque_J);
      }
      row.insert(row.end(), srow.begin(), srow.end());
      csv->write_row(row);
    }
    rows = csv->rows();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mbdae: %s\n", e.what());
    return kOtherError;
  }

  c.print_model();
  fmt::print("analysis     static equilibrium, gravity and loads ramped over {} load step{}, Newton with line search\n",
             st.load_steps, st.load_steps == 1 ? "" : "s");
  if (rep.converged)
    fmt::print("status       converged at load fraction 1 ({} Newton iterations in all)\n", rep.iterations);
  else
    fmt::print("status       failed: load fraction reached {:g} ({} Newton iterations in all)\n", rep.load_fraction,
               rep.iterations);
  if (!rep.steps.empty()) {
    const io::StaticsStep& last = rep.steps.back();
    fmt::print("residual     force {} (N or N m), constraints {}\n", sci(last.force_residual), sci(last.constraint_residual));
    if (!rep.stability_checked)
      fmt::print("stability    not checked ({} coordinates: the dense eigenvalue test is left out)\n",
                 sys.num_coordinates());
    else fmt::print("stability    {}\n", stability_text(last));
    const VecX zero = VecX::Zero(sys.num_coordinates());
    a.kinematics().update(StateView{0.0, last.q, zero, zero, last.lambda});
    print_bodies(a.kinematics());
    print_reactions(sys, 0.0, last.q, last.lambda);
  }
  fmt::print("wall time    {:.3f} s\n", c.wall());
  fmt::print("results      {} ({} rows, {} columns)\n", c.csv_path, rows, cols.names.size());
  std::fflush(stdout);
  int code = kSuccess;
  if (rep.converged && rep.steps.back().unstable_directions > 0)
    std::fprintf(stderr,
                 "%s: statics: warning: the equilibrium found is unstable (%d direction%s in which the potential "
                 "decreases): a small disturbance moves the model away from it\n",
                 c.model->file.c_str(), rep.steps.back().unstable_directions,
                 rep.steps.back().unstable_directions == 1 ? "" : "s");
  if (!rep.converged) {
    std::fprintf(stderr, "%s: statics failed: %s\n", c.model->file.c_str(), rep.message.c_str());
    code = kSolverFailure;
  }
  return c.plot(o, rows, code);
}

// -------------------------------------------------------------------------------------- modes

int modes_command(const AnalysisOptions& o) {
  Common c;
  if (const int rc = c.load(o, "modes"); rc != kSuccess) return rc;
  io::ModelAnalysis& a = *c.analysis;
  const MultibodySystem& sys = a.system();
  const System& model = sys.model();
  io::ModesSettings ms;
  ms.at_equilibrium = o.at_equilibrium;
  ms.statics.load_steps = o.load_steps;
  io::ModesReport rep;
  try {
    rep = io::solve_modes(a, ms);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: modes: %s\n", c.model->file.c_str(), e.what());
    return kSolverFailure;
  }
  if (!rep.ok) {
    std::fprintf(stderr, "%s: modes: %s\n", c.model->file.c_str(), rep.message.c_str());
    return kSolverFailure;
  }
  // The mode shapes as body motions: δp of each reference point and δφ (rotation vector, world)
  // for the shape scaled to max |δq| = 1, by a central difference of the poses.
  const int nb = static_cast<int>(model.bodies().size());
  const VecX zero = VecX::Zero(sys.num_coordinates());
  auto pose_at = [&](const VecX& q, std::vector<Vec3>& p, std::vector<Mat3>& R) {
    a.kinematics().update(StateView{rep.t, q, zero, zero, VecX()});
    p.resize(static_cast<size_t>(nb));
    R.resize(static_cast<size_t>(nb));
    for (int i = 0; i < nb; ++i) {
      p[static_cast<size_t>(i)] = a.kinematics().position(i);
      R[static_cast<size_t>(i)] = a.kinematics().rotation(i);
    }
  };
  std::vector<Vec3> p0;
  std::vector<Mat3> R0;
  pose_at(rep.q, p0, R0);

  Columns cols;
  cols.add("mode", "", "mode");
  cols.add("frequency_hz", "Hz", "frequency");
  cols.add("damped_frequency_hz", "Hz", "frequency");
  cols.add("damping_ratio", "", "damping_ratio");
  cols.add("eigenvalue_real", "1/s", "eigenvalue");
  cols.add("eigenvalue_imag", "1/s", "eigenvalue");
  for (const RigidBody& b : model.bodies()) {
    cols.add3(b.name, kXyz, "m", "shape");
    cols.add3(b.name, kRxyz, "rad", "shape");
  }
  // A length for drawing: the spread of the bodies and joints (at least 0.1 m).
  double L = 0.1;
  for (int i = 0; i < nb; ++i)
    for (int k = 0; k < nb; ++k) L = std::max(L, (p0[static_cast<size_t>(i)] - p0[static_cast<size_t>(k)]).norm());
  for (const Joint& j : model.joints())
    for (int i = 0; i < nb; ++i) L = std::max(L, (j.point - p0[static_cast<size_t>(i)]).norm());
  long rows = 0;
  std::vector<std::string> pose_files;
  std::string state_csv;
  try {
    auto csv = open_csv(c.csv_path, cols.names);
    write_meta(c.csv_path, *c.model, ms.at_equilibrium ? "modes at the static equilibrium" : "modes at the initial state",
               cols);
    if (o.poses) {
      // The state linearised about as a run of one frame (<results>.state.csv with the sensors
      // there, its poses and the scene), which `mbdae view` shows with the mode shapes.
      fs::path sp(c.csv_path);
      sp.replace_extension(".state.csv");
      state_csv = sp.string();
      auto sensors = a.make_sensors({true, true});
      Columns sc;
      sc.add("time", "s", "time");
      sc.add_sensors(*sensors);
      io::CsvWriter w(state_csv, sc.names);
      write_meta(state_csv, *c.model, "modes: the state linearised about", sc);
      std::vector<double> srow(static_cast<size_t>(sensors->size()));
      const StateView st{rep.t, rep.q, rep.v, rep.a, rep.lambda};
      sensors->evaluate(st, srow);
      srow.insert(srow.begin(), rep.t);
      w.write_row(srow);
      io::PoseRecorder still(state_csv, a.kinematics(), c.model->sensors,
                             model.name.empty() ? c.model->file : model.name);
      still.record(st);
      still.close();
    }
    std::vector<double> row;
    std::vector<Vec3> pp, pm;
    std::vector<Mat3> Rp, Rm;
    for (size_t k = 0; k < rep.modes.size(); ++k) {
      const Mode& md = rep.modes[k];
      row.clear();
      row.insert(row.end(), {double(k + 1), md.frequency_hz, md.damped_frequency_hz, md.damping_ratio,
                             md.eigenvalue.real(), md.eigenvalue.imag()});
      const double eps = 1e-6;
      pose_at(rep.q + eps * md.shape, pp, Rp);
      pose_at(rep.q - eps * md.shape, pm, Rm);
      double dmax = 0, rmax = 0;
      for (int i = 0; i < nb; ++i) {
        const Vec3 dp = (pp[static_cast<size_t>(i)] - pm[static_cast<size_t>(i)]) / (2 * eps);
        const Eigen::AngleAxisd aa(Rp[static_cast<size_t>(i)] * Rm[static_cast<size_t>(i)].transpose());
        const Vec3 dr = aa.angle() * aa.axis() / (2 * eps);
        put3(row, dp);
        put3(row, dr);
        dmax = std::max(dmax, dp.norm());
        rmax = std::max(rmax, dr.norm());
      }
      csv->write_row(row);
      if (o.poses) {
        // One period of q(φ) = q0 + A sin(2πφ) shape, A such that the largest displacement is a
        // tenth of the model's size or the largest rotation 0.3 rad.
        double A = std::min(dmax > 0 ? 0.1 * L / dmax : 1e300, rmax > 0 ? 0.3 / rmax : 1e300);
        if (!(A < 1e300)) A = 0;
        fs::path pf(c.csv_path);
        pf.replace_extension(fmt::format(".mode{}.poses", k + 1));
        io::require_outputs({pf.string()}, c.inputs);
        io::PoseWriter w(pf.string(), static_cast<std::uint32_t>(nb), io::PoseKind::ModeShape,
                         fmt::format("mode {}, {:.4g} Hz", k + 1, md.frequency_hz), md.frequency_hz);
        std::vector<float> frame(static_cast<size_t>(7 * nb));
        const int frames = 48;
        for (int f = 0; f < frames; ++f) {
          const double phase = static_cast<double>(f) / frames;
          std::vector<Vec3> p;
          std::vector<Mat3> R;
          pose_at(rep.q + A * std::sin(2 * M_PI * phase) * md.shape, p, R);
          for (int i = 0; i < nb; ++i) {
            const Vec4 Q = math::matrix_to_ep(R[static_cast<size_t>(i)]);
            for (int d = 0; d < 3; ++d) frame[static_cast<size_t>(7 * i + d)] = static_cast<float>(p[static_cast<size_t>(i)][d]);
            for (int d = 0; d < 4; ++d) frame[static_cast<size_t>(7 * i + 3 + d)] = static_cast<float>(Q[d]);
          }
          w.write_frame(phase, frame);
        }
        w.close();
        pose_files.push_back(pf.string());
      }
    }
    rows = csv->rows();
  } catch (const io::OutputRefused& e) {
    std::fprintf(stderr, "mbdae: %s\n", e.what());
    return kBadInput;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mbdae: %s\n", e.what());
    return kOtherError;
  }

  c.print_model();
  if (ms.at_equilibrium) {
    fmt::print("analysis     modes about the static equilibrium ({} load step{}, {} Newton iterations)\n",
               ms.statics.load_steps, ms.statics.load_steps == 1 ? "" : "s", rep.statics.iterations);
    if (!rep.statics.steps.empty() && rep.statics.steps.back().unstable_directions >= 0)
      fmt::print("equilibrium  {}\n", stability_text(rep.statics.steps.back()));
  }
  else
    fmt::print("analysis     modes about the initial state (its velocities, accelerations and multipliers)\n");
  if (!ms.at_equilibrium) {
    if (rep.not_equilibrium.empty())
      fmt::print("equilibrium  yes: at rest, unbalanced force {} (N or N m)\n", sci(rep.unbalanced_force));
    else
      fmt::print("equilibrium  NO: unbalanced force {} (N or N m), largest speed {}\n", sci(rep.unbalanced_force),
                 sci(rep.max_speed));
  }
  fmt::print("freedom      {} degree{} of freedom (coordinates {}, independent constraints {})\n", rep.dof,
             rep.dof == 1 ? "" : "s", sys.num_coordinates(), sys.num_coordinates() - rep.dof);
  if (rep.rigid_body_modes == 0) {
    fmt::print("rigid modes  none (every direction has stiffness)\n");
  } else {
    fmt::print("rigid modes  {} (directions without stiffness; each moves most: ", rep.rigid_body_modes);
    for (size_t i = 0; i < rep.rigid_body_coordinates.size(); ++i)
      fmt::print("{}{}", i ? ", " : "", rep.rigid_body_coordinates[i]);
    fmt::print(")\n");
  }
  fmt::print("modes        {:>4} {:>16} {:>16} {:>14}\n", "#", "frequency [Hz]", "damped [Hz]", "damping ratio");
  for (size_t k = 0; k < rep.modes.size(); ++k) {
    const Mode& md = rep.modes[k];
    fmt::print("             {:>4} {:>16.10g} {:>16.10g} {:>14.8g}\n", k + 1, md.frequency_hz, md.damped_frequency_hz,
               md.damping_ratio);
  }
  fmt::print("wall time    {:.3f} s\n", c.wall());
  fmt::print("results      {} ({} rows, {} columns)\n", c.csv_path, rows, cols.names.size());
  if (!pose_files.empty()) {
    fmt::print("mode shapes  {} … {} (mbdae view {} --poses FILE… animates them)\n", pose_files.front(), pose_files.back(),
               state_csv);
  }
  std::fflush(stdout);
  if (!rep.not_equilibrium.empty())
    std::fprintf(stderr, "%s: modes: warning: %s\n", c.model->file.c_str(), rep.not_equilibrium.c_str());
  int code = kSuccess;
  if (o.animate && !pose_files.empty()) {
    ViewOptions vo;
    vo.results = state_csv;
    vo.three_js = o.three_js;
    vo.extra_poses = pose_files;
    code = view_command(vo);
  }
  return c.plot(o, rows, code);
}

// ----------------------------------------------------------------- kinematics and inverse dynamics

namespace {

int motion_command(const AnalysisOptions& o, bool inverse) {
  Common c;
  if (const int rc = c.load(o, inverse ? "inverse" : "kinematics"); rc != kSuccess) return rc;
  io::ModelAnalysis& a = *c.analysis;
  const MultibodySystem& sys = a.system();
  const System& model = sys.model();
  try {
    io::require_driven(a);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "%s: %s\n", c.model->file.c_str(), e.what());
    return kBadInput;
  }
  std::unique_ptr<io::MotionTable> table;
  try {
    table = std::make_unique<io::MotionTable>(a, inverse);
  } catch (const std::exception& e) {
    print_setup_error(*c.model, e);
    return kBadInput;
  }
  const std::vector<std::string>& left_out = table->left_out();
  const std::vector<int>& driven = table->driven();
  Columns cols;
  for (const io::MotionColumn& mc : table->columns()) cols.add(mc.name, mc.unit, mc.group, mc.output);
  std::unique_ptr<io::CsvWriter> csv;
  std::unique_ptr<io::PoseRecorder> poses;
  try {
    std::vector<std::string> header = cols.names;
    csv = open_csv(c.csv_path, header);
    write_meta(c.csv_path, *c.model, inverse ? "inverse dynamics" : "kinematics", cols);
    if (o.poses)
      poses = std::make_unique<io::PoseRecorder>(c.csv_path, a.kinematics(), c.model->sensors,
                                                 model.name.empty() ? c.model->file : model.name);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mbdae: %s\n", e.what());
    return kOtherError;
  }
  std::vector<double> row;
  std::vector<double> effort_max(driven.size(), 0.0);
  double residual_max = 0;
  std::string write_error;
  const io::AnalysisObserver obs = [&](const StateView& s, const InverseDynamicsResult* r) {
    table->row(s, r, row);
    if (r) {
      for (size_t k = 0; k < r->drive_forces.size(); ++k)
        effort_max[k] = std::max(effort_max[k], std::abs(r->drive_forces[k]));
      residual_max = std::max(residual_max, r->residual);
    }
    try {
      csv->write_row(row);
      if (poses) poses->record(s);
    } catch (const std::exception& e) {
      write_error = e.what();
      return false;
    }
    return true;
  };
  const KinematicsOptions ko = io::kinematics_options(*c.model);
  SolveResult res;
  try {
    res = inverse ? io::solve_model_inverse(a, ko, obs) : io::solve_model_kinematics(a, ko, obs);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "%s: %s\n", c.model->file.c_str(), e.what());
    return kBadInput;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s: %s\n", c.model->file.c_str(), inverse ? "inverse dynamics" : "kinematics", e.what());
    return kSolverFailure;
  }
  const long rows = csv->rows();
  csv.reset();
  if (poses) {
    try {
      poses->close();
    } catch (const std::exception& e) {
      if (write_error.empty()) write_error = e.what();
    }
  }
  c.print_model();
  fmt::print("analysis     {} of the driven mechanism from the constraints alone{}, t = 0 … {:g} s, output every {:g} s\n",
             inverse ? "kinematics and inverse dynamics" : "kinematics", inverse ? " (multipliers from M a − f = −C_qᵀλ)" : "",
             ko.t_end, ko.output_every);
  fmt::print("status       {} at t = {:g} s of {:g} s\n", to_string(res.status), res.t_reached, ko.t_end);
  fmt::print("constraints  max violation {} (position), {} (velocity)\n", sci(res.stats.max_position_violation),
             sci(res.stats.max_velocity_violation));
  if (inverse) {
    for (size_t k = 0; k < driven.size(); ++k) {
      const Joint& jt = model.joints()[static_cast<size_t>(driven[k])];
      fmt::print("drive        {}: max |{}| {:.6g} {}\n", jt.name, is_rotational(jt) ? "torque" : "force", effort_max[k],
                 is_rotational(jt) ? "N m" : "N");
    }
    fmt::print("residual     max ‖C_qᵀλ − (f − M a)‖∞ {} (N or N m)\n", sci(residual_max));
  }
  for (const std::string& l : left_out)
    fmt::print("left out     {} ({})\n", l, inverse ? "not computed here" : "mbdae inverse computes them");
  fmt::print("wall time    {:.3f} s\n", c.wall());
  fmt::print("results      {} ({} rows, {} columns)\n", c.csv_path, rows, cols.names.size());
  if (poses) fmt::print("poses        {} ({} frames)\n", poses->writer().path(), poses->writer().frames());
  std::fflush(stdout);
  int code = kSuccess;
  if (!write_error.empty()) {
    std::fprintf(stderr, "mbdae: %s\n", write_error.c_str());
    code = kOtherError;
  } else if (!res.ok()) {
    std::fprintf(stderr, "%s: %s failure (%s): %s\n", c.model->file.c_str(), inverse ? "inverse dynamics" : "kinematics",
                 to_string(res.status), res.message.c_str());
    code = kSolverFailure;
  }
  if (o.animate && rows > 0 && poses) {
    ViewOptions vo;
    vo.results = c.csv_path;
    vo.three_js = o.three_js;
    const int vc = view_command(vo);
    if (vc != kSuccess && code == kSuccess) code = vc;
  }
  return c.plot(o, rows, code);
}

}  // namespace

int kinematics_command(const AnalysisOptions& o) { return motion_command(o, false); }
int inverse_command(const AnalysisOptions& o) { return motion_command(o, true); }

}  // namespace mbdae::cli
