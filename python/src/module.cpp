// mbdae._mbdae: the extension module behind the Python package `mbdae` (python/mbdae/).
//
// It binds io::load_model_file() and io::ModelRun — the one way every caller runs a model — and
// nothing else; the Python package builds its classes (Model, Result, Integrator) on top.
//
// Threads: every C++ computation (loading, building the run, the run loop, advance_to) runs with
// the GIL released, so runs in two Python threads use two cores. The row observer of a run touches
// no Python object: rows go into a C++ buffer that becomes the numpy array of the result without a
// copy (the array owns the buffer through a capsule).
//
// Ctrl-C: a run started from the main thread while Python's default SIGINT handler is installed
// replaces that handler for its duration by one that raises the run's interrupt flag (read by the
// integrator between its steps), as the `mbdae` command does; the previous handler is restored
// afterwards and the Python side raises KeyboardInterrupt with the rows computed so far.

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <array>
#include <atomic>
#include <csignal>
#include <cstddef>
#include <memory>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#ifdef MBDAE_WITH_IMPORT
#include <mbdae/import/Import.h>
#endif
#include <mbdae/io/Analyses.h>
#include <mbdae/io/CsvWriter.h>
#include <mbdae/io/FilePolicy.h>
#include <mbdae/io/PoseFile.h>
#include <mbdae/io/PoseRecorder.h>
#include <mbdae/io/ResultMeta.h>
#include <mbdae/io/Scene.h>
#include <mbdae/io/Quantities.h>
#include <mbdae/io/Run.h>
#include <mbdae/io/Sensors.h>
#include <mbdae/io/Sensitivity.h>
#include <mbdae/model/Inertia.h>
#include <mbdae/solvers/Linearization.h>
#include <mbdae/solvers/Mobility.h>
#include <mbdae/solvers/Statics.h>
#include <mbdae/solvers/SolverCommon.h>

#include "viewer/ViewerPage.h"

namespace py = pybind11;

namespace mbdae::python {

namespace {

using ModelPtr = std::shared_ptr<const io::LoadedModel>;

// ------------------------------------------------------------------------------------- errors

/// Raises mbdae.ModelError(message, diagnostics); diagnostics as (file, line, column, key, message).
[[noreturn]] void raise_model_error(const std::vector<io::Diagnostic>& diagnostics) {
  py::object cls = py::module_::import("mbdae._errors").attr("ModelError");
  py::list list;
  std::string message;
  for (const io::Diagnostic& d : diagnostics) {
    list.append(py::make_tuple(d.file, d.line, d.column, d.key_path, d.message));
    if (!message.empty()) message += '\n';
    message += d.to_string();
  }
  py::object exc = cls(message, list);
  PyErr_SetObject(cls.ptr(), exc.ptr());
  throw py::error_already_set();
}

/// The problems of a model found when its run is built, located in the model file as the `mbdae`
/// command locates them (one diagnostic per line of each message).
[[noreturn]] void raise_located(const io::LoadedModel& m, const std::vector<ModelProblem>& problems) {
  std::vector<io::Diagnostic> diagnostics;
  for (const ModelProblem& p : problems) {
    const io::Diagnostic at = m.locate(p);
    std::istringstream lines(p.message);
    std::string line;
    while (std::getline(lines, line)) {
      io::Diagnostic d = at;
      d.message = line;
      diagnostics.push_back(std::move(d));
    }
  }
  raise_model_error(diagnostics);
}

/// The problems of a failed set-up (a model error with its items, an error about one item, or
/// another exception), as the `mbdae` command reports them.
std::vector<ModelProblem> problems_of(const std::exception& e) {
  if (const auto* me = dynamic_cast<const ModelError*>(&e)) return me->details();
  if (const auto* ie = dynamic_cast<const ItemError*>(&e)) return {{ie->what(), ie->item()}};
  return {{e.what(), {}}};
}

// ------------------------------------------------------------------------------------- loading

/// A model file (`text` empty) or a model text named `path` (the Python model builder's), with
/// the overrides; its problems become mbdae.ModelError.
ModelPtr load(const std::string& path, const std::vector<std::pair<std::string, std::string>>& sets,
              const std::string& text = "") {
  std::vector<io::Override> overrides;
  for (const auto& [key, value] : sets) overrides.push_back({key, value});
  std::shared_ptr<io::LoadedModel> model;
  std::vector<io::Diagnostic> diagnostics, warnings;
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const bool robot = text.empty() && (ext == ".urdf" || ext == ".xml" || ext == ".mjcf" || ext == ".sdf");
  {
    py::gil_scoped_release nogil;
    try {
      if (robot) {
#ifdef MBDAE_WITH_IMPORT
        model = std::make_shared<io::LoadedModel>(import::load_imported(path, overrides, warnings));
#else
        io::Diagnostic d;
        d.file = path;
        d.message = "this mbdae was built without URDF import (it needs liburdfdom-dev and libtinyxml2-dev)";
        throw io::LoadError({d});
#endif
      } else {
        model = std::make_shared<io::LoadedModel>(text.empty() ? io::load_model_file(path, overrides)
                                                               : io::load_model_text(text, path, overrides));
      }
    } catch (const io::LoadError& e) {
      diagnostics = e.diagnostics();
    }
  }
  if (!model) raise_model_error(diagnostics);
  // The elements of a robot description that are not mapped (docs/import.md), as Python warnings.
  for (const io::Diagnostic& w : warnings)
    if (PyErr_WarnEx(PyExc_UserWarning, ("import: " + w.to_string()).c_str(), 1) < 0) throw py::error_already_set();
  return model;
}

/// Builds the run of `m` with the GIL released; its problems become mbdae.ModelError.
std::unique_ptr<io::ModelRun> make_run(const ModelPtr& m) {
  std::unique_ptr<io::ModelRun> run;
  std::vector<ModelProblem> problems;
  {
    py::gil_scoped_release nogil;
    try {
      run = std::make_unique<io::ModelRun>(*m);
    } catch (const std::exception& e) {
      problems = problems_of(e);
    }
  }
  if (!run) raise_located(*m, problems);
  return run;
}

// ------------------------------------------------------------------------------------- loads

/// The load named `name` (a `force` or `torque` of the model file). @throws py::key_error
Load& find_load(io::LoadedModel& m, const std::string& name) {
  std::string names;
  for (Load& l : m.system.loads()) {
    if (l.name == name) return l;
    names += (names.empty() ? "" : ", ") + l.name;
  }
  throw py::key_error("no force, torque or joint_motor named '" + name + "' (loads: " + names + ")");
}

// ------------------------------------------------------------------------------------- Ctrl-C

// Lock-free, so that the signal handler may set it.
std::atomic<bool> g_sigint{false};
static_assert(std::atomic<bool>::is_always_lock_free);
extern "C" void on_sigint(int) { g_sigint.store(true); }

/// Installs on_sigint for its lifetime (when `active`), then restores the previous handler.
class SigintGuard {
 public:
  explicit SigintGuard(bool active) : active_(active) {
    if (!active_) return;
    g_sigint.store(false);
    struct sigaction sa {};
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGINT, &sa, &previous_) != 0) active_ = false;
  }
  ~SigintGuard() {
    if (!active_) return;
    sigaction(SIGINT, &previous_, nullptr);
    g_sigint.store(false);  // the Python loads read it: only while a run is guarded
  }
  SigintGuard(const SigintGuard&) = delete;
  SigintGuard& operator=(const SigintGuard&) = delete;
  /// The flag the integrator reads (nullptr when not active).
  const std::atomic<bool>* flag() const { return active_ ? &g_sigint : nullptr; }
  bool raised() const { return active_ && g_sigint.load(); }

 private:
  bool active_;
  struct sigaction previous_ {};
};

/// A Python object that may be released from any thread (it takes the GIL to drop its reference).
std::shared_ptr<py::object> shared_object(const py::handle& h) {
  return std::shared_ptr<py::object>(new py::object(py::reinterpret_borrow<py::object>(h)), [](py::object* o) {
    py::gil_scoped_acquire gil;
    delete o;
  });
}

/// Load `name` of `m` as a function of t and named quantities: `spec` is (f, ["angle(drive)",
/// ...]); f(t, q0, q1, ...) returns 3 numbers. The load becomes a force element over the bodies
/// the quantities read (io::state_load, as a model file's expression of the same quantities).
void add_state_callable(io::LoadedModel& m, const std::string& name, const py::tuple& spec) {
  if (spec.size() != 2 || !PyCallable_Check(spec[0].ptr()) || py::isinstance<py::str>(spec[1]))
    throw py::type_error("load '" + name + "': expected a callable f(t) or a pair (f, [\"angle(hinge)\", ...]) "
                         "with f(t, *quantities)");
  std::vector<std::string> names;
  for (const py::handle h : py::iter(spec[1])) {
    if (!py::isinstance<py::str>(h)) throw py::type_error("load '" + name + "': the quantities are strings, e.g. \"rate(hinge)\"");
    names.push_back(h.cast<std::string>());
  }
  Load& load = find_load(m, name);
  io::QuantityResolver resolver(m.system);
  // sensor(name).c: the model's sensors, as in the model file's expressions (io::sensor_quantity).
  resolver.add_function(
      "sensor",
      [&m](const io::ExpressionQuantity& q, io::QuantityProblem& p) -> std::optional<io::Quantity> {
        for (const io::SensorSpec& s : m.sensors)
          if (s.name == q.argument) return io::sensor_quantity(m.system, s, q, p);
        p = {q.argument_position, "unknown sensor '" + q.argument + "'"};
        return std::nullopt;
      },
      "a sensor's column (sensor(name) or sensor(name).x), its unit", true);
  std::vector<io::Quantity> quantities;
  for (const std::string& text : names) {
    io::QuantityProblem p;
    auto q = resolver.resolve(text, p);
    if (!q) throw py::value_error("load '" + name + "': quantity '" + text + "': " + p.message);
    quantities.push_back(std::move(*q));
  }
  auto f = shared_object(spec[0]);
  ForceElement fe = io::state_load(load, std::move(quantities), [f, name](double t, std::span<const double> q) -> Vec3 {
    if (g_sigint.load()) return Vec3::Constant(std::numeric_limits<double>::quiet_NaN());  // Ctrl-C: no more calls
    py::gil_scoped_acquire gil;
    try {
      py::tuple args(q.size() + 1);
      args[0] = py::float_(t);
      for (size_t i = 0; i < q.size(); ++i) args[i + 1] = py::float_(q[i]);
      const auto v = (*f)(*args).cast<std::array<double, 3>>();
      return Vec3(v[0], v[1], v[2]);
    } catch (py::error_already_set& e) {
      throw std::runtime_error("load '" + name + "': Python callable raised " + e.what());
    } catch (const py::cast_error&) {
      throw std::runtime_error("load '" + name + "': the Python callable must return 3 numbers");
    }
  });
  // The load itself no longer acts; the element stands in its place (and at its place in the file).
  load.value.setZero();
  load.value_of_t = nullptr;
  const size_t li = static_cast<size_t>(&load - m.system.loads().data());
  if (m.item_locations.forces.size() == m.system.forces().size() && li < m.item_locations.loads.size())
    m.item_locations.forces.push_back(m.item_locations.loads[li]);
  m.system.add_force(std::move(fe));
}

/// The joint_motor named `name`, or nullptr.
ForceElement* find_motor(io::LoadedModel& m, const std::string& name) {
  for (ForceElement& f : m.system.forces())
    if (f.name == name && f.type == ForceType::JointMotor) return &f;
  return nullptr;
}

/// joint_motor `motor` takes its effort (N m or N) from a Python callable: f(t), or (f, names)
/// with names among its own joint's "angle()", "rate()", "displacement()", "speed()" (empty
/// parentheses or the joint's name, as in the model file's value); f(t, *values) returns one
/// number. The motor stays a joint_motor (its sensor output, its reaction on the first body).
void set_motor_callable(ForceElement& motor, const py::handle& spec) {
  const std::string name = motor.name;
  py::object fn = py::reinterpret_borrow<py::object>(spec);
  std::vector<int> slots;  // 0 angle, 1 rate, 2 displacement, 3 speed
  if (py::isinstance<py::tuple>(spec) || py::isinstance<py::list>(spec)) {
    const py::tuple t(fn);
    if (t.size() != 2 || !PyCallable_Check(t[0].ptr()) || py::isinstance<py::str>(t[1]))
      throw py::type_error("joint_motor '" + name + "': expected a callable f(t) or a pair (f, [\"rate()\", ...]) "
                           "with f(t, *quantities)");
    static const std::array<const char*, 4> functions{"angle", "rate", "displacement", "speed"};
    for (const py::handle h : py::iter(t[1])) {
      if (!py::isinstance<py::str>(h)) throw py::type_error("joint_motor '" + name + "': the quantities are strings, e.g. \"rate()\"");
      const std::string text = h.cast<std::string>();
      int slot = -1;
      for (int k = 0; k < 4; ++k)
        if (text == std::string(functions[k]) + "()" || text == std::string(functions[k]) + "(" + motor.joint + ")") slot = k;
      if (slot < 0)
        throw py::value_error("joint_motor '" + name + "': quantity '" + text + "': a motor's Python value reads its "
                              "own joint's angle(), rate(), displacement(), speed() (joint '" + motor.joint +
                              "'); a force of other quantities is a load (f, [names])");
      slots.push_back(slot);
    }
    fn = t[0];
  } else if (!PyCallable_Check(spec.ptr())) {
    throw py::type_error("joint_motor '" + name + "': not callable");
  }
  motor.effort_uses_angle = std::find(slots.begin(), slots.end(), 0) != slots.end();
  motor.effort = [f = shared_object(fn), name, slots](double t, const JointCoordinates& c) -> double {
    if (g_sigint.load()) return std::numeric_limits<double>::quiet_NaN();  // Ctrl-C: no more calls
    const std::array<double, 4> all{c.angle, c.rate, c.displacement, c.speed};
    py::gil_scoped_acquire gil;
    try {
      py::tuple args(slots.size() + 1);
      args[0] = py::float_(t);
      for (size_t i = 0; i < slots.size(); ++i) args[i + 1] = py::float_(all[static_cast<size_t>(slots[i])]);
      return (*f)(*args).cast<double>();
    } catch (py::error_already_set& e) {
      throw std::runtime_error("joint_motor '" + name + "': Python callable raised " + e.what());
    } catch (const py::cast_error&) {
      throw std::runtime_error("joint_motor '" + name + "': the Python callable must return one number");
    }
  };
}

/// A copy of `m` whose loads named in `callables` take their value (N or N m, in the load's
/// frame) from a Python callable of t (s) returning 3 numbers, or from (f, quantities): f of t
/// and the named quantities' values (add_state_callable). The callable runs with the GIL taken;
/// its exceptions become a solver failure that names them.
ModelPtr with_callable_loads(const ModelPtr& m, const py::dict& callables) {
  if (callables.empty()) return m;
  auto copy = std::make_shared<io::LoadedModel>(*m);
  for (const auto& [key, fn] : callables) {
    const std::string name = py::str(key);
    if (ForceElement* motor = find_motor(*copy, name)) {
      set_motor_callable(*motor, fn);
      continue;
    }
    if (py::isinstance<py::tuple>(fn) || py::isinstance<py::list>(fn)) {
      add_state_callable(*copy, name, py::tuple(py::reinterpret_borrow<py::object>(fn)));
      continue;
    }
    if (!PyCallable_Check(fn.ptr())) throw py::type_error("load '" + name + "': not callable");
    Load& load = find_load(*copy, name);
    load.value_of_t = [f = shared_object(fn), name](double t) -> Vec3 {
      // After Ctrl-C the Python function is not called again (a slow one would hold the run for
      // as many calls as the step's iterations need): NaN fails the step, and the integrator,
      // which reads the interrupt flag between steps, stops.
      if (g_sigint.load()) return Vec3::Constant(std::numeric_limits<double>::quiet_NaN());
      py::gil_scoped_acquire gil;
      try {
        const auto v = (*f)(t).cast<std::array<double, 3>>();
        return Vec3(v[0], v[1], v[2]);
      } catch (py::error_already_set& e) {
        throw std::runtime_error("load '" + name + "': Python callable raised " + e.what());
      } catch (const py::cast_error&) {
        throw std::runtime_error("load '" + name + "': the Python callable must return 3 numbers");
      }
    };
  }
  return copy;
}

// ------------------------------------------------------------------------------------- results

py::dict stats_dict(const SolverStats& s) {
  py::dict d;
  d["steps"] = s.steps;
  d["rejected_steps"] = s.rejected_steps;
  d["newton_iterations"] = s.newton_iterations;
  d["residual_evaluations"] = s.residual_evaluations;
  d["jacobian_evaluations"] = s.jacobian_evaluations;
  d["factorizations"] = s.factorizations;
  d["error_test_failures"] = s.error_test_failures;
  d["regularized_steps"] = s.regularized_steps;
  d["max_position_violation"] = s.max_position_violation;
  d["max_velocity_violation"] = s.max_velocity_violation;
  d["energy_initial"] = s.energy_initial;
  d["energy_final"] = s.energy_final;
  d["wall_time"] = s.wall_time;
  d["last_step"] = s.last_step;
  return d;
}

const char* status_name(SolveStatus s) {
  switch (s) {
    case SolveStatus::Success: return "success";
    case SolveStatus::NewtonFailure: return "newton_failure";
    case SolveStatus::StepTooSmall: return "step_too_small";
    case SolveStatus::SingularMatrix: return "singular_matrix";
    case SolveStatus::ResidualFailure: return "residual_failure";
    case SolveStatus::TooMuchWork: return "too_much_work";
    case SolveStatus::InconsistentInitialConditions: return "inconsistent_initial_conditions";
    case SolveStatus::StoppedByObserver: return "stopped";
    case SolveStatus::Interrupted: return "interrupted";
    case SolveStatus::OtherFailure: return "other_failure";
    case SolveStatus::CheckFailed: return "check_failed";
  }
  return "other_failure";
}

/// A rows × cols array that owns `data` (no copy).
py::array_t<double> owning_array(std::unique_ptr<std::vector<double>> data, std::size_t cols) {
  const std::size_t rows = cols ? data->size() / cols : 0;
  std::vector<double>* raw = data.release();
  py::capsule owner(raw, [](void* p) { delete static_cast<std::vector<double>*>(p); });
  return py::array_t<double>({rows, cols}, {cols * sizeof(double), sizeof(double)}, raw->data(), owner);
}

py::list string_list(const std::vector<std::string>& v) {
  py::list l;
  for (const std::string& s : v) l.append(s);
  return l;
}

/// The dict a Result is made from: data (rows × columns, time first, owning `data`), columns,
/// units, status, status_text, message, t_reached, stats, warnings, solver, interrupted.
py::dict result_dict(std::unique_ptr<std::vector<double>> data, const std::vector<std::string>& columns,
                     const std::vector<std::string>& units, const SolveResult& res,
                     const std::vector<std::string>& warnings, const std::string& solver, bool interrupted) {
  py::dict out;
  out["data"] = owning_array(std::move(data), columns.size());
  out["columns"] = string_list(columns);
  out["units"] = string_list(units);
  out["status"] = status_name(res.status);
  out["status_text"] = to_string(res.status);
  out["message"] = res.message;
  out["t_reached"] = res.t_reached;
  out["stats"] = stats_dict(res.stats);
  out["warnings"] = string_list(warnings);
  out["solver"] = solver;
  out["interrupted"] = interrupted;
  return out;
}

/// Runs `m` to its end time. Returns a dict with data (rows × (1 + sensor columns), time first),
/// columns, units, status, status_text, message, t_reached, stats, warnings, solver, interrupted.
py::dict run_model(const ModelPtr& m, bool handle_sigint) {
  std::unique_ptr<io::ModelRun> run = make_run(m);
  const std::size_t cols = static_cast<std::size_t>(run->sensors().size()) + 1;
  auto data = std::make_unique<std::vector<double>>();
  try {
    const OutputGrid grid(0.0, m->settings.t_end, m->settings.output_every);
    // At most 2^24 values up front (128 MB); a longer run grows the buffer as it goes.
    data->reserve(std::min<std::size_t>(static_cast<std::size_t>(grid.size()) * cols, std::size_t{1} << 24));
  } catch (const std::exception&) {
    // invalid settings: the run reports them
  }

  // The bodies' poses at every output row, as `mbdae run` records them for the viewer.
  const std::size_t pose_values = std::size_t{io::kPoseValuesPerBody} * m->system.bodies().size();
  auto poses = std::make_unique<std::vector<float>>();
  std::vector<float> frame(pose_values);

  SolveResult res;
  bool interrupted = false;
  {
    SigintGuard sigint(handle_sigint);
    py::gil_scoped_release nogil;
    std::vector<double>& buffer = *data;
    std::vector<float>& pose_buffer = *poses;
    BodyKinematics& kin = run->kinematics();
    const io::RowObserver observer = [&](const StateView& s, std::span<const double> row) {
      buffer.push_back(s.t);
      buffer.insert(buffer.end(), row.begin(), row.end());
      io::pose_frame(kin, s, frame);
      pose_buffer.insert(pose_buffer.end(), frame.begin(), frame.end());
      return true;
    };
    try {
      res = run->run(observer, sigint.flag());
    } catch (const std::exception& e) {
      res.status = SolveStatus::OtherFailure;
      res.message = e.what();
      res.t_reached = buffer.size() >= cols ? buffer[buffer.size() - cols] : 0.0;
    }
    interrupted = sigint.raised() || res.status == SolveStatus::Interrupted;
    // Ctrl-C during a step: the Python loads return NaN from then on, so the step may fail
    // before the integrator reads the flag; the run was interrupted all the same.
    if (interrupted && res.status != SolveStatus::Success) {
      res.status = SolveStatus::Interrupted;
      res.message = "interrupted";
    }
  }

  std::vector<std::string> columns{"time"};
  columns.insert(columns.end(), run->sensors().columns().begin(), run->sensors().columns().end());
  std::vector<std::string> units{"s"};
  units.insert(units.end(), run->sensors().units().begin(), run->sensors().units().end());
  py::dict out = result_dict(std::move(data), columns, units, res, run->warnings(), run->method_summary(), interrupted);
  // The poses only for complete rows (an exception may end the run between a row and its frame).
  const std::size_t rows = static_cast<std::size_t>(py::len(out["data"]));
  poses->resize(std::min(poses->size(), rows * pose_values));
  const std::size_t frames = pose_values ? poses->size() / pose_values : 0;
  std::vector<float>* raw = poses.release();
  py::capsule owner(raw, [](void* q) { delete static_cast<std::vector<float>*>(q); });
  out["poses"] = py::array_t<float>({frames, pose_values}, {pose_values * sizeof(float), sizeof(float)}, raw->data(),
                                    owner);
  out["scene"] = io::scene_json(io::describe_scene(m->system, m->sensors, m->system.name.empty() ? m->file : m->system.name));
  out["meta"] = io::run_meta_json(*m, run->sensors());
  return out;
}

// ------------------------------------------------------------------------------------- check

/// What `mbdae check` states as data: Grübler's count, the true mobility (rank of the constraint
/// Jacobian at the initial configuration as given), the redundant equations and the bodies' mass
/// properties (principal moments about the COM, kg m², ascending).
py::dict check_model(const ModelPtr& m) {
  MobilityReport mob;
  std::vector<ModelProblem> problems;
  {
    py::gil_scoped_release nogil;
    try {
      mob = calc_mobility(m->system);
    } catch (const std::exception& e) {
      problems = problems_of(e);
    }
  }
  if (!problems.empty()) raise_located(*m, problems);
  py::dict d;
  d["bodies"] = mob.bodies;
  d["coordinates"] = mob.coordinates;
  d["joint_equations"] = mob.joint_equations;
  d["velocity_equations"] = mob.velocity_equations;
  d["grubler"] = mob.grubler;
  d["rank"] = mob.rank;
  d["mobility"] = mob.mobility;
  d["velocity_dof"] = mob.velocity_dof;
  d["redundant"] = string_list(mob.redundant);
  py::list mass;
  double total = 0;
  for (const RigidBody& b : m->system.bodies()) {
    const PrincipalAxes pa = RigidBodyInertia::from_inertia6(b.mass, b.inertia, b.com).principal_axes();
    py::dict body;
    body["name"] = b.name;
    body["mass"] = b.mass;
    body["com"] = std::vector<double>{b.com.x(), b.com.y(), b.com.z()};
    body["principal_moments"] = std::vector<double>{pa.moments.x(), pa.moments.y(), pa.moments.z()};
    mass.append(body);
    total += b.mass;
  }
  d["mass_properties"] = mass;
  d["total_mass"] = total;
  return d;
}

// ------------------------------------------------------------------------------------- analyses

py::array_t<double> to_array(const VecX& x) {
  return py::array_t<double>(static_cast<py::ssize_t>(x.size()), x.data());
}

/// The modes of `found` into d: frequency_hz, damped_frequency_hz, damping_ratio (arrays),
/// shapes (one coordinate vector per mode) and rigid_body_modes.
void add_modes(py::dict& d, const io::ModesReport& found) {
  std::vector<double> f, fd, zeta;
  py::list shapes;
  for (const Mode& mode : found.modes) {
    f.push_back(mode.frequency_hz);
    fd.push_back(mode.damped_frequency_hz);
    zeta.push_back(mode.damping_ratio);
    shapes.append(to_array(mode.shape));
  }
  d["frequency_hz"] = py::array_t<double>(static_cast<py::ssize_t>(f.size()), f.data());
  d["damped_frequency_hz"] = py::array_t<double>(static_cast<py::ssize_t>(fd.size()), fd.data());
  d["damping_ratio"] = py::array_t<double>(static_cast<py::ssize_t>(zeta.size()), zeta.data());
  d["shapes"] = shapes;
  d["rigid_body_modes"] = found.rigid_body_modes;
}

/// Static equilibrium from the model's consistent initial state (io::solve_statics, as `mbdae
/// statics`: gravity and loads ramped over `load_steps`), the sensor values there (v = 0, a = 0,
/// the equilibrium multipliers) and, with `modes`, the modes about it (io::solve_modes, as `mbdae
/// modes --at-equilibrium`).
py::dict statics_and_modes(const ModelPtr& m, bool modes, int load_steps) {
  if (solver_info(m->settings.solver).path != SolverPath::Implicit)
    throw py::value_error("statics and modes use the implicit formulation: give an implicit solver (solver= one of " +
                          solver_names_where([](const SolverInfo& s) { return s.path == SolverPath::Implicit; }) +
                          "), not '" + m->solver_name() + "'");
  if (load_steps < 1) throw py::value_error("load_steps must be at least 1");
  StaticsResult res;
  io::StaticsReport rep;
  io::ModesReport found;
  std::vector<double> row;
  std::vector<std::string> columns;
  std::string failure;
  {
    py::gil_scoped_release nogil;
    try {
      io::ModelAnalysis a(*m);
      io::StaticsSettings st;
      st.load_steps = load_steps;
      rep = io::solve_statics(a, st);
      res.converged = rep.converged;
      res.q = rep.q;
      res.lambda = rep.lambda;
      res.iterations = rep.iterations;
      res.message = rep.message;
      if (!rep.steps.empty()) {
        res.force_residual = rep.steps.back().force_residual;
        res.constraint_residual = rep.steps.back().constraint_residual;
      }
      auto sensors = a.make_sensors({true, true});
      row.resize(static_cast<std::size_t>(sensors->size()));
      columns = sensors->columns();
      const VecX zero = VecX::Zero(res.q.size());
      sensors->evaluate(StateView{0.0, res.q, zero, zero, res.lambda}, row);
      if (modes && res.converged) {
        io::ModesSettings ms;
        ms.at_equilibrium = true;
        ms.statics = st;
        found = io::solve_modes(a, ms);
      }
    } catch (const std::exception& e) {
      failure = e.what();
    }
  }
  if (!failure.empty()) throw std::runtime_error(failure);
  py::dict d;
  d["converged"] = res.converged;
  d["iterations"] = res.iterations;
  d["q"] = to_array(res.q);
  d["lambda"] = to_array(res.lambda);
  d["force_residual"] = res.force_residual;
  d["constraint_residual"] = res.constraint_residual;
  d["message"] = res.message;
  py::dict sensors;
  for (std::size_t i = 0; i < row.size(); ++i) sensors[py::str(columns[i])] = row[i];
  d["sensors"] = sensors;
  if (modes) add_modes(d, found);
  return d;
}

/// Modes about the model's initial state (io::solve_modes without at_equilibrium, as `mbdae
/// modes`): frequencies, damping ratios, shapes, rigid-body modes, the state (q, v, lambda) and
/// whether it is an equilibrium (`equilibrium`, `unbalanced_force`, `max_speed`, `warning`).
py::dict modes_at_initial_state(const ModelPtr& m) {
  if (const SolverInfo* si = find_solver(m->solver_name()); !si || si->path != SolverPath::Implicit)
    throw py::value_error("modes use the implicit formulation: give an implicit solver "
                          "(solver='generalized_alpha', 'ida' or 'trapezoidal_index2'), not '" +
                          m->solver_name() + "'");
  io::ModesReport found;
  std::string failure;
  {
    py::gil_scoped_release nogil;
    try {
      io::ModelAnalysis a(*m);
      found = io::solve_modes(a, {});
    } catch (const std::exception& e) {
      failure = e.what();
    }
  }
  if (!failure.empty()) throw std::runtime_error(failure);
  py::dict d;
  d["q"] = to_array(found.q);
  d["v"] = to_array(found.v);
  d["lambda"] = to_array(found.lambda);
  d["equilibrium"] = found.not_equilibrium.empty();
  d["unbalanced_force"] = found.unbalanced_force;
  d["max_speed"] = found.max_speed;
  d["warning"] = found.not_equilibrium;
  add_modes(d, found);
  return d;
}

// ---------------------------------------------------------------- kinematics and inverse dynamics

/// Kinematic analysis (inverse = false) or kinematics with inverse dynamics of a driven mechanism
/// with zero mobility, as `mbdae kinematics` and `mbdae inverse` (io::MotionTable's columns).
/// Returns the dict of run_model() (data, columns, units, status, ...) plus left_out.
py::dict motion_model(const ModelPtr& m, bool inverse) {
  const KinematicsOptions ko = io::kinematics_options(*m);
  auto data = std::make_unique<std::vector<double>>();
  std::vector<io::MotionColumn> columns;
  std::vector<std::string> left_out, warnings;
  SolveResult res;
  std::string refused, failure;
  {
    py::gil_scoped_release nogil;
    try {
      io::ModelAnalysis a(*m);
      warnings = a.warnings();
      io::require_driven(a);
      io::MotionTable table(a, inverse);
      columns = table.columns();
      left_out = table.left_out();
      std::vector<double> row;
      std::vector<double>& buffer = *data;
      const io::AnalysisObserver obs = [&](const StateView& st, const InverseDynamicsResult* r) {
        table.row(st, r, row);
        buffer.insert(buffer.end(), row.begin(), row.end());
        return true;
      };
      res = inverse ? io::solve_model_inverse(a, ko, obs) : io::solve_model_kinematics(a, ko, obs);
    } catch (const std::invalid_argument& e) {
      refused = e.what();
    } catch (const std::exception& e) {
      failure = e.what();
    }
  }
  if (!refused.empty()) throw py::value_error(m->file + ": " + refused);
  if (!failure.empty() && columns.empty()) throw std::runtime_error(failure);
  if (!failure.empty()) {
    res.status = SolveStatus::OtherFailure;
    res.message = failure;
  }
  const std::size_t cols = columns.size();
  if (cols && data->size() >= cols) res.t_reached = (*data)[data->size() - cols];
  std::vector<std::string> names, units;
  for (const io::MotionColumn& c : columns) {
    names.push_back(c.name);
    units.push_back(c.unit);
  }
  py::dict out = result_dict(std::move(data), names, units, res, warnings,
                             inverse ? "kinematics and inverse dynamics" : "kinematics", false);
  out["left_out"] = string_list(left_out);
  return out;
}

// ------------------------------------------------------------------------------------- stepping

/// A run stepped from Python (ModelRun::integrator()). Calls are serialised by a mutex, so that
/// two Python threads sharing one object cannot step it at once. The mutex is only ever waited for
/// with the GIL released (lock()): a thread stepping (mutex held) may need the GIL for a Python
/// load, so a thread holding the GIL must never wait for the mutex.
class Stepper {
 public:
  /// `inputs`: loads whose value the host sets (set_input()), each with its initial value (3
  /// numbers, N or N m) or None for the model's value at t = 0.
  Stepper(const ModelPtr& m, const py::dict& callables, const py::dict& inputs)
      : model_(with_inputs(with_callable_loads(m, callables), inputs)), run_(make_run(model_)) {}

  /// Sets input `name` to `value` until the next call: 3 numbers for a load (N or N m, the load's
  /// frame), one number for a joint_motor (its effort, N m or N).
  void set_input(const std::string& name, const py::object& value) {
    auto it = inputs_.find(name);
    if (it == inputs_.end()) throw py::key_error("'" + name + "' is not an input of this integrator");
    const Vec3 v = input_value(name, value);
    const auto guard = lock();
    *it->second = v;
  }

  /// Integrates to t (s, ≥ time). Returns false on failure (status(), message()). With
  /// `handle_sigint`, Ctrl-C stops it between steps (status "interrupted"), as in run().
  bool advance_to(double t, bool handle_sigint) {
    py::gil_scoped_release nogil;
    std::lock_guard guard(mutex_);
    SigintGuard sigint(handle_sigint);
    Integrator& integ = run_->integrator();
    integ.set_interrupt_flag(sigint.flag());
    const bool ok = integ.advance_to(t);
    integ.set_interrupt_flag(nullptr);
    if (!ok && sigint.raised()) interrupted_ = true;  // a step failed on the NaN of a skipped Python load
    return ok;
  }
  double time() {
    const auto guard = lock();
    return run_->integrator().time();
  }
  /// Replaces the state at the current time (io::ModelRun::set_state): {‖Δq‖, ‖Δv‖} of the
  /// consistency step.
  std::pair<double, double> set_state(const std::vector<double>& q, const std::vector<double>& v) {
    const VecX Q = Eigen::Map<const VecX>(q.data(), static_cast<Eigen::Index>(q.size()));
    const VecX V = Eigen::Map<const VecX>(v.data(), static_cast<Eigen::Index>(v.size()));
    py::gil_scoped_release nogil;
    std::lock_guard guard(mutex_);
    return run_->set_state(Q, V);
  }
  py::array_t<double> q() {
    const auto guard = lock();
    const VecX& q = run_->integrator().state().q;
    return py::array_t<double>(static_cast<py::ssize_t>(q.size()), q.data());
  }
  py::array_t<double> v() {
    const auto guard = lock();
    const VecX& v = run_->integrator().state().v;
    return py::array_t<double>(static_cast<py::ssize_t>(v.size()), v.data());
  }
  /// Current sensor values (one per sensors().columns()).
  py::array_t<double> sensor_values() {
    const auto guard = lock();
    std::vector<double> row(static_cast<std::size_t>(run_->sensors().size()));
    run_->sensors().evaluate(run_->integrator().state(), row);
    return py::array_t<double>(static_cast<py::ssize_t>(row.size()), row.data());
  }
  py::list columns() { return string_list(run_->sensors().columns()); }
  py::list units() { return string_list(run_->sensors().units()); }
  std::string status() {
    const auto guard = lock();
    return interrupted_ ? "interrupted" : status_name(run_->integrator().status());
  }
  std::string message() {
    const auto guard = lock();
    return run_->integrator().message();
  }
  py::dict stats() {
    const auto guard = lock();
    return stats_dict(run_->integrator().stats());
  }
  std::string solver() { return run_->method_summary(); }

 private:
  /// A value of input `name`: one number for a joint_motor (kept in x), 3 numbers for a load.
  Vec3 input_value(const std::string& name, const py::object& value) const {
    if (motor_inputs_.count(name)) {
      try {
        return Vec3(value.cast<double>(), 0, 0);
      } catch (const py::cast_error&) {
        throw py::type_error("input '" + name + "' is a joint_motor: its value is one number (N m or N)");
      }
    }
    try {
      const auto v = value.cast<std::array<double, 3>>();
      return Vec3(v[0], v[1], v[2]);
    } catch (const py::cast_error&) {
      throw py::type_error("input '" + name + "' is a force or torque: its value is 3 numbers (N or N m)");
    }
  }

  ModelPtr with_inputs(const ModelPtr& m, const py::dict& inputs) {
    if (inputs.empty()) return m;
    auto copy = std::make_shared<io::LoadedModel>(*m);
    for (const auto& [key, initial] : inputs) {
      const std::string name = py::str(key);
      if (ForceElement* motor = find_motor(*copy, name)) {
        // The motor's effort (N m or N) is what the host sets: 0 until set, or the initial value.
        motor_inputs_.insert(name);
        auto cell = std::make_shared<Vec3>(Vec3::Zero());
        if (!initial.is_none()) *cell = input_value(name, py::reinterpret_borrow<py::object>(initial));
        motor->effort = [cell](double, const JointCoordinates&) { return (*cell)[0]; };
        motor->effort_uses_angle = false;
        inputs_[name] = cell;
        continue;
      }
      Load& load = find_load(*copy, name);
      auto cell = std::make_shared<Vec3>(load.value_of_t ? load.value_of_t(0.0) : load.value);
      if (!initial.is_none()) {
        const auto v = initial.cast<std::array<double, 3>>();
        *cell = Vec3(v[0], v[1], v[2]);
      }
      load.value_of_t = [cell](double) { return *cell; };
      inputs_[name] = cell;
    }
    return copy;
  }

  std::unique_lock<std::mutex> lock() {
    py::gil_scoped_release nogil;
    return std::unique_lock(mutex_);
  }

  std::map<std::string, std::shared_ptr<Vec3>> inputs_;  // before model_: filled by its initializer
  std::set<std::string> motor_inputs_;                    // the inputs that are joint motors
  ModelPtr model_;  // the run keeps a reference to it
  std::unique_ptr<io::ModelRun> run_;
  std::mutex mutex_;
  bool interrupted_ = false;  // Ctrl-C stopped advance_to (its step may have failed on a skipped Python load)
};

}  // namespace

}  // namespace mbdae::python

PYBIND11_MODULE(_mbdae, mod) {
  using namespace mbdae;
  using namespace mbdae::python;
  mod.doc() = "C++ core of the mbdae package (use the package `mbdae`, not this module).";

  py::class_<io::LoadedModel, std::shared_ptr<io::LoadedModel>>(mod, "LoadedModel")
      .def_property_readonly("file", [](const io::LoadedModel& m) { return m.file; })
      .def_property_readonly("name", [](const io::LoadedModel& m) { return m.system.name; })
      .def_property_readonly("description", [](const io::LoadedModel& m) { return m.description; })
      .def_property_readonly("solver", &io::LoadedModel::solver_name)
      .def_property_readonly("end_time", [](const io::LoadedModel& m) { return m.settings.t_end; })
      .def_property_readonly("step", [](const io::LoadedModel& m) { return m.settings.step; })
      .def_property_readonly("output_every", [](const io::LoadedModel& m) { return m.settings.output_every; })
      .def_property_readonly("bodies", [](const io::LoadedModel& m) {
        std::vector<std::string> names;
        for (const RigidBody& b : m.system.bodies()) names.push_back(b.name);
        return names;
      })
      .def_property_readonly("joints", [](const io::LoadedModel& m) {
        std::vector<std::string> names;
        for (const Joint& j : m.system.joints()) names.push_back(j.name);
        return names;
      })
      .def_property_readonly("sensors", [](const io::LoadedModel& m) {
        std::vector<std::string> names;
        for (const io::SensorSpec& s : m.sensors) names.push_back(s.name);
        return names;
      });

  mod.def(
      "load", [](const std::string& path, const std::vector<std::pair<std::string, std::string>>& sets) {
        return std::const_pointer_cast<io::LoadedModel>(load(path, sets));
      },
      py::arg("path"), py::arg("sets"));
  mod.def(
      "load_text",
      [](const std::string& text, const std::string& name, const std::vector<std::pair<std::string, std::string>>& sets) {
        return std::const_pointer_cast<io::LoadedModel>(load(name, sets, text));
      },
      py::arg("text"), py::arg("name"), py::arg("sets"));
  mod.def(
      "run",
      [](const std::shared_ptr<io::LoadedModel>& m, bool handle_sigint, const py::dict& loads) {
        return run_model(with_callable_loads(m, loads), handle_sigint);
      },
      py::arg("model"), py::arg("handle_sigint"), py::arg("loads"));

  mod.def(
      "sensitivities",
      [](const std::string& path, const std::vector<std::pair<std::string, std::string>>& sets,
         const std::vector<std::string>& params) {
        // io::SensitivityRun (docs/sensitivities.md): the rows and d(row)/d(parameter), GIL released.
        std::vector<io::Override> overrides;
        for (const auto& [key, value] : sets) overrides.push_back({key, value});
        std::unique_ptr<io::SensitivityRun> run;
        std::vector<io::Diagnostic> diagnostics;
        std::string refused;
        auto rows = std::make_unique<std::vector<double>>();
        auto derivs = std::make_unique<std::vector<double>>();
        SolveResult res;
        {
          py::gil_scoped_release nogil;
          try {
            run = std::make_unique<io::SensitivityRun>(path, overrides, params);
          } catch (const io::LoadError& e) {
            diagnostics = e.diagnostics();
          } catch (const std::exception& e) {
            refused = e.what();
          }
          if (run)
            res = run->run([&](const StateView& s, std::span<const double> row, std::span<const double> d) {
              rows->push_back(s.t);
              rows->insert(rows->end(), row.begin(), row.end());
              derivs->insert(derivs->end(), d.begin(), d.end());
              return true;
            });
        }
        if (!diagnostics.empty()) raise_model_error(diagnostics);
        if (!run) {
          io::Diagnostic d;
          d.file = path;
          d.message = refused;
          raise_model_error({d});
        }
        const std::vector<std::string>& columns = run->sensors().columns();
        py::dict out;
        py::list names{};
        names.append("time");
        for (const std::string& c : columns) names.append(c);
        out["columns"] = names;
        out["rows"] = owning_array(std::move(rows), columns.size() + 1);
        // d[i, k · columns + j]: row i's column j derived by parameter k.
        out["derivatives"] = owning_array(std::move(derivs), columns.size() * params.size());
        py::list ps;
        for (const io::SensitivityParameter& p : run->parameters())
          ps.append(py::make_tuple(p.key, p.value, p.delta));
        out["parameters"] = ps;
        out["status"] = status_name(res.status);
        out["message"] = res.message;
        out["t_reached"] = res.t_reached;
        return out;
      },
      py::arg("path"), py::arg("sets"), py::arg("params"));

  mod.def(
      "check", [](const std::shared_ptr<io::LoadedModel>& m) { return check_model(m); }, py::arg("model"));

  mod.def(
      "statics",
      [](const std::shared_ptr<io::LoadedModel>& m, bool modes, int load_steps) {
        return statics_and_modes(m, modes, load_steps);
      },
      py::arg("model"), py::arg("modes"), py::arg("load_steps") = 1);

  mod.def(
      "modes_at_initial_state", [](const std::shared_ptr<io::LoadedModel>& m) { return modes_at_initial_state(m); },
      py::arg("model"));

  mod.def(
      "motion", [](const std::shared_ptr<io::LoadedModel>& m, bool inverse) { return motion_model(m, inverse); },
      py::arg("model"), py::arg("inverse"));

  // A result's rows as the `mbdae` command writes them (io::CsvWriter: the same digits).
  mod.def(
      "write_csv",
      [](const std::string& path, const std::vector<std::string>& columns,
         const py::array_t<double, py::array::c_style | py::array::forcecast>& data) {
        if (data.ndim() != 2 || static_cast<size_t>(data.shape(1)) != columns.size())
          throw py::value_error("write_csv: expected a (rows, " + std::to_string(columns.size()) + ") array");
        const double* p = data.data();
        const size_t rows = static_cast<size_t>(data.shape(0)), cols = columns.size();
        py::gil_scoped_release nogil;
        io::CsvWriter w(path, columns);
        for (size_t r = 0; r < rows; ++r) w.write_row(std::span<const double>(p + r * cols, cols));
      },
      py::arg("path"), py::arg("columns"), py::arg("data"));

  // Result.save() and Result.animate(): the files `mbdae run` writes beside its CSV and the
  // viewer's page. Every path goes through the output policy (io/FilePolicy.h) first.
  mod.def(
      "require_outputs",
      [](const std::vector<std::string>& outputs, const std::vector<std::string>& inputs) {
        io::require_outputs(outputs, inputs);
      },
      py::arg("outputs"), py::arg("inputs"));
  mod.def(
      "write_text",
      [](const std::string& path, const std::string& text) { mbdae::viewer::write_page(path, text); },
      py::arg("path"), py::arg("text"));
  mod.def(
      "write_poses",
      [](const std::string& path, const py::array_t<double, py::array::c_style | py::array::forcecast>& times,
         const py::array_t<float, py::array::c_style | py::array::forcecast>& frames, std::uint32_t bodies,
         const std::string& label) {
        const std::size_t values = std::size_t{io::kPoseValuesPerBody} * bodies;
        if (frames.ndim() != 2 || static_cast<std::size_t>(frames.shape(1)) != values ||
            frames.shape(0) != times.size())
          throw py::value_error("write_poses: expected a (" + std::to_string(times.size()) + ", " +
                                std::to_string(values) + ") array of poses");
        const float* f = frames.data();
        const double* t = times.data();
        const std::size_t n = static_cast<std::size_t>(frames.shape(0));
        py::gil_scoped_release nogil;
        io::PoseWriter w(path, bodies, io::PoseKind::Motion, label);
        for (std::size_t k = 0; k < n; ++k) w.write_frame(t[k], std::span<const float>(f + k * values, values));
        w.close();
      },
      py::arg("path"), py::arg("times"), py::arg("frames"), py::arg("bodies"), py::arg("label"));
  mod.def(
      "write_view",
      [](const std::string& csv_path, const std::string& out_path, const std::string& three_js, const std::string& title) {
        const std::string three_path = mbdae::viewer::three_js_path(three_js);
        io::require_outputs({out_path}, {csv_path, io::pose_path_for(csv_path), io::scene_path_for(csv_path), three_path});
        const std::string three = mbdae::viewer::read_three_js(three_path);
        py::gil_scoped_release nogil;
        mbdae::viewer::write_page(out_path, mbdae::viewer::viewer_page(csv_path, {}, three, title));
      },
      py::arg("csv_path"), py::arg("out_path"), py::arg("three_js"), py::arg("title"));

  // The inertia helpers of model/Inertia.h (RigidBodyInertia): a body's mass, COM and inertia
  // from shapes, combined and moved, as the model format's body keys (Python: mbdae.Inertia).
  using V3 = std::array<double, 3>;
  auto vec3 = [](const V3& a) { return Vec3(a[0], a[1], a[2]); };
  auto list3 = [](const Vec3& v) { return V3{v[0], v[1], v[2]}; };
  py::class_<RigidBodyInertia>(mod, "Inertia")
      .def(py::init<>())
      .def_static("box", [](double mass, double lx, double ly, double lz) { return RigidBodyInertia::box(mass, lx, ly, lz); },
                  py::arg("mass"), py::arg("lx"), py::arg("ly"), py::arg("lz"))
      .def_static(
          "cylinder",
          [vec3](double mass, double radius, double length, const V3& axis) {
            return RigidBodyInertia::cylinder(mass, radius, length, vec3(axis));
          },
          py::arg("mass"), py::arg("radius"), py::arg("length"), py::arg("axis"))
      .def_static("sphere", [](double mass, double radius) { return RigidBodyInertia::sphere(mass, radius); },
                  py::arg("mass"), py::arg("radius"))
      .def_static(
          "point_mass", [vec3](double mass, const V3& p) { return RigidBodyInertia::point_mass(mass, vec3(p)); },
          py::arg("mass"), py::arg("position"))
      .def_property_readonly("mass", &RigidBodyInertia::mass)
      .def_property_readonly("com", [list3](const RigidBodyInertia& i) { return list3(i.com()); })
      .def_property_readonly("inertia",
                             [](const RigidBodyInertia& i) {
                               const Vec6 j = i.inertia6_about_reference();
                               return std::array<double, 6>{j[0], j[1], j[2], j[3], j[4], j[5]};
                             })
      .def_property_readonly("inertia_com",
                             [](const RigidBodyInertia& i) {
                               const Vec6 j = i.inertia6_com();
                               return std::array<double, 6>{j[0], j[1], j[2], j[3], j[4], j[5]};
                             })
      .def("translated", [vec3](const RigidBodyInertia& i, const V3& d) { return i.translated(vec3(d)); }, py::arg("d"))
      .def(
          "rotated",
          [](const RigidBodyInertia& i, const std::array<std::array<double, 3>, 3>& r) {
            Mat3 R;
            for (int a = 0; a < 3; ++a)
              for (int b = 0; b < 3; ++b) R(a, b) = r[static_cast<size_t>(a)][static_cast<size_t>(b)];
            return i.rotated(R);
          },
          py::arg("R"))
      .def("__add__", [](const RigidBodyInertia& a, const RigidBodyInertia& b) { return a + b; });

  py::class_<Stepper>(mod, "Stepper")
      .def(py::init([](const std::shared_ptr<io::LoadedModel>& m, const py::dict& loads,
                       const py::dict& inputs) { return std::make_unique<Stepper>(m, loads, inputs); }),
           py::arg("model"), py::arg("loads"), py::arg("inputs"))
      .def("set_input", &Stepper::set_input, py::arg("name"), py::arg("value"))
      .def("advance_to", &Stepper::advance_to, py::arg("t"), py::arg("handle_sigint") = false)
      .def("set_state", &Stepper::set_state, py::arg("q"), py::arg("v"))
      .def_property_readonly("time", &Stepper::time)
      .def_property_readonly("q", &Stepper::q)
      .def_property_readonly("v", &Stepper::v)
      .def("sensor_values", &Stepper::sensor_values)
      .def_property_readonly("columns", &Stepper::columns)
      .def_property_readonly("units", &Stepper::units)
      .def_property_readonly("status", &Stepper::status)
      .def_property_readonly("message", &Stepper::message)
      .def_property_readonly("stats", &Stepper::stats)
      .def_property_readonly("solver", &Stepper::solver);
}
