#pragma once
/// @file Loader.h
/// The model loader's sections (internal to mbdae::io). The loader walks the YAML tree along the
/// schema, never generically, so a hostile file cannot make it recurse deeply; it records every
/// problem with its place and builds the model only from what it checked. One source file per
/// section, each defining its member functions here:
///
/// | file          | reads                                        | fills                               |
/// |---------------|----------------------------------------------|-------------------------------------|
/// | Loader.cpp    | the document, the top-level keys             | calls the sections in order; then   |
/// |               |                                              | System::check() on the built model  |
/// | Overrides.cpp | --set key=value                              | the tree, before any check          |
/// | Bodies.cpp    | bodies                                       | System bodies                       |
/// | Joints.cpp    | joints (and their motion)                    | System joints                       |
/// | Placement.cpp | joints' `initial`; bodies placed from them   | System bodies, joints, forces       |
/// | Shafts.cpp    | shafts, shaft_forces (1-D drivetrains)       | System shafts and shaft forces      |
/// | Cables.cpp    | cables (flexible ANCF cables)                | System cables                       |
/// | Couplings.cpp | couplings (gears, rack and pinion, belt, …)  | System couplings                    |
/// | Forces.cpp    | forces: loads and force elements             | System loads and force elements     |
/// | Contacts.cpp  | contacts, contact_penalty, contact_material  | System contacts                     |
/// | Sensors.cpp   | sensors                                      | LoadedModel::sensors                |
/// | Solver.cpp    | solver; what the chosen solver cannot handle | settings                            |
/// | Output.cpp    | output                                       | LoadedModel::output                 |
///
/// Sections run in the order of that table (solver before sensors, which depend on it), so a
/// section may use what an earlier one recorded (the body and joint names, the solver).

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "Schema.h"

#include <array>

#include <mbdae/io/Quantities.h>
#include <mbdae/model/ConvexHull.h>

namespace mbdae::io::loader {

/// Where an item that not every solver supports is, for the checks after `solver`.
struct Placed {
  YAML::Mark mark;
  std::string path;
};

/// Where a second YAML document starts in `text` (after a '---', or a stray token after the
/// first), nullopt if there is none. @throws YAML::Exception for a syntax error.
std::optional<YAML::Mark> second_document(const std::string& text);

class Loader : public Reader {
 public:
  using Reader::Reader;
  /// Reads the document, applies the overrides, reads every section, runs the model checks.
  /// @throws LoadError with every problem found.
  LoadedModel load(const std::vector<Override>& overrides);

 private:
  /// Parses text() into one YAML document. @throws LoadError for a file that is not one.
  YAML::Node read_document() const;
  void apply_overrides(YAML::Node& root, const std::vector<Override>& overrides);
  void bodies(const YAML::Node& n);
  void joints(const YAML::Node& n);
  /// The `modal_bodies` section (ModalBodies.cpp), after `bodies`: each adds its reference frame's body.
  void modal_bodies(const YAML::Node& n);
  /// Modal bodies run on the implicit solvers only (after the solver section).
  void modal_body_checks();
  void couplings(const YAML::Node& n);
  void shafts(const YAML::Node& n);
  void shaft_forces(const YAML::Node& n);
  /// The `cables` section (Cables.cpp): after bodies, whose names its supports take.
  void cables(const YAML::Node& n);
  /// The `states` section (controller states); before `forces`, whose joint motors read them.
  void states(const YAML::Node& n);
  /// Adds the function state(name) of the model's controller states to `resolver`.
  void add_state_function(QuantityResolver& resolver) const;
  /// Notes every item of the sensors section by name (before the sections whose expressions may
  /// read them; the section itself is read last, after the solver).
  void sensor_prepass(const YAML::Node& n);
  /// Adds the function sensor(name) (and sensor(name).c) of the sensors section to `resolver`
  /// (io::sensor_quantity). `in_states`: for the states section, read before every force element.
  void add_sensor_function(QuantityResolver& resolver, bool in_states) const;
  std::optional<TimeFunction> motion(const YAML::Node& n, const std::string& path);
  /// A joint's `initial:` (its keys by joint type) into j.initial (Placement.cpp).
  void joint_initial(const YAML::Node& n, const std::string& path, JointType type, Joint& j);
  /// The bodies placed from the joints' initial coordinates, after the model checks
  /// (Placement.cpp): a body velocity given where the walk sets it, a loop that cannot close.
  void placement();
  /// Refuses, at the joint's `initial` key, each element that reads at position level the
  /// coordinate of a joint started away from its drawn zero (Placement.cpp). True if none did.
  bool position_readers_of_started_joints();
  void forces(const YAML::Node& n);
  void force_element(Map& f, const std::string& type, const std::string& name);
  bool joint_motor(Map& f, ForceElement& fe);
  /// Rules of an expression of t and the named quantities `resolver` knows (`what` for messages).
  QuantityRules state_rules(const QuantityResolver& resolver, const std::string& what);
  /// A joint_motor whose value names quantities beyond its joint's: a user law over more bodies.
  /// false (and fe unchanged) if one of the joint's bodies is unknown (reported at the joint).
  bool motor_of_state(ForceElement& fe, std::vector<Quantity> quantities, Expression value) const;
  /// The user force element a load that depends on the state becomes.
  static ForceElement state_load(const Load& l, std::array<Expression, 3> value, const QuantityResolver& resolver);
  const Joint* element_joint(Map& f, ForceElement& fe, bool cylindrical);
  /// Every key of the forces section (loads and force element types).
  static const std::vector<std::string>& force_section_keys();
  bool pair_bodies(const Entry* e, const std::string& path, std::vector<std::string>& out);
  void contacts(const YAML::Node& n);
  /// The convex hull of the mesh that the mapping `m` names (keys `file`, relative to the model
  /// file's folder, `scale` and `convex_hull`; see docs/model-format.md), shared between the items
  /// that name the same file and scale; nullptr (and problems at the keys) if it cannot be made.
  std::shared_ptr<const ConvexHull> convex_mesh(Map& m);
  void contact_material(const YAML::Node& n);
  std::optional<PenaltyParameters> penalty(const YAML::Node& n, const std::string& path);
  void sensors(const YAML::Node& n);
  void solver(const YAML::Node& n);
  void output(const YAML::Node& n);
  /// What the chosen solver cannot handle, pointed at the item (after every section).
  void solver_checks();
  /// System::check() on the built model: what the sections did not already report.
  void model_checks();
  /// The step and row limits where step or output.every take their defaults (at solver.end_time).
  void limit_checks();

  LoadedModel m_;
  /// Records where the next item of `kind` in the System (or the next sensor) was defined, and
  /// whether its section found problems in it (then model_checks() does not repeat them).
  void add_item(ItemRef::Kind kind, const SourceLocation& where, bool had_problems);

  /// The names a body, joint, force element, shaft, coupling or controller state reference may
  /// take (ground first among the bodies), for "did you mean" (Suggest.h).
  std::vector<std::string> body_list() const;
  std::vector<std::string> joint_list() const;
  std::vector<std::string> force_list() const;
  std::vector<std::string> shaft_list() const;
  std::vector<std::string> coupling_list() const;
  std::vector<std::string> state_list() const;

  std::map<std::string, size_t> body_names_;   // name -> index in bodies
  std::map<std::string, size_t> joint_names_;  // name -> index in joints
  std::map<std::string, std::pair<YAML::Node, std::string>> sensor_items_;  // name -> (item, path), first of a name
  std::set<std::string> force_names_;   // every name of the forces section
  std::set<std::string> forces_done_;   // the names of the forces section read so far
  std::set<std::string> forces_with_problems_;  // force elements not built for their reported problems
  std::string defining_force_;          // the force item being read (its name)
  std::set<ItemRef> items_with_problems_;
  bool have_end_time_ = false;
  YAML::Mark end_time_mark_ = YAML::Mark::null_mark();
  bool step_given_ = false, every_given_ = false;
  std::optional<Placed> first_joint_;
  /// Per body: where its velocity, angular_velocity or angular_velocity_local was given (the first).
  std::vector<std::optional<Placed>> body_velocity_;
  std::vector<std::pair<YAML::Mark, std::string>> modal_marks_;  // where each modal body is defined
  std::map<std::string, Placed> joint_initial_;  // joint name -> its `initial` key
  /// joint_motor elements (index in System::forces()) whose own law reads its joint's angle() or
  /// displacement(): that function's name.
  std::map<size_t, std::string> motor_position_reads_;
  std::vector<Placed> driven_joints_, force_elements_, contacts_, couplings_, states_;
  std::vector<Placed> reaction_friction_;  // joint_friction items with `normal: reaction`, at that key
  std::vector<Placed> shafts_;  // shafts and shaft forces
  std::vector<Placed> cables_;  // flexible cables
  std::vector<Placed> contact_items_;  // the item of each of m_.system.contacts()
  bool contact_penalty_given_ = false;  // a contact_penalty block, valid or not
  std::map<std::string, std::shared_ptr<const ConvexHull>> meshes_;  // by resolved file and scale
  bool solver_ok_ = true;
  YAML::Mark solver_type_mark_ = YAML::Mark::null_mark();
};

}  // namespace mbdae::io::loader
