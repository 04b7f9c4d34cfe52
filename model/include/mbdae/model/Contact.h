#pragma once
/// @file Contact.h
/// Contact geometry and material of a body, as a user describes it. A `Contact` attaches one
/// shape to a body (or to "ground"); every pair of shapes on different bodies may touch. Which
/// pairs the contact geometry handles is the registry of contact pair kinds
/// (contact/ContactPairs.h); a model with a pair it does not handle is refused by name (the
/// model loader, ContactDetector and MultibodySystem: contact_pair_problems()). Both the
/// ImpulseStepper (impulses) and MultibodySystem (penalty forces) use that same geometry
/// (contact/ContactGeometry.h).
///
/// Conventions: shapes are placed in the body frame (relative to the body's REFERENCE point, body
/// axes), like loads. A plane is a half-space: the solid side is behind the normal, n·x ≤ offset
/// with n and x in the body's frame (world for a plane on ground).
/// Material of a pair: friction μ and restitution e combine the two shapes' values by the rules
/// System::contact_friction_rule and System::contact_restitution_rule (default, as Box2D, Catto
/// 2009: μ = √(μ_a μ_b), e = max(e_a, e_b)); rolling resistance μ_r = max(μ_r,a, μ_r,b) and
/// torsional friction μ_t = max(μ_t,a, μ_t,b) (either is off unless a shape turns it on).
///
/// Rolling resistance and torsional friction are torques at each contact point on the relative
/// angular velocity ω = ω_b − ω_a: rolling, its part ω_t tangent to the contact plane, |M_r| ≤
/// μ_r r_eff λ_n (μ_r dimensionless, r_eff the effective rolling radius of the point: the sphere's
/// radius on a plane or a box, r_a r_b / (r_a + r_b) for two spheres, the cap radius of a capsule;
/// 0, i.e. no rolling resistance, at points of boxes, cylinders and meshes); torsional (spinning,
/// as MuJoCo's condim 4 and Chrono's spinning friction), its part ω_n about the normal, |M_t| ≤
/// μ_t λ_n (μ_t a length, m: the radius of the contact patch times its Coulomb μ, about). λ_n is
/// the point's normal impulse (impulse stepper, same Gauss–Seidel iteration) or penalty force.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <mbdae/model/ConvexHull.h>
#include <mbdae/model/Types.h>

namespace mbdae {

/// Geometry of a contact shape.
enum class ShapeType {
  Sphere,   ///< `radius` about the shape origin
  Box,      ///< `half_extents` along the shape axes
  Capsule,  ///< segment of length 2 `half_length` along the shape z axis, swept by `radius`
  Plane,    ///< half-space n·x ≤ offset (body frame; world on ground)
  Cylinder, ///< solid cylinder of `radius` and length 2 `half_length` along the shape z axis
  ConvexMesh, ///< convex polyhedron `hull` (the convex hull of a mesh's vertices), shape axes
};
/// Number of ShapeType values.
inline constexpr int kShapeTypeCount = 6;
/// Name of `t` as in the model file ("sphere", "box", "capsule", "plane", "cylinder",
/// "convex_mesh"). No throw.
const char* to_string(ShapeType t);

/// How the friction μ or the restitution e of a pair combines the values of its two shapes.
enum class CombineRule {
  GeometricMean,  ///< √(a b)
  Mean,           ///< (a + b) / 2
  Min,            ///< min(a, b)
  Max,            ///< max(a, b)
};
/// Name of `r` as in the model file ("geometric_mean", "mean", "min", "max"). No throw.
const char* to_string(CombineRule r);
/// The pair value of a and b under rule r. No throw.
double combine(CombineRule r, double a, double b);

/// Normal force law of a penalty contact (used by the implicit formulation, MultibodySystem).
enum class PenaltyLaw {
  /// Linear spring–damper F_n = k δ + c δ̇, clamped to F_n ≥ 0 unless `tensile`.
  Linear,
  /// Hunt & Crossley (1975): F_n = k δⁿ (1 + χ δ̇), clamped to F_n ≥ 0.
  HuntCrossley,
};
/// Name of `l` as in the model file ("linear", "hunt_crossley"). No throw.
const char* to_string(PenaltyLaw l);

/// Parameters of a penalty contact (compliant normal force and regularised Coulomb friction),
/// used when a model with contacts is run by an implicit solver. δ = −depth ≥ 0 is the
/// penetration, δ̇ its rate. Checked by penalty_problems().
///
/// Hunt–Crossley damping factor χ: either given (`damping_factor`, s/m) or from the pair's
/// restitution e and a reference impact speed v_ref (`impact_velocity`) by Flores, Machado,
/// Silva & Martins (Multibody Syst. Dyn. 25, 2011), χ = 8 (1 − e) / (5 e v_ref); a contact hit at v⁻ = v_ref then
/// rebounds with a ratio close to e (0.986 e at e = 0.8, 0.993 e at 0.9, 0.94 e at 0.5 for
/// n = 1.5); slower impacts rebound with a larger ratio, faster ones with a smaller one (the
/// Hunt–Crossley dissipation grows with the impact speed). e must then be > 0.
///
/// Friction: F_t = −μ F_n v_t / √(|v_t|² + v_ε²) with the pair's μ and v_ε =
/// `friction_velocity` (regularised Coulomb; below v_ε the friction acts like a viscous damper,
/// so a body on a slope creeps at a speed of order v_ε). μ = 0 disables it.
///
/// Rolling resistance and torsional friction (the pair's μ_r, μ_t > 0; see Contact): torques on
/// body b, M_r = −μ_r r_eff F_n ω_t / √(|ω_t|² + ω_ε²) and M_t = −μ_t F_n ω_n n / √(ω_n² + ω_ε²),
/// with ω_t, ω_n the tangential and normal parts of the relative angular velocity ω_b − ω_a and
/// ω_ε = `friction_angular_velocity` (the same regularisation as the friction force: below ω_ε
/// the torque acts like a rotational damper, so a ball on a slope creeps at an angular speed of
/// order ω_ε instead of being held).
struct PenaltyParameters {
  PenaltyLaw law = PenaltyLaw::Linear;  ///< normal force law
  double stiffness = 0;         ///< k: N/m (linear), N/mⁿ (Hunt–Crossley); > 0
  double damping = 0;           ///< c, N s/m (linear); ≥ 0
  bool tensile = false;         ///< linear: allow F_n < 0 while δ > 0 (no clamp)
  double exponent = 1.5;        ///< n (Hunt–Crossley; 1.5 = Hertz), > 0
  std::optional<double> damping_factor;   ///< χ, s/m (Hunt–Crossley), ≥ 0
  std::optional<double> impact_velocity;  ///< v_ref, m/s (Hunt–Crossley with e), > 0
  double friction_velocity = 0.01;        ///< v_ε, m/s; > 0
  double friction_angular_velocity = 0.01;  ///< ω_ε, rad/s (rolling resistance, torsional friction); > 0
};

/// Every problem of penalty parameters (empty if none), each prefixed with `prefix`.
std::vector<std::string> penalty_problems(const PenaltyParameters& p, const std::string& prefix);

/// One contact shape fixed to a body (or to ground), with its material. Checked by
/// contact_problems(), not on construction.
struct Contact {
  std::string name;  ///< for messages
  std::string body = "ground";  ///< body name or "ground"
  ShapeType shape = ShapeType::Sphere;  ///< which of the fields below apply
  double radius = 0;              ///< m: sphere, capsule, cylinder
  Vec3 half_extents = Vec3::Zero();  ///< m: box half sizes along the shape's x, y, z
  double half_length = 0;         ///< m: capsule, half the distance between the two cap centres; cylinder, half its length (shape z axis)
  Vec3 position = Vec3::Zero();   ///< m: shape origin, body axes from the reference point
  Mat3 orientation = Mat3::Identity();  ///< shape axes in body axes
  Vec3 normal = Vec3::UnitZ();    ///< plane: outward unit normal, body axes (world on ground)
  double offset = 0;              ///< plane: n·x = offset on the surface, m (x from the body's reference point)
  /// convex_mesh: the polyhedron in shape axes (m; shared, never changed after loading).
  std::shared_ptr<const ConvexHull> hull;
  std::string mesh_file;          ///< convex_mesh: the file it came from, for messages
  double friction = 0.5;          ///< Coulomb μ (sticking = sliding), ≥ 0
  double restitution = 0;         ///< Newton's e in [0, 1]
  double rolling_resistance = 0;  ///< μ_r ≥ 0 (dimensionless; torque ≤ μ_r r_eff λ_n)
  double torsional_friction = 0;  ///< μ_t ≥ 0, m (torque about the normal ≤ μ_t λ_n)
  /// Penalty parameters of this shape for the implicit solvers (see PenaltyParameters; a pair
  /// uses those of its shape b, else of its shape a, else System::contact_penalty).
  std::optional<PenaltyParameters> penalty;

  /// Radius of a sphere about the shape origin that contains the shape, m (planes: infinity).
  /// No checks, no throw.
  double bounding_radius() const;
};

/// Every problem of one contact description (empty if none), prefixed with "contact 'name': ".
std::vector<std::string> contact_problems(const Contact& c);

/// Sphere of `radius` (m) at the reference point of `body` (a name or "ground"), with Coulomb
/// `friction` μ and `restitution` e. Nothing is checked (see contact_problems()); no throw.
Contact make_sphere(const std::string& name, const std::string& body, double radius,
                    double friction = 0.5, double restitution = 0);
/// Box with `half_extents` (m, along body axes) at the reference point of `body`; otherwise as
/// make_sphere().
Contact make_box(const std::string& name, const std::string& body, const Vec3& half_extents,
                 double friction = 0.5, double restitution = 0);
/// Capsule of `radius` (m) around the segment ±`half_length` (m) along the body z axis through the
/// reference point of `body`; otherwise as make_sphere().
Contact make_capsule(const std::string& name, const std::string& body, double radius,
                     double half_length, double friction = 0.5, double restitution = 0);
/// Cylinder of `radius` (m) and `length` (m) along the body z axis, centred at the reference point
/// of `body`; otherwise as make_sphere().
Contact make_cylinder(const std::string& name, const std::string& body, double radius, double length,
                      double friction = 0.5, double restitution = 0);
/// Convex polyhedron `hull` (shape axes, m) at the reference point of `body`; otherwise as
/// make_sphere(). `hull` may be null (reported by contact_problems()).
Contact make_convex_mesh(const std::string& name, const std::string& body, std::shared_ptr<const ConvexHull> hull,
                         double friction = 0.5, double restitution = 0);
/// Ground plane n·x = offset (n normalised inside; `offset` in m is NOT rescaled, so it is the
/// signed distance from the origin along the unit normal). No throw; a zero normal stays zero and
/// is reported by contact_problems().
Contact make_plane(const std::string& name, const Vec3& normal, double offset, double friction = 0.5,
                   double restitution = 0);

}  // namespace mbdae
