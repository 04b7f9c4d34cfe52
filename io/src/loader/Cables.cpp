/// @file Cables.cpp
/// The `cables` section: flexible planar ANCF cables (model/Cable.h; docs/flexible.md, "Cables
/// and beams (ANCF)"), their supports at nodes and their node forces.

#include "Loader.h"

#include <cmath>
#include <set>

namespace mbdae::io::loader {

namespace {
// What the format does not take yet, refused by name where it is asked for.
const std::map<std::string, std::string>& unsupported_support_keys() {
  static const std::map<std::string, std::string> m = {
      {"position", "a support at an axial position between nodes is not supported; choose segments so that a node "
                   "is there and give its node"},
      {"s", "a support at an axial position between nodes is not supported; choose segments so that a node is "
            "there and give its node"},
      {"point", "the body point of a cable support is where the node is at t0; place the cable there"}};
  return m;
}
}  // namespace

void Loader::cables(const YAML::Node& n) {
  if (!section_list(n, "cables")) return;
  std::set<std::string> names;
  for (size_t i = 0; i < n.size(); ++i) {
    const std::string path = index("cables", i);
    const size_t errors_before = problem_count();
    Map cm(*this, n[i], path,
           {"name", "type", "start", "end", "segments", "E", "A", "I", "rho", "damping", "load", "velocity",
            "supports", "node_forces"},
           {{"torsion", "the planar cable has no torsion"},
            {"G", "the planar cable has no shear or torsion (Euler-Bernoulli)"}});
    if (!cm.valid()) continue;
    cables_.push_back({n[i].Mark(), path});
    Cable c;
    c.name = path;
    if (const Entry* e = cm.require("name")) {
      if (auto x = name(e->value, cm.path("name"))) {
        if (*x == "ground") error(e->value, cm.path("name"), "'ground' is the fixed body, not a cable name");
        else if (!names.insert(*x).second) error(e->value, cm.path("name"), "duplicate cable name '" + *x + "'");
        else if (body_names_.count(*x)) error(e->value, cm.path("name"), "a body is named '" + *x + "' too");
        else c.name = *x;
      }
    }
    if (const Entry* e = cm.require("type", "ancf_cable_2d"))
      choice(e->value, cm.path("type"), {"ancf_cable_2d"}, {"ancf_cable_3d", "ancf_beam_3d"}, "cable type");
    if (const Entry* e = cm.require("start", "[x, y, z], m"))
      if (auto x = vec3(e->value, cm.path("start"), coordinate())) c.start = *x;
    if (const Entry* e = cm.require("end", "[x, y, z], m"))
      if (auto x = vec3(e->value, cm.path("end"), coordinate())) c.end = *x;
    if (const Entry* e = cm.find("segments"))
      if (auto x = number(e->value, cm.path("segments"), {1, 10000, false, false, "an integer in [1, 10000]"})) {
        if (*x != std::floor(*x)) error(e->value, cm.path("segments"), "expected an integer in [1, 10000]");
        else c.segments = static_cast<int>(*x);
      }
    const std::pair<const char*, double Cable::*> material[] = {
        {"E", &Cable::E}, {"A", &Cable::A}, {"I", &Cable::I}, {"rho", &Cable::rho}};
    const char* what[] = {"Young's modulus, Pa, > 0", "cross-section area, m^2, > 0",
                          "second moment of area, m^4, > 0", "density, kg/m^3, > 0"};
    for (size_t k = 0; k < 4; ++k)
      if (const Entry* e = cm.require(material[k].first, what[k]))
        if (auto x = number(e->value, cm.path(material[k].first), positive())) c.*material[k].second = *x;
    if (const Entry* e = cm.find("damping"))
      if (auto x = number(e->value, cm.path("damping"), non_negative())) c.damping = *x;
    if (const Entry* e = cm.find("load"))
      if (auto x = vec3(e->value, cm.path("load"))) c.load = *x;
    if (const Entry* e = cm.find("velocity"))
      if (auto x = vec3(e->value, cm.path("velocity"))) c.velocity = *x;
    // A node: start, end or its index.
    auto node = [&](const YAML::Node& v, const std::string& p) -> std::optional<int> {
      if (v.IsScalar() && v.Scalar() == "start") return 0;
      if (v.IsScalar() && v.Scalar() == "end") return c.segments;
      auto x = number(v, p, {0, 10000, false, false, "start, end or a node index 0 ... segments"});
      if (!x) return std::nullopt;
      if (*x != std::floor(*x) || *x > c.segments) {
        error(v, p, "expected start, end or a node index 0 ... " + std::to_string(c.segments));
        return std::nullopt;
      }
      return static_cast<int>(*x);
    };
    if (const Entry* e = cm.find("supports")) {
      if (section_list(e->value, cm.path("supports")))
        for (size_t k = 0; k < e->value.size(); ++k) {
          const std::string sp = index(cm.path("supports"), k);
          Map sm(*this, e->value[k], sp, {"node", "type", "body"}, unsupported_support_keys());
          if (!sm.valid()) continue;
          CableSupport s;
          if (const Entry* x = sm.require("node", "start, end or a node index"))
            if (auto v = node(x->value, sm.path("node"))) s.node = *v;
          if (const Entry* x = sm.require("type", "pinned or clamped"))
            if (auto v = choice(x->value, sm.path("type"), {"pinned", "clamped"}, {"sliding"}, "cable support type"))
              s.kind = *v == "clamped" ? CableSupport::Kind::Clamped : CableSupport::Kind::Pinned;
          if (const Entry* x = sm.find("body"))
            if (auto v = name(x->value, sm.path("body"))) {
              if (*v != "ground" && !body_names_.count(*v)) error(x->value, sm.path("body"), "unknown body '" + *v + "'");
              else s.body = *v;
            }
          c.supports.push_back(s);
        }
    }
    if (const Entry* e = cm.find("node_forces")) {
      if (section_list(e->value, cm.path("node_forces")))
        for (size_t k = 0; k < e->value.size(); ++k) {
          const std::string fp = index(cm.path("node_forces"), k);
          Map fm(*this, e->value[k], fp, {"node", "force"});
          if (!fm.valid()) continue;
          CableNodeForce f;
          if (const Entry* x = fm.require("node", "start, end or a node index"))
            if (auto v = node(x->value, fm.path("node"))) f.node = *v;
          if (const Entry* x = fm.require("force", "[fx, fy, 0], N"))
            if (auto v = vec3(x->value, fm.path("force"))) f.force = *v;
          c.node_forces.push_back(f);
        }
    }
    // The model-level checks of the cable (its plane, gravity in it, two supports at a node), at
    // the cable, when its keys had no problem of their own.
    if (problem_count() == errors_before)
      for (const std::string& m : cable_problems(m_.system, c)) error(n[i], path, m);
    m_.system.add_cable(std::move(c));
  }
}

}  // namespace mbdae::io::loader
