#include <mbdae/model/System.h>

#include <mbdae/model/ForceTypes.h>
#include <mbdae/model/JointTypes.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include <Eigen/Eigenvalues>

namespace mbdae {

const char* to_string(RotationParametrization p) {
  switch (p) {
    case RotationParametrization::EulerParameters: return "euler_parameters";
    case RotationParametrization::TaitBryan: return "rxyz";
    case RotationParametrization::RotationVector: return "rotation_vector";
  }
  return "?";
}



// Richardson extrapolation of central differences (error O(h⁴)); the steps balance truncation
// against round-off for functions varying on a time scale of order 1 s.
namespace {
double diff1(const std::function<double(double)>& f, double t) {
  const double h = 1e-3;  // s: functions are assumed to vary on a time scale of order 1 s
  const double d1 = (f(t + h) - f(t - h)) / (2 * h);
  const double d2 = (f(t + h / 2) - f(t - h / 2)) / h;
  return (4 * d2 - d1) / 3;
}
double diff2(const std::function<double(double)>& f, double t) {
  const double h = 1e-2;  // s
  const double f0 = f(t);
  const double d1 = (f(t + h) - 2 * f0 + f(t - h)) / (h * h);
  const double d2 = (f(t + h / 2) - 2 * f0 + f(t - h / 2)) / (h * h / 4);
  return (4 * d2 - d1) / 3;
}
}  // namespace

double TimeFunction::derivative(double t) const {
  return velocity ? velocity(t) : diff1(value, t);
}
double TimeFunction::second_derivative(double t) const {
  if (acceleration) return acceleration(t);
  if (velocity) return diff1(velocity, t);
  return diff2(value, t);
}

Mat3 RigidBody::inertia_tensor() const {
  Mat3 J;
  J << inertia[0], inertia[5], inertia[4],  //
      inertia[5], inertia[1], inertia[3],   //
      inertia[4], inertia[3], inertia[2];
  return J;
}

static std::string join_lines(const std::vector<std::string>& p) {
  std::string s;
  for (size_t i = 0; i < p.size(); ++i) s += (i ? "\n" : "") + p[i];
  return s;
}

const char* to_string(ItemRef::Kind k) {
  switch (k) {
    case ItemRef::Kind::None: return "";
    case ItemRef::Kind::Body: return "body";
    case ItemRef::Kind::Joint: return "joint";
    case ItemRef::Kind::Load: return "load";
    case ItemRef::Kind::Force: return "force";
    case ItemRef::Kind::Contact: return "contact";
    case ItemRef::Kind::Sensor: return "sensor";
    case ItemRef::Kind::Coupling: return "coupling";
    case ItemRef::Kind::Shaft: return "shaft";
    case ItemRef::Kind::ShaftForce: return "shaft force";
    case ItemRef::Kind::State: return "state";
  }
  return "";
}

const char* to_string(Coupling::Kind k) {
  switch (k) {
    case Coupling::Kind::Gear: return "gear";
    case Coupling::Kind::RackPinion: return "rack_pinion";
    case Coupling::Kind::Linear: return "linear";
    case Coupling::Kind::Belt: return "belt";
    case Coupling::Kind::Screw: return "screw";
    case Coupling::Kind::Bevel: return "bevel";
  }
  return "";
}

const char* to_string(Shaft::Kind k) {
  switch (k) {
    case Shaft::Kind::Rotor: return "rotor";
    case Shaft::Kind::Mass: return "mass";
  }
  return "";
}

const char* to_string(ShaftForce::Kind k) {
  switch (k) {
    case ShaftForce::Kind::SpringDamper: return "spring_damper";
    case ShaftForce::Kind::Load: return "load";
  }
  return "";
}

int System::shaft_index(const std::string& name) const {
  for (size_t i = 0; i < shafts_.size(); ++i)
    if (shafts_[i].name == name) return static_cast<int>(i);
  return -1;
}

namespace {
std::vector<std::string> messages_of(const std::vector<ModelProblem>& p) {
  std::vector<std::string> m;
  m.reserve(p.size());
  for (const ModelProblem& x : p) m.push_back(x.message);
  return m;
}
std::vector<ModelProblem> without_items(const std::vector<std::string>& messages) {
  std::vector<ModelProblem> p;
  p.reserve(messages.size());
  for (const std::string& m : messages) p.push_back({m, {}});
  return p;
}
}  // namespace

ModelError::ModelError(const std::vector<std::string>& problems)
    : std::runtime_error(join_lines(problems)), messages_(problems), details_(without_items(problems)) {}

ModelError::ModelError(std::vector<ModelProblem> problems)
    : std::runtime_error(join_lines(messages_of(problems))),
      messages_(messages_of(problems)),
      details_(std::move(problems)) {}

BodyIndex System::add_body(RigidBody body) {
  bodies_.push_back(std::move(body));
  return static_cast<BodyIndex>(bodies_.size() - 1);
}
void System::add_joint(Joint joint) { joints_.push_back(std::move(joint)); }
void System::add_load(Load load) { loads_.push_back(std::move(load)); }
void System::add_force(ForceElement force) { forces_.push_back(std::move(force)); }
namespace {
// The fields every two-body spring-damper shares; the callers add their geometry.
ForceElement two_body_force(ForceType type, const std::string& name, const std::string& a,
                            const std::string& b, double k, double d, std::optional<double> length) {
  ForceElement f;
  f.name = name;
  f.type = type;
  f.bodies = {a, b};
  f.stiffness = k;
  f.damping = d;
  f.length = length;
  return f;
}
}  // namespace

void System::add_spring_damper(const std::string& n, const std::string& a, const std::string& b,
                               const Vec3& point_a, const Vec3& point_b, double k, double d,
                               std::optional<double> length) {
  ForceElement f = two_body_force(ForceType::SpringDamper, n, a, b, k, d, length);
  f.point = point_a;
  f.point_b = point_b;
  add_force(std::move(f));
}

void System::add_torsional_spring_damper(const std::string& n, const std::string& a, const std::string& b,
                                         const Vec3& point, const Vec3& axis, double k, double d,
                                         std::optional<double> reference_angle) {
  ForceElement f = two_body_force(ForceType::TorsionalSpringDamper, n, a, b, k, d, reference_angle);
  f.point = point;
  f.axis = axis;
  add_force(std::move(f));
}

void System::add_joint_motor(const std::string& name, const std::string& joint, JointEffortFunction effort,
                             bool force, bool uses_angle) {
  ForceElement f;
  f.name = name;
  f.type = ForceType::JointMotor;
  f.joint = joint;
  f.motor_force = force;
  f.effort = std::move(effort);
  f.effort_uses_angle = uses_angle;
  for (const Joint& j : joints_)
    if (j.name == joint) {
      f.bodies = {j.bodies[0], j.bodies[1]};
      f.point = j.point;
      f.axis = j.axis;
    }
  add_force(std::move(f));
}

namespace {
/// Bodies, point, axis and type of the joint named `joint`, if there is one (else check() names it).
void copy_joint(const std::vector<Joint>& joints, ForceElement& f) {
  for (const Joint& j : joints)
    if (j.name == f.joint) {
      f.bodies = {j.bodies[0], j.bodies[1]};
      f.point = j.point;
      f.axis = j.axis;
      f.joint_type = j.type;
      f.motor_force = j.type == JointType::Prismatic;
    }
}
}  // namespace

ForceElement& System::add_joint_friction(const std::string& name, const std::string& joint) {
  ForceElement f;
  f.name = name;
  f.type = ForceType::JointFriction;
  f.joint = joint;
  copy_joint(joints_, f);
  add_force(std::move(f));
  return forces_.back();
}

ForceElement& System::add_joint_limit(const std::string& name, const std::string& joint, std::optional<double> lower,
                                      std::optional<double> upper, double stiffness, double damping, double restitution) {
  ForceElement f;
  f.name = name;
  f.type = ForceType::JointLimit;
  f.joint = joint;
  f.lower = lower;
  f.upper = upper;
  f.stiffness = stiffness;
  f.damping = damping;
  f.restitution = restitution;
  copy_joint(joints_, f);
  add_force(std::move(f));
  return forces_.back();
}

void System::add_spherical(const std::string& n, const std::string& a, const std::string& b,
                           const Vec3& point) {
  Joint j;
  j.name = n;
  j.type = JointType::Spherical;
  j.bodies = {a, b};
  j.point = point;
  add_joint(j);
}
void System::add_revolute(const std::string& n, const std::string& a, const std::string& b,
                          const Vec3& point, const Vec3& axis) {
  Joint j;
  j.name = n;
  j.type = JointType::Revolute;
  j.bodies = {a, b};
  j.point = point;
  j.axis = axis;
  add_joint(j);
}
void System::add_prismatic(const std::string& n, const std::string& a, const std::string& b,
                           const Vec3& point, const Vec3& axis) {
  Joint j;
  j.name = n;
  j.type = JointType::Prismatic;
  j.bodies = {a, b};
  j.point = point;
  j.axis = axis;
  add_joint(j);
}
void System::add_fixed(const std::string& n, const std::string& a, const std::string& b,
                       const Vec3& point) {
  Joint j;
  j.name = n;
  j.type = JointType::Fixed;
  j.bodies = {a, b};
  j.point = point;
  add_joint(j);
}
void System::add_distance(const std::string& n, const std::string& a, const std::string& b,
                          const Vec3& point_a, const Vec3& point_b, std::optional<double> d) {
  Joint j;
  j.name = n;
  j.type = JointType::Distance;
  j.bodies = {a, b};
  j.point = point_a;
  j.point_b = point_b;
  j.distance = d;
  add_joint(j);
}

std::optional<BodyIndex> System::find_body(const std::string& n) const {
  if (n == "ground") return kGround;
  for (size_t i = 0; i < bodies_.size(); ++i)
    if (bodies_[i].name == n) return static_cast<BodyIndex>(i);
  return std::nullopt;
}

std::unordered_map<std::string, BodyIndex> System::body_indices() const {
  std::unordered_map<std::string, BodyIndex> m;
  m.reserve(bodies_.size() + 1);
  for (size_t i = bodies_.size(); i-- > 0;) m[bodies_[i].name] = static_cast<BodyIndex>(i);  // the first of a name
  m["ground"] = kGround;
  return m;
}

BodyIndex System::body_index(const std::string& n) const {
  auto i = find_body(n);
  if (!i) throw ModelError({"unknown body '" + n + "'"});
  return *i;
}

namespace {
std::string fmt(double x) {
  std::ostringstream s;
  s.precision(6);
  s << x;
  return s.str();
}
bool finite(const auto& m) { return m.allFinite(); }
/// The force types that read controller states, "joint_motor or a user" (ForceTypeInfo::reads_states).
std::string state_readers() {
  std::string out;
  for (const ForceTypeInfo& t : force_types())
    if (t.reads_states) out = out.empty() ? t.name : t.name + (" or a " + out);
  return out;
}
}  // namespace

std::vector<ModelProblem> System::problems() const {
  std::vector<ModelProblem> out;
  ItemRef item;  // the item the next problems are about
  auto add = [&](std::string message) { out.push_back({std::move(message), item}); };
  const std::unordered_map<std::string, BodyIndex> indices = body_indices();
  auto lookup = [&](const std::string& n) -> std::optional<BodyIndex> {
    const auto it = indices.find(n);
    return it == indices.end() ? std::nullopt : std::optional<BodyIndex>(it->second);
  };
  // The element registries' checks write messages; they are about the current item.
  std::vector<KeyProblem> messages;
  auto add_all = [&](const std::string& who) {
    for (KeyProblem& m : messages) add(who + ": " + m.message);
    messages.clear();
  };
  if (!gravity.allFinite()) add("gravity is not finite");
  std::set<std::string> names;
  for (size_t i = 0; i < bodies_.size(); ++i) {
    const RigidBody& b = bodies_[i];
    item = ItemRef::body(static_cast<int>(i));
    const std::string who = "body '" + b.name + "'";
    if (b.name.empty()) add("body #" + std::to_string(i) + " has no name");
    if (b.name == "ground") add("body #" + std::to_string(i) + ": the name 'ground' is reserved");
    if (!b.name.empty() && !names.insert(b.name).second) add(who + ": duplicate name");
    if (!(b.mass > 0) || !std::isfinite(b.mass))
      add(who + ": mass must be > 0, got " + fmt(b.mass));
    if (!finite(b.inertia) || !finite(b.com) || !finite(b.position) || !finite(b.orientation) ||
        !finite(b.velocity) || !finite(b.angular_velocity)) {
      add(who + ": a value is NaN or infinite");
      continue;
    }
    const Mat3 RtR = b.orientation.transpose() * b.orientation;
    if ((RtR - Mat3::Identity()).norm() > 1e-6 || b.orientation.determinant() < 0)
      add(who + ": orientation is not a rotation matrix");
    if (b.mass > 0) {
      // Inertia about the COM must be positive definite and satisfy the triangle inequality.
      const Mat3 J = b.inertia_tensor();
      const Vec3 c = b.com;
      const Mat3 Jc = J - b.mass * (c.squaredNorm() * Mat3::Identity() - c * c.transpose());
      Eigen::SelfAdjointEigenSolver<Mat3> es(Jc);
      const Vec3 ev = es.eigenvalues();  // ascending
      const double tol = 1e-12 * std::max(1.0, ev.cwiseAbs().maxCoeff());
      if (ev[0] <= 0)
        add(who + ": inertia about the COM is not positive definite (principal moments " +
            fmt(ev[0]) + ", " + fmt(ev[1]) + ", " + fmt(ev[2]) + ")");
      else if (ev[0] + ev[1] < ev[2] - tol)
        add(who + ": principal moments violate the triangle inequality: " + fmt(ev[0]) +
            " + " + fmt(ev[1]) + " < " + fmt(ev[2]));
    }
  }
  std::set<std::string> jnames;
  for (size_t i = 0; i < joints_.size(); ++i) {
    const Joint& j = joints_[i];
    item = ItemRef::joint(static_cast<int>(i));
    const std::string who = "joint '" + j.name + "'";
    if (j.name.empty()) add("joint #" + std::to_string(i) + " has no name");
    if (!j.name.empty() && !jnames.insert(j.name).second) add(who + ": duplicate name");
    std::optional<BodyIndex> ia = lookup(j.bodies[0]), ib = lookup(j.bodies[1]);
    for (int k = 0; k < 2; ++k)
      if (!(k ? ib : ia)) add(who + ": unknown body '" + j.bodies[k] + "'");
    if (ia && ib && *ia == *ib)
      add(who + (*ia == kGround ? ": both ends are on ground"
                                : ": both ends are on body '" + j.bodies[0] + "'"));
    if (!finite(j.point) || !finite(j.axis) || !finite(j.point_b))
      add(who + ": a value is NaN or infinite");
    const JointTypeInfo& info = joint_type_info(j.type);
    info.check(j, messages);
    add_all(who);
    if (info.plane_on_ground && ia && *ia != kGround)
      add(who + ": the plane (first body) must be 'ground', got '" + j.bodies[0] + "'");
    if (j.motion && !info.drivable) {
      std::string drivable;
      for (const JointTypeInfo& t : joint_types())
        if (t.drivable) drivable += std::string(drivable.empty() ? "" : " and ") + t.name;
      add(who + ": motion is only supported on " + drivable + " joints, not " + info.name);
    }
    if (j.speed && !info.drivable) {
      std::string drivable;
      for (const JointTypeInfo& t : joint_types())
        if (t.drivable) drivable += std::string(drivable.empty() ? "" : " and ") + t.name;
      add(who + ": speed is only supported on " + drivable + " joints, not " + info.name);
    }
    if (j.speed && j.motion) add(who + ": give motion (the coordinate) or speed (its rate), not both");
    if (j.has_offsets() && !info.takes_offsets) {
      std::string takes;
      for (const JointTypeInfo& t : joint_types())
        if (t.takes_offsets) takes += std::string(takes.empty() ? "" : " and ") + t.name;
      add(who + ": offsets are only supported on " + takes + " joints, not " + info.name);
    }
  }
  for (size_t i = 0; i < loads_.size(); ++i) {
    const Load& l = loads_[i];
    item = ItemRef::load(static_cast<int>(i));
    const std::string who = (l.kind == Load::Kind::Force ? "force '" : "torque '") + l.name + "'";
    if (!find_body(l.body)) add(who + ": unknown body '" + l.body + "'");
    else if (*find_body(l.body) == kGround) add(who + ": cannot act on ground");
    if (!finite(l.value) || !finite(l.point)) add(who + ": a value is NaN or infinite");
  }
  std::set<std::string> fnames;
  for (size_t i = 0; i < forces_.size(); ++i) {
    const ForceElement& f = forces_[i];
    item = ItemRef::force(static_cast<int>(i));
    const std::string who = std::string(to_string(f.type)) + " '" + f.name + "'";
    if (!f.name.empty() && !fnames.insert(f.name).second) add(who + ": duplicate name");
    const ForceTypeInfo& info = force_type_info(f.type);
    const bool pair = info.pairwise;
    if (pair && f.bodies.size() != 2)
      add(who + ": expected 2 bodies, got " + std::to_string(f.bodies.size()));
    std::vector<std::optional<BodyIndex>> idx;
    for (const std::string& b : f.bodies) {
      idx.push_back(lookup(b));
      if (!idx.back()) add(who + ": unknown body '" + b + "'");
      else if (!pair && *idx.back() == kGround) add(who + ": a user force cannot act on ground");
    }
    if (pair && idx.size() == 2 && idx[0] && idx[1] && *idx[0] == *idx[1])
      add(who + ": both ends are on the same body '" + f.bodies[0] + "'");
    if (!finite(f.point) || !finite(f.point_b) || !finite(f.axis) || !finite(f.stiffness6) ||
        !finite(f.damping6) || !finite(f.stiffness3) || !std::isfinite(f.stiffness) ||
        !std::isfinite(f.damping))
      add(who + ": a value is NaN or infinite");
    info.check(f, messages);
    if (info.check_in_model) info.check_in_model(f, *this, messages);
    add_all(who);
  }
  // Shafts: names unique (also against the joints: couplings name both), inertia > 0, finite.
  std::map<std::string, size_t> joint_index;
  for (size_t i = 0; i < joints_.size(); ++i) joint_index.emplace(joints_[i].name, i);
  std::set<std::string> snames;
  for (size_t i = 0; i < shafts_.size(); ++i) {
    const Shaft& s = shafts_[i];
    item = ItemRef::shaft(static_cast<int>(i));
    const std::string who = "shaft '" + s.name + "'";
    if (s.name.empty()) add("shaft #" + std::to_string(i) + " has no name");
    else if (s.name == "ground") add("shaft #" + std::to_string(i) + ": 'ground' is the fixed body, not a shaft name");
    else if (!snames.insert(s.name).second) add(who + ": duplicate name");
    else if (joint_index.count(s.name)) add(who + ": a joint has the same name (couplings name both)");
    if (!(s.inertia > 0) || !std::isfinite(s.inertia))
      add(who + ": " + (s.kind == Shaft::Kind::Rotor ? "inertia" : "mass") + " must be > 0 and finite, got " +
          std::to_string(s.inertia));
    if (!std::isfinite(s.position) || !std::isfinite(s.rate)) add(who + ": initial position or rate is NaN or infinite");
  }
  std::set<std::string> sfnames;
  for (size_t i = 0; i < shaft_forces_.size(); ++i) {
    const ShaftForce& f = shaft_forces_[i];
    item = ItemRef::shaft_force(static_cast<int>(i));
    const std::string who = std::string("shaft ") + to_string(f.kind) + " '" + f.name + "'";
    if (f.name.empty()) add("shaft force #" + std::to_string(i) + " has no name");
    else if (!sfnames.insert(f.name).second) add(who + ": duplicate name");
    const int ns = f.kind == ShaftForce::Kind::SpringDamper ? 2 : 1;
    std::optional<Shaft::Kind> kind;
    for (int k = 0; k < ns; ++k) {
      const std::string& n = f.shafts[static_cast<size_t>(k)];
      if (n == "ground" && ns == 2) continue;
      const int si = shaft_index(n);
      if (si < 0) {
        add(who + ": unknown shaft '" + n + "'");
        continue;
      }
      const Shaft::Kind sk = shafts_[static_cast<size_t>(si)].kind;
      if (kind && *kind != sk) add(who + ": connects a rotor and a mass (an angle and a position)");
      kind = sk;
    }
    if (ns == 2 && f.shafts[0] == f.shafts[1]) add(who + ": both ends are '" + f.shafts[0] + "'");
    else if (ns == 2 && f.shafts[0] == "ground" && f.shafts[1] == "ground") add(who + ": both ends are ground");
    if (!(f.stiffness >= 0) || !(f.damping >= 0) || !std::isfinite(f.stiffness) || !std::isfinite(f.damping))
      add(who + ": stiffness and damping must be >= 0 and finite");
    if ((f.free_value && !std::isfinite(*f.free_value)) || !std::isfinite(f.value))
      add(who + ": a value is NaN or infinite");
  }
  // Couplings: each joint exists once, has a single relative coordinate (revolute, prismatic);
  // a shaft stands for a revolute joint (rotor) or a prismatic one (mass).
  std::set<std::string> cnames;
  for (size_t i = 0; i < couplings_.size(); ++i) {
    const Coupling& c = couplings_[i];
    item = ItemRef::coupling(static_cast<int>(i));
    const std::string who = std::string(to_string(c.kind)) + " coupling '" + c.name + "'";
    if (c.name.empty()) add("coupling #" + std::to_string(i) + " has no name");
    if (!c.name.empty() && !cnames.insert(c.name).second) add(who + ": duplicate name");
    if (c.joints.empty()) add(who + ": no joints");
    if (c.coefficients.size() != c.joints.size())
      add(who + ": " + std::to_string(c.joints.size()) + " joints but " + std::to_string(c.coefficients.size()) +
          " coefficients");
    bool any = false, finite_c = true;
    for (double x : c.coefficients) {
      any = any || x != 0;
      finite_c = finite_c && std::isfinite(x);
    }
    if (!finite_c) add(who + ": a coefficient is NaN or infinite");
    else if (!c.joints.empty() && !any) add(who + ": every coefficient is zero");
    if (c.kind != Coupling::Kind::Linear && c.joints.size() != 2)
      add(who + ": expected 2 joints, got " + std::to_string(c.joints.size()));
    std::set<std::string> seen;
    for (size_t k = 0; k < c.joints.size(); ++k) {
      const std::string& jn = c.joints[k];
      if (!seen.insert(jn).second) {
        add(who + ": joint '" + jn + "' is named twice");
        continue;
      }
      const auto it = joint_index.find(jn);
      const int si = it == joint_index.end() ? shaft_index(jn) : -1;
      if (it == joint_index.end() && si < 0) {
        add(who + ": unknown joint or shaft '" + jn + "'");
        continue;
      }
      if (si >= 0) {
        const bool rotor = shafts_[static_cast<size_t>(si)].kind == Shaft::Kind::Rotor;
        const bool angle_needed = c.kind == Coupling::Kind::Gear || c.kind == Coupling::Kind::Belt ||
                                  c.kind == Coupling::Kind::Bevel ||
                                  ((c.kind == Coupling::Kind::RackPinion || c.kind == Coupling::Kind::Screw) && k == 0);
        const bool position_needed = (c.kind == Coupling::Kind::RackPinion || c.kind == Coupling::Kind::Screw) && k == 1;
        if ((angle_needed && !rotor) || (position_needed && rotor))
          add(who + ": shaft '" + jn + "' is a " + to_string(shafts_[static_cast<size_t>(si)].kind) + "; a " +
              to_string(c.kind) + " needs " + (angle_needed ? "an angle (a rotor)" : "a position (a mass)") + " there");
        continue;
      }
      const Joint& j = joints_[it->second];
      if (j.type != JointType::Revolute && j.type != JointType::Prismatic)
        add(who + ": joint '" + jn + "' is " + to_string(j.type) +
            "; a coupling takes revolute and prismatic joints (one relative coordinate each)");
      else if ((c.kind == Coupling::Kind::Gear || c.kind == Coupling::Kind::Belt || c.kind == Coupling::Kind::Bevel) &&
               j.type != JointType::Revolute)
        add(who + ": joint '" + jn + "' is " + to_string(j.type) + "; a " + to_string(c.kind) +
            " couples two revolute joints (or rotors)");
      else if ((c.kind == Coupling::Kind::RackPinion || c.kind == Coupling::Kind::Screw) && k < 2 &&
               j.type != (k == 0 ? JointType::Revolute : JointType::Prismatic))
        add(who + ": joint '" + jn + "' is " + to_string(j.type) + "; a " + to_string(c.kind) +
            " couples a revolute joint (or a rotor) and then a prismatic joint (or a mass)");
    }
  }
  // Controller states: unique names, a derivative, a finite initial value, known bodies and states.
  std::set<std::string> znames;
  for (size_t i = 0; i < states_.size(); ++i) {
    const ControllerState& z = states_[i];
    item = ItemRef::state(static_cast<int>(i));
    const std::string who = "controller state '" + z.name + "'";
    if (z.name.empty()) add("controller state #" + std::to_string(i) + " has no name");
    if (!z.name.empty() && !znames.insert(z.name).second) add(who + ": duplicate name");
    if (!z.derivative) add(who + ": no derivative");
    if (!std::isfinite(z.initial)) add(who + ": initial value is NaN or infinite");
    for (const std::string& b : z.bodies) {
      const std::optional<BodyIndex> bi = find_body(b);
      if (!bi) add(who + ": unknown body '" + b + "'");
      else if (*bi == kGround) add(who + ": reads body 'ground', which has no motion");
    }
    for (const std::string& s : z.states)
      if (find_controller_state(s) < 0) add(who + ": unknown controller state '" + s + "'");
  }
  for (size_t i = 0; i < forces_.size(); ++i) {
    item = ItemRef::force(static_cast<int>(i));
    if (!forces_[i].states.empty() && !force_type_info(forces_[i].type).reads_states)
      add("force '" + forces_[i].name + "': only a " + state_readers() + " force reads controller states, this is a " +
          to_string(forces_[i].type));
    for (const std::string& s : forces_[i].states)
      if (find_controller_state(s) < 0) add("force '" + forces_[i].name + "': unknown controller state '" + s + "'");
  }
  return out;
}

std::vector<std::string> System::check() const { return messages_of(problems()); }

int System::find_controller_state(const std::string& name) const {
  for (size_t i = 0; i < states_.size(); ++i)
    if (states_[i].name == name) return static_cast<int>(i);
  return -1;
}


void System::validate() const {
  std::vector<ModelProblem> p = problems();
  for (const Cable& c : cables_)
    for (std::string& m : cable_problems(*this, c)) p.push_back({std::move(m), ItemRef{}});
  if (!p.empty()) throw ModelError(std::move(p));
}

}  // namespace mbdae
