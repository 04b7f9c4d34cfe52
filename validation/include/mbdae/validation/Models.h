#pragma once
/// @file Models.h
/// The validation and benchmark mechanisms, built in code with the System API, so that the
/// validation tests, the benchmarks and other programs simulate exactly the same models.
///
/// Each builder says where the model comes from (the reference sheet in /work/shared/reference and
/// the case README under validation/) and which modelling choices it makes where the source leaves
/// room (inertias of "massless" or "thin" parts, body frames). Every body starts with R_WB = I
/// unless stated, so its inertia is given directly in world-aligned axes and Tait–Bryan and
/// rotation-vector bodies start at zero angles, far from their singularities.
///
/// Body and joint names are part of the contract (tests and reports refer to them); they are
/// listed with each builder. Units SI.

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
/// spherical or all revolute with axis y; gravity (0, 0, −9.81). Provenance: the issue text
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

}  // namespace mbdae::validation::models
