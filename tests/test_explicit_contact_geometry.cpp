// Unit tests of the contact geometry: narrow-phase distances and normals for each handled pair,
// and the uniform-grid broad phase against brute force on a random cloud (fixed seed).

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include <mbdae/formulations/ContactDetector.h>
#include <mbdae/model/math/Rotation.h>

using namespace mbdae;

namespace {
RigidBody body(const std::string& name, const Vec3& p, const Mat3& R = Mat3::Identity()) {
  RigidBody b;
  b.name = name;
  b.mass = 1;
  b.inertia << 0.1, 0.1, 0.1, 0, 0, 0;
  b.position = p;
  b.orientation = R;
  return b;
}
}  // namespace

TEST_CASE("Narrow phase: signed distance, normal and point of each pair", "[explicit][contact]") {
  System s;
  s.add_body(body("box", Vec3(0, 0, 0.5), math::rot_z(0.3)));
  s.add_body(body("ball", Vec3(0.0, 0.0, 1.05)));  // above the box top face (z = 1.0), r = 0.1
  s.add_body(body("cap", Vec3(3, 0, 0.2), math::rot_y(M_PI / 2)));  // lying along world x
  s.add_contact(make_box("box", "box", Vec3(0.5, 0.5, 0.5)));
  s.add_contact(make_sphere("ball", "ball", 0.1));
  s.add_contact(make_capsule("cap", "cap", 0.25, 0.4));
  s.add_contact(make_plane("floor", Vec3::UnitZ(), 0.0));
  NewtonEulerSystem ne(s);
  VecX q, v;
  ne.initial_state(q, v);
  ContactDetector det(ne);
  std::vector<ContactPoint> cps;
  det.detect(q, 1e-6, cps);
  int box_plane = 0, cap_plane = 0, box_ball = 0;
  for (const ContactPoint& c : cps) {
    if (c.a == kGround && c.b == 0) {
      ++box_plane;  // bottom corners exactly on the floor
      CHECK(std::abs(c.depth) < 1e-12);
      CHECK((c.n - Vec3::UnitZ()).norm() < 1e-15);
    }
    if (c.a == kGround && c.b == 2) {
      ++cap_plane;  // both cap spheres 0.05 deep
      CHECK(c.depth == Approx(-0.05));
      CHECK(c.p.z() == Approx(-0.025));
    }
    if (c.a == 0 && c.b == 1) {
      ++box_ball;  // sphere 0.05 deep into the top face
      CHECK(c.depth == Approx(-0.05));
      CHECK((c.n - Vec3::UnitZ()).norm() < 1e-12);
      CHECK(c.p.z() == Approx(0.975));
    }
  }
  CHECK(box_plane == 4);
  CHECK(cap_plane == 2);
  CHECK(box_ball == 1);
}

TEST_CASE("Grid broad phase finds exactly the sphere pairs brute force finds", "[explicit][contact]") {
  // Extent 3 m: about 1000 cells for 400 shapes (the dense, counting-sorted grid); 30 m (every
  // second sphere spread over 30 m, the others in the 3 m cube so that pairs still overlap): about
  // 10⁶ cells (the sparse grid of sorted cell keys).
  const double extent = GENERATE(3.0, 30.0);
  CAPTURE(extent);
  std::mt19937 rng(12345);
  std::uniform_real_distribution<double> U3(0.0, 3.0), UW(0.0, extent), R(0.05, 0.15);
  System s;
  const int n = 400;
  std::vector<double> rad;
  for (int i = 0; i < n; ++i) {
    auto& U = i % 2 ? UW : U3;
    s.add_body(body("b" + std::to_string(i), Vec3(U(rng), U(rng), U(rng))));
    rad.push_back(R(rng));
    s.add_contact(make_sphere("b" + std::to_string(i), "b" + std::to_string(i), rad.back()));
  }
  NewtonEulerSystem ne(s);
  VecX q, v;
  ne.initial_state(q, v);
  ContactDetector det(ne);
  std::vector<ContactPoint> cps;
  det.detect(q, 0.0, cps);
  std::vector<std::pair<int, int>> got, want;
  for (const ContactPoint& c : cps) got.emplace_back(std::min(c.a, c.b), std::max(c.a, c.b));
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      if ((q.segment<3>(7 * i) - q.segment<3>(7 * j)).norm() < rad[static_cast<size_t>(i)] + rad[static_cast<size_t>(j)])
        want.emplace_back(i, j);
  std::sort(got.begin(), got.end());
  INFO(want.size() << " overlapping pairs; broad-phase candidates " << det.last_pair_count() << " of " << n * (n - 1) / 2);
  CHECK(!want.empty());
  CHECK(got == want);
  CHECK(det.last_pair_count() < n * (n - 1) / 20);  // far fewer than all pairs
}
