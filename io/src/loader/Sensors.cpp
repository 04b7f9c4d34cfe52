/// @file Sensors.cpp
/// The `sensors` section: name, output, and the body, joint or nothing the output is attached to.

#include "Loader.h"

#include <mbdae/io/Sensors.h>
#include <mbdae/solvers/SolverRegistry.h>

namespace mbdae::io::loader {

void Loader::sensor_prepass(const YAML::Node& n) {
  if (!n.IsSequence()) return;
  for (size_t i = 0; i < n.size(); ++i) {
    const YAML::Node item = n[i];
    if (!item.IsMap()) continue;
    const YAML::Node nm = item["name"];
    if (nm && nm.IsScalar() && !nm.Scalar().empty()) sensor_items_.emplace(nm.Scalar(), std::pair{item, index("sensors", i)});
  }
}

void Loader::add_sensor_function(QuantityResolver& resolver, bool in_states) const {
  resolver.add_function(
      "sensor",
      [this, in_states](const ExpressionQuantity& q, QuantityProblem& p) -> std::optional<Quantity> {
        if (q.argument.empty()) {
          p = {q.argument_position, "sensor() needs the name of a sensor of the sensors section in its parentheses, "
                                    "e.g. sensor(tip).x"};
          return std::nullopt;
        }
        const auto it = sensor_items_.find(q.argument);
        if (it == sensor_items_.end()) {
          std::vector<std::string> known;
          for (const auto& [nm, item] : sensor_items_) known.push_back(nm);
          p = {q.argument_position, unknown_name("sensor", q.argument, known, "the sensors section declares",
                                                 known.empty() ? std::vector<std::string>{"none"} : known)};
          return std::nullopt;
        }
        // The sensor as the sensors section reads it (its own problems are reported there, later;
        // a model with problems does not run). A scratch reader keeps them out of this report.
        const YAML::Node& item = it->second.first;
        const std::string& path = it->second.second;
        Reader scratch(file(), text());
        const std::string own = "sensor '" + q.argument + "' has problems of its own (" + path + ")";
        SensorSpec sp;
        sp.name = q.argument;
        const YAML::Node out = item["output"];
        bool known_output = false;
        for (const SensorOutputInfo& o : sensor_outputs())
          if (out && out.IsScalar() && out.Scalar() == o.name) {
            sp.output = o.output;
            known_output = true;
          }
        if (!known_output) {
          p = {q.argument_position, own};
          return std::nullopt;
        }
        for (auto [key, field] : {std::pair{"body", &sp.body}, std::pair{"joint", &sp.joint},
                                  std::pair{"force", &sp.force}, std::pair{"shaft", &sp.shaft},
                                  std::pair{"state", &sp.state}, std::pair{"coupling", &sp.coupling},
                                  std::pair{"cable", &sp.cable}})
          if (const YAML::Node v = item[key]; v && v.IsScalar()) *field = v.Scalar();
        if (const YAML::Node v = item["point"]) {
          const std::optional<Vec3> x = scratch.vec3(v, child(path, "point"), coordinate());
          if (!x) {
            p = {q.argument_position, own};
            return std::nullopt;
          }
          sp.point = *x;
        }
        if (const YAML::Node v = item["frame"]; v && v.IsScalar() && v.Scalar() == "joint") sp.frame = SensorSpec::Frame::Joint;
        // A force element's sensor reads an element read before this expression, never the one
        // being defined or one after it (their laws could read each other: a cycle).
        if (sensor_output_info(sp.output).target == SensorTarget::Force) {
          const bool exists = std::any_of(m_.system.forces().begin(), m_.system.forces().end(),
                                          [&](const ForceElement& f) { return f.name == sp.force; });
          if (!exists && force_names_.count(sp.force)) {
            std::string why;
            if (in_states)
              why = "the force elements are read after the controller states (their laws may read the states)";
            else if (sp.force == defining_force_)
              why = "the element being defined: its law would read itself (a cycle)";
            else if (!forces_done_.count(sp.force))
              why = "an element defined after this one in the forces section: an expression may read sensors of "
                    "the elements before it only (no cycles)";
            else
              why = "an element with problems of its own (above)";
            p = {q.argument_position, "sensor '" + q.argument + "' reads force element '" + sp.force + "', " + why};
            return std::nullopt;
          }
        }
        return sensor_quantity(m_.system, sp, q, p);
      },
      "a sensor's column (sensor(name) or sensor(name).x), its unit", true);
}

void Loader::sensors(const YAML::Node& n) {
  if (!section_list(n, "sensors")) return;
  std::map<std::string, size_t> names;
  std::map<std::string, std::string> columns = {{"time", ""}};  // CSV column -> the sensor that has it
  std::vector<std::string> outputs;  // the sensor table's names (Sensors.h), in its order
  for (const SensorOutputInfo& o : sensor_outputs()) outputs.push_back(o.name);
  for (size_t i = 0; i < n.size(); ++i) {
    const std::string path = index("sensors", i);
    Map s(*this, n[i], path,
          {"name", "body", "joint", "force", "shaft", "state", "coupling", "cable", "at", "point", "output", "frame"});
    SensorSpec sp;
    if (!s.valid()) {
      m_.sensor_locations.push_back(location(n[i], path, ""));
      continue;
    }
    bool ok = true;
    if (const Entry* e = s.require("name")) {
      auto nm = name(e->value, s.path("name"));
      if (nm && nm->find_first_of(",\"\n") != std::string::npos) {
        error(e->value, s.path("name"), "a sensor name must not contain commas, quotes or line breaks");
        nm.reset();
      }
      if (nm && names.count(*nm)) {
        error(e->value, s.path("name"), "duplicate sensor name '" + *nm + "'");
        nm.reset();
      }
      if (nm) {
        names[*nm] = i;
        sp.name = *nm;
      } else {
        ok = false;
      }
    } else {
      ok = false;
    }
    m_.sensor_locations.push_back(location(n[i], path, sp.name));
    std::optional<SensorOutput> out;
    if (const Entry* e = s.require("output")) {
      if (auto w = choice(e->value, s.path("output"), outputs))
        for (const SensorOutputInfo& o : sensor_outputs())
          if (*w == o.name) out = o.output;
    }
    if (!out) continue;
    sp.output = *out;
    if (solver_ok_) {
      // What the solver's runs carry is its declaration in the solver registry.
      const SensorOutputInfo& oi = sensor_output_info(*out);
      const SolverInfo* si = find_solver(m_.solver_name());
      if (si && ((oi.needs_accelerations && !si->support.accelerations) ||
                 (oi.needs_multipliers && !si->support.multipliers))) {
        std::string available;
        for (const SensorOutputInfo& x : sensor_outputs())
          if ((!x.needs_accelerations || si->support.accelerations) && (!x.needs_multipliers || si->support.multipliers) &&
              (x.output != SensorOutput::JointFriction || si->path != SolverPath::Impulse))
            available += std::string(available.empty() ? "" : ", ") + x.name;
        const char* what = oi.needs_accelerations ? "accelerations" : "Lagrange multipliers (reactions)";
        error(s.find("output")->value, s.path("output"),
              "output " + std::string(oi.name) + " is not available with solver.type " + m_.solver_name() +
                  (override_of("solver.type") ? " (set on the command line)" : "") + ": it needs " + what +
                  ", which that solver does not give (available: " + available + "; solvers that give them: " +
                  solver_names_where(oi.needs_accelerations
                                         ? +[](const SolverInfo& x) { return x.support.accelerations; }
                                         : +[](const SolverInfo& x) { return x.support.multipliers; }) +
                  ")");
        continue;
      }
    }
    if (*out == SensorOutput::JointFriction && solver_ok_) {
      const SolverInfo* si = find_solver(m_.solver_name());
      if (si && si->path == SolverPath::Impulse) {
        error(s.find("output")->value, s.path("output"),
              "output joint_friction is not available with solver.type " + m_.solver_name() +
                  ": its Coulomb friction is an impulse of the Gauss-Seidel iteration, not a force of the state "
                  "(use an implicit or explicit solver, whose regularized friction it gives)");
        continue;
      }
    }
    const SensorOutputInfo& info = sensor_output_info(*out);
    const std::string o = to_string(*out);
    auto not_for = [&](const char* key, const std::string& why) {
      if (const Entry* e = s.find(key)) {
        error(e->key_node, s.path(key), "key '" + std::string(key) + "' does not apply to output " + o + why);
        ok = false;
      }
    };
    // The body named by `body` (required or optional), checked against the bodies section.
    auto read_body = [&](bool required) {
      const Entry* e = required ? s.require("body") : s.find("body");
      if (!e) {
        if (required) ok = false;
        return;
      }
      if (auto b = string(e->value, s.path("body"))) {
        if (*b == "ground") {
          error(e->value, s.path("body"), "ground does not move; name a body");
          ok = false;
        } else if (!body_names_.count(*b)) {
          error(e->value, s.path("body"), unknown_name("body", *b, body_list()));
          ok = false;
        }
        sp.body = *b;
      }
    };
    if (info.target != SensorTarget::Shaft) not_for("shaft", " (shafts have the output shaft)");
    if (info.target != SensorTarget::Coupling) not_for("coupling", " (couplings have the output coupling_effort)");
    if (info.target != SensorTarget::Cable) {
      not_for("cable", " (cables have the outputs cable_position, cable_slope, cable_curvature, cable_axial_force)");
      not_for("at", " (a point of a cable: the cable outputs)");
    }
    switch (info.target) {
      case SensorTarget::Cable: {
        for (const char* k : {"body", "joint", "force", "state", "point", "frame"}) not_for(k, " (give the cable and at)");
        const Cable* cable = nullptr;
        if (const Entry* e = s.require("cable")) {
          if (auto x = string(e->value, s.path("cable"))) {
            for (const Cable& c : m_.system.cables())
              if (c.name == *x) cable = &c;
            if (!cable) {
              std::vector<std::string> names;
              for (const Cable& c : m_.system.cables()) names.push_back(c.name);
              error(e->value, s.path("cable"), unknown_name("cable", *x, names));
              ok = false;
            }
            sp.cable = *x;
          }
        } else {
          ok = false;
        }
        if (const Entry* e = s.require("at", "reference arc length from the cable's start, m")) {
          const double length = cable ? (cable->end - cable->start).norm() : HUGE_VAL;
          if (auto x = number(e->value, s.path("at"), {0, length, false, false, "in [0, the cable's length]"})) sp.at = *x;
          else ok = false;
        } else {
          ok = false;
        }
        break;
      }
      case SensorTarget::Coupling: {
        for (const char* k : {"body", "joint", "force", "state", "point", "frame"}) not_for(k, " (give the coupling)");
        if (const Entry* e = s.require("coupling")) {
          if (auto x = string(e->value, s.path("coupling"))) {
            if (std::none_of(m_.system.couplings().begin(), m_.system.couplings().end(),
                             [&](const Coupling& c) { return c.name == *x; })) {
              error(e->value, s.path("coupling"), unknown_name("coupling", *x, coupling_list()));
              ok = false;
            }
            sp.coupling = *x;
          }
        } else {
          ok = false;
        }
        break;
      }
      case SensorTarget::Shaft: {
        for (const char* k : {"body", "joint", "force", "state", "point", "frame"}) not_for(k, " (give the shaft)");
        if (const Entry* e = s.require("shaft")) {
          if (auto x = string(e->value, s.path("shaft"))) {
            if (m_.system.shaft_index(*x) < 0) {
              error(e->value, s.path("shaft"), unknown_name("shaft", *x, shaft_list()));
              ok = false;
            }
            sp.shaft = *x;
          }
        } else {
          ok = false;
        }
        break;
      }
      case SensorTarget::System:
        for (const char* k : {"body", "joint", "force", "state", "point", "frame"}) not_for(k, " (a quantity of the whole system)");
        break;
      case SensorTarget::BodyOrSystem:
        for (const char* k : {"joint", "force", "state", "point", "frame"}) not_for(k, " (give a body, or nothing for the whole system)");
        read_body(false);
        break;
      case SensorTarget::Joint: {
        not_for("body", " (give the joint)");
        not_for("force", " (give the joint)");
        not_for("state", " (give the joint)");
        not_for("point", info.takes_frame ? " (reactions act at the joint point)" : " (a joint coordinate)");
        if (!info.takes_frame) not_for("frame", " (a joint coordinate)");
        if (const Entry* e = s.require("joint")) {
          if (auto j = string(e->value, s.path("joint"))) {
            if (!joint_names_.count(*j)) {
              error(e->value, s.path("joint"), unknown_name("joint", *j, joint_list()));
              ok = false;
            } else if (info.accepts_joint) {
              for (const Joint& jt : m_.system.joints())
                if (jt.name == *j && !info.accepts_joint(jt.type)) {
                  error(e->value, s.path("joint"),
                        "output " + o + " applies to " + info.joint_types + " joints; joint '" + *j + "' is " +
                            to_string(jt.type));
                  ok = false;
                } else if (jt.name == *j && *out == SensorOutput::DriveEffort && !jt.motion && !jt.speed) {
                  error(e->value, s.path("joint"),
                        "output " + o + " applies to driven joints; joint '" + *j + "' has no motion or speed");
                  ok = false;
                }
            }
            sp.joint = *j;
          }
        } else {
          ok = false;
        }
        if (const Entry* e = s.find("frame"); e && info.takes_frame) {
          if (auto f = choice(e->value, s.path("frame"), {"world", "joint"}))
            sp.frame = *f == "world" ? SensorSpec::Frame::World : SensorSpec::Frame::Joint;
        }
        break;
      }
      case SensorTarget::Force: {
        for (const char* k : {"body", "joint", "state", "point", "frame"}) not_for(k, " (give the force element)");
        if (const Entry* e = s.require("force")) {
          if (auto f = string(e->value, s.path("force"))) {
            const ForceElement* fe = nullptr;
            for (const ForceElement& x : m_.system.forces())
              if (x.name == *f) fe = &x;
            if (!fe) {
              if (forces_with_problems_.count(*f)) follow_on();  // reported at the force element
              else error(e->value, s.path("force"), unknown_name("force element", *f, force_list()));
              ok = false;
            } else if (info.accepts_force && !info.accepts_force(fe->type)) {
              error(e->value, s.path("force"),
                    "output " + o + " applies to " + info.force_types + " elements; '" + *f + "' is " +
                        to_string(fe->type));
              ok = false;
            }
            sp.force = *f;
          }
        } else {
          ok = false;
        }
        break;
      }
      case SensorTarget::State: {
        for (const char* k : {"body", "joint", "force", "point", "frame"}) not_for(k, " (give the controller state)");
        if (const Entry* e = s.require("state")) {
          if (auto z = string(e->value, s.path("state"))) {
            if (m_.system.find_controller_state(*z) < 0) {
              error(e->value, s.path("state"), unknown_name("controller state", *z, state_list()));
              ok = false;
            }
            sp.state = *z;
          }
        } else {
          ok = false;
        }
        break;
      }
      case SensorTarget::Body: {
        not_for("joint", " (give the body)");
        not_for("force", " (give the body)");
        not_for("state", " (give the body)");
        not_for("frame", " (the _local outputs give body axes)");
        if (!info.uses_point) not_for("point", " (the same for every point of the body)");
        read_body(true);
        if (const Entry* e = s.find("point"); e && info.uses_point) {
          if (auto p = vec3(e->value, s.path("point"), coordinate())) sp.point = *p;
        }
        break;
      }
    }
    // Every CSV column is named once: "time" is the time's, and a sensor named "bob.x" would
    // repeat the column x of a sensor "bob" with three columns.
    if (ok && !sp.name.empty()) {
      for (const char* suf : sensor_output_info(*out).suffixes) {
        const std::string col = sp.name + suf;
        if (auto c = columns.find(col); c != columns.end()) {
          error(s.find("name")->value, s.path("name"),
                "the column '" + col + "' of this sensor is already " +
                    (c->second.empty() ? std::string("the time column") : "a column of " + c->second) +
                    "; every column of the results needs its own name");
          ok = false;
          break;
        }
      }
      if (ok)
        for (const char* suf : sensor_output_info(*out).suffixes) columns[sp.name + suf] = path + " ('" + sp.name + "')";
    }
    if (!ok) continue;
    add_item(ItemRef::Kind::Sensor, m_.sensor_locations.back(), false);
    m_.sensors.push_back(sp);
  }
}

}  // namespace mbdae::io::loader
