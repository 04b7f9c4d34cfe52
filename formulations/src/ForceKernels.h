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
#include <span>
#include <vector>

#include <mbdae/formulations/State.h>
#include <mbdae/model/ForceTypes.h>
#include <mbdae/model/System.h>
#include <mbdae/model/math/Rotation.h>

namespace mbdae::detail {

/// The body-axes markers of a pairwise element (ForceTypes.h).
using mbdae::ForceGeometry;

/// Markers of force element f from the initial poses (R, p) of its bodies a and b (identity and
/// zero for ground).
ForceGeometry make_force_geometry(const ForceElement& f, const Mat3& Ra, const Vec3& pa,
                                  const Mat3& Rb, const Vec3& pb);

/// Wrenches (at the points of ks, world) on the two bodies of pairwise element f from a law
/// law(PairMotion, Fb, Tb) (the force on b at its marker point and the torque on b; a gets −Fb at
/// b's marker point, or at its own with ForceElement::reaction_at_a_marker, and −Tb).
/// last_angle: the element's turn count in the caller's workspace (PairMotion::last_angle).
template <class K, class Law>
void pair_wrenches(const ForceElement& f, const ForceGeometry& fd, double t, const std::vector<K>& ks,
                   std::vector<Wrench>& out, std::span<const double> states, double* last_angle, Law&& law) {
  out.assign(ks.size(), Wrench{});
  const K& ka = ks[0];
  const K& kb = ks[1];
  const Vec3 ra = ka.R * fd.xa, rb = kb.R * fd.xb;
  const Vec3 d = kb.p + rb - ka.p - ra;
  const Vec3 dd = kb.v + kb.w.cross(rb) - ka.v - ka.w.cross(ra);
  Vec3 Fb = Vec3::Zero(), Tb = Vec3::Zero();
  law(PairMotion{d, dd, ka.R, kb.R, ka.w, kb.w, t, states, last_angle}, Fb, Tb);
  out[1].force = Fb;
  out[1].torque = rb.cross(Fb) + Tb;
  out[0].force = -Fb;
  out[0].torque = -(f.reaction_at_a_marker ? ra : Vec3(ra + d)).cross(Fb) - Tb;
}

/// Wrenches (at the points of ks, world) of force element f on its bodies, from the bodies'
/// kinematics ks; adds the element's potential energy to *V if V is given. bm: workspace for
/// user forces (no allocation once it has the size). states: the values of f.states (in that
/// order), handed to the law in PairMotion::states. last_angle: as pair_wrenches().
template <class K>
void force_wrenches(const ForceElement& f, const ForceGeometry& fd, double t, const std::vector<K>& ks,
                    std::vector<Wrench>& out, double* V, std::vector<BodyMotion>& bm,
                    std::span<const double> states, double* last_angle) {
  out.assign(ks.size(), Wrench{});
  if (!force_type_info(f.type).pairwise) {  // a user function of the bodies' motions
    bm.resize(ks.size());
    for (size_t k = 0; k < ks.size(); ++k) bm[k] = {ks[k].p, ks[k].R, ks[k].v, ks[k].w};
    if (f.user_of_states) f.user_of_states(t, bm, states, out);
    else f.user(t, bm, out);
    return;
  }
  pair_wrenches(f, fd, t, ks, out, states, last_angle, [&](const PairMotion& m, Vec3& Fb, Vec3& Tb) {
    force_type_info(f.type).law(f, fd, m, Fb, Tb, V);
  });
}

/// Whether elements of type t store energy (their law adds a potential): the spring-dampers, the
/// end stops and the joint limits. Their law at zero relative velocity is their elastic part.
inline bool force_has_potential(ForceType t) {
  switch (t) {
    case ForceType::SpringDamper:
    case ForceType::TorsionalSpringDamper:
    case ForceType::RigidBodySpringDamper:
    case ForceType::CartesianSpringDamper:
    case ForceType::EndStop:
    case ForceType::JointLimit: return true;
    default: return false;
  }
}

/// The power of element f on its bodies at the kinematics ks (ForcePowers in State.h): `total`
/// Σ F·v + τ·ω of its wrenches (at the points of ks), `elastic` the same of its law evaluated
/// with every velocity zero (elements with a potential and no controller state, else 0) and `V`
/// its potential. w, rest, bm: workspaces. last_angle: as pair_wrenches().
template <class K>
void force_power(const ForceElement& f, const ForceGeometry& fd, double t, const std::vector<K>& ks,
                 std::vector<Wrench>& w, std::vector<K>& rest, std::vector<BodyMotion>& bm,
                 std::span<const double> states, double* last_angle, double& total, double& elastic,
                 double& V) {
  auto power = [&] {
    double P = 0;
    for (size_t k = 0; k < ks.size(); ++k) P += w[k].force.dot(ks[k].v) + w[k].torque.dot(ks[k].w);
    return P;
  };
  force_wrenches(f, fd, t, ks, w, nullptr, bm, states, last_angle);
  total = power();
  elastic = V = 0;
  if (!force_type_info(f.type).pairwise || !force_has_potential(f.type) || !states.empty()) return;
  rest = ks;
  for (K& k : rest) {
    k.v.setZero();
    k.w.setZero();
  }
  force_wrenches(f, fd, t, rest, w, &V, bm, states, last_angle);
  elastic = power();
}

/// The power (W) of load l on a body turned by R with angular velocity w (world) whose point o
/// moves with velocity vo; r: l.point relative to o, body axes.
inline double load_power(const Load& l, double t, const Mat3& R, const Vec3& vo, const Vec3& w, const Vec3& r) {
  Vec3 val = l.value_of_t ? l.value_of_t(t) : l.value;
  if (l.frame == Load::Frame::Body) val = R * val;
  if (l.kind == Load::Kind::Torque) return val.dot(w);
  return val.dot(vo + w.cross(R * r));
}

}  // namespace mbdae::detail
