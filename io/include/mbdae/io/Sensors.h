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
/// | joint_angle                 | (name) .rate        | rad, rad/s| about the joint axis     |
/// | joint_displacement          | (name) .rate        | m, m/s    | along the joint axis     |
/// | spring_damper               | .force .length .speed | N, m, m/s | tension positive       |
/// | kinetic_energy              | (name)              | J         | Σ ½ m v_C² + ½ ωᵀ J_C ω  |
/// | potential_energy            | (name)              | J         | gravity + springs        |
/// | linear_momentum             | .x .y .z            | kg m/s    | world; a body or all     |
/// | angular_momentum            | .x .y .z            | kg m^2/s  | world, about the origin  |
/// | shaft                       | (name) .rate        | rad or m  | a 1-D shaft's coordinate |
/// | joint_motor                 | .effort .power      | N m or N, W | about/along the axis   |
/// | controller_state            | (name)              | its own   | z of a controller state  |
/// | drive_effort                | (name) .power       | N m or N, W | a driven joint's drive   |
///
/// The reaction is the wrench the joint applies to its second body at the joint point.
/// Joint coordinates are measured between the joint's two markers (fixed to its bodies, both at
/// the joint point and along its axis at t0), so they are 0 at t0 and work on every solver; the
/// angle counts turns: it is continued from the previous evaluation (the output interval must be
/// short enough that the joint turns less than half a turn between two rows).

#include <span>
#include <string>
#include <vector>

#include <optional>

#include <mbdae/formulations/BodyKinematics.h>
#include <mbdae/io/ModelLoader.h>
#include <mbdae/io/Quantities.h>
#include <mbdae/solvers/SolverCommon.h>

namespace mbdae::io {

/// What a sensor output is attached to.
enum class SensorTarget {
  Body,          ///< `body` (and `point`)
  Joint,         ///< `joint` (and `frame` for reactions)
  System,        ///< the whole model
  Force,         ///< `force`: a force element
  BodyOrSystem,  ///< `body`, or without it the whole model
  Shaft,         ///< `shaft`: a 1-D shaft (System::shafts())
  State,         ///< `state`: a controller state (System::controller_states())
  Coupling,      ///< `coupling`: a coupling of joint or shaft coordinates (System::couplings())
  Cable,         ///< `cable` and `at`: a point of a flexible cable (System::cables())
};

/// What a sensor's evaluation knows besides the state: its resolved item and what it keeps
/// between evaluations. Built by SensorSet.
struct SensorContext {
  BodyIndex body = kGround;  ///< body outputs (kGround: the whole system for BodyOrSystem)
  int joint = -1;            ///< joint outputs: index in model().joints()
  int force = -1;            ///< force-element outputs: index in model().forces()
  int shaft = -1;            ///< shaft outputs: index in model().shafts()
  int state = -1;            ///< controller_state: index in model().controller_states()
  int coupling = -1;         ///< coupling_effort: index in model().couplings()
  int cable = -1;            ///< cable outputs: index in model().cables()
  Vec3 p0 = Vec3::Zero();    ///< the body point's initial position (displacement)
  /// Joint and force-element outputs: the two bodies (a, b), each one's marker point and marker
  /// frame in its body axes (world for ground). The frames' z axis is the joint's axis.
  BodyIndex a = kGround, b = kGround;
  Vec3 point_a = Vec3::Zero(), point_b = Vec3::Zero();
  Mat3 frame_a = Mat3::Identity(), frame_b = Mat3::Identity();
  double rest_length = 0;    ///< spring_damper: L0, m
  double last_angle = 0;     ///< joint_angle, joint_motor: the previous angle (turn counting)
  bool started = false;      ///< joint_angle, joint_motor: last_angle is set
  std::vector<double> states;  ///< joint_motor: scratch for the controller states its law reads
};

/// Everything about one sensor output, in one place (sensor_outputs()).
struct SensorOutputInfo {
  SensorOutput output;              ///< the enumerator
  const char* name;                 ///< model-file key word ("angular_velocity_local")
  const char* unit;                 ///< of every column ("" where mixed or dimensionless), unless `units`
  SensorTarget target;              ///< body, joint, force element, system
  bool uses_point;                  ///< body outputs: depends on the body point (`point` key)
  std::vector<const char*> suffixes;  ///< column suffixes after the sensor's name ("" for one column)
  bool needs_accelerations;         ///< the solver must hand out accelerations
  bool needs_multipliers;           ///< the solver must hand out Lagrange multipliers
  const char* description;          ///< one line for docs and messages
  /// Writes suffixes.size() values: kin is updated with the state; ctx holds the resolved item.
  void (*evaluate)(BodyKinematics& kin, const SensorSpec& spec, SensorContext& ctx, std::span<double> out);
  /// The unit of each column where they differ (same size as suffixes); empty: `unit` for all.
  std::vector<const char*> units = {};
  /// Joint outputs: whether the output applies to a joint of type t (nullptr: every type), and
  /// which types it applies to, for messages ("revolute or cylindrical").
  bool (*accepts_joint)(JointType t) = nullptr;
  const char* joint_types = "";
  /// Force-element outputs: whether it applies to an element of type t, and which, for messages.
  bool (*accepts_force)(ForceType t) = nullptr;
  const char* force_types = "";
  /// Takes the `frame: world | joint` key (reactions).
  bool takes_frame = false;
  /// Where a column's unit depends on the item (a joint motor's torque or force): the unit of
  /// column k for the resolved item c, or nullptr for column_unit(k). nullptr: never.
  const char* (*item_unit)(const System& model, const SensorContext& c, size_t k) = nullptr;
  /// The unit of column k. No throw for k < suffixes.size().
  const char* column_unit(size_t k) const { return units.empty() ? unit : units[k]; }
};

/// Every sensor output, in the order of the SensorOutput enumerators.
const std::vector<SensorOutputInfo>& sensor_outputs();
/// The row of `o`. No throw.
const SensorOutputInfo& sensor_output_info(SensorOutput o);

/// Sensor `spec` of `model` read in an expression, sensor(name) or sensor(name).c (`q`): the
/// value of its column name + "." + c (name alone: its one column, or the first of joint_angle,
/// joint_displacement, shaft) from the motions of the bodies it reads, by the output's own
/// evaluation (the table above), so it equals the column of the results at the same state.
/// Outputs that are functions of the bodies' positions and velocities only: the body outputs but
/// displacement (its reference is the assembled initial state) and the accelerations; joint_angle,
/// joint_displacement; spring_damper, joint_friction, joint_motor (a motor without controller
/// states); linear_momentum and angular_momentum of a body. The quantity keeps what it reads (a
/// copy of the bodies and of the force element), not `model`.
/// @return std::nullopt with `problem` (offset in the expression's text) for any other output
///         (saying why), a component the output does not have, or a missing one where it has several.
std::optional<Quantity> sensor_quantity(const System& model, const SensorSpec& spec, const ExpressionQuantity& q,
                                        QuantityProblem& problem);

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
  /// @throws std::invalid_argument naming the sensor for an unknown body, joint or force element,
  ///         a joint or element of a type the output does not apply to, or an output the states do
  ///         not carry (e.g. reaction_force with rk4).
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

  /// What the sensors carry from one evaluation to the next (the turn count of joint angles): two
  /// numbers a sensor, for restart files.
  std::vector<double> memory() const;
  /// Restores memory(). @throws std::invalid_argument if its size is not 2 × the sensors.
  void set_memory(const std::vector<double>& m);

 private:
  std::vector<SensorSpec> specs_;
  std::vector<SensorContext> resolved_;
  BodyKinematics& kin_;
  std::vector<std::string> columns_, units_;
  std::vector<int> column_sensor_;
};

}  // namespace mbdae::io
