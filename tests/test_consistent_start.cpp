// Consistent initial velocities: every solver starts from the velocities a real mechanism takes
// when its joints act impulsively, the change Δv of least kinetic energy (M-weighted projection).
// Hand-computed reference: a rod pinned at one end and pushed sideways at its centre of mass. The
// pin's impulse has no moment about the pin, so the angular momentum about the pin is kept:
// I_pin ω = m (L/2) v0 with I_pin = m L²/3, i.e. ω = 3 v0 / (2 L), and the centre then moves at
// ω L/2 = 3 v0 / 4.

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include <mbdae/io/Run.h>

using namespace mbdae;

TEST_CASE("Initial velocities are projected by the constraint impulse, the same on every path",
          "[run][initial]") {
  const double L = 2.0, v0 = 1.2, m = 3.0;
  const std::string text = R"(bodies:
  - {name: rod, mass: 3.0, inertia: [1.0e-3, 1.0, 1.0, 0, 0, 0], position: [1, 0, 0], velocity: [0, 1.2, 0]}
joints:
  - {name: pin, type: revolute, bodies: [ground, rod], point: [0, 0, 0], axis: [0, 0, 1]}
sensors:
  - {name: w, body: rod, output: angular_velocity}
  - {name: v, body: rod, output: velocity}
solver: {end_time: 0.01, step: 1.0e-3}
output: {every: 0.01}
)";
  // J_zz about the COM of a thin rod is m L²/12 = 1.0 kg m² for m = 3 kg, L = 2 m (as given).
  REQUIRE(m * L * L / 12 == Approx(1.0));
  const double omega = 3 * v0 / (2 * L);
  for (const SolverInfo& s : solvers()) {
    if (!s.support.joints) continue;
    INFO("solver " << s.name);
    const io::LoadedModel model =
        io::load_model_text(text, "rod.yaml", {io::parse_override(std::string("solver.type=") + s.name)});
    io::ModelRun run(model);
    std::vector<double> first;
    (void)run.run([&](const StateView&, std::span<const double> row) {
      if (first.empty()) first.assign(row.begin(), row.end());
      return true;
    });
    REQUIRE(first.size() == 6);
    CHECK(first[2] == Approx(omega).epsilon(1e-12));     // w.z
    CHECK(first[4] == Approx(omega * L / 2).epsilon(1e-12));  // v.y of the COM
    CHECK(std::abs(first[3]) < 1e-12);                     // v.x: no velocity along the rod
  }
}

// A second mechanism: a double pendulum of two equal uniform rods (mass m, length L, J = m L²/12
// about the COM), both along +x from the pivot, started with the lower rod's centre moving
// sideways at v0 and everything else at rest. With the joint angle rates ω1, ω2 as coordinates
// the COM velocities are v1 = ω1 L/2 and v2 = ω1 L + ω2 L/2 (along y), so the kinetic energy gives
// the mass matrix m L² [[4/3, 1/2], [1/2, 1/3]] and the generalized momentum of the given motion
// m v0 L [1, 1/2]. The impulse of least kinetic energy keeps that momentum (Jᵀ M Δv = 0):
//   [4/3 1/2; 1/2 1/3] [ω1; ω2] L = v0 [1; 1/2]  →  ω1 = 3 v0 / (7 L), ω2 = 6 v0 / (7 L),
// and then v1 = 3 v0 / 14, v2 = 6 v0 / 7.
TEST_CASE("Initial velocities of a double pendulum: the hand-computed impulse on every path",
          "[run][initial]") {
  const double L = 1.5, v0 = 0.7, m = 2.0;
  const std::string text = R"(bodies:
  - {name: upper, mass: 2.0, inertia: [1.0e-3, 0.375, 0.375, 0, 0, 0], position: [0.75, 0, 0]}
  - {name: lower, mass: 2.0, inertia: [1.0e-3, 0.375, 0.375, 0, 0, 0], position: [2.25, 0, 0], velocity: [0, 0.7, 0]}
joints:
  - {name: pivot, type: revolute, bodies: [ground, upper], point: [0, 0, 0], axis: [0, 0, 1]}
  - {name: knee, type: revolute, bodies: [upper, lower], point: [1.5, 0, 0], axis: [0, 0, 1]}
sensors:
  - {name: w1, body: upper, output: angular_velocity}
  - {name: w2, body: lower, output: angular_velocity}
  - {name: v1, body: upper, output: velocity}
  - {name: v2, body: lower, output: velocity}
solver: {end_time: 0.01, step: 1.0e-3}
output: {every: 0.01}
)";
  REQUIRE(m * L * L / 12 == Approx(0.375));  // the inertia given above
  const double w1 = 3 * v0 / (7 * L), w2 = 6 * v0 / (7 * L);
  std::vector<double> reference_row;
  for (const SolverInfo& s : solvers()) {
    if (!s.support.joints) continue;
    INFO("solver " << s.name);
    const io::LoadedModel model =
        io::load_model_text(text, "double.yaml", {io::parse_override(std::string("solver.type=") + s.name)});
    io::ModelRun run(model);
    std::vector<double> first;
    (void)run.run([&](const StateView&, std::span<const double> row) {
      if (first.empty()) first.assign(row.begin(), row.end());
      return true;
    });
    REQUIRE(first.size() == 12);
    CHECK(first[2] == Approx(w1).epsilon(1e-12));           // w1.z
    CHECK(first[5] == Approx(w2).epsilon(1e-12));           // w2.z
    CHECK(first[7] == Approx(3 * v0 / 14).epsilon(1e-12));  // v1.y
    CHECK(first[10] == Approx(6 * v0 / 7).epsilon(1e-12));  // v2.y
    for (int i : {0, 1, 3, 4, 6, 8, 9, 11}) CHECK(std::abs(first[static_cast<size_t>(i)]) < 1e-12);
    // Every path gives the same row as the first solver, to round-off.
    if (reference_row.empty()) reference_row = first;
    for (size_t i = 0; i < first.size(); ++i) CHECK(std::abs(first[i] - reference_row[i]) < 1e-13);
  }
}
