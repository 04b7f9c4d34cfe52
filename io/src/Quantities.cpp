#include <mbdae/io/Quantities.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include <mbdae/model/JointTypes.h>

namespace mbdae::io {

namespace {

const BodyMotion& at_rest() {
  static const BodyMotion ground{};
  return ground;
}

enum class JointQ { Angle, Rate, Displacement, Speed };
enum class BodyQ { X, Y, Z, Vx, Vy, Vz, Wx, Wy, Wz };

const std::vector<std::pair<std::string, std::string>> kBuiltin = {
    {"angle", "joint angle, rad (revolute, cylindrical; turns counted)"},
    {"rate", "joint angular rate, rad/s (revolute, cylindrical)"},
    {"displacement", "joint displacement along the axis, m (prismatic, cylindrical)"},
    {"speed", "joint speed along the axis, m/s (prismatic, cylindrical)"},
    {"x", "body reference point, world x, m"},
    {"y", "body reference point, world y, m"},
    {"z", "body reference point, world z, m"},
    {"vx", "velocity of the body reference point, world x, m/s"},
    {"vy", "velocity of the body reference point, world y, m/s"},
    {"vz", "velocity of the body reference point, world z, m/s"},
    {"wx", "body angular velocity, world x, rad/s"},
    {"wy", "body angular velocity, world y, rad/s"},
    {"wz", "body angular velocity, world z, rad/s"},
};

// A joint's markers in body axes (ground: world), as a joint_motor's (JointMotor.cpp).
struct JointMarkers {
  Vec3 xa, xb;  // marker points, body axes from the reference point
  Mat3 Aa, Ab;  // marker frames (z = the axis), body axes
  bool a_ground = false, b_ground = false;
};

}  // namespace

QuantityResolver::QuantityResolver(const System& system) : system_(system) {}

const std::vector<std::pair<std::string, std::string>>& QuantityResolver::builtin() { return kBuiltin; }

void QuantityResolver::add_function(const std::string& name, Handler handler, const std::string& meaning,
                                    bool takes_components) {
  for (Added& a : added_)
    if (a.name == name) {
      a.handler = std::move(handler);
      a.meaning = meaning;
      a.takes_components = takes_components;
      return;
    }
  added_.push_back({name, meaning, std::move(handler), takes_components});
}

std::vector<std::string> QuantityResolver::functions() const {
  std::vector<std::string> f;
  for (const auto& b : kBuiltin) f.push_back(b.first);
  for (const Added& a : added_)
    if (std::find(f.begin(), f.end(), a.name) == f.end()) f.push_back(a.name);
  return f;
}

std::optional<Quantity> QuantityResolver::resolve(const std::string& text, QuantityProblem& problem) const {
  // name(argument) with an unknown name: say which names there are.
  const size_t b = text.find_first_not_of(" \t"), open = text.find('(');
  if (b != std::string::npos && open != std::string::npos && open > b) {
    std::string word = text.substr(b, open - b);
    word.erase(word.find_last_not_of(" \t") + 1);
    const std::vector<std::string> known = functions();
    if (std::all_of(word.begin(), word.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }) &&
        std::find(known.begin(), known.end(), word) == known.end()) {
      std::string list;
      for (const std::string& f : known) list += (list.empty() ? "" : ", ") + f;
      problem = {static_cast<int>(b), "unknown quantity " + word + "() (known: " + list + ")"};
      return std::nullopt;
    }
  }
  try {
    const Expression e(text, functions());
    if (e.quantities().size() != 1 || e.depends_on_time()) {
      problem = {0, "expected one named quantity such as angle(hinge), got '" + text + "'"};
      return std::nullopt;
    }
    return resolve(e.quantities()[0], problem);
  } catch (const ExpressionError& err) {
    problem = {err.position(), err.what()};
    return std::nullopt;
  }
}

std::optional<Quantity> QuantityResolver::resolve(const ExpressionQuantity& q, QuantityProblem& problem) const {
  for (const Added& a : added_)
    if (a.name == q.function) {
      if (!q.component.empty() && !a.takes_components) {
        problem = {q.component_position, q.function + "(" + q.argument + ") is one number: it has no component ." +
                                             q.component};
        return std::nullopt;
      }
      return a.handler(q, problem);
    }
  const std::string text = q.function + "(" + q.argument + ")";
  if (!q.component.empty()) {
    bool builtin = false;
    for (const auto& b : kBuiltin) builtin = builtin || b.first == q.function;
    if (builtin) {
      problem = {q.component_position, text + " is one number: it has no component ." + q.component +
                                           " (components such as .x belong to sensor(name))"};
      return std::nullopt;
    }
  }
  if (q.argument.empty()) {
    for (const auto& b : kBuiltin)
      if (b.first == q.function) {
        problem = {q.argument_position, q.function + "() needs the name of a " +
                                            (q.function.size() > 2 ? "joint" : "body") + " in its parentheses, e.g. " +
                                            q.function + (q.function.size() > 2 ? "(hinge)" : "(wheel)")};
        return std::nullopt;
      }
  }
  static const std::array<std::string, 4> joint_fns = {"angle", "rate", "displacement", "speed"};
  if (const auto jf = std::find(joint_fns.begin(), joint_fns.end(), q.function); jf != joint_fns.end()) {
    const JointQ kind = static_cast<JointQ>(jf - joint_fns.begin());
    const Joint* joint = nullptr;
    for (const Joint& j : system_.joints())
      if (j.name == q.argument) joint = &j;
    if (!joint) {
      problem = {q.argument_position, "unknown joint '" + q.argument + "'"};
      return std::nullopt;
    }
    const JointType jt = joint->type;
    const bool turns = jt == JointType::Revolute || jt == JointType::Cylindrical;
    const bool slides = jt == JointType::Prismatic || jt == JointType::Cylindrical;
    const bool angular = kind == JointQ::Angle || kind == JointQ::Rate;
    if (!turns && !slides) {
      problem = {q.argument_position, "joint '" + q.argument + "' is " + to_string(jt) + ": " + q.function +
                                          "() applies to revolute, prismatic and cylindrical joints"};
      return std::nullopt;
    }
    if (angular ? !turns : !slides) {
      problem = {q.position, q.function + "() applies to " +
                                 std::string(angular ? "revolute and cylindrical" : "prismatic and cylindrical") +
                                 " joints; '" + q.argument + "' is " + to_string(jt)};
      return std::nullopt;
    }
    for (const std::string& b : joint->bodies)
      if (!system_.find_body(b)) {  // the joint's own problem, reported at the joint
        problem = {q.argument_position, "joint '" + q.argument + "' names an unknown body '" + b + "'"};
        return std::nullopt;
      }
    Quantity out;
    out.text = text;
    JointMarkers mk;
    const Mat3 A = frame_from_axis(joint->axis, 2);
    auto marker = [&](const std::string& body, Vec3& x, Mat3& Af, bool& ground) {
      if (body == "ground") {
        ground = true;
        x = joint->point;
        Af = A;
        return;
      }
      const RigidBody& rb = system_.bodies()[static_cast<size_t>(system_.body_index(body))];
      x = rb.orientation.transpose() * (joint->point - rb.position);
      Af = rb.orientation.transpose() * A;
      out.bodies.push_back(body);
    };
    marker(joint->bodies[0], mk.xa, mk.Aa, mk.a_ground);
    marker(joint->bodies[1], mk.xb, mk.Ab, mk.b_ground);
    out.counts_turns = kind == JointQ::Angle;
    out.value = [mk, kind, last = 0.0](const QuantityInput& in) mutable {
      size_t k = 0;
      const BodyMotion& a = mk.a_ground ? at_rest() : in.body(k++);
      const BodyMotion& b = mk.b_ground ? at_rest() : in.body(k++);
      const Mat3 FA = a.R * mk.Aa;
      const Vec3 e = FA.col(2);
      switch (kind) {
        case JointQ::Angle: {
          const Vec3 xb = b.R * mk.Ab.col(0);
          const double wrapped = std::atan2(xb.dot(FA.col(1)), xb.dot(FA.col(0)));
          last += std::remainder(wrapped - last, 2 * std::numbers::pi);
          return last;
        }
        case JointQ::Rate: return (b.w - a.w).dot(e);
        case JointQ::Displacement:
        case JointQ::Speed: {
          const Vec3 ra = a.R * mk.xa, rb = b.R * mk.xb;
          const Vec3 d = b.p + rb - a.p - ra;
          if (kind == JointQ::Displacement) return e.dot(d);
          const Vec3 dd = b.v + b.w.cross(rb) - a.v - a.w.cross(ra);
          return e.dot(dd) + a.w.cross(e).dot(d);
        }
      }
      return 0.0;
    };
    return out;
  }
  static const std::array<std::string, 9> body_fns = {"x", "y", "z", "vx", "vy", "vz", "wx", "wy", "wz"};
  if (const auto bf = std::find(body_fns.begin(), body_fns.end(), q.function); bf != body_fns.end()) {
    const int kind = static_cast<int>(bf - body_fns.begin());
    if (q.argument == "ground") {
      problem = {q.argument_position, q.function + "(ground): the ground does not move; name a body"};
      return std::nullopt;
    }
    if (!system_.find_body(q.argument)) {
      problem = {q.argument_position, "unknown body '" + q.argument + "'"};
      return std::nullopt;
    }
    Quantity out;
    out.text = text;
    out.bodies = {q.argument};
    out.value = [kind](const QuantityInput& in) {
      const BodyMotion& m = in.body(0);
      const int c = kind % 3;
      return kind < 3 ? m.p[c] : kind < 6 ? m.v[c] : m.w[c];
    };
    return out;
  }
  std::string known;
  for (const std::string& f : functions()) known += (known.empty() ? "" : ", ") + f;
  problem = {q.position, "unknown quantity " + q.function + "() (known: " + known + ")"};
  return std::nullopt;
}

StateExpression::StateExpression(Expression expression, std::vector<Quantity> quantities)
    : expression_(std::move(expression)), quantities_(std::move(quantities)) {
  first_.push_back(0);
  for (const Quantity& q : quantities_) {
    for (const std::string& b : q.bodies) {
      auto it = std::find(bodies_.begin(), bodies_.end(), b);
      if (it == bodies_.end()) it = bodies_.insert(bodies_.end(), b);
      index_.push_back(static_cast<int>(it - bodies_.begin()));
    }
    first_.push_back(index_.size());
  }
  state_first_.push_back(0);
  for (const Quantity& q : quantities_) {
    for (const std::string& s : q.states) {
      auto it = std::find(states_.begin(), states_.end(), s);
      if (it == states_.end()) it = states_.insert(states_.end(), s);
      state_index_.push_back(static_cast<int>(it - states_.begin()));
    }
    state_first_.push_back(state_index_.size());
  }
}

namespace {
std::vector<Quantity> resolve_all(const Expression& e, const QuantityResolver& r) {
  std::vector<Quantity> out;
  for (const ExpressionQuantity& q : e.quantities()) {
    QuantityProblem p;
    std::optional<Quantity> x = r.resolve(q, p);
    if (!x) throw ExpressionError(p.message, p.position);
    out.push_back(std::move(*x));
  }
  return out;
}
}  // namespace

StateExpression::StateExpression(const std::string& text, const QuantityResolver& resolver,
                                 const std::string& table_directory)
    : StateExpression(Expression(text, resolver.functions(), table_directory), {}) {
  *this = StateExpression(expression_, resolve_all(expression_, resolver));
}

void StateExpression::bind(const std::vector<std::string>& bodies) {
  std::vector<int> map(bodies_.size());
  for (size_t k = 0; k < bodies_.size(); ++k) {
    const auto it = std::find(bodies.begin(), bodies.end(), bodies_[k]);
    if (it == bodies.end())
      throw std::invalid_argument("StateExpression::bind: body '" + bodies_[k] + "' of '" + expression_.text() +
                                  "' is not in the list");
    map[k] = static_cast<int>(it - bodies.begin());
  }
  for (int& i : index_) i = map[static_cast<size_t>(i)];
  bodies_ = bodies;
}

double StateExpression::operator()(double t, std::span<const BodyMotion> motions) const {
  return (*this)(t, motions, {});
}

double StateExpression::operator()(double t, std::span<const BodyMotion> motions,
                                   std::span<const double> state_values) const {
  return with_doubles(quantities_.size(), [&](double* v) {
    for (size_t i = 0; i < quantities_.size(); ++i) {
      QuantityInput in{t, motions, std::span<const int>(index_.data() + first_[i], first_[i + 1] - first_[i]),
                       state_values,
                       std::span<const int>(state_index_.data() + state_first_[i], state_first_[i + 1] - state_first_[i])};
      v[i] = quantities_[i].value(in);
    }
    return expression_(t, std::span<const double>(v, quantities_.size()));
  });
}

BoundQuantities::BoundQuantities(std::vector<Quantity> quantities, std::vector<std::string>& bodies)
    : quantities_(std::move(quantities)) {
  for (const Quantity& q : quantities_) {
    for (const std::string& b : q.bodies) {
      auto it = std::find(bodies.begin(), bodies.end(), b);
      if (it == bodies.end()) it = bodies.insert(bodies.end(), b);
      index_.push_back(static_cast<int>(it - bodies.begin()));
    }
    first_.push_back(index_.size());
    for (const std::string& z : q.states) {
      auto it = std::find(states_.begin(), states_.end(), z);
      if (it == states_.end()) it = states_.insert(states_.end(), z);
      state_index_.push_back(static_cast<int>(it - states_.begin()));
    }
    state_first_.push_back(state_index_.size());
    if (q.counts_turns) reads_angle_ = true;
  }
}

ForceElement state_load(const Load& l, std::vector<Quantity> quantities, StateLoadValue value) {
  if (l.body.empty() || l.body == "ground")
    throw std::invalid_argument("load '" + l.name + "': a load acts on a body, not on '" + l.body + "'");
  ForceElement fe;
  fe.name = l.name;
  fe.type = ForceType::User;
  fe.bodies = {l.body};
  const BoundQuantities bound(std::move(quantities), fe.bodies);
  fe.effort_uses_angle = bound.reads_angle();
  fe.states = bound.states();
  const bool force = l.kind == Load::Kind::Force, body_axes = l.frame == Load::Frame::Body;
  fe.user_of_states = [bound, value = std::move(value), force, body_axes, point = l.point](
                          double t, const std::vector<BodyMotion>& bm, std::span<const double> z,
                          std::vector<Wrench>& out) {
    Vec3 val = bound.with_values(t, bm, z, [&](std::span<const double> q) { return value(t, q); });
    const Mat3& R = bm[0].R;
    if (body_axes) val = R * val;
    if (force) {
      out[0].force = val;
      out[0].torque = (R * point).cross(val);
    } else {
      out[0].torque = val;
    }
  };
  return fe;
}

}  // namespace mbdae::io
