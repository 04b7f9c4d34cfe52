// Generic joint: the `constrained` subset of [x, y, z, rx, ry, rz] in the joint frame `frame`
// (0 to 6 equations); `offsets` (Joint::offsets) make constrained coordinates follow functions of
// t instead of 0: the translation rows become TransOffset, the rotation rows RotOffset (a's frame
// turned by Q(t) = Rx Ry Rz of the rotation offsets).
#include "Joints.h"

namespace mbdae::joints {

namespace {
const char* const kCoordinate[6] = {"x", "y", "z", "rx", "ry", "rz"};
}  // namespace

const JointTypeInfo& generic() {
  static const JointTypeInfo info{
      JointType::Generic, "generic", "any subset of [x, y, z, rx, ry, rz] in a joint frame (0-6 equations)",
      "the joint point, world, t0",
      {{"frame", false, "the joint frame, world, t0 (default: world axes)", KeyKind::Orientation, KeyRange::Any, {},
        [](Joint& j, const KeyValue& v) { j.frame = v.rotation; }},
       {"constrained", true, "[x, y, z, rx, ry, rz], 1 = constrained", KeyKind::Flags6, KeyRange::Any, {},
        [](Joint& j, const KeyValue& v) { j.constrained = v.flags; }}},
      false, false, JointCoordinateKind::None,
      [](const Joint& j, std::vector<KeyProblem>& p) {
        if (j.frame) {
          const Mat3& F = *j.frame;
          if ((F.transpose() * F - Mat3::Identity()).norm() > 1e-6 || F.determinant() < 0)
            p.push_back({"frame", "frame is not a rotation matrix"});
        }
        for (size_t k = 0; k < 6; ++k)
          if (j.offsets[k] && !j.constrained[k])
            p.push_back({"offsets", std::string("offset of ") + kCoordinate[k] +
                                        " given, but that coordinate is free (constrained[" + std::to_string(k) +
                                        "] = 0); an offset needs a constrained coordinate"});
      },
      [](const Joint& j) {
        using K = EquationKind;
        JointLayout g = coincident(j, j.frame ? *j.frame : Mat3::Identity());
        const bool off = j.has_offsets();
        static const char* tn[3] = {"x_a·d", "y_a·d", "z_a·d"};
        static const char* tno[3] = {"x_a·d − o_x(t)", "y_a·d − o_y(t)", "z_a·d − o_z(t)"};
        static const char* rn[3] = {"y_a·z_b", "z_a·x_b", "x_a·y_b"};
        static const char* rno[3] = {"(Q y_a)·z_b", "(Q z_a)·x_b", "(Q x_a)·y_b"};
        for (int k = 0; k < 3; ++k)
          if (j.constrained[static_cast<size_t>(k)])
            g.equations.push_back({off ? K::TransOffset : K::TransFrame, k, 0, off ? tno[k] : tn[k]});
        const int ri[3][2] = {{1, 2}, {2, 0}, {0, 1}};
        for (int k = 0; k < 3; ++k)
          if (j.constrained[static_cast<size_t>(3 + k)])
            g.equations.push_back({off ? K::RotOffset : K::Rot, ri[k][0], ri[k][1], off ? rno[k] : rn[k]});
        return g;
      },
      true};
  return info;
}

}  // namespace mbdae::joints
