// Redundant versus conflicting constraints: prepare() removes an equation that depends on the
// others only if it holds where they hold (positions after assembly, velocities, accelerations);
// an equation that depends on the others but is violated is a conflict, reported naming the joints.

#include <catch2/catch.hpp>

#include <string>

#include <mbdae/io/ModelLoader.h>
#include <mbdae/solvers/Simulation.h>

using namespace mbdae;

namespace {
std::string problems_of(const std::string& text) {
  const io::LoadedModel m = io::load_model_text(text, "conflict.yaml");
  try {
    (void)prepare(m.system);
  } catch (const ModelError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("A joint that cannot close is a conflict, not a redundant equation", "[prepare][conflict]") {
  // A pendulum on a hinge with a rope 2.5 m long to the same pivot while the bob is 1 m away: the
  // rope's equation depends on the hinge's but is violated by 1.5 m.
  const std::string msg = problems_of(R"(gravity: [0, -9.81, 0]
solver: {end_time: 0.1}
bodies:
  - {name: bob, mass: 1.0, inertia: [0.01, 0.01, 0.01, 0, 0, 0], position: [1, 0, 0]}
joints:
  - {name: pivot, type: revolute, bodies: [ground, bob], point: [0, 0, 0], axis: [0, 0, 1]}
  - {name: rope, type: distance, bodies: [ground, bob], point: [0, 0, 0], point_b: [1, 0, 0], distance: 2.5}
)");
  CHECK(msg.find("conflicting constraints: joint 'rope' (distance)") != std::string::npos);
  CHECK(msg.find("position residual -1.5") != std::string::npos);
  CHECK(msg.find("conflicts with joint 'pivot'") != std::string::npos);
}

TEST_CASE("A drive against a locked structure is a conflict", "[prepare][conflict]") {
  const std::string msg = problems_of(R"(solver: {end_time: 0.1}
bodies:
  - {name: bar, mass: 1.0, inertia: [0.01, 0.01, 0.01, 0, 0, 0], position: [0.5, 0, 0]}
joints:
  - {name: motor, type: revolute, bodies: [ground, bar], point: [0, 0, 0], axis: [0, 0, 1], motion: "2*pi*t"}
  - {name: strut, type: fixed, bodies: [ground, bar], point: [0.5, 0, 0]}
)");
  CHECK(msg.find("conflicting constraints: joint 'strut' (fixed)") != std::string::npos);
  CHECK(msg.find("velocity residual") != std::string::npos);
  CHECK(msg.find("conflicts with joint 'motor'") != std::string::npos);
}

TEST_CASE("A consistent redundant equation is still removed with a warning", "[prepare][conflict]") {
  // The same hinge and rope, the rope's length equal to the bob's distance: dependent and satisfied.
  const io::LoadedModel m = io::load_model_text(R"(gravity: [0, -9.81, 0]
solver: {end_time: 0.1}
bodies:
  - {name: bob, mass: 1.0, inertia: [0.01, 0.01, 0.01, 0, 0, 0], position: [1, 0, 0]}
joints:
  - {name: pivot, type: revolute, bodies: [ground, bob], point: [0, 0, 0], axis: [0, 0, 1]}
  - {name: rope, type: distance, bodies: [ground, bob], point: [0, 0, 0], point_b: [1, 0, 0]}
)",
                                                "redundant.yaml");
  const PreparedSystem p = prepare(m.system);
  REQUIRE(p.redundancy.dependent_rows.size() == 1);
  REQUIRE(p.warnings.size() == 1);
  CHECK(p.warnings[0].find("joint 'rope' (distance)") != std::string::npos);
  // The Bricard mechanism (IFToMM A04) keeps its one redundant equation.
  const io::LoadedModel b = io::load_model_file(std::string(MBDAE_TEST_SOURCE_DIR) + "/examples/models/bricard.yaml");
  CHECK(prepare(b.system).redundancy.dependent_rows.size() == 1);
}
