#pragma once
/// @file NewtonEuler.h
/// Rigid bodies in Newton–Euler form (Chaney, seed 000): the state of the explicit and impulse
/// paths. Each body is described at its centre of mass C, whatever reference point the model uses.
///
/// State layout, body by body (ground has no state), as handed to observers (StateView):
///
/// | vector | per body i (offset)      | contents                                             | size |
/// |--------|--------------------------|------------------------------------------------------|------|
/// | q      | 7 i + 0 … 2              | x_C: COM position, world, m                          | 3    |
/// | q      | 7 i + 3 … 6              | Q = [w, x, y, z]: unit quaternion of R_WB            | 4    |
/// | v      | 6 i + 0 … 2              | v_C = ẋ_C: COM velocity, world, m/s                  | 3    |
/// | v      | 6 i + 3 … 5              | w_B: angular velocity, BODY axes, rad/s              | 3    |
/// | q      | 7 n + k                  | ∫ z_k dt from t0 (controller state k, not read)      | 1    |
/// | v      | 6 n + k                  | z_k: controller state k (System::controller_states()) | 1    |
///
/// Controller states (K of them) follow the n bodies: ż_k = g_k(t, bodies' motions, states) is
/// the last K entries of v̇, and their q entries integrate z (so that q̇ = v holds for them too).
/// Equations (Chaney Eq. 14 and Euler's equations; J_C is the full 3×3 inertia about the COM in
/// body axes, not only its diagonal):
///
///     ẋ_C = v_C,                  m v̇_C = F + Σ_j C_jᵀ λ (translational rows)
///     Q̇ = ½ Q ⊗ (0, w_B),          J_C ẇ_B = τ_B − w_B × J_C w_B + (rotational rows of Jᵀ λ)
///
/// F = m g + Σ applied forces − c_lin v_C; τ_B (body axes, about the COM) = Σ Rᵀ(r × F_k) + applied
/// torques − c_rot w_B. A force load acts at `point` (body axes, relative to the model's reference
/// point), i.e. at r = R (point − b) from the COM (b = RigidBody::com). Force elements
/// (System::forces(): spring-dampers, torsional, rigid-body and Cartesian spring-dampers, user
/// forces) are evaluated by the same kernels as the implicit formulation, at the bodies' reference
/// points (user forces receive the reference points' motion), and their moments are moved to the
/// COM: τ_C = τ_ref − (R b) × F.
///
/// Quaternion policy: Q̇ is integrated as an ordinary ODE (no norm constraint); R is always formed
/// from Q/|Q|, so the right-hand side is exact for any |Q| > 0, and the explicit solvers rescale Q
/// to unit length after every accepted step (NewtonEulerOptions::renormalize; see Explicit.h).
///
/// Joints (JointKernels, the same equations as the implicit formulation), at acceleration level:
/// with the generalized velocity u = (v_C, w_B) of all bodies, M = blockdiag(m I, J_C),
/// C(q) = 0 the joint equations and J = ∂Ċ/∂u (rows × 6 n),
///
///     M u̇ = f(q, u) + Jᵀ λ,      J u̇ = γ − 2α Ċ − β² C,  Ċ = J u + ∂C/∂t   (Baumgarte 1972)
///
/// solved either as the equation system [M −Jᵀ; J 0] [u̇; λ] = [f; γ̃] or through the Schur
/// complement (J M⁻¹ Jᵀ) λ = γ̃ − J M⁻¹ f (the two ways of the MBD outline, seed 004, ch. 6–7).
/// Both are sparse: the pattern (J's blocks follow the joints' bodies) and a fill-reducing
/// elimination order (minimum degree on the body/joint graph; for the equation system the bodies
/// first, then the joints) are fixed at construction, the block pattern of L is found once, and
/// each call does one numeric block LDLᵀ factorization without pivoting on preallocated dense
/// node blocks (a joint's rows, a body's 6 velocities: the block elimination of Baraff,
/// "Linear-time dynamics using Lagrange multipliers", SIGGRAPH 1996, in any order). For chains
/// and trees L has no fill, so a call costs O(N); closed loops add the fill of their cycles. A driven joint's drive row uses s(t), ṡ, s̈ of the model's motion.
///
/// The joint twist Jacobians W of JointKernels are with respect to (δp, δφ_world) of a point that
/// here is the COM (the markers are stored relative to the COM), so J = [W_p, W_φ R] for u.
/// Since ω_W = R w_B, ω̇_W = R ẇ_B exactly (ω × ω = 0): the γ of the kernels needs no extra term.

#include <memory>
#include <string>
#include <vector>

#include <Eigen/Core>

#include <mbdae/formulations/ImpulseSystem.h>  // JointElementRows, JointRowsWorld
#include <mbdae/formulations/State.h>
#include <mbdae/model/System.h>

namespace mbdae {

class CompiledModel;  // CompiledModel.h

/// How the explicit path solves the acceleration-level joint equations.
enum class JointSolveMethod {
  EquationSystem,  ///< [M −Jᵀ; J 0] [u̇; λ] = [f; γ̃], block LDLᵀ (bodies eliminated first)
  Schur,           ///< (J M⁻¹ Jᵀ) λ = γ̃ − J M⁻¹ f, block LDLᵀ
};
/// Name of `m` ("equation_system" or "schur"). No throw.
const char* to_string(JointSolveMethod m);

/// Options of NewtonEulerSystem.
struct NewtonEulerOptions {
  double linear_damping = 0.0;   ///< c_lin, N s/m: force −c_lin v_C on every body
  double angular_damping = 0.0;  ///< c_rot, N m s: torque −c_rot w_B on every body
  JointSolveMethod joint_solve = JointSolveMethod::Schur;  ///< how derivative() finds λ
  double baumgarte_alpha = 0.0;  ///< α, 1/s (velocity feedback 2α Ċ)
  double baumgarte_beta = 0.0;   ///< β, 1/s (position feedback β² C)
  /// For the impulse stepper: the Coulomb part of every joint_friction and the stops of every
  /// joint_limit are left out of applied_forces() (ForceElement::by_impulses) and given as rows by
  /// joint_element_rows(), for impulses of the stepper's Gauss–Seidel.
  bool joint_elements_by_impulses = false;
};

/// The Newton–Euler formulation above: n = num_bodies() bodies, q of size 7n, v of size 6n.
/// Body indices i are those of model().bodies(); kGround is not a valid index here.
///
/// Model and workspace: the system is read-only once built; the evaluations (derivative(), the
/// joint functions, the projections, energy()) take a Workspace that the caller owns
/// (make_workspace(); Pinocchio's Model/Data). Threads: one system may be shared by any number of
/// threads, each with its own workspaces. A workspace also carries what the projections reuse
/// of the last derivative() made with it (the factorization of J M⁻¹ Jᵀ) and its multipliers
/// (last_multipliers()); project_positions()/project_velocities() overwrite them.
class NewtonEulerSystem {
 public:
  /// Scratch memory of the evaluations of one system (sized at make_workspace(): the evaluations
  /// do not allocate, except inside user force functions) and the last factorization and
  /// multipliers. Movable, not copyable; used by one thread at a time.
  class Workspace {
   public:
    Workspace(Workspace&&) noexcept;             ///< moves (the owner stays)
    Workspace& operator=(Workspace&&) noexcept;  ///< moves (the owner with it)
    Workspace(const Workspace&) = delete;
    Workspace& operator=(const Workspace&) = delete;
    ~Workspace();
    /// Multipliers λ of the last derivative() or projection with this workspace (size
    /// num_joint_rows()).
    const VecX& multipliers() const;

   private:
    friend class NewtonEulerSystem;
    struct Data;
    Workspace(const NewtonEulerSystem& owner, std::unique_ptr<Data> data);
    const NewtonEulerSystem* owner_;
    std::unique_ptr<Data> data_;
  };

  /// Calls model.validate() (throws ModelError listing every problem). Copies the model.
  /// @throws ModelError for an invalid model; std::invalid_argument for negative damping in
  /// `options`.
  explicit NewtonEulerSystem(const System& model, NewtonEulerOptions options = {});
  /// The same from a compiled model (CompiledModel.h), which it shares. With
  /// options.joint_elements_by_impulses the system keeps its own copies of the joint_friction and
  /// joint_limit elements it hands to the impulse stepper. @throws std::invalid_argument for a
  /// null model, else as above.
  explicit NewtonEulerSystem(std::shared_ptr<const CompiledModel> compiled, NewtonEulerOptions options = {});
  ~NewtonEulerSystem();
  NewtonEulerSystem(const NewtonEulerSystem&) = delete;
  NewtonEulerSystem& operator=(const NewtonEulerSystem&) = delete;

  /// The copy of the model this system was built from (its compiled model's).
  const System& model() const;
  /// The compiled model it reads (shared with the other formulations built from it).
  const std::shared_ptr<const CompiledModel>& compiled() const;
  /// The options given to the constructor.
  const NewtonEulerOptions& options() const;
  /// Number of bodies n (ground excluded).
  int num_bodies() const;
  /// Number of controller states K (System::controller_states()).
  int num_states() const;
  /// Size of q, 7n + K.
  int num_q() const { return 7 * num_bodies() + num_states(); }
  /// Size of v, 6n + K.
  int num_v() const { return 6 * num_bodies() + num_states(); }
  /// Number of joint equations (rows of C).
  int num_joint_rows() const;

  /// Initial state from the model's bodies (sizes num_q, num_v; resized).
  void initial_state(VecX& q, VecX& v) const;
  /// A workspace for this system's evaluations (allocates; one per thread).
  Workspace make_workspace() const;

  // ---- per-body data and kinematics ----
  // The data accessors throw std::out_of_range for a bad index; the state accessors (q, v) do not
  // check i (undefined behaviour outside [0, n)).

  /// m of body i, kg.
  double mass(BodyIndex i) const;
  const Mat3& inertia_com(BodyIndex i) const;      ///< J_C, body axes, kg m²
  const Mat3& inertia_com_inv(BodyIndex i) const;  ///< J_C⁻¹, 1/(kg m²)
  const Vec3& com_offset(BodyIndex i) const;       ///< b: COM relative to the reference point, body axes, m
  Vec3 com_position(BodyIndex i, const VecX& q) const;       ///< x_C, m
  Vec4 quaternion(BodyIndex i, const VecX& q) const;         ///< Q (as stored)
  Mat3 rotation(BodyIndex i, const VecX& q) const;           ///< R_WB from Q/|Q|
  Vec3 reference_position(BodyIndex i, const VecX& q) const; ///< x_C − R b, m
  Vec3 com_velocity(BodyIndex i, const VecX& v) const;       ///< m/s, world
  Vec3 angular_velocity_body(BodyIndex i, const VecX& v) const;  ///< w_B, rad/s
  Vec3 angular_velocity_world(BodyIndex i, const VecX& q, const VecX& v) const;  ///< ω_W = R w_B, rad/s

  // ---- dynamics ----
  /// Applied force (world, N) and torque about the COM (BODY axes, N m) on body i, including
  /// gravity and damping, NOT the gyroscopic term.
  void applied_wrench(BodyIndex i, double t, const VecX& q, const VecX& v, Vec3& F_W,
                      Vec3& tau_B) const;
  /// Applied forces of every body, 6 per body: force (world, N) and torque about the COM (BODY
  /// axes, N m), from gravity, loads, damping and the force elements (System::forces()); NOT the
  /// gyroscopic term and no joint forces. f is resized to 6n. No heap allocation once f has its
  /// size, except inside user force functions. `ws`: a workspace of this system (all the
  /// evaluations below; std::invalid_argument for another system's).
  void applied_forces(Workspace& ws, double t, const VecX& q, const VecX& v, VecX& f) const;
  /// Right-hand side of the ODE: qdot (7n + K) and vdot (6n + K), with the force elements, joints through
  /// the chosen method with Baumgarte terms. Throws ItemError (a std::runtime_error) if the joint
  /// system is singular (naming the first joint row found dependent on the others, item() its
  /// joint; redundant joints must be removed first). No heap allocation happens (workspaces are kept), except inside user force
  /// functions.
  void derivative(Workspace& ws, double t, const VecX& q, const VecX& v, VecX& qdot, VecX& vdot) const;
  /// Multipliers λ of the last derivative() call with `ws` (size num_joint_rows()).
  const VecX& last_multipliers(const Workspace& ws) const;

  // ---- joints ----
  // The overloads without a time evaluate driven joints at t = 0 (the time does not matter for
  // models without driven joints).

  /// C(t, q) of all joint rows (resized to num_joint_rows()).
  void joint_violation(Workspace& ws, double t, const VecX& q, VecX& c) const;
  /// Ċ = J u + ∂C/∂t (resized to num_joint_rows()).
  void joint_velocity_violation(Workspace& ws, double t, const VecX& q, const VecX& v, VecX& cd) const;
  /// C(0, q).
  void joint_violation(Workspace& ws, const VecX& q, VecX& c) const;
  /// Ċ at t = 0.
  void joint_velocity_violation(Workspace& ws, const VecX& q, const VecX& v, VecX& cd) const;
  /// Joint j (index in model().joints()) at time t in world twist coordinates (for the impulse
  /// stepper). @throws std::out_of_range for a bad index.
  void joint_rows_world(double t, int joint, const VecX& q, const VecX& v, JointRowsWorld& out) const;
  /// The same at t = 0.
  void joint_rows_world(int joint, const VecX& q, const VecX& v, JointRowsWorld& out) const;
  /// Label of joint row `row` ("joint 'B' <equation>"); "row <row>" if out of range. No throw.
  std::string joint_row_label(int row) const;
  /// The joint_friction and joint_limit elements taken as impulses (only with
  /// NewtonEulerOptions::joint_elements_by_impulses; else `out` is left empty) at (q, v), in the
  /// order of model().forces(). The angle's turn count is run state in `ws` (from the previous call
  /// with it).
  void joint_element_rows(Workspace& ws, const VecX& q, const VecX& v, std::vector<JointElementRows>& out) const;
  /// Projection onto the constraint manifold at time t (M-orthogonal, through the chosen joint
  /// solve method): positions by Gauss–Newton (q ← q ⊕ −M⁻¹Jᵀ(JM⁻¹Jᵀ)⁻¹C until ‖C‖∞ ≤ tol, at
  /// most max_iter), then velocities u ← u − M⁻¹Jᵀ(JM⁻¹Jᵀ)⁻¹ Ċ. Return the final ‖C‖∞ / ‖Ċ‖∞.
  /// With the Schur method, the factorization of J M⁻¹ Jᵀ left in `ws` by the last derivative() (the
  /// last stage of a step) is the iteration matrix while each iteration reduces the violation
  /// to a quarter or less; J is always the current one, and the velocity correction is repeated
  /// to round-off, so the result is the same projection. Otherwise J M⁻¹ Jᵀ is factorized at
  /// the current state.
  /// @param ws  a workspace of this system (its factorization is reused, then overwritten)
  /// @param t   time, s (driven joints)
  /// @param q   positions, size 7n, updated in place
  /// @param tol on ‖C‖∞ (m or rad)
  /// @param max_iter Gauss–Newton iterations at most
  /// @throws ItemError (a std::runtime_error, item() the dependent joint) if J M⁻¹ Jᵀ is singular
  ///         (redundant joints).
  double project_positions(Workspace& ws, double t, VecX& q, double tol = 1e-12, int max_iter = 10) const;
  /// Velocity projection at time t (see project_positions()): v (size 6n) updated in place;
  /// returns the final ‖Ċ‖∞. @throws ItemError as project_positions().
  double project_velocities(Workspace& ws, double t, const VecX& q, VecX& v) const;
  /// project_positions() at t = 0.
  double project_positions(Workspace& ws, VecX& q, double tol = 1e-12, int max_iter = 10) const;
  /// project_velocities() at t = 0.
  double project_velocities(Workspace& ws, const VecX& q, VecX& v) const;

  // ---- invariants ----
  /// Kinetic energy + potential of gravity (−m g·x_C) + potentials of the spring-dampers, J.
  double energy(Workspace& ws, const VecX& q, const VecX& v) const;
  /// The model's force elements (System::forces() order), by name.
  const std::vector<std::string>& force_names() const;
  /// Their powers on the bodies at (t, q, v) (ForcePowers in State.h).
  void force_powers(Workspace& ws, double t, const VecX& q, const VecX& v, ForcePowers& p) const;
  /// Total linear momentum, world, kg m/s.
  Vec3 linear_momentum(const VecX& v) const;
  /// Total angular momentum about the world origin, world axes: Σ R J_C w_B + x_C × m v_C.
  Vec3 angular_momentum(const VecX& q, const VecX& v) const;

  /// Rescales every quaternion to unit length; returns max ||Q| − 1| before rescaling.
  double normalize_quaternions(VecX& q) const;

 private:
  struct Impl;
  /// ws's data. @throws std::invalid_argument if another system made it.
  Workspace::Data& data(Workspace& ws) const;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mbdae
