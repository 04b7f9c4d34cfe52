#pragma once
/// @file ModelLoader.h
/// Reads a model file (YAML, and therefore JSON; the format is described in docs/model-format.md)
/// into a System, the solver settings, the output settings and the sensors.
///
/// Every key is checked: its type, its range, whether it is required, whether it is known, and
/// every reference to a body or joint by name. All problems of a file are collected and thrown
/// together as one LoadError, each with file, line, column and the path of the key. What a chosen
/// solver cannot handle (contacts without the impulse solver, joints with lie_rk4, spring-dampers
/// with the explicit solvers, sensors an explicit state cannot give) is an error that points at the
/// item, never ignored.

#include <string>
#include <vector>

#include <mbdae/io/Diagnostics.h>
#include <mbdae/model/System.h>
#include <mbdae/solvers/InitialPlacement.h>
#include <mbdae/solvers/Simulation.h>

namespace mbdae::io {

/// Limits of a model file, enforced with the defaults too (docs/model-format.md): the largest file
/// read, the most time steps of a fixed-step solver (end_time / step) and the most output rows
/// (end_time / output.every).
inline constexpr size_t max_model_file_bytes = size_t{64} << 20;
inline constexpr double max_steps = 1e9;
inline constexpr double max_output_rows = 1e7;


/// What a sensor measures (the `output:` key).
enum class SensorOutput {
  Position, Displacement, Velocity, VelocityLocal, RotationMatrix, Rotation,
  AngularVelocity, AngularVelocityLocal, Acceleration, AccelerationLocal,
  AngularAcceleration, AngularAccelerationLocal, ReactionForce, ReactionTorque,
  Energy, ConstraintViolation, JointAngle, JointDisplacement, SpringDamper, KineticEnergy, PotentialEnergy,
  LinearMomentum, AngularMomentum, JointMotor, Shaft, JointFriction, ControllerState, DriveEffort, CouplingEffort,
  CablePosition, CableSlope, CableCurvature, CableAxialForce,
};
/// The key word of the model file ("angular_velocity_local", ...).
const char* to_string(SensorOutput o);

/// A sensor as the model file states it. Body sensors use `body` and `point` (body axes, m,
/// relative to the reference point); joint sensors (reactions, joint coordinates) use `joint`
/// (and reactions `frame`); force-element sensors use `force`; system sensors (energy,
/// constraint_violation) use none; momentum sensors use `body` or none (the whole system).
struct SensorSpec {
  enum class Frame { World, Joint };
  std::string name;
  SensorOutput output = SensorOutput::Position;
  std::string body;
  std::string joint;
  std::string force;            ///< force-element sensors: the element's name
  std::string shaft;            ///< shaft sensors: the shaft's name
  std::string state;            ///< controller_state: the controller state's name
  std::string coupling;         ///< coupling_effort: the coupling's name
  std::string cable;            ///< cable outputs: the cable's name
  double at = 0;                ///< cable outputs: reference arc length from the cable's start, m
  Vec3 point = Vec3::Zero();
  Frame frame = Frame::World;  ///< reactions: world axes or the joint's axes
};

struct OutputSettings {
  std::string file;   ///< CSV path; empty: not given in the model (the command line picks one)
  double every = 1e-2;  ///< s, output interval
};

/// Where a named item of the model was defined.
struct SourceLocation {
  std::string name;      ///< the item's name
  std::string key_path;  ///< "bodies[2]"
  std::string file;      ///< the model file (or the --set override that defined the item)
  int line = 0, column = 0;
};

struct LoadedModel {
  std::string file;  ///< as given to the loader
  System system;
  /// The solver (settings.solver) and its settings: t_end, step, output_every, tolerances, and
  /// those of each solver family (SolverSettings.h).
  SimulationSettings settings;
  /// "generalized_alpha", ..., "rk4", "dopri5", "lie_rk4", "impulse" (to_string(settings.solver)).
  std::string solver_name() const;
  OutputSettings output;
  std::vector<SensorSpec> sensors;
  std::string description;
  /// The bodies placed from the joints' initial coordinates (placed = false if no joint has any):
  /// `system` is already the placed model.
  PlacementReport placement;
  /// The model file and every file its items read (table files, meshes), as opened: no output
  /// of a command may replace one of them (FilePolicy.h).
  std::vector<std::string> input_files;
  /// Locations of bodies[i], joints[i], forces[i], sensors[i] (same order as in the file).
  /// force_locations holds loads and force elements alike.
  std::vector<SourceLocation> body_locations, joint_locations, force_locations, sensor_locations;

  /// Where each item of `system` and each of `sensors` was defined, by its index in
  /// system.bodies(), joints(), loads(), forces(), contacts(), couplings() and in `sensors` (a sphere_plane
  /// contact is two shapes of system.contacts() at one place in the file).
  struct ItemLocations {
    std::vector<SourceLocation> bodies, joints, loads, forces, contacts, sensors, couplings, shafts, shaft_forces,
        states;
  };
  ItemLocations item_locations;

  /// Where `item` was defined; nullptr for Kind::None or an index the file did not define.
  const SourceLocation* find_location(const ItemRef& item) const;
  /// A diagnostic for a problem that the model, a formulation or a solver raised about an item
  /// (ModelError::details(), ItemError::item(), PreparedSystem::warning_items): at the item's
  /// place in the file, or at the file when it is about no item the file defined.
  Diagnostic locate(const ModelProblem& problem) const;
};

/// A `--set key=value` override: key is a dotted path with [i] indices ("solver.type",
/// "bodies[1].mass"), value is parsed as YAML ("ida", "2.5", "[0, 0, 1]").
struct Override {
  std::string key;
  std::string value;
};
/// Splits "key=value". @throws LoadError if there is no '=' or the key is empty.
Override parse_override(const std::string& argument);

/// Reads and checks a model file; overrides are applied before the checks.
/// @throws LoadError listing every problem (also for a file that cannot be read).
LoadedModel load_model_file(const std::string& path, const std::vector<Override>& overrides = {});

/// Same for text already in memory; `file_name` is used in the diagnostics.
LoadedModel load_model_text(const std::string& text, const std::string& file_name,
                            const std::vector<Override>& overrides = {});

}  // namespace mbdae::io
