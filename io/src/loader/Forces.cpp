/// @file Forces.cpp
/// The `forces` section: loads (force, torque; values may be expressions of t) and force elements
/// (spring-dampers).

#include "Loader.h"

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

/// A force element: spring_damper, torsional_spring_damper, rigid_body_spring_damper,
/// cartesian_spring_damper.
void Loader::force_element(Map& f, const std::string& t, const std::string& name_) {
  ForceElement fe;
  fe.name = name_;
  bool ok = true;
  fe.type = t == "spring_damper"             ? ForceType::SpringDamper
            : t == "torsional_spring_damper" ? ForceType::TorsionalSpringDamper
            : t == "rigid_body_spring_damper" ? ForceType::RigidBodySpringDamper
                                              : ForceType::CartesianSpringDamper;
  std::vector<std::string> applies = {"name", "type", "bodies", "stiffness", "damping"};
  if (t == "spring_damper") applies.insert(applies.end(), {"points", "length"});
  if (t == "torsional_spring_damper") applies.insert(applies.end(), {"point", "axis", "angle"});
  if (t == "rigid_body_spring_damper") applies.insert(applies.end(), {"point", "frame"});
  if (t == "cartesian_spring_damper") applies.insert(applies.end(), {"point", "offset"});
  for (const char* k : {"body", "value", "points", "length", "point", "axis", "angle", "frame", "offset"})
    if (const Entry* e = f.find(k); e && std::find(applies.begin(), applies.end(), k) == applies.end()) {
      error(e->key_node, f.path(k), "key '" + std::string(k) + "' does not apply to a " + t + " force");
      ok = false;
    }
  if (!pair_bodies(f.find("bodies") ? f.find("bodies") : f.require("bodies", "the two bodies it connects"),
                   f.path("bodies"), fe.bodies))
    ok = false;
  if (t == "spring_damper") {
    if (const Entry* e = f.require("points", "[[x, y, z], [x, y, z]]: on the first and the second body, world, t0")) {
      const std::string pp = f.path("points");
      if (list(e->value, pp, 2, "2 points [[x, y, z], [x, y, z]]")) {
        auto pa = vec3(e->value[0], index(pp, 0), coordinate()), pb = vec3(e->value[1], index(pp, 1), coordinate());
        if (pa && pb) {
          fe.point = *pa;
          fe.point_b = *pb;
          if (!f.has("length") && !((*pb - *pa).norm() > 1e-12)) {
            error(e->value, pp, "the two points coincide; give a length > 0");
            ok = false;
          }
        } else {
          ok = false;
        }
      } else {
        ok = false;
      }
    } else {
      ok = false;
    }
    if (const Entry* e = f.find("length")) {
      if (auto x = number(e->value, f.path("length"), non_negative())) fe.length = *x;
      else ok = false;
    }
  } else {
    if (const Entry* e = f.require("point", "world, t0")) {
      if (auto p = vec3(e->value, f.path("point"), coordinate())) fe.point = *p;
      else ok = false;
    } else {
      ok = false;
    }
  }
  auto scalar_kd = [&](const char* k, double& out, bool required) {
    const Entry* e = required ? f.require(k) : f.find(k);
    if (!e) {
      if (required) ok = false;
      return;
    }
    if (auto x = number(e->value, f.path(k), non_negative())) out = *x;
    else ok = false;
  };
  if (t == "spring_damper" || t == "torsional_spring_damper") {
    scalar_kd("stiffness", fe.stiffness, true);
    scalar_kd("damping", fe.damping, false);
  }
  if (t == "torsional_spring_damper") {
    if (const Entry* e = f.require("axis")) {
      if (auto a = nonzero_vec3(e->value, f.path("axis"))) fe.axis = *a;
      else ok = false;
    } else {
      ok = false;
    }
    if (const Entry* e = f.find("angle")) {
      if (auto x = number(e->value, f.path("angle"), {-M_PI, M_PI, true, false, "in (-pi, pi]"})) fe.length = *x;
      else ok = false;
    }
  }
  if (t == "cartesian_spring_damper") {
    auto v3 = [&](const char* k, Vec3& out, bool required, const Range& r) {
      const Entry* e = required ? f.require(k, "[x, y, z], world axes") : f.find(k);
      if (!e) {
        if (required) ok = false;
        return;
      }
      if (auto v = vec3(e->value, f.path(k), r)) out = *v;
      else ok = false;
    };
    v3("stiffness", fe.stiffness3, true, non_negative());
    v3("damping", fe.damping3, false, non_negative());
    v3("offset", fe.offset3, false, any());
  }
  if (t == "rigid_body_spring_damper") {
    if (const Entry* e = f.find("frame")) {
      fe.frame = orientation(e->value, f.path("frame"));
      if (!fe.frame) ok = false;
    }
    auto m6 = [&](const char* k, Mat6& out, bool required) {
      const Entry* e = required ? f.require(k, "6 numbers (diagonal) or 6 rows of 6") : f.find(k);
      if (!e) {
        if (required) ok = false;
        return;
      }
      const std::string kp = f.path(k);
      if (!e->value.IsSequence() || (e->value.size() != 6)) {
        error(e->value, kp, std::string("expected 6 numbers (the diagonal) or 6 rows of 6 numbers, got ") +
                                (e->value.IsSequence() ? std::to_string(e->value.size()) + " items" : kind_of(e->value)));
        ok = false;
        return;
      }
      out.setZero();
      const bool rows = e->value[0].IsSequence();
      for (size_t r = 0; r < 6; ++r) {
        if (!rows) {
          if (auto x = number(e->value[r], index(kp, r), non_negative())) out(static_cast<int>(r), static_cast<int>(r)) = *x;
          else ok = false;
          continue;
        }
        if (!list(e->value[r], index(kp, r), 6, "a row of 6 numbers")) {
          ok = false;
          continue;
        }
        for (size_t c = 0; c < 6; ++c) {
          if (auto x = number(e->value[r][c], index(index(kp, r), c))) out(static_cast<int>(r), static_cast<int>(c)) = *x;
          else ok = false;
        }
      }
    };
    m6("stiffness", fe.stiffness6, true);
    m6("damping", fe.damping6, false);
  }
  if (!ok) return;
  add_item(ItemRef::Kind::Force, m_.force_locations.back(), false);
  m_.system.add_force(std::move(fe));
}

void Loader::forces(const YAML::Node& n) {
  if (!section_list(n, "forces")) return;
  std::set<std::string> names;
  const std::vector<std::string> types = {"force", "torque", "spring_damper", "torsional_spring_damper",
                                          "rigid_body_spring_damper", "cartesian_spring_damper"};
  for (size_t i = 0; i < n.size(); ++i) {
    const std::string path = index("forces", i);
    const size_t errors_before = problem_count();
    Map f(*this, n[i], path,
          {"name", "type", "body", "point", "value", "frame", "bodies", "points", "stiffness", "damping",
           "length", "axis", "angle", "offset"});
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
    for (const char* k : {"bodies", "points", "stiffness", "damping", "length", "axis", "angle", "offset"})
      if (const Entry* e = f.find(k))
        error(e->key_node, f.path(k), "key '" + std::string(k) + "' does not apply to a " +
                                          (type ? *type : std::string("force or torque")) + " (it belongs to the spring-dampers)");
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
