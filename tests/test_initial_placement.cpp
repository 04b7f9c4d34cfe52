// Joint-coordinate initial conditions (place_from_joint_coordinates, the loader's `initial:`):
// models drawn in one configuration and given joint coordinates against the same models posed by
// hand at the closed-form positions and velocities of those coordinates.

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <string>

#include <Eigen/Geometry>

#include <mbdae/io/ModelLoader.h>
#include <mbdae/solvers/InitialPlacement.h>
#include <mbdae/solvers/Simulation.h>

using namespace mbdae;
using namespace mbdae::io;

namespace {

std::string g(double x) {
  char b[40];
  std::snprintf(b, sizeof b, "%.17g", x);
  return b;
}
std::string v3(const Vec3& v) { return "[" + g(v.x()) + ", " + g(v.y()) + ", " + g(v.z()) + "]"; }
Mat3 rz(double a) { return Eigen::AngleAxisd(a, Vec3::UnitZ()).toRotationMatrix(); }
/// ez × (x, y)
Vec3 perp(const Vec3& r) { return Vec3(-r.y(), r.x(), 0); }

double body_difference(const RigidBody& a, const RigidBody& b) {
  return std::max({(a.position - b.position).cwiseAbs().maxCoeff(), (a.orientation - b.orientation).cwiseAbs().maxCoeff(),
                   (a.velocity - b.velocity).cwiseAbs().maxCoeff(),
                   (a.angular_velocity - b.angular_velocity).cwiseAbs().maxCoeff()});
}

/// Largest difference of the bodies' poses and velocities and of the joints' points and axes (a
/// generic joint's frame by its third axis, the one its x, y rows are normal to).
double system_difference(const System& a, const System& b) {
  REQUIRE(a.bodies().size() == b.bodies().size());
  REQUIRE(a.joints().size() == b.joints().size());
  double d = 0;
  for (size_t i = 0; i < a.bodies().size(); ++i) d = std::max(d, body_difference(a.bodies()[i], b.bodies()[i]));
  for (size_t k = 0; k < a.joints().size(); ++k) {
    const Joint &x = a.joints()[k], &y = b.joints()[k];
    d = std::max({d, (x.point - y.point).cwiseAbs().maxCoeff(), (x.axis - y.axis).cwiseAbs().maxCoeff()});
    d = std::max(d, (x.frame.value_or(Mat3::Identity()).col(2) - y.frame.value_or(Mat3::Identity()).col(2)).cwiseAbs().maxCoeff());
  }
  return d;
}

std::string body(const std::string& name, double mass, const std::string& box, const Vec3& p, double angle,
                 const Vec3& v = Vec3::Zero(), double w = 0, bool posed = true) {
  std::string s = "  - {name: " + name + ", mass: " + g(mass) + ", shape: {box: " + box + "}, position: " + v3(p);
  if (posed) s += ", orientation: {axis: [0, 0, 1], angle: " + g(angle) + "}, velocity: " + v3(v) +
                  ", angular_velocity: [0, 0, " + g(w) + "]";
  return s + "}\n";
}

// ---- double pendulum: two 1 m rods, drawn along +x ------------------------------------------------
std::string double_pendulum_drawn(double t1, double w1, double t2, double w2) {
  return "name: double pendulum\ngravity: [0, -9.81, 0]\nbodies:\n" +
         body("upper", 1, "[1.0, 0.04, 0.04]", {0.5, 0, 0}, 0, Vec3::Zero(), 0, false) +
         body("lower", 1, "[1.0, 0.04, 0.04]", {1.5, 0, 0}, 0, Vec3::Zero(), 0, false) +
         "joints:\n"
         "  - {name: shoulder, type: revolute, bodies: [ground, upper], point: [0, 0, 0], axis: [0, 0, 1], initial: {angle: " +
         g(t1) + ", rate: " + g(w1) + "}}\n" +
         "  - {name: elbow, type: revolute, bodies: [upper, lower], point: [1, 0, 0], axis: [0, 0, 1], initial: {angle: " +
         g(t2) + ", rate: " + g(w2) + "}}\n" + "solver: {end_time: 0.1, step: 1.0e-3}\n";
}
/// The same posed by hand: rod i at absolute angle φ_i, rates Ω_i.
std::string double_pendulum_posed(double t1, double w1, double t2, double w2) {
  const double f1 = t1, f2 = t1 + t2, W1 = w1, W2 = w1 + w2;
  const Vec3 e1(std::cos(f1), std::sin(f1), 0), e2(std::cos(f2), std::sin(f2), 0);
  const Vec3 p1 = 0.5 * e1, E = e1, p2 = E + 0.5 * e2;
  const Vec3 v1 = W1 * perp(p1), v2 = W1 * perp(E) + W2 * perp(0.5 * e2);
  return "name: double pendulum\ngravity: [0, -9.81, 0]\nbodies:\n" +
         body("upper", 1, "[1.0, 0.04, 0.04]", p1, f1, v1, W1) + body("lower", 1, "[1.0, 0.04, 0.04]", p2, f2, v2, W2) +
         "joints:\n"
         "  - {name: shoulder, type: revolute, bodies: [ground, upper], point: [0, 0, 0], axis: [0, 0, 1]}\n" +
         "  - {name: elbow, type: revolute, bodies: [upper, lower], point: " + v3(E) + ", axis: [0, 0, 1]}\n" +
         "solver: {end_time: 0.1, step: 1.0e-3}\n";
}

// ---- slider-crank: crank r = 0.2, rod L = 0.6, slider on the x axis; drawn along +x --------------
constexpr double kR = 0.2, kL = 0.6;
const char* kSliderCrankTail =
    "  - {name: crank_pin, type: revolute, bodies: [crank, rod], point: PIN, axis: [0, 0, 1]}\n"
    "  - {name: wrist_pin, type: generic, bodies: [rod, slider], point: WRIST, constrained: [1, 1, 0, 0, 0, 0]}\n"
    "  - {name: guide, type: prismatic, bodies: [ground, slider], point: WRIST, axis: [1, 0, 0]}\n"
    "solver: {end_time: 0.1, step: 1.0e-3}\n";
std::string replace_all(std::string s, const std::string& what, const std::string& with) {
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + with.size())) s.replace(p, what.size(), with);
  return s;
}
std::string slider_crank_drawn(const std::string& initial) {
  return "name: slider-crank\ngravity: [0, -9.81, 0]\nbodies:\n" +
         body("crank", 0.5, "[0.2, 0.03, 0.02]", {0.1, 0, 0}, 0, Vec3::Zero(), 0, false) +
         body("rod", 1.0, "[0.6, 0.03, 0.02]", {0.5, 0, 0}, 0, Vec3::Zero(), 0, false) +
         body("slider", 2.0, "[0.1, 0.05, 0.05]", {0.8, 0, 0}, 0, Vec3::Zero(), 0, false) +
         "joints:\n  - {name: main_bearing, type: revolute, bodies: [ground, crank], point: [0, 0, 0], axis: [0, 0, 1]" +
         initial + "}\n" + replace_all(replace_all(kSliderCrankTail, "PIN", "[0.2, 0, 0]"), "WRIST", "[0.8, 0, 0]");
}
/// Closed form: crank pin B = r (cos θ, sin θ), slider x = r cos θ + sqrt(L² − r² sin² θ).
std::string slider_crank_posed(double th, double w) {
  const double s = std::sin(th), c = std::cos(th), root = std::sqrt(kL * kL - kR * kR * s * s);
  const Vec3 B(kR * c, kR * s, 0), C(kR * c + root, 0, 0);
  const double phi = std::atan2(C.y() - B.y(), C.x() - B.x());
  const Vec3 Bd = w * perp(B);
  const double xd = -kR * s * w - kR * kR * s * c * w / root;
  const double phid = -kR * c * w / (kL * std::cos(phi));  // from L sin φ = −r sin θ
  const Vec3 Cd(xd, 0, 0);
  return "name: slider-crank\ngravity: [0, -9.81, 0]\nbodies:\n" +
         body("crank", 0.5, "[0.2, 0.03, 0.02]", 0.5 * B, th, w * perp(0.5 * B), w) +
         body("rod", 1.0, "[0.6, 0.03, 0.02]", 0.5 * (B + C), phi, 0.5 * (Bd + Cd), phid) +
         body("slider", 2.0, "[0.1, 0.05, 0.05]", C, 0, Cd, 0) +
         "joints:\n  - {name: main_bearing, type: revolute, bodies: [ground, crank], point: [0, 0, 0], axis: [0, 0, 1]}\n" +
         // The guide's point may be any point of its line; the placed model keeps the drawn one
         // (carried with the ground), the wrist pin's moves with the rod.
         replace_all(replace_all(replace_all(kSliderCrankTail, "PIN", v3(B)), "point: WRIST, axis", "point: [0.8, 0, 0], axis"),
                     "WRIST", v3(C));
}

// ---- four-bar: A (0, 0), D (1, −0.5); drawn with the crank AB up (B (0, 0.3)), the coupler BC
// along +x (C (1, 0.3)), the rocker DC up; crank 0.3, coupler 1.0, rocker 0.8, frame √1.25 ----------
constexpr double kCrank = 0.3, kCoupler = 1.0, kRocker = 0.8;
const Vec3 kD(1.0, -0.5, 0);
struct FourBar {
  Vec3 B, C, Bd;
  double crank, coupler, rocker;     // rotations of the bars from where they are drawn, rad
  double w_crank, w_coupler, w_rocker;  // rad/s
};
/// Circle intersection for C (|C − B| = coupler, |C − D| = rocker) on the side it is drawn, and the
/// velocity closure Ḃ + ω_c ez × (C − B) = ω_r ez × (C − D) solved for ω_c, ω_r.
FourBar four_bar(double th, double w) {
  FourBar f;
  f.B = kCrank * Vec3(-std::sin(th), std::cos(th), 0);
  const Vec3 BD = kD - f.B;
  const double d = BD.norm(), a = (kCoupler * kCoupler - kRocker * kRocker + d * d) / (2 * d);
  const double h = std::sqrt(kCoupler * kCoupler - a * a);
  f.C = f.B + a * BD / d + h * perp(BD) / d;
  f.crank = th;
  f.coupler = std::atan2(f.C.y() - f.B.y(), f.C.x() - f.B.x());
  f.rocker = std::atan2(f.C.y() - kD.y(), f.C.x() - kD.x()) - M_PI / 2;
  f.w_crank = w;
  f.Bd = w * perp(f.B);
  Eigen::Matrix2d M;
  const Vec3 u = perp(f.C - f.B), r = perp(f.C - kD);
  M << u.x(), -r.x(), u.y(), -r.y();
  const Eigen::Vector2d x = M.partialPivLu().solve(Eigen::Vector2d(-f.Bd.x(), -f.Bd.y()));
  f.w_coupler = x[0];
  f.w_rocker = x[1];
  return f;
}
/// `pin_c`: the coupler–rocker joint ("generic" x, y only, or "revolute": then 3 equations of
/// the planar loop are redundant); the initial coordinates of A, B, C, D as given.
std::string four_bar_text(bool posed, double th, double w, const std::string& pin_c, const std::string iA,
                          const std::string& iB = "", const std::string& iC = "", const std::string& iD = "") {
  const FourBar f = posed ? four_bar(th, w) : four_bar(0, 0);
  const Vec3 pc = 0.5 * (f.B + f.C), pr = 0.5 * (f.C + kD);
  std::string s = "name: four-bar\ngravity: [0, -9.81, 0]\nbodies:\n";
  s += body("crank", 0.3, "[0.02, 0.3, 0.02]", 0.5 * f.B, f.crank, f.w_crank * perp(0.5 * f.B), f.w_crank, posed);
  s += body("coupler", 1.0, "[1.0, 0.02, 0.02]", pc, f.coupler, f.Bd + f.w_coupler * perp(pc - f.B), f.w_coupler, posed);
  s += body("rocker", 0.8, "[0.02, 0.8, 0.02]", pr, f.rocker, f.w_rocker * perp(pr - kD), f.w_rocker, posed);
  const std::string pin = pin_c == "generic" ? "type: generic, constrained: [1, 1, 0, 0, 0, 0]" : "type: revolute, axis: [0, 0, 1]";
  s += "joints:\n";
  s += "  - {name: A, type: revolute, bodies: [ground, crank], point: [0, 0, 0], axis: [0, 0, 1]" + iA + "}\n";
  s += "  - {name: B, type: revolute, bodies: [crank, coupler], point: " + v3(f.B) + ", axis: [0, 0, 1]" + iB + "}\n";
  s += "  - {name: C, " + pin + ", bodies: [coupler, rocker], point: " + v3(f.C) + iC + "}\n";
  s += "  - {name: D, type: revolute, bodies: [ground, rocker], point: " + v3(kD) + ", axis: [0, 0, 1]" + iD + "}\n";
  return s + "solver: {end_time: 0.1, step: 1.0e-3}\n";
}
std::string angle(double a, double r) { return ", initial: {angle: " + g(a) + ", rate: " + g(r) + "}"; }

std::string load_error(const std::string& text) {
  try {
    (void)load_model_text(text, "m.yaml");
  } catch (const LoadError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("initial placement: a double pendulum given by joint coordinates is the hand-posed one", "[placement]") {
  for (const auto& [t1, w1, t2, w2] : {std::array<double, 4>{0.3, 1.5, 0.7, -2.0}, std::array<double, 4>{-2.5, 0, 3.0, 4.0}}) {
    const LoadedModel a = load_model_text(double_pendulum_drawn(t1, w1, t2, w2), "drawn.yaml");
    const LoadedModel b = load_model_text(double_pendulum_posed(t1, w1, t2, w2), "posed.yaml");
    CHECK(a.placement.placed);
    CHECK(a.placement.bodies_placed == 2);
    CHECK(a.placement.loops.empty());
    CHECK(!b.placement.placed);
    CHECK(system_difference(a.system, b.system) <= 1e-12);
  }
  // --set and the model without initial coordinates: nothing moves.
  const std::string text = double_pendulum_drawn(0, 0, 0, 0);
  const LoadedModel c = load_model_text(text, "m.yaml", {{"joints[0].initial.angle", "0.3"}, {"joints[1].initial.rate", "2"}});
  const LoadedModel d = load_model_text(double_pendulum_posed(0.3, 0, 0, 2), "posed.yaml");
  CHECK(system_difference(c.system, d.system) <= 1e-12);
}

TEST_CASE("initial placement: spherical, prismatic and cylindrical coordinates against closed forms", "[placement]") {
  // A rod hanging from a ball joint, turned by 0.4 rad about x and spinning at ω (world axes: its
  // parent is the ground).
  const std::string ball = R"(name: ball
gravity: [0, -9.81, 0]
bodies:
  - {name: rod, mass: 1, shape: {box: [0.02, 1, 0.02]}, position: [0, -0.5, 0]}
joints:
  - {name: ball, type: spherical, bodies: [ground, rod], point: [0, 0, 0],
     initial: {rotation: {axis: [1, 0, 0], angle: 0.4}, angular_velocity: [0, 0.5, 1]}}
solver: {end_time: 0.1}
)";
  const LoadedModel m = load_model_text(ball, "ball.yaml");
  const Mat3 R = Eigen::AngleAxisd(0.4, Vec3::UnitX()).toRotationMatrix();
  const RigidBody& rod = m.system.bodies()[0];
  const Vec3 w(0, 0.5, 1), p = R * Vec3(0, -0.5, 0);
  CHECK((rod.position - p).norm() <= 1e-15);
  CHECK((rod.orientation - R).norm() <= 1e-15);
  CHECK((rod.angular_velocity - w).norm() <= 1e-15);
  CHECK((rod.velocity - w.cross(p)).norm() <= 1e-15);

  // A carriage on a slide along (1, 1, 0)/√2 carrying an arm on a cylindrical joint along z.
  const std::string slide = R"(name: slide
bodies:
  - {name: carriage, mass: 1, shape: {box: [0.2, 0.2, 0.2]}, position: [0, 0, 0]}
  - {name: arm, mass: 1, shape: {box: [0.5, 0.02, 0.02]}, position: [0.25, 0, 0]}
joints:
  - {name: slide, type: prismatic, bodies: [ground, carriage], point: [0, 0, 0], axis: [1, 1, 0],
     initial: {displacement: 0.3, speed: -0.2}}
  - {name: sleeve, type: cylindrical, bodies: [carriage, arm], point: [0, 0, 0], axis: [0, 0, 1],
     initial: {angle: 0.8, rate: 3, displacement: 0.1, speed: 0.5}}
solver: {end_time: 0.1}
)";
  const LoadedModel s = load_model_text(slide, "slide.yaml");
  const Vec3 e = Vec3(1, 1, 0).normalized(), c = 0.3 * e, pa = c + Vec3(0, 0, 0.1) + rz(0.8) * Vec3(0.25, 0, 0);
  const RigidBody &car = s.system.bodies()[0], &arm = s.system.bodies()[1];
  CHECK((car.position - c).norm() <= 1e-15);
  CHECK((car.velocity - (-0.2) * e).norm() <= 1e-15);
  CHECK((arm.position - pa).norm() <= 1e-15);
  CHECK((arm.orientation - rz(0.8)).norm() <= 1e-15);
  CHECK((arm.angular_velocity - Vec3(0, 0, 3)).norm() <= 1e-15);
  CHECK((arm.velocity - (-0.2 * e + Vec3(0, 0, 0.5) + Vec3(0, 0, 3).cross(pa - c))).norm() <= 1e-14);
  // The joints moved with their first body: the sleeve's point is on the carriage.
  CHECK((s.system.joints()[1].point - c).norm() <= 1e-15);
}

TEST_CASE("initial placement: a slider-crank given its crank angle closes to the closed form", "[placement]") {
  for (const auto& [th, w] : {std::pair{1.1, 3.0}, std::pair{2.5, -1.0}, std::pair{-2.0, 0.5}, std::pair{4.0, 10.0}}) {
    INFO("crank angle " << th);
    const LoadedModel a = load_model_text(slider_crank_drawn(angle(th, w)), "drawn.yaml");
    const LoadedModel b = load_model_text(slider_crank_posed(th, w), "posed.yaml");
    REQUIRE(a.placement.loops.size() == 1);
    CHECK(a.placement.loops[0].size() == 4);
    CHECK(system_difference(a.system, b.system) <= 1e-12);
    // The crank is held at its coordinate: the closure does not move it.
    CHECK(a.placement.moved[0].body == "crank");
    CHECK(a.placement.moved[0].rotation <= 1e-12);
    // And the placed model is consistent: prepare() has nothing left to move.
    const PreparedSystem p = prepare(a.system);
    CHECK(p.assembly.position_change <= 1e-12);
    CHECK(p.assembly.velocity_change <= 1e-12);
  }
}

TEST_CASE("initial placement: a four-bar given one crank angle assembles to the circle intersection", "[placement]") {
  for (const std::string pin : {"generic", "revolute"})
    for (const auto& [th, w] : {std::pair{1.0, 2.0}, std::pair{-2.2, -1.0}, std::pair{3.0, 0.0}, std::pair{5.5, 4.0}}) {
      INFO(pin << ", crank angle " << th);
      const LoadedModel a = load_model_text(four_bar_text(false, th, w, pin, angle(th, w)), "drawn.yaml");
      const LoadedModel b = load_model_text(four_bar_text(true, th, w, pin, ""), "posed.yaml");
      CHECK(system_difference(a.system, b.system) <= 1e-12);
      const FourBar f = four_bar(th, w);
      // The other joints' angles, as a hand posing them would read them.
      const Mat3 Rc = a.system.bodies()[1].orientation, Rr = a.system.bodies()[2].orientation;
      CHECK(std::abs(std::remainder(std::atan2(Rc(1, 0), Rc(0, 0)) - f.coupler, 2 * M_PI)) <= 1e-12);
      CHECK(std::abs(std::remainder(std::atan2(Rr(1, 0), Rr(0, 0)) - f.rocker, 2 * M_PI)) <= 1e-12);
    }
  // The sanity of the closed form: at θ = 0 it is the drawn configuration.
  const FourBar f0 = four_bar(0, 0);
  CHECK((f0.C - Vec3(1.0, 0.3, 0)).norm() <= 1e-15);
}

TEST_CASE("initial placement: all four angles of a four-bar, consistent or not", "[placement]") {
  const double th = 1.0, w = 2.0;
  const FourBar f = four_bar(th, w);
  // Relative angles and rates: B coupler from crank, C rocker from coupler, D rocker from ground.
  const double aB = f.coupler - f.crank, aC = f.rocker - f.coupler, aD = f.rocker;
  const double rB = f.w_coupler - f.w_crank, rC = f.w_rocker - f.w_coupler, rD = f.w_rocker;
  const std::string posed = four_bar_text(true, th, w, "revolute", "");
  const LoadedModel b = load_model_text(posed, "posed.yaml");
  const LoadedModel a = load_model_text(
      four_bar_text(false, th, w, "revolute", angle(th, w), angle(aB, rB), angle(aC, rC), angle(aD, rD)), "all.yaml");
  CHECK(system_difference(a.system, b.system) <= 1e-12);
  // One of them off by 0.01 rad: refused, naming the loop.
  const std::string e =
      load_error(four_bar_text(false, th, w, "revolute", angle(th, w), angle(aB + 0.01, rB), angle(aC, rC), angle(aD, rD)));
  INFO(e);
  CHECK(e.find("cannot close at the given joint coordinates") != std::string::npos);
  for (const char* j : {"'A'", "'B'", "'C'", "'D'"}) CHECK(e.find(j) != std::string::npos);
  // A rate off by 0.1 rad/s likewise.
  const std::string ev =
      load_error(four_bar_text(false, th, w, "revolute", angle(th, w), angle(aB, rB), angle(aC, rC + 0.1), angle(aD, rD)));
  CHECK(ev.find("cannot close") != std::string::npos);
  CHECK(ev.find("rates contradict") != std::string::npos);
}

TEST_CASE("initial placement: an unreachable crank angle is refused naming the loop and the residual", "[placement]") {
  // A triple rocker (crank 0.8, coupler 0.5, rocker 0.6, frame 1): the crank reaches at most
  // acos(0.26875) = 1.2985 rad (|BD| = coupler + rocker).
  auto text = [](double th) {
    return "name: triple rocker\nbodies:\n"
           "  - {name: crank, mass: 1, shape: {box: [0.8, 0.02, 0.02]}, position: [0.4, 0, 0]}\n"
           "  - {name: coupler, mass: 1, shape: {box: [0.02, 0.5, 0.02]}, position: [0.8, 0.25, 0]}\n"
           "  - {name: rocker, mass: 1, inertia: [0.01, 0.01, 0.02, 0, 0, 0], position: [0.9, 0.2, 0]}\n"
           "joints:\n"
           "  - {name: A, type: revolute, bodies: [ground, crank], point: [0, 0, 0], axis: [0, 0, 1], initial: {angle: " +
           g(th) + "}}\n" +
           "  - {name: B, type: revolute, bodies: [crank, coupler], point: [0.8, 0, 0], axis: [0, 0, 1]}\n"
           "  - {name: C, type: generic, bodies: [coupler, rocker], point: [0.8, 0.5, 0], constrained: [1, 1, 0, 0, 0, 0]}\n"
           "  - {name: D, type: revolute, bodies: [ground, rocker], point: [1, 0, 0], axis: [0, 0, 1]}\n"
           "solver: {end_time: 0.1}\n";
  };
  // Drawn: B (0.8, 0), C (0.8, 0.5), D (1, 0): |CD|² = 0.04 + 0.25, rocker sqrt(0.29).
  const double rocker = std::sqrt(0.29), reach = std::acos((0.64 + 1 - std::pow(0.5 + rocker, 2)) / 1.6);
  CHECK_NOTHROW(load_model_text(text(0.97 * reach), "m.yaml"));
  const std::string e = load_error(text(1.03 * reach));
  INFO(e);
  CHECK(e.find("m.yaml:") != std::string::npos);
  CHECK(e.find("the loop of joints 'A', 'B', 'C', 'D' cannot close at the given joint coordinates") != std::string::npos);
  CHECK(e.find("residual") != std::string::npos);
}

TEST_CASE("initial placement: what it refuses, by name and line", "[placement]") {
  // A body velocity where the joint coordinates set it.
  const std::string twice = double_pendulum_drawn(0.3, 1, 0, 0) ;
  const std::string e = load_error(replace_all(twice, "position: [1.5, 0, 0]", "position: [1.5, 0, 0], velocity: [0, 1, 0]"));
  INFO(e);
  CHECK(e.find("m.yaml:5:") != std::string::npos);
  CHECK(e.find("bodies[1].velocity") != std::string::npos);
  // (the nearest joint with initial coordinates on its path: the elbow's are given, as 0)
  CHECK(e.find("body 'lower' is placed by the initial coordinates of joint 'elbow' (line 8)") != std::string::npos);
  // Keys of another joint type; a joint type without coordinates.
  CHECK(load_error(replace_all(twice, "initial: {angle: 0.29999999999999999", "initial: {displacement: 0.3, angle: 0.3"))
            .find("unknown key 'displacement'") != std::string::npos);
  const std::string fixed = replace_all(twice, "type: revolute, bodies: [upper, lower], point: [1, 0, 0], axis: [0, 0, 1]",
                                        "type: fixed, bodies: [upper, lower], point: [1, 0, 0]");
  CHECK(load_error(fixed).find("key 'initial' does not apply to a fixed joint") != std::string::npos);
  // Initial coordinates and a motion on one joint.
  const std::string driven = replace_all(twice, "initial: {angle: 0.29999999999999999, rate: 1}", "motion: 't', initial: {angle: 0.3}");
  CHECK(load_error(driven).find("joint 'shoulder': initial coordinates and a motion both set its coordinate at t0") !=
        std::string::npos);
}

TEST_CASE("initial placement: a model without initial coordinates is left as it is", "[placement]") {
  System s;
  RigidBody b;
  b.name = "b";
  b.mass = 1;
  b.inertia << 1, 1, 1, 0, 0, 0;
  b.position = Vec3(1, 2, 3);
  b.velocity = Vec3(0.1, 0.2, 0.3);
  s.add_body(b);
  s.add_revolute("j", "ground", "b", Vec3::Zero(), Vec3::UnitZ());
  const PlacementReport r = place_from_joint_coordinates(s);
  CHECK(!r.placed);
  CHECK(s.bodies()[0].position == Vec3(1, 2, 3));
  CHECK(s.bodies()[0].velocity == Vec3(0.1, 0.2, 0.3));
}

namespace {

// A double pendulum and a slider, each element of `extra` (forces, couplings) reading one of the
// joints; the shoulder starts at angle `a` with rate 1, the guide at displacement `d` with speed 1.
std::string started_text(double a, double d, const std::string& extra) {
  return "name: started\n"
         "gravity: [0, -9.81, 0]\n"
         "bodies:\n"
         "  - {name: upper, mass: 1, inertia: [0.01, 0.01, 0.01, 0, 0, 0], position: [0.5, 0, 0]}\n"
         "  - {name: lower, mass: 1, inertia: [0.01, 0.01, 0.01, 0, 0, 0], position: [1.5, 0, 0]}\n"
         "  - {name: slider, mass: 1, inertia: [0.01, 0.01, 0.01, 0, 0, 0], position: [0, -1, 0]}\n"
         "joints:\n"
         "  - {name: shoulder, type: revolute, bodies: [ground, upper], point: [0, 0, 0], axis: [0, 0, 1], "
         "initial: {angle: " + g(a) + ", rate: 1}}\n"
         "  - {name: elbow, type: revolute, bodies: [upper, lower], point: [1, 0, 0], axis: [0, 0, 1]}\n"
         "  - {name: guide, type: prismatic, bodies: [ground, slider], point: [0, -1, 0], axis: [1, 0, 0], "
         "initial: {displacement: " + g(d) + ", speed: 1}}\n" +
         extra + "solver: {end_time: 0.1, step: 1.0e-3}\n";
}

const std::string kLimit = "forces:\n  - {name: stop, type: joint_limit, joint: shoulder, lower: -1, upper: 1, stiffness: 1.0e4}\n";
const std::string kSlideLimit = "forces:\n  - {name: end, type: joint_limit, joint: guide, upper: 0.3, stiffness: 2.0e4}\n";
const std::string kCoupling = "couplings:\n  - {name: mimic, type: linear, joints: [shoulder, elbow], coefficients: [2, -1]}\n";
const std::string kAngleMotor = "forces:\n  - {name: servo, type: joint_motor, joint: shoulder, value: '-10*angle()'}\n";
const std::string kSlideMotor = "forces:\n  - {name: push, type: joint_motor, joint: guide, value: '-5*displacement(guide)'}\n";
const std::string kSpring = "forces:\n  - {name: coil, type: torsional_spring_damper, bodies: [ground, upper], point: [0, 0, 0], "
                            "axis: [0, 0, 1], stiffness: 10}\n";

}  // namespace

TEST_CASE("initial placement: a started joint read at position level is refused at its initial key", "[placement]") {
  // Each element measures the joint's coordinate from the configuration the run starts in: with
  // the shoulder at 0.5 rad the limit [-1, 1] would act at [-0.5, 1.5] of the drawn angle.
  const std::string limit = load_error(started_text(0.5, 0, kLimit));
  INFO(limit);
  CHECK(limit.find("m.yaml:8:") != std::string::npos);
  CHECK(limit.find("joints[0].initial") != std::string::npos);
  CHECK(limit.find("joint 'shoulder' starts at angle 0.5 rad") != std::string::npos);
  CHECK(limit.find("joint_limit 'stop' [-1, 1] reads its angle") != std::string::npos);
  CHECK(limit.find("would act at [-0.5, 1.5] of the drawn angle") != std::string::npos);
  CHECK(limit.find("pose the bodies by hand") != std::string::npos);
  // A prismatic limit: the slide's upper bound 0.3 at 0.3 + 0.1.
  const std::string slide = load_error(started_text(0, 0.1, kSlideLimit));
  INFO(slide);
  CHECK(slide.find("m.yaml:10:") != std::string::npos);
  CHECK(slide.find("joint 'guide' starts at displacement 0.1 m") != std::string::npos);
  CHECK(slide.find("would act at [-inf, 0.4] of the drawn displacement") != std::string::npos);
  // A linear coupling 2 θ_shoulder − θ_elbow = 0 holds in the drawn zero, not from the start.
  const std::string coupling = load_error(started_text(0.5, 0, kCoupling));
  INFO(coupling);
  CHECK(coupling.find("m.yaml:8:") != std::string::npos);
  CHECK(coupling.find("linear coupling 'mimic' reads its angle") != std::string::npos);
  CHECK(coupling.find("off by 1 (coefficient 2 times 0.5)") != std::string::npos);
  // Motor laws of the angle and of the displacement.
  const std::string motor = load_error(started_text(0.5, 0, kAngleMotor));
  INFO(motor);
  CHECK(motor.find("joint_motor 'servo' reads its angle()") != std::string::npos);
  const std::string push = load_error(started_text(0, 0.1, kSlideMotor));
  INFO(push);
  CHECK(push.find("joint_motor 'push' reads its displacement()") != std::string::npos);
  // A torsional spring between the joint's bodies: its reference angle is relative to the start.
  const std::string spring = load_error(started_text(0.5, 0, kSpring));
  INFO(spring);
  CHECK(spring.find("torsional_spring_damper 'coil' between its bodies") != std::string::npos);
  CHECK(spring.find("the default,") != std::string::npos);
}

TEST_CASE("initial placement: the same elements with joints started at 0 and moving are accepted", "[placement]") {
  const std::string all = "forces:\n"
                          "  - {name: stop, type: joint_limit, joint: shoulder, lower: -1, upper: 1, stiffness: 1.0e4}\n"
                          "  - {name: end, type: joint_limit, joint: guide, upper: 0.3, stiffness: 2.0e4}\n"
                          "  - {name: servo, type: joint_motor, joint: shoulder, value: '-10*angle()'}\n"
                          "  - {name: push, type: joint_motor, joint: guide, value: '-5*displacement(guide)'}\n"
                          "  - {name: coil, type: torsional_spring_damper, bodies: [ground, upper], point: [0, 0, 0], "
                          "axis: [0, 0, 1], stiffness: 10}\n" +
                          kCoupling;
  const std::string text = started_text(0, 0, all);
  CHECK(load_error(text).empty());
  const LoadedModel m = load_model_text(text, "m.yaml");
  // The rates set the velocities: upper turns at 1 rad/s about the pivot (its centre at 0.5 m
  // moves at 0.5 m/s along y), the slider moves at 1 m/s along x.
  CHECK(m.system.bodies()[0].angular_velocity.isApprox(Vec3(0, 0, 1), 1e-14));
  CHECK(m.system.bodies()[0].velocity.isApprox(Vec3(0, 0.5, 0), 1e-14));
  CHECK(m.system.bodies()[2].velocity.isApprox(Vec3(1, 0, 0), 1e-14));
  // A motor law of the rate only does not read the position: accepted with the shoulder at 0.5.
  CHECK(load_error(started_text(0.5, 0, "forces:\n  - {name: damp, type: joint_motor, joint: shoulder, value: '-2*rate()'}\n"))
            .empty());
}
