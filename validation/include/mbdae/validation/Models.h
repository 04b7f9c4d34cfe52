#pragma once
/// @file Models.h
/// The validation and benchmark mechanisms, built in code with the System API, so that the
/// validation tests, the benchmarks and other programs simulate exactly the same models.
///
/// Each builder says where the model comes from (the reference sheet reference/*.md and
/// the case README under validation/) and which modelling choices it makes where the source leaves
/// room (inertias of "massless" or "thin" parts, body frames). Every body starts with R_WB = I
/// unless stated, so its inertia is given directly in world-aligned axes and Tait–Bryan and
/// rotation-vector bodies start at zero angles, far from their singularities.
///
/// Body and joint names are part of the contract (tests and reports refer to them); they are
/// listed with each builder. Units SI.

#include <array>
#include <string>

#include <mbdae/model/System.h>

namespace mbdae::validation::models {

/// Heavy top (Brüls & Cardona 2010; Brüls, Cardona & Arnold 2012). Provenance:
/// reference/heavy_top.md, validation/heavy_top/README.md, constants refs::heavy_top.
/// COM-offset formulation: body "top" with its reference point at the fixed point (world origin),
/// com = (0, 1, 0), inertia about the fixed point diag(15.234375, 0.46875, 15.234375); spherical
/// joint "fixed_point" to ground at the origin; gravity (0, 0, −9.81). R(0) = I, so the published
/// body-axis Ω(0) = (0, 150, −4.61538) is also the world-axis angular_velocity; the reference
/// point is at rest.
System HeavyTop(RotationParametrization rotation = RotationParametrization::EulerParameters);

/// How the A01 pendulum's massless link is modelled.
enum class A01Link {
  Revolute,  ///< joint "pivot": revolute to ground at the origin, axis z
  Distance,  ///< joint "link": distance 1 m between the ground origin and the mass
};

/// IFToMM A01 simple pendulum. Provenance: reference/iftomm.md, validation/iftomm/README.md,
/// constants refs::iftomm::a01. The 1 kg point mass is body "mass" with its reference point and
/// COM at the particle, released at rest at (1, 0, 0); gravity (0, −9.81, 0).
/// A rigid body needs a positive-definite inertia: `inertia` is its (isotropic) moment about the
/// COM, kg m². With the revolute link it adds to the moment about the pivot, I_O = m L² + inertia,
/// so ω₀ and the period change by a relative ∓inertia/2 (5e-10 for the default 1e-9: far below
/// every tolerance); with the distance link the constraint acts through the COM, the body's
/// rotation decouples and the inertia has no effect on the motion of the mass.
System IftommA01(A01Link link, double inertia = 1e-9,
                 RotationParametrization rotation = RotationParametrization::EulerParameters);

/// IFToMM A02 N-four-bar, 2N+1 rods (1 m, 1 kg), gravity (0, −9.81, 0). Provenance:
/// reference/iftomm.md, validation/iftomm/README.md, constants refs::iftomm::a02.
/// Bodies "crank0" … "crankN" (vertical, pivots (i, 0), tips (i, 1)) and "coupler0" …
/// "couplerN−1" (horizontal at y = 1 from (j, 1) to (j+1, 1)); reference point at each rod's
/// middle (its COM). Joints, all revolute with axis z: "ground_crank<i>" at (i, 0),
/// "crank<j>_coupler<j>" at (j, 1), "coupler<j>_crank<j+1>" at (j+1, 1).
/// Inertia: the reference's 1-DOF equation assumes thin rods, I = m L²/12 about the COM for the
/// in-plane rotation; that value is used exactly for both transverse moments, and the axial
/// moment is that of a 0.01 × 0.01 m section, m (0.01² + 0.01²)/12 (it never enters the planar
/// motion but keeps the tensor positive definite).
/// Initial velocity: every crank ω = (0, 0, −1) rad/s (so B0 = crank0's tip moves with ẋ = 1),
/// couplers translate with (1, 0, 0). The N closed loops make 3N of the 3-D joint equations
/// redundant (prepare() removes them).
System IftommA02(int n_loops,
                 RotationParametrization rotation = RotationParametrization::EulerParameters);
/// B0 (tip of crank0) in crank0's body frame, m: the crank's body frame is world-aligned at t0
/// with its reference point at the middle of the crank, so the tip is at (0, 0.5, 0).
Vec3 IftommA02TipB0();

/// IFToMM A04 Bricard mechanism. Provenance: reference/iftomm.md (A04).
/// Five rods "rod1" … "rod5" (1 m, 1 kg, 0.1 × 0.1 m square section, COM and reference point at
/// mid-rod, inertia of the 1 × 0.1 × 0.1 box) on the polygon P0 = (0,0,0), P1 = (1,0,0),
/// P2 = (1,−1,0), P3 = (1,−1,1), P4 = (0,−1,1), P5 = (0,0,1); rod k from P(k−1) to Pk.
/// Revolute joints "J0" … "J5" at P0 … P5 with axes Y, Z, X, Y, Z, X: J0 ground–rod1,
/// Jk rod k–rod k+1 (k = 1…4), J5 rod5–ground. Gravity (0, −9.81, 0), at rest.
/// Grübler's count is 0 DOF; the mechanism moves with 1 DOF (one redundant equation).
System Bricard(RotationParametrization rotation = RotationParametrization::EulerParameters);

enum class ChainJoint { Spherical, Revolute };
const char* to_string(ChainJoint j);

/// The N-link chain of the "implicit core" benchmark: N uniform bars "bar0" … "bar<N−1>" (1 kg,
/// 1 × 0.1 × 0.1 m box inertia, COM and reference point at mid-bar) along +x at rest, bar i from
/// x = i to i + 1; joint "ground_bar0" at the origin and "bar<i−1>_bar<i>" at x = i, all
/// spherical or all revolute with axis y; gravity (0, 0, −9.81). Provenance: the project's benchmark definition
/// (quoted in bench/chain_bench.cpp).
System Chain(int n_bars, ChainJoint joint,
             RotationParametrization rotation = RotationParametrization::EulerParameters);

/// A spatial double pendulum for comparing rotation parametrizations (constructed for this
/// project, no published reference): the first two bars of Chain(2, Spherical) with gravity
/// (0, −9.81, 0) (so the swing is a rotation about z, the last Tait–Bryan angle) and an initial
/// rigid rotation of both bars about the ground joint with ω = (0.5, 0.3, 0) rad/s (a spin about
/// the bars' axis and an out-of-plane swing). The velocities are consistent by construction, so
/// no parametrization-dependent velocity projection happens in prepare().
System SpatialDoublePendulum(RotationParametrization rotation);

// -------------------------------------------------------------------------------------------------
// Models shared by the validation tests and the validation suite (mbdae validate). The tests in
// validation/tests build the same mechanisms; these builders are the ones the suite runs.
// -------------------------------------------------------------------------------------------------

/// The rod of the Chrono/ADAMS joint pendulums (reference/joints_adams.md, refs::joints_adams):
/// body "rod", 1 kg, centroidal inertia (0.04, 0.1, 0.1) with body x along the rod (joint → COM),
/// body z along `axis`; COM at `com0`, at rest; joint "joint" to ground at `joint_point`, revolute
/// about `axis` or spherical; gravity (0, 0, −9.80665).
System AdamsPendulum(JointType type, const Vec3& joint_point, const Vec3& axis, const Vec3& com0,
                     RotationParametrization rotation = RotationParametrization::EulerParameters);

/// The spatial slider-crank of reference/iftomm.md with the Cardan rod–slider joint (see
/// validation/iftomm/README.md: only this joint reproduces the published energy 0.76643568 J).
/// Bodies "crank", "rod", "slider" (indices 0, 1, 2); joints "crank_pivot" (revolute, x),
/// "crank_rod" (spherical), "rod_slider" (universal: slider axis x, rod-fixed axis ⊥ rod and x),
/// "slider_guide" (prismatic, x). Consistent initial velocities (crank ω = 6 rad/s).
System SpatialSliderCrank();

/// Offset slider-crank of reference/analytic.md: crank r = 0.1 m about the origin (axis z), rod
/// l = 0.35 m, slider on y = e = 0.03 m; bodies "crank" (reference point at the pivot), "rod",
/// "slider"; joints "crank_drive" (revolute; driven θ(t) = ω t + α t²/2 with ω = 2π rad/s,
/// α = 1 rad/s² if `driven`), "crank_rod", "rod_slider", "slider_guide". Gravity (0, −9.81, 0).
struct OffsetSliderCrankData {
  static constexpr double r = 0.1, l = 0.35, e = 0.03;
  static constexpr double omega = 6.283185307179586, alpha = 1.0;
};
System OffsetSliderCrank(bool driven,
                         RotationParametrization rotation = RotationParametrization::EulerParameters);

/// A torque-free asymmetric body (reference/analytic.md, validation::TorqueFreeBody): body
/// "body", 2 kg, principal moments (1, 2, 3) kg m² about principal axes P = Rz(0.3) Rx(−0.7)
/// Ry(0.2) (so body axes are NOT principal), initial attitude Rx(0.4) Rz(−1.1), Ω(0) =
/// (1, 0.2, 2) rad/s in principal axes (M² > 2E I2; `w0_P` overrides it), COM moving uniformly.
System TorqueFreeBodyModel(RotationParametrization rotation = RotationParametrization::EulerParameters,
                           const Vec3& w0_P = Vec3(1.0, 0.2, 2.0));
/// The principal axes P of TorqueFreeBodyModel (columns in body axes) and its principal moments.
Mat3 TorqueFreeBodyPrincipalAxes();
Vec3 TorqueFreeBodyMoments();

/// Lagrange top (reference/analytic.md, validation::LagrangeTop): body "top" with its reference
/// point at the fixed point (world origin, spherical joint "fixed_point"), symmetry axis = body z,
/// COM at (0, 0, l), inertia about O diag(I1', I1', I3); tilted by θ0 about world x, θ'(0) = 0,
/// precession rate φ'(0) about world z and axial angular velocity ω3; gravity (0, 0, −g).
System LagrangeTopModel(double mass, double gravity, double com_distance, double I1_O, double I3,
                        double theta0, double omega3, double phi_dot0,
                        RotationParametrization rotation = RotationParametrization::EulerParameters);

/// Solid sphere (I = 2/5 m r²) and box (uniform, half extents `half`) bodies for contact cases.
RigidBody SphereBody(const std::string& name, double mass, double radius, const Vec3& position,
                     const Vec3& velocity);
RigidBody BoxBody(const std::string& name, double mass, const Vec3& half, const Vec3& position,
                  const Vec3& velocity);

/// Andrews' squeezing mechanism built from 7 planar rigid bodies (reference/andrews.md,
/// reference/iftomm.md A03; validation/andrews/README.md), the body-model twin of the generic
/// DAE of Andrews.h. Defined in AndrewsBodies.cpp.
/// Geometry read off the Hairer–Wanner equations (each M entry and constraint identifies a body,
/// its pivot, its joints and the distance of its COM from the pivot): bodies "body1" … "body7"
/// (index k−1) with absolute angles β, β+Θ, γ, Φ+δ, δ, Ω+ε, ε about z, each body's x axis along
/// that angle. Joints (revolute, axis z): "O" ground–body1 at the origin, "E" body1–body2,
/// "F3"/"F4"/"F6" body2–body3/body4/body6 at F (the end of body 2), "B" ground–body3,
/// "A5"/"A7" ground–body5/body7 at A, "G" body5–body4, "H" body7–body6. Spring "spring" (c0,
/// rest length l0) between C on the ground and D on body 3; motor torque "motor" mom about +z on
/// body 1. No gravity. Inertias i_k about the COM (z; the same value for x and y, which never
/// enter the planar motion). `q` are the relative angles (β, Θ, γ, Φ, δ, Ω, ε) of the initial
/// configuration (at rest), e.g. the Test Set's consistent q0.
System AndrewsBodies(const std::array<double, 7>& q);

/// IFToMM A05 stiff flyball governor (reference/iftomm.md A05; validation/governor/README.md).
/// Defined in AndrewsBodies.cpp beside the other A0x builder. The coupler rods of the classical
/// governor are replaced by spring-dampers (as the benchmark states: "coupler rods are substituted
/// by spring-damper elements"). Geometry, as read from the benchmark's description (its figure was
/// not available): body "shaft" (1 × 0.01 × 0.01 m, along z from the origin, driven at 2π rad/s
/// by the revolute joint "drive" about z); bodies "rod1", "rod2" (1 × 0.01 × 0.01 m, each with a
/// 5 kg point mass at its free end, combined into one body) hinged at the shaft top (0, 0, 1) by
/// revolute joints "hinge1", "hinge2" (axis y at t0), at α = 30° from the downward vertical in the
/// x–z plane on either side; body "slider" (0.1 m cube) on the shaft (prismatic joint "guide",
/// axis z); spring-dampers "coupler1", "coupler2" (K = 8e5 N/m, C = 4e4 N s/m, rest length 0.5 m)
/// from the point s = 0.5 m along each rod to the slider's centre, which starts where both are
/// relaxed (height 1 − 2 · 0.5 cos 30° m). Density 3000 kg/m³, gravity (0, 0, −9.81). Everything
/// starts in rigid rotation with the shaft.
System FlyballGovernor();

/// A pile of K spheres (r = 0.1 m, m = 1 kg, μ = 0.5, restitution 0) on a lattice (n = ⌈K^⅓⌉
/// columns per side, spacing 2.2 r, odd layers shifted by half a spacing), dropped into a box:
/// a floor at z = 0 and four frictional walls 1 cm clear of the lattice. Each sphere gets the
/// given rolling resistance. The sphere-pile benchmark model (impulse stepper).
System SpherePile(int K, double rolling_resistance = 0.0);

/// A pile of K boxes (0.2 × 0.15 × 0.1 m, m = 1 kg, μ = 0.5, restitution 0) on the lattice of
/// SpherePile (spacing 0.25 m, odd layers shifted by half a spacing and turned 0.3 rad about z,
/// so that boxes land on edges and corners of others), dropped into a box: a floor at z = 0 and
/// four frictional walls 1 cm clear of the lattice. Box–box and box–plane contacts.
System BoxPile(int K);

/// A stack of n boxes (size a × a × a/2, m = 1 kg, μ = 0.5) resting face on face on a floor at
/// z = 0, each box exactly on the one below (no gap, no penetration).
System BoxStack(int n, double a = 0.2);

}  // namespace mbdae::validation::models
