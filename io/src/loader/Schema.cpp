/// @file Schema.cpp
/// Places of problems, mappings with fixed keys, typed reads (Schema.h).

#include "Schema.h"

#include <mbdae/io/Quantities.h>
#include <mbdae/io/Suggest.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <set>
#include <sstream>
#include <tuple>

#include <mbdae/model/math/Rotation.h>

namespace mbdae::io::loader {

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
  return s;
}

std::string unknown_name(const std::string& what, const std::string& given, const std::vector<std::string>& known,
                         const std::string& label, const std::vector<std::string>& listed) {
  std::string inside = did_you_mean(given, known);
  if (!label.empty()) inside += label + (listed.empty() ? std::string() : " " + join(listed));
  while (!inside.empty() && inside.back() == ' ') inside.pop_back();
  return "unknown " + what + " '" + given + "'" + (inside.empty() ? std::string() : " (" + inside + ")");
}

std::string fmt_num(double x) {
  std::ostringstream s;
  s.precision(6);
  s << x;
  return s.str();
}

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

std::string child(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}
std::string index(const std::string& path, size_t i) { return path + "[" + std::to_string(i) + "]"; }

// ---- where a problem is -------------------------------------------------------------------------
Diagnostic Reader::at(const YAML::Mark& m, const std::string& path) const {
  Diagnostic d;
  d.key_path = path;
  d.file = file_;
  if (const std::string* label = override_of(path)) {
    d.file = *label;
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

void Reader::error(const YAML::Mark& m, const std::string& path, const std::string& msg) {
  Diagnostic d = at(m, path);
  d.message = msg;
  diags_.push_back(std::move(d));
}

void Reader::override_error(const Override& o, int column, const std::string& msg) {
  Diagnostic d;
  d.file = "--set " + o.key + "=" + o.value;
  d.line = 1;
  d.column = column;
  d.key_path = o.key;
  d.message = msg;
  diags_.push_back(std::move(d));
}

const std::string* Reader::override_of(const std::string& path) const {
  for (const OverrideInfo& o : overrides_)
    if (path == o.key || path.starts_with(o.key + ".") || path.starts_with(o.key + "[")) return &o.label;
  return nullptr;
}

SourceLocation Reader::location(const YAML::Node& n, const std::string& path, const std::string& nm) const {
  const Diagnostic d = at(n.Mark(), path);
  return SourceLocation{nm, path, d.file, d.line, d.column};
}

int Reader::quote_offset(const YAML::Node& n, const std::string& path) const {
  if (override_of(path)) return 0;
  const int p = n.Mark().pos;
  if (p < 0 || static_cast<size_t>(p) >= text_.size()) return 0;
  return (text_[static_cast<size_t>(p)] == '"' || text_[static_cast<size_t>(p)] == '\'') ? 1 : 0;
}

std::vector<Diagnostic> Reader::take_sorted_problems() {
  std::stable_sort(diags_.begin(), diags_.end(), [](const Diagnostic& a, const Diagnostic& b) {
    // File problems in file order; overrides last.
    const bool ao = a.file.starts_with("--set"), bo = b.file.starts_with("--set");
    if (ao != bo) return bo;
    return std::tie(a.line, a.column) < std::tie(b.line, b.column);
  });
  return std::move(diags_);
}

// ---- a mapping with a fixed set of keys ---------------------------------------------------------
Map::Map(Reader& r, const YAML::Node& node, std::string path, std::vector<std::string> allowed,
         std::map<std::string, std::string> unsupported)
    : r_(r), node_(node), path_(std::move(path)) {
  if (!node.IsMap()) {
    r.error(node, path_, std::string("expected a mapping, got ") + kind_of(node));
    valid_ = false;
    return;
  }
  std::map<std::string, int> first_line;
  for (auto it = node.begin(); it != node.end(); ++it) {
    const YAML::Node k = it->first;
    if (!k.IsScalar()) {
      r.error(k, path_, std::string("a key must be a plain name, got ") + kind_of(k));
      continue;
    }
    const std::string key = k.Scalar();
    const std::string kp = child(path_, key);
    if (auto f = first_line.find(key); f != first_line.end()) {
      r.error(k, kp, "duplicate key '" + key + "' (first given at line " + std::to_string(f->second) + ")");
      continue;
    }
    first_line[key] = k.Mark().line + 1;
    if (auto u = unsupported.find(key); u != unsupported.end()) {
      r.error(k, kp, u->second);
      continue;
    }
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      r.error(k, kp, unknown_name("key", key, allowed, "expected one of:", allowed));
      continue;
    }
    entries_.push_back({key, k, it->second});
  }
}

const Entry* Map::find(const std::string& key) const {
  for (const Entry& e : entries_)
    if (e.key == key) return &e;
  return nullptr;
}

const Entry* Map::require(const std::string& key, const std::string& what) {
  const Entry* e = find(key);
  if (!e && valid_)
    r_.error(node_, path_, "missing required key '" + key + "'" + (what.empty() ? "" : " (" + what + ")"));
  return e;
}

// ---- scalars ------------------------------------------------------------------------------------
std::optional<double> Reader::number(const YAML::Node& n, const std::string& path, const Range& r) {
  std::optional<Expression> e = expression(n, path, false);
  if (!e) return std::nullopt;
  const double x = (*e)(0.0);
  return check_range(n, path, x, r);
}

std::optional<double> Reader::check_range(const YAML::Node& n, const std::string& path, double x, const Range& r) {
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
  if (!r.scale_free && std::abs(x) > max_magnitude) {
    error(n, path, "must be in [-1e15, 1e15] (the range of the model format's numbers), got " + fmt_num(x));
    return std::nullopt;
  }
  return x;
}

std::optional<Expression> Reader::expression(const YAML::Node& n, const std::string& path, bool allow_t) {
  return expression(n, path, allow_t, nullptr);
}

std::optional<Expression> Reader::expression(const YAML::Node& n, const std::string& path, const QuantityRules& rules) {
  return expression(n, path, true, &rules);
}

std::optional<Expression> Reader::expression(const YAML::Node& n, const std::string& path, bool allow_t,
                                             const QuantityRules* rules) {
  const std::string expected = rules ? "expected a number or " + rules->what
                               : allow_t ? "expected a number or an expression of t" : "expected a number";
  if (!n.IsScalar()) {
    error(n, path, expected + ", got " + kind_of(n));
    return std::nullopt;
  }
  const std::string& s = n.Scalar();
  const size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  const std::string t = b == std::string::npos ? "" : s.substr(b, e - b + 1);
  if (t.empty()) {
    error(n, path, "expected a number, got an empty string");
    return std::nullopt;
  }
  // Plain numbers first (and YAML's spellings of infinity and NaN).
  const std::string num = (t[0] == '+') ? t.substr(1) : t;
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
    // Table files are named relative to the model file.
    const std::string dir = std::filesystem::path(file_).parent_path().string();
    Expression ex(s, rules ? rules->functions : std::vector<std::string>{}, dir.empty() ? "." : dir);
    for (std::string& f : ex.table_files()) files_read_.push_back(std::move(f));
    if (ex.depends_on_time() && !allow_t) {
      error(n, path, "expected a constant, got an expression of t: '" + s + "'");
      return std::nullopt;
    }
    if (!ex.depends_on_time() && ex.quantities().empty() && !std::isfinite(ex(0.0))) {
      error(n, path, "expression '" + s + "' is not a finite number (" + fmt_num(ex(0.0)) + ")");
      return std::nullopt;
    }
    bool ok = true;
    if (rules)
      for (const ExpressionQuantity& q : ex.quantities())
        if (auto problem = rules->check(q)) {
          ok = false;
          if (problem->first < 0) {
            follow_on();
            continue;
          }
          YAML::Mark m = n.Mark();
          if (!m.is_null()) m.column += quote_offset(n, path) + problem->first;
          error(m, path, problem->second + " in '" + s + "'");
          ok = false;
        }
    if (!ok) return std::nullopt;
    return ex;
  } catch (const ExpressionError& err) {
    YAML::Mark m = n.Mark();
    if (!m.is_null()) m.column += quote_offset(n, path) + err.position();
    // A joint quantity where only t is allowed: say where it may be used.
    std::string hint;
    const size_t at = static_cast<size_t>(std::max(0, err.position()));
    if (!rules) {
      std::vector<std::string> named = {"sensor"};
      for (const auto& [w, meaning] : QuantityResolver::builtin()) named.push_back(w);
      for (const std::string& w : named)
        if (at < s.size() && s.compare(at, w.size(), w) == 0 && s.find('(', at) == at + w.size())
          hint = " (" + w + "() and the other named quantities may be used only in the value of a load or a joint_motor)";
    }
    error(m, path, expected + ", got '" + s + "': " + err.what() + hint);
    return std::nullopt;
  }
}

std::optional<std::string> Reader::string(const YAML::Node& n, const std::string& path) {
  if (!n.IsScalar()) {
    error(n, path, std::string("expected a string, got ") + kind_of(n));
    return std::nullopt;
  }
  return n.Scalar();
}

std::optional<std::string> Reader::name(const YAML::Node& n, const std::string& path) {
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

std::optional<std::string> Reader::choice(const YAML::Node& n, const std::string& path,
                                          const std::vector<std::string>& choices,
                                          const std::vector<std::string>& unsupported, const std::string& what) {
  auto s = string(n, path);
  if (!s) return std::nullopt;
  if (std::find(choices.begin(), choices.end(), *s) != choices.end()) return s;
  if (std::find(unsupported.begin(), unsupported.end(), *s) != unsupported.end()) {
    error(n, path, (what.empty() ? "'" + *s + "'" : what + " '" + *s + "'") +
                       " is not supported yet (supported: " + join(choices) + ")");
    return std::nullopt;
  }
  error(n, path, unknown_name("value", *s, choices, "expected one of:", choices));
  return std::nullopt;
}

std::optional<bool> Reader::flag(const YAML::Node& n, const std::string& path) {
  auto s = string(n, path);
  if (!s) return std::nullopt;
  if (*s == "1" || *s == "true") return true;
  if (*s == "0" || *s == "false") return false;
  error(n, path, "expected 0, 1, true or false, got '" + *s + "'");
  return std::nullopt;
}

bool Reader::list(const YAML::Node& n, const std::string& path, size_t size, const char* what) {
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

std::optional<Vec3> Reader::vec3(const YAML::Node& n, const std::string& path, const Range& r) {
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

std::optional<Vec3> Reader::nonzero_vec3(const YAML::Node& n, const std::string& path) {
  auto v = vec3(n, path, direction());
  if (!v) return v;
  const double scale = v->cwiseAbs().maxCoeff();
  if (!(scale > 1e-12)) {
    error(n, path, "the axis has zero length");
    return std::nullopt;
  }
  return Vec3(*v / scale);
}

bool Reader::section_list(const YAML::Node& n, const std::string& path) {
  if (n.IsNull()) return false;  // "joints:" with nothing: an empty list
  if (!n.IsSequence()) {
    error(n, path, std::string("expected a list, got ") + kind_of(n));
    return false;
  }
  return true;
}

// ---- orientation --------------------------------------------------------------------------------
std::optional<Mat3> Reader::orientation(const YAML::Node& n, const std::string& path) {
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

}  // namespace mbdae::io::loader

// The shared form for the other YAML readers (YamlNodes.h: the study files).
namespace mbdae::io {
const char* kind_of(const YAML::Node& n) { return loader::kind_of(n); }
}  // namespace mbdae::io
