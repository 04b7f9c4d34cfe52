#pragma once
/// @file Multibody.h
/// The implicit formulation: rigid bodies in absolute coordinates with Lagrange-multiplier joints
/// (the formulation of Exudyn's ObjectRigidBody, seed document 001, Eq. 52–54), as a loop over
/// assembly units (AssemblyUnit.h). MultibodySystem itself holds no equations: it makes the unit
/// list from the compiled model (formulations/src/units/Units.cpp), lets each unit claim its
/// coordinates and constraint rows in list order (that order is the state layout below), builds
/// the tangent and Jacobian patterns from the units' blocks once, and evaluates every function
/// (residual, forces, constraints, constraint velocity, γ, tangent, mass, Jacobians, energy) as
/// one loop over the units in the same order. The sections below state each unit's equations.
///
/// | unit (formulations/src/units/) | coordinates              | rows                  | by central differences (available_jacobians()) |
/// |--------------------------------|--------------------------|-----------------------|------------------------------------------------|
/// | RigidBodies                    | 7 or 6 per body          | Euler-parameter norms | ∂r/∂q, ∂r/∂v (inertia, loads)                  |
/// | Shafts                         | one per shaft            | —                     | none                                           |
/// | CouplingAngles                 | one per coupled revolute | —                     | none                                           |
/// | Controllers                    | one per controller state | —                     | ∂r/∂q, ∂r/∂v                                   |
/// | ForceElements                  | —                        | —                     | ∂r/∂q, ∂r/∂v                                   |
/// | ReactionFriction               | —                        | —                     | ∂r/∂q, ∂r/∂v (∂r/∂λ analytic)                  |
/// | PenaltyContacts                | —                        | —                     | ∂r/∂q, ∂r/∂v                                   |
/// | ShaftForces                    | —                        | —                     | none                                           |
/// | Joints                         | —                        | the joints' rows      | ∂(C_qᵀλ)/∂q, ∂Ċ/∂q                             |
/// | CouplingRows                   | —                        | angle rows, couplings | ∂(C_qᵀλ)/∂q, ∂Ċ/∂q                             |
///
/// Units of MultibodyOptions::extra_units follow the built-in ones (their coordinates and rows
/// last). The differences are local to a unit's element (one body's, pair's or row's coordinates),
/// so a tangent costs time linear in the number of elements.
///
/// State layout, body by body (ground has no coordinates):
///
/// | parametrization    | coordinates q_i                 | size |
/// |--------------------|---------------------------------|------|
/// | Euler parameters   | p (3), θ = [w, x, y, z] (4)      | 7    |
/// | Tait–Bryan xyz     | p (3), angles (3), R = Rx Ry Rz  | 6    |
/// | rotation vector    | p (3), v (3), R = exp(ṽ)         | 6    |
///
/// p is the body's reference point in world coordinates; velocities are q̇. With the local G
/// matrix of the parametrization (ω_B = G θ̇) the equations of a body are (Eq. 52)
///
///     [ m I          −m R b̃ G ] [ p̈ ]   [ m R ω̃ b̃ ω + m R b̃ Ġθ̇          ]   [ F      ]
///     [ m Gᵀ b̃ Rᵀ    Gᵀ J G   ] [ θ̈ ] = [ −Gᵀ ω̃ J ω − Gᵀ J Ġθ̇           ] + [ Gᵀ Rᵀ τ ] − C_qᵀ λ
///
/// with b the COM offset and J the inertia about the reference point (body axes), F the applied
/// force (world) and τ the applied torque about the reference point (world).
///
/// Constraint rows: one Euler-parameter norm row θᵀθ − 1 per Euler-parameter body (Eq. 53;
/// its velocity level 2θᵀθ̇ is Eq. 54), then the joints' rows in the order of the model, then the
/// couplings' rows (below).
/// Every joint row is written in terms of the two markers' positions and axes; its derivative
/// with respect to a body's virtual displacement δp and world virtual rotation δφ is formed first
/// (a "twist Jacobian" W, rows × 6) and mapped to coordinates by T_i = [I 0; 0 R G], using
/// ∂(R x̄)/∂θ = −R x̄̃ G.
///
/// Couplings (System::couplings(), Σ c_i q_i = 0): each revolute joint named by a coupling gets
/// one more coordinate φ after the bodies' coordinates (no mass, no applied force), its angle
/// counting turns, tied to the bodies by the row w_a(φ)·x_b = 0 with w_a(φ) = −sin φ x_a +
/// cos φ y_a (the driven revolute joint's row with s = φ a coordinate: b's marker x axis is a's
/// turned by φ about the axis); the rows of the joints' angles come first, then one row per
/// coupling, Σ c_i φ_i + Σ c_k x_ak·d_k (a prismatic joint's displacement along its axis).
/// A coupling's multiplier λ applies −c_i λ to joint i's coordinate: through φ_i and the angle
/// row to the joint's bodies (a torque about the axis), directly to a prismatic joint's bodies.
///
/// Order of the coordinates: the bodies', the shafts', the couplings' angles, the controller
/// states' (each group in the order of the model).
///
/// Controller states (System::controller_states(), ż = g(t, bodies' motions, states)): one more
/// coordinate each after the couplings' angles, carried as a velocity: v_k = z_k, q_k = ∫ z_k dt
/// (0 at t0, read by nothing), a_k = ż_k, with the first-order residual r_k = a_k − g_k (a "mass"
/// of 1 and the applied force g_k). Every second-order scheme then integrates z with its velocity
/// update (generalized-α's v_{n+1} = v_n + h((1−γ) a_n + γ a_{n+1}) in algorithmic accelerations,
/// the trapezoidal rule, IDA's BDF), and ∂r_k/∂q, ∂r_k/∂v are central differences of g_k over the
/// coordinates it reads. A joint_motor that reads states (ForceElement::states) gets their
/// values from v and its tangent columns for them by the same differences.
///
/// Shafts (System::shafts()): one coordinate q_s each (angle or position, absolute), after the
/// bodies' coordinates and before the couplings' angles, with the equation J q̈_s = Σ u of its
/// ShaftForce elements − Σ c λ of its couplings (a coupling's term for a shaft is c (q_s − q_s0)).
/// A spring-damper between shafts a, b: u = k (q_b − q_a − Δ0) + d (q̇_b − q̇_a), −u on b, +u on
/// a; potential ½ k (q_b − q_a − Δ0)²; kinetic energy ½ J q̇_s². Their tangents are analytic.
///
/// Tangents: ∂r/∂v and ∂r/∂q of each body's inertia and applied forces, and the derivative of
/// C_qᵀλ, are formed by central differences local to one body or one joint (a 7×7 or 14×14 block);
/// M and C_q are analytic (the table above says which unit forms what).
///
/// Contacts: every pair of the model's contact shapes on different bodies that the narrow phase
/// of ContactGeometry.h handles is a penalty force element (PenaltyParameters in Contact.h:
/// linear spring–damper or Hunt–Crossley normal force, regularised Coulomb friction, and where the
/// pair has them regularised rolling-resistance and torsional-friction torques), with its
/// tangent by central differences local to the pair's two bodies and its block in the tangent
/// pattern from construction. Each evaluation (residual, forces, tangent, energy) evaluates only
/// the pairs the broad phase of ContactGeometry.h (the grid the impulse stepper uses; planes by
/// their bounding-sphere test) finds near each other; the pattern still has a block for every
/// pair. The constructor throws ModelError for a pair without penalty parameters (and, through
/// System::problems(), for a pair the geometry does not handle).

#include <memory>
#include <string>
#include <vector>

#include <mbdae/formulations/AssemblyUnit.h>
#include <mbdae/formulations/ConstrainedSystem.h>
#include <mbdae/formulations/Sparsity.h>
#include <mbdae/model/System.h>

namespace mbdae {

class CompiledModel;  // CompiledModel.h

/// Options of MultibodySystem.
struct MultibodyOptions {
  /// Constraint rows (indices in the full row list) to leave out, e.g. redundant equations found
  /// by a rank test. Rows keep their labels; indices of the remaining rows close up.
  std::vector<int> disabled_rows;
  /// Accept joint friction with the joint's reaction as the normal force (normal: reaction), whose
  /// force reads the multipliers: residual() includes it, forces() (which has no λ) does not, and
  /// ∂r/∂λ is assemble_multiplier_tangent()'s. Only for callers that form ∂r/∂λ so (the time
  /// integrators generalized-α, trapezoidal index 2, IDA); off, the constructor refuses such an
  /// element by name.
  bool reaction_friction = false;
  /// Units appended to the built-in unit list (AssemblyUnit.h), each made from the model: their
  /// coordinates come after the built-in ones, their rows after the couplings' rows.
  std::vector<UnitFactory> extra_units;
};

/// Wrench that a joint applies to its body b at the joint point.
struct JointReaction {
  Vec3 force_W = Vec3::Zero();   ///< N, world axes
  Vec3 torque_W = Vec3::Zero();  ///< N m, about the joint point (marker on b), world axes
  Vec3 force_J = Vec3::Zero();   ///< N, joint axes (frame of the marker on body a)
  Vec3 torque_J = Vec3::Zero();  ///< N m, joint axes
};

/// Relative coordinate of a revolute, prismatic or cylindrical joint and its rates.
struct JointCoordinate {
  double value = 0;         ///< rad or m (0 at t0)
  double rate = 0;          ///< rad/s or m/s
  double acceleration = 0;  ///< rad/s² or m/s² (NaN when no accelerations were given)
};

/// A point of a flexible cable (System::cables()) at reference arc length s from its start: what
/// its sensors give (formulations/AncfCable2D.h: the strains).
struct CablePoint {
  Vec3 position = Vec3::Zero();  ///< r, world, m (z: the cable's plane)
  Vec3 slope = Vec3::Zero();     ///< r' = ∂r/∂x, world (length 1 + ε)
  double curvature = 0;          ///< κ = (r' × r'')/(r' · r'), 1/m
  double axial_strain = 0;       ///< ε = |r'| − 1
  double axial_force = 0;        ///< N = EA (ε + d ε̇), N
};

/// The absolute-coordinate formulation above as a ConstrainedSystem: n = Σ 7 or 6 per body + one
/// per shaft + one angle per coupled revolute joint, m = Euler-parameter norm rows + active joint rows + active
/// coupling rows. Body indices i are those of
/// model().bodies(); kGround is accepted by the kinematic accessors (position(), velocity(), …)
/// unless stated otherwise. Bad body indices are not checked there (undefined behaviour).
///
/// Threads (ConstrainedSystem): read-only once built, its scratch and its run state (the turn
/// count of each force element that counts a joint's turns, PairMotion::last_angle) in the
/// caller's workspaces (make_workspace(), one per run and thread), so one system may be shared
/// by threads and by runs. Exception: a user force function with memory of its own (a load of a
/// quantity angle(j), io::state_load) keeps it in its closure, in the model.
class MultibodySystem final : public ConstrainedSystem {
 public:
  /// Builds the formulation. Calls model.validate() first: throws ModelError listing every
  /// problem of the model. The model is copied; the System object may be discarded afterwards.
  /// @throws ModelError for an invalid model (also an invalid contact or a contact pair without
  /// penalty parameters); std::out_of_range if options.disabled_rows holds a row outside
  /// [0, num_all_rows()).
  explicit MultibodySystem(const System& model, MultibodyOptions options = {});
  /// The same from a compiled model (CompiledModel.h), which it shares: the tables a run's
  /// formulations read, compiled once. @throws std::invalid_argument for a null model, else as above.
  explicit MultibodySystem(std::shared_ptr<const CompiledModel> compiled, MultibodyOptions options = {});
  ~MultibodySystem() override;
  MultibodySystem(const MultibodySystem&) = delete;
  MultibodySystem& operator=(const MultibodySystem&) = delete;

  /// Contact pairs in the tangent pattern (every pair of shapes on different bodies). No throw.
  int num_contact_pairs() const;
  /// Contact pairs the broad phase passes on at positions q (size num_coordinates()), the ones
  /// an evaluation at q computes.
  int num_contact_pairs_near(Workspace& ws, ConstVecRef q) const;
  int num_coordinates() const override;
  int num_constraints() const override;
  void initial_state(VecRef q0, VecRef v0) const override;
  /// A workspace for this system's evaluations (see ConstrainedSystem: one per thread).
  Workspace make_workspace() const override;
  void residual(Workspace& ws, double t, ConstVecRef q, ConstVecRef v, ConstVecRef a, ConstVecRef lambda,
                VecRef r) const override;
  void forces(Workspace& ws, double t, ConstVecRef q, ConstVecRef v, VecRef f) const override;
  void constraints(Workspace& ws, double t, ConstVecRef q, VecRef c) const override;
  void constraint_velocity(Workspace& ws, double t, ConstVecRef q, ConstVecRef v, VecRef cv) const override;
  void gamma(Workspace& ws, double t, ConstVecRef q, ConstVecRef v, VecRef g) const override;
  const SparseMatrix& tangent_pattern() const override;
  const SparseMatrix& jacobian_pattern() const override;
  void assemble_tangent(Workspace& ws, double t, ConstVecRef q, ConstVecRef v, ConstVecRef a,
                        ConstVecRef lambda, double c_q, double c_v, double c_a, SparseMatrix& A) const override;
  void assemble_mass(Workspace& ws, ConstVecRef q, SparseMatrix& M) const override;
  void assemble_jacobian(Workspace& ws, double t, ConstVecRef q, SparseMatrix& Cq) const override;
  void assemble_velocity_jacobian(Workspace& ws, double t, ConstVecRef q, ConstVecRef v,
                                  SparseMatrix& G) const override;
  /// True if the model has joint friction by reaction (MultibodyOptions::reaction_friction).
  bool forces_read_multipliers() const override;
  /// C_q plus, for each joint friction by reaction (force f_r = N_r(q, λ) g(q, v) with N_r the joint's
  /// reaction normal force and g the Coulomb–Stribeck generalised force per newton), −(∂N_r/∂λ) gᵀ on
  /// its joint's rows × its bodies' coordinates; ∂N_r/∂λ is analytic (N_r is a norm of a linear
  /// function of λ; the subgradient 0 where a norm is exactly 0).
  void assemble_multiplier_tangent(Workspace& ws, double t, ConstVecRef q, ConstVecRef v, ConstVecRef lambda,
                                   SparseMatrix& D) const override;
  std::string coordinate_label(int i) const override;
  /// all_row_label() of active row `row`. @throws std::out_of_range if row ∉ [0, m).
  std::string constraint_label(int row) const override;
  bool has_energy() const override { return true; }
  /// The first body whose rotation coordinates are near their singularity (see
  /// ConstrainedSystem). `rxyz`: |cos β| < kRxyzSingularLimit; with a fixed step (h > 0) also
  /// 1/|cos β| > kRxyzMaxAmplification or h |ω| (1/|cos β|³ − 1)^(1/3) > kSingularStepAngle (the
  /// angles' rates are |ω|/|cos β| and their local errors grow with its cube; only the excess over
  /// the Euler parameters' local error counts). `rotation_vector` likewise with
  /// |θ| > kRotationVectorLimit, kMaxAmplification and sinc(|θ|/2) in place of |cos β| (G⁻¹ grows as
  /// 1/sinc(|θ|/2), infinite at 2π). h = 0: a solver that controls its local error (IDA, the
  /// adaptive Newmark steps) -- only the hard limits apply.
  std::string coordinate_problem(ConstVecRef q, ConstVecRef v, double h) const override;
  /// |cos β| below which Tait–Bryan coordinates are refused whatever the step.
  static constexpr double kRxyzSingularLimit = 0.01;
  /// |θ| (rad) above which a rotation vector is refused whatever the step (2π − 0.1).
  static constexpr double kRotationVectorLimit = 2 * 3.14159265358979323846 - 0.1;
  /// rad: the largest step of the singularly amplified coordinates (a local error of the
  /// second-order solvers of about (0.02)³/12 ≈ 7e-7 rad per step).
  static constexpr double kSingularStepAngle = 0.02;
  /// Largest amplification 1/sinc(|θ|/2) of a rotation vector's rates on a fixed step: a local
  /// error up to 2.5³ ≈ 16 times the Euler parameters' (|θ| ≤ 3.9 rad).
  static constexpr double kMaxAmplification = 2.5;
  /// The same for `rxyz` angles, |cos β| ≥ 0.25 (|β| ≤ 75.5°): the validated rolling coin
  /// (rxyz, h = 2e-4) runs at |cos β| = 0.30 within its tolerances.
  static constexpr double kRxyzMaxAmplification = 4.0;
  /// kinetic_energy + potential_energy, J.
  double energy(Workspace& ws, double t, ConstVecRef q, ConstVecRef v) const override;
  /// True for the rolling disc's no-slip rows (velocity level, no position equation).
  bool is_velocity_level(int row) const override;
  /// The model's force elements (System::forces() order).
  const std::vector<std::string>& force_names() const override;
  /// Their powers on the bodies (the force elements' unit; joints, contacts, shafts not included).
  void force_powers(Workspace& ws, double t, ConstVecRef q, ConstVecRef v, ForcePowers& p) const override;

  // ---- sensors (formulation-level accessors) ----
  /// Kinetic energy of all bodies, J. q, v of size n.
  double kinetic_energy(ConstVecRef q, ConstVecRef v) const;
  /// Potential of gravity (zero at the world origin) plus the potential of the spring elements
  /// (spring_damper, torsional, rigid-body and Cartesian spring-dampers) and the elastic energy
  /// of the penalty contacts, J. User forces and loads have none.
  double potential_energy(Workspace& ws, double t, ConstVecRef q) const;
  /// Largest position and velocity constraint violations of the active rows.
  ConstraintViolation constraint_violation(Workspace& ws, double t, ConstVecRef q, ConstVecRef v) const;
  /// Relative coordinate of joint j (revolute: angle of b's marker x axis about a's marker z
  /// axis in (−π, π], or for a driven joint s(t) plus the deviation from it, continuous over
  /// turns; prismatic and cylindrical: displacement along the axis) with its rate, and its
  /// acceleration if `a` has size n (else NaN). @throws std::invalid_argument for other types,
  /// std::out_of_range for a bad index.
  JointCoordinate joint_coordinate(int joint, double t, ConstVecRef q, ConstVecRef v,
                                   ConstVecRef a = VecX()) const;
  /// Driving force (N, prismatic) or torque (N m, revolute) that the drive of joint j exerts on
  /// body b along/about the joint axis, from the multipliers λ (size m). Its power is the power
  /// the drive puts into the system. @throws std::invalid_argument if the joint is not driven.
  double joint_drive_force(int joint, double t, ConstVecRef q, ConstVecRef lambda) const;

  // ---- its assembly units (AssemblyUnit.h), in the order of the unit list
  /// Number of units (built-in and MultibodyOptions::extra_units).
  int num_units() const;
  /// Unit k. @throws std::out_of_range for a bad index.
  const AssemblyUnit& unit(int k) const;
  /// Unit k's terms alone (for tests of one unit): its residual terms into r (size n, zeroed
  /// first), its tangent into A (tangent_pattern(), zeroed first), its rows at `level` into out
  /// (size m, zeroed first), C_q (Position) or ∂Ċ/∂q (Velocity) of its rows into J
  /// (jacobian_pattern(), zeroed first). @throws std::out_of_range for a bad index.
  void unit_residual(Workspace& ws, int k, double t, ConstVecRef q, ConstVecRef v, ConstVecRef a,
                     ConstVecRef lambda, VecRef r) const;
  /// See unit_residual().
  void unit_tangent(Workspace& ws, int k, double t, ConstVecRef q, ConstVecRef v, ConstVecRef a,
                    ConstVecRef lambda, double c_q, double c_v, double c_a, SparseMatrix& A) const;
  /// See unit_residual().
  void unit_rows(Workspace& ws, int k, double t, ConstVecRef q, ConstVecRef v, RowLevel level, VecRef out) const;
  /// See unit_residual().
  void unit_jacobian(Workspace& ws, int k, double t, ConstVecRef q, ConstVecRef v, RowLevel level,
                     SparseMatrix& J) const;

  /// The copy of the model this system was built from.
  const System& model() const;
  /// The compiled model it reads (shared with the other formulations built from it).
  const std::shared_ptr<const CompiledModel>& compiled() const;
  /// Offset of body i's coordinates in q. @throws std::out_of_range for kGround or a bad index.
  int body_offset(BodyIndex i) const;
  /// Number of body i's coordinates (7 or 6). @throws std::out_of_range as body_offset().
  int body_size(BodyIndex i) const;
  /// All constraint rows of the model (before disabled rows were removed), with labels.
  int num_all_rows() const;
  /// Label of row `full_row` of the full row list ("joint 'B' (revolute) equation 2 (…)").
  /// @throws std::out_of_range if full_row ∉ [0, num_all_rows()).
  std::string all_row_label(int full_row) const;
  /// The item row `full_row` belongs to: its joint, or the body of an Euler-parameter norm row.
  /// @throws std::out_of_range if full_row ∉ [0, num_all_rows()).
  ItemRef all_row_item(int full_row) const;
  /// all_row_item() of active row `row`. @throws std::out_of_range if row ∉ [0, m).
  ItemRef constraint_item(int row) const;

  // Kinematics of a body from the state (world axes unless noted).
  Mat3 rotation(BodyIndex i, ConstVecRef q) const;         ///< R_WB
  Vec3 position(BodyIndex i, ConstVecRef q, const Vec3& p_B = Vec3::Zero()) const;  ///< m
  /// Velocity of the body point p_B (body axes from the reference point, m), m/s.
  Vec3 velocity(BodyIndex i, ConstVecRef q, ConstVecRef v, const Vec3& p_B = Vec3::Zero()) const;
  Vec3 angular_velocity(BodyIndex i, ConstVecRef q, ConstVecRef v) const;  ///< ω_W, rad/s
  /// Acceleration of the body point p_B (m, body axes), m/s²; `a` = q̈, size n.
  Vec3 acceleration(BodyIndex i, ConstVecRef q, ConstVecRef v, ConstVecRef a,
                    const Vec3& p_B = Vec3::Zero()) const;
  /// Angular acceleration α_W, rad/s²; `a` = q̈, size n.
  Vec3 angular_acceleration(BodyIndex i, ConstVecRef q, ConstVecRef v, ConstVecRef a) const;
  /// Euler parameters of body i's orientation (normalised, w ≥ 0 not enforced).
  Vec4 euler_parameters(BodyIndex i, ConstVecRef q) const;

  /// Reaction of joint j (index in model().joints()) from the multipliers λ of the active rows
  /// (size m); zero if all its rows are disabled. @throws std::out_of_range for a bad index.
  JointReaction reaction(int joint, double t, ConstVecRef q, ConstVecRef lambda) const;
  /// Rows of joint j in the active row list (empty where all were disabled).
  /// @throws std::out_of_range for a bad index.
  std::vector<int> joint_rows(int joint) const;

  /// Index in q of the angle coordinate φ of revolute joint j (rad, counting turns, 0 at t0), -1
  /// if no coupling names the joint. @throws std::out_of_range for a bad index.
  int coupling_angle_coordinate(int joint) const;
  /// Multiplier λ of coupling i (index in model().couplings()), from the multipliers of the active
  /// rows (size m); 0 if its row is disabled. The coupling applies −c_k λ to the coordinate of its
  /// joint k (N m about a revolute axis, N along a prismatic axis, on the joint's body b).
  /// @throws std::out_of_range for a bad index.
  double coupling_multiplier(int coupling, ConstVecRef lambda) const;
  /// Active row of coupling i, -1 if disabled. @throws std::out_of_range for a bad index.
  int coupling_row(int coupling) const;

  /// Index in q and v of controller state k (index in model().controller_states()): v holds the
  /// state z_k, q its integral from t0. @throws std::out_of_range for a bad index.
  int controller_coordinate(int k) const;
  /// Index in q of the coordinate of shaft s (index in model().shafts()).
  /// @throws std::out_of_range for a bad index.
  int shaft_coordinate(int shaft) const;
  /// Angle (rad) or position (m) of shaft s, its rate and its acceleration if `a` has size n
  /// (else NaN). @throws std::out_of_range for a bad index.
  JointCoordinate shaft_motion(int shaft, ConstVecRef q, ConstVecRef v, ConstVecRef a = VecX()) const;
  /// Cable c (index in model().cables()) at reference arc length s (m from its start, clamped to
  /// [0, length]) at (q, v) (v of size 0: no damping term in the axial force).
  /// @throws std::out_of_range for a bad index.
  CablePoint cable_point(int cable, double s, ConstVecRef q, ConstVecRef v) const;
  /// Effort u of shaft force f (index in model().shaft_forces()): a spring-damper's
  /// k (Δ − Δ0) + d Δ̇ (acting −u on its second shaft, +u on its first), a load's value at t
  /// (N m or N). @throws std::out_of_range for a bad index.
  double shaft_force_effort(int force, double t, ConstVecRef q, ConstVecRef v) const;

 private:
  struct Impl;
  struct WorkspaceData;  // the scratch of the evaluations (Multibody.cpp)
  std::unique_ptr<Impl> impl_;
};

}  // namespace mbdae
