// Convex meshes (contact shape convex_mesh) over whole runs against closed forms: a mesh box at
// rest on the floor, on a ground box and on a ground mesh (drift and penetration, impulse stepper
// and penalty path), and a mesh box dropped flat with restitution e (apexes e^(2n) h0, impulse
// stepper). The mesh is the convex hull of the eight corners of a box (ConvexHull.h), so it takes
// the polyhedron code paths (plane–mesh vertices, mesh–box and mesh–mesh separating axes and face
// clipping), not the box shape's.

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <vector>

#include <mbdae/model/ConvexHull.h>
#include <mbdae/model/math/Rotation.h>
#include <mbdae/solvers/ImpulseStepper.h>
#include <mbdae/solvers/Simulation.h>

using namespace mbdae;

namespace {

constexpr double g = 9.81;

std::vector<Vec3> corners(const Vec3& half) {
  std::vector<Vec3> v;
  for (int k = 0; k < 8; ++k)
    v.emplace_back((k & 1 ? 1 : -1) * half.x(), (k & 2 ? 1 : -1) * half.y(), (k & 4 ? 1 : -1) * half.z());
  return v;
}

std::shared_ptr<const ConvexHull> mesh_box(const Vec3& half) {
  const std::vector<Vec3> c = corners(half);
  return std::make_shared<const ConvexHull>(convex_hull(c));
}

RigidBody box_body(double m, const Vec3& half, const Vec3& pos, const Mat3& R) {
  RigidBody b;
  b.name = "part";
  b.mass = m;
  const Vec3 L = 2 * half;
  b.inertia << m * (L.y() * L.y() + L.z() * L.z()) / 12, m * (L.x() * L.x() + L.z() * L.z()) / 12,
      m * (L.x() * L.x() + L.y() * L.y()) / 12, 0, 0, 0;
  b.position = pos;
  b.orientation = R;
  return b;
}

/// What the part rests on: the floor plane z = 0, a ground box or a ground mesh box whose top face
/// is z = 0.
enum class Support { Plane, GroundBox, GroundMesh };

const char* name(Support s) {
  return s == Support::Plane ? "plane" : s == Support::GroundBox ? "ground box" : "ground mesh";
}

/// A mesh box `half` of mass m resting on `sup` (its bottom face at z = −sink), turned by 0.3 rad
/// about z; penalty `pen` on the part if given.
System resting(Support sup, const Vec3& half, double m, double sink, const PenaltyParameters* pen) {
  System s;
  s.gravity = Vec3(0, 0, -g);
  s.add_body(box_body(m, half, Vec3(0.05, -0.02, half.z() - sink), math::rot_z(0.3)));
  Contact part = make_convex_mesh("part", "part", mesh_box(half), 0.6);
  if (pen) part.penalty = *pen;
  s.add_contact(part);
  const Vec3 base(0.5, 0.5, 0.1);
  if (sup == Support::Plane) {
    s.add_contact(make_plane("floor", Vec3::UnitZ(), 0.0, 0.6));
  } else {
    Contact c = sup == Support::GroundBox ? make_box("table", "ground", base, 0.6)
                                          : make_convex_mesh("table", "ground", mesh_box(base), 0.6);
    c.position = Vec3(0, 0, -base.z());
    s.add_contact(c);
  }
  return s;
}

/// Depth of the part's lowest corner below z = 0 (from its pose), m.
double lowest_depth(const Vec3& half, const Vec3& c, const Mat3& R) {
  double low = 1e300;
  for (const Vec3& x : corners(half)) low = std::min(low, (c + R * x).z());
  return -low;
}

}  // namespace

TEST_CASE("A mesh box at rest on a plane, a box and a mesh stays put over 10 s (impulse stepper)",
          "[validation][contact][impulse][mesh]") {
  // Closed form: nothing moves. Bounds from the stepper's design (h = 1 ms, its defaults): the
  // split impulse leaves up to the slop (1e-4 m) of penetration uncorrected, so the part must stay
  // within the slop of its start, sink by less than the slop and turn by less than 1e-4 rad.
  const Support sup = GENERATE(Support::Plane, Support::GroundBox, Support::GroundMesh);
  CAPTURE(name(sup));
  const Vec3 half(0.2, 0.15, 0.05);
  const System s = resting(sup, half, 2.0, 0.0, nullptr);
  NewtonEulerSystem ne(s);
  VecX q0, v0;
  ne.initial_state(q0, v0);
  ImpulseOptions o;
  o.step = 1e-3;
  o.t_end = 10;
  o.output_every = 1e-2;
  const double slop = o.slop;
  double drift = 0, turn = 0, pen = 0, speed = 0;
  const ImpulseResult r = solve_impulse(ne, 0, q0, v0, o, [&](const StateView& st) {
    const Vec3 c = ne.com_position(0, st.q);
    const Mat3 R = ne.rotation(0, st.q);
    drift = std::max(drift, (c - ne.com_position(0, q0)).norm());
    const Mat3 dR = R * ne.rotation(0, q0).transpose();
    turn = std::max(turn, std::acos(std::clamp(0.5 * (dR.trace() - 1), -1.0, 1.0)));
    pen = std::max(pen, lowest_depth(half, c, R));
    speed = ne.com_velocity(0, st.v).norm();
    return true;
  });
  REQUIRE(r.ok());
  INFO(name(sup) << ": over 10 s largest displacement " << drift << " m, turn " << turn << " rad, deepest "
                 << "penetration " << pen << " m, speed at 10 s " << speed << " m/s, contacts per step at most "
                 << r.pgs.max_contacts);
  CHECK(drift < slop);
  CHECK(turn < 1e-4);
  CHECK(pen < slop);
  CHECK(speed < 1e-6);
  CHECK(r.pgs.max_contacts >= 4);
}

TEST_CASE("A mesh box at rest on a plane, a box and a mesh sinks m g / (4 k) on the penalty path",
          "[validation][contact][penalty][mesh]") {
  // Four corner points (plane) or four clipped face points (box, mesh) each carry m g / 4, so
  // with the linear law the part sinks by δ = m g / (4 k) and nothing else moves (no force has
  // a sideways component or a moment about the vertical). Started at that depth, each corner
  // critically damped; generalized-α, h = 1 ms, 5 s. Bounds: the sink within 1e-3 δ (the
  // Newton tolerance of the step, far below), sideways drift and turn below 1e-9 (round-off only).
  const Support sup = GENERATE(Support::Plane, Support::GroundBox, Support::GroundMesh);
  CAPTURE(name(sup));
  const Vec3 half(0.2, 0.15, 0.05);
  const double m = 2.0, k = 1e6, delta = m * g / (4 * k);
  PenaltyParameters pen;
  pen.law = PenaltyLaw::Linear;
  pen.stiffness = k;
  pen.damping = 2 * std::sqrt(k * m / 4);
  const System s = resting(sup, half, m, delta, &pen);
  const PreparedSystem P = prepare(s);
  SimulationSettings st;
  st.solver = SolverType::GeneralizedAlpha;
  st.step = 1e-3;
  st.t_end = 5.0;
  st.output_every = 0.01;
  const Vec3 c0 = P.system->position(0, P.q0);
  const Mat3 R0 = P.system->rotation(0, P.q0);
  double side = 0, turn = 0, sink_dev = 0, sink = 0;
  const SolveResult r = simulate(*P.system, 0, P.q0, P.v0, st, [&](const StateView& x) {
    const Vec3 c = P.system->position(0, x.q);
    const Mat3 R = P.system->rotation(0, x.q);
    side = std::max(side, (c - c0).head<2>().norm());
    const Mat3 dR = R * R0.transpose();
    turn = std::max(turn, std::acos(std::clamp(0.5 * (dR.trace() - 1), -1.0, 1.0)));
    sink = lowest_depth(half, c, R);
    sink_dev = std::max(sink_dev, std::abs(sink - delta));
    return true;
  });
  REQUIRE(r.ok());
  INFO(name(sup) << ": sink " << sink << " m at 5 s (m g / (4 k) = " << delta << "), largest deviation " << sink_dev
                 << " m; sideways " << side << " m, turn " << turn << " rad");
  CHECK(sink_dev < 1e-3 * delta);
  CHECK(side < 1e-9);
  CHECK(turn < 1e-9);
}

TEST_CASE("Restitution: a mesh box dropped flat rebounds to e^(2n) h0", "[validation][contact][impulse][mesh]") {
  // As the box shape's test (test_contact_closed_forms.cpp): the four bottom vertices hit
  // together, Newton's law v⁺ = −e v⁻ at each, so the box leaves flat with e times its speed and
  // the apexes are e^(2n) h0. With the whole penetration removed each step (slop 0, β = 1) the
  // step's only error is where in the step the impact falls: the box is up to v h off the
  // surface at the impact (v = √(2 g h0) the impact speed, at most that after it), which shifts
  // an apex by at most 2 v h. Bound: 2 √(2 g h0) h at each h; the box must not turn.
  const Vec3 half(0.2, 0.15, 0.05);
  const double h0 = 0.5, e = 0.7, v_imp = std::sqrt(2 * g * h0);
  for (const double h : {1e-3, 5e-4, 2.5e-4}) {
    System s;
    s.gravity = Vec3(0, 0, -g);
    s.add_body(box_body(1.0, half, Vec3(0, 0, half.z() + h0), Mat3::Identity()));
    s.add_contact(make_convex_mesh("part", "part", mesh_box(half), 0.0, e));
    s.add_contact(make_plane("floor", Vec3::UnitZ(), 0.0, 0.0, e));
    NewtonEulerSystem ne(s);
    VecX q0, v0;
    ne.initial_state(q0, v0);
    ImpulseOptions o;
    o.step = h;
    o.t_end = 1.6;
    o.output_every = h;
    o.slop = 0;
    o.position_beta = 1.0;
    std::vector<double> z, vz;
    double tilt = 0;
    const ImpulseResult r = solve_impulse(ne, 0, q0, v0, o, [&](const StateView& st) {
      z.push_back(st.q[2]);
      vz.push_back(st.v[2]);
      tilt = std::max(tilt, st.v.segment<3>(3).norm());
      return true;
    });
    REQUIRE(r.ok());
    std::vector<double> apex;
    for (size_t i = 1; i < z.size(); ++i)
      if (vz[i - 1] > 0 && vz[i] <= 0) apex.push_back(z[i] - half.z());
    REQUIRE(apex.size() >= 2);
    double worst = 0;
    for (int n = 1; n <= 2; ++n)
      worst = std::max(worst, std::abs(apex[static_cast<size_t>(n - 1)] - std::pow(e, 2 * n) * h0));
    INFO("h = " << h << ": apexes " << apex[0] << " " << apex[1] << " m (exact " << e * e * h0 << " "
                << std::pow(e, 4) * h0 << "), largest error " << worst << " m (bound " << 2 * v_imp * h
                << "), largest angular speed " << tilt);
    CHECK(worst < 2 * v_imp * h);
    CHECK(tilt < 1e-6);
  }
}
