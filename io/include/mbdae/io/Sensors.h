#pragma once
/// @file Sensors.h
/// Evaluation of the model's sensors from a solver state: the columns of the results.
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
/// | energy                      | (name)              | J         | kinetic + gravity        |
/// | constraint_violation        | .position .velocity | mixed     | ‖C‖∞, ‖C_q v + C_t‖∞     |
///
/// The reaction is the wrench the joint applies to its second body at the joint point.
/// Accelerations and reactions are NaN when the solver does not provide accelerations or
/// multipliers.

#include <span>
#include <string>
#include <vector>

#include <mbdae/formulations/Multibody.h>
#include <mbdae/formulations/NewtonEuler.h>
#include <mbdae/io/ModelLoader.h>
#include <mbdae/solvers/SolverCommon.h>

namespace mbdae::io {

class SensorSet {
 public:
  /// @param q0 the initial (assembled) coordinates: the reference of `displacement`.
  /// @throws std::invalid_argument if a sensor names a body or joint the system does not have.
  SensorSet(std::vector<SensorSpec> specs, const MultibodySystem& system, const VecX& q0);

  /// Column names without the time column ("tip.x", "tip.y", ...).
  const std::vector<std::string>& columns() const { return columns_; }
  /// Unit of each column ("m", "rad/s", ... ; "" where mixed or dimensionless).
  const std::vector<std::string>& units() const { return units_; }
  /// Index of the first column of each sensor, and the sensor each column belongs to.
  const std::vector<SensorSpec>& specs() const { return specs_; }
  const std::vector<int>& column_sensor() const { return column_sensor_; }
  int size() const { return static_cast<int>(columns_.size()); }

  /// Writes size() values for state s. Not thread-safe (uses a workspace).
  void evaluate(const StateView& s, std::span<double> out) const;

 private:
  struct Resolved {
    BodyIndex body = kGround;
    int joint = -1;
    Vec3 p0 = Vec3::Zero();  // displacement reference
  };
  std::vector<SensorSpec> specs_;
  std::vector<Resolved> resolved_;
  const MultibodySystem& system_;
  std::vector<std::string> columns_, units_;
  std::vector<int> column_sensor_;
  mutable VecX c_, cv_;
};

/// Positions in the Lie-group layout (LieGroupBodies.h: [x_C, rotation vector], 6 per body) to the
/// Newton–Euler layout (NewtonEuler.h: [x_C, Q], 7 per body); q_ne is resized. No throw.
void lie_group_to_newton_euler(const VecX& q_lie, VecX& q_ne);

/// The sensors of a run on the explicit or impulse path (solver.type rk4, dopri5, lie_rk4,
/// impulse): positions and velocities only. The outputs position, displacement, velocity,
/// velocity_local, rotation_matrix, rotation, angular_velocity, angular_velocity_local, energy
/// (kinetic + gravity potential) and constraint_violation (‖C‖∞ and ‖J u‖∞ of the joints) are
/// available; accelerations and reactions are not (the loader rejects them for these solvers).
class ExplicitSensorSet {
 public:
  /// The layout of the states handed to evaluate(): NewtonEuler.h (q = [x_C, Q] 7 per body,
  /// v = [v_C, w_B]) or LieGroupBodies.h (q = [x_C, rotation vector] 6 per body, v = [v_C, w_B]).
  enum class Layout { NewtonEuler, LieGroup };
  /// `system` supplies masses, COM offsets and joints; q0, v0 the initial state in `layout`.
  /// @throws std::invalid_argument for a sensor this path cannot evaluate or an unknown name.
  ExplicitSensorSet(std::vector<SensorSpec> specs, const NewtonEulerSystem& system, Layout layout,
                    const VecX& q0);

  const std::vector<std::string>& columns() const { return columns_; }
  const std::vector<std::string>& units() const { return units_; }
  const std::vector<SensorSpec>& specs() const { return specs_; }
  const std::vector<int>& column_sensor() const { return column_sensor_; }
  int size() const { return static_cast<int>(columns_.size()); }

  /// Writes size() values for state s. Not thread-safe (uses a workspace).
  void evaluate(const StateView& s, std::span<double> out) const;

 private:
  /// s.q, s.v in the Newton–Euler layout (copies for the Lie-group layout).
  void to_newton_euler(const StateView& s) const;
  Vec3 point_position(BodyIndex b, const Vec3& p) const;
  std::vector<SensorSpec> specs_;
  std::vector<BodyIndex> body_;
  std::vector<Vec3> p0_;
  const NewtonEulerSystem& system_;
  Layout layout_;
  std::vector<std::string> columns_, units_;
  std::vector<int> column_sensor_;
  mutable VecX q_, v_, c_, cv_;
};

}  // namespace mbdae::io
