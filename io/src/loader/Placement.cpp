/// @file Placement.cpp
/// Joint-coordinate initial conditions: each joint's `initial:` and, after the model checks, the
/// bodies placed from them (place_from_joint_coordinates(), solvers/InitialPlacement.h).

#include "Loader.h"

#include <algorithm>

#include <Eigen/Geometry>

namespace mbdae::io::loader {

void Loader::joint_initial(const YAML::Node& n, const std::string& path, JointType type, Joint& j) {
  const bool angle = type == JointType::Revolute || type == JointType::Cylindrical;
  const bool slide = type == JointType::Prismatic || type == JointType::Cylindrical;
  const bool turn = type == JointType::Spherical || type == JointType::Universal;
  std::vector<std::string> keys;
  if (angle) keys.insert(keys.end(), {"angle", "rate"});
  if (slide) keys.insert(keys.end(), {"displacement", "speed"});
  if (turn) keys.insert(keys.end(), {"rotation", "angular_velocity"});
  Map m(*this, n, path, keys);
  if (!m.valid()) return;
  JointInitial in;
  bool ok = true;
  auto read = [&](const char* key, double& out, const Range& r) {
    if (const Entry* e = m.find(key)) {
      if (auto x = number(e->value, m.path(key), r)) out = *x;
      else ok = false;
    }
  };
  if (angle) {
    // A loop closure follows the angle in steps of 0.1 rad: bounded so that it stays a few thousand.
    read("angle", in.angle, {-100, 100, false, false, "in [-100, 100] rad"});
    read("rate", in.rate, any());
  }
  if (slide) {
    read("displacement", in.displacement, coordinate());
    read("speed", in.speed, any());
  }
  if (turn) {
    if (const Entry* e = m.find("rotation")) {
      if (auto R = orientation(e->value, m.path("rotation"))) in.rotation = *R;
      else ok = false;
    }
    if (const Entry* e = m.find("angular_velocity")) {
      if (auto w = vec3(e->value, m.path("angular_velocity"))) in.angular_velocity = *w;
      else ok = false;
    }
  }
  if (ok) j.initial = in;
}

bool Loader::position_readers_of_started_joints() {
  const System& sys = m_.system;
  const size_t errors_before = problem_count();
  const std::string why_then = "; pose the bodies by hand in the model and state it from that pose, or start the joint "
                               "at 0 (a rate or speed alone is accepted)";
  for (const Joint& j : sys.joints()) {
    if (!j.initial) continue;
    const auto at = joint_initial_.find(j.name);
    if (at == joint_initial_.end()) continue;
    const JointInitial& in = *j.initial;
    // The joint's position-level start, as the coordinate it shifts and its value.
    const bool slides_only = j.type == JointType::Prismatic;
    const double q0 = slides_only ? in.displacement : in.angle;
    const Eigen::AngleAxisd turn(in.rotation);
    std::string start;
    if (in.angle != 0) start = "angle " + fmt_num(in.angle) + " rad";
    if (in.displacement != 0) start += (start.empty() ? "" : ", ") + std::string("displacement ") + fmt_num(in.displacement) + " m";
    if (turn.angle() != 0) start = "a rotation of " + fmt_num(turn.angle()) + " rad";
    if (start.empty()) continue;
    const std::string joint = "joint '" + j.name + "' starts at " + start + " from the drawn configuration";
    const std::string measured = " is measured from the configuration the run starts in";
    auto refuse = [&](const std::string& msg) { error(at->second.mark, at->second.path, joint + ", but " + msg + why_then); };
    for (size_t k = 0; k < sys.forces().size(); ++k) {
      const ForceElement& f = sys.forces()[k];
      const std::string element = std::string(to_string(f.type)) + " '" + f.name + "'";
      if (f.type == ForceType::JointLimit && f.joint == j.name && q0 != 0) {
        const std::string l = f.lower ? fmt_num(*f.lower) : "-inf", u = f.upper ? fmt_num(*f.upper) : "inf";
        const std::string l0 = f.lower ? fmt_num(*f.lower + q0) : "-inf", u0 = f.upper ? fmt_num(*f.upper + q0) : "inf";
        refuse(element + " [" + l + ", " + u + "] reads its " + (slides_only ? "displacement" : "angle") +
               ": its bounds are measured from the configuration the run starts in, so they would act at [" + l0 + ", " +
               u0 + "] of the drawn " + (slides_only ? "displacement" : "angle"));
      } else if (f.type == ForceType::JointMotor && f.joint == j.name) {
        const auto r = motor_position_reads_.find(k);
        if (r == motor_position_reads_.end()) continue;
        const double q = r->second == "angle" ? in.angle : in.displacement;
        if (q == 0) continue;
        refuse(element + " reads its " + r->second + "(), which" + measured + ": its law would see " + r->second +
               "() = 0 where the drawn configuration's is " + fmt_num(q) + " and act " + fmt_num(q) + " away from where it is stated");
      } else if (f.type == ForceType::TorsionalSpringDamper && (in.angle != 0 || turn.angle() != 0) && f.bodies.size() == 2 &&
                 ((f.bodies[0] == j.bodies[0] && f.bodies[1] == j.bodies[1]) ||
                  (f.bodies[0] == j.bodies[1] && f.bodies[1] == j.bodies[0]))) {
        refuse(element + " between its bodies measures its angle from the configuration the run starts in (its "
               "reference angle " + fmt_num(f.length.value_or(0)) + " rad" + (f.length ? "" : ", the default,") +
               " is relative to the start), so its rest would be " + start + " away from the drawn one");
      }
    }
    for (const Coupling& c : sys.couplings()) {
      const auto it = std::find(c.joints.begin(), c.joints.end(), j.name);
      if (it == c.joints.end()) continue;
      if (q0 == 0) continue;
      const double ci = c.coefficients[static_cast<size_t>(it - c.joints.begin())];
      refuse(std::string(to_string(c.kind)) + " coupling '" + c.name + "' reads its " +
             (slides_only ? "displacement" : "angle") + ": the coupled coordinates are measured from the configuration "
             "the run starts in, so its relation would be off by " + fmt_num(ci * q0) + " (coefficient " + fmt_num(ci) +
             " times " + fmt_num(q0) + ") from the drawn one");
    }
  }
  return problem_count() == errors_before;
}

void Loader::placement() {
  if (!position_readers_of_started_joints()) return;
  try {
    m_.placement = place_from_joint_coordinates(m_.system);
  } catch (const ModelError& e) {
    for (const ModelProblem& p : e.details()) report(m_.locate(p));
    return;
  } catch (const ItemError& e) {
    report(m_.locate({e.what(), e.item()}));
    return;
  }
  // A body moved by joint coordinates gets its velocity from their rates: one given on the body
  // too would be a second statement of the same thing.
  for (const PlacedBody& pb : m_.placement.bodies) {
    const size_t i = static_cast<size_t>(pb.body);
    if (i >= body_velocity_.size() || !body_velocity_[i] || pb.joint < 0) continue;
    const Placed& where = *body_velocity_[i];
    const std::string key = where.path.substr(where.path.rfind('.') + 1);
    const std::string joint = m_.system.joints()[static_cast<size_t>(pb.joint)].name;
    const SourceLocation* at = m_.find_location(ItemRef::joint(pb.joint));
    error(where.mark, where.path,
          "body '" + m_.system.bodies()[i].name + "' is placed by the initial coordinates of joint '" + joint + "'" +
              (at ? " (line " + std::to_string(at->line) + ")" : std::string()) +
              ", which also set its motion at t0 (from the joints' rates); give the rates in the joints' initial and "
              "leave out " + key);
  }
}

}  // namespace mbdae::io::loader
