// Problems raised after loading (System::problems(), the formulations, prepare(), a run's setup)
// carry a reference to their item; LoadedModel::locate() maps it to its place in the file without
// reading the message.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <mbdae/formulations/Multibody.h>
#include <mbdae/io/ModelLoader.h>
#include <mbdae/io/Run.h>
#include <mbdae/solvers/Simulation.h>

using namespace mbdae;
using namespace mbdae::io;

namespace {

std::string model_path(const std::string& relative) { return std::string(MBDAE_TEST_SOURCE_DIR) + "/" + relative; }

RigidBody unit_body(const std::string& name, const Vec3& position) {
  RigidBody b;
  b.name = name;
  b.mass = 1.0;
  b.inertia << 0.1, 0.1, 0.1, 0, 0, 0;
  b.position = position;
  return b;
}

// Items of every kind; the loads and force elements share `forces:`, a sphere_plane contact is two
// shapes of System::contacts().
const char* kEveryKind = R"(name: every kind
gravity: [0, -9.81, 0]
bodies:
  - {name: a, mass: 1, inertia: [0.1, 0.1, 0.1, 0, 0, 0], position: [0, 1, 0]}
  - {name: b, mass: 1, inertia: [0.1, 0.1, 0.1, 0, 0, 0], position: [1, 1, 0]}
joints:
  - {name: J0, type: revolute, bodies: [ground, a], point: [0, 2, 0], axis: [0, 0, 1]}
  - {name: J1, type: spherical, bodies: [a, b], point: [0.5, 1, 0]}
forces:
  - {name: push, type: force, body: a, value: [1, 0, 0]}
  - {name: spring, type: spring_damper, bodies: [a, b], points: [[0, 1, 0], [1, 1, 0]], stiffness: 10}
  - {name: twist, type: torque, body: b, value: [0, 0, 1]}
contacts:
  - {type: sphere_plane, body: a, radius: 0.1, plane: {point: [0, 0, 0], normal: [0, 1, 0]}}
  - {type: sphere, body: b, radius: 0.1}
sensors:
  - {name: pa, body: a, output: position}
  - {name: pb, body: b, output: position}
solver: {type: impulse, end_time: 0.1, step: 1.0e-3}
)";

}  // namespace

TEST_CASE("model: System::problems() names the item of every problem", "[io][problems]") {
  System s;
  s.add_body(unit_body("a", Vec3(0, 1, 0)));
  RigidBody b = unit_body("b", Vec3(1, 1, 0));
  b.mass = -1;
  s.add_body(b);
  s.add_revolute("J0", "ground", "a", Vec3(0, 2, 0), Vec3::UnitZ());
  s.add_revolute("J1", "a", "b", Vec3(0.5, 1, 0), Vec3::Zero());
  Load l;
  l.name = "push";
  l.body = "nowhere";
  s.add_load(l);
  s.add_spring_damper("S", "a", "a", Vec3(0, 1, 0), Vec3(1, 1, 0), 10, 0);

  const std::vector<ModelProblem> p = s.problems();
  REQUIRE(p.size() == 4);
  CHECK(p[0].item == ItemRef::body(1));
  CHECK(p[0].message == "body 'b': mass must be > 0, got -1");
  CHECK(p[1].item == ItemRef::joint(1));
  CHECK(p[1].message == "joint 'J1': axis has zero length");
  CHECK(p[2].item == ItemRef::load(0));
  CHECK(p[2].message == "force 'push': unknown body 'nowhere'");
  CHECK(p[3].item == ItemRef::force(0));
  CHECK(p[3].message == "spring_damper 'S': both ends are on the same body 'a'");

  // check() and ModelError::problems() keep giving the messages; details() adds the items.
  const std::vector<std::string> messages = s.check();
  REQUIRE(messages.size() == p.size());
  for (size_t i = 0; i < p.size(); ++i) CHECK(messages[i] == p[i].message);
  try {
    s.validate();
    FAIL("validate() did not throw");
  } catch (const ModelError& e) {
    CHECK(e.problems() == messages);
    REQUIRE(e.details().size() == p.size());
    for (size_t i = 0; i < p.size(); ++i) {
      CHECK(e.details()[i].item == p[i].item);
      CHECK(e.details()[i].message == p[i].message);
    }
  }
  // A ModelError made from messages alone is about no item.
  const ModelError plain({"something"});
  REQUIRE(plain.details().size() == 1);
  CHECK_FALSE(plain.details()[0].item);
  CHECK(std::string(plain.what()) == "something");
  CHECK(std::string(to_string(ItemRef::Kind::Contact)) == "contact");
}

TEST_CASE("model: the implicit formulation's contact problems name the contact", "[io][problems]") {
  System s;
  s.add_body(unit_body("a", Vec3(0, 1, 0)));
  Contact sphere;
  sphere.name = "ball";
  sphere.shape = ShapeType::Sphere;
  sphere.body = "a";
  sphere.radius = 0.1;
  sphere.penalty = PenaltyParameters{};
  sphere.penalty->stiffness = 1e5;
  Contact floor;
  floor.name = "floor";
  floor.shape = ShapeType::Plane;
  floor.body = "ground";
  floor.normal = Vec3::UnitY();
  floor.restitution = 2;  // out of range
  s.add_contact(sphere);
  s.add_contact(floor);
  try {
    MultibodySystem mb(s);
    FAIL("no ModelError");
  } catch (const ModelError& e) {
    REQUIRE_FALSE(e.details().empty());
    CHECK(e.details()[0].item == ItemRef::contact(1));
    CHECK_THAT(e.details()[0].message, Catch::StartsWith("contact 'floor': restitution must be in [0, 1]"));
  }
  // A contact on a body the model does not have: named, not an exception about a name alone.
  s.contacts()[1].restitution = 0;
  s.contacts()[0].body = "nowhere";
  try {
    MultibodySystem mb(s);
    FAIL("no ModelError");
  } catch (const ModelError& e) {
    REQUIRE(e.details().size() == 1);
    CHECK(e.details()[0].item == ItemRef::contact(0));
    CHECK(e.details()[0].message == "contact 'ball': unknown body 'nowhere'");
  }
}

TEST_CASE("io: a problem's item reference locates it in the file, whatever its message says", "[io][problems]") {
  const LoadedModel m = load_model_text(kEveryKind, "m.yaml");
  REQUIRE(m.system.loads().size() == 2);
  REQUIRE(m.system.forces().size() == 1);
  REQUIRE(m.system.contacts().size() == 3);  // sphere_plane: sphere and plane; sphere
  auto at = [&](ItemRef item) { return m.locate({"a message that names nothing", item}); };
  CHECK(at(ItemRef::body(1)).key_path == "bodies[1]");
  CHECK(at(ItemRef::body(1)).line == 5);
  CHECK(at(ItemRef::joint(1)).key_path == "joints[1]");
  CHECK(at(ItemRef::joint(1)).line == 8);
  CHECK(at(ItemRef::load(0)).key_path == "forces[0]");
  CHECK(at(ItemRef::load(1)).key_path == "forces[2]");
  CHECK(at(ItemRef::force(0)).key_path == "forces[1]");
  CHECK(at(ItemRef::contact(0)).key_path == "contacts[0]");
  CHECK(at(ItemRef::contact(1)).key_path == "contacts[0]");  // the plane of the sphere_plane item
  CHECK(at(ItemRef::contact(2)).key_path == "contacts[1]");
  CHECK(at(ItemRef::sensor(1)).key_path == "sensors[1]");
  CHECK(at(ItemRef::sensor(1)).line == 18);
  const Diagnostic d = at(ItemRef::joint(0));
  CHECK(d.file == "m.yaml");
  CHECK(d.column == 5);
  CHECK(d.message == "a message that names nothing");
  // The message's text is not read: a message naming joint 'J1' about body a stays at body a.
  CHECK(m.locate({"joint 'J1': something", ItemRef::body(0)}).key_path == "bodies[0]");
  // No item, or an item the file does not define: the file, without line.
  for (const ItemRef& none : {ItemRef{}, ItemRef::joint(2), ItemRef::sensor(-1)}) {
    const Diagnostic f = at(none);
    CHECK(f.file == "m.yaml");
    CHECK(f.line == 0);
    CHECK(f.key_path.empty());
    CHECK(m.find_location(none) == nullptr);
  }
}

TEST_CASE("io: an item set by --set is located at the override", "[io][problems]") {
  const LoadedModel m = load_model_text(kEveryKind, "m.yaml", {parse_override("joints[1].point=[0.5, 1, 0]")});
  const Diagnostic d = m.locate({"x", ItemRef::joint(1)});
  CHECK(d.key_path == "joints[1]");
  CHECK(d.line == 8);  // the item itself is in the file; only its point came from the override
  const LoadedModel o = load_model_text(kEveryKind, "m.yaml",
                                        {parse_override("joints[1]={name: J1, type: spherical, bodies: [a, b], "
                                                        "point: [0.5, 1, 0]}")});
  CHECK(o.locate({"x", ItemRef::joint(1)}).file ==
        "--set joints[1]={name: J1, type: spherical, bodies: [a, b], point: [0.5, 1, 0]}");
}

TEST_CASE("io: failures of a run's setup point at their item", "[io][problems]") {
  SECTION("an initial assembly that cannot close: the worst equation's body") {
    const LoadedModel m = load_model_file(model_path("tests/bad_models/unsatisfiable_assembly.yaml"));
    try {
      ModelRun run(m);
      FAIL("no ItemError");
    } catch (const ItemError& e) {
      CHECK(e.item() == ItemRef::body(0));
      CHECK_THAT(e.what(), Catch::StartsWith("initial assembly failed: assembly did not converge"));
      const Diagnostic d = m.locate({e.what(), e.item()});
      CHECK(d.key_path == "bodies[0]");
      CHECK(d.line == 5);
    }
  }
  SECTION("a redundant equation removed: the warning points at its joint") {
    const LoadedModel m = load_model_file(model_path("examples/models/bricard.yaml"));
    const PreparedSystem p = prepare(m.system);
    REQUIRE(p.warnings.size() == p.warning_items.size());
    REQUIRE(p.warnings.size() >= 1);
    CHECK_THAT(p.warnings[0], Catch::StartsWith("redundant constraints"));
    CHECK(p.warning_items[0] == ItemRef::joint(5));
    CHECK(p.warning_items[0] == p.system->all_row_item(p.redundancy.dependent_rows[0]));
    const ModelRun run(m);
    REQUIRE(run.warnings().size() == run.warning_items().size());
    CHECK(m.locate({run.warnings()[0], run.warning_items()[0]}).key_path == "joints[5]");
  }
  SECTION("a singular joint system on the explicit path: the dependent joint") {
    const LoadedModel m = load_model_file(model_path("examples/models/bricard.yaml"), {{"solver.type", "rk4"}});
    try {
      ModelRun run(m);
      FAIL("no ItemError");
    } catch (const ItemError& e) {
      CHECK(e.item() == ItemRef::joint(5));
      CHECK_THAT(e.what(), Catch::Contains("singular (redundant joints?)"));
    }
  }
}
