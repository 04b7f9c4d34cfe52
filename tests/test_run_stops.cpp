// Checks that stop a run, tried against correct runs that come near their thresholds: a correct
// model must not be stopped (validation/run_stops.md lists every such check, its threshold and
// why, and the test of each).

#include <catch2/catch.hpp>

#include <cmath>
#include <span>
#include <string>
#include <vector>

#include <mbdae/io/Run.h>
#include <mbdae/solvers/SolverRegistry.h>
#include <mbdae/solvers/SolverSettings.h>
#include <mbdae/solvers/StepBudget.h>

using namespace mbdae;
using namespace mbdae::io;

TEST_CASE("IDA's step limit: a correct pendulum at rtol 1e-10 runs 1100 s (over 500,000 steps) to the end",
          "[stops]") {
  if (!find_solver("ida")) return;
  // IFToMM A01: a 1 kg bob on a 1 m massless link released horizontal (here a body with 1e-6 kg m²
  // about its centre, so I_O = 1 + 1e-6 kg m²). Closed form (Jacobi elliptic functions): with
  // k = sin(pi/4), m = k², w0 = sqrt(g / I_O), K = K(m): sin(theta/2) = k sn(K − w0 t | m), theta from
  // the downward vertical, bob at (sin theta, −cos theta). Evaluated with mpmath (ellipk,
  // ellipfun('sn'), 30 digits) at t = 1100 s: (−0.9957842741914398, −0.091726110094277).
  // IDA took 500,000 steps by t = 1000.6 s, where its former step limit (500,000 steps over the
  // whole run) stopped this run with "mxstep steps taken".
  const std::string text = R"(gravity: [0, -9.81, 0]
bodies:
  - {name: bob, mass: 1.0, inertia: [1.0e-6, 1.0e-6, 1.0e-6, 0, 0, 0], position: [1, 0, 0]}
joints:
  - {name: pivot, type: revolute, bodies: [ground, bob], point: [0, 0, 0], axis: [0, 0, 1]}
sensors:
  - {name: bob, body: bob, output: position}
solver: {type: ida, end_time: 1100, tolerance: {relative: 1.0e-10, absolute: 1.0e-12}}
output: {every: 10}
)";
  const LoadedModel m = load_model_text(text, "a01.yaml");
  ModelRun r(m);
  std::vector<double> last;
  double t_last = 0;
  const SolveResult res = r.run([&](const StateView& s, std::span<const double> row) {
    t_last = s.t;
    last.assign(row.begin(), row.end());
    return true;
  });
  INFO(res.message);
  REQUIRE(res.ok());
  CHECK(res.stats.steps > 500000);
  CHECK(t_last == 1100.0);
  REQUIRE(last.size() >= 2);
  const double ex = -0.9957842741914398, ey = -0.091726110094277;
  INFO("bob at (" << last[0] << ", " << last[1] << "), closed form (" << ex << ", " << ey << ")");
  CHECK(std::hypot(last[0] - ex, last[1] - ey) < 1e-5);
}

TEST_CASE("Step limits: a fixed-step run the loader takes is not stopped part-way by the solvers' step limit",
          "[stops]") {
  // The loader takes end_time / step up to 1e9; the integrators stopped at 1e8 accepted steps
  // ("step limit reached"), so a correct run of 5e8 steps would have stopped at a fifth of its time.
  const std::string text = R"(gravity: [0, -9.81, 0]
bodies:
  - {name: bob, mass: 1.0, inertia: [1.0e-6, 1.0e-6, 1.0e-6, 0, 0, 0], position: [1, 0, 0]}
solver: {end_time: 500, step: 1.0e-6}
output: {every: 1.0e-3}
)";
  const LoadedModel m = load_model_text(text, "steps.yaml");
  const double steps = 500 / 1.0e-6, rows = 500 / 1.0e-3 + 1;
  CHECK(step_budget(m.settings) >= steps + rows);
  SimulationSettings s = m.settings;
  s.solver = SolverType::RK4;
  CHECK(explicit_options(s, true).max_steps >= steps + rows);
  s.solver = SolverType::LieRK4;
  CHECK(lie_group_options(s).max_steps >= steps + rows);
  s.solver = SolverType::Impulse;
  CHECK(impulse_options(s).max_steps >= steps + rows);
  // Never below the former fixed limit (a short run with adaptive steps keeps its room).
  RunSettings small;
  small.t_end = 1;
  small.step = 1e-3;
  CHECK(step_budget(small) == 100'000'000);
}
