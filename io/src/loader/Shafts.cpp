/// @file Shafts.cpp
/// The `shafts` section (1-D rotors and masses of drivetrains, System.h Shaft) and the
/// `shaft_forces` section (spring-dampers between shafts, loads of t on a shaft: ShaftForce).

#include "Loader.h"

#include <set>

namespace mbdae::io::loader {

void Loader::shafts(const YAML::Node& n) {
  if (!section_list(n, "shafts")) return;
  std::set<std::string> names;
  for (size_t i = 0; i < n.size(); ++i) {
    const std::string path = index("shafts", i);
    const size_t errors_before = problem_count();
    Map sm(*this, n[i], path, {"name", "type", "inertia", "mass", "angle", "rate", "position", "speed"});
    Shaft s;
    s.name = "#" + std::to_string(i);
    s.inertia = 1;  // replaced below; keeps the System consistent where the key is bad
    if (sm.valid()) {
      if (const Entry* e = sm.require("name")) {
        if (auto x = name(e->value, sm.path("name"))) {
          if (*x == "ground") error(e->value, sm.path("name"), "'ground' is the fixed body, not a shaft name");
          else if (!names.insert(*x).second) error(e->value, sm.path("name"), "duplicate shaft name '" + *x + "'");
          else if (joint_names_.count(*x))
            error(e->value, sm.path("name"), "a joint is named '" + *x + "' too; couplings name joints and shafts, "
                                             "so their names must differ");
          else s.name = *x;
        }
      }
    }
    const SourceLocation where = location(n[i], path, s.name);
    if (!sm.valid()) {
      add_item(ItemRef::Kind::Shaft, where, true);
      m_.system.add_shaft(s);
      continue;
    }
    shafts_.push_back({n[i].Mark(), path});
    std::optional<std::string> type;
    if (const Entry* e = sm.require("type", "rotor or mass")) type = choice(e->value, sm.path("type"), {"rotor", "mass"});
    if (type) {
      const bool rotor = *type == "rotor";
      s.kind = rotor ? Shaft::Kind::Rotor : Shaft::Kind::Mass;
      const std::vector<std::string> own = rotor ? std::vector<std::string>{"inertia", "angle", "rate"}
                                                 : std::vector<std::string>{"mass", "position", "speed"};
      const std::vector<std::string> other = rotor ? std::vector<std::string>{"mass", "position", "speed"}
                                                   : std::vector<std::string>{"inertia", "angle", "rate"};
      for (const std::string& k : other)
        if (const Entry* e = sm.find(k))
          error(e->key_node, sm.path(k), "key '" + k + "' does not apply to a " + *type + " (it takes " + own[0] + ", " +
                                             own[1] + ", " + own[2] + ")");
      if (const Entry* e = sm.require(own[0], rotor ? "kg m^2, > 0" : "kg, > 0"))
        if (auto x = number(e->value, sm.path(own[0]), {0, 1e15, true, false, "in (0, 1e15]"})) s.inertia = *x;
      if (const Entry* e = sm.find(own[1]))
        if (auto x = number(e->value, sm.path(own[1]), rotor ? Range{-1e6, 1e6, false, false, "in [-1e6, 1e6] rad"}
                                                              : coordinate()))
          s.position = *x;
      if (const Entry* e = sm.find(own[2]))
        if (auto x = number(e->value, sm.path(own[2]), {-1e6, 1e6, false, false, "in [-1e6, 1e6]"})) s.rate = *x;
    }
    add_item(ItemRef::Kind::Shaft, where, problem_count() != errors_before);
    m_.system.add_shaft(s);
  }
}

void Loader::shaft_forces(const YAML::Node& n) {
  if (!section_list(n, "shaft_forces")) return;
  std::set<std::string> names;
  const std::vector<std::string> spring_keys = {"shafts", "stiffness", "damping", "free_value"};
  const std::vector<std::string> load_keys = {"shaft", "value"};
  for (size_t i = 0; i < n.size(); ++i) {
    const std::string path = index("shaft_forces", i);
    const size_t errors_before = problem_count();
    std::vector<std::string> allowed = {"name", "type"};
    allowed.insert(allowed.end(), spring_keys.begin(), spring_keys.end());
    allowed.insert(allowed.end(), load_keys.begin(), load_keys.end());
    Map fm(*this, n[i], path, allowed);
    ShaftForce f;
    f.name = path;
    f.kind = ShaftForce::Kind::Load;
    if (fm.valid()) {
      if (const Entry* e = fm.find("name")) {
        if (auto x = name(e->value, fm.path("name"))) {
          if (!names.insert(*x).second) error(e->value, fm.path("name"), "duplicate shaft force name '" + *x + "'");
          else f.name = *x;
        }
      }
    }
    const SourceLocation where = location(n[i], path, f.name);
    // An item with problems is kept as an inert placeholder (a spring of no stiffness), so that
    // the System's list and the item locations stay in step; the problems are reported here.
    auto placeholder = [&](ShaftForce& x) {
      x.kind = ShaftForce::Kind::SpringDamper;
      x.shafts = {"ground", m_.system.shafts().empty() ? std::string("ground") : m_.system.shafts().front().name};
      x.stiffness = x.damping = 0;
      x.free_value.reset();
      x.value_of_t = nullptr;
    };
    if (!fm.valid()) {
      add_item(ItemRef::Kind::ShaftForce, where, true);
      placeholder(f);
      m_.system.add_shaft_force(std::move(f));
      continue;
    }
    shafts_.push_back({n[i].Mark(), path});
    // A shaft name of the shafts section (ground where allowed); its kind for the units.
    auto shaft_name = [&](const YAML::Node& v, const std::string& p, bool ground_ok) -> std::optional<std::string> {
      auto s = string(v, p);
      if (!s) return std::nullopt;
      if (*s == "ground" && ground_ok) return s;
      if (m_.system.shaft_index(*s) < 0) {
        const std::vector<std::string> known = shaft_list();
        error(v, p, unknown_name("shaft", *s, known, known.empty() ? "the model has no shafts" : "shafts:", known));
        return std::nullopt;
      }
      return s;
    };
    std::optional<std::string> type;
    if (const Entry* e = fm.require("type", "spring_damper or load"))
      type = choice(e->value, fm.path("type"), {"spring_damper", "load"});
    if (type) {
      const bool spring = *type == "spring_damper";
      f.kind = spring ? ShaftForce::Kind::SpringDamper : ShaftForce::Kind::Load;
      for (const std::string& k : spring ? load_keys : spring_keys)
        if (const Entry* e = fm.find(k)) error(e->key_node, fm.path(k), "key '" + k + "' does not apply to a " + *type);
      if (spring) {
        if (const Entry* e = fm.require("shafts", "[a, b]: shaft names or ground")) {
          const std::string sp = fm.path("shafts");
          if (list(e->value, sp, 2, "a list of 2 shaft names (or ground)")) {
            for (size_t k = 0; k < 2; ++k)
              if (auto s = shaft_name(e->value[k], index(sp, k), true)) f.shafts[k] = *s;
            if (f.shafts[0] == f.shafts[1] && !f.shafts[0].empty())
              error(e->value, sp, "both ends are '" + f.shafts[0] + "'");
          }
        }
        if (const Entry* e = fm.require("stiffness", "N m/rad or N/m, >= 0"))
          if (auto x = number(e->value, fm.path("stiffness"), {0, 1e15, false, false, "in [0, 1e15]"})) f.stiffness = *x;
        if (const Entry* e = fm.find("damping"))
          if (auto x = number(e->value, fm.path("damping"), {0, 1e15, false, false, "in [0, 1e15]"})) f.damping = *x;
        if (const Entry* e = fm.find("free_value"))
          if (auto x = number(e->value, fm.path("free_value"), {-1e6, 1e6, false, false, "in [-1e6, 1e6]"}))
            f.free_value = *x;
      } else {
        if (const Entry* e = fm.require("shaft"))
          if (auto s = shaft_name(e->value, fm.path("shaft"), false)) f.shafts[0] = *s;
        if (const Entry* e = fm.require("value", "N m on a rotor, N on a mass: a number or an expression of t")) {
          if (auto ex = expression(e->value, fm.path("value"), true)) {
            if (ex->depends_on_time()) {
              Expression fx = *ex;
              f.value_of_t = [fx](double t) { return fx(t); };
            } else {
              f.value = (*ex)(0);
            }
          }
        }
      }
    }
    const bool had = problem_count() != errors_before;
    add_item(ItemRef::Kind::ShaftForce, where, had);
    if (had) placeholder(f);
    m_.system.add_shaft_force(std::move(f));
  }
}

}  // namespace mbdae::io::loader
