#include <mbdae/io/PoseRecorder.h>

#include <filesystem>

#include <mbdae/io/Scene.h>

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

PoseRecorder::PoseRecorder(const std::string& csv_path, const MultibodySystem& system,
                           const std::vector<SensorSpec>& sensors, const std::string& model_name)
    : implicit_(&system),
      scene_path_(scene_path_for(csv_path)),
      writer_(pose_path_for(csv_path), static_cast<std::uint32_t>(system.model().bodies().size())) {
  write_scene(scene_path_, describe_scene(system.model(), sensors, model_name));
  frame_.resize(size_t{kPoseValuesPerBody} * writer_.bodies());
}

PoseRecorder::PoseRecorder(const std::string& csv_path, const NewtonEulerSystem& system,
                           ExplicitSensorSet::Layout layout, const std::vector<SensorSpec>& sensors,
                           const std::string& model_name)
    : explicit_(&system),
      layout_(layout),
      scene_path_(scene_path_for(csv_path)),
      writer_(pose_path_for(csv_path), static_cast<std::uint32_t>(system.num_bodies())) {
  write_scene(scene_path_, describe_scene(system.model(), sensors, model_name));
  frame_.resize(size_t{kPoseValuesPerBody} * writer_.bodies());
}

PoseRecorder::~PoseRecorder() = default;

void PoseRecorder::record(const StateView& s) {
  const int n = static_cast<int>(writer_.bodies());
  auto put = [&](int i, const Vec3& p, const Vec4& Q) {
    float* f = frame_.data() + size_t{kPoseValuesPerBody} * static_cast<size_t>(i);
    for (int k = 0; k < 3; ++k) f[k] = static_cast<float>(p[k]);
    for (int k = 0; k < 4; ++k) f[3 + k] = static_cast<float>(Q[k]);
  };
  if (implicit_) {
    for (int i = 0; i < n; ++i) put(i, implicit_->position(i, s.q), implicit_->euler_parameters(i, s.q));
  } else {
    const VecX* q = &s.q;
    if (layout_ == ExplicitSensorSet::Layout::LieGroup) {
      lie_group_to_newton_euler(s.q, q_);
      q = &q_;
    }
    for (int i = 0; i < n; ++i)
      put(i, explicit_->reference_position(i, *q), explicit_->quaternion(i, *q).normalized());
  }
  writer_.write_frame(s.t, frame_);
}

}  // namespace mbdae::io
