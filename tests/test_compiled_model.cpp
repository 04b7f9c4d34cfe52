// The compiled model (CompiledModel.h): one set of tables, built once, read by every formulation.
// Checked here: its tables against values worked out independently from the model (inertia about
// the centre of mass of a box given about an offset reference point, markers in body axes, the
// loads of each body, the combined contact material); the formulations built from one compiled
// model share it and give, to the bit, what they gave when each derived its tables itself; the
// impulse stepper's joint elements do not leak into the compiled model the explicit path reads.

#include <catch2/catch.hpp>

#include <cmath>
#include <memory>

#include <mbdae/formulations/CompiledModel.h>
#include <mbdae/formulations/LieGroupBodies.h>
#include <mbdae/mbdae.h>

using namespace mbdae;

namespace {

constexpr double kMass = 2.0;
const Vec3 kHalf(0.3, 0.05, 0.02);  // box half sizes, m
const Vec3 kCom(0.25, 0.02, -0.01);  // COM from the reference point, body axes, m

/// Inertia of the solid box about its centre: m/3 (b² + c²), … (half sizes a, b, c).
Mat3 box_inertia_com() {
  const double a = kHalf.x(), b = kHalf.y(), c = kHalf.z();
  return Vec3(kMass / 3 * (b * b + c * c), kMass / 3 * (a * a + c * c), kMass / 3 * (a * a + b * b)).asDiagonal();
}

/// A pendulum arm on a pin with friction and a stop, a bob on a ball joint at its tip pulled by a
/// spring, a torque on the arm, a controller state reading the bob, a ball and a floor.
System model() {
  System s;
  s.gravity = Vec3(0, -9.81, 0);
  RigidBody arm;
  arm.name = "arm";
  arm.mass = kMass;
  arm.com = kCom;
  // About the reference point (Steiner): J_O = J_C + m (|b|² I − b bᵀ).
  const Mat3 J = box_inertia_com() + kMass * (kCom.squaredNorm() * Mat3::Identity() - kCom * kCom.transpose());
  arm.inertia << J(0, 0), J(1, 1), J(2, 2), J(1, 2), J(0, 2), J(0, 1);
  arm.position = Vec3(0.1, 0, 0);
  arm.angular_velocity = Vec3(0, 0, 1.5);
  s.add_body(arm);
  RigidBody bob;
  bob.name = "bob";
  bob.mass = 0.5;
  bob.inertia << 1e-3, 1e-3, 1e-3, 0, 0, 0;
  bob.position = Vec3(0.7, 0, 0);
  bob.velocity = Vec3(0, 0.9, 0);
  s.add_body(bob);
  s.add_revolute("pin", "ground", "arm", Vec3(0, 0, 0), Vec3(0, 0, 1));
  s.add_spherical("tip", "arm", "bob", Vec3(0.6, 0, 0));
  ForceElement& fr = s.add_joint_friction("pin_friction", "pin");
  fr.friction = 0.3;
  fr.normal_force = 40;
  fr.radius = 0.02;
  fr.viscous_rotation = 0.01;
  s.add_joint_limit("pin_stop", "pin", -2.0, 2.0, 1e4, 10);
  s.add_spring_damper("pull", "ground", "bob", Vec3(0.7, 1.0, 0), Vec3(0.7, 0, 0), 50, 0.5, 0.8);
  Load tq;
  tq.name = "drive";
  tq.kind = Load::Kind::Torque;
  tq.body = "arm";
  tq.value = Vec3(0, 0, 0.7);
  s.add_load(tq);
  ControllerState z;
  z.name = "height";
  z.bodies = {"bob"};
  z.derivative = [](double, std::span<const BodyMotion> b, std::span<const double>) { return b[0].p.y(); };
  s.add_controller_state(z);
  Contact ball;
  ball.name = "ball";
  ball.body = "bob";
  ball.shape = ShapeType::Sphere;
  ball.radius = 0.05;
  ball.friction = 0.4;
  ball.restitution = 0.2;
  ball.rolling_resistance = 0.01;
  Contact floor;
  floor.name = "floor";
  floor.shape = ShapeType::Plane;
  floor.normal = Vec3(0, 1, 0);
  floor.offset = -1.0;
  floor.friction = 0.9;
  floor.restitution = 0.5;
  floor.torsional_friction = 0.003;
  PenaltyParameters pen;
  pen.stiffness = 1e5;
  floor.penalty = pen;
  s.add_contact(ball);
  s.add_contact(floor);
  return s;
}

/// A state near the initial one, with every coordinate moved a little (positions, velocities).
void perturbed(VecX& q, VecX& v, double scale) {
  for (Eigen::Index i = 0; i < q.size(); ++i) q[i] += scale * std::sin(1.7 * static_cast<double>(i) + 0.3);
  for (Eigen::Index i = 0; i < v.size(); ++i) v[i] += scale * std::cos(0.9 * static_cast<double>(i) + 0.1);
}

}  // namespace

TEST_CASE("compiled model: its tables against the model worked out independently", "[compiled]") {
  const System s = model();
  const CompiledModel cm(s);
  REQUIRE(cm.bodies().size() == 2);
  const CompiledModel::Body& arm = cm.bodies()[0];
  CHECK(arm.name == "arm");
  CHECK(arm.mass == kMass);
  CHECK((arm.inertia_com - box_inertia_com()).cwiseAbs().maxCoeff() <= 1e-15);
  CHECK((arm.inertia_com * arm.inertia_com_inv - Mat3::Identity()).cwiseAbs().maxCoeff() <= 1e-12);
  CHECK(arm.loads == std::vector<int>{0});
  CHECK(cm.bodies()[1].loads.empty());
  REQUIRE(cm.joints().size() == 2);
  const CompiledModel::Joint& tip = cm.joints()[1];
  CHECK(tip.a == 0);
  CHECK(tip.b == 1);
  // The tip (0.6, 0, 0) from the arm's reference point (0.1, 0, 0), identity orientation: (0.5, 0, 0);
  // from its centre of mass, minus b; from the bob's reference point (0.7, 0, 0): (−0.1, 0, 0).
  CHECK((tip.at_reference.xa - Vec3(0.5, 0, 0)).norm() <= 1e-15);
  CHECK((tip.at_com.xa - (Vec3(0.5, 0, 0) - kCom)).norm() <= 1e-15);
  CHECK((tip.at_reference.xb - Vec3(-0.1, 0, 0)).norm() <= 1e-15);
  CHECK(cm.joint_index("tip") == 1);
  CHECK(cm.joint_index("none") == -1);
  REQUIRE(cm.forces().size() == 3);
  CHECK(cm.forces()[0].bodies == std::vector<BodyIndex>{kGround, 0});
  CHECK(cm.forces()[2].bodies == std::vector<BodyIndex>{kGround, 1});
  CHECK((cm.forces()[2].geometry.xb - Vec3(0, 0, 0)).norm() <= 1e-15);  // the bob's reference point
  CHECK((cm.forces()[2].geometry.xa - Vec3(0.7, 1.0, 0)).norm() <= 1e-15);  // ground: world
  REQUIRE(cm.controllers().size() == 1);
  CHECK(cm.controllers()[0].bodies == std::vector<BodyIndex>{1});
  REQUIRE(cm.shapes().size() == 2);
  CHECK(cm.shapes()[0].body == std::optional<BodyIndex>(1));
  CHECK(cm.shapes()[1].body == std::optional<BodyIndex>(kGround));
  const ContactMaterial m = cm.material(0, 1);
  CHECK(std::abs(m.friction - std::sqrt(0.4 * 0.9)) <= 1e-15);  // geometric mean, the default rule
  CHECK(m.restitution == 0.5);                                   // the larger, the default rule
  CHECK(m.rolling_resistance == 0.01);
  CHECK(m.torsional_friction == 0.003);
}

TEST_CASE("compiled model: formulations built from one share it and match their own derivation to the bit",
          "[compiled]") {
  const System s = model();
  const std::shared_ptr<const CompiledModel> cm = compile(s);
  MultibodyOptions mo;
  const MultibodySystem shared(cm, mo), own(s, mo);
  CHECK(shared.compiled().get() == cm.get());
  CHECK(&shared.model() == &cm->system());
  CHECK(own.compiled() != cm);
  const int n = shared.num_coordinates(), m = shared.num_constraints();
  REQUIRE(own.num_coordinates() == n);
  REQUIRE(own.num_constraints() == m);
  VecX q(n), v(n);
  shared.initial_state(q, v);
  perturbed(q, v, 1e-2);
  VecX a = VecX::LinSpaced(n, -1.0, 2.0), lambda = VecX::LinSpaced(m, 0.5, -0.5);
  VecX r1(n), r2(n), c1(m), c2(m), g1(m), g2(m);
  auto ws1 = shared.make_workspace();
  auto ws2 = own.make_workspace();
  shared.residual(ws1, 0.3, q, v, a, lambda, r1);
  own.residual(ws2, 0.3, q, v, a, lambda, r2);
  shared.constraints(ws1, 0.3, q, c1);
  own.constraints(ws2, 0.3, q, c2);
  shared.gamma(ws1, 0.3, q, v, g1);
  own.gamma(ws2, 0.3, q, v, g2);
  CHECK(r1.cwiseAbs().maxCoeff() > 0);
  CHECK(c1.cwiseAbs().maxCoeff() > 0);
  CHECK(r1 == r2);
  CHECK(c1 == c2);
  CHECK(g1 == g2);
  SparseMatrix t1 = shared.tangent_pattern(), t2 = own.tangent_pattern();
  shared.assemble_tangent(ws1, 0.3, q, v, a, lambda, 1.0, 0.5, 0.25, t1);
  own.assemble_tangent(ws2, 0.3, q, v, a, lambda, 1.0, 0.5, 0.25, t2);
  REQUIRE(t1.nonZeros() == t2.nonZeros());
  CHECK(VecX(Eigen::Map<const VecX>(t1.valuePtr(), t1.nonZeros())) ==
        VecX(Eigen::Map<const VecX>(t2.valuePtr(), t2.nonZeros())));

  // The explicit path: without the contacts (it takes none), a Newton–Euler system on the same
  // compiled model, against one that compiled the model itself.
  System sn = s;
  sn.contacts().clear();
  const std::shared_ptr<const CompiledModel> cn = compile(sn);
  const NewtonEulerSystem ne_shared(cn), ne_own(sn);
  CHECK(ne_shared.compiled().get() == cn.get());
  VecX qn, vn;
  ne_shared.initial_state(qn, vn);
  VecX qd1, vd1, qd2, vd2;
  auto nw1 = ne_shared.make_workspace();
  auto nw2 = ne_own.make_workspace();
  ne_shared.derivative(nw1, 0.2, qn, vn, qd1, vd1);
  ne_own.derivative(nw2, 0.2, qn, vn, qd2, vd2);
  CHECK(vd1.cwiseAbs().maxCoeff() > 0);
  CHECK(qd1 == qd2);
  CHECK(vd1 == vd2);
}

TEST_CASE("compiled model: the impulse stepper's joint elements stay its own", "[compiled]") {
  System s = model();
  s.contacts().clear();
  const std::shared_ptr<const CompiledModel> cm = compile(s);
  NewtonEulerOptions by_impulses;
  by_impulses.joint_elements_by_impulses = true;
  const NewtonEulerSystem impulse(cm, by_impulses), expl(cm);
  for (const ForceElement& f : cm->system().forces()) CHECK_FALSE(f.by_impulses);
  VecX q, v;
  expl.initial_state(q, v);
  VecX f_imp, f_expl;
  auto w1 = impulse.make_workspace();
  auto w2 = expl.make_workspace();
  impulse.applied_forces(w1, 0.0, q, v, f_imp);
  expl.applied_forces(w2, 0.0, q, v, f_expl);
  // The arm turns at ω = 1.5 rad/s about z (its body z is the world's): the explicit path has
  // the regularized Coulomb torque −μ N r tanh(r ω / v_ε) on it, the impulse path leaves it to its
  // Gauss–Seidel; the viscous part and everything else are in both. (The stop is not reached.)
  const double w = 1.5, coulomb = 0.3 * 40 * 0.02 * std::tanh(0.02 * w / 1e-3);
  VecX diff = f_expl - f_imp;
  CHECK(std::abs(diff[5] + coulomb) <= 1e-12 * coulomb);
  diff[5] = 0;
  CHECK(diff.cwiseAbs().maxCoeff() <= 1e-12);
}

TEST_CASE("compiled model: a formulation refuses a null compiled model", "[compiled]") {
  const std::shared_ptr<const CompiledModel> none;
  CHECK_THROWS_AS(MultibodySystem(none), std::invalid_argument);
  CHECK_THROWS_AS(NewtonEulerSystem(none), std::invalid_argument);
  CHECK_THROWS_AS(LieGroupBodies(none), std::invalid_argument);
  CHECK_THROWS_AS(prepare(none), std::invalid_argument);
}
