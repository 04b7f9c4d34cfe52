/// @file Couplings.cpp
/// The `couplings` section: gear pairs, racks and pinions and linear couplings of joint
/// coordinates (System.h, Coupling), each one equation Σ c_i q_i = 0.

#include "Loader.h"

#include <mbdae/model/JointTypes.h>

#include <set>

namespace mbdae::io::loader {

void Loader::couplings(const YAML::Node& n) {
  if (!section_list(n, "couplings")) return;
  const std::vector<std::string> types = {"gear", "rack_pinion", "linear"};
  const std::vector<std::string> type_keys = {"ratio", "internal", "radius", "coefficients"};
  auto applies = [](const std::string& type, const std::string& key) {
    if (type == "gear") return key == "ratio" || key == "internal";
    if (type == "rack_pinion") return key == "radius";
    return key == "coefficients";
  };
  std::set<std::string> names;
  for (size_t i = 0; i < n.size(); ++i) {
    const std::string path = index("couplings", i);
    const size_t errors_before = problem_count();
    std::vector<std::string> allowed = {"name", "type", "joints"};
    allowed.insert(allowed.end(), type_keys.begin(), type_keys.end());
    Map cm(*this, n[i], path, allowed);
    Coupling c;
    c.name = "#" + std::to_string(i);
    if (cm.valid()) {
      if (const Entry* e = cm.require("name")) {
        if (auto s = name(e->value, cm.path("name"))) {
          if (!names.insert(*s).second) error(e->value, cm.path("name"), "duplicate coupling name '" + *s + "'");
          else c.name = *s;
        }
      }
    }
    const SourceLocation where = location(n[i], path, c.name);
    if (!cm.valid()) {
      add_item(ItemRef::Kind::Coupling, where, true);
      m_.system.add_coupling(c);
      continue;
    }
    couplings_.push_back({n[i].Mark(), path});
    std::optional<std::string> type;
    if (const Entry* e = cm.require("type", "gear, rack_pinion or linear")) type = choice(e->value, cm.path("type"), types, {}, "coupling type");
    if (type) {
      c.kind = *type == "gear" ? Coupling::Kind::Gear : *type == "rack_pinion" ? Coupling::Kind::RackPinion
                                                                                : Coupling::Kind::Linear;
      for (const std::string& k : type_keys)
        if (const Entry* e = cm.find(k); e && !applies(*type, k))
          error(e->key_node, cm.path(k), "key '" + k + "' does not apply to a " + *type + " coupling");
    }
    // The joints: each a revolute or prismatic joint of the joints section, at most once.
    std::vector<JointType> jtypes;
    size_t joint_count = 0;
    if (const Entry* e = cm.require("joints", "the joints whose coordinates it couples")) {
      const std::string jp = cm.path("joints");
      const bool two = type && *type != "linear";
      bool ok_list = true;
      if (two) {
        ok_list = list(e->value, jp, 2, "a list of 2 joint names");
      } else if (!e->value.IsSequence() || e->value.size() == 0) {
        error(e->value, jp, std::string("expected a non-empty list of joint names, got ") +
                                (e->value.IsSequence() ? "an empty list" : kind_of(e->value)));
        ok_list = false;
      }
      if (ok_list) {
        joint_count = e->value.size();
        std::set<std::string> seen;
        for (size_t k = 0; k < e->value.size(); ++k) {
          const YAML::Node& jn = e->value[k];
          const std::string kp = index(jp, k);
          auto s = string(jn, kp);
          if (!s) continue;
          const Joint* joint = nullptr;
          for (const Joint& j : m_.system.joints())
            if (j.name == *s) joint = &j;
          if (!joint) {
            std::vector<std::string> usable;
            for (const Joint& j : m_.system.joints())
              if (j.type == JointType::Revolute || j.type == JointType::Prismatic) usable.push_back(j.name);
            error(jn, kp, "unknown joint '" + *s + "'" +
                              (usable.empty() ? std::string(" (the model has no revolute or prismatic joint)")
                                              : " (revolute and prismatic joints: " + join(usable) + ")"));
            continue;
          }
          if (!seen.insert(*s).second) {
            error(jn, kp, "joint '" + *s + "' is named twice");
            continue;
          }
          const bool ok = joint->type == JointType::Revolute || joint->type == JointType::Prismatic;
          if (!ok) {
            error(jn, kp, "joint '" + *s + "' is " + to_string(joint->type) +
                              "; a coupling takes revolute and prismatic joints (one relative coordinate each)");
            continue;
          }
          if (type && *type == "gear" && joint->type != JointType::Revolute)
            error(jn, kp, "joint '" + *s + "' is " + to_string(joint->type) + "; a gear couples two revolute joints");
          else if (type && *type == "rack_pinion" && joint->type != (k == 0 ? JointType::Revolute : JointType::Prismatic))
            error(jn, kp, "joint '" + *s + "' is " + to_string(joint->type) + "; a rack_pinion couples a revolute joint "
                              "(the pinion) and then a prismatic joint (the rack)");
          c.joints.push_back(*s);
        }
      }
    }
    if (type && *type == "gear") {
      double ratio = 1;
      bool internal = false;
      if (const Entry* e = cm.require("ratio", "|omega_b / omega_a| > 0 (teeth of a / teeth of b)"))
        if (auto x = number(e->value, cm.path("ratio"), {0, 1e12, true, false, "in (0, 1e12]"})) ratio = *x;
      if (const Entry* e = cm.find("internal"))
        if (auto x = flag(e->value, cm.path("internal"))) internal = *x;
      c.coefficients = {internal ? -ratio : ratio, 1.0};
    } else if (type && *type == "rack_pinion") {
      double radius = 1;
      if (const Entry* e = cm.require("radius", "pitch radius of the pinion, m, > 0"))
        if (auto x = number(e->value, cm.path("radius"), {0, 1e6, true, false, "in (0, 1e6] m"})) radius = *x;
      c.coefficients = {-radius, 1.0};
    } else if (type) {
      if (const Entry* e = cm.require("coefficients", "one number per joint")) {
        const std::string cp = cm.path("coefficients");
        if (joint_count > 0 && list(e->value, cp, joint_count, "one coefficient per joint")) {
          bool any = false;
          for (size_t k = 0; k < joint_count; ++k)
            if (auto x = number(e->value[k], index(cp, k), {-1e12, 1e12, false, false, "in [-1e12, 1e12]"})) {
              c.coefficients.push_back(*x);
              any = any || *x != 0;
            }
          if (c.coefficients.size() == joint_count && !any) error(e->value, cp, "every coefficient is zero");
        }
      }
    }
    const bool had = problem_count() != errors_before;
    if (had) {  // keep the System consistent: the problems are reported here already
      c.joints.clear();
      c.coefficients.clear();
    }
    add_item(ItemRef::Kind::Coupling, where, had);
    m_.system.add_coupling(c);
  }
}

}  // namespace mbdae::io::loader
