#pragma once
/// @file ContactGeometry.h
/// Collision detection for the contact shapes of a model (model/Contact.h).
///
/// Geometry on its own: narrow_phase() takes two shapes at their world poses (PlacedShape) and
/// yields the contact points of the pair, with no body, material or solver in sight; it dispatches
/// through the registry of contact pair kinds (ContactPairs.h), whose unhandled kinds are refused
/// by name (contact_pair_problems()). GridBroadPhase finds the candidate pairs of a set of
/// bounding spheres on a uniform grid (cell = 2 × the largest bounding radius; each sphere meets
/// those of its own and its 26 neighbouring cells; a counting sort into a dense array of cells,
/// O(n), when the grid has at most 4 n + 1024 cells, else sorted cell keys, O(n log n)). Both the
/// impulse stepper (through ContactDetector, formulations/ContactDetector.h) and the penalty
/// contacts of MultibodySystem use these two, so both see the same contacts. This module
/// (mbdae::contact) depends on the model only, below both formulations. Planes (half-spaces, on ground or on a body) are tested
/// against every finite shape on another body.
///
/// Narrow phase per pair (the registry, contact/src/ContactPairs.cpp; NarrowPhase.cpp for the sources): plane with sphere, capsule (two cap
/// spheres), box (8 corners) and cylinder (the lowest rim point of each end, four rim points of an
/// end lying flat); sphere–sphere; box–sphere; box–box (separating axes, then the incident face
/// clipped against the reference face: up to 8 points; or one edge–edge point); box–capsule (the
/// two cap ends and the deepest point of the segment); capsule–capsule (closest points of the
/// segments; two points for parallel segments); capsule–sphere; cylinder–sphere; cylinder–capsule
/// (as box–capsule); box–cylinder and cylinder–cylinder (separating axes with exact separations
/// from the support functions; then the incident feature — a cylinder's end disc or generator —
/// clipped to the reference face: a box face or a cylinder's end disc, or the corner, edge, side or
/// rim points inside the other shape). Only plane–plane is not handled.
///
/// A contact point has a unit normal n pointing from body a to body b (a may be ground), a signed
/// distance `depth` (< 0: penetration) and the world point p midway between the two surfaces.
/// `feature` (0–255) identifies the point within the pair (box corner, capsule end, clipped face
/// point) so that impulses can be carried over from the previous step (warm start).

#include <cstdint>
#include <utility>
#include <vector>

#include <mbdae/model/Contact.h>
#include <mbdae/model/System.h>

namespace mbdae {

/// One contact point of a pair of shapes (see the file comment).
struct ContactPoint {
  int shape_a = -1;  ///< index of shape a in the model's contacts()
  int shape_b = -1;  ///< index of shape b in the model's contacts()
  BodyIndex a = kGround;  ///< body of shape a (kGround for ground)
  BodyIndex b = kGround;  ///< body of shape b
  int feature = 0;   ///< point within the pair (box corner 0–7, capsule end 0–1; else 0)
  Vec3 p = Vec3::Zero();  ///< world, m
  Vec3 n = Vec3::UnitZ(); ///< unit normal, from a to b
  double depth = 0;       ///< signed distance, m (< 0: penetration)
  double r_eff = 0;       ///< effective rolling radius, m (sphere-like contacts; 0 otherwise)
  double friction = 0;            ///< pair Coulomb μ (System::contact_friction_rule; default √(μ_a μ_b))
  double restitution = 0;         ///< pair e (System::contact_restitution_rule; default max(e_a, e_b))
  double rolling_resistance = 0;  ///< pair μ_r = max(μ_r,a, μ_r,b)
  double torsional_friction = 0;  ///< pair μ_t = max(μ_t,a, μ_t,b), m
  /// Key for matching across steps.
  std::uint64_t key() const {
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(shape_a)) << 40) ^
           (static_cast<std::uint64_t>(static_cast<std::uint32_t>(shape_b)) << 8) ^
           static_cast<std::uint64_t>(feature);
  }
};

/// A contact shape at a world pose, as the narrow phase needs it (no body, no material).
struct PlacedShape {
  ShapeType type = ShapeType::Sphere;  ///< which of the fields below apply
  double radius = 0;                   ///< m: sphere, capsule, cylinder
  double half_length = 0;              ///< m: capsule, cylinder (along the shape z axis)
  Vec3 half = Vec3::Zero();            ///< m: box half extents
  Vec3 normal = Vec3::UnitZ();         ///< plane: unit outward normal, shape axes
  double offset = 0;                   ///< plane: n·(x − c_W) = offset on the surface (shape axes), m
  const ConvexHull* hull = nullptr;    ///< convex_mesh: the polyhedron, shape axes (owned by the Contact)
  Vec3 c_W = Vec3::Zero();             ///< shape origin, world, m
  Mat3 R_WS = Mat3::Identity();        ///< shape axes in world axes
};

/// The geometric part of a ContactPoint, as the narrow phase yields it.
struct PairPoint {
  Vec3 p = Vec3::Zero();   ///< world, m
  Vec3 n = Vec3::UnitZ();  ///< unit normal from shape a to shape b
  double depth = 0;        ///< signed distance, m
  int feature = 0;         ///< point within the pair
  double r_eff = 0;        ///< effective rolling radius, m
};

/// Largest number of points narrow_phase() yields for one pair (the 8 corners of a box, the
/// clipped face of a box on a box).
inline constexpr int kMaxPairPoints = 8;

/// The shape of contact c at the pose it has in its body frame (c_W = c.position, R_WS =
/// c.orientation; a ground shape keeps it as its world pose). The plane normal is normalised
/// (a zero normal becomes +z; contact_problems() reports it). No throw.
PlacedShape placed_shape(const Contact& c);

/// Narrow phase of one pair: orders it as its kind in the registry (ContactPairs.h: shape a is the
/// plane, else the box, the cylinder, the capsule, the first sphere; `swapped` is set when a is
/// s2), writes every point with depth < margin to out[0..k) and returns k ≤ kMaxPairPoints. A kind
/// that is not handled yields none (models with one are refused before: contact_pair_problems()).
/// No allocation, no throw.
int narrow_phase(const PlacedShape& s1, const PlacedShape& s2, double margin, PairPoint* out,
                 bool& swapped);

/// Order of shapes in a pair for narrow_phase(): plane 0, box 1, cylinder 2, capsule 3, sphere 4.
int shape_order(ShapeType t);
/// Whether narrow_phase() handles the pair (x, y), in either order (ContactPairs.h). No throw.
bool narrow_phase_handles(ShapeType x, ShapeType y);

/// Whether a plane shape at its world pose (PlacedShape of a plane) may touch a shape whose
/// bounding sphere (centre c, radius bound, world, m) is given, within margin (m). No throw.
bool plane_may_touch(const PlacedShape& plane, const Vec3& c, double bound, double margin);

/// The uniform-grid broad phase (see the file comment), a reusable workspace: not for concurrent use.
class GridBroadPhase {
 public:
  /// Every pair (i, j), i < j, of spheres (centres c, world, m; radii r, m) in different groups
  /// (group[i] ≠ group[j]: shapes of one body never collide) whose distance is below r_i + r_j +
  /// max(margin, 0), into `pairs` (cleared first; capacity kept). Non-finite positions yield no
  /// pairs. Sizes of c, r and group equal. No throw other than std::bad_alloc.
  void find_pairs(const std::vector<Vec3>& c, const std::vector<double>& r, const std::vector<int>& group,
                  double margin, std::vector<std::pair<int, int>>& pairs);
  /// Reserves the buffers for n spheres, so that find_pairs() on at most n spheres allocates
  /// nothing (the pairs vector is the caller's).
  void reserve(size_t n);

 private:
  std::vector<std::pair<std::uint64_t, int>> cells_;
  std::vector<int> cell_start_, cell_items_;
  std::vector<std::uint64_t> item_cell_;
};

}  // namespace mbdae
