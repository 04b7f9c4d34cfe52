#include <mbdae/io/Run.h>

#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <unordered_map>
#include <cmath>
#include <stdexcept>

#include <cstdarg>
#include <cstdio>

#include <mbdae/contact/ContactPairs.h>
#include <mbdae/formulations/ContactDetector.h>
#include <mbdae/formulations/CompiledModel.h>
#include <mbdae/formulations/LieGroupBodies.h>
#include <mbdae/model/ForceTypes.h>
#include <mbdae/solvers/Assembly.h>
#include <mbdae/solvers/Explicit.h>

namespace mbdae::io {

struct ModelRun::Impl {
  std::shared_ptr<const CompiledModel> compiled;  // the tables every formulation of the run reads
  PreparedSystem prepared;                     // implicit path
  std::unique_ptr<NewtonEulerSystem> ne;       // explicit, Lie-group and impulse paths
  std::unique_ptr<LieGroupBodies> lg;          // Lie-group path
  VecX q0, v0;
  const VecX empty;
  ImpulseIntegrator* impulse = nullptr;        // = integrator_ on the impulse path
};

namespace {

/// printf-style formatting into a std::string (summaries and warnings).
[[gnu::format(printf, 1, 2)]] std::string format(const char* f, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, f);
  std::vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  return buf;
}

/// The monitor of an explicit-path run: what BodyKinematics says of the state.
class KinematicsMonitor final : public StateMonitor {
 public:
  explicit KinematicsMonitor(BodyKinematics& k) : k_(k) {}
  bool has_energy() const override { return true; }
  double energy(const StateView& s) override {
    k_.update(s);
    return k_.energy();
  }
  ConstraintViolation constraint_violation(const StateView& s) override {
    k_.update(s);
    return k_.constraint_violation();
  }

 private:
  BodyKinematics& k_;
};

/// True if a sensor needs accelerations or multipliers that the solver's kinematics compute from
/// the equations of motion (the explicit paths: their states carry neither).
bool needs_dynamics(const LoadedModel& m, const SolverInfo& s) {
  for (const SensorSpec& sp : m.sensors) {
    const SensorOutputInfo& o = sensor_output_info(sp.output);
    if ((o.needs_accelerations && s.support.accelerations) || (o.needs_multipliers && s.support.multipliers))
      return true;
  }
  return false;
}

/// Positions and velocities of the Newton–Euler path onto its joints (positions by projection,
/// velocities by the constraint impulse, M-weighted), as the implicit path's assembly does; the
/// largest |C| left on the positions. A workspace of its own: the projection factorizes J M⁻¹ Jᵀ
/// at every iteration.
double project_onto_joints(const NewtonEulerSystem& ne, VecX& q, VecX& v) {
  NewtonEulerSystem::Workspace ws = ne.make_workspace();
  const double after = ne.project_positions(ws, q, 1e-12, 50);
  ne.project_velocities(ws, q, v);
  return after;
}

void check_restart(const RunState& r, int n, int m) {
  if (r.coordinates != n || r.q.size() != n)
    throw std::invalid_argument("cannot restart from the state file: it has " + std::to_string(r.coordinates) +
                                " coordinates, this model's formulation " + std::to_string(n));
  if (r.constraints != m)
    throw std::invalid_argument("cannot restart from the state file: it has " + std::to_string(r.constraints) +
                                " constraint equations, this model's formulation " + std::to_string(m));
}

}  // namespace

bool has_energy_source(const System& system) {
  if (!system.loads().empty()) return true;
  // Joints whose equations depend on time (a motion, a speed, moving offsets) do work through
  // their multipliers; a load on a shaft does work u q̇.
  for (const Joint& j : system.joints())
    if (j.time_dependent()) return true;
  for (const ShaftForce& f : system.shaft_forces())
    if (f.kind == ShaftForce::Kind::Load) return true;
  for (const ForceElement& f : system.forces())
    if (!force_type_info(f.type).pairwise || f.type == ForceType::JointMotor) return true;
  return false;
}

bool has_unmeasured_energy_source(const System& system) {
  for (const Joint& j : system.joints())
    if (j.time_dependent()) return true;
  for (const ShaftForce& f : system.shaft_forces())
    if (f.kind == ShaftForce::Kind::Load) return true;
  return false;
}

std::map<std::string, std::pair<long long, const ContactPairKind*>> contact_pair_counts(const System& system) {
  // By shape type, linear in the contacts: of the shapes of types a and b, c_a c_b pairs in all,
  // less those on one body (for a = b: c (c − 1) / 2 less those on one body).
  constexpr size_t S = kShapeTypeCount;
  std::array<long long, S> all{};
  std::unordered_map<std::string, std::array<long long, S>> per_body;
  for (const Contact& c : system.contacts()) {
    ++all[static_cast<size_t>(c.shape)];
    ++per_body[c.body][static_cast<size_t>(c.shape)];
  }
  std::map<std::string, std::pair<long long, const ContactPairKind*>> kinds;
  for (size_t a = 0; a < S; ++a)
    for (size_t b = a; b < S; ++b) {
      long long pairs = a == b ? all[a] * (all[a] - 1) / 2 : all[a] * all[b];
      for (const auto& [body, c] : per_body) pairs -= a == b ? c[a] * (c[a] - 1) / 2 : c[a] * c[b];
      if (pairs <= 0) continue;
      bool swapped;
      const ContactPairKind& k = contact_pair_kind(static_cast<ShapeType>(a), static_cast<ShapeType>(b), swapped);
      auto& e = kinds[k.name];
      e.first += pairs;
      e.second = &k;
    }
  return kinds;
}

long long penalty_contact_pairs(const System& system) {
  long long total = 0;
  for (const auto& [name, e] : contact_pair_counts(system))
    if (e.second->on(ContactPath::Penalty)) total += e.first;
  return total;
}

std::string penalty_contacts_refusal(const System& system) {
  const long long pairs = penalty_contact_pairs(system);
  if (pairs <= max_penalty_contact_pairs) return "";
  char text[600];
  std::snprintf(text, sizeof text,
                "the penalty contacts of the implicit solvers keep every pair of shapes on different bodies: "
                "%zu shapes make %lld pairs, about %.3g GB (%.0f kB a pair) and a matching share of every step's "
                "work; at most %lld pairs are taken. Use solver.type: impulse (it finds the touching pairs "
                "with a broad phase), or fewer shapes",
                system.contacts().size(), pairs, static_cast<double>(pairs) * penalty_contact_pair_bytes / 1e9,
                penalty_contact_pair_bytes / 1e3, max_penalty_contact_pairs);
  return text;
}

RunChecks run_checks(const LoadedModel& model) {
  const System& sys = model.system;
  double size = 0.1, M = 0, T0 = 0;  // size: the model's extent, at least 0.1 m
  for (const RigidBody& b : sys.bodies()) {
    size = std::max(size, b.position.cwiseAbs().maxCoeff());
    M += b.mass;
    // Kinetic energy of the given velocities: translation, and rotation about the reference
    // point with the largest moment (an upper bound of the rotational part).
    T0 += 0.5 * b.mass * b.velocity.squaredNorm() +
          0.5 * b.inertia.head<3>().maxCoeff() * b.angular_velocity.squaredNorm();
  }
  for (const Joint& j : sys.joints())
    size = std::max({size, j.point.cwiseAbs().maxCoeff(), j.point_b.cwiseAbs().maxCoeff()});
  const double L = std::max(1.0, size);
  RunChecks c;
  if (!(M > 0)) return c;
  const double g = std::max(1.0, sys.gravity.norm());
  const double v = std::sqrt(2 * g * L) + std::sqrt(2 * T0 / M);
  c.max_position_violation = 0.05 * size;  // the mechanism's own scale (no 1 m floor)
  c.max_velocity_violation = v;
  // With sources of energy that are all force elements (joint motors, user forces), the run checks
  // its energy less their work (RunChecks::energy_minus_work); other sources (driven joints, loads
  // from the host, loads on shafts) do work the run does not measure: no energy check then.
  // The work is integrated on the step grid by the generalized-α family and the explicit
  // methods; on the output grid otherwise (IDA, Lie-group, impulse), where an element that counts a
  // joint's turns could be read with a turn missed between two output times: not measured then.
  const SolverInfo& solver = solver_info(model.settings.solver);
  const bool on_steps = solver.path == SolverPath::NewtonEuler ||
                        (solver.path == SolverPath::Implicit && model.settings.solver != SolverType::Ida);
  bool counts_turns = false;
  for (const ForceElement& f : sys.forces()) counts_turns = counts_turns || f.effort_uses_angle;
  c.measure_work = on_steps || !counts_turns;
  if (!has_energy_source(sys) || (!has_unmeasured_energy_source(sys) && c.measure_work)) {
    c.max_energy_growth = M * g * L + T0;
    c.max_energy_growth_relative = 1;
    c.energy_minus_work = has_energy_source(sys);
  }
  return c;
}

ModelRun::ModelRun(const LoadedModel& model, const RunState* restart)
    : model_(model), impl_(std::make_unique<Impl>()) {
  const std::string name = model.solver_name();
  solver_ = &solver_info(model.settings.solver);
  if (restart) {
    auto refuse = [&](const std::string& why) {
      throw std::invalid_argument("cannot restart from the state file: " + why);
    };
    if (solver_->path == SolverPath::LieGroup || solver_->path == SolverPath::Impulse)
      refuse("solver " + name + " cannot continue from a saved state (use an implicit solver, rk4 or dopri5)");
    if (restart->solver != name)
      refuse("it was written by solver " + restart->solver + ", this run uses " + name +
             " (the solver's history differs; give the same solver.type)");
    for (const ForceElement& f : model.system.forces()) {
      if (f.type == ForceType::JointLimit && f.joint_type == JointType::Revolute)
        refuse("joint_limit '" + f.name + "' on the angle of joint '" + f.joint +
               "' counts turns, which state files do not carry yet");
      else if (f.effort_uses_angle)
        refuse(f.type == ForceType::JointMotor
                   ? "joint_motor '" + f.name + "' uses angle(" + f.joint +
                         "), whose count of turns state files do not carry yet (a motor without angle() continues)"
                   : "force '" + f.name + "' uses a joint's angle(), whose count of turns state files do not carry yet");
    }
    for (const ControllerState& z : model.system.controller_states())
      if (z.derivative_uses_angle)
        refuse("controller state '" + z.name + "' reads a joint's angle(), whose count of turns state files do not carry yet");
    if (restart->bodies != static_cast<int>(model.system.bodies().size()))
      refuse("it has " + std::to_string(restart->bodies) + " bodies, the model " +
             std::to_string(model.system.bodies().size()));
  }
  const SimulationSettings& ss = model.settings;
  Impl& I = *impl_;
  I.compiled = compile(model.system);
  switch (solver_->path) {
    case SolverPath::Implicit: {
      // Refused before any pair is made (their memory grows with the square of the shapes).
      if (std::string why = penalty_contacts_refusal(model.system); !why.empty()) throw std::invalid_argument(why);
      MultibodyOptions mo;
      mo.reaction_friction = solver_->support.reaction_friction;  // the solvers that form ∂r/∂λ
      I.prepared = prepare(I.compiled, 0.0, {}, mo);
      warnings_ = I.prepared.warnings;
      warning_items_ = I.prepared.warning_items;
      kinematics_ = std::make_unique<MultibodyKinematics>(*I.prepared.system);
      monitor_ = std::make_unique<ConstrainedSystemMonitor>(*I.prepared.system);
      if (restart) {
        check_restart(*restart, I.prepared.system->num_coordinates(), I.prepared.system->num_constraints());
        if (restart->v.size() != restart->q.size())
          throw std::invalid_argument("cannot restart from the state file: state.v has the wrong size");
        integrator_ = make_integrator(*I.prepared.system, restart->t, restart->q, restart->v, ss);
        integrator_->restore_history(restart->history);
      } else {
        integrator_ = make_integrator(*I.prepared.system, 0.0, I.prepared.q0, I.prepared.v0, ss);
      }
      break;
    }
    case SolverPath::NewtonEuler:
    case SolverPath::Impulse: {
      // The impulse stepper takes joint friction (Coulomb) and joint limits as impulses.
      NewtonEulerOptions neo;
      neo.joint_elements_by_impulses = solver_->path == SolverPath::Impulse;
      I.ne = std::make_unique<NewtonEulerSystem>(I.compiled, neo);
      I.ne->initial_state(I.q0, I.v0);
      if (I.ne->num_joint_rows() > 0) {
        // Start on the joints (the explicit methods hold them at the acceleration level only; the
        // impulse stepper's first step would otherwise take the initial velocities' impulse):
        // positions by projection, velocities by the constraint impulse (M-weighted), as the
        // implicit path's assembly does.
        VecX c;
        NewtonEulerSystem::Workspace ws = I.ne->make_workspace();
        I.ne->joint_violation(ws, I.q0, c);
        const double before = c.cwiseAbs().maxCoeff();
        const VecX q_given = I.q0;
        const double after = project_onto_joints(*I.ne, I.q0, I.v0);
        if (!(after <= 1e-8))
          throw std::runtime_error(format("the initial positions cannot satisfy the joints: max |C| %.3g -> "
                                               "%.3g after projection",
                                               before, after));
        if ((I.q0 - q_given).norm() > 1e-6) {
          warnings_.push_back(format("the initial positions were moved by |dq| = %.3g to close the joints "
                                          "(max |C| %.3g -> %.3g)",
                                          (I.q0 - q_given).norm(), before, after));
          warning_items_.emplace_back();
        }
      }
      kinematics_ = std::make_unique<NewtonEulerKinematics>(*I.ne, NewtonEulerKinematics::Layout::NewtonEuler,
                                                            needs_dynamics(model, *solver_));
      monitor_ = std::make_unique<NewtonEulerMonitor>(*I.ne);
      if (solver_->path == SolverPath::NewtonEuler) {
        if (restart) {
          check_restart(*restart, static_cast<int>(I.q0.size()), 0);
          if (restart->v.size() != I.v0.size()) throw std::invalid_argument("cannot restart: the velocities have the wrong size");
          integrator_ = make_integrator(*I.ne, restart->t, restart->q, restart->v, ss);
          integrator_->restore_history(restart->history);
        } else {
          integrator_ = make_integrator(*I.ne, 0.0, I.q0, I.v0, ss);
        }
      } else {
        auto integ = make_impulse(*I.ne, 0.0, I.q0, I.v0, impulse_options(ss));
        I.impulse = integ.get();
        integrator_ = std::move(integ);
      }
      break;
    }
    case SolverPath::LieGroup: {
      I.ne = std::make_unique<NewtonEulerSystem>(I.compiled);
      I.lg = std::make_unique<LieGroupBodies>(I.compiled);
      const LieGroupState s0 = I.lg->initial_state();
      auto integ = make_lie_group(*I.lg, 0.0, s0, lie_group_options(ss));
      monitor_ = std::make_unique<LieGroupMonitor>(*I.lg, *integ);
      integrator_ = std::move(integ);
      kinematics_ = std::make_unique<NewtonEulerKinematics>(*I.ne, NewtonEulerKinematics::Layout::LieGroup,
                                                            needs_dynamics(model, *solver_));
      break;
    }
  }
  // Shapes that overlap deeply at the start would be pushed apart with energy from nowhere, by
  // impulses or penalty forces alike: refused on every path (ContactGeometry.h).
  if (model.system.contacts().size() > 1 && !restart) {
    std::vector<ModelProblem> overlaps = I.ne && solver_->path != SolverPath::LieGroup
                                             ? initial_overlap_problems(*I.ne, I.q0)
                                             : initial_overlap_problems(model.system);
    if (!overlaps.empty()) throw ModelError(std::move(overlaps));
  }
  StateContents contents;
  contents.accelerations = solver_->support.accelerations;
  contents.multipliers = solver_->support.multipliers;
  // The sensors' reference (displacement) is the run's initial state, also when it is continued.
  if (restart) {
    const VecX& q0 = solver_->path == SolverPath::Implicit ? I.prepared.q0 : I.q0;
    const VecX& v0 = solver_->path == SolverPath::Implicit ? I.prepared.v0 : I.v0;
    sensors_ = std::make_unique<SensorSet>(model.sensors, *kinematics_, StateView{0.0, q0, v0, I.empty, I.empty}, contents);
    sensors_->set_memory(restart->sensor_memory);
  } else {
    sensors_ = std::make_unique<SensorSet>(model.sensors, *kinematics_, integrator_->state(), contents);
  }
  row_.resize(static_cast<size_t>(sensors_->size()));
}

std::pair<double, double> ModelRun::set_state(const VecX& q_in, const VecX& v_in) {
  Impl& I = *impl_;
  if (solver_->path == SolverPath::LieGroup)
    throw std::invalid_argument(std::string("the state of solver ") + solver_->name +
                                " (rotations on the Lie group) cannot be set as coordinates q, v");
  const StateView now = integrator_->state();
  const double t = now.t;
  if (q_in.size() != now.q.size() || v_in.size() != now.v.size())
    throw std::invalid_argument(format("set_state: expected %ld positions and %ld velocities, got %ld and %ld",
                                       static_cast<long>(now.q.size()), static_cast<long>(now.v.size()),
                                       static_cast<long>(q_in.size()), static_cast<long>(v_in.size())));
  if (!q_in.allFinite() || !v_in.allFinite()) throw std::invalid_argument("set_state: non-finite positions or velocities");
  VecX q = q_in, v = v_in;
  std::unique_ptr<Integrator> next;
  if (solver_->path == SolverPath::Implicit) {
    const MultibodySystem& sys = *I.prepared.system;
    const AssemblyReport r = assemble_initial_state(sys, t, q, v);
    if (!r.converged)
      throw ItemError("set_state: the state cannot satisfy the constraints: " + r.message,
                      r.worst_row >= 0 ? sys.constraint_item(r.worst_row) : ItemRef{});
    next = make_integrator(sys, t, q, v, model_.settings);
  } else {
    I.ne->normalize_quaternions(q);
    if (I.ne->num_joint_rows() > 0) {
      const double after = project_onto_joints(*I.ne, q, v);
      if (!(after <= 1e-8))
        throw std::runtime_error(format("set_state: the positions cannot satisfy the joints (max |C| %.3g after projection)",
                                        after));
    }
    if (solver_->path == SolverPath::NewtonEuler) {
      next = make_integrator(*I.ne, t, q, v, model_.settings);
    } else {
      auto integ = make_impulse(*I.ne, t, q, v, impulse_options(model_.settings));
      I.impulse = integ.get();
      next = std::move(integ);
    }
  }
  integrator_ = std::move(next);
  return {(q - q_in).norm(), (v - v_in).norm()};
}

RunState ModelRun::save_state() const {
  RunState s;
  s.model = model_.system.name;
  s.solver = solver_->name;
  s.bodies = static_cast<int>(model_.system.bodies().size());
  const StateView st = integrator_->state();
  s.t = st.t;
  s.q = st.q;
  s.v = st.v;
  s.a = st.a;
  s.lambda = st.lambda;
  s.coordinates = static_cast<int>(s.q.size());
  s.constraints = multibody() ? multibody()->num_constraints() : 0;
  s.history = integrator_->history();
  s.sensor_memory = sensors_->memory();
  return s;
}

ModelRun::~ModelRun() = default;

const MultibodySystem* ModelRun::multibody() const { return impl_->prepared.system.get(); }
const NewtonEulerSystem* ModelRun::newton_euler() const { return impl_->ne.get(); }
const ImpulseStats* ModelRun::impulse_stats() const { return impl_->impulse ? &impl_->impulse->pgs_stats() : nullptr; }

SolveResult ModelRun::run(const RowObserver& obs, const std::atomic<bool>* interrupt) {
  integrator_->set_interrupt_flag(interrupt);
  // The flag is also read at every output time, for integrators that do not read it between
  // their steps (IDA's steps happen inside IDASolve).
  bool flag_seen = false;
  const Observer observer = [&](const StateView& s) {
    sensors_->evaluate(s, row_);
    if (obs && !obs(s, row_)) return false;
    if (interrupt && interrupt->load()) {
      flag_seen = true;
      return false;
    }
    return true;
  };
  // Output times on the grid from t = 0, also for a run continued from a state file.
  SolveResult r = run_to_end(*monitor_, *integrator_, model_.settings, observer,
                             run_checks(model_), 0.0);
  integrator_->set_interrupt_flag(nullptr);
  if (flag_seen && r.status == SolveStatus::StoppedByObserver) {
    r.status = SolveStatus::Interrupted;
    r.message = format("interrupted at t = %.10g s", r.t_reached);
  }
  return r;
}

std::string ModelRun::method_summary() const {
  const SimulationSettings& ss = model_.settings;
  std::string method = solver_->name;
  const bool ga = ss.solver == SolverType::GeneralizedAlpha;
  switch (solver_->path) {
    case SolverPath::Implicit:
      if (ss.solver == SolverType::Ida)
        method += format(", rtol %g, atol %g, %s", ss.rtol, ss.atol, ss.sparse ? "sparse" : "dense");
      else if (ss.adaptive)
        method += format(", adaptive, first h = %g s, rtol %g, atol %g", ss.step, ss.rtol, ss.atol) +
                  (ga ? format(", rho_inf %g", ss.rho_inf) : "");
      else
        method += format(", h = %g s", ss.step) + (ga ? format(", rho_inf %g", ss.rho_inf) : "");
      if (ga) method += ss.formulation == AlphaFormulation::StabilizedIndex2 ? ", stabilized index 2 (GGL)" : ", index 3";
      break;
    case SolverPath::NewtonEuler:
      if (solver_->adaptive) method += format(", first h = %g s, rtol %g, atol %g", ss.step, ss.rtol, ss.atol);
      else method += format(", h = %g s", ss.step);
      if (impl_->ne->num_joint_rows() > 0)
        method += ss.projection ? ", joints projected after every step" : ", joints not projected";
      break;
    case SolverPath::LieGroup:
    case SolverPath::Impulse: method += format(", h = %g s", ss.step); break;
  }
  return method;
}

}  // namespace mbdae::io
