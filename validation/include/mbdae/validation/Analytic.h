#pragma once
/// @file Analytic.h
/// Closed-form reference solutions (library code, in the spirit of Drake's
/// benchmarks/*_analytical_solution.h). Every formula is cited to its source; the formulas are
/// collected in validation/README.md and the per-case READMEs (validation/pendulum,
/// validation/torque_free, validation/lagrange_top, validation/slider_crank).
///
/// Elliptic functions. Boost.Math is used with the *modulus* convention: `jacobi_sn(k, u)` and
/// `ellint_1(k)` take the modulus k, whereas the formulas below are written with the parameter
/// m = k² as in "sn(u | m)" (Abramowitz & Stegun 16.1, DLMF 22.2). The code always converts.
///
/// Units are SI (rad, rad/s, rad/s², m, kg, kg m², s). Bad input throws std::invalid_argument with
/// the expected and the actual value.

#include <mbdae/model/Types.h>

namespace mbdae::validation {

// -------------------------------------------------------------------------------------------------
// Jacobi elliptic helpers
// -------------------------------------------------------------------------------------------------

/// sn, cn, dn and the amplitude am of the same argument.
struct JacobiValues {
  double sn;
  double cn;
  double dn;
  double am;  ///< Jacobi amplitude, continuous and increasing in u (not wrapped to (−π, π])
};

/// Jacobi functions sn(u|k²), cn(u|k²), dn(u|k²) and the amplitude am(u|k²) for the modulus
/// 0 ≤ k < 1 and any real u. The argument is reduced by whole half-periods 2K(k²) before Boost
/// is called (sn, cn change sign per half-period, dn does not; am(u + 2K) = am(u) + π,
/// DLMF 22.16.2), so the amplitude stays accurate for large |u| and needs no unwrapping.
/// @throws std::invalid_argument unless 0 ≤ k < 1.
JacobiValues CalcJacobi(double k, double u);

/// Jacobi amplitude am(u | k²) for the modulus 0 ≤ k < 1 (see CalcJacobi).
double CalcJacobiAmplitude(double k, double u);

// -------------------------------------------------------------------------------------------------
// Large-amplitude pendulum  φ'' = −ω0² sin φ
// -------------------------------------------------------------------------------------------------

/// Angle φ (from the downward vertical), rate and acceleration of the pendulum at one time.
struct PendulumState {
  double phi;       ///< rad
  double phi_dot;   ///< rad/s
  double phi_ddot;  ///< rad/s²
};

/// Undamped pendulum φ'' = −ω0² sin φ with ω0² = m g d / I_O (point mass on a link of length L:
/// ω0² = g/L). Source: Lawden, *Elliptic Functions and Applications* (1989), §5.2; Whittaker,
/// *Analytical Dynamics*, §44; reference/analytic.md.
///
/// - Libration (released from rest at φ(0) = φ0, 0 < |φ0| < π): k = sin(φ0/2),
///   φ(t) = 2 asin(k sn(K − ω0 t | k²)), φ'(t) = −2kω0 cn(K − ω0 t | k²),
///   φ''(t) = −2kω0² sn dn = −ω0² sin φ; period T = 4K(k²)/ω0.
/// - Rotation (φ(0) = 0, |φ'(0)| > 2ω0): k = φ'(0)/(2ω0) > 1,
///   φ(t) = 2 am(kω0 t | 1/k²), φ'(t) = 2kω0 dn(kω0 t | 1/k²), φ'' = −2ω0² sn cn;
///   time per revolution T = 2K(1/k²)/(|k| ω0).
///
/// Build it with Libration() or Rotation(); the fields are public for aggregate use.
struct Pendulum {
  enum class Regime { kLibration, kRotation };

  double omega0 = 0.0;        ///< small-amplitude angular frequency √(m g d / I_O), rad/s, > 0
  double phi0_or_rate = 0.0;  ///< libration: release angle φ0 [rad]; rotation: φ'(0) [rad/s]
  Regime regime = Regime::kLibration;

  /// Released from rest at φ0. @throws std::invalid_argument unless ω0 > 0 and 0 < |φ0| < π.
  static Pendulum Libration(double omega0, double phi0);
  /// Starts at the bottom (φ = 0) with rate φ'(0).
  /// @throws std::invalid_argument unless ω0 > 0 and |φ'(0)| > 2 ω0.
  static Pendulum Rotation(double omega0, double rate0);

  /// φ, φ', φ'' at time t [s]. @throws std::invalid_argument for inconsistent fields.
  PendulumState CalcState(double t) const;
  /// Libration: the full swing period 4K(k²)/ω0; rotation: the time of one revolution, s.
  double CalcPeriod() const;
  /// Libration: k = sin(φ0/2) (signed); rotation: k = φ'(0)/(2ω0) (signed, |k| > 1).
  double CalcK() const;
  /// Mechanical energy per unit I_O: ½φ'² + ω0²(1 − cos φ), rad²/s² (an exact invariant).
  double CalcEnergyPerInertia() const;
};

// -------------------------------------------------------------------------------------------------
// Torque-free asymmetric rigid body (Euler–Poinsot)
// -------------------------------------------------------------------------------------------------

/// Body angular velocity w_B(t) of a torque-free rigid body with principal moments
/// I1 < I2 < I3, solving Euler's equations I Ω̇ + Ω × (I Ω) = 0.
/// Source: Landau & Lifshitz, *Mechanics*, 3rd ed., §37, eqs. (37.10)–(37.11); reference/analytic.md.
///
/// With 2E = Σ Iᵢ Ωᵢ² and M² = Σ (Iᵢ Ωᵢ)², in the case M² > 2E I2 (precession about axis 3):
/// ```
///   Ω1 = √((2E I3 − M²) / (I1 (I3 − I1))) cn(τ | k²)
///   Ω2 = √((2E I3 − M²) / (I2 (I3 − I2))) sn(τ | k²)
///   Ω3 = √((M² − 2E I1) / (I3 (I3 − I1))) dn(τ | k²)
///   τ  = λ t + τ0,  λ = √((I3 − I2)(M² − 2E I1) / (I1 I2 I3)),
///   k² = (I2 − I1)(2E I3 − M²) / ((I3 − I2)(M² − 2E I1))
/// ```
/// For M² < 2E I2 (precession about axis 1) the indices 1 and 3 are exchanged in every formula
/// (Landau & Lifshitz, after (37.11)); Ω1 then carries dn and Ω3 carries cn, all with + signs.
/// Landau–Lifshitz choose the time origin where Ω2 = 0 and Ω1, Ω3 > 0 (τ0 = 0). For an arbitrary
/// Ω(0) this class (a) uses the symmetry of Euler's equations under a sign change of two
/// components to make the dn component positive, and (b) finds τ0 from am(τ0) =
/// atan2(Ω2/A2, Ωcn/Acn), τ0 = F(am(τ0) | k²) (incomplete elliptic integral of the first kind).
/// The separatrix M² = 2E I2 (k = 1) is excluded.
///
/// The orientation R_WB(t) is not provided (it needs theta functions or the incomplete integral
/// of the third kind, Landau & Lifshitz (37.12)–(37.16)).
class TorqueFreeBody {
 public:
  /// @param I_B principal moments (I1, I2, I3) in body axes, kg m², 0 < I1 < I2 < I3
  /// @param w0_B body angular velocity Ω(0), rad/s, not zero
  /// @throws std::invalid_argument for unordered or non-positive moments, Ω(0) = 0, or Ω(0) on
  ///         the separatrix |M² − 2E I2| ≤ 1e-12 M².
  TorqueFreeBody(const Vec3& I_B, const Vec3& w0_B);

  /// Landau–Lifshitz time origin: Ω(0) = (w1, 0, w3).
  static TorqueFreeBody FromLandauLifshitz(const Vec3& I_B, double w1, double w3);

  /// Ω(t) in body axes, rad/s.
  Vec3 Calc_w_B(double t) const;
  /// Ω̇(t) in body axes from the derivatives of sn, cn, dn, rad/s².
  Vec3 Calc_wdot_B(double t) const;
  /// Period of Ω(t): 4K(k²)/λ, s.
  double CalcPeriod() const;

  double energy() const { return energy_; }                      ///< E = ½ Σ Iᵢ Ωᵢ², J
  double momentum_squared() const { return momentum_squared_; }  ///< M² = Σ (Iᵢ Ωᵢ)², (kg m²/s)²
  /// True when M² > 2E I2 (Ω precesses about axis 3), false when about axis 1.
  bool precesses_about_axis3() const { return about_axis3_; }
  double modulus() const { return k_; }         ///< k (Boost's argument), 0 ≤ k < 1
  double rate() const { return lambda_; }       ///< λ, 1/s
  double tau0() const { return tau0_; }         ///< τ0 (dimensionless argument at t = 0)
  const Vec3& amplitudes() const { return amp_; }  ///< signed amplitudes of (Ω1, Ω2, Ω3)

 private:
  Vec3 I_B_;
  double energy_ = 0.0;
  double momentum_squared_ = 0.0;
  bool about_axis3_ = true;
  int dn_index_ = 2;  // component carrying dn (2 if about_axis3_, else 0)
  int cn_index_ = 0;  // component carrying cn
  Vec3 amp_ = Vec3::Zero();  // signed amplitudes; sign flips (Euler symmetry) folded in
  double k_ = 0.0;
  double lambda_ = 0.0;
  double tau0_ = 0.0;
};

// -------------------------------------------------------------------------------------------------
// Lagrange (heavy symmetric) top
// -------------------------------------------------------------------------------------------------

/// Physical inputs of a Lagrange top: fixed point O on the symmetry axis, COM at distance l
/// along it, gravity −z. Euler angles z–x–z: precession φ, tilt θ from +z, spin ψ.
struct LagrangeTopInputs {
  double mass = 0.0;       ///< m, kg, > 0
  double gravity = 0.0;    ///< g, m/s², > 0
  double com_distance = 0.0;  ///< l (O to COM), m, > 0
  double I1_O = 0.0;       ///< transverse moment about O: I1,COM + m l², kg m², > 0
  double I3 = 0.0;         ///< axial moment, kg m², > 0
  double theta0 = 0.0;     ///< tilt at t = 0, rad, 0 < θ0 < π, with θ'(0) = 0 (a turning point)
  double omega3 = 0.0;     ///< spin: body angular velocity along the axis, ψ' + φ' cos θ, rad/s
  double phi_dot0 = 0.0;   ///< precession rate φ'(0), rad/s
};

/// State of the Lagrange top at one time.
struct LagrangeTopState {
  double u;          ///< cos θ
  double u_dot;      ///< du/dt, 1/s
  double theta;      ///< tilt θ, rad
  double theta_dot;  ///< rad/s
  double phi_dot;    ///< precession rate, rad/s
  double psi_dot;    ///< spin rate relative to the precessing frame, ω3 − φ' cos θ, rad/s
};

/// Lagrange top: u = cos θ obeys u'² = f(u) = (α − βu)(1 − u²) − (b − au)²
/// = β(u − u1)(u − u2)(u − u3), u1 ≤ u ≤ u2 ≤ 1 ≤ u3, with a = I3 ω3/I1', b = p_φ/I1',
/// β = 2mgl/I1', α = θ'² + φ'² sin²θ + β cos θ. Starting at the upper turning point u2:
/// u(t) = u1 + (u2 − u1) sn²(pt + K(k²) | k²), p = √(β(u3 − u1))/2, k² = (u2 − u1)/(u3 − u1);
/// φ' = (b − au)/(1 − u²). Source: Goldstein, Poole & Safko, *Classical Mechanics*, 3rd ed.,
/// §5.7; Whittaker, *Analytical Dynamics*, §71; reference/analytic.md. If θ0 is the lower
/// turning point u1 instead, the shift K is dropped: u(t) = u1 + (u2 − u1) sn²(pt | k²).
class LagrangeTop {
 public:
  /// @throws std::invalid_argument for non-positive m, g, l, I1', I3, or θ0 outside (0, π).
  explicit LagrangeTop(const LagrangeTopInputs& in);

  LagrangeTopState CalcState(double t) const;
  /// Nutation period 2K(k²)/p, s. For steady precession (k = 0) this is π/p, the period of
  /// small nutations about it.
  double CalcNutationPeriod() const;

  /// Spin rate ψ' (relative to the precessing frame) needed for steady precession at rate ω_p
  /// and tilt α0: ω_s = m g l/(I3 ω_p) + ((I1' − I3)/I3) ω_p cos α0 (Goldstein §5.7, eq. 5.76
  /// rearranged). The axial angular velocity is then ω3 = ω_s + ω_p cos α0.
  /// @throws std::invalid_argument if ω_p = 0 or I3 ≤ 0.
  static double CalcSteadyPrecessionSpin(double mass, double gravity, double com_distance,
                                         double I1_O, double I3, double omega_p, double alpha0);

  double alpha() const { return alpha_; }  ///< α, 1/s²
  double beta() const { return beta_; }    ///< β, 1/s²
  double a() const { return a_; }          ///< a, 1/s
  double b() const { return b_; }          ///< b, 1/s
  double u1() const { return u1_; }
  double u2() const { return u2_; }
  double u3() const { return u3_; }
  double modulus() const { return k_; }    ///< k (Boost's argument)
  double p() const { return p_; }          ///< 1/s
  bool starts_at_upper_turning_point() const { return upper_; }
  const LagrangeTopInputs& inputs() const { return in_; }

 private:
  LagrangeTopInputs in_;
  double alpha_ = 0.0, beta_ = 0.0, a_ = 0.0, b_ = 0.0;
  double u1_ = 0.0, u2_ = 0.0, u3_ = 0.0;
  double k_ = 0.0, p_ = 0.0;
  bool upper_ = true;
};

// -------------------------------------------------------------------------------------------------
// Offset slider-crank kinematics
// -------------------------------------------------------------------------------------------------

/// Slider position and rod angle with their first two time derivatives.
struct SliderCrankKinematics {
  double x;         ///< slider position along its line, m
  double x_dot;     ///< m/s
  double x_ddot;    ///< m/s²
  double phi;       ///< rod angle from +x (crank tip → slider), rad
  double phi_dot;   ///< rad/s
  double phi_ddot;  ///< rad/s²
};

/// Planar offset slider-crank: crank pivot at the origin, crank length r at angle θ, rod length
/// l, slider on the line y = e (the branch with the slider to the right of the crank tip).
/// s = r sin θ − e, c = √(l² − s²), x = r cos θ + c, φ = atan2(−s, c); derivatives by the chain
/// rule (reference/analytic.md; e.g. Wilson & Sadler, *Kinematics and Dynamics of Machinery*, §3).
/// @param theta crank angle, rad; @param omega θ', rad/s; @param alpha θ'', rad/s²
/// @param r crank length, m, > 0; @param l rod length, m, > 0; @param e slider offset, m
/// @throws std::invalid_argument if r or l ≤ 0 or the mechanism cannot assemble (|s| ≥ l).
SliderCrankKinematics CalcSliderCrankKinematics(double theta, double omega, double alpha, double r,
                                                double l, double e);

}  // namespace mbdae::validation
