#pragma once
// Joint constraint kernels shared by the formulations (internal header).
//
// A joint acts between a marker on body a (point x̄_a, frame A_a in body axes) and a marker on
// body b. Each equation is written in terms of the bodies' poses and twists in world axes, and
// its derivative is returned with respect to each body's virtual displacement δp of the reference
// point and virtual rotation δφ (world axes): the "twist Jacobian" W (rows × 6). A formulation
// maps W to its coordinates (for absolute coordinates: T = [I 0; 0 R G]).
//
// With r = R x̄, d = p_b + r_b − p_a − r_a and e = R A e_i, the equations are
//   TransWorld i:   d_i                  (world axis i)
//   TransFrame i:   e_ai · d             (axis i of marker a)
//   Rot (i, j):     e_ai · e_bj          (axis i of a, axis j of b)
//   Distance:       |d| − L0
//   (TransWorld, TransFrame and Rot subtract RowDef::offset.)
//   TransDriven:    x_a · d − s(t)                        (driven prismatic)
//   RotDriven:      w_a(s(t)) · x_b,  w_a(s) = −sin s x_a + cos s y_a   (driven revolute)
//   TransOffset i:  e_ai · d − o_i(t)                     (generic joint with offsets)
//   RotOffset (i,j): (R_a A_a Q(t) e_i) · e_bj             (the same; Q = Rx Ry Rz of the offsets)
//   RollNormal:     n · (c + r ĝ − p_plane)               (rolling disc, position level)
//   RollTangent i:  t_i · (v_b + ω_b × r_c)               (rolling disc, velocity level, i = 0, 1)
//   RateDriven:     e·(ω_b − ω_a) − w(t), e = z_a          (speed-driven revolute, velocity level)
//                   e·ḋ + (ω_a × e)·d − w(t), e = x_a      (speed-driven prismatic, velocity level)
//                   with w(t) = DriveState::s and ẇ(t) = DriveState::sd (drive_state() of `speed`)
// For the rolling disc: n = plane normal (axis z of a's marker), t_i its x/y axes, c the disc
// centre, w the disc axis (z of b's marker), ĝ = −u/|u| with u = n − (n·w) w the unit vector from
// the centre to the lowest point of the rim, r_c = (c + r ĝ) − p_b. Under a virtual rotation δφ of
// the disc, δĝ = δφ × ĝ + β w × ĝ and n·(w × ĝ) = 0, so the normal row's twist Jacobian is
// [nᵀ, (r_c × n)ᵀ] exactly (the rim point moves tangentially to the plane).
// Explicit time dependence: Ċ = W·twist + C_t with C_t in JointEval::ct.
// γ is the acceleration-level right-hand side: C̈ = W·(ṫwist) − γ, i.e. γ = −C̈ evaluated with the
// second derivatives of the coordinates set to zero (ah = the part of the angular acceleration
// that does not contain them: R Ġθ̇ for absolute coordinates, 0 for body angular velocities).

#include <array>
#include <vector>

#include <mbdae/formulations/CompiledModel.h>
#include <mbdae/model/JointTypes.h>
#include <mbdae/model/System.h>

namespace mbdae::detail {

/// Pose and twist of a body, world axes.
struct FrameKin {
  Vec3 p = Vec3::Zero();   ///< reference point
  Vec3 v = Vec3::Zero();   ///< its velocity
  Mat3 R = Mat3::Identity();
  Vec3 w = Vec3::Zero();   ///< angular velocity
  Vec3 ah = Vec3::Zero();  ///< angular acceleration without second derivatives of coordinates
};

/// The primitive equations (model/JointTypes.h) under the kernels' names.
using RowKind = EquationKind;
using RowDef = JointEquation;
using mbdae::frame_from_axis;
using mbdae::is_velocity_level;

/// Value and derivatives of a driven joint's motion at the current time (0 if not driven), and of
/// a generic joint's offsets: translations o, ȯ, ö (m) and the offset rotation Q(t) = Rx Ry Rz of
/// the rotation offsets with its time derivatives (identity and 0 without offsets).
struct DriveState {
  double s = 0, sd = 0, sdd = 0;
  Vec3 o = Vec3::Zero(), od = Vec3::Zero(), odd = Vec3::Zero();
  Mat3 Q = Mat3::Identity(), Qd = Mat3::Zero(), Qdd = Mat3::Zero();
};

/// s(t), ṡ, s̈ of a driven joint's motion (all zero for a null or empty motion), and the offsets
/// (JointTypes.h: TransOffset, RotOffset) if `offsets` is not null; for a speed-driven joint
/// (`speed` set, no motion) s = w(t) and ṡ = ẇ(t) of the prescribed rate.
DriveState drive_state(const TimeFunction* motion, const std::array<TimeFunction, 6>* offsets, double t,
                       const TimeFunction* speed = nullptr);
/// The same without offsets.
inline DriveState drive_state(const TimeFunction* motion, double t, const TimeFunction* speed = nullptr) {
  return drive_state(motion, nullptr, t, speed);
}

/// Markers and equations of one joint, fixed at model set-up (CompiledModel.h).
using mbdae::JointGeometry;

/// Builds a joint's markers (in body axes) and equations from its type's layout (JointTypes.h:
/// world points and frames at t0) and the initial poses (R, p) of bodies a and b (identity and
/// zero for ground).
JointGeometry make_joint_geometry(const Joint& j, const Mat3& Ra, const Vec3& pa, const Mat3& Rb,
                                  const Vec3& pb);

struct JointEval {
  int nr = 0;
  std::array<double, 6> c{}, gamma{};
  std::array<double, 6> ct{};  ///< explicit time derivative ∂C/∂t (velocity-level rows: b)
  Eigen::Matrix<double, 6, 6> Wa, Wb;  ///< rows × (δp, δφ) of a and b
};

/// All equations of the joint at the given poses/twists.
void eval_joint(const JointGeometry& jd, const FrameKin& ka, const FrameKin& kb, bool with_gamma,
                JointEval& out);
/// Same, for a driven joint at drive state `ds` (also fills ct). Velocity-level rows return
/// c = 0; their W and γ are those of A(q) v + b.
void eval_joint(const JointGeometry& jd, const FrameKin& ka, const FrameKin& kb, bool with_gamma,
                const DriveState& ds, JointEval& out);

}  // namespace mbdae::detail
