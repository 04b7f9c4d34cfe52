#include <mbdae/io/Sensors.h>

#include <algorithm>
#include <stdexcept>

#include <mbdae/model/math/Rotation.h>

namespace mbdae::io {

namespace {

void put3(const Vec3& x, std::span<double> out) {
  for (int i = 0; i < 3; ++i) out[static_cast<size_t>(i)] = x[i];
}

using K = BodyKinematics;
using S = SensorSpec;
const std::vector<const char*> kXyz{".x", ".y", ".z"};

// The table: one row per output, in the order of the enumerators (checked in sensor_outputs()).
std::vector<SensorOutputInfo> make_table() {
  using T = SensorTarget;
  return {
      {SensorOutput::Position, "position", "m", T::Body, true, kXyz, false, false, "position of the body point, world",
       [](K& k, const S& s, BodyIndex b, int, const Vec3&, std::span<double> o) { put3(k.position(b, s.point), o); }},
      {SensorOutput::Displacement, "displacement", "m", T::Body, true, kXyz, false, false,
       "position of the body point minus its initial position, world",
       [](K& k, const S& s, BodyIndex b, int, const Vec3& p0, std::span<double> o) {
         put3(k.position(b, s.point) - p0, o);
       }},
      {SensorOutput::Velocity, "velocity", "m/s", T::Body, true, kXyz, false, false, "velocity of the body point, world",
       [](K& k, const S& s, BodyIndex b, int, const Vec3&, std::span<double> o) { put3(k.velocity(b, s.point), o); }},
      {SensorOutput::VelocityLocal, "velocity_local", "m/s", T::Body, true, kXyz, false, false,
       "velocity of the body point, body axes",
       [](K& k, const S& s, BodyIndex b, int, const Vec3&, std::span<double> o) {
         put3(k.rotation(b).transpose() * k.velocity(b, s.point), o);
       }},
      {SensorOutput::RotationMatrix, "rotation_matrix", "", T::Body, false,
       {".r11", ".r12", ".r13", ".r21", ".r22", ".r23", ".r31", ".r32", ".r33"}, false, false,
       "R_WB row by row",
       [](K& k, const S&, BodyIndex b, int, const Vec3&, std::span<double> o) {
         const Mat3 R = k.rotation(b);
         for (int i = 0; i < 3; ++i)
           for (int j = 0; j < 3; ++j) o[static_cast<size_t>(3 * i + j)] = R(i, j);
       }},
      {SensorOutput::Rotation, "rotation", "rad", T::Body, false, kXyz, false, false, "xyz angles of R_WB = Rx Ry Rz",
       [](K& k, const S&, BodyIndex b, int, const Vec3&, std::span<double> o) {
         put3(math::matrix_to_rxyz(k.rotation(b)).angles, o);
       }},
      {SensorOutput::AngularVelocity, "angular_velocity", "rad/s", T::Body, false, kXyz, false, false,
       "angular velocity, world axes",
       [](K& k, const S&, BodyIndex b, int, const Vec3&, std::span<double> o) { put3(k.angular_velocity(b), o); }},
      {SensorOutput::AngularVelocityLocal, "angular_velocity_local", "rad/s", T::Body, false, kXyz, false, false,
       "angular velocity, body axes",
       [](K& k, const S&, BodyIndex b, int, const Vec3&, std::span<double> o) {
         put3(k.rotation(b).transpose() * k.angular_velocity(b), o);
       }},
      {SensorOutput::Acceleration, "acceleration", "m/s^2", T::Body, true, kXyz, true, false,
       "acceleration of the body point, world",
       [](K& k, const S& s, BodyIndex b, int, const Vec3&, std::span<double> o) {
         put3(k.acceleration(b, s.point), o);
       }},
      {SensorOutput::AccelerationLocal, "acceleration_local", "m/s^2", T::Body, true, kXyz, true, false,
       "acceleration of the body point, body axes",
       [](K& k, const S& s, BodyIndex b, int, const Vec3&, std::span<double> o) {
         put3(k.rotation(b).transpose() * k.acceleration(b, s.point), o);
       }},
      {SensorOutput::AngularAcceleration, "angular_acceleration", "rad/s^2", T::Body, false, kXyz, true, false,
       "angular acceleration, world axes",
       [](K& k, const S&, BodyIndex b, int, const Vec3&, std::span<double> o) {
         put3(k.angular_acceleration(b), o);
       }},
      {SensorOutput::AngularAccelerationLocal, "angular_acceleration_local", "rad/s^2", T::Body, false, kXyz, true, false,
       "angular acceleration, body axes",
       [](K& k, const S&, BodyIndex b, int, const Vec3&, std::span<double> o) {
         put3(k.rotation(b).transpose() * k.angular_acceleration(b), o);
       }},
      {SensorOutput::ReactionForce, "reaction_force", "N", T::Joint, false, kXyz, false, true,
       "force of the joint on its second body, world or joint axes",
       [](K& k, const S& s, BodyIndex, int j, const Vec3&, std::span<double> o) {
         const JointReaction r = k.reaction(j);
         put3(s.frame == S::Frame::World ? r.force_W : r.force_J, o);
       }},
      {SensorOutput::ReactionTorque, "reaction_torque", "N m", T::Joint, false, kXyz, false, true,
       "torque of the joint on its second body about the joint point, world or joint axes",
       [](K& k, const S& s, BodyIndex, int j, const Vec3&, std::span<double> o) {
         const JointReaction r = k.reaction(j);
         put3(s.frame == S::Frame::World ? r.torque_W : r.torque_J, o);
       }},
      {SensorOutput::Energy, "energy", "J", T::System, false, {""}, false, false,
       "kinetic energy plus the potentials of gravity and the springs",
       [](K& k, const S&, BodyIndex, int, const Vec3&, std::span<double> o) { o[0] = k.energy(); }},
      {SensorOutput::ConstraintViolation, "constraint_violation", "", T::System, false, {".position", ".velocity"}, false,
       false, "largest violation of the constraints at position and velocity level",
       [](K& k, const S&, BodyIndex, int, const Vec3&, std::span<double> o) {
         const ConstraintViolation c = k.constraint_violation();
         o[0] = c.position;
         o[1] = c.velocity;
       }},
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
    Resolved r;
    switch (info.target) {
      case SensorTarget::Joint:
        for (size_t j = 0; j < model.joints().size(); ++j)
          if (model.joints()[j].name == sp.joint) r.joint = static_cast<int>(j);
        if (r.joint < 0) throw std::invalid_argument("sensor '" + sp.name + "': unknown joint '" + sp.joint + "'");
        break;
      case SensorTarget::Body: {
        const auto b = model.find_body(sp.body);
        if (!b || *b == kGround)
          throw std::invalid_argument("sensor '" + sp.name + "': unknown body '" + sp.body + "'");
        r.body = *b;
        r.p0 = kin_.position(r.body, sp.point);
        break;
      }
      case SensorTarget::System: break;
    }
    resolved_.push_back(r);
    for (const char* suf : info.suffixes) {
      const std::string col = sp.name + suf;
      if (col == "time" || std::find(columns_.begin(), columns_.end(), col) != columns_.end())
        throw std::invalid_argument("sensor '" + sp.name + "': its column '" + col +
                                    "' is already a column of the results; every column needs its own name");
      columns_.push_back(col);
      units_.push_back(info.unit);
      column_sensor_.push_back(static_cast<int>(s));
    }
  }
}

void SensorSet::evaluate(const StateView& s, std::span<double> out) {
  kin_.update(s);
  size_t k = 0;
  for (size_t i = 0; i < specs_.size(); ++i) {
    const SensorOutputInfo& info = sensor_output_info(specs_[i].output);
    const Resolved& r = resolved_[i];
    const size_t n = info.suffixes.size();
    info.evaluate(kin_, specs_[i], r.body, r.joint, r.p0, out.subspan(k, n));
    k += n;
  }
}

}  // namespace mbdae::io
