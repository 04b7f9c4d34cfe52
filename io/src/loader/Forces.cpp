/// @file Forces.cpp
/// The `forces` section: loads (force, torque; values may be expressions of t) and force elements
/// (spring-dampers).

#include "Loader.h"

#include <mbdae/model/ForceTypes.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace mbdae::io::loader {

/// The two bodies of a force element; either may be ground, not both the same.
bool Loader::pair_bodies(const Entry* e, const std::string& bp, std::vector<std::string>& out) {
  if (!e || !list(e->value, bp, 2, "a list of 2 body names")) return false;
  bool ok = true;
  for (size_t k = 0; k < 2; ++k) {
    auto s = string(e->value[k], index(bp, k));
    if (!s) {
      ok = false;
    } else if (*s != "ground" && !body_names_.count(*s)) {
      error(e->value[k], index(bp, k), "unknown body '" + *s + "'");
      ok = false;
    } else {
      out.push_back(*s);
    }
  }
  if (ok && out[0] == out[1]) {
    error(e->value, bp, out[0] == "ground" ? "both ends are on ground" : "both ends are on body '" + out[0] + "'");
    ok = false;
  }
  return ok;
}

/// A force element of a type of the registry (ForceTypes.h): its keys and checks come from there.
void Loader::force_element(Map& f, const std::string& t, const std::string& name_) {
  const ForceTypeInfo* info = find_force_type(t);
  ForceElement fe;
  fe.name = name_;
  fe.type = info->type;
  bool ok = true;
  const bool motor = info->type == ForceType::JointMotor;
  // Its bodies are its joint's.
  const bool on_joint = motor || info->type == ForceType::JointFriction || info->type == ForceType::JointLimit;
  for (const std::string& k : force_section_keys())
    if (const Entry* e = f.find(k); e && k != "name" && k != "type" &&
                                    (on_joint ? k != "joint" && (!motor || k != "value") : k != "bodies") &&
                                    std::none_of(info->keys.begin(), info->keys.end(),
                                                 [&](const ForceKey& fk) { return k == fk.key; })) {
      error(e->key_node, f.path(k),
            "key '" + k + "' does not apply to a " + t + " force" +
                (on_joint && k == "bodies" ? " (it acts between the bodies of its joint)" : ""));
      ok = false;
    }
  if (!element_keys(f, info->keys, fe)) ok = false;
  if (motor) {
    if (!joint_motor(f, fe)) ok = false;
  } else if (on_joint) {
    if (!element_joint(f, fe, info->type == ForceType::JointFriction)) ok = false;
  } else if (!pair_bodies(f.find("bodies") ? f.find("bodies") : f.require("bodies", "the two bodies it connects"),
                          f.path("bodies"), fe.bodies)) {
    ok = false;
  }
  if (ok) {
    // The type's own checks (coinciding points, ...), at their keys.
    std::vector<KeyProblem> p;
    info->check(fe, p);
    key_problems(f, p);
    ok = p.empty();
  }
  if (!ok) return;
  add_item(ItemRef::Kind::Force, m_.force_locations.back(), false);
  m_.system.add_force(std::move(fe));
}

/// A joint_motor's joint (revolute, prismatic or cylindrical: its bodies, point and axis become
/// the motor's), its `effort` against the joint's type, and its `value`: an expression of t and
/// the joint's own coordinates (the others' would make the element act on more than its two
/// bodies; they are refused by name).
/// The `joint` of a force element that acts on a joint's coordinates (joint_motor, joint_friction,
/// joint_limit): revolute or prismatic, and cylindrical if `cylindrical`; its bodies, point, axis
/// and type become the element's. The joint, or nullptr after reporting the problem.
const Joint* Loader::element_joint(Map& f, ForceElement& fe, bool cylindrical) {
  const Joint* joint = nullptr;
  const Entry* je = f.require("joint", cylindrical ? "the revolute, prismatic or cylindrical joint it acts on"
                                                   : "the revolute or prismatic joint it acts on");
  if (!je) return nullptr;
  const auto jname = string(je->value, f.path("joint"));
  if (!jname) return nullptr;
  for (const Joint& j : m_.system.joints())
    if (j.name == *jname) joint = &j;
  if (!joint) {
    // A joint of the file with problems of its own is not in the System: already reported.
    if (!joint_names_.count(*jname)) error(je->value, f.path("joint"), "unknown joint '" + *jname + "'");
    return nullptr;
  }
  const JointType jt = joint->type;
  if (jt != JointType::Revolute && jt != JointType::Prismatic && (!cylindrical || jt != JointType::Cylindrical)) {
    error(je->value, f.path("joint"), "joint '" + *jname + "' is " + to_string(jt) + "; a " + to_string(fe.type) +
                                          (cylindrical ? " acts on a revolute, prismatic or cylindrical joint"
                                                       : " acts on a revolute or prismatic joint"));
    return nullptr;
  }
  fe.joint = *jname;
  fe.bodies = {joint->bodies[0], joint->bodies[1]};
  fe.point = joint->point;
  fe.axis = joint->axis;
  fe.joint_type = jt;
  return joint;
}

bool Loader::joint_motor(Map& f, ForceElement& fe) {
  const Joint* joint = element_joint(f, fe, true);
  if (!joint) return false;
  const std::optional<std::string> jname = joint->name;
  const JointType jt = joint->type;
  const bool turns = joint_turns(jt), slides = joint_slides(jt);
  bool ok = true;
  if (const Entry* e = f.find("effort")) {
    if ((jt == JointType::Revolute && fe.motor_force) || (jt == JointType::Prismatic && !fe.motor_force)) {
      error(e->value, f.path("effort"), std::string("joint '") + *jname + "' is " + to_string(jt) + ": its motor gives a " +
                                            (fe.motor_force ? "torque, not a force" : "force, not a torque"));
      ok = false;
    }
  } else if (jt == JointType::Cylindrical) {
    error(f.node(), f.path("effort"), "missing required key 'effort' (torque or force: joint '" + *jname +
                                          "' is cylindrical)");
    ok = false;
  } else {
    fe.motor_force = jt == JointType::Prismatic;
  }
  // angle, rate, displacement, speed: slots of JointCoordinates.
  static const std::vector<std::string> functions = {"angle", "rate", "displacement", "speed"};
  QuantityRules rules;
  rules.functions = functions;
  rules.what = "an expression of t and the joint's angle(), rate(), displacement(), speed()";
  rules.check = [&](const ExpressionQuantity& q) -> std::optional<std::pair<int, std::string>> {
    if (q.argument != *jname) {
      if (!joint_names_.count(q.argument)) return std::pair{q.argument_position, "unknown joint '" + q.argument + "'"};
      return std::pair{q.argument_position, q.function + "(" + q.argument + "): a joint_motor's value may use only its own joint '" +
                                                *jname + "' (and t)"};
    }
    const bool angular = q.function == "angle" || q.function == "rate";
    if (angular ? !turns : !slides)
      return std::pair{q.position, q.function + "() applies to " +
                                       (angular ? "revolute and cylindrical" : "prismatic and cylindrical") + " joints; '" +
                                       *jname + "' is " + to_string(jt)};
    return std::nullopt;
  };
  const Entry* ve = f.require("value", fe.motor_force ? "N" : "N m");
  std::optional<Expression> ex = ve ? expression(ve->value, f.path("value"), rules) : std::nullopt;
  if (!ex) return false;
  std::array<int, 4> slot{};
  const size_t nq = ex->quantities().size();  // distinct, all of this joint: at most 4
  for (size_t i = 0; i < nq; ++i) {
    slot[i] = static_cast<int>(std::find(functions.begin(), functions.end(), ex->quantities()[i].function) - functions.begin());
    if (slot[i] == 0) fe.effort_uses_angle = true;
  }
  fe.effort = [x = std::move(*ex), slot, nq](double t, const JointCoordinates& c) {
    const std::array<double, 4> all{c.angle, c.rate, c.displacement, c.speed};
    std::array<double, 4> v{};
    for (size_t i = 0; i < nq; ++i) v[i] = all[static_cast<size_t>(slot[i])];
    return x(t, std::span<const double>(v.data(), nq));
  };
  return ok;
}

/// Every key of the forces section: the loads' and those of every force element type.
const std::vector<std::string>& Loader::force_section_keys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> k = {"name", "type", "body", "point", "value", "frame", "bodies", "joint"};
    for (const ForceTypeInfo& t : force_types())
      for (const ForceKey& fk : t.keys)
        if (std::find(k.begin(), k.end(), fk.key) == k.end()) k.push_back(fk.key);
    return k;
  }();
  return keys;
}

void Loader::forces(const YAML::Node& n) {
  if (!section_list(n, "forces")) return;
  std::set<std::string> names;
  std::vector<std::string> types = {"force", "torque"};
  for (const ForceTypeInfo& t : force_types())
    if (t.in_model_file) types.push_back(t.name);
  for (size_t i = 0; i < n.size(); ++i) {
    const std::string path = index("forces", i);
    const size_t errors_before = problem_count();
    Map f(*this, n[i], path, force_section_keys());
    Load l;
    l.name = path;
    if (!f.valid()) {
      m_.force_locations.push_back(location(n[i], path, l.name));
      continue;
    }
    if (const Entry* e = f.find("name")) {
      if (auto s = name(e->value, f.path("name"))) {
        if (!names.insert(*s).second) error(e->value, f.path("name"), "duplicate force name '" + *s + "'");
        l.name = *s;
      }
    }
    std::optional<std::string> type;
    if (const Entry* e = f.require("type")) type = choice(e->value, f.path("type"), types, {}, "force type");
    if (type && *type != "force" && *type != "torque") {
      m_.force_locations.push_back(location(n[i], path, l.name));
      force_elements_.push_back({n[i].Mark(), path});
      force_element(f, *type, l.name);
      continue;
    }
    for (const std::string& k : force_section_keys())
      if (const Entry* e = f.find(k); e && k != "name" && k != "type" && k != "body" && k != "point" &&
                                      k != "value" && k != "frame")
        error(e->key_node, f.path(k), "key '" + k + "' does not apply to a " +
                                          (type ? *type : std::string("force or torque")) + " (it belongs to the force elements)");
    m_.force_locations.push_back(location(n[i], path, l.name));
    if (!type) continue;
    l.kind = *type == "force" ? Load::Kind::Force : Load::Kind::Torque;
    if (const Entry* e = f.require("body")) {
      if (auto s = string(e->value, f.path("body"))) {
        if (*s == "ground") error(e->value, f.path("body"), "a load cannot act on ground");
        else if (!body_names_.count(*s)) error(e->value, f.path("body"), "unknown body '" + *s + "'");
        l.body = *s;
      }
    }
    if (const Entry* e = f.find("point")) {
      if (l.kind == Load::Kind::Torque)
        error(e->key_node, f.path("point"), "key 'point' does not apply to a torque");
      else if (auto p = vec3(e->value, f.path("point"), coordinate())) l.point = *p;
    }
    if (const Entry* e = f.find("frame")) {
      if (auto s = choice(e->value, f.path("frame"), {"world", "body"}))
        l.frame = *s == "world" ? Load::Frame::World : Load::Frame::Body;
    }
    if (const Entry* e = f.require("value", l.kind == Load::Kind::Force ? "N" : "N m")) {
      const std::string vp = f.path("value");
      if (list(e->value, vp, 3, "a list of 3 numbers or expressions of t")) {
        std::array<std::optional<Expression>, 3> ex;
        bool ok = true, timed = false;
        for (size_t k = 0; k < 3; ++k) {
          ex[k] = expression(e->value[k], index(vp, k), true);
          if (!ex[k]) ok = false;
          else timed = timed || ex[k]->depends_on_time();
        }
        if (ok) {
          l.value = Vec3((*ex[0])(0), (*ex[1])(0), (*ex[2])(0));
          if (timed) {
            std::array<Expression, 3> fx{*ex[0], *ex[1], *ex[2]};
            l.value_of_t = [fx](double t) { return Vec3(fx[0](t), fx[1](t), fx[2](t)); };
            if (!l.value.allFinite()) l.value.setZero();  // the value at t0 is not used
          }
        }
      }
    }
    add_item(ItemRef::Kind::Load, m_.force_locations.back(), problem_count() != errors_before);
    m_.system.add_load(std::move(l));
  }
}

}  // namespace mbdae::io::loader
