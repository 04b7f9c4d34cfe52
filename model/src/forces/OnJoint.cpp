// The model checks every force element on a joint's coordinate shares (Forces.h).
#include "Forces.h"

#include <algorithm>

namespace mbdae::forces {

const Joint* element_joint(const ForceElement& f, const System& model, bool (*acts_on)(JointType),
                           const std::string& what, const char* accepted, std::vector<KeyProblem>& p) {
  if (f.joint.empty()) return nullptr;
  const auto& joints = model.joints();
  const auto j = std::find_if(joints.begin(), joints.end(), [&](const Joint& x) { return x.name == f.joint; });
  if (j == joints.end()) {
    p.push_back({nullptr, "unknown joint '" + f.joint + "'"});
    return nullptr;
  }
  if (!acts_on(j->type)) {
    p.push_back({nullptr, "joint '" + f.joint + "' is " + to_string(j->type) + "; " + what + " acts on a " + accepted});
    return nullptr;
  }
  return &*j;
}

void copied_from_joint(const ForceElement& f, const Joint& j, bool same_type, const std::string& adder,
                       std::vector<KeyProblem>& p) {
  if (f.bodies.size() != 2 || f.bodies[0] != j.bodies[0] || f.bodies[1] != j.bodies[1] || f.point != j.point ||
      f.axis != j.axis || (same_type && f.joint_type != j.type))
    p.push_back({nullptr, std::string("its bodies, point") + (same_type ? ", axis and joint type" : " and axis") +
                              " must be those of joint '" + f.joint + "' (" + adder + " copies them)"});
}

}  // namespace mbdae::forces
