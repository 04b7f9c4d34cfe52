// Every pair of contact shapes: each pair the geometry handles is checked against a configuration
// whose depth, normal and points follow from elementary geometry (written out beside each case);
// each pair it does not handle is refused by contact_pair_problems() (the registry of pair kinds)
// naming both shapes, their bodies and the pair, by the formulations and by the model loader at
// the file position of the shape.

#include <catch2/catch.hpp>

#include <algorithm>
#include <span>
#include <cmath>
#include <random>
#include <set>
#include <vector>

#include <mbdae/contact/ContactPairs.h>
#include <mbdae/formulations/ContactDetector.h>
#include <mbdae/formulations/Multibody.h>
#include <mbdae/io/ModelLoader.h>
#include <mbdae/io/Run.h>
#include <mbdae/model/math/Rotation.h>

using namespace mbdae;

namespace {

PlacedShape sphere(const Vec3& c, double r) {
  PlacedShape s;
  s.type = ShapeType::Sphere;
  s.radius = r;
  s.c_W = c;
  return s;
}
PlacedShape box(const Vec3& c, const Vec3& half, const Mat3& R = Mat3::Identity()) {
  PlacedShape s;
  s.type = ShapeType::Box;
  s.half = half;
  s.c_W = c;
  s.R_WS = R;
  return s;
}
PlacedShape capsule(const Vec3& c, double r, double half_length, const Mat3& R = Mat3::Identity()) {
  PlacedShape s;
  s.type = ShapeType::Capsule;
  s.radius = r;
  s.half_length = half_length;
  s.c_W = c;
  s.R_WS = R;
  return s;
}
PlacedShape cylinder(const Vec3& c, double r, double half_length, const Mat3& R = Mat3::Identity()) {
  PlacedShape s = capsule(c, r, half_length, R);
  s.type = ShapeType::Cylinder;
  return s;
}
PlacedShape plane(const Vec3& n, double offset, const Vec3& c = Vec3::Zero(), const Mat3& R = Mat3::Identity()) {
  PlacedShape s;
  s.type = ShapeType::Plane;
  s.normal = n.normalized();
  s.offset = offset;
  s.c_W = c;
  s.R_WS = R;
  return s;
}

/// The points of a pair with the normal from s1 to s2 (undoing narrow_phase()'s ordering).
std::vector<PairPoint> points(const PlacedShape& s1, const PlacedShape& s2, double margin = 0) {
  PairPoint out[kMaxPairPoints];
  bool swapped = false;
  const int k = narrow_phase(s1, s2, margin, out, swapped);
  std::vector<PairPoint> v(out, out + k);
  if (swapped)
    for (PairPoint& p : v) p.n = -p.n;
  return v;
}

/// Whether `pts` holds a point at x (within tol).
bool has_point(const std::vector<PairPoint>& pts, const Vec3& x, double tol = 1e-9) {
  return std::any_of(pts.begin(), pts.end(), [&](const PairPoint& p) { return (p.p - x).norm() < tol; });
}

void check_all(const std::vector<PairPoint>& pts, const Vec3& n, double depth, double tol = 1e-9) {
  for (const PairPoint& p : pts) {
    CHECK((p.n - n).norm() < tol);
    CHECK(std::abs(p.depth - depth) < tol);
  }
}

}  // namespace

TEST_CASE("Box on box: four points of the smaller face", "[contact][geometry]") {
  // B (half 0.3, 0.2, 0.1, turned 0.3 rad about z) rests 0.02 deep on A's top face (z = 0.5): its
  // bottom face lies inside A's top face, so the four corners of B's bottom are the manifold, each
  // 0.02 deep, the midway points at z = 0.5 − 0.01, the normal +z (from A to B).
  const Mat3 R = math::rot_z(0.3);
  const PlacedShape A = box(Vec3::Zero(), Vec3(0.5, 0.5, 0.5));
  const PlacedShape B = box(Vec3(0, 0, 0.5 + 0.1 - 0.02), Vec3(0.3, 0.2, 0.1), R);
  const auto pts = points(A, B);
  REQUIRE(pts.size() == 4);
  check_all(pts, Vec3::UnitZ(), -0.02);
  for (int sx : {-1, 1})
    for (int sy : {-1, 1}) {
      const Vec3 c = R * Vec3(sx * 0.3, sy * 0.2, 0);
      CHECK(has_point(pts, Vec3(c.x(), c.y(), 0.49)));
    }
  // In the other order the normal still points from the first shape to the second.
  const auto rev = points(B, A);
  REQUIRE(rev.size() == 4);
  check_all(rev, -Vec3::UnitZ(), -0.02);
}

TEST_CASE("Box on box: a large face clipped to the small one, and the octagon of two turned squares",
          "[contact][geometry]") {
  {
    // A wide plate B on a small cube A: B's bottom face clipped by A's side planes, so the
    // manifold is A's top face's four corners (±0.2, ±0.2), 0.01 deep.
    const PlacedShape A = box(Vec3::Zero(), Vec3(0.2, 0.2, 0.2));
    const PlacedShape B = box(Vec3(0, 0, 0.2 + 0.1 - 0.01), Vec3(1, 1, 0.1));
    const auto pts = points(A, B);
    REQUIRE(pts.size() == 4);
    check_all(pts, Vec3::UnitZ(), -0.01);
    for (int sx : {-1, 1})
      for (int sy : {-1, 1}) CHECK(has_point(pts, Vec3(sx * 0.2, sy * 0.2, 0.195)));
  }
  {
    // Two unit squares (half 0.5), the upper turned 45° about z: their overlap is a regular
    // octagon whose vertices on the lines x = ±0.5 are at y = ±(0.5 √2 − 0.5) (the turned square
    // is |x| + |y| ≤ 0.5 √2), and likewise on y = ±0.5: eight points.
    const PlacedShape A = box(Vec3::Zero(), Vec3(0.5, 0.5, 0.5));
    const PlacedShape B = box(Vec3(0, 0, 1.0 - 0.01), Vec3(0.5, 0.5, 0.5), math::rot_z(M_PI / 4));
    const auto pts = points(A, B);
    REQUIRE(pts.size() == 8);
    check_all(pts, Vec3::UnitZ(), -0.01);
    const double y = 0.5 * std::sqrt(2.0) - 0.5;
    for (int s1 : {-1, 1})
      for (int s2 : {-1, 1}) {
        CHECK(has_point(pts, Vec3(s1 * 0.5, s2 * y, 0.495)));
        CHECK(has_point(pts, Vec3(s2 * y, s1 * 0.5, 0.495)));
      }
  }
}

TEST_CASE("Box on box: crossed edges meet at one point", "[contact][geometry]") {
  // A (half a) turned 45° about y has a top edge along y at height a √2; B (half b) turned 45°
  // about x has a bottom edge along x at z_B − b √2. With z_B = (a + b) √2 − δ the edges cross
  // at the origin's vertical, δ deep: one point (0, 0, a √2 − δ/2), normal +z.
  const double a = 0.3, b = 0.2, delta = 0.004;
  const PlacedShape A = box(Vec3::Zero(), Vec3::Constant(a), math::rot_y(M_PI / 4));
  const PlacedShape B = box(Vec3(0, 0, (a + b) * std::sqrt(2.0) - delta), Vec3::Constant(b), math::rot_x(M_PI / 4));
  const auto pts = points(A, B);
  REQUIRE(pts.size() == 1);
  check_all(pts, Vec3::UnitZ(), -delta);
  CHECK((pts[0].p - Vec3(0, 0, a * std::sqrt(2.0) - delta / 2)).norm() < 1e-9);
  // Lifted 2δ, the pair is apart: no point without a margin, one at −… with margin 3δ.
  const PlacedShape B2 = box(B.c_W + Vec3(0, 0, 2 * delta), Vec3::Constant(b), math::rot_x(M_PI / 4));
  CHECK(points(A, B2).empty());
  const auto near = points(A, B2, 3 * delta);
  REQUIRE(near.size() == 1);
  CHECK(near[0].depth == Approx(delta).epsilon(1e-9));
}

TEST_CASE("Capsule pairs: crossed, parallel, with a sphere, on a box", "[contact][geometry]") {
  const double ra = 0.1, rb = 0.05, d = 0.01;
  {
    // Crossed: A along x, B along y above it, the axes ra + rb − d apart: one point on the
    // common perpendicular (the z axis), midway in the overlap.
    const PlacedShape A = capsule(Vec3::Zero(), ra, 0.5, math::rot_y(M_PI / 2));
    const PlacedShape B = capsule(Vec3(0, 0, ra + rb - d), rb, 0.4, math::rot_x(M_PI / 2));
    const auto pts = points(A, B);
    REQUIRE(pts.size() == 1);
    check_all(pts, Vec3::UnitZ(), -d);
    CHECK((pts[0].p - Vec3(0, 0, ra - d / 2)).norm() < 1e-9);
  }
  {
    // Parallel, both along x, B shifted by 0.3 along x: the segments overlap on x ∈ [−0.1, 0.5],
    // a line contact with its two ends as points.
    const PlacedShape A = capsule(Vec3::Zero(), ra, 0.5, math::rot_y(M_PI / 2));
    const PlacedShape B = capsule(Vec3(0.3, 0, ra + rb - d), rb, 0.4, math::rot_y(M_PI / 2));
    const auto pts = points(A, B);
    REQUIRE(pts.size() == 2);
    check_all(pts, Vec3::UnitZ(), -d);
    CHECK(has_point(pts, Vec3(-0.1, 0, ra - d / 2)));
    CHECK(has_point(pts, Vec3(0.5, 0, ra - d / 2)));
  }
  {
    // Sphere beyond the end of the capsule's segment: the distance is to the end cap's centre.
    const PlacedShape A = capsule(Vec3::Zero(), ra, 0.5);  // along z
    const Vec3 c(0.3, 0, 0.5 + 0.4);  // from the top cap centre (0, 0, 0.5): (0.3, 0, 0.4), length 0.5
    const PlacedShape S = sphere(c, 0.45);
    const auto pts = points(A, S);
    REQUIRE(pts.size() == 1);
    CHECK(pts[0].depth == Approx(0.5 - ra - 0.45));
    CHECK((pts[0].n - Vec3(0.6, 0, 0.8)).norm() < 1e-12);
    // Beside the segment: the distance is radial.
    const auto side = points(A, sphere(Vec3(0.2, 0, 0.1), 0.15));
    REQUIRE(side.size() == 1);
    CHECK(side[0].depth == Approx(0.2 - ra - 0.15));
    CHECK((side[0].n - Vec3::UnitX()).norm() < 1e-12);
  }
  {
    // A capsule lying along x on a box's top face (z = 0.5), d deep: both cap ends touch.
    const PlacedShape B = box(Vec3::Zero(), Vec3(1, 1, 0.5));
    const PlacedShape C = capsule(Vec3(0.2, 0.1, 0.5 + ra - d), ra, 0.3, math::rot_y(M_PI / 2));
    const auto pts = points(B, C);
    REQUIRE(pts.size() == 2);
    check_all(pts, Vec3::UnitZ(), -d);
    CHECK(has_point(pts, Vec3(-0.1, 0.1, 0.5 - d / 2)));
    CHECK(has_point(pts, Vec3(0.5, 0.1, 0.5 - d / 2)));
  }
  {
    // A long capsule across the ridge of a box turned 45° about y (ridge along y at a √2): the
    // segment's deepest point is over the ridge, inside the segment, not at an end.
    const double a = 0.3;
    const PlacedShape B = box(Vec3::Zero(), Vec3::Constant(a), math::rot_y(M_PI / 4));
    const PlacedShape C = capsule(Vec3(0, 0.05, a * std::sqrt(2.0) + ra - d), ra, 1.0, math::rot_y(M_PI / 2));
    const auto pts = points(B, C);
    REQUIRE(pts.size() == 1);
    CHECK(pts[0].depth == Approx(-d).margin(1e-9));
    CHECK((pts[0].n - Vec3::UnitZ()).norm() < 1e-6);
    CHECK((pts[0].p - Vec3(0, 0.05, a * std::sqrt(2.0) - d / 2)).norm() < 1e-6);
  }
}

TEST_CASE("Cylinder pairs: on a plane lying, standing and tilted; with a sphere", "[contact][geometry]") {
  const double r = 0.2, hl = 0.3, d = 0.01;
  const PlacedShape floor = plane(Vec3::UnitZ(), 0);
  {
    // Lying along x: the two ends of the lowest generator, at x = ±hl.
    const auto pts = points(floor, cylinder(Vec3(0, 0, r - d), r, hl, math::rot_y(M_PI / 2)));
    REQUIRE(pts.size() == 2);
    check_all(pts, Vec3::UnitZ(), -d);
    CHECK(has_point(pts, Vec3(hl, 0, -d / 2)));
    CHECK(has_point(pts, Vec3(-hl, 0, -d / 2)));
  }
  {
    // Standing on an end: four points of its rim.
    const auto pts = points(floor, cylinder(Vec3(0, 0, hl - d), r, hl));
    REQUIRE(pts.size() == 4);
    check_all(pts, Vec3::UnitZ(), -d);
    CHECK(has_point(pts, Vec3(r, 0, -d / 2)));
    CHECK(has_point(pts, Vec3(0, -r, -d / 2)));
  }
  {
    // Tilted by θ about y: the lowest point of the bottom rim is at z_c − hl cos θ − r sin θ.
    const double th = 0.4, zc = hl * std::cos(th) + r * std::sin(th) - d;
    const auto pts = points(floor, cylinder(Vec3(0, 0, zc), r, hl, math::rot_y(th)));
    REQUIRE(pts.size() == 1);
    CHECK(pts[0].depth == Approx(-d));
    // Bottom centre −hl (sin θ, 0, cos θ); in the disc the downward direction is (cos θ, 0, −sin θ),
    // so the lowest rim point is at x = −hl sin θ + r cos θ, z = z_c − hl cos θ − r sin θ (= −d).
    CHECK(pts[0].p.x() == Approx(-hl * std::sin(th) + r * std::cos(th)));
    CHECK(pts[0].p.z() == Approx(-d / 2));
  }
  {
    // A sphere above the top face, and one beside the curved side.
    const PlacedShape C = cylinder(Vec3::Zero(), r, hl);
    const auto top = points(C, sphere(Vec3(0.05, 0, hl + 0.1 - d), 0.1));
    REQUIRE(top.size() == 1);
    check_all(top, Vec3::UnitZ(), -d);
    const auto side = points(C, sphere(Vec3(0, r + 0.1 - d, 0.1), 0.1));
    REQUIRE(side.size() == 1);
    check_all(side, Vec3::UnitY(), -d);
    // Beyond the rim's edge: the distance is to the circle.
    const auto edge = points(C, sphere(Vec3(r + 0.3, 0, hl + 0.4), 0.55));
    REQUIRE(edge.size() == 1);
    CHECK(edge[0].depth == Approx(0.5 - 0.55));
    CHECK((edge[0].n - Vec3(0.6, 0, 0.8)).norm() < 1e-12);
  }
}

TEST_CASE("Cylinder on a box: lying, overhanging, standing, half off the edge; a box edge on a cylinder",
          "[contact][geometry]") {
  // The box A (half 1, 1, 0.1) has its top face at z = 0.1; the cylinder (r, hl) sinks d into it.
  const double r = 0.2, hl = 0.3, d = 0.01;
  const PlacedShape A = box(Vec3::Zero(), Vec3(1, 1, 0.1));
  {
    // Lying along x, axis at z = 0.1 + r − d: the lowest generator (y = 0, z = 0.1 − d) from
    // x = −hl to hl lies on the top face; its two ends are the points, midway at z = 0.1 − d/2.
    const auto pts = points(A, cylinder(Vec3(0, 0, 0.1 + r - d), r, hl, math::rot_y(M_PI / 2)));
    REQUIRE(pts.size() == 2);
    check_all(pts, Vec3::UnitZ(), -d);
    CHECK(has_point(pts, Vec3(hl, 0, 0.1 - d / 2)));
    CHECK(has_point(pts, Vec3(-hl, 0, 0.1 - d / 2)));
    // In the other order the normal points from the cylinder to the box.
    const auto rev = points(cylinder(Vec3(0, 0, 0.1 + r - d), r, hl, math::rot_y(M_PI / 2)), A);
    REQUIRE(rev.size() == 2);
    check_all(rev, -Vec3::UnitZ(), -d);
  }
  {
    // Centre at x = 0.9: the generator runs from x = 0.6 to 1.2 and is cut by the face's edge x = 1.
    const auto pts = points(A, cylinder(Vec3(0.9, 0, 0.1 + r - d), r, hl, math::rot_y(M_PI / 2)));
    REQUIRE(pts.size() == 2);
    check_all(pts, Vec3::UnitZ(), -d);
    CHECK(has_point(pts, Vec3(0.6, 0, 0.1 - d / 2)));
    CHECK(has_point(pts, Vec3(1.0, 0, 0.1 - d / 2)));
  }
  {
    // Standing on its end, bottom at z = 0.1 − d: eight points of its rim (angles k π/4 from the
    // shape x axis), each d deep.
    const auto pts = points(A, cylinder(Vec3(0.3, 0.2, 0.1 + hl - d), r, hl));
    REQUIRE(pts.size() == 8);
    check_all(pts, Vec3::UnitZ(), -d);
    for (int k = 0; k < 8; ++k)
      CHECK(has_point(pts, Vec3(0.3 + r * std::cos(k * M_PI / 4), 0.2 + r * std::sin(k * M_PI / 4), 0.1 - d / 2)));
  }
  {
    // Standing with its axis on the face's edge x = 1: the rim points at angles π/2 … 3π/2 (x ≤ 1)
    // are on the face, the others beyond it; the rim polygon cut at x = 1 keeps those five.
    const auto pts = points(A, cylinder(Vec3(1, 0, 0.1 + hl - d), r, hl));
    REQUIRE(pts.size() == 5);
    check_all(pts, Vec3::UnitZ(), -d);
    for (int k = 2; k <= 6; ++k)
      CHECK(has_point(pts, Vec3(1 + r * std::cos(k * M_PI / 4), r * std::sin(k * M_PI / 4), 0.1 - d / 2)));
  }
  {
    // A box (half 0.2, 0.3, 0.3) turned 45° about x rests on an edge across a cylinder lying along x
    // (R = 0.5, hl = 1): its lowest edge (y = 0) is 0.3 √2 below its centre, at z = 0.5 − d, from
    // x = −0.2 to 0.2 — inside the cylinder's side by d. The two corners of that edge are the
    // points, the normal the cylinder's side normal +z (from the cylinder to the box).
    const PlacedShape C = cylinder(Vec3::Zero(), 0.5, 1.0, math::rot_y(M_PI / 2));
    const PlacedShape B = box(Vec3(0, 0, 0.5 + 0.3 * std::sqrt(2.0) - d), Vec3(0.2, 0.3, 0.3), math::rot_x(M_PI / 4));
    const auto pts = points(C, B);
    REQUIRE(pts.size() == 2);
    check_all(pts, Vec3::UnitZ(), -d);
    CHECK(has_point(pts, Vec3(0.2, 0, 0.5 - d / 2)));
    CHECK(has_point(pts, Vec3(-0.2, 0, 0.5 - d / 2)));
    // Lifted by 2 d it is d clear: no point (margin 0), one at the margin 2 d.
    PlacedShape up = B;
    up.c_W.z() += 2 * d;
    CHECK(points(C, up).empty());
    const auto near = points(C, up, 2 * d);
    REQUIRE(near.size() == 2);
    check_all(near, Vec3::UnitZ(), d);
  }
}

TEST_CASE("Cylinder with a capsule: lying on the end face, crossing the side", "[contact][geometry]") {
  const double r = 0.2, hl = 0.3, d = 0.01;
  {
    // A capsule (radius 0.05, half length 0.1, along x) across the top face of a standing cylinder,
    // axis at z = hl + 0.05 − d: both cap ends (x = −0.05 and 0.15, inside the rim) are d deep.
    const PlacedShape C = cylinder(Vec3::Zero(), r, hl);
    const auto pts = points(C, capsule(Vec3(0.05, 0, hl + 0.05 - d), 0.05, 0.1, math::rot_y(M_PI / 2)));
    REQUIRE(pts.size() == 2);
    check_all(pts, Vec3::UnitZ(), -d);
    CHECK(has_point(pts, Vec3(-0.05, 0, hl - d / 2)));
    CHECK(has_point(pts, Vec3(0.15, 0, hl - d / 2)));
  }
  {
    // A capsule along y across a cylinder lying along x, its segment at z = r + 0.05 − d: the
    // segment point nearest the cylinder is its middle (0.1, 0, ·), 0.05 − d above the side, so
    // one point d deep; the cap ends (y = ±0.5) are far from it.
    const PlacedShape C = cylinder(Vec3::Zero(), r, hl, math::rot_y(M_PI / 2));
    // The minimum along the segment is smooth (quadratic) here, so golden-section search places it
    // to about √ε of the segment, 1e-8 m: the point and normal to 1e-7, the depth to 1e-12.
    const auto pts = points(capsule(Vec3(0.1, 0, r + 0.05 - d), 0.05, 0.5, math::rot_x(M_PI / 2)), C);
    REQUIRE(pts.size() == 1);
    CHECK(pts[0].depth == Approx(-d).margin(1e-12));
    CHECK((pts[0].n + Vec3::UnitZ()).norm() < 1e-7);
    CHECK(has_point(pts, Vec3(0.1, 0, r - d / 2), 1e-7));
  }
}

TEST_CASE("Cylinder on a cylinder: end on end, a large end on a small one, crossed, parallel, across an end",
          "[contact][geometry]") {
  const double d = 0.01;
  const PlacedShape A = cylinder(Vec3::Zero(), 0.2, 0.3);  // standing, top face at z = 0.3
  {
    // A narrower cylinder (r 0.1) standing on A's top face: its bottom rim (eight points) is d deep.
    const auto pts = points(A, cylinder(Vec3(0.05, 0, 0.3 + 0.2 - d), 0.1, 0.2));
    REQUIRE(pts.size() == 8);
    check_all(pts, Vec3::UnitZ(), -d);
    for (int k = 0; k < 8; ++k)
      CHECK(has_point(pts, Vec3(0.05 + 0.1 * std::cos(k * M_PI / 4), 0.1 * std::sin(k * M_PI / 4), 0.3 - d / 2)));
  }
  {
    // A wider one (r 0.4) on it: the contact is A's whole top face, so the points lie on A's rim
    // (the 16-gon inscribed in it, eight of its corners kept), each d deep.
    const auto pts = points(A, cylinder(Vec3(0, 0, 0.3 + 0.2 - d), 0.4, 0.2));
    REQUIRE(pts.size() == 8);
    check_all(pts, Vec3::UnitZ(), -d);
    for (const PairPoint& p : pts) {
      CHECK(std::hypot(p.p.x(), p.p.y()) == Approx(0.2).epsilon(1e-12));
      CHECK(p.p.z() == Approx(0.3 - d / 2));
    }
  }
  {
    // Crossed axes (x and y), lying one on the other: the closest points of the axes are the
    // centres, 0.2 + 0.1 − d apart, so one point d deep at the top of the lower one.
    const PlacedShape L = cylinder(Vec3::Zero(), 0.2, 0.5, math::rot_y(M_PI / 2));
    const auto pts = points(L, cylinder(Vec3(0, 0, 0.3 - d), 0.1, 0.5, math::rot_x(M_PI / 2)));
    REQUIRE(pts.size() == 1);
    check_all(pts, Vec3::UnitZ(), -d);
    CHECK(has_point(pts, Vec3(0, 0, 0.2 - d / 2)));
  }
  {
    // Parallel axes along x: the upper (r 0.1, x from 0.1 to 0.7) overlaps the lower (x from −0.5
    // to 0.5) on [0.1, 0.5]: a line contact, two points at its ends, d deep.
    const PlacedShape L = cylinder(Vec3::Zero(), 0.2, 0.5, math::rot_y(M_PI / 2));
    const auto pts = points(L, cylinder(Vec3(0.4, 0, 0.3 - d), 0.1, 0.3, math::rot_y(M_PI / 2)));
    REQUIRE(pts.size() == 2);
    check_all(pts, Vec3::UnitZ(), -d);
    CHECK(has_point(pts, Vec3(0.1, 0, 0.2 - d / 2)));
    CHECK(has_point(pts, Vec3(0.5, 0, 0.2 - d / 2)));
  }
  {
    // A long cylinder (r 0.1, hl 0.5) lying along x across A's top face: its lowest generator
    // crosses the face along the diameter y = 0, cut by the rim at x = ±0.2 (a corner of the
    // inscribed 16-gon lies on the x axis).
    const auto pts = points(A, cylinder(Vec3(0, 0, 0.3 + 0.1 - d), 0.1, 0.5, math::rot_y(M_PI / 2)));
    REQUIRE(pts.size() == 2);
    check_all(pts, Vec3::UnitZ(), -d);
    CHECK(has_point(pts, Vec3(0.2, 0, 0.3 - d / 2)));
    CHECK(has_point(pts, Vec3(-0.2, 0, 0.3 - d / 2)));
  }
  {
    // Tilted by 0.4 rad about y above A's top face: only the lowest point of its bottom rim
    // touches, at z_c − hl cos θ − r sin θ (as on a plane), x = x_c − hl sin θ + r cos θ.
    const double th = 0.4, r = 0.05, hl = 0.1, zc = 0.3 + hl * std::cos(th) + r * std::sin(th) - d;
    const auto pts = points(A, cylinder(Vec3(0, 0, zc), r, hl, math::rot_y(th)));
    REQUIRE(pts.size() == 1);
    check_all(pts, Vec3::UnitZ(), -d);
    CHECK(pts[0].p.x() == Approx(-hl * std::sin(th) + r * std::cos(th)));
    CHECK(pts[0].p.z() == Approx(0.3 - d / 2));
  }
}

TEST_CASE("A plane on a moving body: its pose is the body's", "[contact][geometry]") {
  // The plane z' = 0.1 of a frame turned 90° about x (its normal +z' is world −y) at (0, 1, 0):
  // the surface is y = 1 − 0.1 = 0.9, solid side y > 0.9. A sphere at y = 0.9 − 0.15 + d, r = 0.15.
  const double d = 0.02;
  const PlacedShape P = plane(Vec3::UnitZ(), 0.1, Vec3(0, 1, 0), math::rot_x(M_PI / 2));
  const auto pts = points(P, sphere(Vec3(0.3, 0.9 - 0.15 + d, 0), 0.15));
  REQUIRE(pts.size() == 1);
  check_all(pts, -Vec3::UnitY(), -d);
  CHECK((pts[0].p - Vec3(0.3, 0.9 + d / 2, 0)).norm() < 1e-12);
}

TEST_CASE("Every pair of shape types collides or is refused by name", "[contact][geometry]") {
  // One body per shape (a plane on a body too), each pair placed so that it overlaps, and
  // narrow_phase() must give a point for every handled pair; for the others
  // contact_pair_problems() names both contacts, their bodies and the pair, and both contact
  // paths refuse the model.
  const std::vector<ShapeType> all = {ShapeType::Sphere, ShapeType::Box, ShapeType::Capsule, ShapeType::Plane,
                                      ShapeType::Cylinder};
  auto contact_of = [](ShapeType t, const std::string& name, const std::string& body) {
    Contact c;
    c.name = name;
    c.body = body;
    c.shape = t;
    c.radius = 0.2;
    c.half_length = 0.2;
    c.half_extents = Vec3(0.2, 0.2, 0.2);
    c.normal = Vec3::UnitZ();
    return c;
  };
  int handled = 0, refused = 0;
  for (ShapeType x : all)
    for (ShapeType y : all) {
      CAPTURE(to_string(x), to_string(y));
      System s;
      RigidBody b;
      b.mass = 1;
      b.inertia << 0.1, 0.1, 0.1, 0, 0, 0;
      b.name = "one";
      s.add_body(b);
      b.name = "two";
      b.position = Vec3(0.05, 0.02, 0.1);  // overlapping every shape above at 0
      s.add_body(b);
      s.add_contact(contact_of(x, "first", "one"));
      s.add_contact(contact_of(y, "second", "two"));
      CHECK(s.problems().empty());
      const auto problems = contact_pair_problems(s);
      PlacedShape p1 = placed_shape(s.contacts()[0]), p2 = placed_shape(s.contacts()[1]);
      p2.c_W += Vec3(0.05, 0.02, 0.1);
      if (contact_pair_handled(x, y)) {
        ++handled;
        CHECK(problems.empty());
        CHECK(!points(p1, p2).empty());
      } else {
        ++refused;
        REQUIRE(problems.size() == 1);
        const std::string& m = problems[0].message;
        CHECK(m.find("'first' (" + std::string(to_string(x)) + " on one)") != std::string::npos);
        CHECK(m.find("'second' (" + std::string(to_string(y)) + " on two)") != std::string::npos);
        CHECK(m.find(std::string(to_string(x)) + "-" + to_string(y)) != std::string::npos);
        CHECK(problems[0].item.kind == ItemRef::Kind::Contact);
        CHECK(problems[0].item.index == 1);
        const NewtonEulerSystem ne(s);
        CHECK_THROWS_AS(ContactDetector(ne), ModelError);
        PenaltyParameters pen;
        pen.stiffness = 1e5;
        s.contact_penalty = pen;
        REQUIRE_THROWS_AS(MultibodySystem(s), ModelError);
        try {
          MultibodySystem mb(s);
        } catch (const ModelError& e) {
          CHECK(std::string(e.what()).find(std::string(to_string(x)) + "-" + to_string(y)) != std::string::npos);
        }
      }
    }
  // 25 ordered pairs: only plane–plane is refused.
  CHECK(refused == 1);
  CHECK(handled == 24);
}

TEST_CASE("Unhandled pairs are reported as the loop over all pairs of shapes defines", "[contact][geometry]") {
  // contact_pair_problems() reports each kind that is not handled once, at the first pair (i, j),
  // i < j, in the order j then i, of shapes on two different known bodies. It finds that pair
  // without looping over all pairs (a pile has millions); here the loop over all pairs is the
  // reference, on random models of planes (plane–plane is the pair not handled) and other shapes
  // on a few bodies, the ground and an unknown body.
  std::mt19937 rng(7);
  const std::vector<std::string> bodies = {"b0", "b1", "b2", "ground", "nobody"};
  const std::vector<ShapeType> types = {ShapeType::Plane, ShapeType::Sphere, ShapeType::Box, ShapeType::Plane};
  int reported = 0;
  for (int model = 0; model < 300; ++model) {
    System s;
    for (int k = 0; k < 3; ++k) {
      RigidBody b;
      b.name = "b" + std::to_string(k);
      b.mass = 1;
      b.inertia << 0.1, 0.1, 0.1, 0, 0, 0;
      s.add_body(b);
    }
    const int n = 2 + static_cast<int>(rng() % 7);
    for (int k = 0; k < n; ++k) {
      Contact c;
      c.name = "c" + std::to_string(k);
      c.body = bodies[rng() % bodies.size()];
      c.shape = types[rng() % types.size()];
      c.radius = 0.1;
      c.half_extents = Vec3(0.1, 0.1, 0.1);
      s.add_contact(c);
    }
    // the reference: every pair
    std::vector<std::pair<int, int>> expected;  // (i, j) of the first plane–plane pair
    const auto& cs = s.contacts();
    for (size_t j = 0; j < cs.size() && expected.empty(); ++j)
      for (size_t i = 0; i < j && expected.empty(); ++i) {
        const auto bi = s.find_body(cs[i].body), bj = s.find_body(cs[j].body);
        if (bi && bj && *bi != *bj && cs[i].shape == ShapeType::Plane && cs[j].shape == ShapeType::Plane)
          expected.push_back({static_cast<int>(i), static_cast<int>(j)});
      }
    for (const bool penalty : {false, true}) {
      const auto problems = penalty ? contact_pair_problems(s, ContactPath::Penalty) : contact_pair_problems(s);
      std::string layout;
      for (const Contact& c : cs) layout += c.name + ":" + to_string(c.shape) + "@" + c.body + " ";
      CAPTURE(layout, penalty);
      REQUIRE(problems.size() == expected.size());
      if (expected.empty()) continue;
      ++reported;
      const auto [i, j] = expected[0];
      CHECK(problems[0].item.kind == ItemRef::Kind::Contact);
      CHECK(problems[0].item.index == j);
      CHECK(problems[0].message.rfind("contacts '" + cs[static_cast<size_t>(i)].name + "' (plane on " +
                                          cs[static_cast<size_t>(i)].body + ") and '" + cs[static_cast<size_t>(j)].name +
                                          "' (plane on " + cs[static_cast<size_t>(j)].body + ")",
                                      0) == 0);
    }
  }
  INFO(reported << " of 600 checks with a refused pair");
  CHECK(reported > 100);  // the random models do exercise the refusal
}

TEST_CASE("Rolling resistance on pairs without a rolling radius is reported as the loop over all pairs defines",
          "[contact][geometry]") {
  // A pair kind whose points carry no rolling radius (ContactPairKind::rolling_radius) is refused
  // once, at its first pair (i, j), i < j, in the order j then i, of shapes on two different known
  // bodies of which either has rolling_resistance > 0. The reference is the loop over all pairs,
  // on random models of planes, spheres and boxes (plane–box and box–box have no rolling radius).
  std::mt19937 rng(11);
  const std::vector<std::string> bodies = {"b0", "b1", "b2", "ground", "nobody"};
  const std::vector<ShapeType> types = {ShapeType::Plane, ShapeType::Sphere, ShapeType::Box};
  int reported = 0;
  for (int model = 0; model < 300; ++model) {
    System s;
    for (int k = 0; k < 3; ++k) {
      RigidBody b;
      b.name = "b" + std::to_string(k);
      b.mass = 1;
      b.inertia << 0.1, 0.1, 0.1, 0, 0, 0;
      s.add_body(b);
    }
    const int n = 2 + static_cast<int>(rng() % 7);
    for (int k = 0; k < n; ++k) {
      Contact c;
      c.name = "c" + std::to_string(k);
      c.body = bodies[rng() % bodies.size()];
      c.shape = types[rng() % types.size()];
      c.radius = 0.1;
      c.half_extents = Vec3(0.1, 0.1, 0.1);
      c.rolling_resistance = rng() % 3 == 0 ? 0.02 : 0.0;
      s.add_contact(c);
    }
    std::set<std::string> expected, kinds;  // "kind i j" of each kind's first pair
    const auto& cs = s.contacts();
    for (size_t j = 0; j < cs.size(); ++j)
      for (size_t i = 0; i < j; ++i) {
        const auto bi = s.find_body(cs[i].body), bj = s.find_body(cs[j].body);
        if (!bi || !bj || *bi == *bj) continue;
        if (!(cs[i].rolling_resistance > 0 || cs[j].rolling_resistance > 0)) continue;
        bool swapped;
        const ContactPairKind& k = contact_pair_kind(cs[i].shape, cs[j].shape, swapped);
        if (!k.collide || k.rolling_radius || !kinds.insert(k.name).second) continue;
        expected.insert(std::string(k.name) + " " + std::to_string(i) + " " + std::to_string(j));
      }
    std::set<std::string> got;
    for (const ModelProblem& p : contact_pair_problems(s)) {
      if (p.message.find("rolling_resistance") == std::string::npos) continue;
      // "contacts 'ci' (...) and 'cj' (...): rolling_resistance 0.02 is given, but the K pair's ..."
      const size_t a0 = p.message.find("'c") + 2, a1 = p.message.find('\'', a0);
      const size_t b0 = p.message.find("and 'c") + 6, b1 = p.message.find('\'', b0);
      const size_t k0 = p.message.find("but the ") + 8, k1 = p.message.find(" pair's", k0);
      got.insert(p.message.substr(k0, k1 - k0) + " " + p.message.substr(a0, a1 - a0) + " " +
                 p.message.substr(b0, b1 - b0));
      CHECK(p.item.index == std::stoi(p.message.substr(b0, b1 - b0)));
    }
    std::string layout;
    for (const Contact& c : cs) layout += c.name + ":" + to_string(c.shape) + "@" + c.body + (c.rolling_resistance > 0 ? "(rr) " : " ");
    CAPTURE(layout);
    CHECK(got == expected);
    reported += static_cast<int>(!expected.empty());
  }
  INFO(reported << " of 300 models with a refused rolling resistance");
  CHECK(reported > 50);
}

TEST_CASE("Model files: a box and a cylinder on a box collide; a plane on a body facing a ground plane is refused",
          "[contact][geometry][io]") {
  const std::string head = R"(name: pair
gravity: [0, 0, -9.81]
bodies:
  - {name: lower, mass: 1, inertia: [0.1, 0.1, 0.1, 0, 0, 0], position: [0, 0, 0.1]}
  - {name: upper, mass: 1, inertia: [0.1, 0.1, 0.1, 0, 0, 0], position: [0, 0, 0.3]}
contacts:
  - {name: floor, type: plane, normal: [0, 0, 1], point: [0, 0, 0]}
  - {name: a, type: box, body: lower, size: [0.2, 0.2, 0.2]}
)";
  const std::string tail = "solver: {type: impulse, end_time: 0.5, step: 1.0e-3}\n";
  // The upper shape rests on the lower box's top face (z = 0.2): a box on four points (its
  // bottom face), a cylinder standing on eight points of its bottom rim.
  for (const auto& [item, expected] :
       {std::pair<std::string, int>{"  - {name: b, type: box, body: upper, size: [0.2, 0.2, 0.2]}\n", 4},
        std::pair<std::string, int>{"  - {name: b, type: cylinder, body: upper, radius: 0.1, length: 0.2}\n", 8}}) {
    CAPTURE(item);
    const io::LoadedModel m = io::load_model_text(head + item + tail, "pair.yaml");
    NewtonEulerSystem ne(m.system);
    VecX q, v;
    ne.initial_state(q, v);
    ContactDetector det(ne);
    std::vector<ContactPoint> cps;
    det.detect(q, 1e-6, cps);
    int between = 0;
    for (const ContactPoint& c : cps)
      if (c.a >= 0 && c.b >= 0) ++between;
    CHECK(between == expected);
  }
  try {
    io::load_model_text(head + "  - {name: b, type: plane, body: upper, normal: [0, 0, -1], point: [0, 0, 0]}\n" + tail,
                        "pair.yaml");
    FAIL("a plane on a body facing a ground plane must be refused");
  } catch (const io::LoadError& e) {
    const std::string w = e.what();
    INFO(w);
    CHECK(w.find("9:5") != std::string::npos);  // the plane's item: line 9, column 5
    CHECK(w.find("'b' (plane on upper)") != std::string::npos);
    CHECK(w.find("plane-plane") != std::string::npos);
  }
}

namespace {
/// Runs an example model with `sets`; rows of (t, sensor columns...).
std::vector<std::vector<double>> run_example(const std::string& name, const std::vector<io::Override>& sets = {}) {
  const io::LoadedModel m =
      io::load_model_file(std::string(MBDAE_TEST_SOURCE_DIR) + "/examples/models/" + name + ".yaml", sets);
  io::ModelRun r(m);
  std::vector<std::vector<double>> rows;
  const SolveResult res = r.run([&](const StateView& s, std::span<const double> row) {
    std::vector<double> x{s.t};
    x.insert(x.end(), row.begin(), row.end());
    rows.push_back(x);
    return true;
  });
  INFO(res.message);
  REQUIRE(res.ok());
  return rows;
}
}  // namespace

TEST_CASE("Example conveyor: the part reaches the belt speed after v/(mu g), having slid v^2/(2 mu g)",
          "[contact][examples]") {
  // A plane on a driven body (the belt) and a box (the part): the part accelerates at μ g until
  // t* = v / (μ g), then rides along, so x(t) = v² / (2 μ g) + v (t − t*) for t > t*.
  const std::string solver = GENERATE("generalized_alpha", "trapezoidal_index2");
  CAPTURE(solver);
  const auto rows = run_example("conveyor", {{"solver.type", solver}});
  const double v = 0.5, mu = 0.4, g = 9.81, ts = v / (mu * g);
  for (const auto& r : rows) {
    const double t = r[0], x = r[1], vx = r[4];
    const double x_exact = t < ts ? 0.5 * mu * g * t * t : v * v / (2 * mu * g) + v * (t - ts);
    const double v_exact = t < ts ? mu * g * t : v;
    INFO("t = " << t << ": x " << x << " (exact " << x_exact << "), v " << vx << " (exact " << v_exact << ")");
    // Regularised friction (v_ε = 1 mm/s) and the penalty's settling: a few v_ε, a few v_ε·t*.
    if (std::abs(t - ts) > 0.01) CHECK(std::abs(vx - v_exact) < 5e-3);
    CHECK(std::abs(x - x_exact) < 2e-4);
  }
}

TEST_CASE("Example box stack: ten boxes stay at rest", "[contact][examples]") {
  const std::string fm = GENERATE("pyramid", "cone");
  CAPTURE(fm);
  const auto rows = run_example("box_stack", {{"solver.friction_model", fm}});
  const auto& last = rows.back();
  // top (x, y, z) starts at (0, 0, 0.95); bottom at (0, 0, 0.05).
  const double drift_top = (Vec3(last[1], last[2], last[3]) - Vec3(0, 0, 0.95)).norm();
  const double drift_bottom = (Vec3(last[7], last[8], last[9]) - Vec3(0, 0, 0.05)).norm();
  INFO("after " << last[0] << " s: top box moved " << drift_top << " m, bottom box " << drift_bottom << " m");
  CHECK(drift_top < 1e-4);
  CHECK(drift_bottom < 1e-4);
  CHECK(Vec3(last[4], last[5], last[6]).norm() < 1e-6);
}

TEST_CASE("Example cylinders: the roller rolls at (2/3) g sin(alpha); the drum and the log stay at rest",
          "[contact][examples]") {
  // The roller starts at rest on the ramp's face (slope 0.3 rad) and rolls without slipping:
  // speed (2/3) g sin(0.3) t along the face, distance (1/3) g sin(0.3) t^2.
  const auto rows = run_example("cylinders");
  const double a = 2.0 / 3.0 * 9.81 * std::sin(0.3);
  const Vec3 t(std::cos(0.3), 0, -std::sin(0.3));
  const auto& first = rows.front();
  const auto& last = rows.back();
  const double T = last[0];
  const double dist = t.dot(Vec3(last[1] - first[1], last[2] - first[2], last[3] - first[3]));
  const double speed = t.dot(Vec3(last[4], last[5], last[6]));
  INFO("after " << T << " s: roller at " << dist << " m (exact " << 0.5 * a * T * T << "), speed " << speed
                << " (exact " << a * T << ")");
  // First order in h = 1 ms: the distance error of the impulse stepper is about a T h (the
  // validation test of the incline measures it).
  CHECK(std::abs(dist - 0.5 * a * T * T) < 2 * a * T * 1e-3);
  CHECK(std::abs(speed - a * T) < 1e-3 * a * T);
  const double drum = (Vec3(last[7], last[8], last[9]) - Vec3(3, 0, 0.35)).norm();
  const double log = (Vec3(last[10], last[11], last[12]) - Vec3(3, 0, 0.55)).norm();
  INFO("drum moved " << drum << " m, log " << log << " m");
  CHECK(drum < 1e-4);
  CHECK(log < 1e-4);
}

TEST_CASE("Material combination rules for friction and restitution", "[contact][io]") {
  // Two spheres touching: μ 0.8 and 0.2, e 0.9 and 0.1. Each rule gives its closed form.
  auto pair_material = [](const std::string& material) {
    const std::string text = "gravity: [0, 0, 0]\nbodies:\n"
                             "  - {name: a, mass: 1, inertia: [0.1, 0.1, 0.1, 0, 0, 0], position: [0, 0, 0]}\n"
                             "  - {name: b, mass: 1, inertia: [0.1, 0.1, 0.1, 0, 0, 0], position: [0.19, 0, 0]}\n"
                             "contacts:\n"
                             "  - {name: a, type: sphere, body: a, radius: 0.1, friction: 0.8, restitution: 0.9}\n"
                             "  - {name: b, type: sphere, body: b, radius: 0.1, friction: 0.2, restitution: 0.1}\n" +
                             material + "solver: {type: impulse, end_time: 0.1}\n";
    const io::LoadedModel m = io::load_model_text(text, "material.yaml");
    NewtonEulerSystem ne(m.system);
    VecX q, v;
    ne.initial_state(q, v);
    ContactDetector det(ne);
    std::vector<ContactPoint> cps;
    det.detect(q, 0, cps);
    REQUIRE(cps.size() == 1);
    return std::make_pair(cps[0].friction, cps[0].restitution);
  };
  auto [mu0, e0] = pair_material("");
  CHECK(mu0 == Approx(0.4));  // default: √(0.8 · 0.2), max(0.9, 0.1)
  CHECK(e0 == Approx(0.9));
  auto [mu1, e1] = pair_material("contact_material: {friction: min, restitution: mean}\n");
  CHECK(mu1 == Approx(0.2));
  CHECK(e1 == Approx(0.5));
  auto [mu2, e2] = pair_material("contact_material: {friction: max, restitution: geometric_mean}\n");
  CHECK(mu2 == Approx(0.8));
  CHECK(e2 == Approx(0.3));
  auto [mu3, e3] = pair_material("contact_material: {friction: mean, restitution: min}\n");
  CHECK(mu3 == Approx(0.5));
  CHECK(e3 == Approx(0.1));
  try {
    pair_material("contact_material: {friction: harmonic}\n");
    FAIL("an unknown rule must be refused");
  } catch (const io::LoadError& e) {
    const std::string w = e.what();
    INFO(w);
    CHECK(w.find("contact_material.friction") != std::string::npos);
    CHECK(w.find("harmonic") != std::string::npos);
  }
}

TEST_CASE("Box stack with penalty contacts: each face carries the boxes above it", "[contact][examples]") {
  // The implicit formulation with a linear penalty: the contact between box j − 1 and box j (the
  // floor for j = 0) carries the weight of the 10 − j boxes above it on four points, so it is
  // compressed by (10 − j) m g / (4 k), and the top box sinks by Σ = 55 m g / (4 k) (1.349e-4 m
  // at k = 1e6 N/m), and stays centred.
  const double k = 1e6, m = 1.0, g = 9.81;
  const auto rows = run_example("box_stack", {{"solver.type", "generalized_alpha"},
                                              {"solver.end_time", "0.5"},
                                              {"contact_penalty.stiffness", "1.0e6"},
                                              {"contact_penalty.damping", "2000"}});
  const auto& last = rows.back();
  const double sink = 0.95 - last[3], exact = 55 * m * g / (4 * k);
  INFO("top box sank " << sink << " m (exact " << exact << "), moved sideways " << std::hypot(last[1], last[2]));
  CHECK(sink == Approx(exact).epsilon(1e-3));
  CHECK(std::hypot(last[1], last[2]) < 1e-9);
  CHECK(Vec3(last[4], last[5], last[6]).norm() < 1e-6);
}

TEST_CASE("Example cylinders with penalty contacts: each contact carries what rests on it", "[contact][examples]") {
  // Generalized-α with a linear penalty (k = 1e6 N/m): the crate (5 kg) rests on the ground box on
  // its four bottom corners, the drum (2 kg) on the crate on eight points of its rim, the log
  // (0.5 kg) across the drum's top on the two ends of its generator's chord. By symmetry each
  // contact's points share its load: the crate's corners are compressed by 7.5 g / (4 k), the
  // drum's rim by 2.5 g / (8 k), the log's two points by 0.5 g / (2 k); the drum sinks by
  // (7.5/4 + 2.5/8) g / k = 2.1875 g / k, the log by (7.5/4 + 2.5/8 + 0.5/2) g / k = 2.4375 g / k.
  const double k = 1e6, g = 9.81;
  const auto rows = run_example("cylinders", {{"solver.type", "generalized_alpha"},
                                              {"solver.end_time", "0.5"},
                                              {"contact_penalty.stiffness", "1.0e6"},
                                              {"contact_penalty.damping", "2000"}});
  const auto& last = rows.back();
  const double drum = 0.35 - last[9], log = 0.55 - last[12];
  INFO("drum sank " << drum << " m (exact " << 2.1875 * g / k << "), log " << log << " m (exact "
                    << 2.4375 * g / k << "); sideways " << std::hypot(last[7] - 3, last[8]) << ", "
                    << std::hypot(last[10] - 3, last[11]) << " m");
  CHECK(drum == Approx(2.1875 * g / k).epsilon(1e-3));
  CHECK(log == Approx(2.4375 * g / k).epsilon(1e-3));
  CHECK(std::hypot(last[7] - 3, last[8]) < 1e-9);
  CHECK(std::hypot(last[10] - 3, last[11]) < 1e-9);
}

TEST_CASE("A convex mesh without its file is refused at its place", "[contact][io]") {
  const std::string text = "bodies:\n  - {name: a, mass: 1, inertia: [0.1, 0.1, 0.1, 0, 0, 0]}\n"
                           "contacts:\n  - {name: part, type: convex_mesh, body: a}\n"
                           "solver: {type: impulse, end_time: 0.1}\n";
  try {
    io::load_model_text(text, "mesh.yaml");
    FAIL("a convex mesh without a file must be refused");
  } catch (const io::LoadError& e) {
    const std::string w = e.what();
    INFO(w);
    CHECK(w.find("mesh.yaml:4:") != std::string::npos);
    CHECK(w.find("contacts[0]: missing required key 'file'") != std::string::npos);
  }
}

TEST_CASE("Shapes that overlap deeply at the start are refused; resting contact is not",
          "[contact][io]") {
  // A box of 0.2 x 0.2 x 0.1 m (smallest half extent 0.05 m: 5 mm of overlap allowed) on a ball
  // of radius 0.08 m (8 mm allowed): the pair allows a tenth of the thinner, 5 mm. The box's
  // centre is put at the ball's top plus its half height minus the overlap d.
  auto model = [](double d, const std::string& solver) {
    const double z = 0.08 + 0.05 - d;
    return "name: overlap\ngravity: [0, 0, -9.81]\nbodies:\n"
           "  - {name: ball, mass: 1, shape: {sphere: 0.08}, position: [0, 0, 0]}\n"
           "  - {name: box, mass: 1, shape: {box: [0.2, 0.2, 0.1]}, position: [0, 0, " + std::to_string(z) + "]}\n"
           "joints:\n  - {name: hold, type: fixed, bodies: [ground, ball], point: [0, 0, 0]}\n"
           "contacts:\n"
           "  - {name: ball, type: sphere, body: ball, radius: 0.08}\n"
           "  - {name: box, type: box, body: box, size: [0.2, 0.2, 0.1]}\n"
           "contact_penalty: {law: linear, stiffness: 1.0e5, damping: 300}\n"
           "solver: {type: " + solver + ", end_time: 0.01, step: 1.0e-3}\n";
  };
  const std::string solver = GENERATE("impulse", "generalized_alpha");
  CAPTURE(solver);
  // 4.5 mm and resting contact (1e-5 m): a run is set up.
  for (double d : {1e-5, 4.5e-3}) {
    const io::LoadedModel m = io::load_model_text(model(d, solver), "overlap.yaml");
    CHECK_NOTHROW(io::ModelRun(m));
  }
  // 5.5 mm: refused, naming both shapes, the depth and the allowed depth, at the box's line.
  const io::LoadedModel m = io::load_model_text(model(5.5e-3, solver), "overlap.yaml");
  try {
    io::ModelRun run(m);
    FAIL("an overlap of 5.5 mm must be refused");
  } catch (const ModelError& e) {
    REQUIRE(e.details().size() == 1);
    CHECK(e.details()[0].item == ItemRef::contact(1));
    CHECK_THAT(e.details()[0].message,
               Catch::StartsWith("contact shapes 'ball' and 'box' overlap by 0.0055 m at the start (resting "
                                 "contact allows 0.005 m"));
    CHECK(m.locate(e.details()[0]).line == 10);  // the box shape
  }
}

namespace {
// Independent signed distances (written apart from NarrowPhase.cpp): a box by its face slabs, a
// cylinder in its (radial, axial) half-plane.
double sd_box(const PlacedShape& b, const Vec3& x) {
  const Vec3 l = b.R_WS.transpose() * (x - b.c_W);
  double out2 = 0, in = -1e300;
  for (int i = 0; i < 3; ++i) {
    const double q = std::abs(l[i]) - b.half[i];
    if (q > 0) out2 += q * q;
    in = std::max(in, q);
  }
  return out2 > 0 ? std::sqrt(out2) : in;
}
double sd_cylinder(const PlacedShape& c, const Vec3& x) {
  const Vec3 l = c.R_WS.transpose() * (x - c.c_W);
  const double qr = std::hypot(l.x(), l.y()) - c.radius, qa = std::abs(l.z()) - c.half_length;
  if (qr > 0 || qa > 0) return std::hypot(std::max(qr, 0.0), std::max(qa, 0.0));
  return std::max(qr, qa);
}
double sd_of(const PlacedShape& s, const Vec3& x) { return s.type == ShapeType::Box ? sd_box(s, x) : sd_cylinder(s, x); }
/// Points on the surface of a box or a cylinder (a grid on each face; rims, generators, end discs).
std::vector<Vec3> surface_points(const PlacedShape& s) {
  std::vector<Vec3> v;
  if (s.type == ShapeType::Box) {
    const int n = 10;
    for (int f = 0; f < 3; ++f)
      for (int sg : {-1, 1})
        for (int i = 0; i <= n; ++i)
          for (int j = 0; j <= n; ++j) {
            Vec3 l;
            l[f] = sg * s.half[f];
            l[(f + 1) % 3] = s.half[(f + 1) % 3] * (2.0 * i / n - 1);
            l[(f + 2) % 3] = s.half[(f + 2) % 3] * (2.0 * j / n - 1);
            v.push_back(s.c_W + s.R_WS * l);
          }
  } else {
    for (int k = 0; k < 96; ++k) {
      const double t = 2 * M_PI * k / 96;
      for (int j = 0; j <= 10; ++j)
        v.push_back(s.c_W + s.R_WS * Vec3(s.radius * std::cos(t), s.radius * std::sin(t), s.half_length * (0.2 * j - 1)));
      for (int sg : {-1, 1})
        for (int j = 1; j < 4; ++j)
          v.push_back(s.c_W + s.R_WS * Vec3(0.25 * j * s.radius * std::cos(t), 0.25 * j * s.radius * std::sin(t),
                                            sg * s.half_length));
    }
  }
  return v;
}
}  // namespace

TEST_CASE("Box-cylinder and cylinder-cylinder at random poses: every penetration is found, at least as deep",
          "[contact][geometry]") {
  // For convex shapes the penetration depth (the shortest translation that separates them) is at
  // least the depth of any point of one inside the other. So whenever a sampled surface point of
  // either shape is inside the other by δ, narrow_phase() must give a point at least δ deep; and
  // when it gives none, no sampled point may be inside.
  std::mt19937 rng(12345);
  std::uniform_real_distribution<double> U(-1, 1), S(0.05, 0.4);
  auto rotation = [&]() -> Mat3 {
    if (U(rng) < -0.4) return math::rot_z(M_PI / 2 * std::floor(2 * U(rng))) * math::rot_y(M_PI / 2 * std::floor(2 * U(rng)));
    const Eigen::Quaterniond q(U(rng), U(rng), U(rng), U(rng));
    return q.normalized().toRotationMatrix();
  };
  const bool with_box = GENERATE(true, false);
  CAPTURE(with_box ? "box-cylinder" : "cylinder-cylinder");
  int overlapping = 0, apart = 0;
  for (int trial = 0; trial < 1500; ++trial) {
    const PlacedShape A = with_box ? box(Vec3::Zero(), Vec3(S(rng), S(rng), S(rng)), rotation())
                                   : cylinder(Vec3::Zero(), S(rng), S(rng), rotation());
    const PlacedShape B = cylinder(0.6 * Vec3(U(rng), U(rng), U(rng)), S(rng), S(rng), rotation());
    const double scale = std::max({A.half.maxCoeff(), A.radius, A.half_length, B.radius, B.half_length});
    double delta = 0;
    for (const Vec3& x : surface_points(A)) delta = std::max(delta, -sd_of(B, x));
    for (const Vec3& x : surface_points(B)) delta = std::max(delta, -sd_of(A, x));
    const auto pts = points(A, B);
    double deepest = 0;
    for (const PairPoint& p : pts) deepest = std::min(deepest, p.depth);
    CAPTURE(trial, delta, deepest, pts.size());
    if (pts.empty()) {
      ++apart;
      CHECK(delta == 0);
    } else {
      ++overlapping;
      // A face taken as the contact may keep its deepest point up to 1e-3 of the largest size
      // above the separation along it (NarrowPhase.cpp); every other path is at least as deep.
      CHECK(deepest <= -delta + 1e-3 * scale);
    }
  }
  INFO(overlapping << " overlapping, " << apart << " apart");
  CHECK(overlapping > 300);
  CHECK(apart > 300);
}
