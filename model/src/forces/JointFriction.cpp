// Joint friction: Coulomb friction with a Stribeck curve and viscous friction on the coordinates of
// a revolute, prismatic or cylindrical joint (its bodies, point and axis are the joint's).
//
// The joint's rubbing surfaces slip with the speed v = |(r φ̇, ṡ)| at the pin surface (φ̇ for the
// turning joints, ṡ for the sliding ones, r the pin radius). The friction force there has the
// level of the exponential (Gaussian) Stribeck curve of Armstrong-Hélouvry, Dupont and Canudas de
// Wit, "A survey of models, analysis tools and compensation methods for the control of machines
// with friction", Automatica 30(7), 1994, Eq. (2) with exponent δ = 2:
//   F(v) = μ N + (μ_s − μ) N exp(−(v / v_s)²)        (F = μ N without static_friction),
// N the given normal force, and is regularized for the smooth solvers by tanh(v / v_ε) (the form
// of Adams' and Chrono's smooth friction: a steep slope F(0)/v_ε through 0 instead of the
// set-valued sign, so a stuck joint creeps at a speed of order v_ε under a load below F(0)):
//   slip force  f = −F(v) tanh(v / v_ε) (r φ̇, ṡ) / v,
// giving the torque r f_φ − c_φ φ̇ about the axis and the force f_s − c_s ṡ along it (viscous c_φ,
// c_s). φ̇ = (ω_b − ω_a)·e, ṡ = e·ḋ + (ω_a × e)·d with e the axis turning with a, as the
// joint_motor measures them, so the power is −(f·slip + c_φ φ̇² + c_s ṡ²) ≤ 0.
// The impulse stepper takes the Coulomb part as a bounded impulse of its Gauss–Seidel
// (ForceElement::by_impulses): the law then gives only the viscous part.
//
// Normal force from the joint's reaction (`normal: reaction`, ForceElement::normal_from_reaction),
// as Adams' joint friction takes it: N = N0 + |F_⊥| (+ (r_a / r) |F_∥| for a revolute joint with
// the friction arm r_a = `axial_radius` of its axial reaction, e.g. a thrust collar), F the force the
// joint's equations exert on b, ⊥ and ∥ to the axis, N0 = `normal_force` a preload; the level is
// then c(v) N with c(v) = μ + (μ_s − μ) exp(−(v / v_s)²). The reaction moment is not a normal force
// here (Adams' bending-moment and reaction-arm inputs are not modelled). The impulse stepper bounds
// the friction impulse by h c(v₀) N0 + c(v₀) |P| with P the joint's impulse of the same Gauss–Seidel
// iteration (as a contact's friction is bounded by its normal impulse). The implicit formulation
// (Multibody.cpp, with MultibodyOptions::reaction_friction) adds N_r joint_friction_wrench(f, 1,
// false) with N_r = joint_friction_reaction_normal() of the multipliers of the Newton iterate, and
// its derivative with respect to them to the iteration matrix. The Newton–Euler formulation (rk4,
// dopri5) refuses it by name (NewtonEuler.cpp): its multipliers follow from the forces.
#include "Forces.h"

#include <cmath>

#include <mbdae/model/JointTypes.h>

namespace mbdae {

double joint_friction_coefficient(const ForceElement& f, double v) {
  double c = f.friction;
  if (f.static_friction && f.stribeck_velocity > 0) {
    const double x = v / f.stribeck_velocity;
    c += (*f.static_friction - f.friction) * std::exp(-x * x);
  }
  return c;
}

double joint_friction_level(const ForceElement& f, double v) { return joint_friction_coefficient(f, v) * f.normal_force; }

void joint_friction_wrench(const ForceElement& f, double normal, bool viscous, const ForceGeometry& g,
                           const PairMotion& m, Vec3& Fb, Vec3& Tb) {
  const JointCoordinates q = forces::joint_coordinates(g, m, false);
  const Vec3 e = m.Ra * g.Aa.col(2);
  const bool turns = joint_turns(f.joint_type), slides = joint_slides(f.joint_type);
  const double vr = turns ? f.radius * q.rate : 0.0, vs = slides ? q.speed : 0.0;
  double torque = turns && viscous ? -f.viscous_rotation * q.rate : 0.0;
  double force = slides && viscous ? -f.viscous_slide * q.speed : 0.0;
  if (!f.by_impulses) {
    // F(v) tanh(v/v_ε)/v, which tends to F(0)/v_ε as v → 0 (tanh x / x = 1 − x²/3 + …).
    const double v = std::hypot(vr, vs), x = v / f.regularization_velocity;
    const double k = joint_friction_coefficient(f, v) * normal / f.regularization_velocity *
                     (x < 1e-4 ? 1.0 - x * x / 3.0 : std::tanh(x) / x);
    torque -= f.radius * k * vr;
    force -= k * vs;
  }
  Tb = torque * e;
  Fb = force * e;
}

double joint_friction_reaction_normal(const ForceElement& f, const Vec3& F, const Vec3& e, Vec3* dN) {
  const double Fa = e.dot(F);
  const Vec3 Fp = F - Fa * e;
  const double np = Fp.norm();
  const double ka = f.joint_type == JointType::Revolute && f.radius > 0 ? f.axial_radius / f.radius : 0.0;
  if (dN) {
    // ∂|F_⊥|/∂F = F_⊥ᵀ / |F_⊥| (the projector I − e eᵀ is symmetric), ∂|F_∥|/∂F = sgn(F_∥) eᵀ.
    *dN = np > 0 ? Vec3(Fp / np) : Vec3::Zero();
    if (ka != 0 && Fa != 0) *dN += ka * (Fa > 0 ? 1.0 : -1.0) * e;
  }
  return np + ka * std::abs(Fa);
}

bool joint_turns(JointType t) { return t == JointType::Revolute || t == JointType::Cylindrical; }
bool joint_slides(JointType t) { return t == JointType::Prismatic || t == JointType::Cylindrical; }

namespace forces {

const ForceTypeInfo& joint_friction() {
  static const ForceTypeInfo info{
      ForceType::JointFriction, "joint_friction",
      "Coulomb (regularized), Stribeck and viscous friction of a revolute, prismatic or cylindrical joint",
      {{"friction", false, "Coulomb (sliding) coefficient mu (default 0)", KeyKind::Number, KeyRange::NonNegative, {},
        [](ForceElement& f, const KeyValue& v) { f.friction = v.number; }},
       {"normal_force", false,
        "the normal force N pressing the rubbing surfaces, N (default 0); with normal: reaction a preload added to the reaction",
        KeyKind::Number, KeyRange::NonNegative, {},
        [](ForceElement& f, const KeyValue& v) { f.normal_force = v.number; }},
       {"normal", false,
        "given (default: N = normal_force) or reaction (N = the joint's reaction perpendicular to the axis + "
        "normal_force; impulse stepper and implicit solvers)",
        KeyKind::Choice, KeyRange::Any, {"given", "reaction"},
        [](ForceElement& f, const KeyValue& v) { f.normal_from_reaction = v.choice == 1; }},
       {"axial_radius", false,
        "friction arm r_a of the axial reaction of a revolute joint with normal: reaction, m (default 0)",
        KeyKind::Number, KeyRange::NonNegative, {},
        [](ForceElement& f, const KeyValue& v) { f.axial_radius = v.number; }},
       {"radius", false, "pin radius r, m (revolute and cylindrical: required with Coulomb friction)", KeyKind::Number,
        KeyRange::NonNegative, {}, [](ForceElement& f, const KeyValue& v) { f.radius = v.number; }},
       {"static_friction", false, "static coefficient mu_s of the Stribeck curve (needs stribeck_velocity)",
        KeyKind::Number, KeyRange::NonNegative, {},
        [](ForceElement& f, const KeyValue& v) { f.static_friction = v.number; }},
       {"stribeck_velocity", false, "v_s of the Stribeck curve, m/s at the pin surface (needs static_friction)",
        KeyKind::Number, KeyRange::Positive, {},
        [](ForceElement& f, const KeyValue& v) { f.stribeck_velocity = v.number; }},
       {"viscous_rotation", false, "viscous coefficient about the axis, N m s/rad (revolute, cylindrical; default 0)",
        KeyKind::Number, KeyRange::NonNegative, {},
        [](ForceElement& f, const KeyValue& v) { f.viscous_rotation = v.number; }},
       {"viscous_slide", false, "viscous coefficient along the axis, N s/m (prismatic, cylindrical; default 0)",
        KeyKind::Number, KeyRange::NonNegative, {},
        [](ForceElement& f, const KeyValue& v) { f.viscous_slide = v.number; }},
       {"regularization_velocity", false,
        "v_eps of the smooth solvers' tanh(v/v_eps) Coulomb law, m/s at the pin surface (default 0.001)",
        KeyKind::Number, KeyRange::Positive, {},
        [](ForceElement& f, const KeyValue& v) { f.regularization_velocity = v.number; }}},
      true, true,
      [](const ForceElement& f, std::vector<KeyProblem>& p) {
        if (f.joint.empty()) p.push_back({nullptr, "no joint"});
        const bool turns = joint_turns(f.joint_type), slides = joint_slides(f.joint_type);
        const char* jt = to_string(f.joint_type);
        const bool coulomb = f.friction > 0 || (f.static_friction && *f.static_friction > 0);
        if (coulomb && !(f.normal_force > 0) && !f.normal_from_reaction)
          p.push_back({"normal_force", "Coulomb friction needs normal_force > 0 (or normal: reaction)"});
        if (!coulomb && f.normal_from_reaction)
          p.push_back({"normal", "normal: reaction is given but no friction coefficient"});
        if (f.axial_radius != 0 && !(f.normal_from_reaction && f.joint_type == JointType::Revolute))
          p.push_back({"axial_radius", std::string("axial_radius applies to a revolute joint with normal: reaction, not to a ") +
                                           jt + " joint" + (f.normal_from_reaction ? "" : " with a given normal force")});
        if (!coulomb && f.normal_force > 0) p.push_back({"friction", "normal_force is given but no friction coefficient"});
        if (turns && coulomb && !(f.radius > 0))
          p.push_back({"radius", "the Coulomb friction of a turning joint needs the pin radius > 0"});
        if (!turns && f.radius != 0) p.push_back({"radius", std::string("radius does not apply to a ") + jt + " joint"});
        if (!turns && f.viscous_rotation != 0)
          p.push_back({"viscous_rotation", std::string("viscous_rotation does not apply to a ") + jt + " joint"});
        if (!slides && f.viscous_slide != 0)
          p.push_back({"viscous_slide", std::string("viscous_slide does not apply to a ") + jt + " joint"});
        if (f.static_friction && !(f.stribeck_velocity > 0))
          p.push_back({"stribeck_velocity", "static_friction needs stribeck_velocity > 0"});
        if (!f.static_friction && f.stribeck_velocity > 0)
          p.push_back({"static_friction", "stribeck_velocity needs static_friction"});
        if (!(f.regularization_velocity > 0))
          p.push_back({"regularization_velocity", "regularization_velocity must be > 0"});
        if (!coulomb && f.viscous_rotation == 0 && f.viscous_slide == 0)
          p.push_back({nullptr, "no friction: give friction and normal_force, or a viscous coefficient"});
        if (!std::isfinite(f.friction) || !std::isfinite(f.normal_force) || !std::isfinite(f.radius) ||
            !std::isfinite(f.viscous_rotation) || !std::isfinite(f.viscous_slide) ||
            !std::isfinite(f.stribeck_velocity) || !std::isfinite(f.regularization_velocity) ||
            !std::isfinite(f.axial_radius) ||
            (f.static_friction && !std::isfinite(*f.static_friction)))
          p.push_back({nullptr, "a coefficient is NaN or infinite"});
      },
      [](const ForceElement& f) { return at_point(f, frame_from_axis(f.axis, 2)); },
      [](const ForceElement& f, const ForceGeometry& g, const PairMotion& m, Vec3& Fb, Vec3& Tb, double*) {
        joint_friction_wrench(f, f.normal_force, true, g, m, Fb, Tb);
      },
      [](const ForceElement& f, const System& model, std::vector<KeyProblem>& p) {
        const auto turns_or_slides = [](JointType t) { return joint_turns(t) || joint_slides(t); };
        if (const Joint* j = element_joint(f, model, turns_or_slides, "a joint_friction",
                                           "revolute, prismatic or cylindrical joint", p))
          copied_from_joint(f, *j, true, "add_joint_friction", p);
      }};
  return info;
}

}  // namespace forces
}  // namespace mbdae
