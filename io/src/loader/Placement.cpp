/// @file Placement.cpp
/// Joint-coordinate initial conditions: each joint's `initial:` and, after the model checks, the
/// bodies placed from them (place_from_joint_coordinates(), solvers/InitialPlacement.h).

#include "Loader.h"

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

void Loader::placement() {
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
