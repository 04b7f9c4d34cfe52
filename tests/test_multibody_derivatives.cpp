// Finite-difference checks of every analytic derivative of the rigid-body formulation, for every
// joint type, every rotation parametrization and random states (STYLE item 13; Simbody's
// Constraint.h contract: the velocity error is exactly the time derivative of the position error).

#include <catch2/catch.hpp>

#include <random>

#include <mbdae/formulations/Multibody.h>
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

/// A two-body system: joint "J" of the given type between A and B, a spherical joint to ground.
System make_system(JointType type, RotationParametrization pa, RotationParametrization pb,
                   bool b_is_ground, std::mt19937& g) {
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
  s.add_joint(j);
  if (!b_is_ground) s.add_spherical("S", "ground", "A", rnd3(g));
  Load f;
  f.name = "push";
  f.body = std::string("A");  // (a literal assignment trips GCC 12's false -Wrestrict)
  f.point = rnd3(g, 0.5);
  f.value = rnd3(g, 3.0);
  f.frame = Load::Frame::Body;
  s.add_load(f);
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
  const JointType types[] = {JointType::Spherical, JointType::Revolute, JointType::Prismatic,
                             JointType::Fixed,     JointType::Generic,  JointType::Distance};
  for (JointType type : types)
    for (RotationParametrization pa : kParams)
      for (RotationParametrization pb : kParams)
        for (bool ground : {false, true}) {
          if (ground && pb != RotationParametrization::EulerParameters) continue;
          DYNAMIC_SECTION(to_string(type) << " " << to_string(pa) << "/" << to_string(pb)
                                          << (ground ? " to ground" : "")) {
            const System sys = make_system(type, pa, pb, ground, gen);
            const MultibodySystem mb(sys);
            const int n = mb.num_coordinates(), m = mb.num_constraints();
            VecX q, v, a;
            random_state(mb, gen, q, v, a);
            VecX lam = VecX::NullaryExpr(m, [&]() { return std::normal_distribution<double>(0, 5)(gen); });
            const double t = 0.3;

            // C_q against central differences of C.
            SparseMatrix Cq = mb.jacobian_pattern();
            mb.assemble_jacobian(t, q, Cq);
            const MatX Cd(Cq);
            MatX Cfd(m, n);
            const double h = 1e-6;
            VecX cp(m), cm(m);
            for (int k = 0; k < n; ++k) {
              VecX qp = q, qm = q;
              qp[k] += h;
              qm[k] -= h;
              mb.constraints(t, qp, cp);
              mb.constraints(t, qm, cm);
              Cfd.col(k) = (cp - cm) / (2 * h);
            }
            CHECK((Cd - Cfd).cwiseAbs().maxCoeff() < 1e-7 * std::max(1.0, Cfd.cwiseAbs().maxCoeff()));

            // Ċ = C_q v exactly (no explicit time dependence here).
            VecX cv(m);
            mb.constraint_velocity(t, q, v, cv);
            CHECK((cv - Cd * v).cwiseAbs().maxCoeff() < 1e-12 * std::max(1.0, cv.cwiseAbs().maxCoeff()));

            // γ: d²/dt² C(q + v s + a s²/2) at s = 0 equals C_q a − γ.
            VecX gam(m), c0(m);
            mb.gamma(t, q, v, gam);
            const double s = 1e-4;
            VecX qs1 = q + v * s + a * (s * s / 2), qs2 = q - v * s + a * (s * s / 2);
            mb.constraints(t, qs1, cp);
            mb.constraints(t, qs2, cm);
            mb.constraints(t, q, c0);
            const VecX cdd = (cp - 2 * c0 + cm) / (s * s);
            CHECK((cdd - (Cd * a - gam)).cwiseAbs().maxCoeff() < 1e-5 * std::max(1.0, cdd.cwiseAbs().maxCoeff()));

            // ∂(C_q v)/∂q.
            SparseMatrix Gv = mb.jacobian_pattern();
            mb.assemble_velocity_jacobian(t, q, v, Gv);
            MatX Gfd(m, n);
            for (int k = 0; k < n; ++k) {
              VecX qp = q, qm = q;
              qp[k] += h;
              qm[k] -= h;
              mb.constraint_velocity(t, qp, v, cp);
              mb.constraint_velocity(t, qm, v, cm);
              Gfd.col(k) = (cp - cm) / (2 * h);
            }
            CHECK((MatX(Gv) - Gfd).cwiseAbs().maxCoeff() < 1e-6 * std::max(1.0, Gfd.cwiseAbs().maxCoeff()));

            // Mass matrix = ∂r/∂a; tangent = c_q ∂r/∂q + c_v ∂r/∂v + c_a M against global differences.
            SparseMatrix M = mb.tangent_pattern(), A = mb.tangent_pattern();
            mb.assemble_mass(q, M);
            const double cq = 0.7, cvv = 1.3, ca = 0.4;
            mb.assemble_tangent(t, q, v, a, lam, cq, cvv, ca, A);
            MatX Mfd(n, n), Tfd(n, n);
            VecX rp(n), rm(n);
            for (int k = 0; k < n; ++k) {
              VecX ap = a, am = a, qp = q, qm = q, vp = v, vm = v;
              ap[k] += h;
              am[k] -= h;
              mb.residual(t, q, v, ap, lam, rp);
              mb.residual(t, q, v, am, lam, rm);
              Mfd.col(k) = (rp - rm) / (2 * h);
              Tfd.col(k) = ca * Mfd.col(k);
              qp[k] += h;
              qm[k] -= h;
              mb.residual(t, qp, v, a, lam, rp);
              mb.residual(t, qm, v, a, lam, rm);
              Tfd.col(k) += cq * (rp - rm) / (2 * h);
              vp[k] += h;
              vm[k] -= h;
              mb.residual(t, q, vp, a, lam, rp);
              mb.residual(t, q, vm, a, lam, rm);
              Tfd.col(k) += cvv * (rp - rm) / (2 * h);
            }
            CHECK((MatX(M) - Mfd).cwiseAbs().maxCoeff() < 1e-7 * std::max(1.0, Mfd.cwiseAbs().maxCoeff()));
            CHECK((MatX(A) - Tfd).cwiseAbs().maxCoeff() < 1e-5 * std::max(1.0, Tfd.cwiseAbs().maxCoeff()));
            // M is symmetric (Eq. 52 pre-multiplied by Gᵀ).
            CHECK((MatX(M) - MatX(M).transpose()).cwiseAbs().maxCoeff() < 1e-12 * MatX(M).cwiseAbs().maxCoeff());

            // forces() = −residual with a = 0, λ = 0.
            VecX f(n), r0(n);
            mb.forces(t, q, v, f);
            mb.residual(t, q, v, VecX::Zero(n), VecX::Zero(m), r0);
            CHECK((f + r0).cwiseAbs().maxCoeff() < 1e-12 * std::max(1.0, f.cwiseAbs().maxCoeff()));
          }
        }
}
