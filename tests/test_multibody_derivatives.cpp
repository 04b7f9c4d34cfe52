// Finite-difference checks of every analytic derivative of the rigid-body formulation, for every
// joint type, every rotation parametrization and random states (STYLE item 13; Simbody's
// Constraint.h contract: the velocity error is exactly the time derivative of the position error).

#include <catch2/catch.hpp>

#include "ResidualDifferences.h"

#include <optional>
#include <random>
#include <set>
#include <span>

#include <mbdae/formulations/Multibody.h>
#include <mbdae/model/ForceTypes.h>
#include <mbdae/model/JointTypes.h>
#include <mbdae/model/math/Rotation.h>

using namespace mbdae;

namespace {

const RotationParametrization kParams[] = {RotationParametrization::EulerParameters,
                                           RotationParametrization::TaitBryan,
                                           RotationParametrization::RotationVector};

Vec3 rnd3(std::mt19937& g, double s = 1.0) {
  std::uniform_real_distribution<double> u(-s, s);
  return Vec3(u(g), u(g), u(g));
}

RigidBody make_body(const std::string& name, RotationParametrization p, std::mt19937& g) {
  RigidBody b;
  b.name = name;
  b.mass = 1.5;
  b.com = rnd3(g, 0.3);
  // A valid inertia about the COM, shifted to the reference point.
  const Mat3 Jc = Vec3(0.2, 0.3, 0.4).asDiagonal();
  const Mat3 J = Jc + b.mass * (b.com.squaredNorm() * Mat3::Identity() - b.com * b.com.transpose());
  b.inertia << J(0, 0), J(1, 1), J(2, 2), J(1, 2), J(0, 2), J(0, 1);
  b.position = rnd3(g);
  // Keep Tait–Bryan away from gimbal lock.
  b.orientation = math::rxyz_to_matrix(rnd3(g, 0.7));
  b.velocity = rnd3(g);
  b.angular_velocity = rnd3(g, 2.0);
  b.rotation = p;
  return b;
}

/// One element under test: a joint type (possibly driven) or a force element added to a
/// spherical joint (a joint motor: to the cylindrical joint it acts on).
struct Case {
  Case(std::string n, JointType t, int d = 0, std::optional<ForceType> f = std::nullopt)
      : name(std::move(n)), type(t), drive(d), force(f) {}
  std::string name;
  JointType type;
  int drive;  ///< 0: none; 1: motion with derivatives by differences; 2: all given; 3: speed (velocity-level row)
              ///< (user force: 2 = with its analytic Jacobian, 3 = reading a controller state; joint motor: 1 = a force)
  std::optional<ForceType> force;
};

/// A two-body system: joint "J" of the given type between A and B, a spherical joint to ground.
System make_system(const Case& cs, RotationParametrization pa, RotationParametrization pb,
                   bool b_is_ground, std::mt19937& g) {
  const JointType type = cs.type;
  System s;
  s.gravity = Vec3(0, 0, -9.81);
  s.add_body(make_body("A", pa, g));
  if (!b_is_ground) s.add_body(make_body("B", pb, g));
  Joint j;
  j.name = "J";
  j.type = type;
  j.bodies = {"A", b_is_ground ? "ground" : "B"};
  if (b_is_ground) std::swap(j.bodies[0], j.bodies[1]);
  j.point = rnd3(g);
  j.axis = rnd3(g);
  j.point_b = j.point + rnd3(g);
  if (type == JointType::Generic) {
    j.frame = math::rxyz_to_matrix(rnd3(g));
    j.constrained = {true, false, true, false, true, true};
  }
  if (type == JointType::Universal) j.axis_b = j.axis.cross(rnd3(g)) + 0.4 * j.axis;  // a skewed cross
  if (type == JointType::Perpendicular) j.axis_b = j.axis.cross(rnd3(g));  // ⊥ axis at t0, as it must be
  if (type == JointType::RollingDisc) {
    // A disc tilted by at most ~50° from upright (the lowest rim point is ill-defined for a disc
    // lying flat, where ĝ's derivatives grow like 1/|n × w|).
    j.axis_b = j.axis.cross(rnd3(g)).normalized() + 0.5 * j.axis.normalized();
    j.radius = 0.3;
  }
  if (type == JointType::Coordinate) {
    j.coordinate = 1;
    j.offset = 0.1;
  }
  if (type == JointType::Generic && cs.drive > 0) {
    // Offsets on the constrained coordinates x, z, ry, rz (differenced, or with derivatives).
    j.offsets[0].value = [](double t) { return 0.2 * std::sin(3 * t); };
    j.offsets[2].value = [](double t) { return 0.1 * t * t - 0.3 * t; };
    j.offsets[4].value = [](double t) { return 0.4 * std::sin(2 * t) + 0.2 * t; };
    j.offsets[5].value = [](double t) { return 0.5 * std::cos(t) - 0.5; };
    if (cs.drive == 2) {
      j.offsets[4].velocity = [](double t) { return 0.8 * std::cos(2 * t) + 0.2; };
      j.offsets[4].acceleration = [](double t) { return -1.6 * std::sin(2 * t); };
      j.offsets[5].velocity = [](double t) { return -0.5 * std::sin(t); };
      j.offsets[5].acceleration = [](double t) { return -0.5 * std::cos(t); };
    }
  } else if (!cs.force && cs.drive == 1) {
    j.motion.value = [](double t) { return 0.3 * std::sin(2 * t) + 0.5 * t * t; };
  }
  if (!cs.force && cs.drive == 2 && type != JointType::Generic) {
    j.motion.value = [](double t) { return 0.2 * std::cos(3 * t) + t; };
    j.motion.velocity = [](double t) { return -0.6 * std::sin(3 * t) + 1; };
    j.motion.acceleration = [](double t) { return -1.8 * std::cos(3 * t); };
  }
  if (!cs.force && cs.drive == 3) j.speed.value = [](double t) { return 0.4 * std::sin(2 * t) + 0.7 * t; };
  s.add_joint(j);
  if (cs.force) {
    ForceElement f;
    f.name = "F";
    f.type = *cs.force;
    f.bodies = {j.bodies[0], j.bodies[1]};
    f.point = rnd3(g);
    f.point_b = f.point + rnd3(g);
    f.axis = rnd3(g);
    f.frame = math::rxyz_to_matrix(rnd3(g));
    f.stiffness = 120;
    f.damping = 3;
    f.length = 0.4;
    for (int r = 0; r < 6; ++r)
      for (int c = 0; c < 6; ++c) {
        f.stiffness6(r, c) = (r == c ? 100.0 : 0.0) + 5 * std::sin(r + 2 * c);
        f.damping6(r, c) = (r == c ? 2.0 : 0.0) + 0.3 * std::cos(r - c);
      }
    f.stiffness3 = Vec3(50, 80, 110);
    f.damping3 = Vec3(1, 2, 3);
    f.offset3 = Vec3(0.1, -0.2, 0.05);
    f.reaction_at_a_marker = f.type == ForceType::CartesianSpringDamper && cs.drive == 1;
    if (f.type == ForceType::RigidBodySpringDamper) f.rotation_law = static_cast<SpringRotationLaw>(cs.drive);
    f.upper = -1.0;  // end_stop: pressed in by about 1 m at every state tried (its smooth branch)
    if (f.type == ForceType::JointMotor) {  // on the cylindrical joint J, every coordinate used
      f.joint = "J";
      f.point = j.point;
      f.axis = j.axis;
      f.motor_force = cs.drive == 1;
      f.effort = [](double t, const JointCoordinates& q) {
        return -50 * (q.angle - 0.2) - 3 * q.rate * std::abs(q.rate) + 20 * std::sin(q.displacement) -
               2 * q.speed + std::sin(t);
      };
    }
    if (f.type == ForceType::JointFriction || f.type == ForceType::JointLimit) {  // on the joint J
      f.joint = "J";
      f.point = j.point;
      f.axis = j.axis;
      f.joint_type = j.type;
      f.upper = -1.0;  // joint_limit: pressed in by about 1 rad or 1 m
      if (f.type == ForceType::JointFriction) {
        f.friction = 0.3;
        f.static_friction = 0.5;
        f.stribeck_velocity = 0.4;
        f.normal_force = 80;
        f.radius = 0.2;
        f.viscous_rotation = 0.7;
        f.viscous_slide = 1.1;
        f.regularization_velocity = 0.5;  // smooth on the scale of the differences
      }
    }
    if (f.type == ForceType::User) {
      f.bodies = {"A"};
      if (!b_is_ground) f.bodies.push_back("B");
      if (cs.drive == 2) {
        // A linear spring-damper to a fixed point, a rotational damper and an aligning torque,
        // with their Jacobian: F = −k (p − p0) − c v, τ = −c_r ω + k_r a × e_z with a = R e_x:
        // ∂F/∂p = −k I, ∂τ/∂φ = k_r (a e_zᵀ − (a·e_z) I) (from δa = δφ × a), ∂F/∂v = −c I,
        // ∂τ/∂ω = −c_r I.
        f.user = [](double, const std::vector<BodyMotion>& b, std::vector<Wrench>& out) {
          for (size_t k = 0; k < b.size(); ++k) {
            out[k].force = -40 * (b[k].p - Vec3(0.1, 0.2, 0.3)) - 3 * b[k].v;
            out[k].torque = -2 * b[k].w + 5 * b[k].R.col(0).cross(Vec3::UnitZ());
          }
        };
        f.user_jacobian = [](double, const std::vector<BodyMotion>& b, MatX& dx, MatX& dxi) {
          for (size_t k = 0; k < b.size(); ++k) {
            const int o = 6 * static_cast<int>(k);
            dx.block<3, 3>(o, o) = -40 * Mat3::Identity();
            dxi.block<3, 3>(o, o) = -3 * Mat3::Identity();
            dxi.block<3, 3>(o + 3, o + 3) = -2 * Mat3::Identity();
            const Vec3 a = b[k].R.col(0);
            dx.block<3, 3>(o + 3, o + 3) = 5 * (a * Vec3::UnitZ().transpose() - a.z() * Mat3::Identity());
          }
        };
      } else if (cs.drive == 3) {
        // A law of the bodies' motions and of a controller state z (ż = p_A,x v_A,z − z), nonlinear
        // in both: the tangent's state column and the state's own row.
        ControllerState z;
        z.name = "z";
        z.initial = 0.4;
        z.bodies = {"A"};
        z.states = {"z"};
        z.derivative = [](double, std::span<const BodyMotion> b, std::span<const double> st) {
          return b[0].p.x() * b[0].v.z() - st[0];
        };
        s.add_controller_state(z);
        f.states = {"z"};
        f.user_of_states = [](double t, const std::vector<BodyMotion>& b, std::span<const double> st,
                              std::vector<Wrench>& out) {
          for (size_t k = 0; k < b.size(); ++k) {
            out[k].force = -30 * b[k].p.cwiseProduct(b[k].p) * (1 + st[0] * st[0]) - 2 * b[k].v * st[0] +
                           Vec3(std::sin(t), 0, 1);
            out[k].torque = -4 * b[k].w * std::sin(st[0]) + b[k].R.col(0).cross(Vec3(0, 0, 5));
          }
        };
      } else {
        f.user = [](double t, const std::vector<BodyMotion>& b, std::vector<Wrench>& out) {
          for (size_t k = 0; k < b.size(); ++k) {
            out[k].force = -30 * b[k].p.cwiseProduct(b[k].p) - 2 * b[k].v * b[k].v.norm() +
                           Vec3(std::sin(t), 0, 1);
            out[k].torque = -4 * b[k].w + b[k].R.col(0).cross(Vec3(0, 0, 5)) + b[k].R.col(1) * b[k].p.norm();
          }
        };
      }
    }
    s.add_force(f);
  }
  if (!b_is_ground) s.add_spherical("S", "ground", "A", rnd3(g));
  Load f;
  f.name = "push";
  f.body = std::string("A");  // (a literal assignment trips GCC 12's false -Wrestrict)
  f.point = rnd3(g, 0.5);
  f.value = rnd3(g, 3.0);
  f.frame = Load::Frame::Body;
  s.add_load(f);
  Load tl;  // a time-dependent torque
  tl.name = "wobble";
  tl.kind = Load::Kind::Torque;
  tl.body = std::string("A");
  tl.value_of_t = [](double t) { return Vec3(std::sin(3 * t), 0.5, std::cos(t)); };
  s.add_load(tl);
  return s;
}

/// A random state near the initial one (not consistent; Euler parameters 2 % off the unit sphere).
void random_state(const MultibodySystem& mb, std::mt19937& g, VecX& q, VecX& v, VecX& a) {
  const int n = mb.num_coordinates();
  q.resize(n);
  v.resize(n);
  mb.initial_state(q, v);
  std::normal_distribution<double> N(0, 0.1);
  for (int i = 0; i < n; ++i) q[i] += N(g);
  for (int i = 0; i < static_cast<int>(mb.model().bodies().size()); ++i)
    if (mb.body_size(i) == 7) q.segment<4>(mb.body_offset(i) + 3) *= 1.02 / q.segment<4>(mb.body_offset(i) + 3).norm();
  a = VecX::NullaryExpr(n, [&]() { return 3 * N(g); });
  for (int i = 0; i < n; ++i) v[i] += N(g);
}

}  // namespace

TEST_CASE("constraint Jacobian, velocity, gamma and tangents match finite differences",
          "[formulation][jacobian]") {
  std::mt19937 gen(42);
  using JT = JointType;
  // Every registered joint type (JointTypes.h), and driven where it can be: a type added to the
  // registry is covered here at once.
  std::vector<Case> cases;
  for (const JointTypeInfo& t : joint_types()) {
    cases.emplace_back(t.name, t.type);
    if (t.drivable) {
      cases.emplace_back(std::string("driven ") + t.name + " (differenced)", t.type, 1);
      cases.emplace_back(std::string("driven ") + t.name + " (given)", t.type, 2);
      cases.emplace_back(std::string("speed-driven ") + t.name, t.type, 3);
    }
    if (t.takes_offsets) {
      cases.emplace_back(std::string(t.name) + " with offsets (differenced)", t.type, 1);
      cases.emplace_back(std::string(t.name) + " with offsets (given)", t.type, 2);
    }
  }
  CHECK(cases.size() == 24);  // 16 types, 2 of them drivable (motion twice, speed), 1 with offsets
  // Every registered force element type (ForceTypes.h) beside a spherical joint; user forces
  // also with their analytic Jacobian.
  for (const ForceTypeInfo& t : force_types()) {
    if (t.type == ForceType::JointMotor) {  // on its joint, a cylindrical one: torque and force
      cases.emplace_back(std::string(t.name) + " (torque)", JT::Cylindrical, 0, t.type);
      cases.emplace_back(std::string(t.name) + " (force)", JT::Cylindrical, 1, t.type);
      continue;
    }
    if (t.type == ForceType::JointFriction) {  // on a cylindrical joint: both coordinates, Stribeck
      cases.emplace_back(t.name, JT::Cylindrical, 0, t.type);
      continue;
    }
    if (t.type == ForceType::JointLimit) {  // pressed into its upper stop (the smooth branch)
      cases.emplace_back(std::string(t.name) + " (angle)", JT::Revolute, 0, t.type);
      cases.emplace_back(std::string(t.name) + " (slide)", JT::Prismatic, 0, t.type);
      continue;
    }
    cases.emplace_back(t.name, JT::Spherical, 0, t.type);
    if (!t.pairwise) {
      cases.emplace_back(std::string(t.name) + " with its Jacobian", JT::Spherical, 2, t.type);
      cases.emplace_back(std::string(t.name) + " of a controller state", JT::Spherical, 3, t.type);
    }
    if (t.type == ForceType::CartesianSpringDamper)
      cases.emplace_back(std::string(t.name) + " (reaction at a's marker)", JT::Spherical, 1, t.type);
    if (t.type == ForceType::RigidBodySpringDamper) {
      cases.emplace_back(std::string(t.name) + " (tait_bryan)", JT::Spherical, 1, t.type);
      cases.emplace_back(std::string(t.name) + " (mid_frame)", JT::Spherical, 2, t.type);
    }
  }
  for (const Case& cs : cases)
    for (RotationParametrization pa : kParams)
      for (RotationParametrization pb : kParams)
        for (bool ground : {false, true}) {
          if (ground && pb != RotationParametrization::EulerParameters) continue;
          if (cs.type == JT::RollingDisc && !ground) continue;  // the plane is ground
          DYNAMIC_SECTION(cs.name << " " << to_string(pa) << "/" << to_string(pb)
                                  << (ground ? " to ground" : "")) {
            const System sys = make_system(cs, pa, pb, ground, gen);
            const MultibodySystem mb(sys);
            auto ws = mb.make_workspace();
            const int n = mb.num_coordinates(), m = mb.num_constraints();
            VecX q, v, a;
            random_state(mb, gen, q, v, a);
            VecX lam = VecX::NullaryExpr(m, [&]() { return std::normal_distribution<double>(0, 5)(gen); });
            const double t = 0.3;

            std::vector<bool> vrow(static_cast<size_t>(m));
            for (int r = 0; r < m; ++r) vrow[static_cast<size_t>(r)] = mb.is_velocity_level(r);

            // C_q against central differences of C (velocity-level rows: A = ∂(A v + b)/∂v).
            SparseMatrix Cq = mb.jacobian_pattern();
            mb.assemble_jacobian(ws, t, q, Cq);
            const MatX Cd(Cq);
            MatX Cfd(m, n);
            const double h = 1e-6;
            VecX cp(m), cm(m);
            for (int k = 0; k < n; ++k) {
              VecX qp = q, qm = q, vp = v, vm = v;
              qp[k] += h;
              qm[k] -= h;
              mb.constraints(ws, t, qp, cp);
              mb.constraints(ws, t, qm, cm);
              Cfd.col(k) = (cp - cm) / (2 * h);
              vp[k] += h;
              vm[k] -= h;
              mb.constraint_velocity(ws, t, q, vp, cp);
              mb.constraint_velocity(ws, t, q, vm, cm);
              for (int r = 0; r < m; ++r)
                if (vrow[static_cast<size_t>(r)]) Cfd(r, k) = (cp[r] - cm[r]) / (2 * h);
            }
            CHECK((Cd - Cfd).cwiseAbs().maxCoeff() < 1e-7 * std::max(1.0, Cfd.cwiseAbs().maxCoeff()));

            // Ċ = C_q v + C_t with C_t = ∂C/∂t by differences; velocity-level rows A v + b: b is
            // the row at v = 0 (the rolling disc's is 0, a speed drive's −w(t)).
            VecX cv(m), ct(m), b0(m);
            mb.constraint_velocity(ws, t, q, v, cv);
            mb.constraints(ws, t + h, q, cp);
            mb.constraints(ws, t - h, q, cm);
            ct = (cp - cm) / (2 * h);
            mb.constraint_velocity(ws, t, q, VecX::Zero(n), b0);
            for (int r = 0; r < m; ++r)
              if (vrow[static_cast<size_t>(r)]) ct[r] = b0[r];
            CHECK((cv - Cd * v - ct).cwiseAbs().maxCoeff() < 1e-7 * std::max(1.0, cv.cwiseAbs().maxCoeff()));

            // γ: d²/ds² C(t + s, q + v s + a s²/2) at s = 0 equals C_q a − γ; for velocity-level
            // rows d/ds (A v + b) along the same path with v + a s.
            VecX gam(m), c0(m);
            mb.gamma(ws, t, q, v, gam);
            const double s = 1e-4;
            VecX qs1 = q + v * s + a * (s * s / 2), qs2 = q - v * s + a * (s * s / 2);
            mb.constraints(ws, t + s, qs1, cp);
            mb.constraints(ws, t - s, qs2, cm);
            mb.constraints(ws, t, q, c0);
            VecX cdd = (cp - 2 * c0 + cm) / (s * s);
            mb.constraint_velocity(ws, t + s, qs1, v + a * s, cp);
            mb.constraint_velocity(ws, t - s, qs2, v - a * s, cm);
            for (int r = 0; r < m; ++r)
              if (vrow[static_cast<size_t>(r)]) cdd[r] = (cp[r] - cm[r]) / (2 * s);
            CHECK((cdd - (Cd * a - gam)).cwiseAbs().maxCoeff() < 1e-5 * std::max(1.0, cdd.cwiseAbs().maxCoeff()));

            // ∂(C_q v)/∂q.
            SparseMatrix Gv = mb.jacobian_pattern();
            mb.assemble_velocity_jacobian(ws, t, q, v, Gv);
            MatX Gfd(m, n);
            for (int k = 0; k < n; ++k) {
              VecX qp = q, qm = q;
              qp[k] += h;
              qm[k] -= h;
              mb.constraint_velocity(ws, t, qp, v, cp);
              mb.constraint_velocity(ws, t, qm, v, cm);
              Gfd.col(k) = (cp - cm) / (2 * h);
            }
            CHECK((MatX(Gv) - Gfd).cwiseAbs().maxCoeff() < 1e-6 * std::max(1.0, Gfd.cwiseAbs().maxCoeff()));

            // Mass matrix = ∂r/∂a; tangent = c_q ∂r/∂q + c_v ∂r/∂v + c_a M against global differences.
            SparseMatrix M = mb.tangent_pattern(), A = mb.tangent_pattern();
            mb.assemble_mass(ws, q, M);
            const double cq = 0.7, cvv = 1.3, ca = 0.4;
            mb.assemble_tangent(ws, t, q, v, a, lam, cq, cvv, ca, A);
            const test::ResidualDifferences rd = test::residual_differences(mb, ws, t, q, v, a, lam, h);
            const MatX& Mfd = rd.da;
            const MatX Tfd = rd.tangent(cq, cvv, ca);
            CHECK((MatX(M) - Mfd).cwiseAbs().maxCoeff() < 1e-7 * std::max(1.0, Mfd.cwiseAbs().maxCoeff()));
            CHECK((MatX(A) - Tfd).cwiseAbs().maxCoeff() < 1e-5 * std::max(1.0, Tfd.cwiseAbs().maxCoeff()));
            // M is symmetric (Eq. 52 pre-multiplied by Gᵀ).
            CHECK((MatX(M) - MatX(M).transpose()).cwiseAbs().maxCoeff() < 1e-12 * MatX(M).cwiseAbs().maxCoeff());

            // forces() = −residual with a = 0, λ = 0.
            VecX f(n), r0(n);
            mb.forces(ws, t, q, v, f);
            mb.residual(ws, t, q, v, VecX::Zero(n), VecX::Zero(m), r0);
            CHECK((f + r0).cwiseAbs().maxCoeff() < 1e-12 * std::max(1.0, f.cwiseAbs().maxCoeff()));
          }
        }
}

TEST_CASE("penalty contacts: tangent, forces and elastic energy match finite differences",
          "[formulation][jacobian][penalty]") {
  // A sphere (body A) and a tilted box (body B) pressed into the ground plane and into each
  // other: sphere–plane, four box corners–plane and box–sphere points, all with penetration and
  // sliding, for every rotation parametrization and both force laws.
  std::mt19937 gen(7);
  for (PenaltyLaw law : {PenaltyLaw::Linear, PenaltyLaw::HuntCrossley})
    for (RotationParametrization pa : kParams)
      for (RotationParametrization pb : kParams)
        DYNAMIC_SECTION(to_string(law) << " " << to_string(pa) << "/" << to_string(pb)) {
          PenaltyParameters pen;
          pen.law = law;
          pen.stiffness = law == PenaltyLaw::Linear ? 1e4 : 1e6;
          if (law == PenaltyLaw::Linear) pen.damping = 10;
          else pen.damping_factor = 0.5;
          pen.friction_velocity = 0.05;
          System s;
          s.gravity = Vec3(0, 0, -9.81);
          RigidBody A = make_body("A", pa, gen), B = make_body("B", pb, gen);
          A.position = Vec3(0, 0, 0.09);
          A.orientation = math::rxyz_to_matrix(Vec3(0.1, -0.2, 0.3));
          A.velocity = rnd3(gen, 0.3);
          A.angular_velocity = rnd3(gen, 1.0);
          B.position = Vec3(0.15, 0, 0.04);
          B.orientation = math::rxyz_to_matrix(Vec3(0.02, 0.05, 0.1));
          B.velocity = rnd3(gen, 0.3);
          B.angular_velocity = rnd3(gen, 1.0);
          s.add_body(A);
          s.add_body(B);
          // Shapes at the bodies' reference points (position 0 in body axes).
          Contact sa = make_sphere("ball", "A", 0.1, 0.4);
          Contact sb = make_box("brick", "B", Vec3(0.1, 0.1, 0.05), 0.6);
          s.add_contact(sa);
          s.add_contact(sb);
          s.add_contact(make_plane("floor", Vec3::UnitZ(), 0.0, 0.5));
          s.contact_penalty = pen;
          const MultibodySystem mb(s);
          auto ws = mb.make_workspace();
          const int n = mb.num_coordinates(), m = mb.num_constraints();
          VecX q(n), v(n);
          mb.initial_state(q, v);
          const VecX a = VecX::NullaryExpr(n, [&]() { return std::normal_distribution<double>(0, 1)(gen); });
          const VecX lam = VecX::NullaryExpr(m, [&]() { return std::normal_distribution<double>(0, 5)(gen); });
          const double t = 0.1, h = 1e-7;
          // The contacts are active: the contact forces make forces() differ from gravity alone.
          VecX f(n), r0(n);
          mb.forces(ws, t, q, v, f);
          mb.residual(ws, t, q, v, VecX::Zero(n), VecX::Zero(m), r0);
          CHECK((f + r0).cwiseAbs().maxCoeff() < 1e-12 * std::max(1.0, f.cwiseAbs().maxCoeff()));
          CHECK(f.segment<3>(0).z() > 0);  // the floor carries the sphere
          // Coupling of A and B (the box–sphere pair) in the pattern, fixed at construction.
          SparseMatrix Ap = mb.tangent_pattern();
          bool coupled = false;
          for (SparseMatrix::InnerIterator it(Ap, mb.body_offset(1)); it; ++it) coupled = coupled || it.row() == 0;
          CHECK(coupled);
          // Tangent against global central differences of the residual.
          SparseMatrix T = mb.tangent_pattern();
          const double cq = 0.7, cvv = 1.3, ca = 0.4;
          mb.assemble_tangent(ws, t, q, v, a, lam, cq, cvv, ca, T);
          const MatX Tfd = test::residual_differences(mb, ws, t, q, v, a, lam, h).tangent(cq, cvv, ca);
          CHECK((MatX(T) - Tfd).cwiseAbs().maxCoeff() < 1e-5 * Tfd.cwiseAbs().maxCoeff());
          // At rest and without friction or damping the contact force is conservative:
          // forces(q, 0) = −∂V/∂q with V = gravity + the elastic energy of the penetrations.
          System s0 = s;
          PenaltyParameters el = pen;
          el.damping = 0;
          if (law == PenaltyLaw::HuntCrossley) el.damping_factor = 0.0;
          s0.contact_penalty = el;
          const MultibodySystem m0(s0);
          auto ws0 = m0.make_workspace();
          const VecX v0 = VecX::Zero(n);
          VecX f0(n), gradV(n);
          m0.forces(ws0, t, q, v0, f0);
          for (int k = 0; k < n; ++k) {
            VecX qp = q, qm = q;
            qp[k] += h;
            qm[k] -= h;
            gradV[k] = (m0.potential_energy(ws0, t, qp) - m0.potential_energy(ws0, t, qm)) / (2 * h);
          }
          CHECK((f0 + gradV).cwiseAbs().maxCoeff() < 1e-5 * f0.cwiseAbs().maxCoeff());
        }
}

TEST_CASE("joint type registry: one entry per type, names and keys consistent", "[model][registry]") {
  std::set<std::string> names;
  for (size_t i = 0; i < joint_types().size(); ++i) {
    const JointTypeInfo& t = joint_types()[i];
    INFO(t.name);
    CHECK(static_cast<size_t>(t.type) == i);
    CHECK(names.insert(t.name).second);
    CHECK(find_joint_type(t.name) == &t);
    CHECK(std::string(to_string(t.type)) == t.name);
    CHECK(std::string(t.summary).size() > 10);
    std::set<std::string> keys;
    for (const JointKey& k : t.keys) CHECK(keys.insert(k.key).second);
    // A drivable type has a coordinate that a drive row can follow.
    if (t.drivable) CHECK(t.coordinate != JointCoordinateKind::None);
  }
  CHECK(find_joint_type("hinge") == nullptr);
}

TEST_CASE("force type registry: one entry per type, names and keys consistent", "[model][registry]") {
  std::set<std::string> names;
  for (size_t i = 0; i < force_types().size(); ++i) {
    const ForceTypeInfo& t = force_types()[i];
    INFO(t.name);
    CHECK(static_cast<size_t>(t.type) == i);
    CHECK(names.insert(t.name).second);
    CHECK(find_force_type(t.name) == &t);
    CHECK(std::string(to_string(t.type)) == t.name);
    // A pairwise type has markers and a law; the user type has neither.
    CHECK((t.markers != nullptr) == t.pairwise);
    CHECK((t.law != nullptr) == t.pairwise);
  }
  CHECK(find_force_type("spring") == nullptr);
}
