/// @file Suite.cpp
/// The registry, the parallel runner and the table formats of the validation suite (Suite.h).

#include <mbdae/validation/Suite.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace mbdae::validation::suite {

std::string Num(double x, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, x);
  return buf;
}

std::string Tuple(const std::vector<double>& x, int digits) {
  std::string s = "(";
  for (size_t i = 0; i < x.size(); ++i) s += (i ? ", " : "") + Num(x[i], digits);
  return s + ")";
}

Row& Context::add(const std::string& solver, const std::string& quantity,
                  const std::string& reference, const std::string& result, double error,
                  double tolerance, const std::string& norm, double wall_time) {
  Row r;
  r.case_name = case_name_;
  r.solver = solver;
  r.quantity = quantity;
  r.reference = reference;
  r.result = result;
  r.error = error;
  r.tolerance = tolerance;
  r.norm = norm;
  r.pass = std::isfinite(error) && error <= tolerance;
  r.wall_time = wall_time;
  rows_.push_back(r);
  return rows_.back();
}

Row& Context::add_at_least(const std::string& solver, const std::string& quantity,
                           const std::string& reference, double value, double minimum,
                           const std::string& norm, double wall_time) {
  Row& r = add(solver, quantity, reference, Num(value, 4), value, minimum, norm, wall_time);
  r.pass = std::isfinite(value) && value >= minimum;
  return r;
}

Row& Context::add_failure(const std::string& solver, const std::string& quantity,
                          const std::string& message, double wall_time) {
  return add(solver, quantity, "-", message, std::nan(""), 0.0, "run failed", wall_time);
}

void Context::add_work(const std::string& solver, const std::string& setting, double value,
                       double error, double wall_time) {
  work_.push_back({case_name_, solver, setting, value, error, wall_time});
}

const std::vector<Case>& registry() {
  static const std::vector<Case> cases = [] {
    std::vector<Case> c;
    AddGenericDaeCases(c);
    AddAndrewsBodiesCases(c);
    AddBenchmarkCases(c);
    AddGovernorCases(c);
    AddClosedFormCases(c);
    AddContactCases(c);
    AddConvergenceCases(c);
    std::set<std::string> seen;
    for (const Case& k : c)
      if (!seen.insert(k.name).second) throw std::logic_error("duplicate validation case " + k.name);
    return c;
  }();
  return cases;
}

SuiteResult RunSuite(const SuiteOptions& opt) {
  const auto& all = registry();
  std::vector<const Case*> selected;
  for (const std::string& n : opt.names) {
    auto it = std::find_if(all.begin(), all.end(), [&](const Case& c) { return c.name == n; });
    if (it == all.end()) throw std::invalid_argument("unknown validation case '" + n + "'");
  }
  for (const Case& c : all) {
    if (!opt.names.empty()) {
      if (std::find(opt.names.begin(), opt.names.end(), c.name) != opt.names.end())
        selected.push_back(&c);
    } else if (opt.full || !c.slow) {
      selected.push_back(&c);
    }
  }
  // Slow cases first so that they overlap with the quick ones.
  std::vector<size_t> order(selected.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return selected[a]->slow && !selected[b]->slow; });

  std::vector<Context> results;
  results.reserve(selected.size());
  for (const Case* c : selected) results.emplace_back(c->name);
  std::atomic<size_t> next{0};
  std::mutex mutex;
  const auto t0 = std::chrono::steady_clock::now();
  auto worker = [&] {
    for (;;) {
      const size_t k = next++;
      if (k >= order.size()) return;
      const size_t i = order[k];
      const auto c0 = std::chrono::steady_clock::now();
      try {
        selected[i]->run(results[i]);
      } catch (const std::exception& e) {
        results[i].add_failure("-", "case threw", e.what(), 0.0);
      }
      const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - c0).count();
      if (opt.progress) {
        std::lock_guard<std::mutex> lock(mutex);
        opt.progress(selected[i]->name, results[i].rows(), wall);
      }
    }
  };
  const int jobs = std::max(1, std::min<int>(opt.jobs, static_cast<int>(order.size())));
  std::vector<std::thread> threads;
  for (int j = 1; j < jobs; ++j) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();

  SuiteResult r;
  r.cases = static_cast<int>(selected.size());
  for (const Context& c : results) {
    for (const Row& row : c.rows()) {
      r.rows.push_back(row);
      if (row.known_failure) ++r.known_failures;
      else if (row.norm == "info") ++r.info;
      else if (row.pass) ++r.passed;
      else ++r.failed;
    }
    r.work.insert(r.work.end(), c.work().begin(), c.work().end());
  }
  r.wall_time = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

namespace {

std::string Status(const Row& r) {
  if (r.known_failure) return r.pass ? "known failure (passes now)" : "KNOWN FAILURE";
  if (r.norm == "info") return "info";
  return r.pass ? "pass" : "FAIL";
}

std::string Summary(const SuiteResult& r) {
  std::ostringstream s;
  s << r.cases << " cases, " << r.rows.size() << " rows: " << r.passed << " passed, " << r.failed
    << " failed";
  if (r.known_failures) s << ", " << r.known_failures << " known failures (not counted as passed)";
  if (r.info) s << ", " << r.info << " information rows";
  char buf[64];
  std::snprintf(buf, sizeof buf, "; wall time %.1f s", r.wall_time);
  s << buf;
  return s.str();
}

std::vector<std::string> Cells(const Row& r) {
  char wall[32];
  std::snprintf(wall, sizeof wall, "%.3f", r.wall_time);
  return {r.case_name, r.solver, r.quantity, r.reference, r.result, Num(r.error, 3),
          Num(r.tolerance, 3), r.norm, Status(r), wall};
}

const std::vector<std::string> kHeader = {"case",  "solver",    "quantity", "reference", "result",
                                          "error", "tolerance", "norm",     "pass/fail", "wall [s]"};

std::string Escape(const std::string& s, char bad, const std::string& with) {
  std::string o;
  for (char ch : s) o += ch == bad ? with : std::string(1, ch);
  return o;
}

size_t DisplayWidth(const std::string& s) {
  size_t n = 0;
  for (unsigned char ch : s) n += (ch & 0xC0) != 0x80;  // count UTF-8 code points
  return n;
}

}  // namespace

std::string FormatText(const SuiteResult& r) {
  std::vector<std::vector<std::string>> lines{kHeader};
  for (const Row& row : r.rows) lines.push_back(Cells(row));
  std::vector<size_t> w(kHeader.size(), 0);
  for (const auto& l : lines)
    for (size_t i = 0; i < l.size(); ++i) w[i] = std::max(w[i], std::min<size_t>(DisplayWidth(l[i]), 48));
  std::string out;
  for (size_t k = 0; k < lines.size(); ++k) {
    for (size_t i = 0; i < lines[k].size(); ++i) {
      const std::string& c = lines[k][i];
      out += c;
      if (i + 1 < lines[k].size()) out += std::string(w[i] + 2 - std::min(w[i], DisplayWidth(c)), ' ');
    }
    out += "\n";
  }
  out += Summary(r) + "\n";
  return out;
}

std::string FormatMarkdown(const SuiteResult& r, const std::string& date, const std::string& commit,
                           const std::string& selection) {
  std::ostringstream s;
  s << "# Validation report\n\n"
    << "Generated by `mbdae validate" << selection << "` on " << date << " from commit `" << commit
    << "`.\n"
    << "Rerun it with the same command; every case, its reference and the reason for each "
       "tolerance are described in `validation/README.md` and the READMEs of the case folders.\n\n"
    << "**" << Summary(r) << ".**\n\n"
    << "A row passes iff error ≤ tolerance in the stated norm (for rows whose norm says \"≥\", "
       "iff the value is at least the tolerance). Known failures are reproducible disagreements "
       "documented in the case README; they are not counted as passed. Rows marked \"info\" "
       "report a value without a comparison.\n\n";
  s << "|";
  for (const auto& h : kHeader) s << " " << h << " |";
  s << "\n|";
  for (size_t i = 0; i < kHeader.size(); ++i) s << "---|";
  s << "\n";
  for (const Row& row : r.rows) {
    s << "|";
    for (const auto& c : Cells(row)) s << " " << Escape(c, '|', "\\|") << " |";
    s << "\n";
  }
  return s.str();
}

namespace {
std::string CsvField(const std::string& f) {
  if (f.find_first_of(",\"\n") == std::string::npos) return f;
  return "\"" + Escape(f, '"', "\"\"") + "\"";
}
}  // namespace

std::string FormatCsv(const SuiteResult& r) {
  std::string out = "case,solver,quantity,reference,result,error,tolerance,norm,pass,known_failure,wall_time\n";
  for (const Row& row : r.rows) {
    char num[3][40];
    std::snprintf(num[0], sizeof num[0], "%.6e", row.error);
    std::snprintf(num[1], sizeof num[1], "%.6e", row.tolerance);
    std::snprintf(num[2], sizeof num[2], "%.4f", row.wall_time);
    out += CsvField(row.case_name) + "," + CsvField(row.solver) + "," + CsvField(row.quantity) + "," +
           CsvField(row.reference) + "," + CsvField(row.result) + "," + num[0] + "," + num[1] + "," +
           CsvField(row.norm) + "," + (row.pass ? "1" : "0") + "," + (row.known_failure ? "1" : "0") +
           "," + num[2] + "\n";
  }
  return out;
}

std::string FormatWorkCsv(const SuiteResult& r) {
  std::string out = "case,solver,setting,value,error,wall_time\n";
  for (const WorkPoint& w : r.work) {
    char buf[128];
    std::snprintf(buf, sizeof buf, ",%.6e,%.6e,%.5f\n", w.value, w.error, w.wall_time);
    out += CsvField(w.case_name) + "," + CsvField(w.solver) + "," + CsvField(w.setting) + buf;
  }
  return out;
}

}  // namespace mbdae::validation::suite
