#include <mbdae/study/CaseRun.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>

#include <mbdae/io/Analyses.h>
#include <mbdae/io/CsvWriter.h>
#include <mbdae/io/Run.h>

namespace mbdae::study {

const char* to_string(CaseStatus s) {
  switch (s) {
    case CaseStatus::Ok: return "ok";
    case CaseStatus::Failed: return "failed";
    case CaseStatus::Timeout: return "timeout";
    case CaseStatus::Invalid: return "invalid";
    case CaseStatus::Crashed: return "crashed";
  }
  return "?";
}

bool parse_status(std::string_view word, CaseStatus& s) {
  for (CaseStatus c : {CaseStatus::Ok, CaseStatus::Failed, CaseStatus::Timeout, CaseStatus::Invalid, CaseStatus::Crashed})
    if (word == to_string(c)) {
      s = c;
      return true;
    }
  return false;
}

// ---- statistics ---------------------------------------------------------------------------------

OutputStatistics::OutputStatistics(const std::vector<Output>& outputs, const std::vector<std::string>& columns)
    : outputs_(outputs) {
  for (const Output& o : outputs) {
    if (o.kind != OutputKind::Statistic) {
      slot_.push_back(kNone);
      continue;
    }
    size_t c = 0;
    while (c < columns.size() && columns[c] != o.column) ++c;
    if (c == columns.size()) throw std::invalid_argument("the model has no sensor column '" + o.column + "'");
    size_t u = 0;
    while (u < used_.size() && used_[u] != c) ++u;
    if (u == used_.size()) used_.push_back(c);
    slot_.push_back(u);
  }
  x_.resize(used_.size());
}

void OutputStatistics::add(double t, std::span<const double> row) {
  t_.push_back(t);
  for (size_t u = 0; u < used_.size(); ++u) x_[u].push_back(row[used_[u]]);
}

namespace {

double statistic(Statistic s, double at, const std::vector<double>& t, const std::vector<double>& x) {
  const double nan = std::nan("");
  const size_t n = x.size();
  if (n == 0) return nan;
  for (double v : x)
    if (std::isnan(v)) return nan;
  switch (s) {
    case Statistic::Final: return x.back();
    case Statistic::Max:
    case Statistic::TimeOfMax:
    case Statistic::Min:
    case Statistic::TimeOfMin: {
      const bool max = s == Statistic::Max || s == Statistic::TimeOfMax;
      size_t best = 0;
      for (size_t k = 1; k < n; ++k)
        if (max ? x[k] > x[best] : x[k] < x[best]) best = k;
      return s == Statistic::Max || s == Statistic::Min ? x[best] : t[best];
    }
    case Statistic::Mean:
    case Statistic::Rms: {
      if (n == 1) return s == Statistic::Mean ? x[0] : std::abs(x[0]);
      double sum = 0;
      for (size_t k = 0; k + 1 < n; ++k)
        sum += s == Statistic::Mean ? 0.5 * (x[k] + x[k + 1]) * (t[k + 1] - t[k])
                                    : 0.5 * (x[k] * x[k] + x[k + 1] * x[k + 1]) * (t[k + 1] - t[k]);
      const double avg = sum / (t[n - 1] - t[0]);
      return s == Statistic::Mean ? avg : std::sqrt(avg);
    }
    case Statistic::ValueAt: {
      if (n == 1) return at == t[0] ? x[0] : nan;
      for (size_t k = 0; k + 1 < n; ++k)
        if (t[k] <= at && at <= t[k + 1]) return x[k] + (x[k + 1] - x[k]) * ((at - t[k]) / (t[k + 1] - t[k]));
      return nan;
    }
  }
  return nan;
}

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

/// Raises `flag` once `seconds` have passed, unless destroyed before (seconds ≤ 0: never).
class Watchdog {
 public:
  Watchdog(double seconds, std::atomic<bool>& flag) {
    if (seconds <= 0) return;
    thread_ = std::thread([this, seconds, &flag] {
      std::unique_lock lock(mutex_);
      if (!cv_.wait_for(lock, std::chrono::duration<double>(seconds), [this] { return done_; })) flag = true;
    });
  }
  ~Watchdog() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    cv_.notify_one();
    if (thread_.joinable()) thread_.join();
  }
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

std::string joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const std::string& l : lines) s += (s.empty() ? "" : "; ") + l;
  return s;
}

/// The outputs of the analyses (eigenfrequency, equilibrium) of `model` into `values` (the
/// others untouched); each analysis runs once per setting, as `mbdae modes` and `mbdae statics`.
/// Returns why an output has no value (empty if every one has).
std::string analysis_outputs(const io::LoadedModel& model, const std::vector<Output>& outputs, std::vector<double>& values) {
  if (std::none_of(outputs.begin(), outputs.end(), [](const Output& o) { return o.kind != OutputKind::Statistic; }))
    return {};
  std::vector<std::string> problems;
  try {
    io::ModelAnalysis a(model);
    std::map<std::pair<bool, int>, io::ModesReport> modes;
    std::map<int, io::StaticsReport> statics;
    std::unique_ptr<io::SensorSet> sensors;
    for (size_t i = 0; i < outputs.size(); ++i) {
      const Output& o = outputs[i];
      if (o.kind == OutputKind::Eigenfrequency) {
        const std::pair<bool, int> key{o.at_equilibrium, o.at_equilibrium ? o.load_steps : 1};
        auto it = modes.find(key);
        if (it == modes.end()) {
          io::ModesSettings ms;
          ms.at_equilibrium = o.at_equilibrium;
          ms.statics.load_steps = key.second;
          it = modes.emplace(key, io::solve_modes(a, ms)).first;
        }
        const io::ModesReport& rep = it->second;
        if (!rep.ok) problems.push_back("output '" + o.name + "': " + rep.message);
        else if (static_cast<size_t>(o.mode) > rep.modes.size())
          problems.push_back("output '" + o.name + "': the model has " + std::to_string(rep.modes.size()) + " mode" +
                             (rep.modes.size() == 1 ? "" : "s") + ", not " + std::to_string(o.mode));
        else values[i] = rep.modes[static_cast<size_t>(o.mode - 1)].frequency_hz;
      } else if (o.kind == OutputKind::Equilibrium) {
        auto it = statics.find(o.load_steps);
        if (it == statics.end()) {
          io::StaticsSettings st;
          st.load_steps = o.load_steps;
          it = statics.emplace(o.load_steps, io::solve_statics(a, st)).first;
        }
        const io::StaticsReport& rep = it->second;
        if (!rep.converged) {
          problems.push_back("output '" + o.name + "': " + rep.message);
          continue;
        }
        // The sensors at the equilibrium as `mbdae statics` writes them: v = 0, a = 0, its λ.
        if (!sensors) sensors = a.make_sensors({true, true});
        const std::vector<std::string>& cols = sensors->columns();
        const auto c = std::find(cols.begin(), cols.end(), o.column);
        if (c == cols.end()) {
          problems.push_back("output '" + o.name + "': the model has no sensor column '" + o.column + "'");
          continue;
        }
        std::vector<double> row(cols.size());
        const VecX zero = VecX::Zero(rep.q.size());
        sensors->evaluate(StateView{0.0, rep.q, zero, zero, rep.lambda}, row);
        values[i] = row[static_cast<size_t>(c - cols.begin())];
      }
    }
  } catch (const ModelError& e) {
    problems.push_back(joined(e.problems()));
  } catch (const std::exception& e) {
    problems.push_back(e.what());
  }
  return joined(problems);
}

}  // namespace

std::vector<double> OutputStatistics::values() const {
  std::vector<double> v;
  for (size_t i = 0; i < outputs_.size(); ++i)
    v.push_back(slot_[i] == kNone ? std::nan("") : statistic(outputs_[i].statistic, outputs_[i].time, t_, x_[slot_[i]]));
  return v;
}

// ---- one case -----------------------------------------------------------------------------------

CaseResult run_case(const Study& study, const Case& c, const std::string& series) {
  const auto start = Clock::now();
  CaseResult r;
  r.id = c.id;
  r.t_reached = std::nan("");
  r.outputs.assign(study.outputs.size(), std::nan(""));
  // The time limit covers the whole case; the run reads the flag between its steps.
  std::atomic<bool> time_up{false};
  Watchdog watchdog(study.time_limit, time_up);
  auto finish = [&](CaseStatus s, std::string message) {
    r.status = s;
    r.message = std::move(message);
    r.wall_time = seconds_since(start);
    return r;
  };

  io::LoadedModel model;
  try {
    model = io::load_model_text(study.model_text, study.model_file, study.overrides(c));
  } catch (const io::LoadError& e) {
    std::vector<std::string> lines;
    for (const io::Diagnostic& d : e.diagnostics()) lines.push_back(d.to_string());
    return finish(CaseStatus::Invalid, joined(lines));
  }
  r.load_time = seconds_since(start);

  // The analyses' outputs first (they do not depend on the run); the run only where a statistic
  // or the series needs it.
  std::vector<double> analysed(study.outputs.size(), std::nan(""));
  const std::string analysis_failure = analysis_outputs(model, study.outputs, analysed);
  auto merged = [&](std::vector<double> v) {
    for (size_t i = 0; i < v.size(); ++i)
      if (study.outputs[i].kind != OutputKind::Statistic) v[i] = analysed[i];
    return v;
  };
  const bool needs_run = !series.empty() || std::any_of(study.outputs.begin(), study.outputs.end(), [](const Output& o) {
                           return o.kind == OutputKind::Statistic;
                         });
  if (!needs_run) {
    r.outputs = analysed;
    return finish(analysis_failure.empty() ? CaseStatus::Ok : CaseStatus::Failed, analysis_failure);
  }

  const auto setup_start = Clock::now();
  std::unique_ptr<io::ModelRun> run;
  std::unique_ptr<OutputStatistics> stats;
  std::unique_ptr<io::CsvWriter> csv;
  try {
    run = std::make_unique<io::ModelRun>(model);
    stats = std::make_unique<OutputStatistics>(study.outputs, run->sensors().columns());
    if (!series.empty()) {
      std::vector<std::string> header{"time"};
      header.insert(header.end(), run->sensors().columns().begin(), run->sensors().columns().end());
      csv = std::make_unique<io::CsvWriter>(series, header);
    }
  } catch (const ModelError& e) {
    r.outputs = merged(r.outputs);
    return finish(CaseStatus::Invalid, joined(e.problems()));
  } catch (const std::exception& e) {
    r.outputs = merged(r.outputs);
    return finish(CaseStatus::Invalid, e.what());
  }
  r.setup_time = seconds_since(setup_start);

  const auto solve_start = Clock::now();
  std::vector<double> row;
  SolveResult res;
  try {
    res = run->run(
        [&](const StateView& s, std::span<const double> values) {
          stats->add(s.t, values);
          if (csv) {
            row.assign(1, s.t);
            row.insert(row.end(), values.begin(), values.end());
            csv->write_row(row);
          }
          return true;
        },
        &time_up);
  } catch (const std::exception& e) {
    r.solve_time = seconds_since(solve_start);
    r.t_reached = stats->last_time();
    r.outputs = merged(stats->values());
    return finish(CaseStatus::Failed, e.what() + (analysis_failure.empty() ? "" : "; " + analysis_failure));
  }
  r.solve_time = seconds_since(solve_start);
  r.t_reached = res.t_reached;
  r.outputs = merged(stats->values());
  if (res.ok()) return finish(analysis_failure.empty() ? CaseStatus::Ok : CaseStatus::Failed, analysis_failure);
  if (res.status == SolveStatus::Interrupted && time_up) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "time limit of %g s reached at t = %.10g s", study.time_limit, res.t_reached);
    return finish(CaseStatus::Timeout, buf);
  }
  return finish(CaseStatus::Failed, std::string(mbdae::to_string(res.status)) + ": " + res.message +
                                        (analysis_failure.empty() ? "" : "; " + analysis_failure));
}

// ---- byte forms ---------------------------------------------------------------------------------

namespace {

class Writer {
 public:
  template <class T>
  void put(const T& x) {
    out.append(reinterpret_cast<const char*>(&x), sizeof x);
  }
  void put(const std::string& s) {
    put(static_cast<std::uint64_t>(s.size()));
    out += s;
  }
  std::string out;
};

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  template <class T>
  T get() {
    T x;
    need(sizeof x);
    std::memcpy(&x, in_.data(), sizeof x);
    in_.remove_prefix(sizeof x);
    return x;
  }
  std::string get_string() {
    const auto n = get<std::uint64_t>();
    need(n);
    std::string s(in_.substr(0, n));
    in_.remove_prefix(n);
    return s;
  }
  /// A count of items that follow (each at least a byte: a larger count is malformed).
  std::uint64_t count() {
    const auto n = get<std::uint64_t>();
    need(n);
    return n;
  }
  void done() const {
    if (!in_.empty()) throw std::runtime_error("malformed study message: trailing bytes");
  }

 private:
  void need(std::uint64_t n) const {
    if (n > in_.size()) throw std::runtime_error("malformed study message: truncated");
  }
  std::string_view in_;
};

}  // namespace

std::string encode(const Case& c) {
  Writer w;
  w.put(static_cast<std::int64_t>(c.id));
  w.put(static_cast<std::uint64_t>(c.values.size()));
  for (const Value& v : c.values) {
    w.put(v.text);
    w.put(v.number);
  }
  return std::move(w.out);
}

Case decode_case(std::string_view bytes) {
  Reader r(bytes);
  Case c;
  c.id = static_cast<long>(r.get<std::int64_t>());
  const auto n = r.count();
  for (std::uint64_t i = 0; i < n; ++i) {
    Value v;
    v.text = r.get_string();
    v.number = r.get<double>();
    c.values.push_back(std::move(v));
  }
  r.done();
  return c;
}

std::string encode(const CaseResult& x) {
  Writer w;
  w.put(static_cast<std::int64_t>(x.id));
  w.put(static_cast<std::int32_t>(x.status));
  w.put(x.message);
  for (double v : {x.t_reached, x.wall_time, x.load_time, x.setup_time, x.solve_time}) w.put(v);
  w.put(static_cast<std::uint64_t>(x.outputs.size()));
  for (double v : x.outputs) w.put(v);
  return std::move(w.out);
}

CaseResult decode_result(std::string_view bytes) {
  Reader r(bytes);
  CaseResult x;
  x.id = static_cast<long>(r.get<std::int64_t>());
  const auto status = r.get<std::int32_t>();
  if (status < 0 || status > static_cast<std::int32_t>(CaseStatus::Crashed))
    throw std::runtime_error("malformed study message: bad status");
  x.status = static_cast<CaseStatus>(status);
  x.message = r.get_string();
  for (double* v : {&x.t_reached, &x.wall_time, &x.load_time, &x.setup_time, &x.solve_time}) *v = r.get<double>();
  const auto n = r.count();
  for (std::uint64_t i = 0; i < n; ++i) x.outputs.push_back(r.get<double>());
  r.done();
  return x;
}

}  // namespace mbdae::study
