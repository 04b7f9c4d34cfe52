// The kinematics of a rigid body from its coordinates, one case per rotation parametrization
// (Multibody.h's table): Euler parameters, Tait–Bryan xyz angles, rotation vector. Sources:
// Exudyn ObjectRigidBody documentation (seed 001); Nikravesh (1988) for the G matrices.

#include <cmath>
#include <sstream>

#include <mbdae/model/math/Rotation.h>

#include "RigidBodies.h"

namespace mbdae::units {

void BodyTable::rot_kin(const BodyData& bd, const double* th, const double* thd, Kin& k) {
  switch (bd.param) {
    case RotationParametrization::EulerParameters: {
      // The rotation is that of the normalised parameters θ/|θ|, so that R stays orthonormal
      // while |θ| drifts (index-2 forms) and every derivative below is exact for any θ ≠ 0:
      // R = R_quad(θ)/|θ|², ω_B = G(θ) θ̇/|θ|², and with Ġθ̇ = 0 for the quadratic forms,
      // d/dt(G/|θ|²) θ̇ = −2 (θ·θ̇)/|θ|² ω_B. On the unit sphere these are the textbook forms.
      const Vec4 e(th[0], th[1], th[2], th[3]);
      const double s = 1.0 / e.squaredNorm();
      k.R = s * math::ep_to_matrix(e);
      k.G = s * math::ep_G_local(e);
      if (thd) {
        const Vec4 ed(thd[0], thd[1], thd[2], thd[3]);
        k.gdB = (-2.0 * s * e.dot(ed)) * (k.G * ed);
      } else {
        k.gdB.setZero();
      }
      break;
    }
    case RotationParametrization::TaitBryan: {
      const Vec3 a(th[0], th[1], th[2]);
      k.R = math::rxyz_to_matrix(a);
      k.G = math::rxyz_G_local(a);
      k.gdB = thd ? math::rxyz_G_local_dot_times(a, Vec3(thd[0], thd[1], thd[2])) : Vec3::Zero();
      break;
    }
    case RotationParametrization::RotationVector: {
      const Vec3 a(th[0], th[1], th[2]);
      k.R = math::so3_exp(a);
      k.G = math::rotvec_G_local(a);
      k.gdB = thd ? math::rotvec_G_local_dot_times(a, Vec3(thd[0], thd[1], thd[2])) : Vec3::Zero();
      break;
    }
  }
}

Kin BodyTable::kin(BodyIndex i, const double* q, const double* v) const {
  Kin k;
  if (i == kGround) {
    k.G.resize(3, 0);
    k.RG.resize(3, 0);
    return k;
  }
  const BodyData& bd = list[static_cast<size_t>(i)];
  k.p = Vec3(q[0], q[1], q[2]);
  rot_kin(bd, q + 3, v ? v + 3 : nullptr, k);
  k.RG = k.R * k.G;
  if (v) {
    k.v = Vec3(v[0], v[1], v[2]);
    Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 4, 1>> thd(v + 3, bd.nr);
    k.wB = k.G * thd;
    k.w = k.R * k.wB;
    k.ah = k.R * k.gdB;
  }
  return k;
}

int BodyTable::append_coords(BodyIndex i, std::vector<int>& coords) const {
  if (i == kGround) return 0;
  const BodyData& bd = list[static_cast<size_t>(i)];
  for (int k = 0; k < bd.n; ++k) coords.push_back(bd.off + k);
  return bd.n;
}

}  // namespace mbdae::units

namespace mbdae {

void UnitKinematics::update(const units::BodyTable& bodies, const double* q, const double* v) {
  if (ks.size() < bodies.list.size()) ks.resize(bodies.list.size());
  for (size_t i = 0; i < bodies.list.size(); ++i) {
    const int off = bodies.list[i].off;
    ks[i] = bodies.kin(static_cast<BodyIndex>(i), q + off, v ? v + off : nullptr);
  }
}

const units::Kin& UnitKinematics::ground() {
  static const units::Kin g = units::BodyTable{}.kin(kGround, nullptr, nullptr);
  return g;
}

}  // namespace mbdae

namespace mbdae::units {

// The guard of the rotation coordinates (limits in Multibody.h): `rxyz` at |cos β| < kRxyzSingularLimit;
// with a fixed step also at 1/|cos β| > kRxyzMaxAmplification or h |ω| (1/|cos β|³ − 1)^(1/3) >
// kSingularStepAngle -- the angles' rates are up to |ω|/|cos β| and their local errors grow with
// its cube; only what the parametrization adds to the Euler parameters' local error (h |ω|)³
// counts, so a large turn a step far from the singularity (which the Euler parameters would take
// as well) is not refused. `rotation_vector` likewise with
// sinc(|θ|/2) in place of |cos β|. The text names the body, the angle (β in degrees and radians;
// |θ|) and the limit it passed.
std::string RigidBodies::coordinate_problem(ConstVecRef q, ConstVecRef v, double h) const {
  using S = MultibodySystem;
  for (const BodyData& bd : cx_.bodies.list) {
    if (bd.param != RotationParametrization::TaitBryan && bd.param != RotationParametrization::RotationVector)
      continue;
    const Vec3 a(q[bd.off + 3], q[bd.off + 4], q[bd.off + 5]), ad(v[bd.off + 3], v[bd.off + 4], v[bd.off + 5]);
    if (bd.param == RotationParametrization::TaitBryan) {
      const double c = std::abs(std::cos(a[1]));
      const double w = (math::rxyz_G_local(a) * ad).norm();  // |ω|, rad/s
      // What the parametrization adds to a step's local error: the angles move up to h |ω| / |cos β|
      // a step and their local error grows with its cube, (h |ω|)³ / |cos β|³ against the Euler
      // parameters' (h |ω|)³; the excess, as an angle a step, is h |ω| (1/|cos β|³ − 1)^(1/3)
      // (nothing at β = 0, where a large turn a step is a matter of the step, not of the angles).
      const double excess = h * w * std::cbrt(1 / std::max(c * c * c, 1e-300) - 1);
      const bool hard = c < S::kRxyzSingularLimit;
      const bool amplified = h > 0 && c * S::kRxyzMaxAmplification < 1;
      const bool step_excess = h > 0 && excess > S::kSingularStepAngle;
      if (hard || amplified || step_excess) {
        const double beta_deg = a[1] * 180 / 3.14159265358979323846;
        std::ostringstream s;
        s << "body '" << bd.name << "': its rxyz angles are near their singularity at beta = +-90 deg: beta (the "
          << "second angle) = " << beta_deg << " deg (" << a[1] << " rad), |cos beta| = " << c
          << "; ";
        if (hard)
          s << "below " << S::kRxyzSingularLimit << " no solver follows the rotation accurately";
        else if (amplified)
          s << "a fixed-step run needs |cos beta| >= " << 1 / S::kRxyzMaxAmplification
            << " (the angles' rates are amplified 1/|cos beta| = " << 1 / c << " times)";
        else
          s << "with |omega| = " << w << " rad/s and h = " << h
            << " s the angles' local error exceeds the Euler parameters' as a step of h |omega| (1/|cos beta|^3 - 1)^(1/3) = "
            << excess << " rad would; a fixed-step run needs at most " << S::kSingularStepAngle;
        s << "; use rotation: euler_parameters";
        return s.str();
      }
    } else {
      const double n = a.norm();
      const double sinc = n < 1e-8 ? 1.0 : std::abs(std::sin(0.5 * n) / (0.5 * n));
      const double w = (math::rotvec_G_local(a) * ad).norm();
      const double excess = h * w * std::cbrt(1 / std::max(sinc * sinc * sinc, 1e-300) - 1);  // as for rxyz
      const bool hard = n > S::kRotationVectorLimit;
      const bool amplified = h > 0 && sinc * S::kMaxAmplification < 1;
      const bool step_excess = h > 0 && excess > S::kSingularStepAngle;
      if (hard || amplified || step_excess) {
        std::ostringstream s;
        s << "body '" << bd.name << "': its rotation vector is near its singularity at |theta| = 2 pi: |theta| = " << n
          << " rad (" << n * 180 / 3.14159265358979323846 << " deg), sinc(|theta|/2) = " << sinc << "; ";
        if (hard)
          s << "above " << S::kRotationVectorLimit << " rad no solver follows the rotation accurately";
        else if (amplified)
          s << "a fixed-step run needs sinc(|theta|/2) >= " << 1 / S::kMaxAmplification
            << " (its rates are amplified 1/sinc = " << 1 / sinc << " times)";
        else
          s << "with |omega| = " << w << " rad/s and h = " << h
            << " s its local error exceeds the Euler parameters' as a step of h |omega| (1/sinc^3 - 1)^(1/3) = " << excess
            << " rad would; a fixed-step run needs at most " << S::kSingularStepAngle;
        s << "; use rotation: euler_parameters";
        return s.str();
      }
    }
  }
  return {};
}

}  // namespace mbdae::units
