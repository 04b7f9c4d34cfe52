#pragma once
/// @file Sensors.h
/// The model's sensors evaluated from a solver state: the columns of the results. Every sensor
/// output is one row of one table (sensor_outputs(): its model-file name, columns, unit, what it
/// is attached to, what the state must carry, and its evaluation through BodyKinematics), so a
/// sensor is written once and works on every solver whose state has what it needs.
///
/// | output                      | columns             | unit      | axes                     |
/// |-----------------------------|---------------------|-----------|--------------------------|
/// | position                    | .x .y .z            | m         | world                    |
/// | displacement                | .x .y .z            | m         | world, p(t) − p(t0)      |
/// | velocity, velocity_local    | .x .y .z            | m/s       | world / body             |
/// | rotation_matrix             | .r11 .r12 … .r33    | –         | R_WB, row by row         |
/// | rotation                    | .x .y .z            | rad       | xyz angles, R = Rx Ry Rz |
/// | angular_velocity[_local]    | .x .y .z            | rad/s     | world / body             |
/// | acceleration[_local]        | .x .y .z            | m/s²      | world / body             |
/// | angular_acceleration[_local]| .x .y .z            | rad/s²    | world / body             |
/// | reaction_force              | .x .y .z            | N         | world or joint (frame:)  |
/// | reaction_torque             | .x .y .z            | N m       | world or joint (frame:)  |
/// | energy                      | (name)              | J         | kinetic + potentials     |
/// | constraint_violation        | .position .velocity | mixed     | ‖C‖∞, ‖C_q v + C_t‖∞     |
///
/// The reaction is the wrench the joint applies to its second body at the joint point.

#include <span>
#include <string>
#include <vector>

#include <mbdae/formulations/BodyKinematics.h>
#include <mbdae/io/ModelLoader.h>
#include <mbdae/solvers/SolverCommon.h>

namespace mbdae::io {

/// What a sensor output is attached to.
enum class SensorTarget {
  Body,    ///< `body` (and `point`)
  Joint,   ///< `joint` (and `frame`)
  System,  ///< the whole model
};

/// Everything about one sensor output, in one place (sensor_outputs()).
struct SensorOutputInfo {
  SensorOutput output;              ///< the enumerator
  const char* name;                 ///< model-file key word ("angular_velocity_local")
  const char* unit;                 ///< of every column ("" where mixed or dimensionless)
  SensorTarget target;              ///< body, joint or system
  bool uses_point;                  ///< body outputs: depends on the body point (`point` key)
  std::vector<const char*> suffixes;  ///< column suffixes after the sensor's name ("" for one column)
  bool needs_accelerations;         ///< the solver must hand out accelerations
  bool needs_multipliers;           ///< the solver must hand out Lagrange multipliers
  const char* description;          ///< one line for docs and messages
  /// Writes suffixes.size() values: kin is updated with the state; p0 is the body point's initial
  /// position (displacement), body/joint the resolved indices.
  void (*evaluate)(BodyKinematics& kin, const SensorSpec& spec, BodyIndex body, int joint, const Vec3& p0,
                   std::span<double> out);
};

/// Every sensor output, in the order of the SensorOutput enumerators.
const std::vector<SensorOutputInfo>& sensor_outputs();
/// The row of `o`. No throw.
const SensorOutputInfo& sensor_output_info(SensorOutput o);

/// What a solver's states carry beyond positions and velocities.
struct StateContents {
  bool accelerations = true;  ///< StateView::a is filled
  bool multipliers = true;    ///< StateView::lambda is filled
};

/// The sensors of one run: columns, units and their evaluation at each output state.
class SensorSet {
 public:
  /// @param specs    the sensors (names, outputs, bodies, joints)
  /// @param kin      the run's body kinematics (kept by reference; the set updates it)
  /// @param initial  the initial (assembled) state: the reference of `displacement`
  /// @param contents what the solver's states carry; an output needing more is refused
  /// @throws std::invalid_argument naming the sensor for an unknown body or joint, or for an
  ///         output the states do not carry (e.g. reaction_force with rk4).
  SensorSet(std::vector<SensorSpec> specs, BodyKinematics& kin, const StateView& initial,
            StateContents contents = {});

  /// Column names without the time column ("tip.x", "tip.y", ...).
  const std::vector<std::string>& columns() const { return columns_; }
  /// Unit of each column ("m", "rad/s", ... ; "" where mixed or dimensionless).
  const std::vector<std::string>& units() const { return units_; }
  /// The sensors, and the sensor each column belongs to.
  const std::vector<SensorSpec>& specs() const { return specs_; }
  const std::vector<int>& column_sensor() const { return column_sensor_; }
  int size() const { return static_cast<int>(columns_.size()); }

  /// Writes size() values for state s (updates the kinematics). Not thread-safe.
  void evaluate(const StateView& s, std::span<double> out);

 private:
  struct Resolved {
    BodyIndex body = kGround;
    int joint = -1;
    Vec3 p0 = Vec3::Zero();  // displacement reference
  };
  std::vector<SensorSpec> specs_;
  std::vector<Resolved> resolved_;
  BodyKinematics& kin_;
  std::vector<std::string> columns_, units_;
  std::vector<int> column_sensor_;
};

}  // namespace mbdae::io
