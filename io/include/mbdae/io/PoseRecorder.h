#pragma once
/// @file PoseRecorder.h
/// Records a run for the viewer: at construction it writes the scene (Scene.h) and the header of
/// the pose file (PoseFile.h) beside the results CSV; record() appends one frame per output time,
/// from the state the solver hands to its observer, whatever the formulation:
///
/// | formulation            | state (per body)                    | pose written                         |
/// |------------------------|-------------------------------------|--------------------------------------|
/// | MultibodySystem        | p, rotation coordinates             | p, euler_parameters()                |
/// | NewtonEulerSystem      | x_C, Q                              | x_C − R b (reference point), Q/‖Q‖  |
/// | LieGroupBodies layout  | x_C, rotation vector                | as Newton–Euler after the conversion |
///
/// For `results.csv` the files are `results.poses` and `results.scene.json`.

#include <memory>
#include <string>
#include <vector>

#include <mbdae/formulations/Multibody.h>
#include <mbdae/formulations/NewtonEuler.h>
#include <mbdae/io/PoseFile.h>
#include <mbdae/io/Sensors.h>
#include <mbdae/solvers/SolverCommon.h>

namespace mbdae::io {

/// `results.csv` → `results.poses`; `results.csv` → `results.scene.json` (the extension replaced).
std::string pose_path_for(const std::string& csv_path);
std::string scene_path_for(const std::string& csv_path);

class PoseRecorder {
 public:
  /// For the implicit solvers. `model_name` goes into the scene. The system must outlive this.
  /// @throws std::runtime_error if a file cannot be written.
  PoseRecorder(const std::string& csv_path, const MultibodySystem& system, const std::vector<SensorSpec>& sensors,
               const std::string& model_name);
  /// For the explicit and impulse paths, with the layout of the states the solver hands over.
  PoseRecorder(const std::string& csv_path, const NewtonEulerSystem& system, ExplicitSensorSet::Layout layout,
               const std::vector<SensorSpec>& sensors, const std::string& model_name);
  ~PoseRecorder();
  PoseRecorder(const PoseRecorder&) = delete;
  PoseRecorder& operator=(const PoseRecorder&) = delete;

  /// Appends the poses of state s at time s.t. @throws std::runtime_error on a write error.
  void record(const StateView& s);
  /// Patches the frame count and closes the file. @throws std::runtime_error on a write error.
  void close() { writer_.close(); }

  const PoseWriter& writer() const { return writer_; }
  const std::string& scene_path() const { return scene_path_; }

 private:
  const MultibodySystem* implicit_ = nullptr;
  const NewtonEulerSystem* explicit_ = nullptr;
  ExplicitSensorSet::Layout layout_ = ExplicitSensorSet::Layout::NewtonEuler;
  std::string scene_path_;
  PoseWriter writer_;
  std::vector<float> frame_;
  VecX q_;  // Newton–Euler positions converted from the Lie-group layout
};

}  // namespace mbdae::io
