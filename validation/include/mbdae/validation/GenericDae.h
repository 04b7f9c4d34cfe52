#pragma once
/// @file GenericDae.h
/// A ConstrainedSystem given by dense user functions in minimal (or any) coordinates:
///
///     M(q) q̈ = f(t, q, q̇) − G(q)ᵀ λ,    g(q) = 0,    G = ∂g/∂q
///
/// (scleronomic constraints: C = g(q), C_t = 0). Meant for small reference problems (Andrews'
/// squeezer, the SUNDIALS slider-crank, 3–10 coordinates) that check the solvers independently
/// of the rigid-body formulations. Patterns are dense; each call allocates a few small dense
/// temporaries, which is fine at this size but not for large models.
///
/// Derivatives that the user does not provide are computed by central finite differences:
/// - G = ∂g/∂q, ∂r/∂q, ∂r/∂v and ∂(G v)/∂q with step h_j = ε^(1/3)·max(1, |x_j|) ≈ 6e-6 in
///   coordinate j (ε = 2.2e-16). Central differences have truncation error O(h²) and round-off
///   O(ε/h); this h balances the two, giving about 10–11 correct digits for O(1) data.
/// - γ = −(G v)_q v = −d²/ds² g(q + s v) at s = 0 (γ = 0 for v = 0): if G is given, as
///   −d/ds [G(q + s v) v] by a central difference with s = ε^(1/3)/‖v‖∞, i.e. a displacement of
///   ε^(1/3) along v (≈ 10 digits); otherwise as the second difference
///   −[g(q+sv) − 2g(q) + g(q−sv)]/s² with s = ε^(1/4)/‖v‖∞ (≈ 7–8 digits).
///   Provide γ analytically where accuracy matters (Andrews and the slider-crank do).
/// - ∂(G v)/∂q when G is not given differences a differenced G: only ≈ 5 digits, enough for a
///   Newton matrix.
/// The tangent is only used for Newton matrices, where 10 digits are plenty.

#include <functional>
#include <string>
#include <vector>

#include <mbdae/formulations/ConstrainedSystem.h>

namespace mbdae::validation {

class GenericDae : public ConstrainedSystem {
 public:
  using MatRef = Eigen::Ref<MatX>;
  /// M(q), n×n, symmetric positive definite (kg, kg·m², ...).
  using MassFn = std::function<void(ConstVecRef q, MatRef M)>;
  /// f(t, q, v), size n: applied forces and quadratic velocity terms (N, N·m).
  using ForceFn = std::function<void(double t, ConstVecRef q, ConstVecRef v, VecRef f)>;
  /// g(q), size m.
  using ConstraintFn = std::function<void(ConstVecRef q, VecRef g)>;
  /// G(q) = ∂g/∂q, m×n.
  using ConstraintJacobianFn = std::function<void(ConstVecRef q, MatRef G)>;
  /// γ(q, v) = −(G(q) v)_q v, size m.
  using GammaFn = std::function<void(ConstVecRef q, ConstVecRef v, VecRef gamma)>;
  /// Total mechanical energy (J).
  using EnergyFn = std::function<double(double t, ConstVecRef q, ConstVecRef v)>;

  struct Functions {
    int n = 0;  ///< number of coordinates
    int m = 0;  ///< number of constraints (may be 0)
    MassFn mass;                    ///< required
    ForceFn forces;                 ///< required
    ConstraintFn constraints;       ///< required if m > 0
    ConstraintJacobianFn jacobian;  ///< optional: central differences of g otherwise
    GammaFn gamma;                  ///< optional: see the file comment
    EnergyFn energy;                ///< optional: has_energy() is true iff given
    VecX q0, v0;                    ///< initial state returned by initial_state() (size n)
    std::vector<std::string> coordinate_names;  ///< optional, size n
    std::vector<std::string> constraint_names;  ///< optional, size m
  };

  /// @throws std::invalid_argument if n ≤ 0, m < 0, a required function is missing, or q0, v0
  ///         or the name lists have the wrong size.
  explicit GenericDae(Functions fns);

  int num_coordinates() const override { return fns_.n; }
  int num_constraints() const override { return fns_.m; }
  void initial_state(VecRef q0, VecRef v0) const override;

  void residual(Workspace& ws, double t, ConstVecRef q, ConstVecRef v, ConstVecRef a, ConstVecRef lambda,
                VecRef r) const override;
  void forces(Workspace& ws, double t, ConstVecRef q, ConstVecRef v, VecRef f) const override;
  void constraints(Workspace& ws, double t, ConstVecRef q, VecRef c) const override;
  void constraint_velocity(Workspace& ws, double t, ConstVecRef q, ConstVecRef v, VecRef cv) const override;
  void gamma(Workspace& ws, double t, ConstVecRef q, ConstVecRef v, VecRef g) const override;

  const SparseMatrix& tangent_pattern() const override { return tangent_pattern_; }
  const SparseMatrix& jacobian_pattern() const override { return jacobian_pattern_; }

  void assemble_tangent(Workspace& ws, double t, ConstVecRef q, ConstVecRef v, ConstVecRef a,
                        ConstVecRef lambda, double c_q, double c_v, double c_a,
                        SparseMatrix& A) const override;
  void assemble_mass(Workspace& ws, ConstVecRef q, SparseMatrix& M) const override;
  void assemble_jacobian(Workspace& ws, double t, ConstVecRef q, SparseMatrix& Cq) const override;
  void assemble_velocity_jacobian(Workspace& ws, double t, ConstVecRef q, ConstVecRef v,
                                  SparseMatrix& G) const override;

  std::string coordinate_label(int i) const override;
  std::string constraint_label(int row) const override;

  bool has_energy() const override { return static_cast<bool>(fns_.energy); }
  double energy(Workspace& ws, double t, ConstVecRef q, ConstVecRef v) const override;

  /// Dense helpers (analytic where the user gave them, finite differences otherwise).
  MatX mass_matrix(ConstVecRef q) const;
  MatX constraint_jacobian(ConstVecRef q) const;

 private:
  Functions fns_;
  SparseMatrix tangent_pattern_;   ///< dense n×n
  SparseMatrix jacobian_pattern_;  ///< dense m×n
};

}  // namespace mbdae::validation
