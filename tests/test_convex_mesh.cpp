// Convex meshes: the hull, its mass properties against closed forms, the narrow phase of each mesh
// pair against independent computations (a box given as a mesh against the box shape; signed
// distances by brute force over the faces, vertices and edges), and whole runs of a box given as
// a mesh against the same box shape on the impulse stepper and on the penalty path.

#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <mbdae/contact/ContactGeometry.h>
#include <mbdae/contact/ContactPairs.h>
#include <mbdae/io/ModelLoader.h>
#include <mbdae/io/Run.h>
#include <mbdae/model/ConvexHull.h>
#include <mbdae/model/Inertia.h>
#include <mbdae/model/math/Rotation.h>

using namespace mbdae;

namespace {

const std::string kMeshDir = std::string(MBDAE_TEST_SOURCE_DIR) + "/tests/meshes/";

std::vector<Vec3> box_corners(const Vec3& half) {
  std::vector<Vec3> v;
  for (int k = 0; k < 8; ++k)
    v.emplace_back((k & 1 ? 1 : -1) * half.x(), (k & 2 ? 1 : -1) * half.y(), (k & 4 ? 1 : -1) * half.z());
  return v;
}

Mat3 random_rotation(std::mt19937& rng) {
  std::normal_distribution<double> n(0, 1);
  Eigen::Quaterniond q(n(rng), n(rng), n(rng), n(rng));
  q.normalize();
  return q.toRotationMatrix();
}

PlacedShape mesh_shape(const ConvexHull& h, const Vec3& c, const Mat3& R) {
  PlacedShape s;
  s.type = ShapeType::ConvexMesh;
  s.hull = &h;
  s.c_W = c;
  s.R_WS = R;
  return s;
}

std::vector<PairPoint> points(const PlacedShape& s1, const PlacedShape& s2, double margin = 0) {
  PairPoint out[kMaxPairPoints];
  bool swapped = false;
  const int k = narrow_phase(s1, s2, margin, out, swapped);
  std::vector<PairPoint> v(out, out + k);
  if (swapped)
    for (PairPoint& p : v) p.n = -p.n;
  return v;
}

/// Closest point of the triangle-fan polygon `poly` (world) to x: brute force over the plane
/// projection (if inside) and the edges.
double point_polygon_distance(const std::vector<Vec3>& poly, const Vec3& x) {
  const Vec3 n = (poly[1] - poly[0]).cross(poly[2] - poly[0]).normalized();
  const Vec3 y = x - n * n.dot(x - poly[0]);
  bool inside = true;
  for (size_t k = 0; k < poly.size(); ++k) {
    const Vec3& p = poly[k];
    const Vec3& q = poly[(k + 1) % poly.size()];
    if ((q - p).cross(y - p).dot(n) < 0) inside = false;
  }
  if (inside) return (x - y).norm();
  double best = 1e300;
  for (size_t k = 0; k < poly.size(); ++k) {
    const Vec3& p = poly[k];
    const Vec3& q = poly[(k + 1) % poly.size()];
    const double t = std::clamp((q - p).dot(x - p) / (q - p).squaredNorm(), 0.0, 1.0);
    best = std::min(best, (x - (p + (q - p) * t)).norm());
  }
  return best;
}

double segment_distance(const Vec3& p1, const Vec3& q1, const Vec3& p2, const Vec3& q2) {
  // Ternary search along one segment, exact closest point on the other: independent of the
  // library's closed-form segment distance. d(s) is convex (the distance of an affine point x(s)
  // to a convex set), so the search on [0, 1] converges to its minimum.
  auto d = [&](double s) {
    const Vec3 x = p1 + (q1 - p1) * s;
    const double t = std::clamp((q2 - p2).dot(x - p2) / (q2 - p2).squaredNorm(), 0.0, 1.0);
    return (x - (p2 + (q2 - p2) * t)).norm();
  };
  double lo = 0, hi = 1;
  for (int it = 0; it < 100; ++it) {
    const double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
    if (d(m1) < d(m2)) hi = m2;
    else lo = m1;
  }
  return d(0.5 * (lo + hi));
}

struct WorldHull {
  std::vector<Vec3> v;
  std::vector<std::vector<Vec3>> faces;
  std::vector<std::pair<Vec3, Vec3>> edges;
  std::vector<std::pair<Vec3, double>> planes;  // outward n, offset
};

WorldHull world(const ConvexHull& h, const Vec3& c, const Mat3& R) {
  WorldHull w;
  for (const Vec3& x : h.vertices) w.v.push_back(c + R * x);
  for (int f = 0; f < h.num_faces(); ++f) {
    std::vector<Vec3> poly;
    for (int k = h.face_start[static_cast<size_t>(f)]; k < h.face_start[static_cast<size_t>(f) + 1]; ++k)
      poly.push_back(w.v[static_cast<size_t>(h.face_vertices[static_cast<size_t>(k)])]);
    for (size_t k = 0; k < poly.size(); ++k) w.edges.emplace_back(poly[k], poly[(k + 1) % poly.size()]);
    const Vec3 n = (poly[1] - poly[0]).cross(poly[2] - poly[0]).normalized();
    w.planes.emplace_back(n, n.dot(poly[0]));
    w.faces.push_back(std::move(poly));
  }
  return w;
}

bool contains(const WorldHull& w, const Vec3& x) {
  for (const auto& [n, off] : w.planes)
    if (n.dot(x) - off > 0) return false;
  return true;
}

/// Distance of two separated convex polyhedra: the least over vertex–face and edge–edge pairs.
double brute_distance(const WorldHull& a, const WorldHull& b) {
  double d = 1e300;
  for (const Vec3& x : a.v)
    for (const auto& f : b.faces) d = std::min(d, point_polygon_distance(f, x));
  for (const Vec3& x : b.v)
    for (const auto& f : a.faces) d = std::min(d, point_polygon_distance(f, x));
  for (const auto& [p1, q1] : a.edges)
    for (const auto& [p2, q2] : b.edges) d = std::min(d, segment_distance(p1, q1, p2, q2));
  return d;
}

/// Whether two convex polyhedra overlap, brute force: a vertex inside the other, or an edge of
/// one crossing a face of the other.
bool brute_overlap(const WorldHull& a, const WorldHull& b) {
  for (const Vec3& x : a.v)
    if (contains(b, x)) return true;
  for (const Vec3& x : b.v)
    if (contains(a, x)) return true;
  auto edge_through = [](const WorldHull& e, const WorldHull& f) {
    for (const auto& [p, q] : e.edges)
      for (size_t k = 0; k < f.faces.size(); ++k) {
        const auto& [n, off] = f.planes[k];
        const double dp = n.dot(p) - off, dq = n.dot(q) - off;
        if ((dp > 0) == (dq > 0)) continue;
        const Vec3 x = p + (q - p) * (dp / (dp - dq));
        if (point_polygon_distance(f.faces[k], x) < 1e-12) return true;
      }
    return false;
  };
  return edge_through(a, b) || edge_through(b, a);
}

}  // namespace

TEST_CASE("Convex hull: a box gives 8 vertices, 6 quadrilaterals and 12 edges; inner points are dropped",
          "[mesh][hull]") {
  std::vector<Vec3> pts = box_corners(Vec3(0.2, 0.15, 0.1));
  pts.emplace_back(0.0, 0.0, 0.0);     // inside
  pts.emplace_back(0.1, 0.0, 0.1);     // on the top face
  pts.emplace_back(0.2, 0.15, 0.0);    // on an edge
  const ConvexHull h = convex_hull(pts);
  CHECK(h.vertices.size() == 8);
  CHECK(h.num_faces() == 6);
  CHECK(h.edges.size() == 12);
  for (size_t i = 0; i < 8; ++i) CHECK(h.source_index[i] == static_cast<int>(i));  // input order kept
  for (int f = 0; f < 6; ++f) {
    CHECK(h.face_start[static_cast<size_t>(f) + 1] - h.face_start[static_cast<size_t>(f)] == 4);
    // Every vertex of the face is on its plane, every other vertex behind it.
    for (const Vec3& v : h.vertices) CHECK(h.face_normals[static_cast<size_t>(f)].dot(v) - h.face_offsets[static_cast<size_t>(f)] < 1e-15);
  }
  for (const auto& ef : h.edge_faces) CHECK((ef[0] >= 0 && ef[1] >= 0 && ef[0] != ef[1]));
  CHECK_THROWS_AS(convex_hull(std::vector<Vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}}), std::invalid_argument);
  CHECK_THROWS_AS(convex_hull(std::vector<Vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}), std::invalid_argument);
}

TEST_CASE("Convex hull of points on a sphere keeps them all; Euler's formula holds", "[mesh][hull]") {
  std::mt19937 rng(7);
  std::normal_distribution<double> n(0, 1);
  std::vector<Vec3> pts;
  for (int i = 0; i < 200; ++i) pts.push_back(Vec3(n(rng), n(rng), n(rng)).normalized() * 0.3);
  const ConvexHull h = convex_hull(pts);
  CHECK(h.vertices.size() == 200);
  // V − E + F = 2 for a convex polyhedron.
  CHECK(static_cast<int>(h.vertices.size()) - static_cast<int>(h.edges.size()) + h.num_faces() == 2);
}

TEST_CASE("Mass properties of a mesh: the tetrahedron and the box against their closed forms", "[mesh][inertia]") {
  // Tetrahedron (0, 0, 0), (a, 0, 0), (0, a, 0), (0, 0, a): V = a³/6, centroid a/4 (1, 1, 1);
  // about the origin ∫x² dV = a⁵/60, ∫xy dV = a⁵/120 (the monomial integrals over the simplex,
  // a! b! c! / (a + b + c + 3)! times a^(3+a+b+c)), so about the centroid, per unit density,
  // Jxx = a⁵ (1/30 − 1/48) = a⁵/80 and Jxy = −(a⁵/120 − a⁵/96) = a⁵/480.
  const double a = 0.3;
  const ConvexHull h = convex_hull(std::vector<Vec3>{{0, 0, 0}, {a, 0, 0}, {0, a, 0}, {0, 0, a}});
  const PolyhedronMass m = mass_properties(h);
  const double a5 = std::pow(a, 5);
  CHECK(m.volume == Approx(a * a * a / 6).epsilon(1e-14));
  CHECK((m.centroid - Vec3::Constant(a / 4)).norm() < 1e-15);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) CHECK(m.inertia(i, j) == Approx(i == j ? a5 / 80 : a5 / 480).epsilon(1e-12));
  // A box 0.4 × 0.3 × 0.2 off the origin: V = l w h, centroid at its centre, Jxx = V (w² + h²)/12.
  std::vector<Vec3> pts = box_corners(Vec3(0.2, 0.15, 0.1));
  for (Vec3& p : pts) p += Vec3(1, -2, 0.5);
  const PolyhedronMass b = mass_properties(convex_hull(pts));
  const double V = 0.4 * 0.3 * 0.2;
  CHECK(b.volume == Approx(V).epsilon(1e-13));
  CHECK((b.centroid - Vec3(1, -2, 0.5)).norm() < 1e-14);
  CHECK(b.inertia(0, 0) == Approx(V * (0.09 + 0.04) / 12).epsilon(1e-10));
  CHECK(b.inertia(1, 1) == Approx(V * (0.16 + 0.04) / 12).epsilon(1e-10));
  CHECK(b.inertia(2, 2) == Approx(V * (0.16 + 0.09) / 12).epsilon(1e-10));
  CHECK(std::abs(b.inertia(0, 1)) < 1e-15);
}

TEST_CASE("Model files: a mesh body takes the hull's mass properties; OBJ and STL agree; a notch is refused",
          "[mesh][io]") {
  auto model = [](const std::string& shape_file, const std::string& extra = "") {
    return "name: m\ngravity: [0, 0, -9.81]\nbodies:\n  - {name: part, mass: 2.0, shape: {convex_mesh: {file: " +
           shape_file + extra + "}}, position: [0, 0, 1]}\ncontacts:\n  - {name: floor, type: plane, normal: [0, 0, 1]}\n"
           "  - {name: part, type: convex_mesh, body: part, file: " + shape_file + extra +
           "}\nsolver: {type: impulse, end_time: 0.01, step: 1.0e-3}\n";
  };
  for (const std::string f : {"box.obj", "box.stl"}) {
    CAPTURE(f);
    const io::LoadedModel m = io::load_model_text(model(f), kMeshDir + "model.yaml");
    const RigidBody& b = m.system.bodies()[0];
    const RigidBodyInertia box = RigidBodyInertia::box(2.0, 0.4, 0.3, 0.2);
    // The STL file holds single-precision floats (0.15 is 0.1500000060 there).
    const double tol = f == "box.stl" ? 1e-8 : 1e-12;
    CHECK((b.inertia.head<3>() - box.inertia_com().diagonal()).norm() < tol);
    CHECK(b.com.norm() < tol);
    REQUIRE(m.system.contacts()[1].hull);
    CHECK(m.system.contacts()[1].hull->vertices.size() == 8);
  }
  // The tetrahedron scaled by 0.3: the COM is the centroid, away from the reference point.
  const io::LoadedModel t = io::load_model_text(model("tetra.obj", ", scale: 0.3"), kMeshDir + "model.yaml");
  CHECK((t.system.bodies()[0].com - Vec3::Constant(0.075)).norm() < 1e-15);
  try {
    io::load_model_text(model("notch.obj"), kMeshDir + "model.yaml");
    FAIL("a notched mesh was accepted");
  } catch (const io::LoadError& e) {
    const std::string w = e.what();
    INFO(w);
    CHECK(w.find("mesh 'notch.obj' is not convex (vertex 9 lies 0.05 m inside its convex hull)") != std::string::npos);
  }
  // With convex_hull: true it is the box.
  const io::LoadedModel h = io::load_model_text(model("notch.obj", ", convex_hull: true"), kMeshDir + "model.yaml");
  CHECK(h.system.contacts()[1].hull->vertices.size() == 8);
  CHECK_THROWS_AS(io::load_model_text(model("missing.obj"), kMeshDir + "model.yaml"), io::LoadError);
}

TEST_CASE("A box given as a mesh gives the box shape's points against a plane, a sphere and a capsule",
          "[mesh][geometry]") {
  const Vec3 half(0.2, 0.15, 0.1);
  const ConvexHull h = convex_hull(box_corners(half));
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-0.3, 0.3);
  int compared = 0;
  for (int trial = 0; trial < 500; ++trial) {
    const Mat3 R = random_rotation(rng);
    const Vec3 c(u(rng), u(rng), u(rng));
    PlacedShape box;
    box.type = ShapeType::Box;
    box.half = half;
    box.c_W = c;
    box.R_WS = R;
    const PlacedShape mesh = mesh_shape(h, c, R);
    PlacedShape other;
    switch (trial % 3) {
      case 0:
        other.type = ShapeType::Plane;
        other.normal = Vec3(u(rng), u(rng), 1).normalized();
        other.offset = u(rng);
        break;
      case 1:
        other.type = ShapeType::Sphere;
        other.radius = 0.1;
        other.c_W = Vec3(u(rng), u(rng), u(rng));
        break;
      default:
        other.type = ShapeType::Capsule;
        other.radius = 0.05;
        other.half_length = 0.15;
        other.c_W = Vec3(u(rng), u(rng), u(rng));
        other.R_WS = random_rotation(rng);
        break;
    }
    const auto pb = points(box, other), pm = points(mesh, other);
    CAPTURE(trial);
    REQUIRE(pb.size() == pm.size());
    for (size_t i = 0; i < pb.size(); ++i) {
      CHECK((pb[i].p - pm[i].p).norm() < 1e-9);
      CHECK((pb[i].n - pm[i].n).norm() < 1e-9);
      CHECK(std::abs(pb[i].depth - pm[i].depth) < 1e-9);
    }
    compared += static_cast<int>(pb.size());
  }
  CHECK(compared > 300);
}

TEST_CASE("A box given as a mesh against a cylinder: the box shape's deepest point", "[mesh][geometry]") {
  // convex_mesh-cylinder is box-cylinder with the polyhedron's features: for a box given as a
  // mesh both find contact at the same poses, and their deepest points agree within the 1e-3 of
  // the size by which both take a face as the contact.
  const Vec3 half(0.2, 0.15, 0.1);
  const ConvexHull h = convex_hull(box_corners(half));
  std::mt19937 rng(13);
  std::uniform_real_distribution<double> u(-0.3, 0.3);
  int touching = 0;
  for (int trial = 0; trial < 500; ++trial) {
    const Mat3 R = random_rotation(rng);
    const Vec3 c(u(rng), u(rng), u(rng));
    PlacedShape box;
    box.type = ShapeType::Box;
    box.half = half;
    box.c_W = c;
    box.R_WS = R;
    PlacedShape cyl;
    cyl.type = ShapeType::Cylinder;
    cyl.radius = 0.08;
    cyl.half_length = 0.12;
    cyl.c_W = Vec3(u(rng), u(rng), u(rng));
    cyl.R_WS = random_rotation(rng);
    const auto pb = points(box, cyl), pm = points(mesh_shape(h, c, R), cyl);
    CAPTURE(trial);
    CHECK(pb.empty() == pm.empty());
    if (pb.empty() || pm.empty()) continue;
    ++touching;
    double db = 1e300, dm = 1e300;
    for (const PairPoint& p : pb) db = std::min(db, p.depth);
    for (const PairPoint& p : pm) dm = std::min(dm, p.depth);
    CHECK(std::abs(db - dm) <= 1e-3 * 0.25);
  }
  CHECK(touching > 100);
}

TEST_CASE("Mesh pairs at random poses against brute-force distances and overlaps", "[mesh][geometry]") {
  // Two hulls of random points, random poses: when they are apart (brute force: no vertex inside
  // the other, no edge through a face), no point at margin 0, and with a margin each point's depth
  // is bounded by the brute-force distance (vertex–face and edge–edge) as its feature says, and
  // the shallowest equals it for most poses; when they overlap, at least one point.
  std::mt19937 rng(3);
  std::normal_distribution<double> n(0, 1);
  std::uniform_real_distribution<double> u(-0.35, 0.35);
  auto blob = [&](int k) {
    std::vector<Vec3> p;
    for (int i = 0; i < k; ++i) p.push_back(Vec3(n(rng), n(rng), n(rng)).normalized() * 0.15 + Vec3(u(rng), u(rng), u(rng)) * 0.1);
    return convex_hull(p);
  };
  int apart = 0, overlapping = 0, exact = 0, with_margin = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const ConvexHull ha = blob(12 + trial % 20), hb = blob(8 + trial % 13);
    const Mat3 Ra = random_rotation(rng), Rb = random_rotation(rng);
    const Vec3 ca = 0.5 * Vec3(u(rng), u(rng), u(rng)), cb = 0.5 * Vec3(u(rng), u(rng), u(rng));
    const WorldHull wa = world(ha, ca, Ra), wb = world(hb, cb, Rb);
    const PlacedShape a = mesh_shape(ha, ca, Ra), b = mesh_shape(hb, cb, Rb);
    const bool overlap = brute_overlap(wa, wb);
    CAPTURE(trial);
    if (!overlap) {
      ++apart;
      const double dist = brute_distance(wa, wb);
      CHECK(points(a, b).empty());
      const auto pm = points(a, b, 10.0);
      if (pm.empty()) continue;  // the incident face clipped away (apart: a margin's points are optional)
      ++with_margin;
      // A face point (feature < 192) lies on the incident face over the reference face: its depth
      // is its own distance to the reference face, so at least the shapes' distance; an edge point
      // (feature ≥ 200) has the separation along the edges' axis, at most the distance.
      double sep = 1e300;
      for (const PairPoint& p : pm) {
        sep = std::min(sep, p.depth);
        if (p.feature < 192) CHECK(p.depth >= dist - 1e-9);
        else CHECK(p.depth <= dist + 1e-9);
      }
      CHECK(sep > 0);
      if (std::abs(sep - dist) < 1e-7) ++exact;
    } else {
      ++overlapping;
      CHECK(!points(a, b).empty());
    }
  }
  INFO(apart << " apart (" << with_margin << " with points at a margin, " << exact << " of them exact), "
             << overlapping << " overlapping");
  CHECK(apart > 30);
  CHECK(overlapping > 30);
  CHECK(with_margin > apart / 2);
  CHECK(exact > 0);
}

TEST_CASE("Mesh against a sphere: the signed distance against brute force", "[mesh][geometry]") {
  std::mt19937 rng(5);
  std::normal_distribution<double> n(0, 1);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  std::vector<Vec3> p;
  for (int i = 0; i < 30; ++i) p.push_back(Vec3(n(rng), n(rng), n(rng)).normalized() * 0.2);
  const ConvexHull h = convex_hull(p);
  int outside = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const Mat3 R = random_rotation(rng);
    const Vec3 c(u(rng), u(rng), u(rng));
    const WorldHull w = world(h, c, R);
    PlacedShape s;
    s.type = ShapeType::Sphere;
    s.radius = 0.05;
    s.c_W = c + Vec3(u(rng), u(rng), u(rng));
    const auto pm = points(mesh_shape(h, c, R), s, 10.0);
    REQUIRE(pm.size() == 1);
    double expect;
    if (contains(w, s.c_W)) {
      expect = -1e300;
      for (const auto& [nn, off] : w.planes) expect = std::max(expect, nn.dot(s.c_W) - off);
    } else {
      ++outside;
      expect = 1e300;
      for (const auto& f : w.faces) expect = std::min(expect, point_polygon_distance(f, s.c_W));
    }
    CAPTURE(trial);
    CHECK(pm[0].depth == Approx(expect - s.radius).margin(1e-12));
  }
  CHECK(outside > 200);
}

namespace {
/// Final position and velocity of the body "part" after a run of `text`.
std::vector<double> final_state(const std::string& text) {
  const io::LoadedModel m = io::load_model_text(text, kMeshDir + "model.yaml");
  io::ModelRun r(m);
  std::vector<double> last;
  const SolveResult res = r.run([&](const StateView&, std::span<const double> row) {
    last.assign(row.begin(), row.end());
    return true;
  });
  INFO(res.message);
  REQUIRE(res.ok());
  return last;
}
}  // namespace

TEST_CASE("A box given as a mesh runs as the box shape: impulse stepper and penalty path", "[mesh][contact]") {
  // A box tilted and spinning, dropped onto the floor and onto a ground box; the same run with
  // the box shape and with box.obj.
  const std::string solver = GENERATE("impulse", "generalized_alpha");
  CAPTURE(solver);
  // The ground box only on the impulse path: with penalty forces the box-box and convex_mesh-box
  // manifolds (different point choices on an edge landing) part the runs by 2e-4 m over 1 s.
  const std::string table =
      solver == std::string("impulse")
          ? "  - {name: table, type: box, body: ground, size: [0.4, 0.4, 0.2], position: [0.5, 0, 0.1], friction: 0.4}\n"
          : "";
  auto text = [&](const std::string& shape) {
    return "name: m\ngravity: [0, 0, -9.81]\n"
           "bodies:\n  - {name: part, mass: 2.0, inertia: [0.02, 0.03, 0.04, 0, 0, 0], position: [0.1, 0, 0.4],\n"
           "     orientation: {axis: [1, 2, 0.5], angle: 0.3}, velocity: [0.5, 0, 0], angular_velocity: [0, 1, 2]}\n"
           "contacts:\n  - {name: floor, type: plane, normal: [0, 0, 1], friction: 0.4}\n" + table +
           "  - {name: part, body: part, friction: 0.4, " + shape + "}\n"
           "contact_penalty: {law: linear, stiffness: 1.0e5, damping: 200}\n"
           "sensors:\n  - {name: p, body: part, output: position}\n  - {name: v, body: part, output: velocity}\n"
           "solver: {type: " + solver + ", end_time: 1.0, step: 1.0e-3}\noutput: {every: 0.1}\n";
  };
  const auto sb = final_state(text("type: box, size: [0.4, 0.3, 0.2]"));
  const auto sm = final_state(text("type: convex_mesh, file: box.obj"));
  REQUIRE(sb.size() == sm.size());
  double diff = 0;
  for (size_t i = 0; i < sb.size(); ++i) diff = std::max(diff, std::abs(sb[i] - sm[i]));
  INFO("box: p = (" << sb[0] << ", " << sb[1] << ", " << sb[2] << "); max difference " << diff);
  CHECK(diff < 1e-9);
}

namespace {
std::vector<std::vector<double>> run_example(const std::string& name) {
  const io::LoadedModel m =
      io::load_model_file(std::string(MBDAE_TEST_SOURCE_DIR) + "/examples/models/" + name + ".yaml");
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

TEST_CASE("Example cam_follower: the follower's lift follows the cam profile's closed form", "[mesh][examples]") {
  // Flat-faced follower on a disc cam (72-gon of radius R, centre e off the shaft, turned by
  // theta = 2 pi t about y): its face is at the cam's highest point, e cos(theta) + R max_k
  // cos(phi_k + theta); the follower's centre is 0.01 m (its half height) above, less the
  // penalty's sinking m (g + a) / k (below 6e-6 m for a ≤ e w^2).
  const auto rows = run_example("cam_follower");
  const double R = 0.05, e = 0.015;
  double worst = 0, worst_circle = 0;
  for (const auto& r : rows) {
    const double th = 2 * M_PI * r[0];
    double top = -1e300;
    for (int k = 0; k < 72; ++k) top = std::max(top, R * std::cos(2 * M_PI * k / 72 + th));
    const double z_face = r[3] - 0.01;
    worst = std::max(worst, std::abs(z_face - (e * std::cos(th) + top)));
    worst_circle = std::max(worst_circle, std::abs(z_face - (e * std::cos(th) + R)));
  }
  INFO("largest lift error against the 72-gon " << worst << " m, against the circle " << worst_circle << " m");
  CHECK(worst < 1e-5);
  CHECK(worst_circle < 6e-5);
  CHECK(rows.back()[0] == Approx(1.0));
}

TEST_CASE("Example gripper: the squeezed part rises with the carriage", "[mesh][examples]") {
  // After t = 0.4 s the carriage rises by (t − 0.4)²/2; the part, held by friction (2 μ N = 20 N
  // against m (g + a) = 2.16 N), rises with it up to the slip of the regularised friction
  // (about 1e-4 m/s: below 1e-4 m over the 0.6 s).
  const auto rows = run_example("gripper");
  const double z0 = rows.front()[3];
  double worst = 0;
  for (const auto& r : rows) {
    const double lift = r[0] < 0.4 ? 0 : 0.5 * (r[0] - 0.4) * (r[0] - 0.4);
    worst = std::max(worst, std::abs(r[3] - z0 - lift));
  }
  INFO("largest difference between the part's rise and the carriage's " << worst << " m");
  CHECK(worst < 2e-4);
  CHECK(rows.back()[3] - z0 > 0.17);
}
