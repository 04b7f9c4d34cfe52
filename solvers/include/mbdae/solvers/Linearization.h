#pragma once
/// @file Linearization.h
/// Linearisation of a constrained system about a state, and its eigenvalues on the independent
/// coordinates (Géradin & Cardona, Flexible Multibody Dynamics, 2001, ch. 12; Shabana, Dynamics of
/// Multibody Systems, 2005, ch. 6).
///
/// About (q, v, a, λ), perturbations δq = N z with N an orthonormal basis of the null space of
/// C_q (n × k, k = n − rank C_q) satisfy the linearised constraints; projecting the linearised
/// dynamic residual onto the same space gives
///
///     M_r z̈ + D_r ż + K_r z = 0,   M_r = Nᵀ M N,  D_r = Nᵀ (∂r/∂v) N,  K_r = Nᵀ (∂r/∂q) N
///
/// where ∂r/∂q includes the geometric stiffness ∂(C_qᵀλ)/∂q of the constraint forces (the
/// multipliers must be those of the state: at an equilibrium the static ones). The eigenvalues s
/// of [0 I; −M_r⁻¹K_r −M_r⁻¹D_r] give the undamped natural frequency |s|/(2π) (Hz) and the damping
/// ratio ζ = −Re s/|s|; a conjugate pair is reported once. The result does not depend on the
/// choice of N. Holonomic systems only.

#include <complex>
#include <vector>

#include <mbdae/formulations/ConstrainedSystem.h>

namespace mbdae {

/// The reduced linear system M_r z̈ + D_r ż + K_r z = 0 of linearize() (file comment).
struct LinearizedSystem {
  MatX N;               ///< n × k null-space basis of C_q (orthonormal columns)
  MatX M;               ///< M_r, reduced k × k mass matrix
  MatX D;               ///< D_r, reduced k × k damping matrix (∂r/∂v)
  MatX K;               ///< K_r, reduced k × k stiffness matrix (∂r/∂q, geometric stiffness included)
  int rank = 0;         ///< rank of C_q
};

/// One eigenvalue (or conjugate pair) of the linearised system.
struct Mode {
  std::complex<double> eigenvalue;  ///< s, 1/s
  double frequency_hz = 0;          ///< |s|/(2π), Hz (undamped natural frequency)
  double damped_frequency_hz = 0;   ///< |Im s|/(2π), Hz
  double damping_ratio = 0;         ///< −Re s/|s| (1 for a real negative s, 0 undamped; NaN if s = 0)
  VecX shape;                       ///< δq = N Re(z) of the eigenvector, size n, max-norm 1
};

/// Linearises at (t, q, v, a, λ) (sizes n, n, n, m); `rank_tol` is the relative tolerance of the
/// rank decision (column-pivoting QR of C_qᵀ).
/// @throws std::invalid_argument if a size is wrong or the system has velocity-level rows.
LinearizedSystem linearize(const ConstrainedSystem& sys, double t, const VecX& q, const VecX& v,
                           const VecX& a, const VecX& lambda, double rank_tol = 1e-10);

/// Eigenvalues of the linearised system, sorted by increasing frequency_hz; one entry per complex
/// pair, one per real eigenvalue (overdamped or unstable directions, or rigid-body modes s = 0).
/// @throws std::runtime_error if M_r is singular (a massless direction).
std::vector<Mode> modal_analysis(const LinearizedSystem& lin);

/// Convenience: linearise about an equilibrium (v = 0, a = 0, multipliers λ, e.g. from
/// solve_static_equilibrium) and return the modes. q of size n, λ of size m; default rank
/// tolerance. @throws as linearize() and modal_analysis(const LinearizedSystem&).
std::vector<Mode> modal_analysis(const ConstrainedSystem& sys, double t, const VecX& q,
                                 const VecX& lambda);

}  // namespace mbdae
