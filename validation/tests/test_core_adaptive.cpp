// Adaptive generalized-α and trapezoidal rule: the local error estimate keeps the global error in
// step with the requested tolerance (ADAMS revolute pendulum, exact solution from the closed form).

#include <catch2/catch.hpp>

#include <cmath>

#include <mbdae/solvers/Simulation.h>
#include <mbdae/validation/Analytic.h>
#include <mbdae/validation/References.h>

using namespace mbdae;
namespace ja = mbdae::validation::refs::joints_adams;

namespace {
struct Outcome {
  double max_err = 0;
  long steps = 0, rejected = 0;
};

Outcome run(SolverType type, double rtol) {
  System s;
  s.gravity = Vec3(0, 0, -ja::kGravity);
  RigidBody b;
  b.name = "rod";
  b.mass = ja::kMass;
  b.inertia << ja::kInertiaCom[0], ja::kInertiaCom[1], ja::kInertiaCom[2], 0, 0, 0;
  b.position = Vec3(2, 0, 0);
  s.add_body(b);
  s.add_revolute("pivot", "ground", "rod", Vec3::Zero(), Vec3::UnitY());
  PreparedSystem p = prepare(s);
  const auto exact = validation::Pendulum::Libration(ja::revolute1::kOmega0, M_PI / 2);
  SimulationSettings st;
  st.solver = type;
  st.adaptive = true;
  st.rtol = rtol;
  st.atol = rtol;
  st.step = 1e-3;  // first step
  st.t_end = 5.0;
  st.output_every = 0.25;
  st.rho_inf = 0.9;
  Outcome o;
  const SolveResult r = simulate(*p.system, 0, p.q0, p.v0, st, [&](const StateView& x) {
    const auto e = exact.CalcState(x.t);
    const Vec3 com(2 * std::sin(e.phi), 0, -2 * std::cos(e.phi));
    o.max_err = std::max(o.max_err, (p.system->position(0, x.q) - com).cwiseAbs().maxCoeff());
    return true;
  });
  REQUIRE(r.ok());
  o.steps = r.stats.steps;
  o.rejected = r.stats.rejected_steps;
  return o;
}
}  // namespace

TEST_CASE("adaptive Newmark-family steps: the error follows the tolerance", "[validation][adaptive]") {
  const auto type = GENERATE(SolverType::GeneralizedAlpha, SolverType::TrapezoidalIndex2);
  DYNAMIC_SECTION(to_string(type)) {
    const Outcome a = run(type, 1e-5), b = run(type, 1e-7), c = run(type, 1e-9);
    INFO("errors " << a.max_err << ", " << b.max_err << ", " << c.max_err << "; steps " << a.steps
                   << ", " << b.steps << ", " << c.steps << "; rejected " << a.rejected << ", "
                   << b.rejected << ", " << c.rejected);
    // A local error ∝ h³ controlled to tol gives a global error ∝ tol^(2/3): a factor 100 in the
    // tolerance is a factor ~21.5 in the error. Require at least 10 per factor 100, and the
    // step count to grow like tol^(-1/3) (~4.6 per factor 100; at least 3).
    CHECK(b.max_err < a.max_err / 10);
    CHECK(c.max_err < b.max_err / 10);
    CHECK(b.steps > 3 * a.steps);
    CHECK(c.steps > 3 * b.steps);
    // And the error is of the order of the tolerance scaled over the run (5 s, ~1.5 periods):
    // below 100·tol^(2/3) (the constant of the estimate is not known in advance).
    CHECK(c.max_err < 100 * std::pow(1e-9, 2.0 / 3.0));
  }
}
