#pragma once
/// @file Contact.h
/// Contact geometry and material of a body, as a user describes it. A `Contact` attaches one
/// shape to a body (or to "ground"); every pair of shapes on different bodies may touch. Which
/// pairs are handled, and how, is up to the formulation (ImpulseStepper: sphere–plane,
/// sphere–sphere, box–plane, capsule–plane, box–sphere).
///
/// Conventions: shapes are placed in the body frame (relative to the body's REFERENCE point, body
/// axes), like loads. A plane is a half-space: the solid side is behind the normal, n·x ≤ offset
/// with x in world coordinates when the plane is on ground; planes are only allowed on ground.
/// Material of a pair (as Box2D, Catto 2009): friction μ = √(μ_a μ_b), restitution
/// e = max(e_a, e_b), rolling resistance μ_r = max(μ_r,a, μ_r,b).

#include <string>
#include <vector>

#include <mbdae/model/Types.h>

namespace mbdae {

enum class ShapeType { Sphere, Box, Capsule, Plane };
const char* to_string(ShapeType t);

struct Contact {
  std::string name;
  std::string body = "ground";  ///< body name or "ground"
  ShapeType shape = ShapeType::Sphere;
  double radius = 0;              ///< m: sphere, capsule
  Vec3 half_extents = Vec3::Zero();  ///< m: box half sizes along the shape's x, y, z
  double half_length = 0;         ///< m: capsule, half the distance between the two cap centres (shape z axis)
  Vec3 position = Vec3::Zero();   ///< m: shape origin, body axes from the reference point
  Mat3 orientation = Mat3::Identity();  ///< shape axes in body axes
  Vec3 normal = Vec3::UnitZ();    ///< plane: outward unit normal, world (ground only)
  double offset = 0;              ///< plane: n·x = offset on the surface, m
  double friction = 0.5;          ///< Coulomb μ (sticking = sliding), ≥ 0
  double restitution = 0;         ///< Newton's e in [0, 1]
  double rolling_resistance = 0;  ///< μ_r ≥ 0 (dimensionless; torque ≤ μ_r r_eff λ_n)

  /// Radius of a sphere about the shape origin that contains the shape (planes: infinity).
  double bounding_radius() const;
};

/// Every problem of one contact description (empty if none), prefixed with "contact 'name': ".
std::vector<std::string> contact_problems(const Contact& c);

/// Convenience builders.
Contact make_sphere(const std::string& name, const std::string& body, double radius,
                    double friction = 0.5, double restitution = 0);
Contact make_box(const std::string& name, const std::string& body, const Vec3& half_extents,
                 double friction = 0.5, double restitution = 0);
Contact make_capsule(const std::string& name, const std::string& body, double radius,
                     double half_length, double friction = 0.5, double restitution = 0);
/// Ground plane n·x = offset (n normalised inside).
Contact make_plane(const std::string& name, const Vec3& normal, double offset, double friction = 0.5,
                   double restitution = 0);

}  // namespace mbdae
