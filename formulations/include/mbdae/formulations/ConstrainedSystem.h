#pragma once
/// @file ConstrainedSystem.h
/// The interface between formulations and the implicit solvers.
///
/// A constrained mechanical system in n coordinates q (velocities v = q̇, same size) with m
/// holonomic constraint equations:
///
///     M(q) q̈ = f(t, q, q̇) − C_q(t, q)ᵀ λ          (n dynamic equations)
///     C(t, q) = 0                                  (m constraints, position level, index 3)
///
/// The derived levels used by the index-2 forms are
///
///     Ċ = C_q q̇ + C_t = 0                          (velocity level, index 2)
///     C_q q̈ = γ(t, q, q̇)                           (acceleration level, index 1)
///
/// and the dynamic residual is r(t, q, v, a, λ) = M(q) a − f(t, q, v) + C_q(t, q)ᵀ λ.
/// f contains every applied force and the quadratic velocity terms; it does not contain
/// constraint forces. Where an applied force reads λ (forces_read_multipliers(): joint friction
/// whose normal force is the joint's reaction), f = f(t, q, v, λ) in the residual. λ are Lagrange multipliers: the generalised constraint force on the
/// coordinates is −C_qᵀ λ.
///
/// Contract (each implementation is tested against finite differences):
/// - constraint_velocity() is exactly d/dt C(t, q(t)) along any q(t) with q̇ = v;
/// - gamma() is exactly C_q q̈ − d²/dt² C, i.e. γ = −(C_q v)_q v − 2 C_qt v − C_tt;
/// - assemble_tangent() is the exact (or locally finite-differenced) derivative of r;
/// - sparsity patterns are fixed when the system is built and never change; the assemble_*
///   functions only overwrite values, so solvers can analyse a pattern once and allocate
///   nothing per step.
///
/// All vectors are Eigen::Ref so that solvers can pass segments of their state vectors.
///
/// Model and workspace: a system is read-only once built; the scratch memory of its evaluations
/// is a Workspace (make_workspace()) that the caller owns and passes to every evaluation, as
/// Pinocchio's Model/Data or MuJoCo's mjModel/mjData. Threads: one system may be shared by any
/// number of threads; each thread needs its own workspace (a workspace is used by one thread at a
/// time). Solvers, monitors and kinematics each own theirs.

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <mbdae/formulations/State.h>
#include <mbdae/model/Types.h>

namespace mbdae {

/// Writable view of a vector or vector segment (an output argument; its size is fixed by the caller).
using VecRef = Eigen::Ref<VecX>;
/// Read-only view of a vector or vector segment (an input argument).
using ConstVecRef = Eigen::Ref<const VecX>;

/// Abstract constrained mechanical system, the equations above. Sizes: q, v, a, r, f are n =
/// num_coordinates(); λ, C, Ċ, γ are m = num_constraints(); outputs must already have these sizes
/// (Eigen asserts in debug builds only); `ws` is a workspace this system made (make_workspace()).
/// Units follow the coordinates: m and rad (or
/// dimensionless Euler parameters); forces N and N m; time s.
class ConstrainedSystem {
 public:
  /// Scratch memory of the evaluations of one system (file comment): made by make_workspace(),
  /// owned by the caller, passed to every evaluation of the system that made it. It only grows
  /// (its first evaluations may allocate, later ones do not) and carries no results between
  /// evaluations. Movable, not copyable.
  class Workspace {
   public:
    /// What a system keeps in its workspaces (each implementation derives its own).
    struct Data {
      virtual ~Data() = default;
    };
    /// A workspace of `owner` holding `data` (null for a system without scratch memory).
    explicit Workspace(const ConstrainedSystem& owner, std::unique_ptr<Data> data = nullptr)
        : owner_(&owner), data_(std::move(data)) {}
    Workspace(Workspace&&) noexcept = default;             ///< moves (the owner stays)
    Workspace& operator=(Workspace&&) noexcept = default;  ///< moves (the owner with it)
    Workspace(const Workspace&) = delete;
    Workspace& operator=(const Workspace&) = delete;
    ~Workspace() = default;
    /// The system that made it.
    const ConstrainedSystem& owner() const { return *owner_; }
    /// The system's data (null if it has none).
    Data* data() const { return data_.get(); }

   private:
    const ConstrainedSystem* owner_;
    std::unique_ptr<Data> data_;
  };

  virtual ~ConstrainedSystem() = default;

  /// A new workspace for the evaluations of this system (allocates). The default has no data.
  virtual Workspace make_workspace() const { return Workspace(*this); }

  /// n, the number of coordinates (and of velocities).
  virtual int num_coordinates() const = 0;
  /// m, the number of constraint equations (rows of C).
  virtual int num_constraints() const = 0;

  /// Initial state as given by the model (not necessarily consistent).
  virtual void initial_state(VecRef q0, VecRef v0) const = 0;

  /// r = M(q) a − f(t, q, v) + C_q(t, q)ᵀ λ, sizes n, n, n, m → n.
  virtual void residual(Workspace& ws, double t, ConstVecRef q, ConstVecRef v, ConstVecRef a, ConstVecRef lambda,
                        VecRef r) const = 0;
  /// f(t, q, v): applied forces and quadratic velocity terms, size n (without the forces that read λ:
  /// see forces_read_multipliers()).
  virtual void forces(Workspace& ws, double t, ConstVecRef q, ConstVecRef v, VecRef f) const = 0;
  /// C(t, q), size m.
  virtual void constraints(Workspace& ws, double t, ConstVecRef q, VecRef c) const = 0;
  /// Ċ = C_q v + C_t, size m.
  virtual void constraint_velocity(Workspace& ws, double t, ConstVecRef q, ConstVecRef v, VecRef cv) const = 0;
  /// γ with C_q q̈ = γ, size m.
  virtual void gamma(Workspace& ws, double t, ConstVecRef q, ConstVecRef v, VecRef g) const = 0;

  /// Pattern of the n×n tangent ∂r/∂q, ∂r/∂v and M (one common pattern, fixed).
  virtual const SparseMatrix& tangent_pattern() const = 0;
  /// Pattern of the m×n constraint Jacobian C_q (fixed).
  virtual const SparseMatrix& jacobian_pattern() const = 0;

  /// A ← c_q ∂r/∂q + c_v ∂r/∂v + c_a M(q), evaluated at (t, q, v, a, λ).
  /// A must have tangent_pattern(); only its values are written.
  virtual void assemble_tangent(Workspace& ws, double t, ConstVecRef q, ConstVecRef v, ConstVecRef a,
                                ConstVecRef lambda, double c_q, double c_v, double c_a,
                                SparseMatrix& A) const = 0;
  /// M(q) into a matrix with tangent_pattern().
  virtual void assemble_mass(Workspace& ws, ConstVecRef q, SparseMatrix& M) const = 0;
  /// C_q(t, q) into a matrix with jacobian_pattern().
  virtual void assemble_jacobian(Workspace& ws, double t, ConstVecRef q, SparseMatrix& Cq) const = 0;
  /// ∂(C_q v + C_t)/∂q into a matrix with jacobian_pattern().
  virtual void assemble_velocity_jacobian(Workspace& ws, double t, ConstVecRef q, ConstVecRef v,
                                          SparseMatrix& G) const = 0;

  /// True if the applied forces depend on the multipliers λ as well (joint friction whose normal
  /// force is a joint's reaction): residual() includes those forces, forces() (which has no λ) does
  /// not, and ∂r/∂λ = C_qᵀ − ∂f/∂λ is no longer C_qᵀ: a solver's iteration matrix takes it from
  /// assemble_multiplier_tangent().
  virtual bool forces_read_multipliers() const { return false; }
  /// (∂r/∂λ)ᵀ = C_q − (∂f/∂λ)ᵀ at (t, q, v, λ) into a matrix with jacobian_pattern() (m × n): the
  /// λ-dependent forces act on the bodies of the joints whose rows they read, inside C_q's pattern.
  /// The default (no such forces) is C_q.
  virtual void assemble_multiplier_tangent(Workspace& ws, double t, ConstVecRef q, ConstVecRef /*v*/,
                                           ConstVecRef /*lambda*/, SparseMatrix& D) const {
    assemble_jacobian(ws, t, q, D);
  }

  /// Labels for messages: "body 'crank' θ1", "joint 'B' equation 2".
  virtual std::string coordinate_label(int i) const = 0;
  /// Label of constraint row `row` ∈ [0, m), e.g. "joint 'B' equation 2".
  virtual std::string constraint_label(int row) const = 0;

  /// True if constraint row `row` exists only at velocity level (a nonholonomic equation
  /// A(q) v + b(t, q) = 0, e.g. rolling without slip). For such rows constraints() returns 0,
  /// constraint_velocity() returns A v + b, assemble_jacobian() writes A, gamma() gives
  /// A v̇ = γ and assemble_velocity_jacobian() ∂(A v + b)/∂q. Solvers enforce them at velocity
  /// level (index 2) and skip them at position level.
  virtual bool is_velocity_level(int /*row*/) const { return false; }

  /// Empty if the integration may go on from (q, v) (size n) with steps of h (s); otherwise why
  /// not, naming the body: its rotation coordinates are too near a singularity of their
  /// parametrization (Tait–Bryan angles at |cos β| → 0, a rotation vector at |θ| → 2π), where
  /// the kinematic matrix G loses rank, the coordinates' rates outgrow the step and the results
  /// lose their accuracy without any solver noticing. The implicit solvers stop there
  /// (SolveStatus::OtherFailure with this text). No throw; no allocation when empty.
  virtual std::string coordinate_problem(ConstVecRef /*q*/, ConstVecRef /*v*/, double /*h*/) const { return {}; }

  /// True if energy() is defined (kinetic + potential of conservative forces).
  virtual bool has_energy() const { return false; }
  /// Total mechanical energy at (t, q, v) in J (sizes n, n); 0 if !has_energy().
  virtual double energy(Workspace& /*ws*/, double /*t*/, ConstVecRef /*q*/, ConstVecRef /*v*/) const { return 0.0; }
  /// The force elements force_powers() measures, by name (none by default).
  virtual const std::vector<std::string>& force_names() const {
    static const std::vector<std::string> none;
    return none;
  }
  /// The power of each force element at (t, q, v) (ForcePowers in State.h), sized as force_names().
  virtual void force_powers(Workspace& /*ws*/, double /*t*/, ConstVecRef /*q*/, ConstVecRef /*v*/,
                            ForcePowers& p) const {
    p = {};
  }

 protected:
  /// The data of `ws` as the implementation's type D (what its make_workspace() put there).
  /// @throws std::invalid_argument if another system made `ws`.
  template <class D>
  D& workspace_data(Workspace& ws) const {
    if (&ws.owner() != this || !ws.data())
      throw std::invalid_argument("ConstrainedSystem: the workspace was made by another system");
    return static_cast<D&>(*ws.data());
  }
};

}  // namespace mbdae
