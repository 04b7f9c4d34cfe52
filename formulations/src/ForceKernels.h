#pragma once
// Force element kernels shared by the formulations (internal header): markers fixed at set-up and
// the wrenches of every force element type (ForceType) from its bodies' poses and twists.
//
// The kinematics K of each body (any type with members p, R, v, w: position and velocity of the
// point the wrench is reduced to, R_WB, angular velocity, world axes) are those of the point the
// markers were measured from at set-up (make_force_geometry() with that point's initial pose).
// The wrenches are returned at the same points. User forces receive the K values as BodyMotion,
// i.e. the formulation must pass the bodies' reference points for them.

#include <cmath>
#include <vector>

#include <mbdae/model/System.h>
#include <mbdae/model/math/Rotation.h>

namespace mbdae::detail {

/// Markers of a two-body force element, fixed at model set-up (unused for user forces).
struct ForceGeometry {
  Vec3 xa = Vec3::Zero(), xb = Vec3::Zero();          ///< marker points, body axes
  Mat3 Aa = Mat3::Identity(), Ab = Mat3::Identity();  ///< marker frames, body axes
  double L0 = 0;  ///< spring-damper: free length; torsional: free angle
};

/// Markers of force element f from the initial poses (R, p) of its bodies a and b (identity and
/// zero for ground).
ForceGeometry make_force_geometry(const ForceElement& f, const Mat3& Ra, const Vec3& pa,
                                  const Mat3& Rb, const Vec3& pb);

/// Wrenches (at the points of ks, world) of force element f on its bodies, from the bodies'
/// kinematics ks; adds the element's potential energy to *V if V is given. bm: workspace for
/// user forces (no allocation once it has the size).
template <class K>
void force_wrenches(const ForceElement& f, const ForceGeometry& fd, double t, const std::vector<K>& ks,
                    std::vector<Wrench>& out, double* V, std::vector<BodyMotion>& bm) {
  out.assign(ks.size(), Wrench{});
  if (f.type == ForceType::User) {
    bm.resize(ks.size());
    for (size_t k = 0; k < ks.size(); ++k) bm[k] = {ks[k].p, ks[k].R, ks[k].v, ks[k].w};
    f.user(t, bm, out);
    return;
  }
  const K& ka = ks[0];
  const K& kb = ks[1];
  const Vec3 ra = ka.R * fd.xa, rb = kb.R * fd.xb;
  const Vec3 d = kb.p + rb - ka.p - ra;
  const Vec3 dd = kb.v + kb.w.cross(rb) - ka.v - ka.w.cross(ra);
  // Force Fb on b at its marker point, torque Tb on b; a gets −Fb at b's marker point, −Tb.
  Vec3 Fb = Vec3::Zero(), Tb = Vec3::Zero();
  switch (f.type) {
    case ForceType::SpringDamper: {
      const double L = d.norm();
      const Vec3 e = d / L;
      const double ext = L - fd.L0;
      const double T = f.stiffness * ext + f.damping * e.dot(dd);  // tension
      Fb = -T * e;
      if (V) *V += 0.5 * f.stiffness * ext * ext;
      // a's force acts at a's own point (the line of action): same moment as at b's point.
      break;
    }
    case ForceType::TorsionalSpringDamper: {
      const Mat3 FA = ka.R * fd.Aa;
      const Vec3 xbw = kb.R * fd.Ab.col(0);
      const double phi = std::atan2(xbw.dot(FA.col(1)), xbw.dot(FA.col(0))) - fd.L0;
      const double phid = (kb.w - ka.w).dot(FA.col(2));
      Tb = -(f.stiffness * phi + f.damping * phid) * FA.col(2);
      if (V) *V += 0.5 * f.stiffness * phi * phi;
      break;
    }
    case ForceType::RigidBodySpringDamper: {
      const Mat3 AJ = ka.R * fd.Aa;
      const Mat3 Rrel = AJ.transpose() * (kb.R * fd.Ab);
      Vec6 x, xd;
      x << AJ.transpose() * d, math::so3_log(Rrel);
      xd << AJ.transpose() * dd, AJ.transpose() * (kb.w - ka.w);
      const Vec6 FJ = f.stiffness6 * x + f.damping6 * xd;
      Fb = -(AJ * FJ.head<3>());
      Tb = -(AJ * FJ.tail<3>());
      if (V) *V += 0.5 * x.dot(f.stiffness6 * x);
      break;
    }
    case ForceType::CartesianSpringDamper: {
      const Vec3 u = d - f.offset3;
      Fb = -(f.stiffness3.cwiseProduct(u) + f.damping3.cwiseProduct(dd));
      if (V) *V += 0.5 * u.dot(f.stiffness3.cwiseProduct(u));
      break;
    }
    case ForceType::User: break;
  }
  out[1].force = Fb;
  out[1].torque = rb.cross(Fb) + Tb;
  out[0].force = -Fb;
  out[0].torque = -(ra + d).cross(Fb) - Tb;  // −Fb applied at b's marker point
}

}  // namespace mbdae::detail
