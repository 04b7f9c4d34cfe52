/// @file Forces.cpp
/// The `forces` section: loads (force, torque; values may be expressions of t) and force elements
/// (spring-dampers).

#include "Loader.h"

#include <mbdae/io/Quantities.h>
#include <mbdae/model/ForceTypes.h>
#include <mbdae/model/JointTypes.h>

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
      error(e->value[k], index(bp, k), unknown_name("body", *s, body_list()));
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
    force_type_info(fe.type).check(fe, p);  // a joint_motor of named quantities is a user law by now
    key_problems(f, p);
    ok = p.empty();
  }
  if (!ok) {
    motor_position_reads_.erase(m_.system.forces().size());  // not added: the index is the next one's
    forces_with_problems_.insert(fe.name);
    return;
  }
  if (fe.type == ForceType::JointFriction && fe.normal_from_reaction)
    if (const Entry* e = f.find("normal")) reaction_friction_.push_back({e->value.Mark(), f.path("normal")});
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
    if (!joint_names_.count(*jname)) error(je->value, f.path("joint"), unknown_name("joint", *jname, joint_list()));
    return nullptr;
  }
  // A joint with problems of its own (an unknown body, ...): reported at the joint.
  if (const auto j = joint_names_.find(*jname);
      j != joint_names_.end() && items_with_problems_.count({ItemRef::Kind::Joint, static_cast<int>(j->second)})) {
    follow_on();
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
  // angle, rate, displacement, speed of its own joint (f() or f(J)): slots of JointCoordinates;
  // state(name): a controller state (fe.states). Any other named quantity makes the motor a law
  // over more bodies (motor_of_state).
  static const std::vector<std::string> functions = {"angle", "rate", "displacement", "speed", "state"};
  QuantityResolver resolver(m_.system);
  add_state_function(resolver);
  add_sensor_function(resolver, false);
  const QuantityRules others = state_rules(resolver, "");
  auto own_quantity = [&](const ExpressionQuantity& q) {
    const bool coordinate = std::find(functions.begin(), functions.begin() + 4, q.function) != functions.begin() + 4;
    return q.component.empty() && (q.function == "state" || (coordinate && (q.argument.empty() || q.argument == *jname)));
  };
  QuantityRules rules;
  rules.functions = resolver.functions();
  rules.what = "an expression of t, the joint's angle(), rate(), displacement(), speed(), named quantities and "
               "controller states state(name)";
  rules.check = [&](const ExpressionQuantity& q) -> std::optional<std::pair<int, std::string>> {
    if (q.function == "state" || !own_quantity(q)) return others.check(q);
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
  const bool of_state = std::any_of(ex->quantities().begin(), ex->quantities().end(),
                                    [&](const ExpressionQuantity& q) { return !own_quantity(q); });
  if (of_state) {
    std::vector<Quantity> quantities;
    for (ExpressionQuantity q : ex->quantities()) {
      if (q.argument.empty()) q.argument = *jname;
      QuantityProblem p;
      quantities.push_back(*resolver.resolve(q, p));  // checked above
    }
    return motor_of_state(fe, std::move(quantities), std::move(*ex)) && ok;
  }
  // Each quantity's slot in JointCoordinates (angle() and angle(J) are two spellings of one), or
  // 4 + k for state k of fe.states.
  const size_t nq = ex->quantities().size();
  std::vector<int> slot(nq);
  for (size_t i = 0; i < nq; ++i) {
    const ExpressionQuantity& q = ex->quantities()[i];
    slot[i] = static_cast<int>(std::find(functions.begin(), functions.end(), q.function) - functions.begin());
    if (slot[i] == 0) fe.effort_uses_angle = true;
    if (slot[i] == 0 || slot[i] == 2) motor_position_reads_.emplace(m_.system.forces().size(), q.function);
    if (q.function == "state") {
      slot[i] = 4 + static_cast<int>(fe.states.size());
      fe.states.push_back(q.argument);
    }
  }
  fe.effort = [x = std::move(*ex), slot](double t, const JointCoordinates& c) {
    const std::array<double, 4> all{c.angle, c.rate, c.displacement, c.speed};
    return with_doubles(slot.size(), [&](double* v) {
      for (size_t i = 0; i < slot.size(); ++i)
        v[i] = slot[i] < 4 ? all[static_cast<size_t>(slot[i])] : c.states[static_cast<size_t>(slot[i] - 4)];
      return x(t, std::span<const double>(v, slot.size()));
    });
  };
  return ok;
}

/// A joint_motor whose value names quantities beyond its own joint's: the same action (u along
/// the joint's axis turning with a: a torque u e on b and −u e on a, or a force u e on b at b's
/// marker point and its opposite on a at the same point), as a user law over the joint's bodies
/// and those the quantities read, and over the controller states they read (user_of_states). Its
/// type becomes User: the joint_motor sensor output does not apply to it (refused by name at the
/// sensor).
bool Loader::motor_of_state(ForceElement& fe, std::vector<Quantity> quantities, Expression value) const {
  const System& sys = m_.system;
  // A joint with an unknown body is reported at the joint (System::check); nothing to build here.
  for (const std::string& b : fe.bodies)
    if (b != "ground" && !sys.find_body(b)) return false;
  const Mat3 A = frame_from_axis(fe.axis, 2);
  std::vector<std::string> bodies;
  struct Side {
    int index = -1;  // in bodies, −1 for ground
    Vec3 x = Vec3::Zero();  // marker point, body axes (ground: world)
    Vec3 axis = Vec3::UnitZ();  // the joint axis, body axes (ground: world)
  };
  std::array<Side, 2> side;
  for (size_t k = 0; k < 2; ++k) {
    if (fe.bodies[k] == "ground") {
      side[k].x = fe.point;
      side[k].axis = A.col(2);
      continue;
    }
    const RigidBody& rb = sys.bodies()[static_cast<size_t>(sys.body_index(fe.bodies[k]))];
    side[k].index = static_cast<int>(bodies.size());
    side[k].x = rb.orientation.transpose() * (fe.point - rb.position);
    side[k].axis = rb.orientation.transpose() * A.col(2);
    bodies.push_back(fe.bodies[k]);
  }
  const BoundQuantities bound(std::move(quantities), bodies);
  if (bound.reads_angle()) fe.effort_uses_angle = true;
  fe.type = ForceType::User;
  fe.bodies = bodies;
  fe.states = bound.states();
  fe.user_of_states = [bound, value = std::move(value), side, force = fe.motor_force](
                          double t, const std::vector<BodyMotion>& bm, std::span<const double> z,
                          std::vector<Wrench>& out) {
    const double u = bound.with_values(t, bm, z, [&](std::span<const double> q) { return value(t, q); });
    static const BodyMotion ground{};
    const BodyMotion& a = side[0].index < 0 ? ground : bm[static_cast<size_t>(side[0].index)];
    const BodyMotion& b = side[1].index < 0 ? ground : bm[static_cast<size_t>(side[1].index)];
    const Vec3 e = side[0].index < 0 ? side[0].axis : Vec3(a.R * side[0].axis);
    if (force) {
      const Vec3 F = u * e;
      const Vec3 rb = side[1].index < 0 ? Vec3(side[1].x - b.p) : Vec3(b.R * side[1].x);
      const Vec3 at = b.p + rb;  // b's marker point, world
      if (side[1].index >= 0) {
        out[static_cast<size_t>(side[1].index)].force += F;
        out[static_cast<size_t>(side[1].index)].torque += rb.cross(F);
      }
      if (side[0].index >= 0) {
        out[static_cast<size_t>(side[0].index)].force -= F;
        out[static_cast<size_t>(side[0].index)].torque -= (at - a.p).cross(F);
      }
    } else {
      if (side[1].index >= 0) out[static_cast<size_t>(side[1].index)].torque += u * e;
      if (side[0].index >= 0) out[static_cast<size_t>(side[0].index)].torque -= u * e;
    }
  };
  return true;
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

/// The rules of an expression of t and the named quantities of the model's joints and bodies
/// (Quantities.h): each name is resolved now, problems reported at their column.
QuantityRules Loader::state_rules(const QuantityResolver& resolver, const std::string& what) {
  QuantityRules rules;
  rules.functions = resolver.functions();
  rules.what = what;
  rules.check = [this, &resolver](const ExpressionQuantity& q) -> std::optional<std::pair<int, std::string>> {
    QuantityProblem p;
    if (resolver.resolve(q, p)) return std::nullopt;
    // A joint of the file with problems of its own (reported at the joint): a follow-on.
    if (const auto j = joint_names_.find(q.argument);
        j != joint_names_.end() && items_with_problems_.count({ItemRef::Kind::Joint, static_cast<int>(j->second)}))
      return std::pair{-1, std::string()};
    if (p.message.rfind("unknown joint", 0) == 0) return std::pair{p.position, unknown_name("joint", q.argument, joint_list())};
    if (p.message.rfind("unknown body", 0) == 0) return std::pair{p.position, unknown_name("body", q.argument, body_list())};
    return std::pair{p.position, p.message};
  };
  return rules;
}

/// A load whose value names quantities of the state: a user force element on the loaded body and
/// the bodies its quantities read (io::state_load).
ForceElement Loader::state_load(const Load& l, std::array<Expression, 3> value, const QuantityResolver& resolver) {
  // One list of the three components' quantities; component k reads q[first[k] .. first[k+1]).
  std::vector<Quantity> quantities;
  std::array<size_t, 4> first{};
  for (size_t k = 0; k < 3; ++k) {
    for (const ExpressionQuantity& eq : value[k].quantities()) {
      QuantityProblem p;
      quantities.push_back(*resolver.resolve(eq, p));  // resolved once already (state_rules)
    }
    first[k + 1] = quantities.size();
  }
  return io::state_load(l, std::move(quantities), [value = std::move(value), first](double t, std::span<const double> q) {
    Vec3 v;
    for (size_t k = 0; k < 3; ++k) v[static_cast<Eigen::Index>(k)] = value[k](t, q.subspan(first[k], first[k + 1] - first[k]));
    return v;
  });
}

void Loader::forces(const YAML::Node& n) {
  if (!section_list(n, "forces")) return;
  QuantityResolver resolver(m_.system);
  add_state_function(resolver);  // a load may read controller states (the states section is read before)
  add_sensor_function(resolver, false);
  for (size_t i = 0; i < n.size(); ++i)
    if (n[i].IsMap() && n[i]["name"] && n[i]["name"].IsScalar()) force_names_.insert(n[i]["name"].Scalar());
  const QuantityRules load_rules =
      state_rules(resolver, "an expression of t and the state");
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
    // The item being read (a sensor of it in its own law is a cycle); read once this is done.
    defining_force_ = l.name;
    struct Done {
      Loader& self;
      ~Done() { self.forces_done_.insert(self.defining_force_); }
    } done{*this};
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
        else if (!body_names_.count(*s)) error(e->value, f.path("body"), unknown_name("body", *s, body_list()));
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
      if (list(e->value, vp, 3, "a list of 3 numbers or expressions of t and the state")) {
        std::array<std::optional<Expression>, 3> ex;
        bool ok = true, timed = false, state = false;
        for (size_t k = 0; k < 3; ++k) {
          ex[k] = expression(e->value[k], index(vp, k), load_rules);
          if (!ex[k]) ok = false;
          else {
            timed = timed || ex[k]->depends_on_time();
            state = state || !ex[k]->quantities().empty();
          }
        }
        if (ok && state && problem_count() == errors_before) {
          // A function of the state: a force element (user law) on the body and those it reads.
          force_elements_.push_back({n[i].Mark(), path});
          add_item(ItemRef::Kind::Force, m_.force_locations.back(), false);
          m_.system.add_force(state_load(l, {*ex[0], *ex[1], *ex[2]}, resolver));
          continue;
        }
        if (ok && !state) {
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
