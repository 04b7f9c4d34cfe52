/// @file States.cpp
/// The `states` section: controller states, first-order ODEs integrated with the mechanism
/// (System.h, ControllerState), and the quantity function state(name) that reads them.

#include "Loader.h"

#include <map>
#include <set>

#include <mbdae/io/Quantities.h>

namespace mbdae::io::loader {

void Loader::add_state_function(QuantityResolver& resolver) const {
  std::set<std::string> names;
  for (const ControllerState& z : m_.system.controller_states()) names.insert(z.name);
  resolver.add_function(
      "state",
      [names](const ExpressionQuantity& q, QuantityProblem& p) -> std::optional<Quantity> {
        if (q.argument.empty()) {
          p = {q.argument_position, "state() needs the name of a controller state in its parentheses, e.g. state(i_err)"};
          return std::nullopt;
        }
        if (!names.count(q.argument)) {
          std::vector<std::string> known(names.begin(), names.end());
          p = {q.argument_position, unknown_name("controller state", q.argument, known, "the states section declares",
                                                 known.empty() ? std::vector<std::string>{"none"} : known)};
          return std::nullopt;
        }
        Quantity out;
        out.text = "state(" + q.argument + ")";
        out.states = {q.argument};
        out.value = [](const QuantityInput& in) { return in.state(0); };
        return out;
      },
      "a controller state of the states section, its own unit");
}

void Loader::states(const YAML::Node& n) {
  if (!section_list(n, "states")) return;
  // Every state's name first: a derivative may read any state, also one declared after it.
  std::set<std::string> names;
  std::vector<size_t> added;  // items that became controller states (index in n)
  for (size_t i = 0; i < n.size(); ++i) {
    const YAML::Node& item = n[i];
    if (!item.IsMap() || !item["name"] || !item["name"].IsScalar()) continue;
    const std::string nm = item["name"].Scalar();
    if (nm.empty() || names.count(nm)) continue;
    names.insert(nm);
    ControllerState z;
    z.name = nm;
    m_.system.add_controller_state(std::move(z));
  }
  QuantityResolver resolver(m_.system);
  add_state_function(resolver);
  add_sensor_function(resolver, true);
  const QuantityRules rules = state_rules(
      resolver, "an expression of t, named quantities (rate(hinge), x(body), ...) and controller states state(name)");
  std::set<std::string> seen;
  std::map<std::string, std::pair<SourceLocation, bool>> where_of;  // name → (location, had problems)
  for (size_t i = 0; i < n.size(); ++i) {
    const std::string path = index("states", i);
    const size_t errors_before = problem_count();
    Map sm(*this, n[i], path, {"name", "initial", "derivative"});
    std::string nm = "#" + std::to_string(i);
    if (sm.valid()) {
      if (const Entry* e = sm.require("name")) {
        if (auto s = name(e->value, sm.path("name"))) {
          if (s->find_first_of("(),\"\n") != std::string::npos)
            error(e->value, sm.path("name"), "a controller state's name must not contain parentheses, commas, quotes or line breaks");
          else if (!seen.insert(*s).second)
            error(e->value, sm.path("name"), "duplicate controller state name '" + *s + "'");
          else
            nm = *s;
        }
      }
    }
    const SourceLocation where = location(n[i], path, nm);
    const int k = m_.system.find_controller_state(nm);
    if (!sm.valid() || k < 0) continue;  // not a state of the System: its problems are reported
    ControllerState& z = m_.system.controller_states()[static_cast<size_t>(k)];
    if (const Entry* e = sm.find("initial")) {
      if (auto x = number(e->value, sm.path("initial"))) z.initial = *x;
    }
    if (const Entry* e = sm.require("derivative", "an expression of t and the state: the state's rate")) {
      if (std::optional<Expression> ex = expression(e->value, sm.path("derivative"), rules)) {
        std::vector<Quantity> qs;
        for (const ExpressionQuantity& eq : ex->quantities()) {
          QuantityProblem p;
          qs.push_back(*resolver.resolve(eq, p));  // resolved once already (state_rules)
          if (qs.back().counts_turns) z.derivative_uses_angle = true;
        }
        StateExpression sx(std::move(*ex), std::move(qs));
        z.bodies = sx.bodies();
        z.states = sx.states();
        z.derivative = [sx = std::move(sx)](double t, std::span<const BodyMotion> bm, std::span<const double> st) {
          return sx(t, bm, st);
        };
      }
    }
    where_of.emplace(nm, std::pair{where, problem_count() != errors_before});
    states_.push_back({n[i].Mark(), path});
  }
  // The items in the order of System::controller_states() (the names' order above). A state
  // whose item had problems (an unknown key, a second item of its name) is located at its first
  // item, or at the section.
  for (const ControllerState& z : m_.system.controller_states()) {
    const auto it = where_of.find(z.name);
    if (it != where_of.end()) add_item(ItemRef::Kind::State, it->second.first, it->second.second);
    else add_item(ItemRef::Kind::State, location(n, "states", z.name), true);
  }
}

}  // namespace mbdae::io::loader
