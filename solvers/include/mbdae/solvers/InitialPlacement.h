#pragma once
/// @file InitialPlacement.h
/// Bodies placed from joint coordinates: the loader-side step that turns a model drawn in one
/// configuration, with initial joint coordinates (Joint::initial), into the same System a model
/// posed by hand at those coordinates is.
///
/// 1. The drawn configuration is the bodies' position/orientation and the joints' points and axes
///    as given; there every joint coordinate is 0.
/// 2. A spanning tree of the joints is walked from the ground (joints with initial coordinates
///    first, so that they are tree joints where they can be): body b of a tree joint gets body a's
///    displacement followed by the joint's relative motion (rotation about the joint point, then
///    translation along the axis), and a's velocity field plus the joint's relative rate. A body
///    none of whose tree path joints has initial coordinates keeps its pose and velocity.
/// 3. Closed loops (joints left out of the tree): a Gauss–Newton solve on all joint equations that
///    holds the given coordinates and rates of revolute and prismatic joints (as drive equations)
///    and moves the rest the least in the mass matrix's metric (AssemblyOptions::
///    mass_weighted_positions); the velocities likewise, by the least kinetic energy change. The
///    bodies off the loops are then placed by the walk from the assembled ones, so their given
///    coordinates hold exactly.
/// 4. Every body's pose and velocity become the placed ones, and every point, axis and frame that
///    the model states in world coordinates at t0 (joints, force elements) is carried with its body.
///
/// After it, each joint's relative coordinate (angle and displacement sensors, drives, couplings)
/// is measured from the placed configuration, as for a hand-posed model: it reads 0 at t0.

#include <string>
#include <vector>

#include <mbdae/model/System.h>

namespace mbdae {

/// Options of place_from_joint_coordinates().
struct PlacementOptions {
  double tolerance = 1e-13;  ///< on ‖C‖∞ of the loop closure (m, rad), and ‖Ċ‖∞ relative to max(1, ‖v‖∞)
  int max_iterations = 50;   ///< Gauss–Newton iterations, at most
};

/// How far the loop assembly moved one body from where the tree walk put it.
struct BodyMove {
  std::string body;             ///< its name
  double translation = 0;       ///< of its reference point, m
  double rotation = 0;          ///< angle of the rotation between the two orientations, rad
  double velocity = 0;          ///< |Δv| of its reference point, m/s
  double angular_velocity = 0;  ///< |Δω|, rad/s
};

/// A body whose pose and velocity follow from joint coordinates.
struct PlacedBody {
  BodyIndex body = 0;  ///< index in System::bodies()
  /// The joint with initial coordinates nearest to it on its tree path from the ground (index in
  /// System::joints()); for a body moved only by a loop closure, the loop's first such joint.
  int joint = -1;
};

/// What place_from_joint_coordinates() did.
struct PlacementReport {
  bool placed = false;          ///< some joint had initial coordinates (else nothing was changed)
  int bodies_placed = 0;        ///< bodies whose pose or velocity follows from joint coordinates
  std::vector<PlacedBody> bodies;  ///< those bodies, in index order
  /// The closed loops, each as the names of its joints (the joint left out of the tree last).
  std::vector<std::vector<std::string>> loops;
  int iterations = 0;           ///< Gauss–Newton iterations of the loop closure
  double position_residual_before = 0;  ///< ‖C‖∞ of the joint equations after the walk (m, rad)
  double position_residual_after = 0;   ///< after the loop closure
  double velocity_residual_before = 0;  ///< ‖Ċ‖∞ after the walk
  double velocity_residual_after = 0;   ///< after the closure
  std::vector<BodyMove> moved;  ///< bodies of the loops, what the closure changed
};

/// Places the bodies of `sys` (in place) from the initial coordinates of its joints (see the file
/// comment). Does nothing and returns placed = false if no joint has initial coordinates.
///
/// Initial coordinates are taken by revolute (angle, rate), prismatic (displacement, speed),
/// cylindrical (all four), spherical and universal joints (rotation, angular velocity; a
/// universal joint's rotation must keep the angle between its two axes). Bodies not connected to
/// the ground are walked from their first body, which keeps its pose and velocity.
///
/// @throws ModelError (each problem with its joint) for an invalid model (System::validate()), for
///         initial coordinates on a joint type that has none, together with `motion` or `speed`,
///         non-finite, a rotation that is not one (RᵀR ≠ I or det ≠ 1 beyond 1e-9) or not allowed
///         by its universal joint, and for initial coordinates of a cylindrical, spherical or
///         universal joint on a closed loop (only revolute and prismatic coordinates are held there).
/// @throws ItemError (item: the loop's first joint) if a loop cannot close: given coordinates
///         inconsistent with each other or outside the mechanism's reach. The message names the
///         loop's joints and the remaining residual; `sys` is then left unchanged.
PlacementReport place_from_joint_coordinates(System& sys, const PlacementOptions& opt = {});

/// True for the joint types that take initial coordinates: revolute, prismatic, cylindrical,
/// spherical, universal. No throw.
bool takes_initial_coordinates(JointType t);

/// The report as lines for a person ("placed 3 bodies from joint coordinates", "loop A, B, C, D
/// closed in 4 iterations: ‖C‖∞ 0.12 → 3e-16", "moved coupler 0.0412 m, 0.213 rad", ...); empty if
/// nothing was placed. No throw other than std::bad_alloc.
std::vector<std::string> describe(const PlacementReport& report);

}  // namespace mbdae
