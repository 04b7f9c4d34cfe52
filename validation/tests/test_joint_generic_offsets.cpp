// A generic joint with time-dependent offsets of its relative coordinates (Joint::offsets): a body
// held to ground in all six coordinates follows the prescribed motion exactly, and the joint's
// reaction is the body's m a − m g and J α (closed forms of the prescribed motion, written here).
//
// Joint frame F (world, t0) = Rx(0.3) Ry(−0.5) Rz(0.4); the body's axes are F at t0, its COM is the
// joint point p0, its inertia diag(0.2, 0.3, 0.4) kg m² about the COM. With offsets o(t) (m) of
// x, y, z and rotation offsets (a, b, c)(t) the joint holds
//   COM(t) = p0 + F o(t),   R_b(t) = F Q(t),   Q = Rx(a) Ry(b) Rz(c),
// so with only c ≠ 0 (a rotation about the body's principal axis z): ω = ċ F e_z, α = c̈ F e_z, the
// reaction force on the body is m F ö − m g and the reaction torque (about the COM) is J_zz c̈ F e_z.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include <mbdae/formulations/NewtonEuler.h>
#include <mbdae/model/math/Rotation.h>
#include <mbdae/solvers/Explicit.h>
#include <mbdae/solvers/Simulation.h>

using namespace mbdae;

namespace {

const Mat3 kF = math::rxyz_to_matrix(Vec3(0.3, -0.5, 0.4));
const Vec3 kP0(0.4, -0.2, 1.0);
const double kMass = 2.0;
const Vec3 kG(0, 0, -9.81);

TimeFunction fn(double (*v)(double)) {
  TimeFunction f;
  f.value = v;  // derivatives by the TimeFunction's differences, as the model file gives them
  return f;
}

// The offsets: x, y, z (m) and rx, ry, rz (rad), each 0 at t0, with their derivatives.
double ox(double t) { return 0.2 * std::sin(3 * t); }
double ox_dd(double t) { return -1.8 * std::sin(3 * t); }
double oy(double t) { return 0.1 * t * t; }
double oy_dd(double) { return 0.2; }
double oz(double t) { return -0.05 * (1 - std::cos(2 * t)); }
double oz_dd(double t) { return -0.2 * std::cos(2 * t); }
double ra(double t) { return 0.4 * std::sin(t); }
double rb(double t) { return -0.3 * t + 0.2 * std::sin(2 * t); }
double rc(double t) { return 0.5 * std::sin(2 * t) + 0.7 * t; }
double rc_dd(double t) { return -2.0 * std::sin(2 * t); }

System held_body(bool all_rotations) {
  System s;
  s.gravity = kG;
  RigidBody b;
  b.name = "b";
  b.mass = kMass;
  b.inertia << 0.2, 0.3, 0.4, 0, 0, 0;
  b.position = kP0;
  b.orientation = kF;
  s.add_body(b);
  Joint j;
  j.name = "g";
  j.type = JointType::Generic;
  j.bodies = {"ground", "b"};
  j.point = kP0;
  j.frame = kF;
  j.offsets[0] = fn(ox);
  j.offsets[1] = fn(oy);
  j.offsets[2] = fn(oz);
  if (all_rotations) {
    j.offsets[3] = fn(ra);
    j.offsets[4] = fn(rb);
  }
  j.offsets[5] = fn(rc);
  s.add_joint(j);
  return s;
}

Vec3 com_ref(double t) { return kP0 + kF * Vec3(ox(t), oy(t), oz(t)); }
Mat3 rot_ref(double t, bool all) {
  return kF * math::rxyz_to_matrix(Vec3(all ? ra(t) : 0.0, all ? rb(t) : 0.0, rc(t)));
}

}  // namespace

TEST_CASE("generic joint with offsets: the prescribed motion and its reaction (closed forms)",
          "[validation][joints][generic]") {
  for (bool all : {false, true}) {
    const System s = held_body(all);
    const PreparedSystem p = prepare(s);
    const MultibodySystem& mb = *p.system;
    for (SolverType st : {SolverType::GeneralizedAlpha, SolverType::Ida}) {
      SimulationSettings set;
      set.solver = st;
      set.t_end = 2.0;
      set.step = 1e-3;
      set.output_every = 0.02;
      set.rtol = 1e-9;
      set.atol = 1e-11;
      set.rho_inf = 0.6;
      double e_pos = 0, e_rot = 0, e_f = 0, e_t = 0;
      const SolveResult r = simulate(mb, 0.0, p.q0, p.v0, set, [&](const StateView& v) {
        e_pos = std::max(e_pos, (mb.position(0, v.q) - com_ref(v.t)).norm());
        e_rot = std::max(e_rot, (mb.rotation(0, v.q) - rot_ref(v.t, all)).norm());
        if (!all && v.t > 0.1) {  // the multipliers after the start (generalized-α's first steps)
          const JointReaction jr = mb.reaction(0, v.t, v.q, v.lambda);
          const Vec3 f_ref = kMass * kF * Vec3(ox_dd(v.t), oy_dd(v.t), oz_dd(v.t)) - kMass * kG;
          const Vec3 t_ref = 0.4 * rc_dd(v.t) * kF.col(2);
          e_f = std::max(e_f, (jr.force_W - f_ref).norm());
          e_t = std::max(e_t, (jr.torque_W - t_ref).norm());
        }
        return true;
      });
      REQUIRE(r.ok());
      INFO(to_string(st) << (all ? ", all three rotation offsets" : ", rz offset") << ": position error " << e_pos
                         << " m, rotation error " << e_rot << ", reaction force error " << e_f
                         << " N, torque error " << e_t << " N m");
      CHECK(e_pos < 1e-9);
      CHECK(e_rot < 1e-9);
      if (!all) {
        // Reaction scale: m g ≈ 20 N, m ö ≈ 4 N, J c̈ ≈ 0.8 N m. Generalized-α's multipliers are
        // second-order accurate (h = 1e-3); IDA's follow its tolerance.
        CHECK(e_f < 2e-3);
        CHECK(e_t < 2e-4);
      }
    }
    // The explicit path: Newton–Euler bodies, the joint at acceleration level.
    NewtonEulerSystem ne(s);
    VecX q0, v0;
    ne.initial_state(q0, v0);
    ExplicitOptions o;
    o.step = 1e-3;
    o.t_end = 2.0;
    o.output_every = 0.02;
    o.project_positions = o.project_velocities = true;
    double e_pos = 0, e_rot = 0;
    const SolveResult r = solve_explicit(ne, 0.0, q0, v0, o, [&](const StateView& v) {
      e_pos = std::max(e_pos, (ne.com_position(0, v.q) - com_ref(v.t)).norm());
      e_rot = std::max(e_rot, (ne.rotation(0, v.q) - rot_ref(v.t, all)).norm());
      return true;
    });
    REQUIRE(r.ok());
    INFO("rk4: position error " << e_pos << " m, rotation error " << e_rot);
    CHECK(e_pos < 1e-9);
    CHECK(e_rot < 1e-9);
  }
}
