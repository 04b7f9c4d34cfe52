// Force element markers; the wrenches are in ForceKernels.h.

#include "ForceKernels.h"

#include "JointKernels.h"

namespace mbdae::detail {

ForceGeometry make_force_geometry(const ForceElement& f, const Mat3& Ra, const Vec3& pa,
                                  const Mat3& Rb, const Vec3& pb) {
  const ForceMarkers m = force_type_info(f.type).markers(f);
  ForceGeometry fd;
  fd.xa = Ra.transpose() * (m.point_a - pa);
  fd.xb = Rb.transpose() * (m.point_b - pb);
  fd.Aa = Ra.transpose() * m.frame;
  fd.Ab = Rb.transpose() * m.frame;
  fd.L0 = m.reference;
  return fd;
}

}  // namespace mbdae::detail
