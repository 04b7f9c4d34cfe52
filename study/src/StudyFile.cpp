// Reads and checks a study file (docs/sweeps.md): every key, with FILE:LINE:COL: KEY: message for
// each problem, all problems at once.

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include <mbdae/io/Expression.h>
#include <mbdae/io/YamlNodes.h>
#include <mbdae/study/Study.h>

namespace mbdae::study {

namespace {

using io::kind_of;

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
  return s;
}

/// A YAML value as the text of an override ("2", "ida", "[0, 0, 1]", "\"a: b\"").
std::string yaml_text(const YAML::Node& n) {
  YAML::Emitter e;
  e << YAML::Flow << n;
  return e.c_str();
}

/// A plain number ("2.5", "-1e-3"), else NaN.
double plain_number(const std::string& s) {
  double x = 0;
  const char* b = s.data() + (!s.empty() && s[0] == '+');
  const auto r = std::from_chars(b, s.data() + s.size(), x);
  return r.ec == std::errc() && r.ptr == s.data() + s.size() && std::isfinite(x) ? x : std::nan("");
}

Value value_of(const YAML::Node& n) {
  Value v;
  v.text = yaml_text(n);
  if (n.IsScalar()) v.number = plain_number(n.Scalar());
  if (v.is_number()) v = number_value(v.number);
  return v;
}

class StudyReader {
 public:
  StudyReader(std::string file, std::string text) : file_(std::move(file)), text_(std::move(text)) {}
  Study read();

 private:
  io::Diagnostic at(const YAML::Node& n, const std::string& path) const {
    io::Diagnostic d;
    d.file = file_;
    d.key_path = path;
    if (!n.Mark().is_null()) {
      d.line = n.Mark().line + 1;
      d.column = n.Mark().column + 1;
    }
    return d;
  }
  void error(const YAML::Node& n, const std::string& path, const std::string& msg) {
    io::Diagnostic d = at(n, path);
    d.message = msg;
    diags_.push_back(std::move(d));
  }

  /// A mapping's entries, each key checked against `allowed` (unknown and repeated keys are errors).
  std::map<std::string, YAML::Node> mapping(const YAML::Node& n, const std::string& path,
                                            const std::vector<std::string>& allowed) {
    std::map<std::string, YAML::Node> out;
    if (!n.IsMap()) {
      error(n, path, std::string("expected a mapping, got ") + kind_of(n));
      return out;
    }
    for (auto it = n.begin(); it != n.end(); ++it) {
      const std::string key = it->first.IsScalar() ? it->first.Scalar() : std::string();
      const std::string kp = path.empty() ? key : path + "." + key;
      if (!it->first.IsScalar()) error(it->first, path, "a key must be a plain name");
      else if (out.count(key)) error(it->first, kp, "duplicate key '" + key + "'");
      else if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
        error(it->first, kp, "unknown key '" + key + "' (expected one of: " + join(allowed) + ")");
      else out[key] = it->second;
    }
    return out;
  }
  std::optional<std::string> string(const YAML::Node& n, const std::string& path) {
    if (n.IsScalar() && !n.Scalar().empty()) return n.Scalar();
    error(n, path, std::string("expected a non-empty string, got ") + kind_of(n));
    return std::nullopt;
  }
  /// A finite number: plain, or a constant expression ("pi/6").
  std::optional<double> number(const YAML::Node& n, const std::string& path) {
    if (!n.IsScalar()) {
      error(n, path, std::string("expected a number, got ") + kind_of(n));
      return std::nullopt;
    }
    double x = plain_number(n.Scalar());
    if (x != x) {
      try {
        const io::Expression e(n.Scalar());
        if (e.depends_on_time()) {
          error(n, path, "expected a constant, got an expression of t");
          return std::nullopt;
        }
        x = e(0.0);
      } catch (const io::ExpressionError& e) {
        error(n, path, "expected a number, got '" + n.Scalar() + "': " + e.what());
        return std::nullopt;
      }
    }
    if (!std::isfinite(x)) {
      error(n, path, "expected a finite number, got '" + n.Scalar() + "'");
      return std::nullopt;
    }
    return x;
  }
  std::optional<long> whole(const YAML::Node& n, const std::string& path, long lo, long hi) {
    long k = 0;
    const std::string s = n.IsScalar() ? n.Scalar() : std::string();
    const auto r = std::from_chars(s.data(), s.data() + s.size(), k);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size() || k < lo || k > hi) {
      error(n, path, "expected a whole number in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got " +
                         (n.IsScalar() ? "'" + s + "'" : std::string(kind_of(n))));
      return std::nullopt;
    }
    return k;
  }
  /// [lo, hi] with lo < hi (and lo > 0 if positive).
  bool interval(const YAML::Node& n, const std::string& path, bool positive, double& lo, double& hi) {
    if (!n.IsSequence() || n.size() != 2) {
      error(n, path, "expected [low, high]");
      return false;
    }
    const auto a = number(n[0], path + "[0]"), b = number(n[1], path + "[1]");
    if (!a || !b) return false;
    if (!(*a < *b)) {
      error(n, path, "expected low < high, got [" + n[0].Scalar() + ", " + n[1].Scalar() + "]");
      return false;
    }
    if (positive && !(*a > 0)) {
      error(n[0], path + "[0]", "must be > 0 (log scale), got " + n[0].Scalar());
      return false;
    }
    lo = *a;
    hi = *b;
    return true;
  }

  void parameter(const YAML::Node& n, const std::string& path);
  void range(const YAML::Node& n, const std::string& path, Parameter& p);
  void output(const YAML::Node& n, const std::string& path);
  void check_design(const std::map<std::string, YAML::Node>& top);
  void check_against_model();

  std::string file_, text_;
  std::vector<io::Diagnostic> diags_;
  Study s_;
  std::vector<YAML::Node> parameter_nodes_;
  std::vector<io::Diagnostic> fixed_where_;  // the place of each of s_.fixed
  YAML::Node design_node_;
};

void StudyReader::range(const YAML::Node& n, const std::string& path, Parameter& p) {
  auto m = mapping(n, path, {"from", "to", "count", "scale"});
  for (const char* k : {"from", "to", "count"})
    if (n.IsMap() && !m.count(k)) error(n, path, std::string("missing required key '") + k + "'");
  bool log = false;
  if (m.count("scale")) {
    const auto sc = string(m["scale"], path + ".scale");
    if (sc && *sc != "linear" && *sc != "log")
      error(m["scale"], path + ".scale", "unknown value '" + *sc + "' (expected one of: linear, log)");
    log = sc && *sc == "log";
  }
  std::optional<double> from, to;
  std::optional<long> count;
  if (m.count("from")) from = number(m["from"], path + ".from");
  if (m.count("to")) to = number(m["to"], path + ".to");
  if (m.count("count")) count = whole(m["count"], path + ".count", 2, 1'000'000);
  if (!from || !to || !count) return;
  if (log && !(*from > 0 && *to > 0)) {
    error(n, path, "a log range needs from > 0 and to > 0");
    return;
  }
  // The ends exactly as given; in between evenly spaced in x (linear) or log x (log).
  for (long i = 0; i < *count; ++i) {
    const double f = static_cast<double>(i) / static_cast<double>(*count - 1);
    double x = log ? *from * std::pow(*to / *from, f) : *from + f * (*to - *from);
    if (i == 0) x = *from;
    if (i == *count - 1) x = *to;
    p.levels.push_back(number_value(x));
  }
}

void StudyReader::parameter(const YAML::Node& n, const std::string& path) {
  auto m = mapping(n, path, {"name", "key", "format", "values", "range", "uniform", "log_uniform", "normal", "nominal"});
  if (!n.IsMap()) return;
  Parameter p;
  p.where = at(n, path);
  if (!m.count("key")) {
    error(n, path, "missing required key 'key' (a model key as for --set, e.g. bodies[1].mass)");
  } else if (const YAML::Node& k = m["key"]; k.IsSequence() && k.size() > 0) {
    for (size_t i = 0; i < k.size(); ++i)
      if (auto s = string(k[i], path + ".key[" + std::to_string(i) + "]")) p.keys.push_back(*s);
  } else if (auto s = string(k, path + ".key")) {
    p.keys.push_back(*s);
  }
  if (!p.keys.empty()) p.name = p.keys[0];
  if (m.count("name"))
    if (auto s = string(m["name"], path + ".name")) p.name = *s;
  if (m.count("format")) {
    if (auto f = string(m["format"], path + ".format")) {
      if (f->find("{}") == std::string::npos) error(m["format"], path + ".format", "the format has no {} for the value");
      p.format = *f;
    }
  }
  int given = 0;
  for (const char* k : {"values", "range", "uniform", "log_uniform", "normal"}) given += m.count(k) ? 1 : 0;
  if (given != 1) {
    error(n, path, given == 0 ? "give the values: one of values, range, uniform, log_uniform, normal"
                              : "give only one of values, range, uniform, log_uniform, normal");
  } else if (m.count("values")) {
    const YAML::Node& v = m["values"];
    if (!v.IsSequence() || v.size() == 0) error(v, path + ".values", "expected a non-empty list of values");
    else
      for (size_t i = 0; i < v.size(); ++i) p.levels.push_back(value_of(v[i]));
  } else if (m.count("range")) {
    range(m["range"], path + ".range", p);
  } else if (m.count("uniform")) {
    p.kind = ValueKind::Uniform;
    interval(m["uniform"], path + ".uniform", false, p.a, p.b);
  } else if (m.count("log_uniform")) {
    p.kind = ValueKind::LogUniform;
    interval(m["log_uniform"], path + ".log_uniform", true, p.a, p.b);
  } else {
    p.kind = ValueKind::Normal;
    const std::string np = path + ".normal";
    auto nm = mapping(m["normal"], np, {"mean", "std", "min", "max"});
    if (m["normal"].IsMap()) {
      for (const char* k : {"mean", "std"})
        if (!nm.count(k)) error(m["normal"], np, std::string("missing required key '") + k + "'");
      if (nm.count("mean"))
        if (auto x = number(nm["mean"], np + ".mean")) p.a = *x;
      if (nm.count("std")) {
        if (auto x = number(nm["std"], np + ".std")) {
          if (*x > 0) p.b = *x;
          else error(nm["std"], np + ".std", "must be > 0, got " + nm["std"].Scalar());
        }
      }
      if (nm.count("min"))
        if (auto x = number(nm["min"], np + ".min")) p.min = *x;
      if (nm.count("max"))
        if (auto x = number(nm["max"], np + ".max")) p.max = *x;
      if (!(p.min < p.max)) error(m["normal"], np, "expected min < max");
    }
  }
  if (m.count("nominal")) {
    if (p.kind != ValueKind::Levels)
      error(m["nominal"], path + ".nominal", "nominal is for parameters with values or a range");
    else p.nominal = value_of(m["nominal"]);
  }
  for (size_t i = 0; i < p.keys.size(); ++i) {
    bool taken = std::find(p.keys.begin(), p.keys.begin() + static_cast<long>(i), p.keys[i]) != p.keys.begin() + static_cast<long>(i);
    for (const Parameter& q : s_.parameters)
      taken = taken || std::find(q.keys.begin(), q.keys.end(), p.keys[i]) != q.keys.end();
    if (taken) error(n, path, "the key '" + p.keys[i] + "' is already a parameter");
  }
  s_.parameters.push_back(std::move(p));
  parameter_nodes_.push_back(n);
}

void StudyReader::output(const YAML::Node& n, const std::string& path) {
  auto m = mapping(n, path, {"name", "sensor", "statistic", "time", "eigenfrequency", "equilibrium", "at_equilibrium",
                             "load_steps"});
  if (!n.IsMap()) return;
  // Analyses: `eigenfrequency: k` (mbdae modes) and `equilibrium: COLUMN` (mbdae statics).
  if (m.count("eigenfrequency") || m.count("equilibrium")) {
    Output o;
    o.where = at(n, path);
    for (const char* key : {"sensor", "statistic", "time"})
      if (m.count(key))
        error(m[key], path + "." + key, std::string(key) + " is for sensor statistics, not for an output of an analysis");
    if (m.count("eigenfrequency") && m.count("equilibrium"))
      error(n, path, "an output is either an eigenfrequency or an equilibrium, not both");
    if (m.count("load_steps"))
      if (auto x = whole(m["load_steps"], path + ".load_steps", 1, 1000000)) o.load_steps = static_cast<int>(*x);
    if (m.count("eigenfrequency")) {
      o.kind = OutputKind::Eigenfrequency;
      // The mode's number k: the k-th row of mbdae modes (ascending frequency).
      if (auto x = whole(m["eigenfrequency"], path + ".eigenfrequency", 1, 1000000)) o.mode = static_cast<int>(*x);
      if (m.count("at_equilibrium")) {
        const auto b = string(m["at_equilibrium"], path + ".at_equilibrium");
        if (b && *b != "true" && *b != "false")
          error(m["at_equilibrium"], path + ".at_equilibrium", "expected true or false, got '" + *b + "'");
        else if (b) o.at_equilibrium = *b == "true";
      }
      if (m.count("load_steps") && !o.at_equilibrium)
        error(m["load_steps"], path + ".load_steps", "load_steps is for at_equilibrium: true");
      o.name = "eigenfrequency:" + std::to_string(o.mode) + (o.at_equilibrium ? ":at_equilibrium" : "");
    } else {
      o.kind = OutputKind::Equilibrium;
      if (m.count("at_equilibrium"))
        error(m["at_equilibrium"], path + ".at_equilibrium", "at_equilibrium is for eigenfrequency outputs");
      if (auto c = string(m["equilibrium"], path + ".equilibrium")) o.column = *c;
      o.where = at(m["equilibrium"], path + ".equilibrium");
      o.name = "equilibrium:" + o.column;
    }
    if (m.count("name"))
      if (auto s = string(m["name"], path + ".name")) o.name = *s;
    s_.outputs.push_back(std::move(o));
    return;
  }
  for (const char* key : {"at_equilibrium", "load_steps"})
    if (m.count(key)) error(m[key], path + "." + key, std::string(key) + " is for the outputs of the analyses (eigenfrequency, equilibrium)");
  Output o;
  o.where = at(n, path);
  if (m.count("sensor")) {
    if (auto s = string(m["sensor"], path + ".sensor")) o.column = *s;
    o.where = at(m["sensor"], path + ".sensor");
  } else {
    error(n, path, "missing required key 'sensor' (a column of the model's results, e.g. slider.x)");
  }
  static const std::vector<Statistic> kStats = {Statistic::Final, Statistic::Max, Statistic::Min,
                                                Statistic::Mean, Statistic::Rms, Statistic::TimeOfMax,
                                                Statistic::TimeOfMin, Statistic::ValueAt};
  if (m.count("statistic")) {
    std::vector<std::string> names;
    for (Statistic s : kStats) names.push_back(to_string(s));
    const auto s = string(m["statistic"], path + ".statistic");
    const auto it = s ? std::find(names.begin(), names.end(), *s) : names.end();
    if (s && it == names.end())
      error(m["statistic"], path + ".statistic", "unknown value '" + *s + "' (expected one of: " + join(names) + ")");
    if (it != names.end()) o.statistic = kStats[static_cast<size_t>(it - names.begin())];
  } else {
    error(n, path, "missing required key 'statistic' (final, max, min, mean, rms, time_of_max, time_of_min, value_at)");
  }
  if (m.count("time")) {
    if (o.statistic != Statistic::ValueAt) error(m["time"], path + ".time", "time is for statistic value_at");
    else if (auto t = number(m["time"], path + ".time")) o.time = *t;
  } else if (o.statistic == Statistic::ValueAt) {
    error(n, path, "missing required key 'time' (value_at: the value at this time, s)");
  }
  o.name = o.column + ":" + to_string(o.statistic);
  if (o.statistic == Statistic::ValueAt) o.name += ":" + (m.count("time") ? m["time"].Scalar() : std::string());
  if (m.count("name"))
    if (auto s = string(m["name"], path + ".name")) o.name = *s;
  s_.outputs.push_back(std::move(o));
}

void StudyReader::check_design(const std::map<std::string, YAML::Node>& top) {
  const bool sampled = s_.design == Design::Random || s_.design == Design::LatinHypercube;
  for (size_t j = 0; j < s_.parameters.size(); ++j) {
    const Parameter& p = s_.parameters[j];
    if (!sampled && p.kind != ValueKind::Levels)
      error(parameter_nodes_[j], "parameters[" + std::to_string(j) + "]",
            std::string("a random draw needs design: random or latin_hypercube (the design is ") +
                to_string(s_.design) + "); give values or a range for " + to_string(s_.design));
    if (s_.design == Design::List && !p.levels.empty() && p.levels.size() != s_.parameters[0].levels.size())
      error(parameter_nodes_[j], "parameters[" + std::to_string(j) + "]",
            "design list: every parameter needs as many values as the first (" +
                std::to_string(s_.parameters[0].levels.size()) + "), got " + std::to_string(p.levels.size()));
  }
  if (top.count("samples") && !sampled)
    error(top.at("samples"), "samples", "samples is for design random or latin_hypercube");
  if (top.count("seed") && !sampled) error(top.at("seed"), "seed", "seed is for design random or latin_hypercube");
  if (sampled && !top.count("samples"))
    error(design_node_, "design", std::string("design ") + to_string(s_.design) + " needs samples: N");
  // The number of cases, without overflow.
  if (s_.design == Design::FullFactorial) {
    double n = 1;
    for (const Parameter& p : s_.parameters) n *= static_cast<double>(std::max<size_t>(p.levels.size(), 1));
    if (n > static_cast<double>(kMaxCases))
      error(design_node_.IsDefined() ? design_node_ : top.at("parameters"), "design",
            "full factorial of " + std::to_string(static_cast<long long>(n)) + " cases (at most " +
                std::to_string(kMaxCases) + ")");
  }
}

void StudyReader::check_against_model() {
  // The model loaded with the fixed overrides and case 0's values: a key the model does not have
  // or a value it refuses is an error at the parameter (or solver/set entry) that gave it.
  const std::vector<Case> first = s_.cases(1);
  if (first.empty()) return;
  const std::vector<io::Override> ov = s_.overrides(first[0]);
  std::vector<io::Diagnostic> where_of = fixed_where_;  // the place of each override
  for (const Parameter& p : s_.parameters) where_of.insert(where_of.end(), p.keys.size(), p.where);
  io::LoadedModel m;
  try {
    m = io::load_model_text(s_.model_text, s_.model_file, ov);
  } catch (const io::LoadError& e) {
    for (const io::Diagnostic& d : e.diagnostics()) {
      if (!d.file.starts_with("--set ")) {
        diags_.push_back(d);
        continue;
      }
      io::Diagnostic where;
      for (size_t k = 0; k < ov.size(); ++k)
        if (d.file == "--set " + ov[k].key + "=" + ov[k].value) {
          where = where_of[k];
          break;
        }
      if (where.file.empty()) where.file = file_;
      where.message = "the model refuses " + d.file.substr(6) + (first[0].id == 0 ? " (case 0)" : "") + ": " +
                      (d.key_path.empty() ? "" : d.key_path + ": ") + d.message;
      diags_.push_back(std::move(where));
    }
    return;
  }
  const std::vector<std::string> cols = sensor_columns(m);
  for (const Output& o : s_.outputs)
    if (!o.column.empty() && std::find(cols.begin(), cols.end(), o.column) == cols.end()) {
      io::Diagnostic d = o.where;
      d.message = "the model has no sensor column '" + o.column + "' (its columns: " +
                  (cols.empty() ? std::string("none; add sensors to the model") : join(cols)) + ")";
      diags_.push_back(std::move(d));
    }
}

Study StudyReader::read() {
  s_.file = file_;
  auto fail_file = [&](const YAML::Mark& mark, const std::string& msg) {
    io::Diagnostic d;
    d.file = file_;
    if (!mark.is_null()) {
      d.line = mark.line + 1;
      d.column = mark.column + 1;
    }
    d.message = msg;
    throw io::LoadError({d});
  };
  YAML::Node root;
  try {
    root = YAML::Load(text_);
  } catch (const YAML::Exception& e) {
    fail_file(e.mark, "YAML syntax error: " + e.msg);
  }
  if (!root.IsMap()) fail_file(root.Mark(), std::string("expected a mapping (model:, parameters:, outputs:, ...), got ") + kind_of(root));

  auto top = mapping(root, "", {"name", "description", "model", "parameters", "design", "samples", "seed", "outputs",
                                "solver", "set", "time_limit", "output"});
  if (top.count("name"))
    if (auto s = string(top["name"], "name")) s_.name = *s;
  if (top.count("description"))
    if (auto s = string(top["description"], "description")) s_.description = *s;

  bool model_ok = false;
  if (!top.count("model")) {
    error(root, "", "missing required key 'model' (the model file, relative to this file)");
  } else if (auto mf = string(top["model"], "model")) {
    namespace fs = std::filesystem;
    fs::path p(*mf);
    if (p.is_relative()) p = fs::path(file_).parent_path() / p;
    s_.model_file = p.lexically_normal().string();
    std::ifstream in(s_.model_file, std::ios::binary);
    std::ostringstream text;
    if (in) text << in.rdbuf();
    if (!in || in.bad()) error(top["model"], "model", "cannot read '" + s_.model_file + "' (" + std::strerror(errno) + ")");
    else {
      s_.model_text = text.str();
      model_ok = true;
    }
  }

  design_node_ = top.count("design") ? top["design"] : YAML::Node();
  if (top.count("design")) {
    static const std::vector<Design> kDesigns = {Design::FullFactorial, Design::OneAtATime, Design::List,
                                                 Design::Random, Design::LatinHypercube};
    std::vector<std::string> names;
    for (Design d : kDesigns) names.push_back(to_string(d));
    if (auto s = string(top["design"], "design")) {
      const auto it = std::find(names.begin(), names.end(), *s);
      if (it == names.end()) error(top["design"], "design", "unknown value '" + *s + "' (expected one of: " + join(names) + ")");
      else s_.design = kDesigns[static_cast<size_t>(it - names.begin())];
    }
  }
  if (top.count("samples"))
    if (auto k = whole(top["samples"], "samples", 1, kMaxCases)) s_.samples = *k;
  if (top.count("seed")) {
    const YAML::Node& n = top["seed"];
    unsigned long long k = 0;
    const std::string s = n.IsScalar() ? n.Scalar() : std::string();
    const auto r = std::from_chars(s.data(), s.data() + s.size(), k);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size())
      error(n, "seed", "expected a whole number in [0, 2^64), got " + (n.IsScalar() ? "'" + s + "'" : std::string(kind_of(n))));
    s_.seed = k;
  }

  // The two required lists, each item read by its reader.
  for (auto [section, item] : {std::pair{"parameters", &StudyReader::parameter}, std::pair{"outputs", &StudyReader::output}}) {
    if (!top.count(section)) {
      error(root, "", std::string("missing required key '") + section + "'");
    } else if (const YAML::Node& list = top[section]; !list.IsSequence() || list.size() == 0) {
      error(list, section, std::string("expected a non-empty list of ") + section);
    } else {
      for (size_t j = 0; j < list.size(); ++j) (this->*item)(list[j], section + ("[" + std::to_string(j) + "]"));
    }
  }

  // Fixed overrides: solver: {key: value} is solver.key=value; set: {key: value} any key.
  for (const char* section : {"solver", "set"}) {
    if (!top.count(section)) continue;
    const YAML::Node& n = top[section];
    if (!n.IsMap()) {
      error(n, section, std::string("expected a mapping of keys to values, got ") + kind_of(n));
      continue;
    }
    for (auto it = n.begin(); it != n.end(); ++it) {
      const std::string key = it->first.Scalar();
      const std::string full = std::string(section) == "solver" ? "solver." + key : key;
      s_.fixed.push_back({full, yaml_text(it->second)});
      fixed_where_.push_back(at(it->first, std::string(section) + "." + key));
    }
  }
  if (top.count("time_limit"))
    if (auto t = number(top["time_limit"], "time_limit")) {
      if (*t > 0) s_.time_limit = *t;
      else error(top["time_limit"], "time_limit", "must be > 0 (s of wall time per case), got " + top["time_limit"].Scalar());
    }
  if (top.count("output")) {
    auto o = mapping(top["output"], "output", {"table", "series"});
    if (o.count("table"))
      if (auto s = string(o["table"], "output.table")) s_.table = *s;
    if (o.count("series")) {
      const std::string v = o["series"].IsScalar() ? o["series"].Scalar() : std::string();
      if (v == "true" || v == "1") s_.series = true;
      else if (!(v == "false" || v == "0")) error(o["series"], "output.series", "expected true or false, got '" + v + "'");
    }
  }

  // Column names: unique, and none of the table's own.
  std::set<std::string> names = {"case", "status", "t_reached", "wall_time", "message"};
  auto unique = [&](const std::string& name, const io::Diagnostic& where) {
    if (name.empty()) return;
    if (!names.insert(name).second) {
      io::Diagnostic d = where;
      d.message = "the column name '" + name + "' is already used (parameters, outputs and case, status, t_reached, "
                  "wall_time, message must differ)";
      diags_.push_back(std::move(d));
    }
  };
  for (const Parameter& p : s_.parameters) unique(p.name, p.where);
  for (const Output& o : s_.outputs) unique(o.name, o.where);

  if (diags_.empty()) check_design(top);
  if (diags_.empty() && model_ok) check_against_model();
  if (!diags_.empty()) {
    std::stable_sort(diags_.begin(), diags_.end(), [&](const io::Diagnostic& a, const io::Diagnostic& b) {
      const bool as = a.file == file_, bs = b.file == file_;
      if (as != bs) return as;
      return std::tie(a.line, a.column) < std::tie(b.line, b.column);
    });
    throw io::LoadError(std::move(diags_));
  }
  return std::move(s_);
}

}  // namespace

Study load_study_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    io::Diagnostic d;
    d.file = path;
    d.message = "cannot read the study file (" + std::string(std::strerror(errno)) + ")";
    throw io::LoadError({d});
  }
  std::ostringstream text;
  text << in.rdbuf();
  StudyReader r(path, text.str());
  try {
    return r.read();
  } catch (const YAML::Exception& e) {
    io::Diagnostic d;
    d.file = path;
    if (!e.mark.is_null()) {
      d.line = e.mark.line + 1;
      d.column = e.mark.column + 1;
    }
    d.message = std::string("cannot read the study: ") + e.what();
    throw io::LoadError({d});
  }
}

}  // namespace mbdae::study
