#pragma once
/// @file Sensitivity.h
/// A model file's run with the forward sensitivities of its sensor columns to parameters
/// (docs/sensitivities.md). A parameter is a numeric key of the model file, named by its `--set`
/// key path ("bodies[0].mass", "forces[1].stiffness", "states[0].initial"); the model is loaded
/// and prepared again with the parameter at p − δ and p + δ, and the run's solver carries
/// dx/dp through its steps (solvers/Sensitivity.h). The sensor columns' derivatives are central
/// differences of the sensor evaluation at one state (the models at p ± δ evaluated at x ± δ dx/dp),
/// never of whole runs.
///
///     io::SensitivityRun run("slider_crank.yaml", {}, {"bodies[1].mass"});
///     run.run([&](const StateView& s, std::span<const double> row, std::span<const double> d) { ...; return true; });

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <mbdae/io/ModelLoader.h>
#include <mbdae/io/Sensors.h>
#include <mbdae/solvers/SolverCommon.h>

namespace mbdae::io {

/// The number at `key` (a --set key path, e.g. "bodies[0].mass") of the model file `file`, or of
/// the last of `overrides` that sets that key: a parameter's nominal value.
/// @throws LoadError at the key if the file has no value there, or it is not a number (an
///         expression, a list, a mapping), or the file cannot be read.
double model_number(const std::string& file, const std::vector<Override>& overrides, const std::string& key);

/// One parameter of a sensitivity run.
struct SensitivityParameter {
  std::string key;   ///< its --set key path
  double value = 0;  ///< its nominal value (the file's, or the --set override's)
  double delta = 0;  ///< the step δ of its differences: 1e-5 max(|value|, 1e-3), in its unit
};

/// Called at the start and at every output time with the state, the sensor row (one value per
/// SensorSet column) and its derivatives: d[k · columns + j] = d row[j] / d parameter k.
/// Return false to stop the run (status StoppedByObserver).
using SensitivityObserver =
    std::function<bool(const StateView& state, std::span<const double> row, std::span<const double> d)>;

/// A model file's run with sensitivities (file comment). Not copyable; not thread-safe.
class SensitivityRun {
 public:
  /// Loads `file` with `overrides`, then once more for each parameter at p − δ and p + δ, and
  /// prepares the runs.
  /// @throws LoadError for a key that is no number of the file (at the key) or a model that does not
  ///         load; std::invalid_argument naming what sensitivities cannot take: a solver other
  ///         than generalized_alpha (index 3) or trapezoidal_index2, contacts, joint_limit and
  ///         end_stop elements (one-sided stops), joint_friction with a Coulomb part, no parameter
  ///         or the same one twice, a parameter that changes the formulation's size; and what
  ///         io::ModelRun throws.
  SensitivityRun(const std::string& file, const std::vector<Override>& overrides, const std::vector<std::string>& keys);
  ~SensitivityRun();
  SensitivityRun(const SensitivityRun&) = delete;
  SensitivityRun& operator=(const SensitivityRun&) = delete;

  /// The nominal model.
  const LoadedModel& model() const;
  /// The nominal run's sensors (columns, units).
  const SensorSet& sensors() const;
  /// The parameters, in the order of the keys.
  const std::vector<SensitivityParameter>& parameters() const;
  /// The solver line of a summary (io::ModelRun::method_summary()).
  std::string method_summary() const;

  /// Runs to the model's end time with output every model().settings.output_every (as
  /// io::ModelRun::run()). Failures are returned, not thrown; the rows up to then were handed out.
  SolveResult run(const SensitivityObserver& obs);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mbdae::io
