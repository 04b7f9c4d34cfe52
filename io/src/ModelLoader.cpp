/// @file ModelLoader.cpp
/// The model file reader. It walks the YAML tree along the schema (never generically, so a
/// hostile file cannot make it recurse deeply), records every problem with its place, and builds
/// the System only from what it checked. Only this file includes yaml-cpp.

#include <mbdae/io/ModelLoader.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <cstring>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <mbdae/formulations/ContactGeometry.h>
#include <mbdae/io/Expression.h>
#include <mbdae/io/Sensors.h>
#include <mbdae/io/YamlNodes.h>
#include <mbdae/solvers/SolverRegistry.h>
#include <mbdae/model/Inertia.h>
#include <mbdae/model/math/Rotation.h>

namespace mbdae::io {

const char* kind_of(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Null: return "nothing (null)";
    case YAML::NodeType::Scalar: return "a scalar";
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Map: return "a mapping";
    case YAML::NodeType::Undefined: return "nothing";
  }
  return "?";
}

const char* to_string(SensorOutput o) {
  switch (o) {
    case SensorOutput::Position: return "position";
    case SensorOutput::Displacement: return "displacement";
    case SensorOutput::Velocity: return "velocity";
    case SensorOutput::VelocityLocal: return "velocity_local";
    case SensorOutput::RotationMatrix: return "rotation_matrix";
    case SensorOutput::Rotation: return "rotation";
    case SensorOutput::AngularVelocity: return "angular_velocity";
    case SensorOutput::AngularVelocityLocal: return "angular_velocity_local";
    case SensorOutput::Acceleration: return "acceleration";
    case SensorOutput::AccelerationLocal: return "acceleration_local";
    case SensorOutput::AngularAcceleration: return "angular_acceleration";
    case SensorOutput::AngularAccelerationLocal: return "angular_acceleration_local";
    case SensorOutput::ReactionForce: return "reaction_force";
    case SensorOutput::ReactionTorque: return "reaction_torque";
    case SensorOutput::Energy: return "energy";
    case SensorOutput::ConstraintViolation: return "constraint_violation";
  }
  return "?";
}

namespace {

constexpr std::array kSensorOutputs = {
    SensorOutput::Position,        SensorOutput::Displacement,
    SensorOutput::Velocity,        SensorOutput::VelocityLocal,
    SensorOutput::RotationMatrix,  SensorOutput::Rotation,
    SensorOutput::AngularVelocity, SensorOutput::AngularVelocityLocal,
    SensorOutput::Acceleration,    SensorOutput::AccelerationLocal,
    SensorOutput::AngularAcceleration, SensorOutput::AngularAccelerationLocal,
    SensorOutput::ReactionForce,   SensorOutput::ReactionTorque,
    SensorOutput::Energy,          SensorOutput::ConstraintViolation};

std::string join(const std::vector<std::string>& v, const char* sep = ", ") {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
  return s;
}

std::string fmt_num(double x) {
  std::ostringstream s;
  s.precision(6);
  s << x;
  return s.str();
}

std::string child(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}
std::string index(const std::string& path, size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

/// Parser events of one document; only its start is kept.
struct DocumentCounter final : YAML::EventHandler {
  YAML::Mark start = YAML::Mark::null_mark();
  void OnDocumentStart(const YAML::Mark& m) override { start = m; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

/// The checker: walks the tree, records diagnostics, builds the model.
class Loader {
 public:
  Loader(std::string file, std::string text) : file_(std::move(file)), text_(std::move(text)) {}

  LoadedModel load(const std::vector<Override>& overrides);

 private:
  struct OverrideInfo {
    std::string key, label;
  };

  // ---- diagnostics ----------------------------------------------------------------------------
  Diagnostic at(const YAML::Mark& m, const std::string& path) const {
    Diagnostic d;
    d.key_path = path;
    d.file = file_;
    if (const OverrideInfo* o = override_of(path)) {
      d.file = o->label;
      d.line = 1;
      d.column = m.is_null() ? 0 : m.column + 1;
      return d;
    }
    if (!m.is_null()) {
      d.line = m.line + 1;
      d.column = m.column + 1;
    }
    return d;
  }
  void error(const YAML::Mark& m, const std::string& path, const std::string& msg) {
    Diagnostic d = at(m, path);
    d.message = msg;
    diags_.push_back(std::move(d));
  }
  void error(const YAML::Node& n, const std::string& path, const std::string& msg) {
    error(n.Mark(), path, msg);
  }
  const OverrideInfo* override_of(const std::string& path) const {
    for (const OverrideInfo& o : overrides_)
      if (path == o.key || path.starts_with(o.key + ".") || path.starts_with(o.key + "["))
        return &o;
    return nullptr;
  }
  /// True if the scalar at m starts with a quote in the source (for expression columns).
  int quote_offset(const YAML::Node& n, const std::string& path) const {
    if (override_of(path)) return 0;
    const int p = n.Mark().pos;
    if (p < 0 || static_cast<size_t>(p) >= text_.size()) return 0;
    return (text_[static_cast<size_t>(p)] == '"' || text_[static_cast<size_t>(p)] == '\'') ? 1 : 0;
  }

  // ---- a mapping with a fixed set of keys -----------------------------------------------------
  struct Entry {
    std::string key;
    YAML::Node key_node, value;
  };
  class Map {
   public:
    /// `allowed`: keys this mapping may have; `unsupported`: keys of the format that mbdae does
    /// not implement yet (with the message to give).
    Map(Loader& L, const YAML::Node& node, std::string path, std::vector<std::string> allowed,
        std::map<std::string, std::string> unsupported = {})
        : L_(L), node_(node), path_(std::move(path)) {
      if (!node.IsMap()) {
        L.error(node, path_, std::string("expected a mapping, got ") + kind_of(node));
        valid_ = false;
        return;
      }
      std::map<std::string, int> first_line;
      for (auto it = node.begin(); it != node.end(); ++it) {
        const YAML::Node k = it->first;
        if (!k.IsScalar()) {
          L.error(k, path_, std::string("a key must be a plain name, got ") + kind_of(k));
          continue;
        }
        const std::string key = k.Scalar();
        const std::string kp = child(path_, key);
        if (auto f = first_line.find(key); f != first_line.end()) {
          L.error(k, kp, "duplicate key '" + key + "' (first given at line " +
                             std::to_string(f->second) + ")");
          continue;
        }
        first_line[key] = k.Mark().line + 1;
        if (auto u = unsupported.find(key); u != unsupported.end()) {
          L.error(k, kp, u->second);
          continue;
        }
        if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
          L.error(k, kp, "unknown key '" + key + "' (expected one of: " + join(allowed) + ")");
          continue;
        }
        entries_.push_back({key, k, it->second});
      }
    }
    bool valid() const { return valid_; }
    const YAML::Node& node() const { return node_; }
    const std::string& path() const { return path_; }
    std::string path(const std::string& key) const { return child(path_, key); }
    const Entry* find(const std::string& key) const {
      for (const Entry& e : entries_)
        if (e.key == key) return &e;
      return nullptr;
    }
    bool has(const std::string& key) const { return find(key) != nullptr; }
    /// The entry, or an error "missing required key" at the mapping.
    const Entry* require(const std::string& key, const std::string& what = "") {
      const Entry* e = find(key);
      if (!e && valid_)
        L_.error(node_, path_, "missing required key '" + key + "'" + (what.empty() ? "" : " (" + what + ")"));
      return e;
    }

   private:
    Loader& L_;
    YAML::Node node_;
    std::string path_;
    std::vector<Entry> entries_;
    bool valid_ = true;
  };

  // ---- scalars --------------------------------------------------------------------------------
  struct Range {
    double min = -HUGE_VAL, max = HUGE_VAL;
    bool min_open = false, max_open = false;
    std::string text;  // "> 0"
  };
  static Range positive() { return {0, HUGE_VAL, true, false, "> 0"}; }
  static Range non_negative() { return {0, HUGE_VAL, false, false, ">= 0"}; }
  static Range any() { return {}; }

  /// Parses a number; strings that are not numbers are read as expressions (constant unless
  /// allow_t). Returns nullopt (and records an error) if it is not a finite number in range.
  std::optional<double> number(const YAML::Node& n, const std::string& path,
                               const Range& r = any()) {
    std::optional<Expression> e = expression(n, path, false);
    if (!e) return std::nullopt;
    const double x = (*e)(0.0);
    return check_range(n, path, x, r);
  }
  std::optional<double> check_range(const YAML::Node& n, const std::string& path, double x,
                                    const Range& r) {
    if (!std::isfinite(x)) {
      error(n, path, "expected a finite number, got " + fmt_num(x));
      return std::nullopt;
    }
    const bool lo = r.min_open ? x > r.min : x >= r.min;
    const bool hi = r.max_open ? x < r.max : x <= r.max;
    if (!lo || !hi) {
      error(n, path, "must be " + r.text + ", got " + fmt_num(x));
      return std::nullopt;
    }
    return x;
  }

  /// A number or an expression. Plain numbers give a constant Expression; NaN and infinite
  /// values are rejected here (YAML's .nan, .inf, and "nan", "inf").
  std::optional<Expression> expression(const YAML::Node& n, const std::string& path, bool allow_t) {
    if (!n.IsScalar()) {
      error(n, path, std::string(allow_t ? "expected a number or an expression of t" : "expected a number") +
                         ", got " + kind_of(n));
      return std::nullopt;
    }
    std::string s = n.Scalar();
    // Trim blanks.
    const size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
    std::string t = b == std::string::npos ? "" : s.substr(b, e - b + 1);
    if (t.empty()) {
      error(n, path, std::string("expected a number, got an empty string"));
      return std::nullopt;
    }
    // Plain numbers first (and YAML's spellings of infinity and NaN).
    std::string num = (t[0] == '+') ? t.substr(1) : t;
    double x = 0;
    const auto r = std::from_chars(num.data(), num.data() + num.size(), x);
    if (r.ec == std::errc() && r.ptr == num.data() + num.size()) {
      if (!std::isfinite(x)) {
        error(n, path, "expected a finite number, got '" + t + "'");
        return std::nullopt;
      }
      return Expression(x);
    }
    if (r.ec == std::errc::result_out_of_range) {
      error(n, path, "number out of range: '" + t + "'");
      return std::nullopt;
    }
    static const std::set<std::string> yaml_special = {".inf", ".Inf", ".INF", "-.inf", "-.Inf", "-.INF",
                                                       "+.inf", "+.Inf", "+.INF", ".nan", ".NaN", ".NAN"};
    if (yaml_special.count(t)) {
      error(n, path, "expected a finite number, got '" + t + "'");
      return std::nullopt;
    }
    if (s.size() > 10000) {
      error(n, path, "expression longer than 10000 characters");
      return std::nullopt;
    }
    try {
      Expression ex(s);
      if (ex.depends_on_time() && !allow_t) {
        error(n, path, "expected a constant, got an expression of t: '" + s + "'");
        return std::nullopt;
      }
      if (!ex.depends_on_time() && !std::isfinite(ex(0.0))) {
        error(n, path, "expression '" + s + "' is not a finite number (" + fmt_num(ex(0.0)) + ")");
        return std::nullopt;
      }
      return ex;
    } catch (const ExpressionError& err) {
      YAML::Mark m = n.Mark();
      if (!m.is_null()) m.column += quote_offset(n, path) + err.position();
      error(m, path, std::string(allow_t ? "expected a number or an expression of t" : "expected a number") +
                         ", got '" + s + "': " + err.what());
      return std::nullopt;
    }
  }

  std::optional<std::string> string(const YAML::Node& n, const std::string& path) {
    if (!n.IsScalar()) {
      error(n, path, std::string("expected a string, got ") + kind_of(n));
      return std::nullopt;
    }
    return n.Scalar();
  }
  std::optional<std::string> name(const YAML::Node& n, const std::string& path) {
    auto s = string(n, path);
    if (s && s->empty()) {
      error(n, path, "the name must not be empty");
      return std::nullopt;
    }
    if (s && s->size() > 200) {
      error(n, path, "the name is longer than 200 characters");
      return std::nullopt;
    }
    return s;
  }
  /// One of `choices`; `unsupported` are known words of the format not implemented yet.
  std::optional<std::string> choice(const YAML::Node& n, const std::string& path,
                                    const std::vector<std::string>& choices,
                                    const std::vector<std::string>& unsupported = {},
                                    const std::string& what = "") {
    auto s = string(n, path);
    if (!s) return std::nullopt;
    if (std::find(choices.begin(), choices.end(), *s) != choices.end()) return s;
    if (std::find(unsupported.begin(), unsupported.end(), *s) != unsupported.end()) {
      error(n, path, (what.empty() ? "'" + *s + "'" : what + " '" + *s + "'") +
                         " is not supported yet (supported: " + join(choices) + ")");
      return std::nullopt;
    }
    error(n, path, "unknown value '" + *s + "' (expected one of: " + join(choices) + ")");
    return std::nullopt;
  }
  std::optional<bool> flag(const YAML::Node& n, const std::string& path) {
    auto s = string(n, path);
    if (!s) return std::nullopt;
    if (*s == "1" || *s == "true") return true;
    if (*s == "0" || *s == "false") return false;
    error(n, path, "expected 0, 1, true or false, got '" + *s + "'");
    return std::nullopt;
  }

  /// A list of exactly `size` items.
  bool list(const YAML::Node& n, const std::string& path, size_t size, const char* what) {
    if (!n.IsSequence()) {
      error(n, path, "expected " + std::string(what) + ", got " + kind_of(n));
      return false;
    }
    if (n.size() != size) {
      error(n, path, "expected " + std::string(what) + ", got " + std::to_string(n.size()) +
                         (n.size() == 1 ? " value" : " values"));
      return false;
    }
    return true;
  }
  std::optional<Vec3> vec3(const YAML::Node& n, const std::string& path, const Range& r = any()) {
    if (!list(n, path, 3, "a list of 3 numbers")) return std::nullopt;
    Vec3 v;
    bool ok = true;
    for (size_t i = 0; i < 3; ++i) {
      auto x = number(n[i], index(path, i), r);
      if (x) v[static_cast<Eigen::Index>(i)] = *x;
      else ok = false;
    }
    return ok ? std::optional<Vec3>(v) : std::nullopt;
  }
  std::optional<Vec3> nonzero_vec3(const YAML::Node& n, const std::string& path) {
    auto v = vec3(n, path);
    if (v && !(v->norm() > 1e-12)) {
      error(n, path, "the axis has zero length");
      return std::nullopt;
    }
    return v;
  }

  // ---- sections -------------------------------------------------------------------------------
  std::optional<Mat3> orientation(const YAML::Node& n, const std::string& path);
  void bodies(const YAML::Node& n);
  void joints(const YAML::Node& n);
  void forces(const YAML::Node& n);
  void force_element(Map& f, const std::string& type, const std::string& name);
  bool pair_bodies(const Entry* e, const std::string& path, std::vector<std::string>& out);
  void sensors(const YAML::Node& n);
  void solver(const YAML::Node& n);
  void output(const YAML::Node& n);
  void contacts(const YAML::Node& n);
  std::optional<PenaltyParameters> penalty(const YAML::Node& n, const std::string& path);
  std::optional<TimeFunction> motion(const YAML::Node& n, const std::string& path);
  void solver_checks();
  void model_checks();

  /// Items of a list section; an error if it is not a list.
  bool section_list(const YAML::Node& n, const std::string& path) {
    if (n.IsNull()) return false;  // "joints:" with nothing: an empty list
    if (!n.IsSequence()) {
      error(n, path, std::string("expected a list, got ") + kind_of(n));
      return false;
    }
    return true;
  }
  SourceLocation location(const YAML::Node& n, const std::string& path, const std::string& nm) {
    const Diagnostic d = at(n.Mark(), path);
    return SourceLocation{nm, path, d.file, d.line, d.column};
  }

  std::string file_, text_;
  std::vector<Diagnostic> diags_;
  std::vector<OverrideInfo> overrides_;
  LoadedModel m_;
  std::map<std::string, size_t> body_names_;   // name -> index in bodies
  std::map<std::string, size_t> joint_names_;  // name -> index in joints
  std::set<std::string> bodies_with_errors_, joints_with_errors_;
  bool have_end_time_ = false;
  /// Items that not every solver supports: where they are, for the checks after `solver`.
  struct Placed {
    YAML::Mark mark;
    std::string path;
  };
  std::optional<Placed> first_joint_;
  std::vector<Placed> driven_joints_, force_elements_, contacts_;
  std::vector<Placed> contact_items_;  // the item of each of m_.system.contacts()
  bool contact_penalty_given_ = false;  // a contact_penalty block, valid or not
  bool solver_ok_ = true;
  YAML::Mark solver_type_mark_ = YAML::Mark::null_mark();
};

// ---- orientation ------------------------------------------------------------------------------
std::optional<Mat3> Loader::orientation(const YAML::Node& n, const std::string& path) {
  Map o(*this, n, path, {"axis", "angle", "quaternion", "rxyz", "matrix"});
  if (!o.valid()) return std::nullopt;
  const int forms = (o.has("axis") || o.has("angle")) + o.has("quaternion") + o.has("rxyz") + o.has("matrix");
  if (forms != 1) {
    error(n, path, forms == 0 ? "expected one of {axis, angle}, {quaternion}, {rxyz} or {matrix}"
                              : "give only one of {axis, angle}, {quaternion}, {rxyz} or {matrix}");
    return std::nullopt;
  }
  if (o.has("axis") || o.has("angle")) {
    const Entry* ax = o.require("axis", "with angle");
    const Entry* an = o.require("angle", "with axis");
    if (!ax || !an) return std::nullopt;
    auto a = nonzero_vec3(ax->value, o.path("axis"));
    auto phi = number(an->value, o.path("angle"));
    if (!a || !phi) return std::nullopt;
    return Mat3(Eigen::AngleAxisd(*phi, a->normalized()).toRotationMatrix());
  }
  if (const Entry* q = o.find("quaternion")) {
    const std::string p = o.path("quaternion");
    if (!list(q->value, p, 4, "a list of 4 numbers [w, x, y, z]")) return std::nullopt;
    Vec4 th;
    bool ok = true;
    for (size_t i = 0; i < 4; ++i) {
      auto x = number(q->value[i], index(p, i));
      if (x) th[static_cast<Eigen::Index>(i)] = *x;
      else ok = false;
    }
    if (!ok) return std::nullopt;
    if (std::abs(th.norm() - 1) > 1e-3) {
      error(q->value, p, "a quaternion must have unit length, got |q| = " + fmt_num(th.norm()));
      return std::nullopt;
    }
    return math::ep_to_matrix(th.normalized());
  }
  if (const Entry* r = o.find("rxyz")) {
    auto a = vec3(r->value, o.path("rxyz"));
    if (!a) return std::nullopt;
    return math::rxyz_to_matrix(*a);
  }
  const Entry* mx = o.find("matrix");
  const std::string p = o.path("matrix");
  if (!list(mx->value, p, 3, "3 rows of 3 numbers")) return std::nullopt;
  Mat3 R;
  bool ok = true;
  for (size_t i = 0; i < 3; ++i) {
    auto row = vec3(mx->value[i], index(p, i));
    if (row) R.row(static_cast<Eigen::Index>(i)) = row->transpose();
    else ok = false;
  }
  if (!ok) return std::nullopt;
  if (!math::is_rotation(R, 1e-6)) {
    error(mx->value, p, "not a rotation matrix (it must be orthonormal with determinant +1; det = " +
                            fmt_num(R.determinant()) + ")");
    return std::nullopt;
  }
  return R;
}

// ---- bodies -----------------------------------------------------------------------------------
void Loader::bodies(const YAML::Node& n) {
  if (!section_list(n, "bodies")) return;
  for (size_t i = 0; i < n.size(); ++i) {
    const std::string path = index("bodies", i);
    const size_t errors_before = diags_.size();
    Map b(*this, n[i], path,
          {"name", "mass", "density", "inertia", "shape", "com", "position", "orientation",
           "velocity", "angular_velocity", "angular_velocity_local", "rotation"});
    RigidBody body;
    body.name = "#" + std::to_string(i);
    if (!b.valid()) {
      m_.body_locations.push_back(location(n[i], path, body.name));
      m_.system.add_body(body);
      bodies_with_errors_.insert(body.name);
      continue;
    }
    if (const Entry* e = b.require("name")) {
      if (auto s = name(e->value, b.path("name"))) {
        if (*s == "ground") {
          error(e->value, b.path("name"), "the name 'ground' is reserved for the fixed world body");
        } else if (auto f = body_names_.find(*s); f != body_names_.end()) {
          error(e->value, b.path("name"), "duplicate body name '" + *s + "' (also bodies[" +
                                              std::to_string(f->second) + "], line " +
                                              std::to_string(m_.body_locations[f->second].line) + ")");
        } else {
          body.name = *s;
          body_names_[*s] = i;
        }
      }
    }
    m_.body_locations.push_back(location(n[i], path, body.name));

    std::optional<double> mass, density;
    if (const Entry* e = b.find("mass")) mass = number(e->value, b.path("mass"), positive());
    if (const Entry* e = b.find("density")) density = number(e->value, b.path("density"), positive());
    if (b.has("mass") && b.has("density"))
      error(b.find("density")->key_node, b.path("density"), "give mass or density, not both");
    if (const Entry* e = b.find("com")) {
      if (auto c = vec3(e->value, b.path("com"))) body.com = *c;
    }

    const Entry* inertia = b.find("inertia");
    const Entry* shape = b.find("shape");
    if (inertia && shape) {
      error(shape->key_node, b.path("shape"), "give inertia or shape, not both");
    } else if (!inertia && !shape) {
      error(b.node(), path, "missing required key 'inertia' (or 'shape' with mass or density)");
    } else if (inertia) {
      if (b.has("density"))
        error(b.find("density")->key_node, b.path("density"),
              "density needs a shape; with inertia give the mass");
      else if (!b.has("mass"))
        error(b.node(), path, "missing required key 'mass'");
      const std::string ip = b.path("inertia");
      if (list(inertia->value, ip, 6, "6 numbers [Jxx, Jyy, Jzz, Jyz, Jxz, Jxy]")) {
        Vec6 j;
        bool ok = true;
        for (size_t k = 0; k < 6; ++k) {
          auto x = number(inertia->value[k], index(ip, k), k < 3 ? non_negative() : any());
          if (x) j[static_cast<Eigen::Index>(k)] = *x;
          else ok = false;
        }
        if (ok) {
          body.inertia = j;
          if (mass) {
            const auto problems =
                RigidBodyInertia::from_inertia6(*mass, j, body.com).problems();
            for (const std::string& p : problems)
              error(inertia->value, ip, p + " (inertia about the COM, from the inertia about the reference point)");
          }
        }
      }
    } else {
      // shape: the inertia about the COM follows from the mass (or density) and the dimensions.
      const std::string sp = b.path("shape");
      if (!mass && !density && !b.has("mass") && !b.has("density"))
        error(b.node(), path, "a shape needs 'mass' or 'density'");
      Map s(*this, shape->value, sp, {"box", "cylinder", "sphere"});
      if (s.valid()) {
        const int kinds = s.has("box") + s.has("cylinder") + s.has("sphere");
        if (kinds != 1)
          error(shape->value, sp, "expected exactly one of box, cylinder, sphere");
        std::optional<RigidBodyInertia> rbi;
        try {
          if (const Entry* e = s.find("box"); e && kinds == 1) {
            if (auto d = vec3(e->value, s.path("box"), non_negative())) {
              if (mass) rbi = RigidBodyInertia::box(*mass, (*d)[0], (*d)[1], (*d)[2]);
              else if (density) rbi = RigidBodyInertia::box(Density{*density}, (*d)[0], (*d)[1], (*d)[2]);
              body.shape = BodyShape{BodyShape::Kind::Box, *d, Vec3::UnitZ()};
            }
          } else if (const Entry* c = s.find("cylinder"); c && kinds == 1) {
            const std::string cp = s.path("cylinder");
            Map cy(*this, c->value, cp, {"radius", "length", "axis"});
            if (cy.valid()) {
              std::optional<double> r, l;
              std::optional<Vec3> axis;
              if (const Entry* e = cy.require("radius")) r = number(e->value, cy.path("radius"), positive());
              if (const Entry* e = cy.require("length")) l = number(e->value, cy.path("length"), non_negative());
              if (const Entry* e = cy.require("axis")) {
                if (e->value.IsScalar()) {
                  auto a = choice(e->value, cy.path("axis"), {"x", "y", "z"});
                  if (a) axis = *a == "x" ? Vec3::UnitX() : *a == "y" ? Vec3::UnitY() : Vec3::UnitZ();
                } else {
                  axis = nonzero_vec3(e->value, cy.path("axis"));
                }
              }
              if (r && l && axis) {
                if (mass) rbi = RigidBodyInertia::cylinder(*mass, *r, *l, *axis);
                else if (density) rbi = RigidBodyInertia::cylinder(Density{*density}, *r, *l, *axis);
                body.shape = BodyShape{BodyShape::Kind::Cylinder, Vec3(*r, *l, 0), axis->normalized()};
              }
            }
          } else if (const Entry* e = s.find("sphere"); e && kinds == 1) {
            if (auto r = number(e->value, s.path("sphere"), positive())) {
              if (mass) rbi = RigidBodyInertia::sphere(*mass, *r);
              else if (density) rbi = RigidBodyInertia::sphere(Density{*density}, *r);
              body.shape = BodyShape{BodyShape::Kind::Sphere, Vec3(*r, 0, 0), Vec3::UnitZ()};
            }
          }
        } catch (const std::exception& ex) {
          error(shape->value, sp, ex.what());
        }
        if (rbi) {
          const RigidBodyInertia placed(rbi->mass(), rbi->inertia_com(), body.com);
          for (const std::string& p : placed.problems()) error(shape->value, sp, p);
          mass = placed.mass();
          body.inertia = placed.inertia6_about_reference();
        }
      }
    }
    if (mass) body.mass = *mass;

    if (const Entry* e = b.find("position")) {
      if (auto v = vec3(e->value, b.path("position"))) body.position = *v;
    }
    if (const Entry* e = b.find("orientation")) {
      if (auto R = orientation(e->value, b.path("orientation"))) body.orientation = *R;
    }
    if (const Entry* e = b.find("velocity")) {
      if (auto v = vec3(e->value, b.path("velocity"))) body.velocity = *v;
    }
    if (b.has("angular_velocity") && b.has("angular_velocity_local"))
      error(b.find("angular_velocity_local")->key_node, b.path("angular_velocity_local"),
            "give angular_velocity (world axes) or angular_velocity_local (body axes), not both");
    else if (const Entry* e = b.find("angular_velocity")) {
      if (auto v = vec3(e->value, b.path("angular_velocity"))) body.angular_velocity = *v;
    } else if (const Entry* e2 = b.find("angular_velocity_local")) {
      if (auto v = vec3(e2->value, b.path("angular_velocity_local")))
        body.angular_velocity = body.orientation * *v;
    }
    if (const Entry* e = b.find("rotation")) {
      if (auto r = choice(e->value, b.path("rotation"), {"euler_parameters", "rxyz", "rotation_vector"})) {
        body.rotation = *r == "rxyz"              ? RotationParametrization::TaitBryan
                        : *r == "rotation_vector" ? RotationParametrization::RotationVector
                                                  : RotationParametrization::EulerParameters;
      }
    }
    if (diags_.size() != errors_before) bodies_with_errors_.insert(body.name);
    m_.system.add_body(body);
  }
}

// ---- joints -----------------------------------------------------------------------------------
/// `motion:` of a driven joint: an expression of t, or {value, velocity, acceleration}.
std::optional<TimeFunction> Loader::motion(const YAML::Node& n, const std::string& path) {
  auto fn = [](const Expression& e) { return std::function<double(double)>([e](double t) { return e(t); }); };
  TimeFunction f;
  if (n.IsMap()) {
    Map m(*this, n, path, {"value", "velocity", "acceleration"});
    if (!m.valid()) return std::nullopt;
    bool ok = true;
    std::optional<Expression> v;
    if (const Entry* e = m.require("value", "an expression of t, rad or m")) {
      v = expression(e->value, m.path("value"), true);
      if (v) f.value = fn(*v);
      else ok = false;
    } else {
      ok = false;
    }
    for (const char* k : {"velocity", "acceleration"})
      if (const Entry* e = m.find(k)) {
        auto x = expression(e->value, m.path(k), true);
        if (!x) ok = false;
        else if (std::string(k) == "velocity") f.velocity = fn(*x);
        else f.acceleration = fn(*x);
      }
    if (!ok) return std::nullopt;
    const YAML::Node& vn = m.find("value")->value;
    if (!(std::abs((*v)(0.0)) <= 1e-9)) {
      error(vn, m.path("value"), "the motion must be 0 at t = 0 (the joint's coordinate is 0 at the initial "
                                 "configuration), got " + fmt_num((*v)(0.0)));
      return std::nullopt;
    }
    return f;
  }
  if (!n.IsScalar()) {
    error(n, path, std::string("expected an expression of t or {value, velocity, acceleration}, got ") + kind_of(n));
    return std::nullopt;
  }
  auto v = expression(n, path, true);
  if (!v) return std::nullopt;
  if (!(std::abs((*v)(0.0)) <= 1e-9)) {
    error(n, path, "the motion must be 0 at t = 0 (the joint's coordinate is 0 at the initial configuration), got " +
                       fmt_num((*v)(0.0)));
    return std::nullopt;
  }
  f.value = fn(*v);
  return f;
}

void Loader::joints(const YAML::Node& n) {
  if (!section_list(n, "joints")) return;
  const std::vector<std::string> types = {"spherical", "revolute",    "prismatic", "fixed",
                                          "generic",   "distance",    "cylindrical", "universal",
                                          "planar",    "rolling_disc", "coordinate"};
  const std::vector<std::string> all_keys = {"axis", "axis_b", "frame", "constrained", "point_b", "distance",
                                             "radius", "coordinate", "offset", "motion"};
  for (size_t i = 0; i < n.size(); ++i) {
    const std::string path = index("joints", i);
    const size_t errors_before = diags_.size();
    std::vector<std::string> allowed = {"name", "type", "bodies", "point"};
    allowed.insert(allowed.end(), all_keys.begin(), all_keys.end());
    Map jm(*this, n[i], path, allowed);
    Joint j;
    j.name = "#" + std::to_string(i);
    if (!jm.valid()) {
      m_.joint_locations.push_back(location(n[i], path, j.name));
      joints_with_errors_.insert(j.name);
      continue;
    }
    if (const Entry* e = jm.require("name")) {
      if (auto s = name(e->value, jm.path("name"))) {
        if (auto f = joint_names_.find(*s); f != joint_names_.end())
          error(e->value, jm.path("name"), "duplicate joint name '" + *s + "' (also joints[" +
                                               std::to_string(f->second) + "])");
        else {
          j.name = *s;
          joint_names_[*s] = i;
        }
      }
    }
    m_.joint_locations.push_back(location(n[i], path, j.name));
    std::optional<std::string> type;
    if (const Entry* e = jm.require("type"))
      type = choice(e->value, jm.path("type"), types, {}, "joint type");
    const std::string t = type ? *type : "";
    if (type) {
      j.type = t == "spherical"      ? JointType::Spherical
               : t == "revolute"     ? JointType::Revolute
               : t == "prismatic"    ? JointType::Prismatic
               : t == "fixed"        ? JointType::Fixed
               : t == "generic"      ? JointType::Generic
               : t == "distance"     ? JointType::Distance
               : t == "cylindrical"  ? JointType::Cylindrical
               : t == "universal"    ? JointType::Universal
               : t == "planar"       ? JointType::Planar
               : t == "rolling_disc" ? JointType::RollingDisc
                                     : JointType::Coordinate;
      // Keys that do not apply to this type.
      std::vector<std::string> applies;
      if (t == "revolute" || t == "prismatic") applies = {"axis", "motion"};
      if (t == "cylindrical" || t == "planar") applies = {"axis"};
      if (t == "universal") applies = {"axis", "axis_b"};
      if (t == "rolling_disc") applies = {"axis", "point_b", "axis_b", "radius"};
      if (t == "coordinate") applies = {"coordinate", "offset"};
      if (t == "generic") applies = {"frame", "constrained"};
      if (t == "distance") applies = {"point_b", "distance"};
      for (const std::string& k : all_keys)
        if (const Entry* e = jm.find(k); e && std::find(applies.begin(), applies.end(), k) == applies.end())
          error(e->key_node, jm.path(k), "key '" + k + "' does not apply to a " + t + " joint" +
                                             (k == "motion" ? " (only revolute and prismatic joints can be driven)" : ""));
    }
    if (const Entry* e = jm.require("bodies", "the two bodies it connects")) {
      const std::string bp = jm.path("bodies");
      if (list(e->value, bp, 2, "a list of 2 body names")) {
        for (size_t k = 0; k < 2; ++k) {
          const YAML::Node& bn = e->value[k];
          if (auto s = string(bn, index(bp, k))) {
            if (*s != "ground" && !body_names_.count(*s))
              error(bn, index(bp, k), "unknown body '" + *s + "'" +
                                          (body_names_.empty() ? std::string() : " (bodies: ground, " + [&] {
                                            std::vector<std::string> names;
                                            for (const auto& [nm, idx] : body_names_) names.push_back(nm);
                                            return join(names);
                                          }() + ")"));
            else j.bodies[k] = *s;
          }
        }
        if (!j.bodies[0].empty() && j.bodies[0] == j.bodies[1])
          error(e->value, bp, j.bodies[0] == "ground" ? "both ends of the joint are on ground"
                                                      : "both ends of the joint are on body '" + j.bodies[0] + "'");
        if (t == "rolling_disc" && !j.bodies[0].empty() && j.bodies[0] != "ground")
          error(e->value[0], index(bp, 0), "the first body of a rolling_disc joint carries the plane and must be "
                                           "'ground', got '" + j.bodies[0] + "'");
      }
    }
    if (const Entry* e = jm.require("point", t == "rolling_disc" ? "a point of the plane, world"
                                                                 : "world coordinates at the initial configuration")) {
      if (auto p = vec3(e->value, jm.path("point"))) j.point = *p;
    }
    if (t == "revolute" || t == "prismatic" || t == "cylindrical" || t == "universal" || t == "planar" ||
        t == "rolling_disc") {
      if (const Entry* e = jm.require("axis", t == "planar" || t == "rolling_disc" ? "the plane's normal" : "")) {
        if (auto a = nonzero_vec3(e->value, jm.path("axis"))) j.axis = *a;
      }
    }
    if (t == "universal" || t == "rolling_disc") {
      if (const Entry* e = jm.require("axis_b", t == "universal" ? "the axis fixed in the second body"
                                                                 : "the disc's axis")) {
        if (auto a = nonzero_vec3(e->value, jm.path("axis_b"))) {
          j.axis_b = *a;
          if (t == "universal" && jm.has("axis") && j.axis.norm() > 1e-12 &&
              std::abs(j.axis.normalized().dot(a->normalized())) > 1e-6)
            error(e->value, jm.path("axis_b"), "axis and axis_b of a universal joint must be perpendicular, "
                                               "their cosine is " + fmt_num(j.axis.normalized().dot(a->normalized())));
          if (t == "rolling_disc" && jm.has("axis") && j.axis.norm() > 1e-12 &&
              1 - std::abs(j.axis.normalized().dot(a->normalized())) < 1e-9)
            error(e->value, jm.path("axis_b"), "the disc lies flat on the plane (axis_b parallel to the normal)");
        }
      }
    }
    if (t == "rolling_disc") {
      if (const Entry* e = jm.require("point_b", "the disc's centre, world, t0")) {
        if (auto p = vec3(e->value, jm.path("point_b"))) j.point_b = *p;
      }
      if (const Entry* e = jm.require("radius", "m")) {
        if (auto r = number(e->value, jm.path("radius"), positive())) j.radius = *r;
      }
    }
    if (t == "coordinate") {
      if (const Entry* e = jm.require("coordinate", "x, y or z: the world axis")) {
        if (auto c = choice(e->value, jm.path("coordinate"), {"x", "y", "z"}))
          j.coordinate = *c == "x" ? 0 : *c == "y" ? 1 : 2;
      }
      if (const Entry* e = jm.find("offset")) {
        if (auto x = number(e->value, jm.path("offset"))) j.offset = *x;
      }
    }
    if ((t == "revolute" || t == "prismatic")) {
      if (const Entry* e = jm.find("motion")) {
        if (auto f = motion(e->value, jm.path("motion"))) {
          j.motion = *f;
          driven_joints_.push_back({e->key_node.Mark(), jm.path("motion")});
        }
      }
    }
    if (t == "generic") {
      if (const Entry* e = jm.find("frame")) j.frame = orientation(e->value, jm.path("frame"));
      if (const Entry* e = jm.require("constrained", "[x, y, z, rx, ry, rz], 1 = constrained")) {
        const std::string cp = jm.path("constrained");
        if (list(e->value, cp, 6, "6 flags [x, y, z, rx, ry, rz]")) {
          for (size_t k = 0; k < 6; ++k)
            if (auto f = flag(e->value[k], index(cp, k))) j.constrained[k] = *f;
        }
      }
    }
    if (t == "distance") {
      if (const Entry* e = jm.require("point_b", "the point on the second body, world, t0")) {
        if (auto p = vec3(e->value, jm.path("point_b"))) j.point_b = *p;
      }
      if (const Entry* e = jm.find("distance")) j.distance = number(e->value, jm.path("distance"), positive());
      else if (jm.has("point") && jm.has("point_b") && !((j.point_b - j.point).norm() > 1e-12))
        error(n[i], path, "the two points coincide; give a distance > 0");
    }
    if (!jm.node().IsNull()) first_joint_ = first_joint_.value_or(Placed{n[i].Mark(), path});
    if (diags_.size() != errors_before) joints_with_errors_.insert(j.name);
    m_.system.add_joint(j);
  }
}

// ---- forces -----------------------------------------------------------------------------------
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

/// A force element: spring_damper, torsional_spring_damper, rigid_body_spring_damper,
/// cartesian_spring_damper.
void Loader::force_element(Map& f, const std::string& t, const std::string& name_) {
  ForceElement fe;
  fe.name = name_;
  bool ok = true;
  fe.type = t == "spring_damper"             ? ForceType::SpringDamper
            : t == "torsional_spring_damper" ? ForceType::TorsionalSpringDamper
            : t == "rigid_body_spring_damper" ? ForceType::RigidBodySpringDamper
                                              : ForceType::CartesianSpringDamper;
  std::vector<std::string> applies = {"name", "type", "bodies", "stiffness", "damping"};
  if (t == "spring_damper") applies.insert(applies.end(), {"points", "length"});
  if (t == "torsional_spring_damper") applies.insert(applies.end(), {"point", "axis", "angle"});
  if (t == "rigid_body_spring_damper") applies.insert(applies.end(), {"point", "frame"});
  if (t == "cartesian_spring_damper") applies.insert(applies.end(), {"point", "offset"});
  for (const char* k : {"body", "value", "points", "length", "point", "axis", "angle", "frame", "offset"})
    if (const Entry* e = f.find(k); e && std::find(applies.begin(), applies.end(), k) == applies.end()) {
      error(e->key_node, f.path(k), "key '" + std::string(k) + "' does not apply to a " + t + " force");
      ok = false;
    }
  if (!pair_bodies(f.find("bodies") ? f.find("bodies") : f.require("bodies", "the two bodies it connects"),
                   f.path("bodies"), fe.bodies))
    ok = false;
  if (t == "spring_damper") {
    if (const Entry* e = f.require("points", "[[x, y, z], [x, y, z]]: on the first and the second body, world, t0")) {
      const std::string pp = f.path("points");
      if (list(e->value, pp, 2, "2 points [[x, y, z], [x, y, z]]")) {
        auto pa = vec3(e->value[0], index(pp, 0)), pb = vec3(e->value[1], index(pp, 1));
        if (pa && pb) {
          fe.point = *pa;
          fe.point_b = *pb;
          if (!f.has("length") && !((*pb - *pa).norm() > 1e-12)) {
            error(e->value, pp, "the two points coincide; give a length > 0");
            ok = false;
          }
        } else {
          ok = false;
        }
      } else {
        ok = false;
      }
    } else {
      ok = false;
    }
    if (const Entry* e = f.find("length")) {
      if (auto x = number(e->value, f.path("length"), non_negative())) fe.length = *x;
      else ok = false;
    }
  } else {
    if (const Entry* e = f.require("point", "world, t0")) {
      if (auto p = vec3(e->value, f.path("point"))) fe.point = *p;
      else ok = false;
    } else {
      ok = false;
    }
  }
  auto scalar_kd = [&](const char* k, double& out, bool required) {
    const Entry* e = required ? f.require(k) : f.find(k);
    if (!e) {
      if (required) ok = false;
      return;
    }
    if (auto x = number(e->value, f.path(k), non_negative())) out = *x;
    else ok = false;
  };
  if (t == "spring_damper" || t == "torsional_spring_damper") {
    scalar_kd("stiffness", fe.stiffness, true);
    scalar_kd("damping", fe.damping, false);
  }
  if (t == "torsional_spring_damper") {
    if (const Entry* e = f.require("axis")) {
      if (auto a = nonzero_vec3(e->value, f.path("axis"))) fe.axis = *a;
      else ok = false;
    } else {
      ok = false;
    }
    if (const Entry* e = f.find("angle")) {
      if (auto x = number(e->value, f.path("angle"), {-M_PI, M_PI, true, false, "in (-pi, pi]"})) fe.length = *x;
      else ok = false;
    }
  }
  if (t == "cartesian_spring_damper") {
    auto v3 = [&](const char* k, Vec3& out, bool required, const Range& r) {
      const Entry* e = required ? f.require(k, "[x, y, z], world axes") : f.find(k);
      if (!e) {
        if (required) ok = false;
        return;
      }
      if (auto v = vec3(e->value, f.path(k), r)) out = *v;
      else ok = false;
    };
    v3("stiffness", fe.stiffness3, true, non_negative());
    v3("damping", fe.damping3, false, non_negative());
    v3("offset", fe.offset3, false, any());
  }
  if (t == "rigid_body_spring_damper") {
    if (const Entry* e = f.find("frame")) {
      fe.frame = orientation(e->value, f.path("frame"));
      if (!fe.frame) ok = false;
    }
    auto m6 = [&](const char* k, Mat6& out, bool required) {
      const Entry* e = required ? f.require(k, "6 numbers (diagonal) or 6 rows of 6") : f.find(k);
      if (!e) {
        if (required) ok = false;
        return;
      }
      const std::string kp = f.path(k);
      if (!e->value.IsSequence() || (e->value.size() != 6)) {
        error(e->value, kp, std::string("expected 6 numbers (the diagonal) or 6 rows of 6 numbers, got ") +
                                (e->value.IsSequence() ? std::to_string(e->value.size()) + " items" : kind_of(e->value)));
        ok = false;
        return;
      }
      out.setZero();
      const bool rows = e->value[0].IsSequence();
      for (size_t r = 0; r < 6; ++r) {
        if (!rows) {
          if (auto x = number(e->value[r], index(kp, r), non_negative())) out(static_cast<int>(r), static_cast<int>(r)) = *x;
          else ok = false;
          continue;
        }
        if (!list(e->value[r], index(kp, r), 6, "a row of 6 numbers")) {
          ok = false;
          continue;
        }
        for (size_t c = 0; c < 6; ++c) {
          if (auto x = number(e->value[r][c], index(index(kp, r), c))) out(static_cast<int>(r), static_cast<int>(c)) = *x;
          else ok = false;
        }
      }
    };
    m6("stiffness", fe.stiffness6, true);
    m6("damping", fe.damping6, false);
  }
  if (ok) m_.system.add_force(std::move(fe));
}

void Loader::forces(const YAML::Node& n) {
  if (!section_list(n, "forces")) return;
  std::set<std::string> names;
  const std::vector<std::string> types = {"force", "torque", "spring_damper", "torsional_spring_damper",
                                          "rigid_body_spring_damper", "cartesian_spring_damper"};
  for (size_t i = 0; i < n.size(); ++i) {
    const std::string path = index("forces", i);
    Map f(*this, n[i], path,
          {"name", "type", "body", "point", "value", "frame", "bodies", "points", "stiffness", "damping",
           "length", "axis", "angle", "offset"});
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
    for (const char* k : {"bodies", "points", "stiffness", "damping", "length", "axis", "angle", "offset"})
      if (const Entry* e = f.find(k))
        error(e->key_node, f.path(k), "key '" + std::string(k) + "' does not apply to a " +
                                          (type ? *type : std::string("force or torque")) + " (it belongs to the spring-dampers)");
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
      else if (auto p = vec3(e->value, f.path("point"))) l.point = *p;
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
    m_.system.add_load(std::move(l));
  }
}

// ---- sensors ----------------------------------------------------------------------------------
void Loader::sensors(const YAML::Node& n) {
  if (!section_list(n, "sensors")) return;
  std::map<std::string, size_t> names;
  std::vector<std::string> outputs;
  for (SensorOutput o : kSensorOutputs) outputs.push_back(to_string(o));
  for (size_t i = 0; i < n.size(); ++i) {
    const std::string path = index("sensors", i);
    Map s(*this, n[i], path, {"name", "body", "joint", "point", "output", "frame"});
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
        for (SensorOutput o : kSensorOutputs)
          if (*w == to_string(o)) out = o;
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
          if ((!x.needs_accelerations || si->support.accelerations) && (!x.needs_multipliers || si->support.multipliers))
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
    const bool joint_sensor = *out == SensorOutput::ReactionForce || *out == SensorOutput::ReactionTorque;
    const bool system_sensor = *out == SensorOutput::Energy || *out == SensorOutput::ConstraintViolation;
    const std::string o = to_string(*out);
    auto not_for = [&](const char* key, const std::string& why) {
      if (const Entry* e = s.find(key)) {
        error(e->key_node, s.path(key), "key '" + std::string(key) + "' does not apply to output " + o + why);
        ok = false;
      }
    };
    if (system_sensor) {
      for (const char* k : {"body", "joint", "point", "frame"}) not_for(k, " (a quantity of the whole system)");
    } else if (joint_sensor) {
      not_for("body", " (give the joint)");
      not_for("point", " (reactions act at the joint point)");
      if (const Entry* e = s.require("joint")) {
        if (auto j = string(e->value, s.path("joint"))) {
          if (!joint_names_.count(*j)) {
            error(e->value, s.path("joint"), "unknown joint '" + *j + "'");
            ok = false;
          }
          sp.joint = *j;
        }
      } else {
        ok = false;
      }
      if (const Entry* e = s.find("frame")) {
        if (auto f = choice(e->value, s.path("frame"), {"world", "joint"}))
          sp.frame = *f == "world" ? SensorSpec::Frame::World : SensorSpec::Frame::Joint;
      }
    } else {
      not_for("joint", " (give the body)");
      not_for("frame", " (the _local outputs give body axes)");
      const bool angular = *out == SensorOutput::RotationMatrix || *out == SensorOutput::Rotation ||
                           *out == SensorOutput::AngularVelocity || *out == SensorOutput::AngularVelocityLocal ||
                           *out == SensorOutput::AngularAcceleration ||
                           *out == SensorOutput::AngularAccelerationLocal;
      if (angular) not_for("point", " (the same for every point of the body)");
      if (const Entry* e = s.require("body")) {
        if (auto b = string(e->value, s.path("body"))) {
          if (*b == "ground") {
            error(e->value, s.path("body"), "ground does not move; name a body");
            ok = false;
          } else if (!body_names_.count(*b)) {
            error(e->value, s.path("body"), "unknown body '" + *b + "'");
            ok = false;
          }
          sp.body = *b;
        }
      } else {
        ok = false;
      }
      if (const Entry* e = s.find("point"); e && !angular) {
        if (auto p = vec3(e->value, s.path("point"))) sp.point = *p;
      }
    }
    if (ok) m_.sensors.push_back(sp);
  }
}

// ---- solver and output ------------------------------------------------------------------------
void Loader::solver(const YAML::Node& n) {
  Map s(*this, n, "solver",
        {"type", "end_time", "step", "rho_inf", "tolerance", "linear_solver", "adaptive", "projection",
         "pgs_iterations", "pgs_tolerance", "friction_model"});
  if (!s.valid()) return;
  SimulationSettings& st = m_.settings;
  ExplicitSettings& ex = m_.explicit_settings;
  if (const Entry* e = s.find("type")) {
    if (auto t = choice(e->value, s.path("type"),
                        {"generalized_alpha", "ida", "trapezoidal_index2", "rk4", "dopri5", "lie_rk4", "impulse"},
                        {}, "solver")) {
      ex.kind = *t == "rk4"       ? SolverKind::RK4
                : *t == "dopri5"  ? SolverKind::Dopri5
                : *t == "lie_rk4" ? SolverKind::LieRK4
                : *t == "impulse" ? SolverKind::Impulse
                                  : SolverKind::Implicit;
      if (ex.kind == SolverKind::Implicit) st.solver = solver_type_from_string(*t);
      solver_type_mark_ = e->value.Mark();
    } else {
      solver_ok_ = false;
    }
  }
  const std::string sname = m_.solver_name();
  const bool implicit = ex.kind == SolverKind::Implicit;
  if (const Entry* e = s.find("adaptive")) {
    if (auto f = flag(e->value, s.path("adaptive"))) {
      const bool fixed_step = implicit ? st.solver != SolverType::Ida : ex.kind != SolverKind::Dopri5;
      if (*f && fixed_step && !implicit)
        error(e->value, s.path("adaptive"), "solver " + sname + " has a fixed step; adaptive steps are for "
                                            "generalized_alpha and trapezoidal_index2 (ida and dopri5 always adapt)");
      else st.adaptive = *f && fixed_step;
    }
  }
  if (const Entry* e = s.find("projection")) {
    if (auto f = flag(e->value, s.path("projection"))) ex.projection = *f;
  }
  if (const Entry* e = s.find("pgs_iterations")) {
    if (auto x = number(e->value, s.path("pgs_iterations"), {1, 1e6, false, false, "in [1, 1e6]"})) {
      if (*x != std::floor(*x)) error(e->value, s.path("pgs_iterations"), "expected a whole number, got " + fmt_num(*x));
      else ex.pgs_iterations = static_cast<int>(*x);
    }
  }
  if (const Entry* e = s.find("pgs_tolerance")) {
    if (auto x = number(e->value, s.path("pgs_tolerance"), positive())) ex.pgs_tolerance = *x;
  }
  if (const Entry* e = s.find("friction_model")) {
    if (auto x = choice(e->value, s.path("friction_model"), {"pyramid", "cone"})) ex.friction_cone = *x == "cone";
  }
  if (const Entry* e = s.require("end_time", "s")) {
    if (auto x = number(e->value, s.path("end_time"), positive())) {
      st.t_end = *x;
      have_end_time_ = true;
    }
  }
  if (const Entry* e = s.find("step")) {
    if (auto x = number(e->value, s.path("step"), positive())) {
      st.step = *x;
      if (have_end_time_ && st.step > st.t_end)
        error(e->value, s.path("step"), "the step " + fmt_num(st.step) + " s is longer than end_time " +
                                            fmt_num(st.t_end) + " s");
      else if (have_end_time_ && st.t_end / st.step > 1e9)
        error(e->value, s.path("step"), "end_time / step = " + fmt_num(st.t_end / st.step) +
                                            " steps; at most 1e9 are allowed");
    }
  }
  if (const Entry* e = s.find("rho_inf")) {
    if (auto x = number(e->value, s.path("rho_inf"), {0, 1, false, false, "in [0, 1]"})) st.rho_inf = *x;
  }
  if (const Entry* e = s.find("tolerance")) {
    Map t(*this, e->value, s.path("tolerance"), {"relative", "absolute"});
    if (t.valid()) {
      if (const Entry* r = t.find("relative")) {
        if (auto x = number(r->value, t.path("relative"), {0, 1, true, true, "in (0, 1)"})) st.rtol = *x;
      }
      if (const Entry* a = t.find("absolute")) {
        if (auto x = number(a->value, t.path("absolute"), positive())) st.atol = *x;
      }
    }
  }
  if (const Entry* e = s.find("linear_solver")) {
    if (auto x = choice(e->value, s.path("linear_solver"), {"sparse", "dense"})) st.sparse = *x == "sparse";
  }
}

void Loader::output(const YAML::Node& n) {
  Map o(*this, n, "output", {"file", "every"});
  if (!o.valid()) return;
  if (const Entry* e = o.find("file")) {
    if (auto f = string(e->value, o.path("file"))) {
      if (f->empty()) error(e->value, o.path("file"), "the file name must not be empty");
      else m_.output.file = *f;
    }
  }
  if (const Entry* e = o.find("every")) {
    if (auto x = number(e->value, o.path("every"), positive())) {
      m_.output.every = *x;
      if (have_end_time_ && m_.settings.t_end / *x > 1e7)
        error(e->value, o.path("every"), "end_time / every = " + fmt_num(m_.settings.t_end / *x) +
                                             " output rows; at most 1e7 are allowed");
    }
  }
}

void Loader::contacts(const YAML::Node& n) {
  if (!section_list(n, "contacts")) return;
  const std::vector<std::string> types = {"sphere", "box", "capsule", "plane", "sphere_plane"};
  std::set<std::string> names;
  for (size_t i = 0; i < n.size(); ++i) {
    const std::string path = index("contacts", i);
    Map c(*this, n[i], path,
          {"name", "type", "body", "radius", "size", "length", "position", "orientation", "normal", "point",
           "offset", "plane", "friction", "restitution", "rolling_resistance", "penalty"});
    if (!c.valid()) continue;
    contacts_.push_back({n[i].Mark(), path});
    bool ok = true;
    Contact k;
    k.name = path;
    if (const Entry* e = c.find("name")) {
      if (auto s = name(e->value, c.path("name"))) {
        if (!names.insert(*s).second) error(e->value, c.path("name"), "duplicate contact name '" + *s + "'");
        k.name = *s;
      }
    }
    std::optional<std::string> type;
    if (const Entry* e = c.require("type", "sphere, box, capsule, plane or sphere_plane"))
      type = choice(e->value, c.path("type"), types, {}, "contact type");
    if (!type) continue;
    const std::string& t = *type;
    std::vector<std::string> applies = {"name", "type", "friction", "restitution", "rolling_resistance", "penalty"};
    if (t == "sphere") applies.insert(applies.end(), {"body", "radius", "position"});
    if (t == "box") applies.insert(applies.end(), {"body", "size", "position", "orientation"});
    if (t == "capsule") applies.insert(applies.end(), {"body", "radius", "length", "position", "orientation"});
    if (t == "plane") applies.insert(applies.end(), {"body", "normal", "point", "offset"});
    if (t == "sphere_plane") applies.insert(applies.end(), {"body", "radius", "position", "plane"});
    for (const char* key : {"body", "radius", "size", "length", "position", "orientation", "normal", "point", "offset", "plane"})
      if (const Entry* e = c.find(key); e && std::find(applies.begin(), applies.end(), key) == applies.end()) {
        error(e->key_node, c.path(key), "key '" + std::string(key) + "' does not apply to a " + t + " contact");
        ok = false;
      }
    // Body.
    if (t == "plane") {
      if (const Entry* e = c.find("body")) {
        if (auto s = string(e->value, c.path("body")); s && *s != "ground") {
          error(e->value, c.path("body"), "planes can only be on ground, got '" + *s + "'");
          ok = false;
        }
      }
      k.body = "ground";
    } else if (const Entry* e = c.require("body")) {
      if (auto s = string(e->value, c.path("body"))) {
        if (*s != "ground" && !body_names_.count(*s)) {
          error(e->value, c.path("body"), "unknown body '" + *s + "'");
          ok = false;
        }
        k.body = *s;
      } else {
        ok = false;
      }
    } else {
      ok = false;
    }
    // Material.
    if (const Entry* e = c.find("friction")) {
      if (auto x = number(e->value, c.path("friction"), non_negative())) k.friction = *x;
      else ok = false;
    }
    if (const Entry* e = c.find("restitution")) {
      if (auto x = number(e->value, c.path("restitution"), {0, 1, false, false, "in [0, 1]"})) k.restitution = *x;
      else ok = false;
    }
    if (const Entry* e = c.find("rolling_resistance")) {
      if (auto x = number(e->value, c.path("rolling_resistance"), non_negative())) k.rolling_resistance = *x;
      else ok = false;
    }
    if (const Entry* e = c.find("penalty")) {
      if (auto pp = penalty(e->value, c.path("penalty"))) k.penalty = *pp;
      else ok = false;
    }
    // Geometry.
    auto req_number = [&](const char* key, double& out, const Range& r, const char* what) {
      if (const Entry* e = c.require(key, what)) {
        if (auto x = number(e->value, c.path(key), r)) out = *x;
        else ok = false;
      } else {
        ok = false;
      }
    };
    if (const Entry* e = c.find("position")) {
      if (auto v = vec3(e->value, c.path("position"))) k.position = *v;
      else ok = false;
    }
    if (const Entry* e = c.find("orientation")) {
      if (auto R = orientation(e->value, c.path("orientation"))) k.orientation = *R;
      else ok = false;
    }
    // A plane from normal and point (or offset), world.
    auto plane = [&](Map& pm, Contact& pl) {
      if (const Entry* e = pm.require("normal", "outward, world")) {
        if (auto v = nonzero_vec3(e->value, pm.path("normal"))) pl.normal = v->normalized();
        else ok = false;
      } else {
        ok = false;
      }
      if (pm.has("point") && pm.has("offset")) {
        error(pm.find("offset")->key_node, pm.path("offset"), "give point or offset, not both");
        ok = false;
      } else if (const Entry* e = pm.find("point")) {
        if (auto v = vec3(e->value, pm.path("point"))) pl.offset = pl.normal.dot(*v);
        else ok = false;
      } else if (const Entry* e = pm.find("offset")) {
        if (auto x = number(e->value, pm.path("offset"))) pl.offset = *x;
        else ok = false;
      }
    };
    std::optional<Contact> extra_plane;
    if (t == "sphere" || t == "sphere_plane") {
      k.shape = ShapeType::Sphere;
      req_number("radius", k.radius, positive(), "m");
    } else if (t == "box") {
      k.shape = ShapeType::Box;
      if (const Entry* e = c.require("size", "[lx, ly, lz], full lengths, m")) {
        if (auto v = vec3(e->value, c.path("size"), positive())) k.half_extents = *v / 2;
        else ok = false;
      } else {
        ok = false;
      }
    } else if (t == "capsule") {
      k.shape = ShapeType::Capsule;
      req_number("radius", k.radius, positive(), "m");
      double len = 0;
      req_number("length", len, non_negative(), "m, between the two cap centres, along the shape's z axis");
      k.half_length = len / 2;
    } else if (t == "plane") {
      k.shape = ShapeType::Plane;
      plane(c, k);
    }
    if (t == "sphere_plane") {
      Contact pl;
      pl.name = k.name + ".plane";
      pl.shape = ShapeType::Plane;
      pl.body = "ground";
      pl.friction = k.friction;
      pl.restitution = k.restitution;
      pl.rolling_resistance = k.rolling_resistance;
      if (const Entry* e = c.require("plane", "{point: [x, y, z], normal: [x, y, z]}, world")) {
        Map pm(*this, e->value, c.path("plane"), {"point", "normal", "offset"});
        if (pm.valid()) plane(pm, pl);
        else ok = false;
      } else {
        ok = false;
      }
      extra_plane = pl;
    }
    if (!ok) continue;
    for (const std::string& p : contact_problems(k)) error(n[i], path, p);
    m_.system.add_contact(k);
    contact_items_.push_back({n[i].Mark(), path});
    if (extra_plane) {
      // One plane for every sphere_plane item on the same plane with the same material.
      // The material of a pair combines both shapes, so a shared plane must have the same one.
      const Contact* same = nullptr;
      for (const Contact& o : m_.system.contacts())
        if (o.shape == ShapeType::Plane && (o.normal - extra_plane->normal).norm() < 1e-12 &&
            std::abs(o.offset - extra_plane->offset) < 1e-12)
          same = &o;
      if (!same) {
        m_.system.add_contact(*extra_plane);
        contact_items_.push_back({n[i].Mark(), path});
      } else if (same->friction != extra_plane->friction || same->restitution != extra_plane->restitution ||
               same->rolling_resistance != extra_plane->rolling_resistance)
        error(n[i], path, "the plane is also contact '" + same->name + "' with another friction, restitution or "
                          "rolling_resistance; a pair's material combines both shapes, so give one material per "
                          "plane (or use type: sphere and type: plane items)");
    }
  }
}

std::optional<PenaltyParameters> Loader::penalty(const YAML::Node& n, const std::string& path) {
  Map pm(*this, n, path,
         {"law", "stiffness", "damping", "tensile", "exponent", "damping_factor", "impact_velocity",
          "friction_velocity"});
  if (!pm.valid()) return std::nullopt;
  bool ok = true;
  PenaltyParameters p;
  if (const Entry* e = pm.find("law")) {
    if (auto l = choice(e->value, pm.path("law"), {"linear", "hunt_crossley"}, {}, "penalty law"))
      p.law = *l == "linear" ? PenaltyLaw::Linear : PenaltyLaw::HuntCrossley;
    else
      return std::nullopt;
  }
  const bool hc = p.law == PenaltyLaw::HuntCrossley;
  for (const char* key : {"damping", "tensile"})
    if (const Entry* e = pm.find(key); e && hc) {
      error(e->key_node, pm.path(key), "key '" + std::string(key) + "' applies to law linear only");
      ok = false;
    }
  for (const char* key : {"exponent", "damping_factor", "impact_velocity"})
    if (const Entry* e = pm.find(key); e && !hc) {
      error(e->key_node, pm.path(key), "key '" + std::string(key) + "' applies to law hunt_crossley only");
      ok = false;
    }
  if (const Entry* e = pm.require("stiffness", hc ? "N/m^exponent" : "N/m")) {
    if (auto x = number(e->value, pm.path("stiffness"), positive())) p.stiffness = *x;
    else ok = false;
  } else {
    ok = false;
  }
  auto opt = [&](const char* key, const Range& r, double& out) {
    if (const Entry* e = pm.find(key)) {
      if (auto x = number(e->value, pm.path(key), r)) out = *x;
      else ok = false;
    }
  };
  opt("damping", non_negative(), p.damping);
  opt("exponent", positive(), p.exponent);
  opt("friction_velocity", positive(), p.friction_velocity);
  if (const Entry* e = pm.find("tensile")) {
    if (auto b = flag(e->value, pm.path("tensile"))) p.tensile = *b;
    else ok = false;
  }
  if (hc) {
    const Entry* df = pm.find("damping_factor");
    const Entry* iv = pm.find("impact_velocity");
    if (df && iv) {
      error(iv->key_node, pm.path("impact_velocity"), "give damping_factor or impact_velocity, not both");
      ok = false;
    } else if (!df && !iv) {
      error(n, path, "law hunt_crossley needs damping_factor (s/m) or impact_velocity (m/s; the damping then "
                     "follows from the contact's restitution)");
      ok = false;
    }
    if (df) {
      if (auto x = number(df->value, pm.path("damping_factor"), non_negative())) p.damping_factor = *x;
      else ok = false;
    }
    if (iv) {
      if (auto x = number(iv->value, pm.path("impact_velocity"), positive())) p.impact_velocity = *x;
      else ok = false;
    }
  }
  if (!ok) return std::nullopt;
  return p;
}

// ---- what the chosen solver cannot do --------------------------------------------------------
void Loader::solver_checks() {
  if (!solver_ok_) return;
  const SolverKind k = m_.explicit_settings.kind;
  const std::string sname = m_.solver_name();
  const std::string why = " (solver.type " + sname + (override_of("solver.type") ? ", set on the command line)" : ")");
  if (k != SolverKind::Impulse && k != SolverKind::Implicit)
    for (const Placed& c : contacts_)
      error(c.mark, c.path, "contacts are handled only by solver.type impulse and, as penalty forces, by the "
                            "implicit solvers; " + sname + " has no contact model" + why);
  std::set<std::string> rolling_reported;  // a sphere_plane item is two shapes
  if (k == SolverKind::Implicit)
    for (size_t j = 0; j < m_.system.contacts().size() && j < contact_items_.size(); ++j)
      if (m_.system.contacts()[j].rolling_resistance > 0 && rolling_reported.insert(contact_items_[j].path).second)
        error(contact_items_[j].mark, contact_items_[j].path + ".rolling_resistance",
              "rolling resistance is handled only by solver.type impulse; the penalty contacts of the implicit "
              "solvers do not model it" + why);
  if (k == SolverKind::Implicit && !contact_penalty_given_) {
    // Every pair of shapes on different bodies that can touch needs penalty parameters, from one
    // of its two shapes (MultibodySystem takes those of the pair's sphere, capsule or box first).
    const auto& cs = m_.system.contacts();
    for (size_t j = 0; j < cs.size() && j < contact_items_.size(); ++j)
      for (size_t i = 0; i < j; ++i) {
        if (cs[i].body == cs[j].body || cs[i].penalty || cs[j].penalty) continue;
        if (!narrow_phase_handles(cs[i].shape, cs[j].shape)) continue;
        const bool same_item = contact_items_[i].path == contact_items_[j].path;  // sphere_plane
        const std::string where = same_item ? "on this contact" : "on this contact or on contact '" + cs[i].name + "'";
        error(contact_items_[j].mark, contact_items_[j].path,
              "with an implicit solver contacts are penalty forces and need their parameters: a penalty block " +
                  where + ", or a model-wide contact_penalty (or use solver.type impulse)" + why);
        break;
      }
  }
  if (k == SolverKind::LieRK4 && first_joint_)
    error(first_joint_->mark, first_joint_->path,
          "lie_rk4 integrates free bodies only; a model with joints needs rk4, dopri5, impulse or an implicit "
          "solver" + why);
  // rk4, dopri5 (NewtonEulerSystem) and the impulse stepper apply spring-dampers; rk4 and dopri5
  // also drives; lie_rk4 (free bodies) neither.
  if (k == SolverKind::LieRK4)
    for (const Placed& f : force_elements_)
      error(f.mark, f.path, "spring-dampers are handled by the implicit solvers (generalized_alpha, ida, "
                            "trapezoidal_index2) and by rk4, dopri5 and impulse, not by " + sname + why);
  if (k == SolverKind::Impulse)
    for (const Placed& d : driven_joints_)
      error(d.mark, d.path, "driven joints are handled by the implicit solvers (generalized_alpha, ida, "
                            "trapezoidal_index2) and by rk4 and dopri5; the " + sname +
                            " stepper's joint equations do not depend on time" + why);
}

// ---- model-level checks -----------------------------------------------------------------------
void Loader::model_checks() {
  // System::check() repeats some checks made above; keep only what is new, i.e. messages about
  // items that have no diagnostic yet, pointed at the item.
  for (const std::string& msg : m_.system.check()) {
    Diagnostic d = m_.locate(msg);
    static const std::regex who(R"(^(body|joint) '([^']*)')");
    std::smatch mt;
    if (std::regex_search(msg, mt, who)) {
      const std::string nm = mt[2];
      if (mt[1] == "body" && bodies_with_errors_.count(nm)) continue;
      if (mt[1] == "joint" && joints_with_errors_.count(nm)) continue;
      if (mt[1] == "joint" && msg.find("unknown body") != std::string::npos) continue;
    }
    if (msg.starts_with("force '") || msg.starts_with("torque '")) {
      if (msg.find("unknown body") != std::string::npos || msg.find("on ground") != std::string::npos) continue;
    }
    d.message = msg;
    diags_.push_back(d);
  }
}

// ---- the whole file ---------------------------------------------------------------------------
LoadedModel Loader::load(const std::vector<Override>& overrides) {
  m_.file = file_;
  auto fail_file = [&](int line, int column, const std::string& msg) {
    Diagnostic d;
    d.file = file_;
    d.line = line;
    d.column = column;
    d.message = msg;
    throw LoadError({d});
  };
  // Binary content: NUL bytes or invalid UTF-8 are named with their position.
  {
    int line = 1, col = 1;
    for (size_t i = 0; i < text_.size();) {
      const unsigned char c = static_cast<unsigned char>(text_[i]);
      if (c == 0) fail_file(line, col, "not a text file (NUL byte); expected a YAML or JSON model");
      size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
      if (len == 0 || i + len > text_.size())
        fail_file(line, col, "not a text file (invalid UTF-8); expected a YAML or JSON model");
      for (size_t k = 1; k < len; ++k)
        if ((static_cast<unsigned char>(text_[i + k]) >> 6) != 0x2)
          fail_file(line, col, "not a text file (invalid UTF-8); expected a YAML or JSON model");
      if (c == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
      i += len;
    }
  }
  YAML::Node root;
  try {
    // YAML::LoadAll loops for ever (and exhausts memory) when a token such as a stray ',' ends
    // a document without being consumed (yaml-cpp 0.7). So: the first document with Load, then
    // at most one more step of the parser to find anything after it.
    root = YAML::Load(text_);
    std::istringstream in(text_);
    YAML::Parser parser(in);
    DocumentCounter skip, second;
    parser.HandleNextDocument(skip);
    if (parser.HandleNextDocument(second)) {
      const YAML::Mark m = second.start;
      fail_file(m.is_null() ? 0 : m.line + 1, m.is_null() ? 0 : m.column + 1,
                "more than one YAML document in the file (a '---', or a stray ',' or bracket after "
                "the model); a model is one document");
    }
  } catch (const YAML::Exception& e) {
    fail_file(e.mark.is_null() ? 0 : e.mark.line + 1, e.mark.is_null() ? 0 : e.mark.column + 1,
              "YAML syntax error: " + e.msg);
  }
  if (!root.IsDefined() || root.IsNull())
    fail_file(1, 1, "the file is empty; expected a mapping with bodies, joints, solver, ...");
  if (!root.IsMap())
    fail_file(root.Mark().line + 1, root.Mark().column + 1,
              std::string("expected a mapping (name:, bodies:, joints:, ...) at the top, got ") + kind_of(root));

  // Overrides, applied to the tree before any check.
  for (const Override& o : overrides) {
    const std::string label = "--set " + o.key + "=" + o.value;
    auto fail = [&](const std::string& msg) {
      Diagnostic d;
      d.file = label;
      d.line = 1;
      d.column = 1;
      d.key_path = o.key;
      d.message = msg;
      diags_.push_back(d);
    };
    // Split "a.b[2].c" into segments; indices are negative-encoded as -(i+1).
    std::vector<std::pair<std::string, long>> segs;
    bool ok = true;
    {
      size_t p = 0;
      const std::string& k = o.key;
      while (p < k.size() && ok) {
        if (k[p] == '[') {
          const size_t q = k.find(']', p);
          long idx = -1;
          if (q == std::string::npos ||
              std::from_chars(k.data() + p + 1, k.data() + q, idx).ptr != k.data() + q || idx < 0) {
            ok = false;
            break;
          }
          segs.push_back({"", idx});
          p = q + 1;
          if (p < k.size() && k[p] == '.') ++p;
        } else {
          size_t q = k.find_first_of(".[", p);
          if (q == std::string::npos) q = k.size();
          if (q == p) {
            ok = false;
            break;
          }
          segs.push_back({k.substr(p, q - p), -1});
          p = q;
          if (p < k.size() && k[p] == '.') ++p;
        }
      }
    }
    if (!ok || segs.empty() || segs[0].second >= 0) {
      fail("not a key path (expected e.g. solver.type or bodies[1].mass)");
      continue;
    }
    YAML::Node value;
    try {
      value = YAML::Load(o.value);
    } catch (const YAML::Exception& e) {
      Diagnostic d;
      d.file = label;
      d.line = 1;
      d.column = e.mark.is_null() ? 0 : e.mark.column + 1;
      d.key_path = o.key;
      d.message = "YAML syntax error in the value: " + e.msg;
      diags_.push_back(d);
      continue;
    }
    YAML::Node cur(root);  // a handle; reset() moves it without changing the tree
    std::string path;
    for (size_t s = 0; s < segs.size() && ok; ++s) {
      const bool last = s + 1 == segs.size();
      const auto& [key, idx] = segs[s];
      if (idx >= 0) {
        if (!cur.IsSequence() || static_cast<size_t>(idx) >= cur.size()) {
          fail("'" + path + "' has no item [" + std::to_string(idx) + "]" +
               (cur.IsSequence() ? " (it has " + std::to_string(cur.size()) + ")" : ""));
          ok = false;
          break;
        }
        path = index(path, static_cast<size_t>(idx));
        if (last) cur[static_cast<size_t>(idx)] = value;
        else cur.reset(cur[static_cast<size_t>(idx)]);
      } else {
        if (!cur.IsMap() && !(cur.IsNull() && s > 0)) {
          fail("'" + path + "' is not a mapping");
          ok = false;
          break;
        }
        path = child(path, key);
        if (last) cur[key] = value;
        else cur.reset(cur[key]);
      }
    }
    if (ok) overrides_.push_back({path, label});
  }

  const Map top(*this, root, "",
                {"name", "description", "gravity", "bodies", "joints", "forces", "contacts", "contact_penalty",
                 "sensors", "solver", "output"});
  if (const Entry* e = top.find("name")) {
    if (auto s = string(e->value, "name")) m_.system.name = *s;
  }
  if (const Entry* e = top.find("description")) {
    if (auto s = string(e->value, "description")) m_.description = *s;
  }
  if (const Entry* e = top.find("gravity")) {
    if (auto g = vec3(e->value, "gravity")) m_.system.gravity = *g;
  }
  if (const Entry* e = top.find("bodies")) {
    bodies(e->value);
    if (e->value.IsSequence() && e->value.size() == 0) error(e->value, "bodies", "the model has no bodies");
  } else {
    error(root, "", "missing required key 'bodies'");
  }
  if (const Entry* e = top.find("joints")) joints(e->value);
  if (const Entry* e = top.find("forces")) forces(e->value);
  if (const Entry* e = top.find("contacts")) contacts(e->value);
  if (const Entry* e = top.find("contact_penalty")) {
    contact_penalty_given_ = true;
    if (auto pp = penalty(e->value, "contact_penalty")) m_.system.contact_penalty = *pp;
  }
  if (const Entry* e = top.find("solver")) solver(e->value);
  else error(root, "", "missing required key 'solver' (at least solver: {end_time: ...})");
  if (const Entry* e = top.find("output")) output(e->value);
  if (const Entry* e = top.find("sensors")) sensors(e->value);
  m_.settings.output_every = m_.output.every;
  solver_checks();

  model_checks();
  if (!diags_.empty()) {
    std::stable_sort(diags_.begin(), diags_.end(), [](const Diagnostic& a, const Diagnostic& b) {
      // File problems in file order; overrides last.
      const bool ao = a.file.starts_with("--set"), bo = b.file.starts_with("--set");
      if (ao != bo) return bo;
      return std::tie(a.line, a.column) < std::tie(b.line, b.column);
    });
    throw LoadError(std::move(diags_));
  }
  return std::move(m_);
}

}  // namespace

std::string LoadedModel::solver_name() const {
  switch (explicit_settings.kind) {
    case SolverKind::Implicit: return to_string(settings.solver);
    case SolverKind::RK4: return "rk4";
    case SolverKind::Dopri5: return "dopri5";
    case SolverKind::LieRK4: return "lie_rk4";
    case SolverKind::Impulse: return "impulse";
  }
  return "?";
}

Diagnostic LoadedModel::locate(const std::string& message) const {
  Diagnostic d;
  d.file = file;
  d.message = message;
  static const std::regex who(
      R"((body|joint|force|torque|spring_damper|torsional_spring_damper|rigid_body_spring_damper|cartesian_spring_damper) '([^']*)')");
  std::smatch m;
  if (!std::regex_search(message, m, who)) return d;
  const std::string kind = m[1], nm = m[2];
  const std::vector<SourceLocation>& locs = kind == "body"    ? body_locations
                                            : kind == "joint" ? joint_locations
                                                              : force_locations;
  for (const SourceLocation& l : locs)
    if (l.name == nm) {
      d.file = l.file;
      d.line = l.line;
      d.column = l.column;
      d.key_path = l.key_path;
      return d;
    }
  return d;
}

Override parse_override(const std::string& argument) {
  const size_t eq = argument.find('=');
  if (eq == std::string::npos || eq == 0) {
    Diagnostic d;
    d.file = "--set " + argument;
    d.line = 1;
    d.column = 1;
    d.message = "expected key=value (e.g. solver.type=ida)";
    throw LoadError({d});
  }
  return {argument.substr(0, eq), argument.substr(eq + 1)};
}

LoadedModel load_model_text(const std::string& text, const std::string& file_name,
                            const std::vector<Override>& overrides) {
  Loader L(file_name, text);
  try {
    return L.load(overrides);
  } catch (const YAML::Exception& e) {
    // Not expected (the loader asks before it reads), but never let yaml-cpp end the program.
    Diagnostic d;
    d.file = file_name;
    d.line = e.mark.is_null() ? 0 : e.mark.line + 1;
    d.column = e.mark.is_null() ? 0 : e.mark.column + 1;
    d.message = std::string("cannot read the model: ") + e.what();
    throw LoadError({d});
  }
}

LoadedModel load_model_file(const std::string& path, const std::vector<Override>& overrides) {
  std::ifstream in(path, std::ios::binary);
  Diagnostic d;
  d.file = path;
  if (!in) {
    d.message = "cannot read the file (" + std::string(std::strerror(errno)) + ")";
    throw LoadError({d});
  }
  std::ostringstream s;
  s << in.rdbuf();
  if (in.bad()) {
    d.message = "cannot read the file";
    throw LoadError({d});
  }
  const std::string text = s.str();
  if (text.size() > (64u << 20)) {
    d.message = "the file is larger than 64 MB";
    throw LoadError({d});
  }
  return load_model_text(text, path, overrides);
}

}  // namespace mbdae::io
