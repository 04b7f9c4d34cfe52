#pragma once
/// @file Study.h
/// A parameter study: one model file run many times with some of its keys changed (any key
/// `mbdae run --set` accepts), and the numbers each run gives. The study file (YAML; every key in
/// docs/sweeps.md) names the model, the parameters and how their values are chosen (the design),
/// the outputs (statistics of sensor columns), fixed solver overrides and a per-case time limit.
///
///     io::Override-s of a case = solver: … (study) + set: … (study) + one per parameter
///
/// The list of cases is a pure function of the study file (and its seed): case k has the same
/// parameter values on every machine and in every run, so a table can be resumed and a case can
/// be reproduced alone with `mbdae run MODEL --set …`.

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <mbdae/io/Diagnostics.h>
#include <mbdae/io/ModelLoader.h>

namespace mbdae::study {

/// Largest number of cases a study may have (rank 0 keeps a row of the table per case in memory:
/// some 100 to 300 bytes each).
inline constexpr long kMaxCases = 10'000'000;

/// One value of a parameter: the text handed to the model as an override value, and the number
/// it is (NaN where it is not a plain number, e.g. a solver name or an expression).
struct Value {
  std::string text;  ///< YAML text of the override value ("0.5", "ida", "[0, 0, 1]")
  double number = std::numeric_limits<double>::quiet_NaN();
  bool is_number() const { return number == number; }
};
/// A Value for a number: its text is the shortest decimal form that reads back exactly.
Value number_value(double x);

/// How a parameter's values are given.
enum class ValueKind {
  Levels,      ///< `values: [...]` or `range: {from, to, count, scale}`: discrete levels
  Uniform,     ///< `uniform: [lo, hi]`: a random draw, uniform in [lo, hi]
  LogUniform,  ///< `log_uniform: [lo, hi]`: log x uniform, 0 < lo < hi
  Normal,      ///< `normal: {mean, std, min, max}`: normal, truncated to [min, max] if given
};

/// A parameter of the study.
struct Parameter {
  std::string name;    ///< the table column (default: the first key)
  /// The model keys, as for --set ("bodies[1].mass"); each gets the value (several keys: one
  /// value shared, e.g. the two springs of a symmetric mechanism).
  std::vector<std::string> keys;
  /// "t < 0.5 ? {} : 0": the override value is this text with {} replaced by the value (as a
  /// YAML string); empty: the value itself.
  std::string format;
  ValueKind kind = ValueKind::Levels;
  std::vector<Value> levels;  ///< Levels
  double a = 0, b = 0;        ///< Uniform, LogUniform: [lo, hi]; Normal: mean, std
  double min = -std::numeric_limits<double>::infinity();  ///< Normal: truncation
  double max = std::numeric_limits<double>::infinity();
  std::optional<Value> nominal;  ///< one_at_a_time: the value while others vary
  io::Diagnostic where;          ///< the parameter's place in the study file (message empty)

  /// The override value of `v` (format applied).
  std::string override_text(const Value& v) const;
};

/// How cases are made from the parameters.
enum class Design {
  FullFactorial,   ///< every combination of levels (the first parameter varies slowest)
  OneAtATime,      ///< the nominal case, then each parameter through its levels, others nominal
  List,            ///< case k takes the k-th level of every parameter (equal counts)
  Random,          ///< `samples` independent draws (Monte Carlo)
  LatinHypercube,  ///< `samples` cases, each parameter's range cut into `samples` equal-probability strata
};
/// The study-file word ("full_factorial", ...).
const char* to_string(Design d);

/// What is computed from a sensor column of one run.
enum class Statistic { Final, Max, Min, Mean, Rms, TimeOfMax, TimeOfMin, ValueAt };
/// The study-file word ("time_of_max", ...).
const char* to_string(Statistic s);

/// What an output is computed from.
enum class OutputKind {
  Statistic,       ///< a statistic of a sensor column over the output rows of a run
  Eigenfrequency,  ///< a mode's undamped natural frequency, Hz (io::solve_modes, as `mbdae modes`)
  Equilibrium,     ///< a sensor column at the static equilibrium (io::solve_statics, as `mbdae statics`)
};

/// An output of the study: a statistic of one sensor column over the output times of a run, or a
/// result of an analysis of the case's model.
struct Output {
  std::string name;    ///< the table column
  OutputKind kind = OutputKind::Statistic;
  std::string column;  ///< Statistic, Equilibrium: the sensor column of the model ("slider.x", "energy")
  Statistic statistic = Statistic::Final;
  double time = 0;     ///< ValueAt: s
  int mode = 0;        ///< Eigenfrequency: k ≥ 1, the k-th row of `mbdae modes` (ascending frequency)
  bool at_equilibrium = false;  ///< Eigenfrequency: about the static equilibrium (--at-equilibrium)
  int load_steps = 1;  ///< Equilibrium, Eigenfrequency at_equilibrium: `mbdae statics -n`
  io::Diagnostic where;
};

/// One case: its number and one value per parameter (in the order of Study::parameters).
struct Case {
  long id = 0;
  std::vector<Value> values;
};

/// A study file, read and checked, with the model's text (read once).
struct Study {
  std::string file;         ///< the study file as given
  std::string name, description;
  std::string model_file;   ///< the model's path (relative to the study file's folder if given so)
  std::string model_text;   ///< its contents
  std::vector<io::Override> fixed;  ///< `solver:` and `set:` overrides, applied before the parameters
  std::vector<Parameter> parameters;
  Design design = Design::FullFactorial;
  long samples = 0;         ///< Random, LatinHypercube
  std::uint64_t seed = 1;   ///< Random, LatinHypercube
  std::vector<Output> outputs;
  double time_limit = 0;    ///< s of wall time per case; 0: none
  std::string table;        ///< `output.table`; empty: <study file stem>.csv in the current folder
  bool series = false;      ///< `output.series`: also each case's sensor rows

  /// Number of cases.
  long case_count() const;
  /// The cases in order (case k has id k), the first `limit` of them. Deterministic: the same on
  /// every machine.
  std::vector<Case> cases(long limit = kMaxCases) const;
  /// The overrides of a case, in the order they are applied.
  std::vector<io::Override> overrides(const Case& c) const;
  /// The table path: `table`, else <study file stem>.csv.
  std::string default_table() const;
};

/// Reads and checks a study file and the model it names. The model is loaded once with the
/// study's fixed overrides and the values of case 0, so that a parameter key the model does not
/// have, or an output naming no sensor column, is an error at its line in the study file.
/// @throws io::LoadError with every problem (study file, or the model's own diagnostics).
Study load_study_file(const std::string& path);

/// The sensor columns of a model ("slider.x", ...), in the order of its results CSV (no time).
std::vector<std::string> sensor_columns(const io::LoadedModel& m);

}  // namespace mbdae::study
