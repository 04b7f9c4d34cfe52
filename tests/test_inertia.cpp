// Unit tests of the rigid-body mass properties (model/Inertia.h). Expected values are computed
// by hand in the comments from the handbook formulas and the definition
// J = sum m (r.r I - r r^T) (Chaney seed Eq. 3-4).

#include <catch2/catch.hpp>
#include <algorithm>
#include <array>
#include <cmath>
#include <utility>
#include <numbers>
#include <random>
#include <stdexcept>
#include <vector>

#include "mbdae/model/Inertia.h"
#include "mbdae/model/math/Rotation.h"

using namespace mbdae;

namespace {

constexpr double kPi = std::numbers::pi;

/// Largest absolute entry; NaN if any entry is NaN (so a NaN result fails every `< tol` check).
double max_abs(const Eigen::MatrixXd& A) { return A.cwiseAbs().maxCoeff<Eigen::PropagateNaN>(); }

Mat3 diag(double a, double b, double c) { return Vec3(a, b, c).asDiagonal(); }

/// Relative comparison of matrices (scale = largest entry of the reference).
bool close(const Mat3& A, const Mat3& B, double rel = 1e-14) {
  return max_abs(A - B) <= rel * std::max(1.0, max_abs(B));
}

std::vector<PointMass> random_particles(std::mt19937& rng, int n, const Vec3& offset) {
  std::uniform_real_distribution<double> m(0.1, 2.0), x(-1.0, 1.0);
  std::vector<PointMass> p;
  for (int i = 0; i < n; ++i) p.push_back({m(rng), offset + Vec3(x(rng), 2.0 * x(rng), 0.5 * x(rng))});
  return p;
}

}  // namespace

TEST_CASE("inertia 6-vector: order and sign of the tensor entries", "[inertia]") {
  Vec6 j6;
  j6 << 1.0, 2.0, 3.0, 0.4, 0.5, 0.6;  // [Jxx, Jyy, Jzz, Jyz, Jxz, Jxy]
  const Mat3 J = inertia6_to_matrix(j6);
  REQUIRE(J(1, 2) == 0.4);
  REQUIRE(J(2, 1) == 0.4);
  REQUIRE(J(0, 2) == 0.5);
  REQUIRE(J(0, 1) == 0.6);
  REQUIRE(max_abs(matrix_to_inertia6(J) - j6) == 0.0);
  // A particle at (1, 2, 0) of 1 kg: the product of inertia sum m x y = 2 enters the tensor
  // (and the 6-vector) as Jxy = -2.
  const Mat3 Jp = point_mass_inertia(1.0, Vec3(1.0, 2.0, 0.0));
  REQUIRE(matrix_to_inertia6(Jp)[5] == -2.0);
  REQUIRE(max_abs(Jp - diag(4.0, 1.0, 5.0) + 2.0 * (Mat3() << 0, 1, 0, 1, 0, 0, 0, 0, 0).finished()) == 0.0);
}

TEST_CASE("solids: box, cylinder on each axis, tube, sphere, shells", "[inertia]") {
  SECTION("box 2 kg, 1 x 2 x 3 m: Jxx = 2 (4 + 9)/12, Jyy = 2 (1 + 9)/12, Jzz = 2 (1 + 4)/12") {
    const RigidBodyInertia b = RigidBodyInertia::box(2.0, 1.0, 2.0, 3.0);
    REQUIRE(b.mass() == 2.0);
    REQUIRE(b.com().norm() == 0.0);
    REQUIRE(close(b.inertia_com(), diag(26.0 / 12.0, 20.0 / 12.0, 10.0 / 12.0)));
    // same box from the density 1/3 kg/m^3 (volume 6 m^3)
    const RigidBodyInertia bd = RigidBodyInertia::box(Density{1.0 / 3.0}, 1.0, 2.0, 3.0);
    REQUIRE(bd.mass() == Approx(2.0).epsilon(1e-15));
    REQUIRE(close(bd.inertia_com(), b.inertia_com()));
    REQUIRE(b.problems().empty());
  }
  SECTION("solid cylinder 3 kg, r = 0.5, L = 2: axial 3 0.25/2 = 0.375, transverse 3 (0.75+4)/12") {
    const double ax = 0.375, tr = 3.0 * (3.0 * 0.25 + 4.0) / 12.0;  // 1.1875
    REQUIRE(close(RigidBodyInertia::cylinder(3.0, 0.5, 2.0, Axis::X).inertia_com(), diag(ax, tr, tr)));
    REQUIRE(close(RigidBodyInertia::cylinder(3.0, 0.5, 2.0, Axis::Y).inertia_com(), diag(tr, ax, tr)));
    REQUIRE(close(RigidBodyInertia::cylinder(3.0, 0.5, 2.0, Axis::Z).inertia_com(), diag(tr, tr, ax)));
    // any axis: equals the z-cylinder rotated so that e_z -> axis
    const Vec3 axis = Vec3(1.0, -2.0, 0.5).normalized();
    const Mat3 R = math::so3_exp(std::acos(axis.z()) * Vec3::UnitZ().cross(axis).normalized());
    REQUIRE((R * Vec3::UnitZ() - axis).norm() < 1e-15);
    const RigidBodyInertia c = RigidBodyInertia::cylinder(3.0, 0.5, 2.0, 7.0 * axis);
    REQUIRE(close(c.inertia_com(), R * diag(tr, tr, ax) * R.transpose()));
    // density: volume pi 0.25 2 = pi/2
    const RigidBodyInertia cd = RigidBodyInertia::cylinder(Density{6.0 / kPi}, 0.5, 2.0, Axis::Z);
    REQUIRE(cd.mass() == Approx(3.0).epsilon(1e-15));
    REQUIRE(close(cd.inertia_com(), diag(tr, tr, ax)));
  }
  SECTION("hollow cylinder 2 kg, ri = 0.3, ro = 0.5, L = 1") {
    // axial 2 (0.09 + 0.25)/2 = 0.34, transverse 2 (3 0.34 + 1)/12 = 2.02/6
    const Mat3 J = RigidBodyInertia::hollow_cylinder(2.0, 0.3, 0.5, 1.0, Axis::Y).inertia_com();
    REQUIRE(close(J, diag(2.02 / 6.0, 0.34, 2.02 / 6.0)));
    // ri = 0 is the solid cylinder; density volume pi (0.25 - 0.09) 1
    REQUIRE(close(RigidBodyInertia::hollow_cylinder(2.0, 0.0, 0.5, 1.0, Axis::Z).inertia_com(),
                  RigidBodyInertia::cylinder(2.0, 0.5, 1.0, Axis::Z).inertia_com()));
    const RigidBodyInertia hd =
        RigidBodyInertia::hollow_cylinder(Density{2.0 / (kPi * 0.16)}, 0.3, 0.5, 1.0, Axis::Y);
    REQUIRE(hd.mass() == Approx(2.0).epsilon(1e-14));
    REQUIRE_THROWS_WITH(RigidBodyInertia::hollow_cylinder(2.0, 0.5, 0.3, 1.0, Axis::Y),
                        Catch::Contains("inner radius must be <= outer radius, got 0.5 > 0.3"));
  }
  SECTION("spheres: solid 2/5 m r^2, thick shell, thin-shell limit 2/3 m r^2") {
    REQUIRE(close(RigidBodyInertia::sphere(5.0, 2.0).inertia_com(), 8.0 * Mat3::Identity()));
    const RigidBodyInertia sd = RigidBodyInertia::sphere(Density{3.0 / (4.0 * kPi)}, 1.0);
    REQUIRE(sd.mass() == Approx(1.0).epsilon(1e-15));
    // thick shell m = 7, ro = 2, ri = 1: 2/5 7 (32 - 1)/(8 - 1) = 2/5 31 = 12.4
    REQUIRE(close(RigidBodyInertia::hollow_sphere(7.0, 2.0, 1.0).inertia_com(),
                  12.4 * Mat3::Identity()));
    // ri = 0: solid sphere; ri -> ro: thin shell, without cancellation
    REQUIRE(close(RigidBodyInertia::hollow_sphere(5.0, 2.0, 0.0).inertia_com(),
                  8.0 * Mat3::Identity()));
    REQUIRE(close(RigidBodyInertia::hollow_sphere(3.0, 2.0, 2.0).inertia_com(),
                  8.0 * Mat3::Identity()));  // 2/3 3 4
    REQUIRE(close(RigidBodyInertia::hollow_sphere(3.0, 2.0, 2.0 - 1e-12).inertia_com(),
                  8.0 * Mat3::Identity(), 1e-12));
    REQUIRE(close(RigidBodyInertia::spherical_shell(3.0, 2.0).inertia_com(), 8.0 * Mat3::Identity()));
    // density of the thick shell: volume 4/3 pi (8 - 1) = 28 pi/3
    const RigidBodyInertia hd = RigidBodyInertia::hollow_sphere(Density{3.0 / (28.0 * kPi)}, 2.0, 1.0);
    REQUIRE(hd.mass() == Approx(1.0).epsilon(1e-15));
    REQUIRE_THROWS_AS(RigidBodyInertia::hollow_sphere(Density{1.0}, 2.0, 2.0), std::invalid_argument);
    REQUIRE_THROWS_AS(RigidBodyInertia::hollow_sphere(1.0, 1.0, 2.0), std::invalid_argument);
  }
  SECTION("invalid arguments name the value") {
    REQUIRE_THROWS_WITH(RigidBodyInertia::box(-1.0, 1.0, 1.0, 1.0),
                        Catch::Contains("box: mass must be > 0, got -1"));
    REQUIRE_THROWS_WITH(RigidBodyInertia::box(1.0, 1.0, -0.5, 1.0),
                        Catch::Contains("ly must be >= 0, got -0.5"));
    REQUIRE_THROWS_WITH(RigidBodyInertia::box(Density{1000.0}, 1.0, 0.0, 1.0),
                        Catch::Contains("volume is zero"));
    REQUIRE_THROWS_WITH(RigidBodyInertia::cylinder(1.0, 1.0, 1.0, Vec3::Zero()),
                        Catch::Contains("axis must have non-zero length"));
    REQUIRE_THROWS_WITH(RigidBodyInertia::sphere(Density{0.0}, 1.0),
                        Catch::Contains("density must be > 0, got 0"));
  }
}

TEST_CASE("thin plate and thin rod: boundary cases of validation", "[inertia]") {
  // A plate (lz = 0) has Jzz = Jxx + Jyy exactly: on the triangle boundary, accepted.
  const RigidBodyInertia plate = RigidBodyInertia::box(2.0, 0.3, 0.7, 0.0);
  REQUIRE(plate.problems().empty());
  // A rod of zero radius has a zero moment: not positive definite.
  const RigidBodyInertia rod = RigidBodyInertia::cylinder(1.0, 0.0, 2.0, Axis::X);
  const auto p = rod.problems("rod");
  REQUIRE(p.size() == 1);
  REQUIRE_THAT(p[0], Catch::StartsWith("body 'rod': inertia is not positive definite: principal moments 0"));
}

TEST_CASE("point masses: hand-computed composite of two particles and a box", "[inertia]") {
  // Particles 2 kg at (1, 0, 0) and 1 kg at (0, 2, 0); box 1 kg, 1 x 1 x 1 m at the origin.
  // About the origin:  particles Jxx = 1*4 = 4, Jyy = 2*1 = 2, Jzz = 2*1 + 1*4 = 6, Jxy = 0;
  //                    box 1 (1 + 1)/12 = 1/6 on the diagonal.   Total diag(25/6, 13/6, 37/6).
  // m = 4, COM = (2*1 + 0, 1*2, 0)/4 = (0.5, 0.5, 0).
  // Parallel-axis term m (c.c I - c c^T) = 4 (0.5 I - [[.25,.25,0],[.25,.25,0],[0,0,0]])
  //                                      = [[1,-1,0],[-1,1,0],[0,0,2]].
  // J_com = [[19/6, 1, 0], [1, 7/6, 0], [0, 0, 25/6]];
  // principal moments: 13/6 -+ sqrt(1 + 1) in the xy block, 25/6.
  const std::vector<PointMass> particles{{2.0, Vec3(1.0, 0.0, 0.0)}, {1.0, Vec3(0.0, 2.0, 0.0)}};
  const RigidBodyInertia body =
      RigidBodyInertia::from_point_masses(particles) + RigidBodyInertia::box(1.0, 1.0, 1.0, 1.0);
  REQUIRE(body.mass() == 4.0);
  REQUIRE((body.com() - Vec3(0.5, 0.5, 0.0)).norm() < 1e-15);
  Mat3 Jcom;
  Jcom << 19.0 / 6.0, 1.0, 0.0,  //
      1.0, 7.0 / 6.0, 0.0,       //
      0.0, 0.0, 25.0 / 6.0;
  REQUIRE(close(body.inertia_com(), Jcom));
  REQUIRE(close(body.inertia_about_reference(), diag(25.0 / 6.0, 13.0 / 6.0, 37.0 / 6.0)));
  Vec6 j6;
  j6 << 25.0 / 6.0, 13.0 / 6.0, 37.0 / 6.0, 0.0, 0.0, 0.0;
  REQUIRE(max_abs(body.inertia6_about_reference() - j6) < 1e-14);
  REQUIRE(max_abs(body.inertia6_com() - matrix_to_inertia6(Jcom)) < 1e-14);
  const PrincipalAxes pa = body.principal_axes();
  REQUIRE(max_abs(pa.moments - Vec3(13.0 / 6.0 - std::sqrt(2.0), 13.0 / 6.0 + std::sqrt(2.0), 25.0 / 6.0)) < 1e-14);
  REQUIRE(pa.R.determinant() == Approx(1.0).epsilon(1e-15));
  REQUIRE(body.problems("composite").empty());

  // The same as particles: the box is not a set of particles, so add the two particles as
  // point_mass bodies to the box instead (order does not matter).
  const RigidBodyInertia body2 = RigidBodyInertia::box(1.0, 1.0, 1.0, 1.0) +
                                 RigidBodyInertia::point_mass(1.0, Vec3(0.0, 2.0, 0.0)) +
                                 RigidBodyInertia::point_mass(2.0, Vec3(1.0, 0.0, 0.0));
  REQUIRE(close(body2.inertia_com(), Jcom));

  // The two particles alone lie on a line: moments 0, 10/3, 10/3 (not positive definite).
  const RigidBodyInertia two = RigidBodyInertia::from_point_masses(particles);
  REQUIRE(max_abs(two.principal_axes().moments - Vec3(0.0, 10.0 / 3.0, 10.0 / 3.0)) < 1e-14);
  REQUIRE_FALSE(two.problems().empty());

  REQUIRE_THROWS_WITH(RigidBodyInertia::from_point_masses(std::vector<PointMass>{}),
                      Catch::Contains("total mass must be > 0, got 0"));
  REQUIRE_THROWS_WITH(RigidBodyInertia::from_point_masses(std::vector<PointMass>{{-1.0, Vec3::Zero()}}),
                      Catch::Contains("particle 0: mass must be >= 0, got -1"));
}

TEST_CASE("Chaney's composite: box + cylinder, combined and diagonalised", "[inertia]") {
  // Chaney section 8.2: setBox(4, 2, 1, 1000) with half extents ("x radius = 4") -> full sides
  // 8 x 4 x 2; setCylinder(1.0, 2.0, 500) along x, radius 1, height 2 (taken as the full
  // length), placed at (5, 0, 0) with identity rotation; combine; diagonalise.
  // Box:      Jxx = 1000 (16 + 4)/12 = 5000/3, Jyy = 1000 (64 + 4)/12 = 17000/3,
  //           Jzz = 1000 (64 + 16)/12 = 20000/3.
  // Cylinder: Jxx = 500/2 = 250 = 750/3, Jyy = Jzz = 500 (3 + 4)/12 = 875/3.
  // m = 1500, COM = 500 * 5/1500 = (5/3, 0, 0).
  // Parallel-axis terms (y and z only): 1000 (5/3)^2 + 500 (10/3)^2 = 25000/3.
  // J_com = diag(5750/3, 42875/3, 45875/3) = diag(1916.67, 14291.67, 15291.67), already principal.
  const RigidBodyInertia box = RigidBodyInertia::box(1000.0, 8.0, 4.0, 2.0);
  const RigidBodyInertia cyl = RigidBodyInertia::cylinder(500.0, 1.0, 2.0, Axis::X);
  const RigidBodyInertia body = box + cyl.transformed(Mat3::Identity(), Vec3(5.0, 0.0, 0.0));
  REQUIRE(body.mass() == 1500.0);
  REQUIRE((body.com() - Vec3(5.0 / 3.0, 0.0, 0.0)).norm() < 1e-15);
  REQUIRE(close(body.inertia_com(), diag(5750.0 / 3.0, 42875.0 / 3.0, 45875.0 / 3.0)));

  const PrincipalAxes pa = body.principal_axes();
  REQUIRE(max_abs(pa.moments - Vec3(5750.0, 42875.0, 45875.0) / 3.0) < 1e-10);
  REQUIRE(close(pa.R, Mat3::Identity()));
  // Chaney's diagLinPos moves the COM to the origin
  REQUIRE((pa.diag_rotation() * pa.com + pa.diag_translation()).norm() < 1e-15);

  // The same body built with the cylinder rotated about z by 90 degrees and placed on the y axis
  // is the first one rotated: the principal moments are unchanged.
  const Mat3 Rz = math::rot_z(0.5 * kPi);
  const RigidBodyInertia body_y =
      box.rotated(Rz) + cyl.transformed(Rz, Vec3(0.0, 5.0, 0.0));
  REQUIRE(max_abs(body_y.principal_axes().moments - pa.moments) < 1e-10);
  REQUIRE(close(body_y.inertia_com(), Rz * body.inertia_com() * Rz.transpose(), 1e-13));
}

TEST_CASE("parallel-axis round trip and the 6-vector about the reference point", "[inertia]") {
  std::mt19937 rng(42);
  for (int i = 0; i < 100; ++i) {
    const RigidBodyInertia b = RigidBodyInertia::from_point_masses(random_particles(rng, 7, Vec3::Zero()));
    const Vec3 com = b.com() + Vec3(0.7, -1.1, 2.3);
    const RigidBodyInertia moved(b.mass(), b.inertia_com(), com);
    // reference inertia -> back to the COM
    const RigidBodyInertia back = RigidBodyInertia::from_inertia6(moved.mass(), moved.inertia6_about_reference(), com);
    REQUIRE(close(back.inertia_com(), moved.inertia_com(), 1e-13));
    REQUIRE(close(RigidBodyInertia::from_inertia_about_reference(moved.mass(), moved.inertia_about_reference(), com).inertia_com(),
                  moved.inertia_com(), 1e-13));
    // inertia about the reference point = about the point 0, = about the COM + m (c.c I - c c^T)
    REQUIRE(close(moved.inertia_about_point(Vec3::Zero()), moved.inertia_about_reference()));
    REQUIRE(close(moved.inertia_about_point(com), moved.inertia_com()));
    // translated(): inertia about the COM unchanged, COM shifted
    const RigidBodyInertia t = moved.translated(Vec3(1.0, 2.0, 3.0));
    REQUIRE((t.com() - (com + Vec3(1.0, 2.0, 3.0))).norm() < 1e-15 * 10);
    REQUIRE(close(t.inertia_com(), moved.inertia_com(), 0.0));
  }
}

TEST_CASE("diagonalisation of a rotated, displaced box", "[inertia]") {
  std::mt19937 rng(42);
  std::normal_distribution<double> n(0.0, 1.0);
  // box 6 kg, 1 x 2 x 3: moments 6 (4+9)/12 = 6.5, 6 (1+9)/12 = 5, 6 (1+4)/12 = 2.5
  const RigidBodyInertia box = RigidBodyInertia::box(6.0, 1.0, 2.0, 3.0);
  for (int i = 0; i < 100; ++i) {
    const Mat3 R = math::ep_to_matrix(math::ep_normalized(Vec4(n(rng), n(rng), n(rng), n(rng))));
    const Vec3 p(n(rng), n(rng), n(rng));
    const RigidBodyInertia b = box.transformed(R, p);
    const PrincipalAxes pa = b.principal_axes();
    REQUIRE(max_abs(pa.moments - Vec3(2.5, 5.0, 6.5)) < 1e-13);
    REQUIRE(pa.R.determinant() == Approx(1.0).epsilon(1e-14));
    REQUIRE(max_abs(pa.R.transpose() * pa.R - Mat3::Identity()) < 1e-14);
    REQUIRE((pa.com - p).norm() < 1e-14);
    // the axes are the box axes in the order z, y, x (ascending moments), up to sign
    REQUIRE(std::abs(pa.R.col(0).dot(R.col(2))) == Approx(1.0).epsilon(1e-13));
    REQUIRE(std::abs(pa.R.col(1).dot(R.col(1))) == Approx(1.0).epsilon(1e-13));
    REQUIRE(std::abs(pa.R.col(2).dot(R.col(0))) == Approx(1.0).epsilon(1e-13));
    // R^T J R is diagonal; diagonalised() holds it with the COM at the origin
    REQUIRE(close(pa.R.transpose() * b.inertia_com() * pa.R, Mat3(pa.moments.asDiagonal()), 1e-13));
    const RigidBodyInertia d = b.diagonalised();
    REQUIRE(d.com().norm() == 0.0);
    REQUIRE(d.mass() == 6.0);
    REQUIRE(close(d.inertia_com(), Mat3(pa.moments.asDiagonal()), 0.0));
    // the transform maps the COM to the origin and the body back onto the diagonal body
    REQUIRE(pa.to_principal(pa.com).norm() < 1e-15);
    REQUIRE(close(b.transformed(pa.diag_rotation(), pa.diag_translation()).inertia_com(),
                  d.inertia_com(), 1e-13));
    REQUIRE(b.transformed(pa.diag_rotation(), pa.diag_translation()).com().norm() < 1e-13);
  }
  REQUIRE_THROWS_AS(box.rotated(2.0 * Mat3::Identity()), std::invalid_argument);
  REQUIRE_THROWS_AS(box.rotated(Mat3(Vec3(1.0, 1.0, -1.0).asDiagonal())), std::invalid_argument);
}

TEST_CASE("combining then diagonalising equals from_point_masses on the same particles", "[inertia]") {
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int i = 0; i < 50; ++i) {
    const std::vector<PointMass> a = random_particles(rng, 5, Vec3(3.0, 0.0, 1.0));
    const std::vector<PointMass> b = random_particles(rng, 8, Vec3(-1.0, 2.0, 0.0));
    std::vector<PointMass> all = a;
    all.insert(all.end(), b.begin(), b.end());
    // build b in its own frame, then place it with a pose (R, p): particles x -> R x + p
    const Mat3 R = math::so3_exp(Vec3(u(rng), u(rng), u(rng)));
    const Vec3 p(u(rng), u(rng), u(rng));
    std::vector<PointMass> b_local;
    for (const PointMass& q : b) b_local.push_back({q.mass, R.transpose() * (q.position - p)});

    const RigidBodyInertia combined = RigidBodyInertia::from_point_masses(a) +
                                      RigidBodyInertia::from_point_masses(b_local).transformed(R, p);
    const RigidBodyInertia direct = RigidBodyInertia::from_point_masses(all);
    REQUIRE(combined.mass() == Approx(direct.mass()).epsilon(1e-15));
    REQUIRE((combined.com() - direct.com()).norm() < 1e-14);
    REQUIRE(close(combined.inertia_com(), direct.inertia_com(), 1e-13));
    const PrincipalAxes pc = combined.principal_axes(), pd = direct.principal_axes();
    REQUIRE(max_abs(pc.moments - pd.moments) < 1e-12);
    REQUIRE(close(combined.diagonalised().inertia_com(), direct.diagonalised().inertia_com(), 1e-13));
    // the particles transformed into principal coordinates have a diagonal inertia
    std::vector<PointMass> principal;
    for (const PointMass& q : all) principal.push_back({q.mass, pd.to_principal(q.position)});
    const RigidBodyInertia pb = RigidBodyInertia::from_point_masses(principal);
    REQUIRE(pb.com().norm() < 1e-13);
    REQUIRE(close(pb.inertia_com(), Mat3(pd.moments.asDiagonal()), 1e-13));
  }
  // the empty body is neutral
  const RigidBodyInertia s = RigidBodyInertia::sphere(2.0, 0.5).translated(Vec3(1.0, 0.0, 0.0));
  const RigidBodyInertia s2 = RigidBodyInertia() + s;
  REQUIRE(close(s2.inertia_com(), s.inertia_com(), 0.0));
  REQUIRE((s2.com() - s.com()).norm() == 0.0);
  RigidBodyInertia acc;
  acc += s;
  acc += s;
  REQUIRE(acc.mass() == 4.0);
}

TEST_CASE("validation messages give the numbers", "[inertia]") {
  SECTION("negative mass") {
    REQUIRE_THROWS_WITH(validate_inertia(-1.0, Mat3::Identity(), "crank"),
                        "body 'crank': mass must be > 0, got -1");
    REQUIRE_THROWS_WITH(RigidBodyInertia(-1.0, Mat3::Identity()).check("crank"),
                        "body 'crank': mass must be > 0, got -1");
  }
  SECTION("asymmetric") {
    Mat3 J = diag(1.0, 2.0, 2.5);
    J(0, 1) = 0.5;
    J(1, 0) = 0.25;
    REQUIRE_THROWS_WITH(validate_inertia(1.0, J), "inertia is not symmetric: J(0,1)=0.5 J(1,0)=0.25");
  }
  SECTION("not positive definite") {
    REQUIRE_THROWS_WITH(validate_inertia(1.0, diag(2.0, 0.0, 2.0), "link"),
                        "body 'link': inertia is not positive definite: principal moments 0, 2, 2");
    // a negative moment also violates the triangle inequality: both are reported
    REQUIRE_THROWS_WITH(validate_inertia(1.0, diag(1.0, -2.0, 3.0), "link"),
                        "body 'link': inertia is not positive definite: principal moments -2, 1, 3; "
                        "body 'link': principal moments violate the triangle inequality: -2 + 1 < 3");
  }
  SECTION("triangle inequality") {
    REQUIRE_THROWS_WITH(validate_inertia(1.0, diag(1.0, 2.0, 4.0), "b"),
                        "body 'b': principal moments violate the triangle inequality: 1 + 2 < 4");
    // equality within 1e-12 relative is accepted (thin plate), beyond it is rejected
    REQUIRE(inertia_problems(1.0, diag(1.0, 2.0, 3.0 * (1.0 + 1e-13))).empty());
    REQUIRE(inertia_problems(1.0, diag(1.0, 2.0, 3.0 * (1.0 + 1e-10))).size() == 1);
  }
  SECTION("all problems are reported at once") {
    Mat3 J = diag(1.0, -2.0, 4.0);
    J(0, 2) = 1e-3;
    const auto p = inertia_problems(0.0, J, "x");
    REQUIRE(p.size() == 4);
    REQUIRE_THAT(p[0], Catch::Contains("mass must be > 0, got 0"));
    REQUIRE_THAT(p[1], Catch::Contains("not symmetric: J(0,2)=0.001 J(2,0)=0"));
    REQUIRE_THAT(p[2], Catch::Contains("not positive definite"));
    REQUIRE_THAT(p[3], Catch::Contains("triangle inequality"));
    REQUIRE_THROWS_WITH(validate_inertia(0.0, J, "x"), Catch::Contains("; body 'x': inertia is not symmetric"));
  }
  SECTION("non-finite values") {
    Mat3 J = Mat3::Identity();
    J(1, 1) = std::nan("");
    REQUIRE(inertia_problems(1.0, J).size() == 1);
    REQUIRE_THAT(inertia_problems(std::nan(""), Mat3::Identity())[0], Catch::Contains("got nan"));
  }
  SECTION("valid bodies pass") {
    REQUIRE_NOTHROW(validate_inertia(1.0, diag(1.0, 2.0, 3.0), "ok"));
    REQUIRE_NOTHROW(RigidBodyInertia::sphere(1.0, 0.1).check("ball"));
  }
}

// The capsule against an independent computation: the solid is cut into thin discs along its
// axis (radius ρ(z) = r on the cylinder, √(r² − (|z| − L/2)²) on the caps), each disc adding
// dm = ρ_density π ρ² dz, axial dm ρ²/2 and transverse dm (ρ²/4 + z²); composite Simpson's rule
// on the cylinder and on each cap (the integrands are polynomials of degree ≤ 4 in z there).
TEST_CASE("solids: capsule inertia equals the sum of its slices", "[inertia]") {
  const double r = 0.07, L = 0.3, rho = 2700;
  auto slices = [&](double a, double b, int n) {
    auto radius2 = [&](double z) {
      const double u = std::abs(z) - L / 2;
      return u <= 0 ? r * r : std::max(0.0, r * r - u * u);
    };
    double m = 0, ax = 0, tr = 0;
    const double h = (b - a) / n;
    for (int i = 0; i <= n; ++i) {
      const double z = a + i * h, w = (i == 0 || i == n) ? 1 : (i % 2 ? 4 : 2);
      const double p2 = radius2(z), dm = rho * M_PI * p2;
      m += w * dm;
      ax += w * dm * p2 / 2;
      tr += w * dm * (p2 / 4 + z * z);
    }
    return std::array<double, 3>{m * h / 3, ax * h / 3, tr * h / 3};
  };
  std::array<double, 3> total{0, 0, 0};
  for (auto [a, b] : {std::pair{-L / 2 - r, -L / 2}, std::pair{-L / 2, L / 2}, std::pair{L / 2, L / 2 + r}}) {
    const auto s = slices(a, b, 20000);
    for (int k = 0; k < 3; ++k) total[k] += s[k];
  }
  const RigidBodyInertia c = RigidBodyInertia::capsule(Density{rho}, r, L, Vec3(0, 0, 1));
  CHECK(c.mass() == Approx(total[0]).epsilon(1e-12));
  CHECK(c.inertia_com()(2, 2) == Approx(total[1]).epsilon(1e-10));
  CHECK(c.inertia_com()(0, 0) == Approx(total[2]).epsilon(1e-10));
  CHECK(c.inertia_com()(1, 1) == Approx(total[2]).epsilon(1e-10));
  // Along another axis: the same moments, turned.
  const RigidBodyInertia cx = RigidBodyInertia::capsule(total[0], r, L, Vec3(1, 0, 0));
  CHECK(cx.inertia_com()(0, 0) == Approx(total[1]).epsilon(1e-10));
  CHECK(cx.inertia_com()(1, 1) == Approx(total[2]).epsilon(1e-10));
  // L = 0 is a sphere: 2/5 m r².
  CHECK(RigidBodyInertia::capsule(2.0, r, 0.0, Vec3(0, 0, 1)).inertia_com()(0, 0) == Approx(0.4 * 2.0 * r * r));
}
