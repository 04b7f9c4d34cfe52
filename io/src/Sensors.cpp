#include <mbdae/io/Sensors.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>

#include <mbdae/model/ForceTypes.h>
#include <mbdae/model/JointTypes.h>

#include <mbdae/model/math/Rotation.h>

namespace mbdae::io {

namespace {

void put3(const Vec3& x, std::span<double> out) {
  for (int i = 0; i < 3; ++i) out[static_cast<size_t>(i)] = x[i];
}

using K = BodyKinematics;
using S = SensorSpec;
using C = SensorContext;

/// The world poses and motions of a joint's or force element's two markers.
struct Markers {
  Vec3 p_a, p_b, v_a, v_b, w_a, w_b;  // marker points and their velocities, angular velocities (world)
  Mat3 F_a, F_b;                      // marker frames (columns, world)
};

Markers markers(K& k, const C& c) {
  Markers m;
  auto one = [&](BodyIndex i, const Vec3& p, const Mat3& F, Vec3& pw, Vec3& vw, Vec3& ww, Mat3& Fw) {
    if (i == kGround) {
      pw = p;
      vw.setZero();
      ww.setZero();
      Fw = F;
      return;
    }
    pw = k.position(i, p);
    vw = k.velocity(i, p);
    ww = k.angular_velocity(i);
    Fw = k.rotation(i) * F;
  };
  one(c.a, c.point_a, c.frame_a, m.p_a, m.v_a, m.w_a, m.F_a);
  one(c.b, c.point_b, c.frame_b, m.p_b, m.v_b, m.w_b, m.F_b);
  return m;
}

/// Inertia tensor about the centre of mass, body axes (parallel-axis theorem from the reference point).
Mat3 inertia_about_com(const RigidBody& b) {
  return b.inertia_tensor() - b.mass * (b.com.squaredNorm() * Mat3::Identity() - b.com * b.com.transpose());
}

/// f(i, body) for the sensor's body, or for every body when it names none.
template <class F>
void for_bodies(K& k, const C& c, F&& f) {
  const auto& bodies = k.model().bodies();
  if (c.body != kGround) {
    f(c.body, bodies[static_cast<size_t>(c.body)]);
    return;
  }
  for (size_t i = 0; i < bodies.size(); ++i) f(static_cast<BodyIndex>(i), bodies[i]);
}

double kinetic_energy(K& k) {
  double T = 0;
  for_bodies(k, C{}, [&](BodyIndex i, const RigidBody& rb) {
    const Vec3 v = k.velocity(i, rb.com), w_B = k.rotation(i).transpose() * k.angular_velocity(i);
    T += 0.5 * rb.mass * v.squaredNorm() + 0.5 * w_B.dot(inertia_about_com(rb) * w_B);
  });
  const auto& shafts = k.model().shafts();
  for (size_t s = 0; s < shafts.size(); ++s) {
    const double w = k.shaft_motion(static_cast<int>(s)).rate;
    T += 0.5 * shafts[s].inertia * w * w;
  }
  return T;
}
const std::vector<const char*> kXyz{".x", ".y", ".z"};

// The table: one row per output, in the order of the enumerators (checked in sensor_outputs()).
std::vector<SensorOutputInfo> make_table() {
  using T = SensorTarget;
  return {
      {SensorOutput::Position, "position", "m", T::Body, true, kXyz, false, false, "position of the body point, world",
       [](K& k, const S& s, C& c, std::span<double> o) {
         const BodyIndex b = c.body; put3(k.position(b, s.point), o); }},
      {SensorOutput::Displacement, "displacement", "m", T::Body, true, kXyz, false, false,
       "position of the body point minus its initial position, world",
       [](K& k, const S& s, C& c, std::span<double> o) {
         const BodyIndex b = c.body;
         const Vec3& p0 = c.p0;
         put3(k.position(b, s.point) - p0, o);
       }},
      {SensorOutput::Velocity, "velocity", "m/s", T::Body, true, kXyz, false, false, "velocity of the body point, world",
       [](K& k, const S& s, C& c, std::span<double> o) {
         const BodyIndex b = c.body; put3(k.velocity(b, s.point), o); }},
      {SensorOutput::VelocityLocal, "velocity_local", "m/s", T::Body, true, kXyz, false, false,
       "velocity of the body point, body axes",
       [](K& k, const S& s, C& c, std::span<double> o) {
         const BodyIndex b = c.body;
         put3(k.rotation(b).transpose() * k.velocity(b, s.point), o);
       }},
      {SensorOutput::RotationMatrix, "rotation_matrix", "", T::Body, false,
       {".r11", ".r12", ".r13", ".r21", ".r22", ".r23", ".r31", ".r32", ".r33"}, false, false,
       "R_WB row by row",
       [](K& k, const S&, C& c, std::span<double> o) {
         const BodyIndex b = c.body;
         const Mat3 R = k.rotation(b);
         for (int i = 0; i < 3; ++i)
           for (int j = 0; j < 3; ++j) o[static_cast<size_t>(3 * i + j)] = R(i, j);
       }},
      {SensorOutput::Rotation, "rotation", "rad", T::Body, false, kXyz, false, false, "xyz angles of R_WB = Rx Ry Rz",
       [](K& k, const S&, C& c, std::span<double> o) {
         const BodyIndex b = c.body;
         put3(math::matrix_to_rxyz(k.rotation(b)).angles, o);
       }},
      {SensorOutput::AngularVelocity, "angular_velocity", "rad/s", T::Body, false, kXyz, false, false,
       "angular velocity, world axes",
       [](K& k, const S&, C& c, std::span<double> o) {
         const BodyIndex b = c.body; put3(k.angular_velocity(b), o); }},
      {SensorOutput::AngularVelocityLocal, "angular_velocity_local", "rad/s", T::Body, false, kXyz, false, false,
       "angular velocity, body axes",
       [](K& k, const S&, C& c, std::span<double> o) {
         const BodyIndex b = c.body;
         put3(k.rotation(b).transpose() * k.angular_velocity(b), o);
       }},
      {SensorOutput::Acceleration, "acceleration", "m/s^2", T::Body, true, kXyz, true, false,
       "acceleration of the body point, world",
       [](K& k, const S& s, C& c, std::span<double> o) {
         const BodyIndex b = c.body;
         put3(k.acceleration(b, s.point), o);
       }},
      {SensorOutput::AccelerationLocal, "acceleration_local", "m/s^2", T::Body, true, kXyz, true, false,
       "acceleration of the body point, body axes",
       [](K& k, const S& s, C& c, std::span<double> o) {
         const BodyIndex b = c.body;
         put3(k.rotation(b).transpose() * k.acceleration(b, s.point), o);
       }},
      {SensorOutput::AngularAcceleration, "angular_acceleration", "rad/s^2", T::Body, false, kXyz, true, false,
       "angular acceleration, world axes",
       [](K& k, const S&, C& c, std::span<double> o) {
         const BodyIndex b = c.body;
         put3(k.angular_acceleration(b), o);
       }},
      {SensorOutput::AngularAccelerationLocal, "angular_acceleration_local", "rad/s^2", T::Body, false, kXyz, true, false,
       "angular acceleration, body axes",
       [](K& k, const S&, C& c, std::span<double> o) {
         const BodyIndex b = c.body;
         put3(k.rotation(b).transpose() * k.angular_acceleration(b), o);
       }},
      {SensorOutput::ReactionForce, "reaction_force", "N", T::Joint, false, kXyz, false, true,
       "force of the joint on its second body, world or joint axes",
       [](K& k, const S& s, C& c, std::span<double> o) {
         const int j = c.joint;
         const JointReaction r = k.reaction(j);
         put3(s.frame == S::Frame::World ? r.force_W : r.force_J, o);
       },
       {}, nullptr, "", nullptr, "", true},
      {SensorOutput::ReactionTorque, "reaction_torque", "N m", T::Joint, false, kXyz, false, true,
       "torque of the joint on its second body about the joint point, world or joint axes",
       [](K& k, const S& s, C& c, std::span<double> o) {
         const int j = c.joint;
         const JointReaction r = k.reaction(j);
         put3(s.frame == S::Frame::World ? r.torque_W : r.torque_J, o);
       },
       {}, nullptr, "", nullptr, "", true},
      {SensorOutput::Energy, "energy", "J", T::System, false, {""}, false, false,
       "kinetic energy plus the potentials of gravity and the springs",
       [](K& k, const S&, C&, std::span<double> o) { o[0] = k.energy(); }},
      {SensorOutput::ConstraintViolation, "constraint_violation", "", T::System, false, {".position", ".velocity"}, false,
       false, "largest violation of the constraints at position and velocity level",
       [](K& k, const S&, C&, std::span<double> o) {
         const ConstraintViolation c = k.constraint_violation();
         o[0] = c.position;
         o[1] = c.velocity;
       }},
      {SensorOutput::JointAngle, "joint_angle", "rad", T::Joint, false, {"", ".rate"}, false, false,
       "rotation of the joint's second marker about its axis relative to the first, turns counted, and its rate",
       [](K& k, const S&, C& c, std::span<double> o) {
         const Markers m = markers(k, c);
         const Mat3 rel = m.F_a.transpose() * m.F_b;
         const double wrapped = std::atan2(rel(1, 0), rel(0, 0));
         // Continue from the previous value: the nearest angle with this remainder modulo 2π.
         const double angle = c.started ? c.last_angle + std::remainder(wrapped - c.last_angle, 2 * M_PI) : wrapped;
         c.last_angle = angle;
         c.started = true;
         o[0] = angle;
         o[1] = (m.w_b - m.w_a).dot(m.F_a.col(2));
       },
       {"rad", "rad/s"}, [](JointType t) { return t == JointType::Revolute || t == JointType::Cylindrical; },
       "revolute or cylindrical"},
      {SensorOutput::JointDisplacement, "joint_displacement", "m", T::Joint, false, {"", ".rate"}, false, false,
       "displacement of the joint's second marker along its axis relative to the first, and its rate",
       [](K& k, const S&, C& c, std::span<double> o) {
         const Markers m = markers(k, c);
         const Vec3 n = m.F_a.col(2), d = m.p_b - m.p_a;
         o[0] = d.dot(n);
         o[1] = (m.v_b - m.v_a).dot(n) + d.dot(m.w_a.cross(n));
       },
       {"m", "m/s"}, [](JointType t) { return t == JointType::Prismatic || t == JointType::Cylindrical; },
       "prismatic or cylindrical"},
      {SensorOutput::SpringDamper, "spring_damper", "", T::Force, false, {".force", ".length", ".speed"}, false, false,
       "force (tension positive), length and lengthening speed of a point-to-point spring-damper",
       [](K& k, const S&, C& c, std::span<double> o) {
         const Markers m = markers(k, c);
         const ForceElement& f = k.model().forces()[static_cast<size_t>(c.force)];
         const Vec3 d = m.p_b - m.p_a;
         const double L = d.norm();
         const double Ld = L > 0 ? d.dot(m.v_b - m.v_a) / L : 0.0;
         o[0] = f.stiffness * (L - c.rest_length) + f.damping * Ld;
         o[1] = L;
         o[2] = Ld;
       },
       {"N", "m", "m/s"}, nullptr, "", [](ForceType t) { return t == ForceType::SpringDamper; }, "spring_damper"},
      {SensorOutput::KineticEnergy, "kinetic_energy", "J", T::System, false, {""}, false, false,
       "kinetic energy of every body and shaft: ½ m v_C² + ½ ωᵀ J_C ω, ½ J q̇²",
       [](K& k, const S&, C&, std::span<double> o) { o[0] = kinetic_energy(k); }},
      {SensorOutput::PotentialEnergy, "potential_energy", "J", T::System, false, {""}, false, false,
       "potential of gravity (zero at the world origin) and of the springs: energy minus kinetic energy",
       [](K& k, const S&, C&, std::span<double> o) { o[0] = k.energy() - kinetic_energy(k); }},
      {SensorOutput::LinearMomentum, "linear_momentum", "kg m/s", T::BodyOrSystem, false, kXyz, false, false,
       "m v_C of the body, or summed over every body, world",
       [](K& k, const S&, C& c, std::span<double> o) {
         Vec3 p = Vec3::Zero();
         for_bodies(k, c, [&](BodyIndex i, const RigidBody& rb) { p += rb.mass * k.velocity(i, rb.com); });
         put3(p, o);
       }},
      {SensorOutput::AngularMomentum, "angular_momentum", "kg m^2/s", T::BodyOrSystem, false, kXyz, false, false,
       "about the world origin, world axes: p_C × m v_C + R J_C Rᵀ ω of the body, or summed over every body",
       [](K& k, const S&, C& c, std::span<double> o) {
         Vec3 h = Vec3::Zero();
         for_bodies(k, c, [&](BodyIndex i, const RigidBody& rb) {
           const Mat3 R = k.rotation(i);
           h += k.position(i, rb.com).cross(rb.mass * k.velocity(i, rb.com)) +
                R * inertia_about_com(rb) * R.transpose() * k.angular_velocity(i);
         });
         put3(h, o);
       }},
      {SensorOutput::JointMotor, "joint_motor", "", T::Force, false, {".effort", ".power"}, false, false,
       "a joint motor's effort u (torque about or force along its joint's axis) and its power u dphi/dt or u ds/dt",
       [](K& k, const S&, C& c, std::span<double> o) {
         // The joint's coordinates as the motor's law measures them (model/src/forces/JointMotor.cpp),
         // turns counted from the previous row.
         const Markers m = markers(k, c);
         const ForceElement& f = k.model().forces()[static_cast<size_t>(c.force)];
         const Vec3 e = m.F_a.col(2), d = m.p_b - m.p_a;
         const double wrapped = std::atan2(m.F_b.col(0).dot(m.F_a.col(1)), m.F_b.col(0).dot(m.F_a.col(0)));
         JointCoordinates q;
         q.angle = c.started ? c.last_angle + std::remainder(wrapped - c.last_angle, 2 * M_PI) : wrapped;
         c.last_angle = q.angle;
         c.started = true;
         q.rate = (m.w_b - m.w_a).dot(e);
         q.displacement = e.dot(d);
         q.speed = e.dot(m.v_b - m.v_a) + d.dot(m.w_a.cross(e));
         std::vector<double>& z = c.states;  // the controller states the motor reads
         z.clear();
         for (const std::string& sn : f.states) z.push_back(k.controller_state(k.model().find_controller_state(sn)));
         q.states = z;
         o[0] = f.effort(k.time(), q);
         o[1] = o[0] * (f.motor_force ? q.speed : q.rate);
       },
       {"N m", "W"}, nullptr, "", [](ForceType t) { return t == ForceType::JointMotor; }, "joint_motor", false,
       [](const System& model, const SensorContext& c, size_t col) -> const char* {
         return col == 0 && model.forces()[static_cast<size_t>(c.force)].motor_force ? "N" : nullptr;
       }},
      {SensorOutput::Shaft, "shaft", "", T::Shaft, false, {"", ".rate"}, false, false,
       "a 1-D shaft's coordinate (a rotor's angle, a mass's position) and its rate",
       [](K& k, const S&, C& c, std::span<double> o) {
         const JointCoordinate m = k.shaft_motion(c.shaft);
         o[0] = m.value;
         o[1] = m.rate;
       },
       {"rad", "rad/s"}, nullptr, "", nullptr, "", false,
       [](const System& model, const SensorContext& c, size_t col) -> const char* {
         if (model.shafts()[static_cast<size_t>(c.shaft)].kind == Shaft::Kind::Rotor) return nullptr;
         return col == 0 ? "m" : "m/s";
       }},
      {SensorOutput::JointFriction, "joint_friction", "", T::Force, false, {".torque", ".force", ".power"}, false,
       false,
       "a joint friction's torque about and force along its joint's axis on the second body (Coulomb, Stribeck "
       "and viscous, as the smooth solvers apply them, with normal: reaction at the joint's reaction of the "
       "state) and its power (<= 0)",
       [](K& k, const S&, C& c, std::span<double> o) {
         // The element's own law (model/src/forces/JointFriction.cpp) at the markers' motion; the
         // marker frames are world frames here, so the geometry is the identity.
         const Markers m = markers(k, c);
         const ForceElement& f = k.model().forces()[static_cast<size_t>(c.force)];
         const ForceGeometry g;
         const PairMotion pm{m.p_b - m.p_a, m.v_b - m.v_a, m.F_a, m.F_b, m.w_a, m.w_b, k.time()};
         const Vec3 e = m.F_a.col(2), d = m.p_b - m.p_a;
         // normal: reaction: N = the preload + the joint's reaction normal force of this state (its
         // multipliers), as the implicit formulation applies it; NaN without reactions.
         double N = f.normal_force;
         if (f.normal_from_reaction) {
           int joint = -1;
           for (size_t j = 0; j < k.model().joints().size(); ++j)
             if (k.model().joints()[j].name == f.joint) joint = static_cast<int>(j);
           N = joint >= 0 && k.has_reactions()
                   ? N + joint_friction_reaction_normal(f, k.reaction(joint).force_W, e)
                   : std::numeric_limits<double>::quiet_NaN();
         }
         Vec3 Fb = Vec3::Zero(), Tb = Vec3::Zero();
         joint_friction_wrench(f, N, true, g, pm, Fb, Tb);
         o[0] = Tb.dot(e);
         o[1] = Fb.dot(e);
         o[2] = o[0] * (m.w_b - m.w_a).dot(e) + o[1] * (e.dot(m.v_b - m.v_a) + d.dot(m.w_a.cross(e)));
       },
       {"N m", "N", "W"}, nullptr, "", [](ForceType t) { return t == ForceType::JointFriction; }, "joint_friction"},
      {SensorOutput::ControllerState, "controller_state", "", T::State, false, {""}, false, false,
       "the value z of a controller state (its own unit)",
       [](K& k, const S&, C& c, std::span<double> o) { o[0] = k.controller_state(c.state); }},
      {SensorOutput::DriveEffort, "drive_effort", "", T::Joint, false, {"", ".power"}, false, true,
       "the effort of a driven joint's drive (motion or speed) on its second body about or along the axis, "
       "and its power",
       [](K& k, const S&, C& c, std::span<double> o) {
         // The drive row is the only one of a revolute (prismatic) joint with a torque about (a
         // force along) the axis: the reaction's component there is the drive's effort.
         const Markers m = markers(k, c);
         const Vec3 n = m.F_a.col(2);
         const JointReaction r = k.reaction(c.joint);
         if (k.model().joints()[static_cast<size_t>(c.joint)].type == JointType::Revolute) {
           o[0] = r.torque_W.dot(n);
           o[1] = o[0] * (m.w_b - m.w_a).dot(n);
         } else {
           o[0] = r.force_W.dot(n);
           o[1] = o[0] * ((m.v_b - m.v_a).dot(n) + (m.p_b - m.p_a).dot(m.w_a.cross(n)));
         }
       },
       {"N m", "W"}, [](JointType t) { return t == JointType::Revolute || t == JointType::Prismatic; },
       "driven revolute or prismatic", nullptr, "", false,
       [](const System& model, const SensorContext& c, size_t col) -> const char* {
         return col == 0 && model.joints()[static_cast<size_t>(c.joint)].type == JointType::Prismatic ? "N" : nullptr;
       }},
      {SensorOutput::CouplingEffort, "coupling_effort", "", T::Coupling, false, {""}, false, true,
       "the multiplier lambda of a coupling: the effort -c_i lambda acts on the coordinate of its joint (or shaft) i",
       [](K& k, const S&, C& c, std::span<double> o) { o[0] = k.coupling_multiplier(c.coupling); },
       {}, nullptr, "", nullptr, "", false,
       // λ's unit is that of the effort on a coordinate whose coefficient is dimensionless: N m for
       // the couplings of two angles (gear, bevel), N where a length multiplies an angle (the rack
       // of a rack and pinion, the nut of a screw, a belt: λ is the belt's force); a linear
       // coupling's depends on its coefficients.
       [](const System& model, const SensorContext& c, size_t) -> const char* {
         switch (model.couplings()[static_cast<size_t>(c.coupling)].kind) {
           case Coupling::Kind::Gear:
           case Coupling::Kind::Bevel: return "N m";
           case Coupling::Kind::RackPinion:
           case Coupling::Kind::Screw:
           case Coupling::Kind::Belt: return "N";
           case Coupling::Kind::Linear: return "";
         }
         return "";
       }},
      // A flexible cable at the reference arc length `at` (MultibodySystem::cable_point()).
      {SensorOutput::CablePosition, "cable_position", "m", T::Cable, false, {".x", ".y"}, false, false,
       "the position of a cable's point at reference arc length at (world x, y)",
       [](K& k, const S& s, C& c, std::span<double> o) {
         const CablePoint p = k.cable_point(c.cable, s.at);
         o[0] = p.position.x();
         o[1] = p.position.y();
       }},
      {SensorOutput::CableSlope, "cable_slope", "", T::Cable, false, {".x", ".y"}, false, false,
       "the slope r' = dr/dx of a cable at at (world x, y; its length is 1 + the axial strain)",
       [](K& k, const S& s, C& c, std::span<double> o) {
         const CablePoint p = k.cable_point(c.cable, s.at);
         o[0] = p.slope.x();
         o[1] = p.slope.y();
       }},
      {SensorOutput::CableCurvature, "cable_curvature", "1/m", T::Cable, false, {""}, false, false,
       "the curvature (r' x r'')/(r' . r') of a cable at at (positive counter-clockwise)",
       [](K& k, const S& s, C& c, std::span<double> o) { o[0] = k.cable_point(c.cable, s.at).curvature; }},
      {SensorOutput::CableAxialForce, "cable_axial_force", "N", T::Cable, false, {""}, false, false,
       "the axial force EA (eps + d eps') of a cable at at (tension positive)",
       [](K& k, const S& s, C& c, std::span<double> o) { o[0] = k.cable_point(c.cable, s.at).axial_force; }},
  };
}

}  // namespace

const std::vector<SensorOutputInfo>& sensor_outputs() {
  static const std::vector<SensorOutputInfo> table = [] {
    std::vector<SensorOutputInfo> t = make_table();
    for (size_t i = 0; i < t.size(); ++i)
      if (static_cast<size_t>(t[i].output) != i) throw std::logic_error("sensor_outputs: table out of order");
    return t;
  }();
  return table;
}

const SensorOutputInfo& sensor_output_info(SensorOutput o) {
  return sensor_outputs()[static_cast<size_t>(o)];
}

namespace {

/// The item a sensor reads, resolved in `model` (SensorContext without the displacement's p0).
/// @throws std::invalid_argument naming the sensor (see SensorSet).
SensorContext resolve_context(const System& model, const SensorSpec& sp) {
  // A body's initial pose as the model gives it (joint and force markers are fixed to the bodies
  // from there, as in the formulations).
  auto pose0 = [&](const std::string& name, BodyIndex& i, Mat3& R, Vec3& p) {
    const auto b = model.find_body(name);
    i = b ? *b : kGround;
    R = i == kGround ? Mat3::Identity() : model.bodies()[static_cast<size_t>(i)].orientation;
    p = i == kGround ? Vec3::Zero() : model.bodies()[static_cast<size_t>(i)].position;
  };
  // Markers at world point pa (on a) and pb (on b) with the world frame F, fixed to the bodies.
  auto set_markers = [&](SensorContext& r, const std::string& a, const std::string& b, const Vec3& pa,
                         const Vec3& pb, const Mat3& F) {
    Mat3 Ra, Rb;
    Vec3 xa, xb;
    pose0(a, r.a, Ra, xa);
    pose0(b, r.b, Rb, xb);
    r.point_a = Ra.transpose() * (pa - xa);
    r.point_b = Rb.transpose() * (pb - xb);
    r.frame_a = Ra.transpose() * F;
    r.frame_b = Rb.transpose() * F;
  };
  const SensorOutputInfo& info = sensor_output_info(sp.output);
  SensorContext r;
  const std::string who = "sensor '" + sp.name + "': ";
  switch (info.target) {
    case SensorTarget::Joint: {
      for (size_t j = 0; j < model.joints().size(); ++j)
        if (model.joints()[j].name == sp.joint) r.joint = static_cast<int>(j);
      if (r.joint < 0) throw std::invalid_argument(who + "unknown joint '" + sp.joint + "'");
      const Joint& jt = model.joints()[static_cast<size_t>(r.joint)];
      if (info.accepts_joint && !info.accepts_joint(jt.type))
        throw std::invalid_argument(who + "output " + info.name + " applies to " + info.joint_types +
                                    " joints, not to joint '" + jt.name + "' (" + to_string(jt.type) + ")");
      if (sp.output == SensorOutput::DriveEffort && !jt.motion && !jt.speed)
        throw std::invalid_argument(who + "output " + info.name + " applies to driven joints (motion or speed); joint '" +
                                    jt.name + "' has neither");
      if (info.accepts_joint) set_markers(r, jt.bodies[0], jt.bodies[1], jt.point, jt.point, frame_from_axis(jt.axis, 2));
      break;
    }
    case SensorTarget::Force: {
      for (size_t f = 0; f < model.forces().size(); ++f)
        if (model.forces()[f].name == sp.force) r.force = static_cast<int>(f);
      if (r.force < 0) throw std::invalid_argument(who + "unknown force element '" + sp.force + "'");
      const ForceElement& fe = model.forces()[static_cast<size_t>(r.force)];
      if (info.accepts_force && !info.accepts_force(fe.type))
        throw std::invalid_argument(who + "output " + info.name + " applies to " + info.force_types +
                                    " elements, not to '" + fe.name + "' (" + to_string(fe.type) + ")");
      // The element's own markers (ForceTypes.h): its points, its frame (z along its axis).
      const ForceMarkers fm = force_type_info(fe.type).markers(fe);
      set_markers(r, fe.bodies.at(0), fe.bodies.at(1), fm.point_a, fm.point_b, fm.frame);
      r.rest_length = fm.reference;
      break;
    }
    case SensorTarget::Body:
    case SensorTarget::BodyOrSystem: {
      if (info.target == SensorTarget::BodyOrSystem && sp.body.empty()) break;
      const auto b = model.find_body(sp.body);
      if (!b || *b == kGround) throw std::invalid_argument(who + "unknown body '" + sp.body + "'");
      r.body = *b;
      break;
    }
    case SensorTarget::System: break;
    case SensorTarget::Shaft:
      r.shaft = model.shaft_index(sp.shaft);
      if (r.shaft < 0) throw std::invalid_argument(who + "unknown shaft '" + sp.shaft + "'");
      break;
    case SensorTarget::State:
      r.state = model.find_controller_state(sp.state);
      if (r.state < 0) throw std::invalid_argument(who + "unknown controller state '" + sp.state + "'");
      break;
    case SensorTarget::Cable:
      for (size_t k = 0; k < model.cables().size(); ++k)
        if (model.cables()[k].name == sp.cable) r.cable = static_cast<int>(k);
      if (r.cable < 0) throw std::invalid_argument(who + "unknown cable '" + sp.cable + "'");
      break;
    case SensorTarget::Coupling:
      for (size_t k = 0; k < model.couplings().size(); ++k)
        if (model.couplings()[k].name == sp.coupling) r.coupling = static_cast<int>(k);
      if (r.coupling < 0) throw std::invalid_argument(who + "unknown coupling '" + sp.coupling + "'");
      break;
  }
  return r;
}

}  // namespace

SensorSet::SensorSet(std::vector<SensorSpec> specs, BodyKinematics& kin, const StateView& initial,
                     StateContents contents)
    : specs_(std::move(specs)), kin_(kin) {
  const System& model = kin.model();
  kin_.update(initial);
  for (size_t s = 0; s < specs_.size(); ++s) {
    const SensorSpec& sp = specs_[s];
    const SensorOutputInfo& info = sensor_output_info(sp.output);
    if ((info.needs_accelerations && !contents.accelerations) || (info.needs_multipliers && !contents.multipliers))
      throw std::invalid_argument("sensor '" + sp.name + "': output " + info.name + " needs " +
                                  (info.needs_accelerations ? "accelerations" : "Lagrange multipliers") +
                                  ", which this solver does not compute");
    SensorContext r = resolve_context(model, sp);
    if (r.body != kGround) r.p0 = kin_.position(r.body, sp.point);
    resolved_.push_back(r);
    for (size_t k = 0; k < info.suffixes.size(); ++k) {
      const std::string col = sp.name + info.suffixes[k];
      if (col == "time" || std::find(columns_.begin(), columns_.end(), col) != columns_.end())
        throw std::invalid_argument("sensor '" + sp.name + "': its column '" + col +
                                    "' is already a column of the results; every column needs its own name");
      columns_.push_back(col);
      const char* unit = info.item_unit ? info.item_unit(model, r, k) : nullptr;
      units_.push_back(unit ? unit : info.column_unit(k));
      column_sensor_.push_back(static_cast<int>(s));
    }
  }
}

void SensorSet::evaluate(const StateView& s, std::span<double> out) {
  kin_.update(s);
  size_t k = 0;
  for (size_t i = 0; i < specs_.size(); ++i) {
    const SensorOutputInfo& info = sensor_output_info(specs_[i].output);
    const size_t n = info.suffixes.size();
    info.evaluate(kin_, specs_[i], resolved_[i], out.subspan(k, n));
    k += n;
  }
}

std::vector<double> SensorSet::memory() const {
  std::vector<double> m;
  for (const SensorContext& c : resolved_) {
    m.push_back(c.started ? 1.0 : 0.0);
    m.push_back(c.last_angle);
  }
  return m;
}

void SensorSet::set_memory(const std::vector<double>& m) {
  if (m.size() != 2 * resolved_.size())
    throw std::invalid_argument("sensor memory: " + std::to_string(m.size()) + " values for " +
                                std::to_string(resolved_.size()) + " sensors (expected two a sensor)");
  for (size_t i = 0; i < resolved_.size(); ++i) {
    resolved_[i].started = m[2 * i] != 0;
    resolved_[i].last_angle = m[2 * i + 1];
  }
}

namespace {

/// BodyKinematics of the motions a quantity is handed (QuantityInput): the sensor outputs'
/// evaluations read the bodies' poses and velocities through it, so a sensor read in an
/// expression is the same function as its column. Only what those outputs read is there: no
/// accelerations, reactions, energy, controller states or shafts (sensor_quantity() refuses the
/// outputs that need them).
class MotionKinematics final : public BodyKinematics {
 public:
  MotionKinematics(const System& model, const QuantityInput& in, std::span<const BodyIndex> bodies)
      : model_(model), in_(in), bodies_(bodies) {}
  const System& model() const override { return model_; }
  void update(const StateView&) override { throw std::logic_error("MotionKinematics: no states"); }
  double time() const override { return in_.t; }
  Vec3 position(BodyIndex i, const Vec3& p_B) const override {
    const BodyMotion& m = motion(i);
    return m.p + m.R * p_B;
  }
  Mat3 rotation(BodyIndex i) const override { return motion(i).R; }
  Vec3 velocity(BodyIndex i, const Vec3& p_B) const override {
    const BodyMotion& m = motion(i);
    return m.v + m.w.cross(m.R * p_B);
  }
  Vec3 angular_velocity(BodyIndex i) const override { return motion(i).w; }
  bool has_accelerations() const override { return false; }
  Vec3 acceleration(BodyIndex, const Vec3&) const override { return Vec3::Constant(kNaN); }
  Vec3 angular_acceleration(BodyIndex) const override { return Vec3::Constant(kNaN); }
  bool has_reactions() const override { return false; }
  JointReaction reaction(int) const override {
    JointReaction r;
    r.force_W = r.torque_W = Vec3::Constant(kNaN);
    return r;
  }
  double energy() override { return kNaN; }
  ConstraintViolation constraint_violation() override { throw std::logic_error("MotionKinematics: no constraints"); }
  double controller_state(int) const override { return kNaN; }
  JointCoordinate shaft_motion(int) const override { throw std::logic_error("MotionKinematics: no shafts"); }
  CablePoint cable_point(int, double) const override { throw std::logic_error("MotionKinematics: no cables"); }
  double coupling_multiplier(int) const override { return kNaN; }

 private:
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  const BodyMotion& motion(BodyIndex i) const {
    for (size_t k = 0; k < bodies_.size(); ++k)
      if (bodies_[k] == i) return in_.body(k);
    throw std::logic_error("MotionKinematics: a sensor read a body it does not name");
  }
  const System& model_;
  const QuantityInput& in_;
  std::span<const BodyIndex> bodies_;
};

/// Why sensor `sp` (its output `info`) is not a function of its bodies' motions ("" if it is one).
std::string not_of_motions(const SensorOutputInfo& info, const SensorSpec& sp, const System& model) {
  if (info.needs_accelerations) return "needs accelerations, which follow from the equations of motion";
  if (info.needs_multipliers) return "needs the joints' reactions (Lagrange multipliers)";
  switch (info.target) {
    case SensorTarget::System: return "is a quantity of the whole system";
    case SensorTarget::BodyOrSystem:
      if (sp.body.empty()) return "is a quantity of the whole system (without body:)";
      break;
    case SensorTarget::Shaft: return "reads a 1-D shaft, whose coordinate is not a body's motion";
    case SensorTarget::State: return "reads a controller state: write state(" + sp.state + ") where states are allowed";
    case SensorTarget::Coupling: return "reads a coupling's multiplier";
    case SensorTarget::Cable: return "reads a flexible cable, whose coordinates are not a body's motion";
    case SensorTarget::Body:
    case SensorTarget::Joint:
    case SensorTarget::Force: break;
  }
  if (sp.output == SensorOutput::Displacement)
    return "is measured from the assembled initial position, known only when the run starts (write the position "
           "minus its initial value instead)";
  if (sp.output == SensorOutput::JointMotor)
    for (const ForceElement& f : model.forces())
      if (f.name == sp.force && !f.states.empty())
        return "reads motor '" + f.name + "', whose value reads controller states";
  if (sp.output == SensorOutput::JointFriction)
    for (const ForceElement& f : model.forces())
      if (f.name == sp.force && f.normal_from_reaction)
        return "reads friction '" + f.name + "', whose normal force is its joint's reaction (Lagrange multipliers)";
  return "";
}

}  // namespace

std::optional<Quantity> sensor_quantity(const System& model, const SensorSpec& sp, const ExpressionQuantity& q,
                                        QuantityProblem& problem) {
  const SensorOutputInfo& info = sensor_output_info(sp.output);
  const std::string who = "sensor '" + sp.name + "' (output " + info.name + ")";
  if (const std::string why = not_of_motions(info, sp, model); !why.empty()) {
    problem = {q.argument_position, who + " " + why + "; an expression may read sensors whose value is a function "
                                                       "of the bodies' positions and velocities"};
    return std::nullopt;
  }
  // The column: "" (sensor(name)) or ".x" (sensor(name).x), as in the results' column names.
  std::string list;
  for (const char* suffix : info.suffixes)
    list += std::string(list.empty() ? "" : ", ") + (*suffix ? suffix : "(none)");
  const std::string wanted = q.component.empty() ? "" : "." + q.component;
  size_t column = info.suffixes.size();
  for (size_t k = 0; k < info.suffixes.size(); ++k)
    if (wanted == info.suffixes[k]) column = k;
  if (column == info.suffixes.size()) {
    if (q.component.empty())
      problem = {q.position, who + " has several columns: name one, e.g. sensor(" + sp.name + ")" + info.suffixes[0] +
                                 " (components: " + list + ")"};
    else
      problem = {q.component_position, who + " has no component " + wanted + " (components: " + list + ")"};
    return std::nullopt;
  }
  SensorContext c;
  try {
    c = resolve_context(model, sp);
  } catch (const std::invalid_argument& e) {
    problem = {q.argument_position, e.what()};
    return std::nullopt;
  }
  Quantity out;
  out.text = q.function + "(" + q.argument + ")" + wanted;
  // The bodies it reads (not ground), and a model of them (and of the element a force output
  // reads) that the quantity keeps: the System it was resolved in need not outlive it.
  std::vector<BodyIndex> bodies;
  for (BodyIndex i : {c.body, c.a, c.b})
    if (i != kGround && std::find(bodies.begin(), bodies.end(), i) == bodies.end()) {
      bodies.push_back(i);
      out.bodies.push_back(model.bodies()[static_cast<size_t>(i)].name);
    }
  auto own = std::make_shared<System>();
  for (const RigidBody& b : model.bodies()) own->add_body(b);
  if (c.force >= 0) {
    own->add_force(model.forces()[static_cast<size_t>(c.force)]);
    c.force = 0;
    out.counts_turns = sp.output == SensorOutput::JointMotor && own->forces()[0].effort_uses_angle;
  }
  if (sp.output == SensorOutput::JointAngle) out.counts_turns = true;
  out.value = [own = std::shared_ptr<const System>(std::move(own)), spec = sp, c, bodies, column,
               n = info.suffixes.size(), evaluate = info.evaluate](const QuantityInput& in) mutable {
    MotionKinematics k(*own, in, bodies);
    return with_doubles(n, [&](double* v) {
      evaluate(k, spec, c, std::span<double>(v, n));
      return v[column];
    });
  };
  return out;
}

}  // namespace mbdae::io
