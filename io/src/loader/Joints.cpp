/// @file Joints.cpp
/// The `joints` section: type, bodies, point and the keys of each type; the motion of driven joints.

#include "Loader.h"

#include <algorithm>
#include <cmath>

namespace mbdae::io::loader {

/// `motion:` of a driven joint: an expression of t, or {value, velocity, acceleration}.
std::optional<TimeFunction> Loader::motion(const YAML::Node& n, const std::string& path) {
  auto fn = [](const Expression& e) { return std::function<double(double)>([e](double t) { return e(t); }); };
  TimeFunction f;
  if (n.IsMap()) {
    Map m(*this, n, path, {"value", "velocity", "acceleration"});
    if (!m.valid()) return std::nullopt;
    bool ok = true;
    std::optional<Expression> v;
    if (const Entry* e = m.require("value", "an expression of t, rad or m")) {
      v = expression(e->value, m.path("value"), true);
      if (v) f.value = fn(*v);
      else ok = false;
    } else {
      ok = false;
    }
    for (const char* k : {"velocity", "acceleration"})
      if (const Entry* e = m.find(k)) {
        auto x = expression(e->value, m.path(k), true);
        if (!x) ok = false;
        else if (std::string(k) == "velocity") f.velocity = fn(*x);
        else f.acceleration = fn(*x);
      }
    if (!ok) return std::nullopt;
    const YAML::Node& vn = m.find("value")->value;
    if (!(std::abs((*v)(0.0)) <= 1e-9)) {
      error(vn, m.path("value"), "the motion must be 0 at t = 0 (the joint's coordinate is 0 at the initial "
                                 "configuration), got " + fmt_num((*v)(0.0)));
      return std::nullopt;
    }
    return f;
  }
  if (!n.IsScalar()) {
    error(n, path, std::string("expected an expression of t or {value, velocity, acceleration}, got ") + kind_of(n));
    return std::nullopt;
  }
  auto v = expression(n, path, true);
  if (!v) return std::nullopt;
  if (!(std::abs((*v)(0.0)) <= 1e-9)) {
    error(n, path, "the motion must be 0 at t = 0 (the joint's coordinate is 0 at the initial configuration), got " +
                       fmt_num((*v)(0.0)));
    return std::nullopt;
  }
  f.value = fn(*v);
  return f;
}

void Loader::joints(const YAML::Node& n) {
  if (!section_list(n, "joints")) return;
  const std::vector<std::string> types = {"spherical", "revolute",    "prismatic", "fixed",
                                          "generic",   "distance",    "cylindrical", "universal",
                                          "planar",    "rolling_disc", "coordinate"};
  const std::vector<std::string> all_keys = {"axis", "axis_b", "frame", "constrained", "point_b", "distance",
                                             "radius", "coordinate", "offset", "motion"};
  for (size_t i = 0; i < n.size(); ++i) {
    const std::string path = index("joints", i);
    const size_t errors_before = problem_count();
    std::vector<std::string> allowed = {"name", "type", "bodies", "point"};
    allowed.insert(allowed.end(), all_keys.begin(), all_keys.end());
    Map jm(*this, n[i], path, allowed);
    Joint j;
    j.name = "#" + std::to_string(i);
    if (!jm.valid()) {
      m_.joint_locations.push_back(location(n[i], path, j.name));
      continue;
    }
    if (const Entry* e = jm.require("name")) {
      if (auto s = name(e->value, jm.path("name"))) {
        if (auto f = joint_names_.find(*s); f != joint_names_.end())
          error(e->value, jm.path("name"), "duplicate joint name '" + *s + "' (also joints[" +
                                               std::to_string(f->second) + "])");
        else {
          j.name = *s;
          joint_names_[*s] = i;
        }
      }
    }
    m_.joint_locations.push_back(location(n[i], path, j.name));
    std::optional<std::string> type;
    if (const Entry* e = jm.require("type"))
      type = choice(e->value, jm.path("type"), types, {}, "joint type");
    const std::string t = type ? *type : "";
    if (type) {
      j.type = t == "spherical"      ? JointType::Spherical
               : t == "revolute"     ? JointType::Revolute
               : t == "prismatic"    ? JointType::Prismatic
               : t == "fixed"        ? JointType::Fixed
               : t == "generic"      ? JointType::Generic
               : t == "distance"     ? JointType::Distance
               : t == "cylindrical"  ? JointType::Cylindrical
               : t == "universal"    ? JointType::Universal
               : t == "planar"       ? JointType::Planar
               : t == "rolling_disc" ? JointType::RollingDisc
                                     : JointType::Coordinate;
      // Keys that do not apply to this type.
      std::vector<std::string> applies;
      if (t == "revolute" || t == "prismatic") applies = {"axis", "motion"};
      if (t == "cylindrical" || t == "planar") applies = {"axis"};
      if (t == "universal") applies = {"axis", "axis_b"};
      if (t == "rolling_disc") applies = {"axis", "point_b", "axis_b", "radius"};
      if (t == "coordinate") applies = {"coordinate", "offset"};
      if (t == "generic") applies = {"frame", "constrained"};
      if (t == "distance") applies = {"point_b", "distance"};
      for (const std::string& k : all_keys)
        if (const Entry* e = jm.find(k); e && std::find(applies.begin(), applies.end(), k) == applies.end())
          error(e->key_node, jm.path(k), "key '" + k + "' does not apply to a " + t + " joint" +
                                             (k == "motion" ? " (only revolute and prismatic joints can be driven)" : ""));
    }
    if (const Entry* e = jm.require("bodies", "the two bodies it connects")) {
      const std::string bp = jm.path("bodies");
      if (list(e->value, bp, 2, "a list of 2 body names")) {
        for (size_t k = 0; k < 2; ++k) {
          const YAML::Node& bn = e->value[k];
          if (auto s = string(bn, index(bp, k))) {
            if (*s != "ground" && !body_names_.count(*s))
              error(bn, index(bp, k), "unknown body '" + *s + "'" +
                                          (body_names_.empty() ? std::string() : " (bodies: ground, " + [&] {
                                            std::vector<std::string> names;
                                            for (const auto& [nm, idx] : body_names_) names.push_back(nm);
                                            return join(names);
                                          }() + ")"));
            else j.bodies[k] = *s;
          }
        }
        if (!j.bodies[0].empty() && j.bodies[0] == j.bodies[1])
          error(e->value, bp, j.bodies[0] == "ground" ? "both ends of the joint are on ground"
                                                      : "both ends of the joint are on body '" + j.bodies[0] + "'");
        if (t == "rolling_disc" && !j.bodies[0].empty() && j.bodies[0] != "ground")
          error(e->value[0], index(bp, 0), "the first body of a rolling_disc joint carries the plane and must be "
                                           "'ground', got '" + j.bodies[0] + "'");
      }
    }
    if (const Entry* e = jm.require("point", t == "rolling_disc" ? "a point of the plane, world"
                                                                 : "world coordinates at the initial configuration")) {
      if (auto p = vec3(e->value, jm.path("point"), coordinate())) j.point = *p;
    }
    if (t == "revolute" || t == "prismatic" || t == "cylindrical" || t == "universal" || t == "planar" ||
        t == "rolling_disc") {
      if (const Entry* e = jm.require("axis", t == "planar" || t == "rolling_disc" ? "the plane's normal" : "")) {
        if (auto a = nonzero_vec3(e->value, jm.path("axis"))) j.axis = *a;
      }
    }
    if (t == "universal" || t == "rolling_disc") {
      if (const Entry* e = jm.require("axis_b", t == "universal" ? "the axis fixed in the second body"
                                                                 : "the disc's axis")) {
        if (auto a = nonzero_vec3(e->value, jm.path("axis_b"))) {
          j.axis_b = *a;
          if (t == "universal" && jm.has("axis") && j.axis.norm() > 1e-12 &&
              std::abs(j.axis.normalized().dot(a->normalized())) > 1e-6)
            error(e->value, jm.path("axis_b"), "axis and axis_b of a universal joint must be perpendicular, "
                                               "their cosine is " + fmt_num(j.axis.normalized().dot(a->normalized())));
          if (t == "rolling_disc" && jm.has("axis") && j.axis.norm() > 1e-12 &&
              1 - std::abs(j.axis.normalized().dot(a->normalized())) < 1e-9)
            error(e->value, jm.path("axis_b"), "the disc lies flat on the plane (axis_b parallel to the normal)");
        }
      }
    }
    if (t == "rolling_disc") {
      if (const Entry* e = jm.require("point_b", "the disc's centre, world, t0")) {
        if (auto p = vec3(e->value, jm.path("point_b"), coordinate())) j.point_b = *p;
      }
      if (const Entry* e = jm.require("radius", "m")) {
        if (auto r = number(e->value, jm.path("radius"), positive())) j.radius = *r;
      }
    }
    if (t == "coordinate") {
      if (const Entry* e = jm.require("coordinate", "x, y or z: the world axis")) {
        if (auto c = choice(e->value, jm.path("coordinate"), {"x", "y", "z"}))
          j.coordinate = *c == "x" ? 0 : *c == "y" ? 1 : 2;
      }
      if (const Entry* e = jm.find("offset")) {
        if (auto x = number(e->value, jm.path("offset"))) j.offset = *x;
      }
    }
    if ((t == "revolute" || t == "prismatic")) {
      if (const Entry* e = jm.find("motion")) {
        if (auto f = motion(e->value, jm.path("motion"))) {
          j.motion = *f;
          driven_joints_.push_back({e->key_node.Mark(), jm.path("motion")});
        }
      }
    }
    if (t == "generic") {
      if (const Entry* e = jm.find("frame")) j.frame = orientation(e->value, jm.path("frame"));
      if (const Entry* e = jm.require("constrained", "[x, y, z, rx, ry, rz], 1 = constrained")) {
        const std::string cp = jm.path("constrained");
        if (list(e->value, cp, 6, "6 flags [x, y, z, rx, ry, rz]")) {
          for (size_t k = 0; k < 6; ++k)
            if (auto f = flag(e->value[k], index(cp, k))) j.constrained[k] = *f;
        }
      }
    }
    if (t == "distance") {
      if (const Entry* e = jm.require("point_b", "the point on the second body, world, t0")) {
        if (auto p = vec3(e->value, jm.path("point_b"), coordinate())) j.point_b = *p;
      }
      if (const Entry* e = jm.find("distance")) j.distance = number(e->value, jm.path("distance"), positive());
      else if (jm.has("point") && jm.has("point_b") && !((j.point_b - j.point).norm() > 1e-12))
        error(n[i], path, "the two points coincide; give a distance > 0");
    }
    if (!jm.node().IsNull()) first_joint_ = first_joint_.value_or(Placed{n[i].Mark(), path});
    add_item(ItemRef::Kind::Joint, m_.joint_locations.back(), problem_count() != errors_before);
    m_.system.add_joint(j);
  }
}

}  // namespace mbdae::io::loader
