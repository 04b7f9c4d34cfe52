#pragma once
/// @file Analyses.h
/// The analyses of a loaded model, the same from every caller (`mbdae statics`, `modes`,
/// `kinematics`, `inverse`, C++ programs, the Python module): static equilibrium with load steps,
/// modes about the initial state or the equilibrium, kinematic analysis of a driven mechanism and
/// inverse dynamics along its motion. They run on the implicit formulation (MultibodySystem,
/// prepared: redundant equations removed, initial state consistent) whatever solver the model
/// names, and evaluate the model's sensors at their states.
///
///     io::LoadedModel m = io::load_model_file("linkage.yaml");
///     io::ModelAnalysis a(m);
///     io::StaticsReport st = io::solve_statics(a, {.load_steps = 10});
///     io::ModesReport md = io::solve_modes(a, {.at_equilibrium = true});
///
/// Load steps (statics): the loads — gravity and the model's `loads` — are multiplied by the load
/// fraction f_k = k / n, k = 1 … n, and the equilibrium at f_k is found by Newton's method with a
/// line search (solve_static_equilibrium, Statics.h) from the equilibrium at f_{k−1}. Springs,
/// their rest lengths and drives are not scaled. A step that finds no equilibrium ends the
/// analysis with the fraction reached; so does a change of the number of unstable directions
/// between two steps (the path crossed a limit or bifurcation point: snap-through or buckling),
/// because under load control the next equilibrium found would lie on another branch, and a jump
/// across a less stable region (the straight path between two steps' equilibria, each point
/// projected onto the constraints with the least-squares multipliers of its loads). The path
/// starts at the equilibrium without loads if it is isolated; at a neutral one (a pendulum without
/// gravity) the first step is not compared with it.

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <mbdae/formulations/BodyKinematics.h>
#include <mbdae/io/ModelLoader.h>
#include <mbdae/io/Sensors.h>
#include <mbdae/solvers/InverseDynamics.h>
#include <mbdae/solvers/Kinematics.h>
#include <mbdae/solvers/Linearization.h>
#include <mbdae/solvers/Simulation.h>
#include <mbdae/solvers/Statics.h>

namespace mbdae::io {

/// A loaded model's implicit formulation, prepared, for the analyses below. Not copyable; one per
/// thread (the LoadedModel may be shared).
class ModelAnalysis {
 public:
  /// Prepares the model (prepare(): redundant equations removed, consistent initial state).
  /// @throws ModelError listing the model's problems, and naming every controller state and
  ///         speed-driven joint (the analyses do not take them: they are of a run in time);
  ///         ItemError if the initial state cannot be made consistent (as ModelRun).
  explicit ModelAnalysis(const LoadedModel& model);
  ~ModelAnalysis();
  ModelAnalysis(const ModelAnalysis&) = delete;
  ModelAnalysis& operator=(const ModelAnalysis&) = delete;

  const LoadedModel& model() const { return model_; }
  /// The formulation (redundant rows disabled) and its consistent initial state.
  const PreparedSystem& prepared() const { return prepared_; }
  const MultibodySystem& system() const { return *prepared_.system; }
  /// What prepare() changed or removed, with the item each is about.
  const std::vector<std::string>& warnings() const { return prepared_.warnings; }
  const std::vector<ItemRef>& warning_items() const { return prepared_.warning_items; }
  /// Body kinematics of this formulation's states.
  BodyKinematics& kinematics() { return *kinematics_; }

  /// The model's sensors for states that carry `contents`; those whose output needs more are left
  /// out and named in `left_out` ("sensor 'drive': reaction_torque needs Lagrange multipliers").
  /// The initial state is the reference of `displacement`.
  std::unique_ptr<SensorSet> make_sensors(StateContents contents, std::vector<std::string>* left_out = nullptr);

  /// A copy of the formulation with gravity and the loads multiplied by `fraction` (the same
  /// disabled rows). @throws ModelError as MultibodySystem.
  std::unique_ptr<MultibodySystem> scaled_system(double fraction) const;

 private:
  const LoadedModel& model_;
  PreparedSystem prepared_;
  std::unique_ptr<MultibodyKinematics> kinematics_;
};

/// Settings of solve_statics().
struct StaticsSettings {
  int load_steps = 1;        ///< n ≥ 1: the loads are ramped over n equal steps
  StaticsOptions newton;     ///< tolerances and iterations of each step (t is the time, s)
  /// Check the stability of each step's equilibrium and the path between steps (eigenvalues of
  /// the reduced stiffness, dense: O(n³) in the number of coordinates n); skipped above
  /// max_stability_coordinates (StaticsReport::stability_checked says whether it was done).
  bool check_stability = true;
  int max_stability_coordinates = 2000;
};

/// One converged load step.
struct StaticsStep {
  double load_fraction = 0;     ///< f_k
  int iterations = 0;           ///< Newton iterations of this step
  double force_residual = 0;    ///< ‖−f + C_qᵀλ‖∞ at its equilibrium, N or N m
  double constraint_residual = 0;  ///< ‖C‖∞
  int unstable_directions = -1;    ///< negative eigenvalues of the reduced stiffness (−1: not checked)
  /// Zero eigenvalues of the reduced stiffness (within 1e-9 of the largest |eigenvalue|):
  /// directions of no restoring force, e.g. a free rotation (−1: not checked). With none
  /// negative and some zero the equilibrium is neutral in them, not stable.
  int neutral_directions = -1;
  VecX q, lambda;               ///< the equilibrium (sizes n, m)
};

/// Outcome of solve_statics().
struct StaticsReport {
  bool converged = false;          ///< equilibrium at the full load (fraction 1)
  double load_fraction = 0;        ///< the largest fraction at which equilibrium was found (0: none)
  std::vector<StaticsStep> steps;  ///< the converged steps, in order
  int iterations = 0;              ///< Newton iterations of all steps, the failed one included
  VecX q, lambda;                  ///< the last equilibrium found (the assembled start if none)
  std::string message;             ///< empty if converged; else why, with the load fraction reached
  bool stability_checked = false;  ///< the stability checks ran (StaticsSettings::check_stability)
};

/// Static equilibrium under the model's loads, ramped over settings.load_steps steps (file
/// comment). Never throws for a model without equilibrium (converged = false, message).
StaticsReport solve_statics(const ModelAnalysis& a, const StaticsSettings& settings = {});

/// Settings of solve_modes().
struct ModesSettings {
  /// Linearise about the static equilibrium (solve_statics with `statics`) instead of the initial
  /// state (with its velocities, accelerations and multipliers).
  bool at_equilibrium = false;
  StaticsSettings statics;  ///< used with at_equilibrium
  /// A direction of the reduced stiffness with singular value below rigid_tolerance × the largest
  /// (or below 1e-12 absolute if all are zero) counts as a rigid-body mode.
  double rigid_tolerance = 1e-8;
};

/// Outcome of solve_modes().
struct ModesReport {
  bool ok = false;             ///< false if the equilibrium was not found (statics.message says why)
  StaticsReport statics;       ///< with at_equilibrium
  double t = 0;                ///< time of the linearisation, s
  VecX q, v, a, lambda;        ///< the state linearised about
  int dof = 0;                 ///< k: dimension of the constraint manifold's tangent space
  std::vector<Mode> modes;     ///< modal_analysis(): one per complex pair or real eigenvalue
  int rigid_body_modes = 0;    ///< dimension of the reduced stiffness's null space
  /// For each rigid-body mode, the coordinate that moves most in it (coordinate_label).
  std::vector<std::string> rigid_body_coordinates;
  std::string message;         ///< why !ok
  /// Without at_equilibrium: ‖r(q, v, 0, λ)‖∞ = ‖M a‖∞ of the initial state, the generalized force
  /// that the constraints do not balance (N or N m), and the largest speed ‖v‖∞.
  double unbalanced_force = 0;
  double max_speed = 0;
  /// Without at_equilibrium: non-empty if the initial state is no equilibrium (unbalanced force
  /// above StaticsOptions::force_tolerance × max(1, ‖f‖∞), or v ≠ 0), naming the coordinate of the
  /// largest unbalanced force: its modes are those of the motion near this state, not vibrations
  /// about an equilibrium.
  std::string not_equilibrium;
};

/// Linearisation (linearize(), Linearization.h) and eigenvalues about the initial state or the
/// static equilibrium. @throws std::invalid_argument for velocity-level (nonholonomic) rows,
/// std::runtime_error for a massless direction (as modal_analysis()).
ModesReport solve_modes(const ModelAnalysis& a, const ModesSettings& settings = {});

/// The coordinates (coordinate_label) that stay free when the constraints hold: one per degree
/// of freedom of the mechanism at (t, q), chosen by column-pivoting QR of the null space of C_q
/// (the independent coordinates of Wehage and Haug, 1982). Empty for a model with none.
std::vector<std::string> free_coordinates(const MultibodySystem& sys, double t, const VecX& q);

/// Checks that kinematic analysis applies: no degree of freedom is left undriven.
/// @throws std::invalid_argument naming the free coordinates (free_coordinates()).
void require_driven(const ModelAnalysis& a);

/// Called at every output time of kinematics and inverse dynamics with the state (λ empty for
/// kinematics) and, for inverse dynamics, its result (else nullptr); return false to stop.
using AnalysisObserver = std::function<bool(const StateView&, const InverseDynamicsResult*)>;

/// Settings of solve_model_kinematics() and solve_model_inverse(): the model's end time and
/// output interval unless given.
KinematicsOptions kinematics_options(const LoadedModel& m);

/// Kinematic analysis of the model (solve_kinematics, Kinematics.h) from its initial state.
/// @throws std::invalid_argument naming the free coordinates (free_coordinates()) if the model
///         has degrees of freedom that no drive fixes, or for velocity-level rows.
SolveResult solve_model_kinematics(const ModelAnalysis& a, const KinematicsOptions& opt, const AnalysisObserver& obs);

/// Kinematic analysis and inverse dynamics at every output time (solve_inverse_dynamics).
/// @throws as solve_model_kinematics().
SolveResult solve_model_inverse(const ModelAnalysis& a, const KinematicsOptions& opt, const AnalysisObserver& obs);


/// One column of a MotionTable: name, unit, the sensor or group it belongs to, and what it is.
struct MotionColumn {
  std::string name;    ///< "crank.x", "drive.effort", "pivot.fx", or a sensor column
  std::string unit;    ///< SI: "m", "rad", "N m", ...
  std::string group;   ///< body, joint or sensor name ("time", "residual" for those)
  std::string output;  ///< "position", "drive effort", "reaction_force", a sensor output, or ""
};

/// The rows of a kinematic analysis or an inverse-dynamics analysis, as `mbdae kinematics` and
/// `mbdae inverse` write them and the Python module returns them: time first; then for
/// kinematics each body's position (m), rotation (Tait–Bryan x-y-z angles, rad), velocity,
/// angular velocity, acceleration and angular acceleration (world axes); for inverse dynamics each
/// driven joint's effort (N m or N, along its axis: the drive's multiplier), every joint's
/// reaction force and torque (joint frame, on body b) and the residual ‖C_qᵀλ − (f − M a)‖∞;
/// then the model's sensors that the states carry (the others are named in left_out()).
class MotionTable {
 public:
  /// @throws as ModelAnalysis::make_sensors().
  MotionTable(ModelAnalysis& a, bool inverse);
  const std::vector<MotionColumn>& columns() const { return columns_; }
  /// Sensors left out ("sensor 'x': reaction_torque needs Lagrange multipliers").
  const std::vector<std::string>& left_out() const { return left_out_; }
  /// The driven joints (indices into the model's joints), in the order of their effort columns.
  const std::vector<int>& driven() const { return driven_; }
  const SensorSet& sensors() const { return *sensors_; }
  /// The row of state s (and of r for inverse dynamics; nullptr for kinematics) into `row`
  /// (resized to columns().size()).
  void row(const StateView& s, const InverseDynamicsResult* r, std::vector<double>& row);

 private:
  ModelAnalysis& a_;
  bool inverse_;
  std::vector<MotionColumn> columns_;
  std::vector<std::string> left_out_;
  std::vector<int> driven_;
  std::unique_ptr<SensorSet> sensors_;
  std::vector<double> sensor_row_;
};

}  // namespace mbdae::io
