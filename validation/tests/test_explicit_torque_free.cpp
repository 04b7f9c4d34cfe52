// Torque-free asymmetric rigid body (Landau & Lifshitz §37, reference/analytic.md) through the
// explicit integrators: Newton–Euler RK4 / Dormand–Prince and Lie-group Euler / RKMK4 on SE(3) and
// SO(3)×R³. Measured convergence orders, invariants (energy, spatial angular momentum) and the
// closed form validation::TorqueFreeBody.
//
// The body's axes are deliberately NOT principal (J_B = P diag(I) Pᵀ with a fixed rotation P), so
// Euler's equations run with a full inertia tensor; the closed form is evaluated in principal axes
// (w_P = Pᵀ w_B).

#include <catch2/catch.hpp>

#include <cmath>

#include <mbdae/model/math/Rotation.h>
#include <mbdae/solvers/Explicit.h>
#include <mbdae/validation/Analytic.h>

using namespace mbdae;

namespace {

const Vec3 kI(1.0, 2.0, 3.0);                    // principal moments, kg m²
const Vec3 kW0_P(1.0, 0.2, 2.0);                // Ω(0) in principal axes, rad/s (M² > 2E I2)
Mat3 principal_axes() { return math::rot_z(0.3) * math::rot_x(-0.7) * math::rot_y(0.2); }

System torque_free_body() {
  const Mat3 P = principal_axes();
  const Mat3 J = P * kI.asDiagonal() * P.transpose();
  System s;
  RigidBody b;
  b.name = "body";
  b.mass = 2.0;
  b.inertia << J(0, 0), J(1, 1), J(2, 2), J(1, 2), J(0, 2), J(0, 1);
  b.orientation = math::rot_x(0.4) * math::rot_z(-1.1);  // arbitrary initial attitude
  b.position = Vec3(0.5, -0.2, 1.0);
  b.velocity = Vec3(0.3, 0.1, -0.2);
  b.angular_velocity = b.orientation * (P * kW0_P);  // world axes
  s.add_body(b);
  return s;
}

/// Error at t_end against the closed form: max of |w_P − Ω_exact|∞ and, for the orientation,
/// |R(t) J_B w_B,exact(t) − L0| (the spatial angular momentum is constant, so this vanishes only if
/// R(t) is right up to a rotation about L0).
double combined_error(const Mat3& R, const Vec3& w_B, double t) {
  const Mat3 P = principal_axes();
  const Mat3 J = P * kI.asDiagonal() * P.transpose();
  const validation::TorqueFreeBody exact(kI, kW0_P);
  const System s = torque_free_body();
  const Mat3& R0 = s.bodies()[0].orientation;
  const Vec3 L0 = R0 * J * (P * kW0_P);
  const Vec3 w_exact_B = P * exact.Calc_w_B(t);
  const double e_w = (P.transpose() * w_B - exact.Calc_w_B(t)).cwiseAbs().maxCoeff();
  const double e_R = (R * J * w_exact_B - L0).norm();
  return std::max(e_w, e_R);
}

double ne_error(ExplicitMethod m, double h, double t_end) {
  const System s = torque_free_body();
  NewtonEulerSystem ne(s);
  VecX q0, v0;
  ne.initial_state(q0, v0);
  ExplicitOptions o;
  o.method = m;
  o.step = h;
  o.t_end = t_end;
  o.rtol = 1e-12;
  o.atol = 1e-14;
  double err = -1;
  const SolveResult r = solve_explicit(ne, 0, q0, v0, o, [&](const StateView& st) {
    if (st.t == t_end) err = combined_error(ne.rotation(0, st.q), ne.angular_velocity_body(0, st.v), st.t);
    return true;
  });
  REQUIRE(r.ok());
  return err;
}

double lie_error(LieGroupType g, LieGroupMethod m, double h, double t_end) {
  const System s = torque_free_body();
  LieGroupBodies lb(s, g);
  LieGroupOptions o;
  o.method = m;
  o.step = h;
  o.t_end = t_end;
  double err = -1;
  const SolveResult r = solve_lie_group(lb, 0, lb.initial_state(), o, [&](const StateView& st) {
    if (st.t == t_end) err = combined_error(math::so3_exp(st.q.segment<3>(3)), st.v.segment<3>(3), st.t);
    return true;
  });
  REQUIRE(r.ok());
  return err;
}

}  // namespace

TEST_CASE("Newton-Euler RK4 converges at order 4 to the torque-free closed form",
          "[validation][explicit][torque_free]") {
  const double T = 2.0;
  const double e1 = ne_error(ExplicitMethod::RK4, 0.04, T);
  const double e2 = ne_error(ExplicitMethod::RK4, 0.02, T);
  const double e3 = ne_error(ExplicitMethod::RK4, 0.01, T);
  const double p1 = std::log2(e1 / e2), p2 = std::log2(e2 / e3);
  INFO("RK4 errors " << e1 << " " << e2 << " " << e3 << ", slopes " << p1 << " " << p2);
  CHECK(p2 > 3.8);
  CHECK(p2 < 4.2);
  CHECK(p1 > 3.7);
  // Dormand–Prince with tight tolerances matches the closed form to its tolerance level.
  const double ed = ne_error(ExplicitMethod::Dopri5, 0.01, T);
  INFO("Dopri5 error " << ed);
  CHECK(ed < 1e-9);
}

TEST_CASE("Lie-group RKMK4 converges at order 4, Lie-group Euler at order 1",
          "[validation][explicit][lie_group][torque_free]") {
  const auto g = GENERATE(LieGroupType::SE3, LieGroupType::SO3xR3);
  DYNAMIC_SECTION(to_string(g)) {
    const double T = 2.0;
    const double e1 = lie_error(g, LieGroupMethod::RK4, 0.04, T);
    const double e2 = lie_error(g, LieGroupMethod::RK4, 0.02, T);
    const double e3 = lie_error(g, LieGroupMethod::RK4, 0.01, T);
    const double p2 = std::log2(e2 / e3);
    INFO("RKMK4 errors " << e1 << " " << e2 << " " << e3 << ", slopes " << std::log2(e1 / e2) << " " << p2);
    CHECK(p2 > 3.8);
    CHECK(p2 < 4.2);
    const double f1 = lie_error(g, LieGroupMethod::Euler, 0.002, T);
    const double f2 = lie_error(g, LieGroupMethod::Euler, 0.001, T);
    INFO("Lie Euler errors " << f1 << " " << f2 << ", slope " << std::log2(f1 / f2));
    CHECK(std::log2(f1 / f2) > 0.9);
    CHECK(std::log2(f1 / f2) < 1.1);
  }
}

TEST_CASE("Energy and spatial angular momentum are conserved to 1e-8 over 10 s at h = 1e-3",
          "[validation][explicit][torque_free][invariants]") {
  const System s = torque_free_body();
  const validation::TorqueFreeBody exact(kI, kW0_P);
  const Mat3 P = principal_axes();
  SECTION("Newton-Euler RK4") {
    NewtonEulerSystem ne(s);
    NewtonEulerSystem::Workspace ws = ne.make_workspace();
    VecX q0, v0;
    ne.initial_state(q0, v0);
    const double E0 = ne.energy(ws, q0, v0);
    const Vec3 L0 = ne.angular_momentum(q0, v0);
    double dE = 0, dL = 0, dw = 0, dQ = 0;
    ExplicitOptions o;
    o.step = 1e-3;
    o.t_end = 10;
    o.output_every = 0.1;
    const SolveResult r = solve_explicit(ne, 0, q0, v0, o, [&](const StateView& st) {
      dE = std::max(dE, std::abs(ne.energy(ws, st.q, st.v) - E0) / std::abs(E0));
      dL = std::max(dL, (ne.angular_momentum(st.q, st.v) - L0).norm() / L0.norm());
      dw = std::max(dw, (P.transpose() * ne.angular_velocity_body(0, st.v) - exact.Calc_w_B(st.t)).cwiseAbs().maxCoeff());
      dQ = std::max(dQ, std::abs(ne.quaternion(0, st.q).norm() - 1));
      return true;
    });
    REQUIRE(r.ok());
    INFO("rel. energy drift " << dE << ", rel. momentum drift " << dL << ", max |w - exact| " << dw
                              << ", ||Q|-1| " << dQ);
    CHECK(dE < 1e-8);
    CHECK(dL < 1e-8);
    CHECK(dw < 1e-8);
    CHECK(dQ < 1e-14);  // renormalised after every step
    CHECK(r.stats.steps == 10000);
  }
  SECTION("Lie-group RKMK4 on SE(3) and SO(3)xR3") {
    for (LieGroupType g : {LieGroupType::SE3, LieGroupType::SO3xR3}) {
      LieGroupBodies lb(s, g);
      LieGroupState s0 = lb.initial_state(), s1;
      const double E0 = lb.energy(s0);
      const Vec3 L0 = lb.angular_momentum(s0);
      LieGroupOptions o;
      o.step = 1e-3;
      o.t_end = 10;
      const SolveResult r = solve_lie_group(lb, 0, s0, o, nullptr, &s1);
      REQUIRE(r.ok());
      const double dE = std::abs(lb.energy(s1) - E0) / E0;
      const double dL = (lb.angular_momentum(s1) - L0).norm() / L0.norm();
      const double dw = (P.transpose() * Vec3(s1.xi.head<3>()) - exact.Calc_w_B(10)).cwiseAbs().maxCoeff();
      const double orth = (s1.g[0].R.transpose() * s1.g[0].R - Mat3::Identity()).cwiseAbs().maxCoeff();
      INFO(to_string(g) << ": rel. energy drift " << dE << ", momentum drift " << dL << ", w error " << dw
                        << ", |RᵀR - I| " << orth);
      CHECK(dE < 1e-8);
      CHECK(dL < 1e-8);
      CHECK(dw < 1e-8);
      CHECK(orth < 1e-13);  // stays on SO(3) by construction
      // The COM moves uniformly.
      CHECK((s1.g[0].p - (s0.g[0].p + 10 * lb.com_velocity(s0, 0))).norm() < 1e-10);
    }
  }
}
