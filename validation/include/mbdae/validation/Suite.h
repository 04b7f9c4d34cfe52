#pragma once
/// @file Suite.h
/// The validation suite behind `mbdae validate`: a registry of cases, each of which runs one
/// reference problem (validation/<case>/README.md) with one or more solver settings and returns
/// rows
///
///     case | solver | quantity | reference | result | error | tolerance | norm | pass | wall time
///
/// Each row compares one quantity (a published number, a closed form, an invariant, the
/// agreement of two runs, an observed order of convergence) with a stated norm and tolerance.
/// The tolerance is written in the case (validation/src/cases_*.cpp) with its reason: the
/// reference's precision and the method's accuracy at the chosen setting. A row passes iff
/// error ≤ tolerance (a NaN error fails). Rows marked `known_failure` document a reproducible
/// disagreement that is not resolved (see the case's README); they never count as passed and do
/// not make the suite fail. Rows with the norm "info" report a value without a comparison (e.g.
/// the number of rejected steps); they are counted separately.
///
/// Cases are "quick" (the default set, meant to run in CI in well under two minutes on two cores)
/// or "slow" (added by `--full`). Cases also record work–precision points (error vs step size or
/// tolerance, wall time) for the plots.

#include <functional>
#include <string>
#include <vector>

namespace mbdae::validation::suite {

/// One comparison.
struct Row {
  std::string case_name;
  std::string solver;     ///< e.g. "ida rtol=1e-10", "generalized_alpha h=1e-3", "closed form"
  std::string quantity;   ///< what is compared, with its unit, e.g. "B0 (x, y) at t = 10 s [m]"
  std::string reference;  ///< the reference value(s), as text
  std::string result;     ///< the computed value(s), as text
  double error = 0;       ///< in the stated norm
  double tolerance = 0;
  std::string norm;       ///< e.g. "max abs", "rel", "mixed-error digits (10^-scd)", "order ≥"
  bool pass = false;
  bool known_failure = false;
  double wall_time = 0;   ///< s, of the run(s) behind the row
};

/// A point of a work–precision diagram: error of one run against its step size or tolerance.
struct WorkPoint {
  std::string case_name;
  std::string solver;   ///< series name, e.g. "generalized_alpha"
  std::string setting;  ///< "h" or "rtol"
  double value = 0;     ///< step size (s) or relative tolerance
  double error = 0;
  double wall_time = 0; ///< s
};

/// What a case writes into.
class Context {
 public:
  explicit Context(std::string case_name) : case_name_(std::move(case_name)) {}
  /// Adds a row; pass = (error ≤ tolerance) for finite error.
  Row& add(const std::string& solver, const std::string& quantity, const std::string& reference,
           const std::string& result, double error, double tolerance, const std::string& norm,
           double wall_time);
  /// Adds a row that passes iff `value` ≥ `minimum` (e.g. an observed order, significant digits);
  /// error = value, tolerance = minimum.
  Row& add_at_least(const std::string& solver, const std::string& quantity,
                    const std::string& reference, double value, double minimum,
                    const std::string& norm, double wall_time);
  /// Adds a row for a run that failed: error NaN, the message as result.
  Row& add_failure(const std::string& solver, const std::string& quantity,
                   const std::string& message, double wall_time);
  void add_work(const std::string& solver, const std::string& setting, double value, double error,
                double wall_time);
  const std::vector<Row>& rows() const { return rows_; }
  const std::vector<WorkPoint>& work() const { return work_; }
  const std::string& name() const { return case_name_; }

 private:
  std::string case_name_;
  std::vector<Row> rows_;
  std::vector<WorkPoint> work_;
};

struct Case {
  std::string name;         ///< unique, snake_case
  std::string description;  ///< one line, with the source
  bool slow = false;        ///< only with --full
  std::function<void(Context&)> run;
};

/// All cases, in report order.
const std::vector<Case>& registry();

struct SuiteOptions {
  bool full = false;                ///< also the slow cases
  std::vector<std::string> names;   ///< only these cases (exact names); empty: all of the set
  int jobs = 2;                     ///< cases run concurrently
  /// Called when a case finishes (from the worker thread, serialized): name, rows, wall time.
  std::function<void(const std::string&, const std::vector<Row>&, double)> progress;
};

struct SuiteResult {
  std::vector<Row> rows;
  std::vector<WorkPoint> work;
  int cases = 0;
  int passed = 0, failed = 0, known_failures = 0;
  int info = 0;  ///< rows with norm "info": values reported without a comparison
  double wall_time = 0;  ///< s, whole suite
  bool ok() const { return failed == 0; }
};

/// Runs the selected cases. An exception thrown by a case becomes a failed row.
/// @throws std::invalid_argument for a name in opt.names that is not a case.
SuiteResult RunSuite(const SuiteOptions& opt);

/// The table as aligned text (for the terminal), Markdown (with a header naming the date, the
/// commit and the selection), and CSV (one line per row, RFC 4180 quoting).
std::string FormatText(const SuiteResult& r);
std::string FormatMarkdown(const SuiteResult& r, const std::string& date, const std::string& commit,
                           const std::string& selection);
std::string FormatCsv(const SuiteResult& r);
std::string FormatWorkCsv(const SuiteResult& r);

/// Number formatting used by the cases: %.*g.
std::string Num(double x, int digits = 10);
/// "(a, b, c)" with %.*g.
std::string Tuple(const std::vector<double>& x, int digits = 10);

// Case groups (validation/src/cases_*.cpp) append their cases to the list.
void AddClosedFormCases(std::vector<Case>& cases);
void AddBenchmarkCases(std::vector<Case>& cases);
void AddGenericDaeCases(std::vector<Case>& cases);
void AddAndrewsBodiesCases(std::vector<Case>& cases);
void AddGovernorCases(std::vector<Case>& cases);
void AddContactCases(std::vector<Case>& cases);
void AddConvergenceCases(std::vector<Case>& cases);

}  // namespace mbdae::validation::suite
