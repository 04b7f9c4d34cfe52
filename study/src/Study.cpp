// The cases of a study: designs, random draws and the overrides of each case.

#include <mbdae/study/Study.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include <mbdae/io/CsvWriter.h>
#include <mbdae/io/Sensors.h>
#include <mbdae/study/Sampling.h>

namespace mbdae::study {

Value number_value(double x) {
  Value v;
  v.number = x == 0 ? 0.0 : x;
  io::append_csv_number(v.text, v.number);
  return v;
}

std::string Parameter::override_text(const Value& v) const {
  if (format.empty()) return v.text;
  std::string s = format;
  for (size_t p = s.find("{}"); p != std::string::npos; p = s.find("{}", p + v.text.size()))
    s.replace(p, 2, v.text);
  // A YAML double-quoted string, so that ':' or '#' in an expression stay text.
  std::string q = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') q.push_back('\\');
    q.push_back(c);
  }
  return q + "\"";
}

const char* to_string(Design d) {
  switch (d) {
    case Design::FullFactorial: return "full_factorial";
    case Design::OneAtATime: return "one_at_a_time";
    case Design::List: return "list";
    case Design::Random: return "random";
    case Design::LatinHypercube: return "latin_hypercube";
  }
  return "?";
}

const char* to_string(Statistic s) {
  switch (s) {
    case Statistic::Final: return "final";
    case Statistic::Max: return "max";
    case Statistic::Min: return "min";
    case Statistic::Mean: return "mean";
    case Statistic::Rms: return "rms";
    case Statistic::TimeOfMax: return "time_of_max";
    case Statistic::TimeOfMin: return "time_of_min";
    case Statistic::ValueAt: return "value_at";
  }
  return "?";
}

namespace {

bool same_value(const Value& a, const Value& b) {
  return a.is_number() && b.is_number() ? a.number == b.number : a.text == b.text;
}

/// The nominal value of a parameter with levels: its `nominal`, else the middle level.
const Value& nominal_of(const Parameter& p) {
  return p.nominal ? *p.nominal : p.levels[(p.levels.size() - 1) / 2];
}

/// The value at u in (0, 1): the inverse of the parameter's distribution function (levels: the
/// level whose equal share of (0, 1) holds u).
Value value_at(const Parameter& p, double u) {
  switch (p.kind) {
    case ValueKind::Levels: {
      const size_t n = p.levels.size();
      return p.levels[std::min(n - 1, static_cast<size_t>(u * static_cast<double>(n)))];
    }
    case ValueKind::Uniform: return number_value(std::min(p.b, p.a + u * (p.b - p.a)));
    case ValueKind::LogUniform: {
      const double la = std::log(p.a), lb = std::log(p.b);
      return number_value(std::clamp(std::exp(la + u * (lb - la)), p.a, p.b));
    }
    case ValueKind::Normal: {
      const double lo = std::isfinite(p.min) ? normal_cdf((p.min - p.a) / p.b) : 0.0;
      const double hi = std::isfinite(p.max) ? normal_cdf((p.max - p.a) / p.b) : 1.0;
      return number_value(std::clamp(p.a + p.b * normal_quantile(lo + u * (hi - lo)), p.min, p.max));
    }
  }
  return {};
}

}  // namespace

long Study::case_count() const {
  switch (design) {
    case Design::FullFactorial: {
      long n = 1;
      for (const Parameter& p : parameters) n *= static_cast<long>(p.levels.size());
      return n;
    }
    case Design::OneAtATime: return static_cast<long>(cases().size());
    case Design::List: return parameters.empty() ? 1 : static_cast<long>(parameters[0].levels.size());
    case Design::Random:
    case Design::LatinHypercube: return samples;
  }
  return 0;
}

std::vector<Case> Study::cases(long limit) const {
  std::vector<Case> out;
  const size_t np = parameters.size();
  auto add = [&](std::vector<Value> values) { out.push_back(Case{static_cast<long>(out.size()), std::move(values)}); };
  switch (design) {
    case Design::FullFactorial: {
      const long n = std::min(limit, case_count());
      out.reserve(static_cast<size_t>(n));
      for (long k = 0; k < n; ++k) {
        // Mixed radix, the last parameter fastest.
        std::vector<Value> v(np);
        long rest = k;
        for (size_t j = np; j-- > 0;) {
          const long m = static_cast<long>(parameters[j].levels.size());
          v[j] = parameters[j].levels[static_cast<size_t>(rest % m)];
          rest /= m;
        }
        add(std::move(v));
      }
      break;
    }
    case Design::OneAtATime: {
      std::vector<Value> nominal(np);
      for (size_t j = 0; j < np; ++j) nominal[j] = nominal_of(parameters[j]);
      add(nominal);
      for (size_t j = 0; j < np; ++j)
        for (const Value& level : parameters[j].levels) {
          if (same_value(level, nominal[j])) continue;
          std::vector<Value> v = nominal;
          v[j] = level;
          add(std::move(v));
        }
      if (static_cast<long>(out.size()) > limit) out.resize(static_cast<size_t>(limit));
      break;
    }
    case Design::List: {
      const long n = std::min(limit, case_count());
      for (long k = 0; k < n; ++k) {
        std::vector<Value> v(np);
        for (size_t j = 0; j < np; ++j) v[j] = parameters[j].levels[static_cast<size_t>(k)];
        add(std::move(v));
      }
      break;
    }
    case Design::Random:
    case Design::LatinHypercube: {
      const auto u = unit_samples(samples, static_cast<int>(np), seed, design == Design::LatinHypercube);
      out.reserve(static_cast<size_t>(std::min(limit, samples)));
      for (long k = 0; k < std::min(limit, samples); ++k) {
        std::vector<Value> v(np);
        for (size_t j = 0; j < np; ++j) v[j] = value_at(parameters[j], u[static_cast<size_t>(k)][j]);
        add(std::move(v));
      }
      break;
    }
  }
  return out;
}

std::vector<io::Override> Study::overrides(const Case& c) const {
  std::vector<io::Override> o = fixed;
  for (size_t j = 0; j < parameters.size() && j < c.values.size(); ++j)
    for (const std::string& key : parameters[j].keys) o.push_back({key, parameters[j].override_text(c.values[j])});
  return o;
}

std::string Study::default_table() const {
  if (!table.empty()) return table;
  return std::filesystem::path(file).stem().string() + ".csv";
}

std::vector<std::string> sensor_columns(const io::LoadedModel& m) {
  std::vector<std::string> cols;
  for (const io::SensorSpec& s : m.sensors)
    for (const char* suffix : io::sensor_output_info(s.output).suffixes) cols.push_back(s.name + suffix);
  return cols;
}

}  // namespace mbdae::study
