#pragma once
/// @file ContactGeometry.h
/// Collision detection for the contact shapes of a model (model/Contact.h) on Newton–Euler bodies:
/// a broad phase on a uniform grid (cell = 2 × the largest bounding radius of the finite shapes;
/// each shape meets the shapes of its own and its 26 neighbouring cells). The shapes are bucketed
/// by a counting sort into a dense array of cells (O(n) for n shapes, buffers reused between
/// calls) when the grid has at most 4 n + 1024 cells, else sorted by cell key (O(n log n)); ground
/// planes are tested against every shape. Narrow phase: sphere–plane, sphere–sphere, box–plane (8 corners),
/// capsule–plane (2 cap spheres), box–sphere. Other pairs are ignored.
///
/// A contact point has a unit normal n pointing from body a to body b (a may be ground), a signed
/// distance `depth` (< 0: penetration) and the world point p midway between the two surfaces.
/// `feature` identifies the point within the pair (box corner, capsule end) so that impulses can
/// be carried over from the previous step (warm start).

#include <cstdint>
#include <vector>

#include <mbdae/formulations/NewtonEuler.h>
#include <mbdae/model/Contact.h>

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
  double friction = 0;            ///< pair Coulomb μ = √(μ_a μ_b)
  double restitution = 0;         ///< pair e = max(e_a, e_b)
  double rolling_resistance = 0;  ///< pair μ_r = max(μ_r,a, μ_r,b)
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
  double radius = 0;                   ///< m: sphere, capsule
  double half_length = 0;              ///< m: capsule
  Vec3 half = Vec3::Zero();            ///< m: box half extents
  Vec3 normal = Vec3::UnitZ();         ///< plane: unit outward normal, world
  double offset = 0;                   ///< plane: n·x = offset on the surface, m
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

/// Largest number of points narrow_phase() yields for one pair (the 8 corners of a box).
inline constexpr int kMaxPairPoints = 8;

/// The shape of contact c at the pose it has in its body frame (c_W = c.position, R_WS =
/// c.orientation; a ground shape keeps it as its world pose). The plane normal is normalised
/// (a zero normal becomes +z; contact_problems() reports it). No throw.
PlacedShape placed_shape(const Contact& c);

/// Narrow phase of one pair: orders it (shape a is the plane, else the box, else the capsule,
/// else the first sphere; `swapped` is set when a is s2), writes every point with depth < margin
/// to out[0..k) and returns k ≤ kMaxPairPoints. Pairs that are not handled (box–box,
/// capsule–sphere, …) yield none. No allocation, no throw.
int narrow_phase(const PlacedShape& s1, const PlacedShape& s2, double margin, PairPoint* out,
                 bool& swapped);

/// Order of shapes in a pair for narrow_phase(): plane 0, box 1, capsule 2, sphere 3.
int shape_order(ShapeType t);
/// Whether narrow_phase() handles the pair (x, y), in either order: a plane with any other shape,
/// sphere–sphere and box–sphere. No throw.
bool narrow_phase_handles(ShapeType x, ShapeType y);

/// Broad and narrow phase for the shapes of sys.model().contacts(). Keeps a reference to `sys`,
/// which must outlive the detector. detect() reuses internal buffers: not for concurrent use.
class ContactDetector {
 public:
  /// Checks every contact description (throws ModelError listing all problems).
  /// @throws ModelError if a contact is invalid (contact_problems()) or names an unknown body.
  explicit ContactDetector(const NewtonEulerSystem& sys);

  /// Number of shapes (= the model's contacts().size()).
  int num_shapes() const { return static_cast<int>(shapes_.size()); }
  /// All contact points with depth < margin at the positions q (NewtonEuler layout). `out` is
  /// cleared and refilled; its capacity is kept between calls. q has size 7 n; margin in m.
  void detect(const VecX& q, double margin, std::vector<ContactPoint>& out);
  /// Candidate pairs of the last broad phase (for statistics).
  long last_pair_count() const { return pairs_; }

 private:
  struct Shape {
    int index;
    BodyIndex body;
    Vec3 pos_B;  ///< shape origin relative to the COM, body axes
    Mat3 R_BS;
    double bound;
    PlacedShape g;  ///< geometry with the world pose at the current detection
  };
  void narrow(const Shape& s1, const Shape& s2, double margin, std::vector<ContactPoint>& out) const;

  const NewtonEulerSystem& sys_;
  std::vector<Shape> shapes_;
  std::vector<int> planes_, finite_;
  /// Largest grid (cells) bucketed densely; larger grids use the sorted keys of cells_.
  size_t dense_cell_limit() const { return 4 * finite_.size() + 1024; }
  std::vector<std::pair<std::uint64_t, int>> cells_;
  std::vector<int> cell_start_, cell_items_;
  std::vector<std::uint64_t> shape_cell_;
  long pairs_ = 0;
};

}  // namespace mbdae
