// Joints on the explicit path (acceleration level, Baumgarte 1972; seed 004 ch. 6–7): a spatial
// three-body chain run with RK4 (both the equation system and J M⁻¹ Jᵀ) and compared with the
// implicit generalized-α solver (Arnold & Brüls 2007) through Simulation.h; drift with and without
// stabilization and with projection.

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include <mbdae/solvers/Explicit.h>
#include <mbdae/solvers/Simulation.h>

using namespace mbdae;

namespace {

/// Three rods (1 m, 1 kg, COM at the middle, body x along the rod), horizontal along +x at t0:
/// ground –revolute(y)– rod0 –spherical– rod1 –revolute(y)– rod2. Gravity has a y component so
/// that the spherical joint moves out of the plane. rod1 and rod2 start spinning together about
/// their common axis x (consistent with every joint: the joint points lie on the axis).
System chain() {
  System s;
  s.gravity = Vec3(0, -2.0, -9.81);
  for (int i = 0; i < 3; ++i) {
    RigidBody b;
    b.name = "rod" + std::to_string(i);
    b.mass = 1.0;
    b.inertia << 0.002, 1.0 / 12, 1.0 / 12 + 0.001, 0, 0, 0.0005;  // about the COM (com = 0)
    b.position = Vec3(i + 0.5, 0, 0);
    s.add_body(b);
  }
  s.bodies()[1].angular_velocity = Vec3(3.0, 0, 0);
  s.bodies()[2].angular_velocity = Vec3(3.0, 0, 0);
  s.add_revolute("j0", "ground", "rod0", Vec3(0, 0, 0), Vec3::UnitY());
  s.add_spherical("j1", "rod0", "rod1", Vec3(1, 0, 0));
  s.add_revolute("j2", "rod1", "rod2", Vec3(2, 0, 0), Vec3::UnitY());
  return s;
}

struct Samples {
  std::vector<double> t;
  std::vector<std::array<Vec3, 3>> com;
  std::vector<double> drift;  // ‖C‖∞ at each output
};

Samples run_explicit(const System& s, JointSolveMethod m, double alpha, double beta, double h,
                     double t_end, double every, SolveResult* out = nullptr, bool project = false) {
  NewtonEulerOptions no;
  no.joint_solve = m;
  no.baumgarte_alpha = alpha;
  no.baumgarte_beta = beta;
  NewtonEulerSystem ne(s, no);
  NewtonEulerSystem::Workspace ws = ne.make_workspace();
  VecX q0, v0;
  ne.initial_state(q0, v0);
  ExplicitOptions o;
  o.step = h;
  o.t_end = t_end;
  o.output_every = every;
  o.project_positions = project;
  o.project_velocities = project;
  Samples smp;
  const SolveResult r = solve_explicit(ne, 0, q0, v0, o, [&](const StateView& st) {
    smp.t.push_back(st.t);
    smp.com.push_back({ne.com_position(0, st.q), ne.com_position(1, st.q), ne.com_position(2, st.q)});
    VecX c;
    ne.joint_violation(ws, st.q, c);
    smp.drift.push_back(c.cwiseAbs().maxCoeff());
    return true;
  });
  REQUIRE(r.ok());
  if (out) *out = r;
  return smp;
}

}  // namespace

TEST_CASE("Joint chain: RK4 + Baumgarte agrees with generalized-alpha to 1e-4 over 2 s",
          "[validation][explicit][joints]") {
  const System s = chain();
  // Reference: generalized-α at a small step (second order; ~1e-7 here).
  PreparedSystem p = prepare(s);
  SimulationSettings ss;
  ss.solver = SolverType::GeneralizedAlpha;
  ss.t_end = 2.0;
  ss.step = 1e-4;
  ss.output_every = 0.05;
  ss.rho_inf = 0.9;
  Samples ref;
  const SolveResult rr = simulate(*p.system, 0, p.q0, p.v0, ss, [&](const StateView& st) {
    ref.t.push_back(st.t);
    ref.com.push_back({p.system->position(0, st.q), p.system->position(1, st.q), p.system->position(2, st.q)});
    return true;
  });
  REQUIRE(rr.ok());
  const auto method = GENERATE(JointSolveMethod::Schur, JointSolveMethod::EquationSystem);
  DYNAMIC_SECTION(to_string(method)) {
    SolveResult r;
    const Samples ex = run_explicit(s, method, 20.0, 20.0, 1e-3, 2.0, 0.05, &r);
    REQUIRE(ex.t.size() == ref.t.size());
    double err = 0, travel = 0;
    for (size_t k = 0; k < ex.t.size(); ++k)
      for (int b = 0; b < 3; ++b) {
        err = std::max(err, (ex.com[k][static_cast<size_t>(b)] - ref.com[k][static_cast<size_t>(b)]).cwiseAbs().maxCoeff());
        travel = std::max(travel, (ex.com[k][static_cast<size_t>(b)] - ex.com[0][static_cast<size_t>(b)]).norm());
      }
    INFO("max COM difference RK4 vs generalized-alpha " << err << " m (bodies travel up to " << travel
                                                        << " m); drift " << r.stats.max_position_violation);
    CHECK(travel > 1.0);  // the chain really moves
    CHECK(err < 1e-4);
    CHECK(r.stats.max_position_violation < 1e-6);
  }
}

TEST_CASE("Equation system and J M^-1 J^T give the same motion", "[validation][explicit][joints]") {
  const System s = chain();
  const Samples a = run_explicit(s, JointSolveMethod::Schur, 10, 10, 2e-3, 1.0, 0.1);
  const Samples b = run_explicit(s, JointSolveMethod::EquationSystem, 10, 10, 2e-3, 1.0, 0.1);
  double d = 0;
  for (size_t k = 0; k < a.t.size(); ++k)
    for (size_t i = 0; i < 3; ++i) d = std::max(d, (a.com[k][i] - b.com[k][i]).cwiseAbs().maxCoeff());
  INFO("difference " << d);
  CHECK(d < 1e-10);
}

TEST_CASE("Constraint drift over 100 s: bounded with Baumgarte, none with projection, growing without",
          "[validation][explicit][joints][long]") {
  const System s = chain();
  SolveResult plain, stab, proj;
  const Samples a = run_explicit(s, JointSolveMethod::Schur, 0, 0, 1e-3, 100.0, 1.0, &plain);
  const Samples b = run_explicit(s, JointSolveMethod::Schur, 20, 20, 1e-3, 100.0, 1.0, &stab);
  run_explicit(s, JointSolveMethod::Schur, 0, 0, 1e-3, 100.0, 1.0, &proj, true);
  auto window_max = [](const Samples& x, double t0, double t1) {
    double m = 0;
    for (size_t k = 0; k < x.t.size(); ++k)
      if (x.t[k] >= t0 && x.t[k] <= t1) m = std::max(m, x.drift[k]);
    return m;
  };
  const double b_early = window_max(b, 0, 10), b_late = window_max(b, 90, 100);
  const double a_early = window_max(a, 0, 10), a_late = window_max(a, 90, 100);
  INFO("max |C| over 100 s: unstabilized " << plain.stats.max_position_violation << " (0-10 s: " << a_early
                                          << ", 90-100 s: " << a_late << "), Baumgarte "
                                          << stab.stats.max_position_violation << " (0-10 s: " << b_early
                                          << ", 90-100 s: " << b_late << "), projection "
                                          << proj.stats.max_position_violation << "; max |dC/dt|: "
                                          << plain.stats.max_velocity_violation << ", "
                                          << stab.stats.max_velocity_violation << ", "
                                          << proj.stats.max_velocity_violation);
  // Bounded: the late drift is no larger than (twice) the early one, while the unstabilized drift grows.
  CHECK(b_late < 2 * b_early);
  CHECK(stab.stats.max_position_violation < 1e-6);
  CHECK(a_late > 10 * a_early);
  CHECK(proj.stats.max_position_violation < 1e-11);
  CHECK(proj.stats.max_velocity_violation < 1e-11);
  CHECK(plain.stats.max_position_violation > 100 * stab.stats.max_position_violation);
}
