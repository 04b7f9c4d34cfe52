#pragma once
/// @file Andrews.h
/// Andrews' squeezing mechanism as a generic index-3 DAE in the 7 relative angles
/// q = (β, Θ, γ, Φ, δ, Ω, ε) with 6 constraints:
///
///     M(q) q̈ = f(q, q̇) − G(q)ᵀ λ,   g(q) = 0,   G = ∂g/∂q.
///
/// Sources: E. Hairer, G. Wanner, Solving Ordinary Differential Equations II, 2nd ed., sec. VII.7;
/// the "Test Set for IVP Solvers" (Univ. of Bari), problem `andrews` (andrews.F, rev. 1.2, 2006).
/// Same sign convention as ConstrainedSystem (M q̈ = f − Gᵀλ). All formulas of M, f, g are in
/// Andrews.cpp; G and γ = −(G q̇)_q q̇ are written out analytically. No gravity; driven by the
/// motor torque `mom` and the spring `c0`. t ∈ [0, 0.03] s. See validation/andrews/README.md.

#include <array>

#include <mbdae/validation/GenericDae.h>

namespace mbdae::validation::andrews {

/// Problem parameters (SI: kg, m, kg·m², N/m, N·m), as in the Test Set.
namespace param {
inline constexpr double m1 = .04325, m2 = .00365, m3 = .02373, m4 = .00706, m5 = .07050,
                        m6 = .00706, m7 = .05498;
inline constexpr double xa = -.06934, ya = -.00227, xb = -0.03635, yb = .03273, xc = .014,
                        yc = .072, c0 = 4530;
inline constexpr double i1 = 2.194e-6, i2 = 4.410e-7, i3 = 5.255e-6, i4 = 5.667e-7,
                        i5 = 1.169e-5, i6 = 5.667e-7, i7 = 1.912e-5;
inline constexpr double d = 28e-3, da = 115e-4, e = 2e-2, ea = 1421e-5, rr = 7e-3, ra = 92e-5,
                        l0 = 7785e-5;
inline constexpr double ss = 35e-3, sa = 1874e-5, sb = 1043e-5, sc = 18e-3, sd = 2e-2,
                        ta = 2308e-5, tb = 916e-5, u = 4e-2, ua = 1228e-5, ub = 449e-5;
inline constexpr double zf = 2e-2, zt = 4e-2, fa = 1421e-5, mom = 33e-3;
}  // namespace param

inline constexpr double t_end = 0.03;  ///< s

// Consistent initial values at t = 0 (Test Set, andrews.F; 30 digits there, rounded to double).
inline constexpr std::array<double, 7> q0 = {
    -0.0617138900142764496358948458001, 0.0, 0.455279819163070380255912382449,
    0.222668390165885884674473185609,   0.487364979543842550225598953530,
    -0.222668390165885884674473185609,  1.23054744454982119249735015568};
inline constexpr std::array<double, 7> qd0 = {0, 0, 0, 0, 0, 0, 0};
inline constexpr std::array<double, 7> qdd0 = {14222.4439199541138705911625887,
                                               -10666.8329399655854029433719415, 0, 0, 0, 0, 0};
inline constexpr std::array<double, 6> lambda0 = {98.5668703962410896057654982170,
                                                  -6.12268834425566265503114393122, 0, 0, 0, 0};

// Reference solution at t = 0.03 (Test Set: PSIDE at rtol = atol = 1e-14; an independent
// index-1 DOP853 re-integration at tol 1e-13 agrees to 2.7e-10 relative in q, 5e-8 in q̇).
inline constexpr std::array<double, 7> q_ref = {15.81077119629904,   -15.75637105984298,
                                                0.04082224013073101, -0.5347301163226948,
                                                0.5244099658805304,  0.5347301163226948,
                                                1.048080741042263};
inline constexpr std::array<double, 7> qd_ref = {1139.920302151208,  -1424.379294994111,
                                                 11.03291221937134,  19.29337464421385,
                                                 0.5735699284790808, -19.29337464421385,
                                                 0.3231791658026955};
inline constexpr std::array<double, 7> qdd_ref = {-24631.76316945196, 51850.37701610329,
                                                  324102.5686413781,  566749.3645176213,
                                                  16743.62929479361,  -566749.3645176222,
                                                  9826.520791458422};
inline constexpr std::array<double, 6> lambda_ref = {199.1753333731910,  -29.75531228015052,
                                                     23.06654119098399,  31.45271365475927,
                                                     22.64249232082739,  11.61740700019673};

/// M(q) (7×7, symmetric), f(q, q̇) (7), g(q) (6), G(q) = ∂g/∂q (6×7), γ = −(G q̇)_q q̇ (6).
void mass(ConstVecRef q, Eigen::Ref<MatX> M);
void forces(ConstVecRef q, ConstVecRef v, VecRef f);
void constraints(ConstVecRef q, VecRef g);
void constraint_jacobian(ConstVecRef q, Eigen::Ref<MatX> G);
void gamma(ConstVecRef q, ConstVecRef v, VecRef gam);

/// The squeezer as a GenericDae (n = 7, m = 6) with the consistent initial state q0, q̇0 = 0.
GenericDae make_system();

/// The Test Set's "mixed error significant digits" of y against ref:
/// scd = −log10 max_i |y_i − ref_i| / (1 + |ref_i|). Sizes must match.
double mixed_error_digits(const VecX& y, const VecX& ref);

/// std::array → VecX.
template <std::size_t N>
VecX to_vec(const std::array<double, N>& a) {
  return Eigen::Map<const VecX>(a.data(), static_cast<Eigen::Index>(N));
}

}  // namespace mbdae::validation::andrews
