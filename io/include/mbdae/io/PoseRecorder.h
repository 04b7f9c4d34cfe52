#pragma once
/// @file PoseRecorder.h
/// Records a run for the viewer: at construction it writes the scene (Scene.h) and the header of
/// the pose file (PoseFile.h) beside the results CSV; record() appends one frame per output time,
/// each body's reference point and rotation read through the run's BodyKinematics, so the same
/// recorder serves every formulation (implicit, Newton–Euler, Lie-group).
///
/// For `results.csv` the files are `results.poses` and `results.scene.json`.

#include <span>
#include <string>
#include <vector>

#include <mbdae/formulations/BodyKinematics.h>
#include <mbdae/io/ModelLoader.h>
#include <mbdae/io/PoseFile.h>

namespace mbdae::io {

/// `results.csv` → `results.poses`; `results.csv` → `results.scene.json` (the extension replaced).
std::string pose_path_for(const std::string& csv_path);
std::string scene_path_for(const std::string& csv_path);

/// One pose frame of state s: updates `kin` with s and writes each body's reference point and
/// rotation (Euler parameters) as 7 numbers [x, y, z, qw, qx, qy, qz] into `frame` (size 7 × the
/// number of bodies).
void pose_frame(BodyKinematics& kin, const StateView& s, std::span<float> frame);

class PoseRecorder {
 public:
  /// Writes the scene of kin.model() (with `sensors` and `model_name`) and the pose file's header.
  /// Keeps a reference to `kin`, the run's body kinematics, which must outlive this.
  /// @throws std::runtime_error naming the file if a file cannot be written.
  PoseRecorder(const std::string& csv_path, BodyKinematics& kin, const std::vector<SensorSpec>& sensors,
               const std::string& model_name);

  /// Appends the poses of state s (a state of the kinematics' formulation) at time s.t; updates
  /// the kinematics with s. @throws std::runtime_error on a write error.
  void record(const StateView& s);
  /// Patches the frame count and closes the file. @throws std::runtime_error on a write error.
  void close() { writer_.close(); }

  const PoseWriter& writer() const { return writer_; }
  const std::string& scene_path() const { return scene_path_; }

 private:
  BodyKinematics& kin_;
  std::string scene_path_;
  PoseWriter writer_;
  std::vector<float> frame_;
};

}  // namespace mbdae::io
