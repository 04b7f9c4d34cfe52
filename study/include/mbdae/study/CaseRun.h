#pragma once
/// @file CaseRun.h
/// One case of a study: the model loaded with the case's overrides, run through io::ModelRun
/// (the same run as `mbdae run MODEL --set ...`), its outputs computed from the sensor rows or by
/// the analyses (io/Analyses.h), its status; and the byte form in which cases and results travel between processes and ranks.
///
/// Statistics of a sensor column x over the output rows (t_0, x_0), …, (t_n, x_n) of a run (up
/// to the time it reached):
///
/// | statistic       | value                                                             |
/// |-----------------|-------------------------------------------------------------------|
/// | final           | x_n                                                               |
/// | max, min        | max_k x_k, min_k x_k                                              |
/// | time_of_max/min | the first t_k where x_k is the max (min)                           |
/// | mean            | Σ_k (x_k + x_{k+1}) / 2 · (t_{k+1} − t_k) / (t_n − t_0)  (x_0 if n = 0) |
/// | rms             | √(Σ_k (x_k² + x_{k+1}²) / 2 · (t_{k+1} − t_k) / (t_n − t_0))     |
/// | value_at T      | x_k + (x_{k+1} − x_k) · ((T − t_k) / (t_{k+1} − t_k)), t_k ≤ T ≤ t_{k+1}, the first such k; NaN outside [t_0, t_n] |
///
/// A NaN in the column makes every statistic of it NaN.
///
/// Outputs of the analyses come from the case's model without the run: `eigenfrequency` the
/// frequency_hz of the k-th mode of io::solve_modes (the k-th row of `mbdae modes`, about the
/// initial state or with at_equilibrium about the static equilibrium), `equilibrium` the sensor
/// column at io::solve_statics's equilibrium (v = 0, a = 0, its multipliers: the row of `mbdae
/// statics`). A case whose outputs are all of analyses is not run in time (t_reached NaN); one
/// whose analysis fails is `failed` with the reason, that output NaN.

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <mbdae/study/Study.h>

namespace mbdae::study {

/// How a case ended.
enum class CaseStatus {
  Ok,       ///< the run reached the end time
  Failed,   ///< the solver stopped before the end time (message: the time and the cause)
  Timeout,  ///< the case's time limit was reached (stopped between steps, or killed)
  Invalid,  ///< the model refused the case's values, or its initial state is inconsistent
  Crashed,  ///< the process running the case died (message: the signal)
};
/// The table word ("ok", "failed", "timeout", "invalid", "crashed").
const char* to_string(CaseStatus s);
/// The status of a table word; false if there is none.
bool parse_status(std::string_view word, CaseStatus& s);

/// The result of one case.
struct CaseResult {
  long id = 0;
  CaseStatus status = CaseStatus::Ok;
  std::string message;    ///< empty when Ok
  /// s, the time the run reached (its last accepted step; the end time when Ok), NaN if it never
  /// started
  double t_reached = 0;
  std::vector<double> outputs;  ///< one per Study::outputs (NaN where there is no value)
  double wall_time = 0;   ///< s, the whole case in its worker
  // Where the wall time went (s): loading and checking the model with the overrides, building
  // the run (formulation, initial state, integrator), the run itself, outputs and series.
  double load_time = 0, setup_time = 0, solve_time = 0;
};

/// The statistics of the outputs, fed one row at a time.
class OutputStatistics {
 public:
  /// @param outputs the study's outputs (those of analyses get NaN here)
  /// @param columns the run's sensor columns (SensorSet::columns())
  /// @throws std::invalid_argument naming an output column the run does not have.
  OutputStatistics(const std::vector<Output>& outputs, const std::vector<std::string>& columns);
  /// One output row: the time and the sensor values (one per column).
  void add(double t, std::span<const double> row);
  /// One value per output (NaN where there is none, e.g. no rows).
  std::vector<double> values() const;
  /// Time of the last row (NaN if none).
  double last_time() const { return t_.empty() ? std::nan("") : t_.back(); }

 private:
  const std::vector<Output>& outputs_;
  static constexpr size_t kNone = static_cast<size_t>(-1);  // slot of an output of an analysis
  std::vector<size_t> used_;              // the sensor columns kept
  std::vector<size_t> slot_;              // output -> index into used_
  std::vector<double> t_;
  std::vector<std::vector<double>> x_;    // per kept column, per row
};

/// Runs one case in the calling thread (with a watchdog thread for the study's time limit, which
/// covers loading, setting up and running, and raises the run's interrupt flag). Never throws for a problem of the case: bad values,
/// inconsistent initial states, solver failures and the time limit become its status.
/// @param series a CSV path for the case's sensor rows (as `mbdae run` writes them), or empty
CaseResult run_case(const Study& study, const Case& c, const std::string& series = {});

/// Byte forms for pipes and MPI messages (same machine architecture on both ends).
std::string encode(const Case& c);
/// @throws std::runtime_error on a malformed message.
Case decode_case(std::string_view bytes);
std::string encode(const CaseResult& r);
/// @throws std::runtime_error on a malformed message.
CaseResult decode_result(std::string_view bytes);

}  // namespace mbdae::study
