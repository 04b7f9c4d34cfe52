#pragma once
/// @file SliderCrankGgl.h
/// The planar slider-crank with a spring-damper of the SUNDIALS example idasSlCrank_dns
/// (LLNL/sundials, examples/idas/serial), as a generic DAE in q = (q, x, p):
/// q crank angle (rad), x slider position (m), p connecting-rod angle (rad).
///
///     M = diag(J1, m2, J2),   M q̈ = Q(q, q̇) − Gᵀ λ,
///     g(q) = (x − cos p − a cos q,  −sin p − a sin q) = 0,
///     G = ∂g/∂q = [ a sin q   1   sin p ;  −a cos q   0   −cos p ],
///     γ = −(G q̇)_q q̇ = (−a cos q q̇² − cos p ṗ²,  −a sin q q̇² − sin p ṗ²).
///
/// The generalized forces Q of the spring (k, free length l0), damper (c) and constant force F
/// are those written in the example (see validation/slider_crank_ggl/README.md for the formula).
/// Initial state: q = π/2, p = asin(−a), x = cos p, all velocities 0; t ∈ [0, 10].
/// Reference values: converged index-1 integration (DOP853, tolerances 1e-13 and 1e-10 agree to
/// 2e-11), see the README.

#include <array>

#include <mbdae/validation/GenericDae.h>

namespace mbdae::validation::slider_crank_ggl {

// Parameters of the example (consistent units; lengths in m, masses kg, inertias kg·m²).
inline constexpr double a = 0.5;    ///< crank half-length parameter
inline constexpr double J1 = 1.0;   ///< crank inertia
inline constexpr double m2 = 1.0;   ///< slider mass
inline constexpr double J2 = 2.0;   ///< rod inertia
inline constexpr double k = 1.0;    ///< spring stiffness
inline constexpr double c = 1.0;    ///< damper coefficient
inline constexpr double l0 = 1.0;   ///< spring free length
inline constexpr double F = 1.0;    ///< constant force

inline constexpr double t_end = 10.0;

/// Reference (q, x, p) at t = 5 and t = 10, 12 significant digits (accurate to ~2e-11).
inline constexpr std::array<double, 3> ref_t5 = {-1.429996967647, 0.939030613578, 0.51789475649};
inline constexpr std::array<double, 3> ref_t10 = {1.27567584865, 1.02357855898, -0.498813049182};
/// G(10) = ∫₀¹⁰ ½(J1 q̇² + m2 ẋ² + J2 ṗ²) dt (time integral of the kinetic energy).
inline constexpr double ref_G10 = 3.33660679948;
/// G(10) printed by the shipped IDAS example at rtol 1e-6, atol 1e-7 (9e-6 off the reference).
inline constexpr double idas_example_G10 = 3.3366160662934146;

/// Generalized forces Q(q, q̇) of spring, damper and force, size 3.
void generalized_forces(ConstVecRef q, ConstVecRef v, VecRef Q);

/// Kinetic energy ½(J1 q̇² + m2 ẋ² + J2 ṗ²) (J); the integrand of G.
double kinetic_energy(ConstVecRef v);

/// The slider-crank as a GenericDae with analytic M, Q, g, G and γ, and the consistent initial
/// state of the example (n = 3, m = 2).
GenericDae make_system();

}  // namespace mbdae::validation::slider_crank_ggl
