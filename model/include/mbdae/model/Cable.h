#pragma once
/// @file Cable.h
/// Flexible cables of the model: planar ANCF cable elements (absolute nodal coordinates: each
/// node's position r and slope r' = ∂r/∂x, x the arc length of the straight reference line).
/// The equations and their sources are in formulations/AncfCable2D.h; the model-file keys in
/// docs/flexible.md ("Cables and beams (ANCF)").

#include <string>
#include <vector>

#include <mbdae/model/Types.h>

namespace mbdae {

/// A support of a cable node: the node held to the ground or to a point of a rigid body.
struct CableSupport {
  /// What the support holds.
  enum class Kind {
    Pinned,   ///< the node's position (2 equations): a revolute joint about the world z axis
    Clamped,  ///< its position and its slope's direction (3 equations): a weld
  };
  Kind kind = Kind::Pinned;  ///< see above
  int node = 0;              ///< 0 … segments (0: the start, segments: the end)
  /// "ground" or a rigid body: the body point is where the node is at t0 (fixed in the body's
  /// axes then) and, when clamped, the direction of the slope at t0 is fixed in the body's axes.
  std::string body = "ground";
};

/// A point force on a cable node, world axes (x, y; z must be 0), N, constant.
struct CableNodeForce {
  int node = 0;                ///< 0 … segments
  Vec3 force = Vec3::Zero();  ///< N, world
};

/// A planar ANCF cable (Euler–Bernoulli: axial and bending strain; no shear, no rotary inertia)
/// in the world x-y plane through `start`, straight and unstressed at t0 from `start` to `end`,
/// divided into `segments` equal elements of two nodes each.
struct Cable {
  std::string name;                ///< unique among the cables, not "ground"
  Vec3 start = Vec3::Zero();       ///< first node at t0, world, m
  Vec3 end = Vec3::UnitX();        ///< last node at t0, world, m (same z as start)
  int segments = 1;                ///< elements, 1 … 10000
  double E = 0;                    ///< Young's modulus, Pa, > 0
  double A = 0;                    ///< cross-section area, m², > 0
  double I = 0;                    ///< second moment of area about the axis normal to the plane, m⁴, > 0
  double rho = 0;                  ///< density, kg/m³, > 0
  /// Kelvin–Voigt material damping, s, ≥ 0: axial force N = EA (ε + d ε̇) and bending moment
  /// M = EI (κ + d κ̇); in the linear limit the damping matrix is d K (stiffness-proportional).
  double damping = 0;
  Vec3 load = Vec3::Zero();        ///< distributed load per unit reference length, N/m, world (z = 0)
  std::vector<CableSupport> supports;    ///< supports at nodes
  std::vector<CableNodeForce> node_forces;  ///< point forces at nodes
  Vec3 velocity = Vec3::Zero();    ///< every node's velocity at t0, m/s, world (z = 0)
};

class System;
/// Every problem of cable c of `system` (its name, sizes, material, nodes, bodies, the plane and
/// gravity in it), one message each ("cable 'rope': ..."). Empty if none. No throw other than
/// std::bad_alloc.
std::vector<std::string> cable_problems(const System& system, const Cable& c);

}  // namespace mbdae
