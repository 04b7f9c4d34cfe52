#pragma once
/// @file Run.h
/// A model file's run, the same from every caller (the `mbdae` command, C++ programs, the study
/// runner, bindings): the formulation its solver needs, a consistent initial state, the
/// integrator, the run's monitor and the sensors, and the one run loop (run_to_end()) that hands
/// each output state and its sensor row to the caller.
///
///     io::LoadedModel m = io::load_model_file("slider_crank.yaml");
///     io::ModelRun run(m);
///     SolveResult r = run.run([&](const StateView& s, std::span<const double> row) { ...; return true; });
///
/// Consistent initial state: the implicit solvers' prepare() (redundant equations removed, positions
/// and velocities assembled onto the constraints); the Newton–Euler path projects positions and
/// velocities onto the joints; the Lie-group and impulse paths start from the model's state.

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <mbdae/formulations/BodyKinematics.h>
#include <mbdae/contact/ContactPairs.h>
#include <mbdae/io/ModelLoader.h>
#include <mbdae/io/Sensors.h>
#include <mbdae/io/StateFile.h>
#include <mbdae/solvers/ImpulseStepper.h>
#include <mbdae/solvers/Simulation.h>
#include <mbdae/solvers/SolverRegistry.h>

namespace mbdae::io {

/// Called at the start and at every output time with the state and the sensor values (one per
/// SensorSet column); return false to stop the run (status StoppedByObserver).
using RowObserver = std::function<bool(const StateView& state, std::span<const double> row)>;

/// What every run of `model` checks at its output times (RunChecks in SolverCommon.h), from the
/// model's scales (docs/solvers.md, "Checks of a run"): with ℓ = max(0.1 m, the largest
/// |coordinate| of the bodies' positions and the joints' points), L = max(1 m, ℓ), M the total
/// mass, g = max(|gravity|, 1 m/s²), T0 the initial kinetic energy of the bodies' given
/// velocities and v = sqrt(2 g L) + sqrt(2 T0 / M):
/// - the state, its energy and its constraint violations finite;
/// - ‖C‖∞ ≤ 0.05 ℓ and ‖C_q v + C_t‖∞ ≤ v;
/// - without a source of energy (driven or speed-driven joints and moving joint offsets, applied
///   loads, loads on shafts, user forces, joint motors and what a controller state drives through
///   them), an energy growth of at
///   most M g L + T0 + |E(t0)|, i.e. more than doubling the energy on the model's scale;
/// - with sources that are all loads on bodies or force elements (joint motors, user forces, and
///   what controller states drive through them), the same bound on the energy less the work those elements did
///   (integrated along the run), plus a tenth of the work they exchanged (∫|P| dt).
/// Either way a force element with a potential that makes energy (a stiff spring or stop on too
/// long a step) stops the run by its name (run_to_end()).
RunChecks run_checks(const LoadedModel& model);

/// The penalty contacts of the implicit solvers keep every pair of shapes on different bodies
/// whose kind their path takes (memory and work grow with the square of the shapes). Measured:
/// about 12 kB a pair (a pile of 100, 200 and 400 spheres on a plane: 66, 245 and 900 MB).
inline constexpr long long max_penalty_contact_pairs = 50000;
inline constexpr double penalty_contact_pair_bytes = 12e3;
/// The pairs of shapes on different bodies by pair kind (its name: the count and the kind),
/// counted by shape type (linear in the contacts, no pair is made).
std::map<std::string, std::pair<long long, const ContactPairKind*>> contact_pair_counts(const System& system);
/// Those pairs that the penalty contacts take.
long long penalty_contact_pairs(const System& system);
/// Why the model's penalty contacts are refused (more than max_penalty_contact_pairs pairs, with
/// the memory they would take), or "" if they are not.
std::string penalty_contacts_refusal(const System& system);
/// True if the model has a source of energy: a joint whose equations depend on time (motion,
/// speed, moving offsets), an applied load, a load on a shaft, a user force or a joint motor.
bool has_energy_source(const System& system);
/// True if the model has a source of energy whose work a run does not measure: a joint whose
/// equations depend on time or a load on a shaft. The other sources (loads on bodies, joint
/// motors, user forces) are integrated along the run (RunChecks::energy_minus_work).
bool has_unmeasured_energy_source(const System& system);

/// One run of a loaded model with the solver its settings name (file comment). Not copyable;
/// not thread-safe (one object per thread; the LoadedModel may be shared).
class ModelRun {
 public:
  /// Builds everything the run needs at t0 = 0.
  /// @throws ModelError listing the model's problems with their items; ItemError (a
  ///         std::runtime_error) if the initial state cannot be made consistent, naming the worst
  ///         equation (item() its joint or body) or a dependent joint; std::runtime_error if the
  ///         explicit path's projection cannot close the joints; std::invalid_argument for a
  ///         sensor that names an unknown item or an output the solver's states do not carry;
  ///         SolverSettingsError for invalid settings.
  /// With `restart` (read_state_file()), the run continues from that state at its time: the
  /// solver's history and the sensors' memory are restored, and the output grid stays that of
  /// the run that wrote it (output times 0, every, 2 every, …).
  /// @throws std::invalid_argument also if `restart` was written for another model or solver
  ///         (body count, coordinates, solver.type), or for a solver that cannot continue from a
  ///         state (lie_rk4, impulse).
  explicit ModelRun(const LoadedModel& model, const RunState* restart = nullptr);
  ~ModelRun();
  ModelRun(const ModelRun&) = delete;
  ModelRun& operator=(const ModelRun&) = delete;

  /// The model this run was built from.
  const LoadedModel& model() const { return model_; }
  /// The solver's declaration (SolverRegistry.h).
  const SolverInfo& solver() const { return *solver_; }
  /// What was changed to make the initial state consistent, redundant equations removed, ...
  const std::vector<std::string>& warnings() const { return warnings_; }
  /// Beside each of warnings(): the item it is about (LoadedModel::locate() finds it in the
  /// file), or Kind::None.
  const std::vector<ItemRef>& warning_items() const { return warning_items_; }
  /// The sensors (columns, units).
  const SensorSet& sensors() const { return *sensors_; }
  /// The sensors, to evaluate them at the integrator's current state when stepping from a host
  /// loop (SensorSet::evaluate() updates kinematics()).
  SensorSet& sensors() { return *sensors_; }
  /// Body kinematics of the run's states (e.g. poses for a viewer): update() it with a state
  /// handed to the observer before querying.
  BodyKinematics& kinematics() { return *kinematics_; }
  /// The integrator, for stepping from a host loop instead of run().
  Integrator& integrator() { return *integrator_; }
  /// The implicit formulation (nullptr on the other paths).
  const MultibodySystem* multibody() const;
  /// The Newton–Euler formulation of the explicit, Lie-group and impulse paths (else nullptr).
  const NewtonEulerSystem* newton_euler() const;
  /// PGS statistics so far (impulse solver; else nullptr).
  const ImpulseStats* impulse_stats() const;

  /// Runs from the current time to the model's end time with output every
  /// model().settings.output_every, handing every output state with its sensor row to `obs`.
  /// `interrupt` (may be null) is read between steps: once true, the run stops with status
  /// Interrupted at the last accepted step. Failures are returned, not thrown.
  SolveResult run(const RowObserver& obs, const std::atomic<bool>* interrupt = nullptr);

  /// Replaces the state at the integrator's current time by (q, v), in the solver's coordinates
  /// (as integrator().state() has them), made consistent as at the start of a run: on the
  /// implicit path by assembly (positions by Gauss–Newton, velocities by the mass-weighted
  /// projection), on the explicit and impulse paths by projection onto the joints (and unit
  /// Euler parameters); then the solver starts afresh from it (its history, e.g.
  /// generalized-α's accelerations, is recomputed; its statistics count from zero). For a
  /// controller or a co-simulation that sets the state between advance_to() calls. Returns the
  /// change the consistency made, {‖Δq‖, ‖Δv‖}.
  /// @throws std::invalid_argument for sizes other than the state's, non-finite values, or the
  ///         Lie-group solver (its state is not (q, v)); ItemError or std::runtime_error if the
  ///         state cannot be made consistent (the run keeps its previous state then).
  std::pair<double, double> set_state(const VecX& q, const VecX& v);
  /// The state of the run at the integrator's current time, with the solver's history and the
  /// sensors' memory, for write_state_file().
  RunState save_state() const;

  /// The solver line of a summary: "generalized_alpha, h = 0.001 s, rho_inf 0.8", ...
  std::string method_summary() const;

 private:
  struct Impl;
  const LoadedModel& model_;
  const SolverInfo* solver_;
  std::vector<std::string> warnings_;
  std::vector<ItemRef> warning_items_;
  std::unique_ptr<Impl> impl_;
  std::unique_ptr<BodyKinematics> kinematics_;
  std::unique_ptr<StateMonitor> monitor_;
  std::unique_ptr<Integrator> integrator_;
  std::unique_ptr<SensorSet> sensors_;
  std::vector<double> row_;
};

}  // namespace mbdae::io
