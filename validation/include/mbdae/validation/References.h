#pragma once
/// @file References.h
/// Published reference numbers, as constants with their provenance. Each block points at the
/// README of its case folder (validation/<case>/README.md), which says where the numbers come
/// from, how they were obtained and how precise they are. validation/README.md is the index.
///
/// Units are SI. Vectors are std::array (constexpr); quaternions are [w, x, y, z].

#include <array>
#include <cmath>

namespace mbdae::validation::refs {

// =================================================================================================
// Heavy top (Brüls & Cardona 2010; Brüls, Cardona & Arnold 2012). Provenance:
// validation/heavy_top/README.md. Body frame origin at the fixed point; z up.
// =================================================================================================
namespace heavy_top {
inline constexpr double kMass = 15.0;                                        // kg
inline constexpr std::array<double, 3> kInertiaCom = {0.234375, 0.46875, 0.234375};  // kg m², body
inline constexpr std::array<double, 3> kComOffset_B = {0.0, 1.0, 0.0};      // m, body axes
/// Inertia about the fixed point: J_COM + m(|X|² 1 − X Xᵀ) with X = (0, 1, 0).
inline constexpr std::array<double, 3> kInertiaFixedPoint = {15.234375, 0.46875, 15.234375};
inline constexpr std::array<double, 3> kGravity_W = {0.0, 0.0, -9.81};      // m/s²
inline constexpr std::array<double, 4> kQuaternion0 = {1.0, 0.0, 0.0, 0.0};  // R(0) = I
/// Ω(0) in body axes, rad/s (−4.61538 is as published, ≈ −60/13).
inline constexpr std::array<double, 3> kOmega0_B = {0.0, 150.0, -4.61538};
/// ẋ_COM(0) = Ω × X, m/s.
inline constexpr std::array<double, 3> kComVelocity0 = {4.61538, 0.0, 0.0};
/// Consistent initial accelerations: Ω̇(0) (body) and ẍ_COM(0) (world).
inline constexpr std::array<double, 3> kOmegaDot0_B = {661.3461692307691919, 0.0, 0.0};
inline constexpr std::array<double, 3> kComAcceleration0 = {0.0, -21.3017325444000001,
                                                            -30.9608307692308244};
/// Reference time and values at t = 2 s (kynema verification, Brüls–Cardona–Arnold with
/// dt = 2e-6; an independent DOP853 run agrees to ~1e-6). Compare with tolerance 1e-5.
inline constexpr double kTimeRef = 2.0;  // s
inline constexpr std::array<double, 3> kComDisplacementAt2 = {-0.150416985652933,
                                                              -1.724164450779749,
                                                              -0.673023460701136};
inline constexpr std::array<double, 4> kQuaternionAt2 = {0.122947275600560, -0.491079359219981,
                                                         0.350430794926147, -0.787986857972906};
/// MATLAB RK4 reference quoted by Exudyn's heavyTop.py, t = 0.2 s, 4–5 digits only.
inline constexpr std::array<double, 4> kQuaternionAt0_2 = {-0.70828, 0.43878, 0.54573, 0.0894};
/// Exact invariants of the motion.
inline constexpr double kOmegaY = 150.0;               // rad/s, Ω_y(t) = const
inline constexpr double kEnergy = 5435.696790865547;   // J, ½ Ωᵀ J_O Ω + m g z_COM
inline constexpr double kAngularMomentumZ = -70.3124296875;  // kg m²/s, (R J_O Ω)_z
/// Generalized-α (Chung & Hulbert 1993) coefficients for ρ∞ = 0.9.
inline constexpr double kRhoInf = 0.9;
inline constexpr double kAlphaM = 8.0 / 19.0;
inline constexpr double kAlphaF = 9.0 / 19.0;
inline constexpr double kBeta = 100.0 / 361.0;
inline constexpr double kGamma = 21.0 / 38.0;
}  // namespace heavy_top

// =================================================================================================
// IFToMM / A Coruña benchmark library. Provenance: validation/iftomm/README.md.
// =================================================================================================
namespace iftomm {

/// A01 simple pendulum: 1 kg point mass, 1 m link, g = 9.81 in −y, released at rest at (+1, 0).
namespace a01 {
inline constexpr double kMass = 1.0;     // kg
inline constexpr double kLength = 1.0;   // m
inline constexpr double kGravity = 9.81;  // m/s², along −y
inline constexpr double kEndTime = 2000.0;  // s (benchmark length)
inline constexpr double kEllipticK = 1.8540746773013719;  // K(m = 0.5)
inline constexpr double kPeriod = 2.3678419475762373;     // s, 4K(0.5)/√9.81
struct Sample {
  double t;  // s
  double x;  // m
  double y;  // m
};
/// Mass position (exact closed form, 12 digits).
inline constexpr std::array<Sample, 3> kPositions = {{{1.0, -0.986291751132, -0.165010853126},
                                                      {2.0, 0.793566195343, -0.608483930444},
                                                      {10.0, 0.275087462576, -0.961419205099}}};
}  // namespace a01

/// A02 N-four-bar: 2N+1 uniform rods 1 m, 1 kg, g = 9.81 in −y; B0 = (cos θ, sin θ).
namespace a02 {
inline constexpr double kRodLength = 1.0;  // m
inline constexpr double kRodMass = 1.0;    // kg
inline constexpr double kGravity = 9.81;   // m/s²
inline constexpr double kEndTime = 20.0;   // s
inline constexpr double kTheta0 = 1.5707963267948966;  // rad, π/2
inline constexpr double kThetaDot0 = -1.0;             // rad/s
struct B0Sample {
  int n;               // number of four-bar loops N
  double t;            // s
  double x, y;         // B0 position, m
  double x_dot, y_dot; // B0 velocity, m/s
};
/// 1-DOF parallelogram-branch reduction, 10 digits.
inline constexpr B0Sample kN2At10 = {2, 10.0, 0.3284581115, 0.9445185382, 1.4230514702,
                                     -0.4948688455};
inline constexpr B0Sample kN40At10 = {40, 10.0, 0.1805122267, 0.9835727406, 1.1484412775,
                                      -0.2107700668};
/// Exudyn generalized-α (ρ∞ = 0.95) B0 position for N = 2 at t = 10 (converging as h → 0).
struct ExudynSample {
  double h;     // step, s
  double x, y;  // m
};
inline constexpr std::array<ExudynSample, 2> kExudynN2At10 = {
    {{1e-3, 0.3284112372, 0.9445348375}, {1.25e-4, 0.3284573768, 0.9445187937}}};
}  // namespace a02

/// Spatial slider-crank: problem data and reference curve as given in reference/iftomm.md, where
/// the curve is attributed to Masoudi's IFToMM submission "as tabulated in
/// LisaLatussek/PHMultiBodySystems, results/example_03_slider_crank/". In that file these numbers
/// are the columns time_ref2/pos_ref2 ("LieGroupGenAlpha"); Masoudi's own submission file is its
/// other reference, the columns ref1 ("Rosenbrock"). The source of pos_ref2 is not identified and
/// it does not start from this problem's initial state (validation/iftomm/README.md). 8 digits.
namespace spatial_slider_crank {
inline constexpr std::array<double, 3> kGravity = {0.0, 0.0, -9.81};  // m/s²
inline constexpr double kCrankLength = 0.08;                          // m
inline constexpr double kRodLength = 0.3;                             // m
inline constexpr std::array<double, 3> kCrankPivot = {0.0, 0.1, 0.12};  // m, axis x
inline constexpr double kCrankTheta0 = 0.0;  // rad
inline constexpr double kCrankOmega0 = 6.0;  // rad/s about +x
inline constexpr double kCrankMass = 0.12;   // kg
inline constexpr double kRodMass = 0.5;      // kg
inline constexpr double kSliderMass = 2.0;   // kg
inline constexpr std::array<double, 3> kCrankInertia = {1e-4, 1e-4, 1e-5};   // kg m², COM axes
inline constexpr std::array<double, 3> kRodInertia = {4e-4, 4e-3, 4e-3};     // x along the rod
inline constexpr std::array<double, 3> kSliderInertia = {1e-4, 1e-4, 1e-4};
inline constexpr double kSliderX0 = 0.2;                                      // m
inline constexpr std::array<double, 3> kRodComVelocity0 = {0.12, -0.24, 0.0};  // m/s
inline constexpr std::array<double, 3> kSliderVelocity0 = {0.24, 0.0, 0.0};    // m/s
inline constexpr double kEndTime = 5.0;   // s
inline constexpr double kStep = 1e-4;     // s
inline constexpr double kFirstMaxTime = 0.29238351;  // s
inline constexpr double kFirstMaxX = 0.29013852;     // m
inline constexpr std::array<std::array<double, 2>, 2> kSliderX = {
    {{0.1027, 0.22951254}, {0.2027, 0.26451577}}};  // (t [s], x [m])
inline constexpr double kTotalEnergy = 0.76643568;  // J (see the README on its zero level)

/// Column "position24" of the same PH file: that repository's port-Hamiltonian model of this
/// mechanism (energy 0.76643568 J), step h = 0.01 s (t [s], x [m]).
inline constexpr std::array<std::array<double, 2>, 4> kPortHamiltonianX = {
    {{0.1, 0.226793672}, {0.2, 0.263053351}, {0.27, 0.290041515}, {0.5, 0.184964975}}};

/// Submissions to the IFToMM benchmark, as distributed with jgerstmayr/EXUDYN in
/// docs/verification/Slidercrank3DiftommBenchmark/ (slider x; t [s], x [m], 9 resp. 7 digits).
/// Gonzalez and Masarati agree with each other to 6e-6 m up to t = 0.5 s.
inline constexpr std::array<std::array<double, 2>, 5> kGonzalezX = {
    {{0.1, 0.226785384}, {0.2, 0.263034975}, {0.27, 0.290058606}, {0.5, 0.184952803}, {0.85, 0.290119699}}};
inline constexpr std::array<std::array<double, 2>, 5> kMasaratiX = {
    {{0.1, 0.2267867}, {0.2, 0.2630368}, {0.272, 0.2901466}, {0.5, 0.1849586}, {0.852, 0.2901484}}};
/// Masoudi's submission (t = k · 5/299 s), identical to the ref1 columns of the PH file above.
inline constexpr std::array<std::array<double, 2>, 3> kMasoudiX = {
    {{0.100334448, 0.22678101}, {0.200668896, 0.262960732}, {0.250836120, 0.284459955}}};
}  // namespace spatial_slider_crank
}  // namespace iftomm

// =================================================================================================
// Chrono's joint tests against MSC ADAMS (exact physical-pendulum values, matching ADAMS to its
// 6 digits). Provenance: validation/joints_adams/README.md. Chrono's tolerances against ADAMS:
// position 1e-3, velocity 1e-4, acceleration 2e-2, reaction 2e-2, energy 1e-2, constraint 1e-5.
// =================================================================================================
namespace joints_adams {
inline constexpr double kMass = 1.0;                                   // kg
inline constexpr double kGravity = 9.80665;                            // m/s², along −z
inline constexpr double kComDistance = 2.0;                            // m (rod length 4)
inline constexpr std::array<double, 3> kInertiaCom = {0.04, 0.1, 0.1};  // kg m², x along the rod
inline constexpr double kInertiaAboutJoint = 4.1;                       // 0.1 + 1·2²
inline constexpr double kEndTime = 5.0;                                 // s
inline constexpr double kTolPosition = 1e-3;
inline constexpr double kTolVelocity = 1e-4;
inline constexpr double kTolAcceleration = 2e-2;
inline constexpr double kTolReaction = 2e-2;
inline constexpr double kTolEnergy = 1e-2;
inline constexpr double kTolConstraint = 1e-5;

/// Revolute case 1: joint at the origin, axis +y, COM at (2, 0, 0) at rest.
namespace revolute1 {
inline constexpr std::array<double, 3> kJoint = {0.0, 0.0, 0.0};
inline constexpr std::array<double, 3> kAxis = {0.0, 1.0, 0.0};
inline constexpr std::array<double, 3> kCom0 = {2.0, 0.0, 0.0};
inline constexpr double kOmega0 = 2.18717436600676;      // rad/s
inline constexpr double kPeriod = 3.3908127419881096;    // s
struct Sample {
  double t, x, z;
};
inline constexpr std::array<Sample, 4> kCom = {{{0.5, 1.660807754, -1.114323833},
                                                {1.0, -0.892381486, -1.789875773},
                                                {2.0, -1.951117169, -0.439479003},
                                                {2.5, -0.265506336, -1.982298258}}};
/// The ADAMS output itself at t = 0.5 (6 significant digits).
inline constexpr Sample kAdamsAt0_5 = {0.5, 1.660810, -1.114320};
}  // namespace revolute1

/// Revolute case 2: joint at (1, 2, 3), axis (0, 1, 1)/√2, COM at (3, 2, 3) at rest.
namespace revolute2 {
inline constexpr std::array<double, 3> kJoint = {1.0, 2.0, 3.0};
inline constexpr std::array<double, 3> kAxis = {0.0, 0.70710678118654752, 0.70710678118654752};
inline constexpr std::array<double, 3> kCom0 = {3.0, 2.0, 3.0};
inline constexpr double kPeriod = 4.032378638414146;  // s (gravity in the swing plane g/√2)
struct Sample {
  double t, x, y, z;
};
inline constexpr std::array<Sample, 3> kCom = {{{0.5, 2.82590977, 2.5770847, 2.4229153},
                                                {1.0, 1.04210381, 3.41390015, 1.58609985},
                                                {2.0, -0.9999998, 2.00062689, 2.99937311}}};
}  // namespace revolute2

/// Spherical case 1: same body as revolute case 1 with a spherical joint at the origin; by
/// symmetry its solution is that of revolute case 1 (motion in the x–z plane).
namespace spherical1 {
inline constexpr std::array<double, 3> kJoint = {0.0, 0.0, 0.0};
inline constexpr std::array<double, 3> kCom0 = {2.0, 0.0, 0.0};
inline constexpr double kPeriod = revolute1::kPeriod;
inline constexpr auto kCom = revolute1::kCom;
}  // namespace spherical1
}  // namespace joints_adams

// =================================================================================================
// Contact closed forms (rigid bodies, one Coulomb μ, Newton restitution). Provenance:
// validation/contact/README.md. Arguments in SI; μ > 0, g > 0 assumed (no checks: constexpr use).
// =================================================================================================
namespace contact {

/// Block sliding on a flat plane from speed v0: stopping time v0/(μ g), s.
inline double SlidingStopTime(double v0, double mu, double g) { return v0 / (mu * g); }
/// Block sliding on a flat plane from speed v0: stopping distance v0²/(2 μ g), m.
inline double SlidingStopDistance(double v0, double mu, double g) {
  return v0 * v0 / (2.0 * mu * g);
}
/// Block on an incline of angle α (rad): true iff it stays at rest (tan α ≤ μ).
inline bool BlockSticksOnIncline(double incline, double mu) { return std::tan(incline) <= mu; }
/// Block sliding down an incline: a = g(sin α − μ cos α) if it slides, else 0; m/s².
inline double BlockInclineAcceleration(double incline, double mu, double g) {
  return BlockSticksOnIncline(incline, mu) ? 0.0
                                           : g * (std::sin(incline) - mu * std::cos(incline));
}
/// Solid sphere (I = 2/5 m r²) on an incline: true iff it rolls without slipping, μ ≥ (2/7) tan α.
inline bool SphereRollsOnIncline(double incline, double mu) {
  return mu >= 2.0 / 7.0 * std::tan(incline);
}
/// Solid sphere on an incline: COM acceleration down the slope, m/s².
inline double SphereInclineAcceleration(double incline, double mu, double g) {
  return SphereRollsOnIncline(incline, mu) ? 5.0 / 7.0 * g * std::sin(incline)
                                           : g * (std::sin(incline) - mu * std::cos(incline));
}
/// Solid sphere slipping on an incline: angular acceleration 5 μ g cos α / (2 r), rad/s².
inline double SphereInclineSlipAngularAcceleration(double incline, double mu, double g, double r) {
  return 5.0 * mu * g * std::cos(incline) / (2.0 * r);
}
/// Sphere launched on a flat plane with speed v0 and no spin: time until rolling, 2 v0/(7 μ g), s.
inline double SphereSlipToRollTime(double v0, double mu, double g) {
  return 2.0 * v0 / (7.0 * mu * g);
}
/// ... its rolling speed afterwards, 5 v0 / 7, m/s.
inline double SphereRollingSpeed(double v0) { return 5.0 * v0 / 7.0; }
/// ... the distance covered while slipping, 12 v0² / (49 μ g), m.
inline double SphereSlipDistance(double v0, double mu, double g) {
  return 12.0 * v0 * v0 / (49.0 * mu * g);
}
/// ... the kinetic energy lost to friction, m v0² / 7, J.
inline double SphereSlipEnergyLoss(double mass, double v0) { return mass * v0 * v0 / 7.0; }
/// Ball dropped from h0 with restitution e: apex height after the n-th bounce, e^(2n) h0, m.
inline double RestitutionApexHeight(double h0, double e, int n) {
  return h0 * std::pow(e, 2.0 * n);
}
/// Ball dropped from h0 with restitution 0 ≤ e < 1: time until it comes to rest,
/// √(2 h0 / g) (1 + e)/(1 − e), s.
inline double RestitutionRestTime(double h0, double e, double g) {
  return std::sqrt(2.0 * h0 / g) * (1.0 + e) / (1.0 - e);
}
}  // namespace contact

}  // namespace mbdae::validation::refs
