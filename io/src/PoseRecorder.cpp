#include <mbdae/io/PoseRecorder.h>

#include <filesystem>

#include <mbdae/io/Scene.h>
#include <mbdae/model/math/Rotation.h>

namespace mbdae::io {

namespace {
std::string with_extension(const std::string& csv_path, const char* extension) {
  std::filesystem::path p(csv_path);
  p.replace_extension(extension);
  return p.string();
}
}  // namespace

std::string pose_path_for(const std::string& csv_path) { return with_extension(csv_path, ".poses"); }
std::string scene_path_for(const std::string& csv_path) { return with_extension(csv_path, ".scene.json"); }

PoseRecorder::PoseRecorder(const std::string& csv_path, BodyKinematics& kin, const std::vector<SensorSpec>& sensors,
                           const std::string& model_name)
    : kin_(kin),
      scene_path_(scene_path_for(csv_path)),
      writer_(pose_path_for(csv_path), static_cast<std::uint32_t>(kin.model().bodies().size())) {
  write_scene(scene_path_, describe_scene(kin.model(), sensors, model_name));
  frame_.resize(size_t{kPoseValuesPerBody} * writer_.bodies());
}

void pose_frame(BodyKinematics& kin, const StateView& s, std::span<float> frame) {
  kin.update(s);
  const int n = static_cast<int>(kin.model().bodies().size());
  for (int i = 0; i < n; ++i) {
    const Vec3 p = kin.position(i);
    const Vec4 Q = math::matrix_to_ep(kin.rotation(i));
    float* f = frame.data() + size_t{kPoseValuesPerBody} * static_cast<size_t>(i);
    for (int k = 0; k < 3; ++k) f[k] = static_cast<float>(p[k]);
    for (int k = 0; k < 4; ++k) f[3 + k] = static_cast<float>(Q[k]);
  }
}

void PoseRecorder::record(const StateView& s) {
  pose_frame(kin_, s, frame_);
  writer_.write_frame(s.t, frame_);
}

}  // namespace mbdae::io
