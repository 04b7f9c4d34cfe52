// The joint types, one line each (no include guard: read with MBDAE_JOINT_TYPE defined).
// MBDAE_JOINT_TYPE(Enumerator, factory): `JointType::Enumerator` and the function
// `joints::factory()` of model/src/joints/ that returns its JointTypeInfo. This list makes the
// enumerators of JointType, the factories' declarations and the registry's table, in this order:
// adding a joint type is its source file and one line here (docs/architecture.md).
MBDAE_JOINT_TYPE(Spherical, spherical)        // point coincides (3)
MBDAE_JOINT_TYPE(Revolute, revolute)          // point coincides, rotation only about `axis` (5; 6 if driven)
MBDAE_JOINT_TYPE(Prismatic, prismatic)        // translation only along `axis`, no relative rotation (5; 6 if driven)
MBDAE_JOINT_TYPE(Fixed, fixed)                // no relative motion (6)
MBDAE_JOINT_TYPE(Generic, generic)            // the `constrained` subset of [x, y, z, rx, ry, rz] in `frame` (0–6)
MBDAE_JOINT_TYPE(Distance, distance)          // distance between `point` on a and `point_b` on b is held (1)
MBDAE_JOINT_TYPE(Cylindrical, cylindrical)    // translation along and rotation about `axis` (4)
MBDAE_JOINT_TYPE(Universal, universal)        // Cardan: point coincides, `axis` (on a) keeps its angle to `axis_b` (on b) (4)
MBDAE_JOINT_TYPE(Planar, planar)              // b moves in the plane ⊥ `axis` and rotates only about it (3)
MBDAE_JOINT_TYPE(RollingDisc, rolling_disc)   // disc on a plane, rolling without slip (1 position + 2 velocity-level rows)
MBDAE_JOINT_TYPE(Coordinate, coordinate)      // one world coordinate of b's marker relative to a's is held at `offset` (1)
MBDAE_JOINT_TYPE(Inline, inline_joint)        // b's point stays on the line through a's point along `axis` (2)
MBDAE_JOINT_TYPE(Inplane, inplane)            // b's point stays in the plane through a's point normal to `axis` (1)
MBDAE_JOINT_TYPE(Orientation, orientation)    // no relative rotation, any translation (3)
MBDAE_JOINT_TYPE(ParallelAxes, parallel_axes) // b's copy of `axis` stays parallel to a's (2)
MBDAE_JOINT_TYPE(Perpendicular, perpendicular)  // `axis_b` (on b) stays perpendicular to `axis` (on a) (1)
