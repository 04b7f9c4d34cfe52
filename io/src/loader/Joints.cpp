/// @file Joints.cpp
/// The `joints` section: type, bodies, point and the keys of each type; the motion of driven joints.

#include "Loader.h"

#include <mbdae/model/JointTypes.h>
#include <mbdae/solvers/InitialPlacement.h>

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
  // Every joint type, its keys and its checks come from the registry (JointTypes.h).
  std::vector<std::string> types, all_keys, drivable;
  for (const JointTypeInfo& t : joint_types()) {
    types.push_back(t.name);
    if (t.drivable) drivable.push_back(t.name);
    for (const JointKey& k : t.keys)
      if (std::find(all_keys.begin(), all_keys.end(), k.key) == all_keys.end()) all_keys.push_back(k.key);
  }
  all_keys.push_back("motion");
  all_keys.push_back("speed");
  all_keys.push_back("offsets");
  all_keys.push_back("initial");
  std::string offsets_text;
  for (const JointTypeInfo& t : joint_types())
    if (t.takes_offsets) offsets_text += std::string(offsets_text.empty() ? "" : " and ") + t.name;
  std::string drivable_text;
  for (size_t k = 0; k < drivable.size(); ++k)
    drivable_text += (k == 0 ? "" : k + 1 == drivable.size() ? " and " : ", ") + drivable[k];
  std::vector<std::string> allowed = {"name", "type", "bodies", "point"};
  allowed.insert(allowed.end(), all_keys.begin(), all_keys.end());
  for (size_t i = 0; i < n.size(); ++i) {
    const std::string path = index("joints", i);
    const size_t errors_before = problem_count();
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
    const JointTypeInfo* info = nullptr;
    if (const Entry* e = jm.require("type"))
      if (auto t = choice(e->value, jm.path("type"), types, {}, "joint type")) info = find_joint_type(*t);
    if (info) {
      j.type = info->type;
      // Keys that do not apply to this type.
      for (const std::string& k : all_keys) {
        const Entry* e = jm.find(k);
        if (!e) continue;
        const bool applies = k == "motion" || k == "speed" ? info->drivable
                             : k == "offsets"              ? info->takes_offsets
                             : k == "initial"              ? takes_initial_coordinates(info->type)
                                                           : std::any_of(info->keys.begin(), info->keys.end(),
                                                                         [&](const JointKey& jk) { return k == jk.key; });
        if (!applies)
          error(e->key_node, jm.path(k), "key '" + k + "' does not apply to a " + info->name + " joint" +
                                             (k == "motion" || k == "speed" ? " (only " + drivable_text + " joints can be driven)"
                                              : k == "offsets"              ? " (only " + offsets_text + " joints take offsets)"
                                              : k == "initial" ? " (revolute, prismatic, cylindrical, spherical and universal joints take initial coordinates)"
                                                                            : ""));
      }
    }
    if (const Entry* e = jm.require("bodies", "the two bodies it connects")) {
      const std::string bp = jm.path("bodies");
      if (list(e->value, bp, 2, "a list of 2 body names")) {
        for (size_t k = 0; k < 2; ++k) {
          const YAML::Node& bn = e->value[k];
          if (auto s = string(bn, index(bp, k))) {
            if (*s != "ground" && !body_names_.count(*s))
              error(bn, index(bp, k), unknown_name("body", *s, body_list(), body_names_.empty() ? "" : "bodies:", body_list()));
            else j.bodies[k] = *s;
          }
        }
        if (!j.bodies[0].empty() && j.bodies[0] == j.bodies[1])
          error(e->value, bp, j.bodies[0] == "ground" ? "both ends of the joint are on ground"
                                                      : "both ends of the joint are on body '" + j.bodies[0] + "'");
        if (info && info->plane_on_ground && !j.bodies[0].empty() && j.bodies[0] != "ground")
          error(e->value[0], index(bp, 0), std::string("the first body of a ") + info->name +
                                               " joint carries the plane and must be 'ground', got '" +
                                               j.bodies[0] + "'");
      }
    }
    if (const Entry* e = jm.require("point", info ? info->point_meaning : "world coordinates at the initial configuration")) {
      if (auto p = vec3(e->value, jm.path("point"), coordinate())) j.point = *p;
    }
    if (info) {
      element_keys(jm, info->keys, j);
      if (info->drivable)
        if (const Entry* e = jm.find("motion")) {
          if (auto f = motion(e->value, jm.path("motion"))) {
            j.motion = *f;
            driven_joints_.push_back({e->key_node.Mark(), jm.path("motion")});
          }
        }
      if (info->drivable)
        if (const Entry* e = jm.find("speed")) {
          // The rate of the joint's coordinate, an expression of t (rad/s or m/s); its derivative
          // (for γ) by differences (TimeFunction).
          if (jm.find("motion")) {
            error(e->key_node, jm.path("speed"), "give motion (the coordinate) or speed (its rate), not both");
          } else if (auto x = expression(e->value, jm.path("speed"), true)) {
            j.speed.value = [x = *x](double t) { return x(t); };
            driven_joints_.push_back({e->key_node.Mark(), jm.path("speed")});
          }
        }
      if (info->takes_offsets)
        if (const Entry* e = jm.find("offsets")) {
          // {x: ..., rz: ...}: each an expression of t or {value, velocity, acceleration}, 0 at t0.
          static const char* const names[6] = {"x", "y", "z", "rx", "ry", "rz"};
          Map om(*this, e->value, jm.path("offsets"), std::vector<std::string>(names, names + 6));
          if (om.valid()) {
            bool any = false;
            for (size_t k = 0; k < 6; ++k)
              if (const Entry* o = om.find(names[k])) {
                any = true;
                if (auto f = motion(o->value, om.path(names[k]))) j.offsets[k] = *f;
              }
            if (!any)
              error(e->value, jm.path("offsets"), "expected at least one of x, y, z, rx, ry, rz (m, rad), got none");
            else if (j.has_offsets())
              driven_joints_.push_back({e->key_node.Mark(), jm.path("offsets")});
          }
        }
      if (takes_initial_coordinates(info->type))
        if (const Entry* e = jm.find("initial")) {
          joint_initial(e->value, jm.path("initial"), info->type, j);
          joint_initial_.emplace(j.name, Placed{e->key_node.Mark(), jm.path("initial")});
        }
      // The type's own checks (perpendicular axes, coinciding points, ...), at their keys.
      if (problem_count() == errors_before) {
        std::vector<KeyProblem> p;
        info->check(j, p);
        key_problems(jm, p);
      }
    }
    if (!jm.node().IsNull()) first_joint_ = first_joint_.value_or(Placed{n[i].Mark(), path});
    add_item(ItemRef::Kind::Joint, m_.joint_locations.back(), problem_count() != errors_before);
    m_.system.add_joint(j);
  }
}

}  // namespace mbdae::io::loader
