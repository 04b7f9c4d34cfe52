// Consistent initial velocities: every solver starts from the velocities a real mechanism takes
// when its joints act impulsively, the change Δv of least kinetic energy (M-weighted projection).
// Hand-computed reference: a rod pinned at one end and pushed sideways at its centre of mass. The
// pin's impulse has no moment about the pin, so the angular momentum about the pin is kept:
// I_pin ω = m (L/2) v0 with I_pin = m L²/3, i.e. ω = 3 v0 / (2 L), and the centre then moves at
// ω L/2 = 3 v0 / 4.

#include <catch2/catch.hpp>

#include <cmath>

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
