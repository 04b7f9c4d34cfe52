// Force element markers; the wrenches are in ForceKernels.h.

#include "ForceKernels.h"

#include "JointKernels.h"

namespace mbdae::detail {

ForceGeometry make_force_geometry(const ForceElement& f, const Mat3& Ra, const Vec3& pa,
                                  const Mat3& Rb, const Vec3& pb) {
  ForceGeometry fd;
  Mat3 F = Mat3::Identity();
  if (f.type == ForceType::TorsionalSpringDamper) F = detail::frame_from_axis(f.axis, 2);
  if (f.type == ForceType::RigidBodySpringDamper && f.frame) F = *f.frame;
  fd.xa = Ra.transpose() * (f.point - pa);
  fd.xb = Rb.transpose() * ((f.type == ForceType::SpringDamper ? f.point_b : f.point) - pb);
  fd.Aa = Ra.transpose() * F;
  fd.Ab = Rb.transpose() * F;
  if (f.type == ForceType::SpringDamper) fd.L0 = f.length ? *f.length : (f.point_b - f.point).norm();
  if (f.type == ForceType::TorsionalSpringDamper) fd.L0 = f.length ? *f.length : 0.0;
  return fd;
}

}  // namespace mbdae::detail
