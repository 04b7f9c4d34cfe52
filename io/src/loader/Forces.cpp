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
  for (const std::string& k : force_section_keys())
    if (const Entry* e = f.find(k); e && k != "name" && k != "type" && k != "bodies" &&
                                    std::none_of(info->keys.begin(), info->keys.end(),
                                                 [&](const ForceKey& fk) { return k == fk.key; })) {
      error(e->key_node, f.path(k), "key '" + k + "' does not apply to a " + t + " force");
      ok = false;
    }
  if (!pair_bodies(f.find("bodies") ? f.find("bodies") : f.require("bodies", "the two bodies it connects"),
                   f.path("bodies"), fe.bodies))
    ok = false;
  if (!element_keys(f, info->keys, fe)) ok = false;
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

/// Every key of the forces section: the loads' and those of every force element type.
const std::vector<std::string>& Loader::force_section_keys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> k = {"name", "type", "body", "point", "value", "frame", "bodies"};
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
