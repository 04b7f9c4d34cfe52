/// @file Couplings.cpp
/// The `couplings` section: gear pairs, racks and pinions, belts, screws, bevel gears and linear
/// couplings of joint and shaft coordinates (System.h, Coupling), each one equation Σ c_i q_i = 0.

#include "Loader.h"

#include <mbdae/model/JointTypes.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <set>

namespace mbdae::io::loader {

void Loader::couplings(const YAML::Node& n) {
  if (!section_list(n, "couplings")) return;
  const std::vector<std::string> types = {"gear", "rack_pinion", "linear", "belt", "screw", "bevel"};
  const std::vector<std::string> type_keys = {"ratio", "internal", "radius", "coefficients", "radii", "crossed",
                                              "lead", "teeth", "cone_angles"};
  auto applies = [](const std::string& type, const std::string& key) {
    if (type == "gear") return key == "ratio" || key == "internal";
    if (type == "rack_pinion") return key == "radius";
    if (type == "belt") return key == "radii" || key == "crossed";
    if (type == "screw") return key == "lead";
    if (type == "bevel") return key == "teeth" || key == "cone_angles";
    return key == "coefficients";
  };
  auto kind_of_type = [](const std::string& t) {
    if (t == "gear") return Coupling::Kind::Gear;
    if (t == "rack_pinion") return Coupling::Kind::RackPinion;
    if (t == "belt") return Coupling::Kind::Belt;
    if (t == "screw") return Coupling::Kind::Screw;
    if (t == "bevel") return Coupling::Kind::Bevel;
    return Coupling::Kind::Linear;
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
    if (const Entry* e = cm.require("type", "gear, rack_pinion, belt, screw, bevel or linear"))
      type = choice(e->value, cm.path("type"), types, {}, "coupling type");
    if (type) {
      c.kind = kind_of_type(*type);
      for (const std::string& k : type_keys)
        if (const Entry* e = cm.find(k); e && !applies(*type, k))
          error(e->key_node, cm.path(k), "key '" + k + "' does not apply to a " + *type + " coupling");
    }
    // The joints: each a revolute or prismatic joint of the joints section or a shaft, at most
    // once. A rotor stands for a revolute joint, a mass for a prismatic one.
    const bool angles_only = type && (*type == "gear" || *type == "belt" || *type == "bevel");
    const bool angle_then_position = type && (*type == "rack_pinion" || *type == "screw");
    std::vector<const Joint*> coupled;  // the joints (nullptr for a shaft), in order
    size_t joint_count = 0;
    const YAML::Node* joints_node = nullptr;
    if (const Entry* e = cm.require("joints", "the joints (or shafts) whose coordinates it couples")) {
      joints_node = &e->value;
      const std::string jp = cm.path("joints");
      const bool two = type && *type != "linear";
      bool ok_list = true;
      if (two) {
        ok_list = list(e->value, jp, 2, "a list of 2 joint or shaft names");
      } else if (!e->value.IsSequence() || e->value.size() == 0) {
        error(e->value, jp, std::string("expected a non-empty list of joint or shaft names, got ") +
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
          const int si = joint ? -1 : m_.system.shaft_index(*s);
          if (!joint && si < 0) {
            std::vector<std::string> usable;
            for (const Joint& j : m_.system.joints())
              if (j.type == JointType::Revolute || j.type == JointType::Prismatic) usable.push_back(j.name);
            for (const Shaft& sh : m_.system.shafts()) usable.push_back(sh.name);
            error(jn, kp, unknown_name("joint or shaft", *s, usable,
                                       usable.empty() ? "the model has no revolute or prismatic joint and no shaft"
                                                      : "revolute and prismatic joints, shafts:",
                                       usable));
            continue;
          }
          if (!seen.insert(*s).second) {
            error(jn, kp, "joint '" + *s + "' is named twice");
            continue;
          }
          // Which coordinate the place needs: an angle, a position or either.
          const bool need_angle = angles_only || (angle_then_position && k == 0);
          const bool need_position = angle_then_position && k == 1;
          const std::string needs = angles_only ? "; a " + *type + " couples two revolute joints (or rotors)"
                                                : "; a " + (type ? *type : std::string()) +
                                                      " couples a revolute joint (or a rotor) and then a prismatic "
                                                      "joint (or a mass)";
          if (si >= 0) {
            const Shaft& sh = m_.system.shafts()[static_cast<size_t>(si)];
            const bool rotor = sh.kind == Shaft::Kind::Rotor;
            if ((need_angle && !rotor) || (need_position && rotor))
              error(jn, kp, "shaft '" + *s + "' is a " + to_string(sh.kind) + needs);
            c.joints.push_back(*s);
            coupled.push_back(nullptr);
            continue;
          }
          const bool ok = joint->type == JointType::Revolute || joint->type == JointType::Prismatic;
          if (!ok) {
            error(jn, kp, "joint '" + *s + "' is " + to_string(joint->type) +
                              "; a coupling takes revolute and prismatic joints (one relative coordinate each)");
            continue;
          }
          if ((need_angle && joint->type != JointType::Revolute) || (need_position && joint->type != JointType::Prismatic))
            error(jn, kp, "joint '" + *s + "' is " + to_string(joint->type) + needs);
          c.joints.push_back(*s);
          coupled.push_back(joint);
        }
      }
    }
    // Unit axes of the two coupled revolute joints, where both are joints (not shafts).
    auto both_axes = [&](Vec3& a, Vec3& b) {
      if (coupled.size() != 2 || !coupled[0] || !coupled[1]) return false;
      if (coupled[0]->type != JointType::Revolute || coupled[1]->type != JointType::Revolute) return false;
      a = coupled[0]->axis.normalized();
      b = coupled[1]->axis.normalized();
      return a.allFinite() && b.allFinite();
    };
    // Two positive numbers [x_a, x_b] at key k.
    auto pair = [&](const char* k, const Range& r, const char* what) -> std::optional<std::array<double, 2>> {
      const Entry* e = cm.require(k, what);
      if (!e) return std::nullopt;
      const std::string kp = cm.path(k);
      if (!list(e->value, kp, 2, what)) return std::nullopt;
      std::array<double, 2> out{};
      for (size_t j = 0; j < 2; ++j) {
        auto x = number(e->value[j], index(kp, j), r);
        if (!x) return std::nullopt;
        out[j] = *x;
      }
      return out;
    };
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
    } else if (type && *type == "belt") {
      // r_a θ_a = r_b θ_b: the pulleys turn the same way (an open belt), or opposite (crossed).
      bool crossed = false;
      if (const Entry* e = cm.find("crossed"))
        if (auto x = flag(e->value, cm.path("crossed"))) crossed = *x;
      if (auto r = pair("radii", {0, 1e6, true, false, "in (0, 1e6] m"}, "[r_a, r_b]: the pulleys' radii, m, > 0"))
        c.coefficients = {(*r)[0], crossed ? (*r)[1] : -(*r)[1]};
      Vec3 a, b;
      if (joints_node && both_axes(a, b) && (a.cross(b).norm() > 1e-6 || a.dot(b) < 0))
        error(*joints_node, cm.path("joints"),
              "a belt couples two revolute joints whose axes point the same way (the angles are measured about "
              "them), got axes at " + std::to_string(std::acos(std::clamp(a.dot(b), -1.0, 1.0))) +
                  " rad; turn the second joint's axis (and its bodies) or use a linear coupling");
    } else if (type && *type == "screw") {
      // x = L θ / 2π: the nut advances `lead` along its axis per turn of the screw about its own.
      if (const Entry* e = cm.require("lead", "m per turn, nonzero (negative: a left-hand thread)"))
        if (auto x = number(e->value, cm.path("lead"), {-1e6, 1e6, false, false, "in [-1e6, 1e6] m"})) {
          if (*x == 0) error(e->value, cm.path("lead"), "must be nonzero, got 0");
          else c.coefficients = {-*x / (2 * M_PI), 1.0};
        }
    } else if (type && *type == "bevel") {
      // θ_b + r θ_a = 0, r = z_a / z_b = sin δ_a / sin δ_b, with both axes pointing from the apex
      // towards their gears (then the gears turn in opposite senses about them).
      const Entry* te = cm.find("teeth");
      const Entry* ce = cm.find("cone_angles");
      Vec3 a, b;
      const bool axes = both_axes(a, b);
      if (joints_node && axes) {
        const Vec3 pa = coupled[0]->point, pb = coupled[1]->point;
        const Vec3 n = a.cross(b);
        if (n.norm() <= 1e-6)
          error(*joints_node, cm.path("joints"), "a bevel gear couples two revolute joints whose axes intersect at an "
                                                 "angle, got parallel axes; use a gear coupling");
        else if (std::abs((pb - pa).dot(n) / n.norm()) > 1e-6 * (1 + (pb - pa).norm()))
          error(*joints_node, cm.path("joints"),
                "a bevel gear couples two revolute joints whose axes intersect (at the cones' apex), got axes " +
                    std::to_string(std::abs((pb - pa).dot(n) / n.norm())) + " m apart");
      }
      if (te && ce) {
        error(ce->key_node, cm.path("cone_angles"), "give either teeth or cone_angles, not both");
      } else if (te) {
        if (auto z = pair("teeth", {1, 1e6, false, false, "in [1, 1e6]"}, "[z_a, z_b]: the numbers of teeth"))
          c.coefficients = {(*z)[0] / (*z)[1], 1.0};
      } else if (ce) {
        if (auto d = pair("cone_angles", {0, M_PI, true, true, "in (0, pi) rad"},
                          "[delta_a, delta_b]: the pitch cone angles, rad")) {
          c.coefficients = {std::sin((*d)[0]) / std::sin((*d)[1]), 1.0};
          if (axes) {
            const double shaft = std::acos(std::clamp(a.dot(b), -1.0, 1.0));
            if (std::abs((*d)[0] + (*d)[1] - shaft) > 1e-6)
              error(ce->value, cm.path("cone_angles"),
                    "the pitch cone angles must add up to the angle between the joints' axes (each axis pointing "
                    "from the apex towards its gear), " + std::to_string(shaft) + " rad, got " +
                        std::to_string((*d)[0] + (*d)[1]) + " rad" +
                        (std::abs((*d)[0] + (*d)[1] - (M_PI - shaft)) <= 1e-6
                             ? std::string("; they add up to pi minus it: one axis points towards the apex, turn it")
                             : std::string()));
          }
        }
      } else {
        error(n[i], path, "a bevel coupling needs teeth: [z_a, z_b] or cone_angles: [delta_a, delta_b]");
      }
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
