#pragma once
/// @file Inertia.h
/// Mass properties of rigid bodies: mass, centre of mass (COM) and inertia tensor, with the
/// standard solids, parallel-axis shifts, rotation, combination and principal axes
/// (as Chaney's RigidBody class and Exudyn's RigidBodyInertia).
///
/// Conventions:
///  - All quantities are in the body frame B, whose origin is the body's reference point:
///    `com` is p_BC (COM relative to the reference point, body axes) [m].
///  - The inertia tensor about a point O is J_O = sum_i m_i (r_i.r_i I - r_i r_i^T), r_i from O
///    (Chaney Eq. 3-4). Its off-diagonal entries are the NEGATIVE products of inertia:
///    J(0,1) = -sum m x y.
///  - The 6-vector form (Exudyn ObjectRigidBody physicsInertia) is
///        j6 = [Jxx, Jyy, Jzz, Jyz, Jxz, Jxy] = [J(0,0), J(1,1), J(2,2), J(1,2), J(0,2), J(0,1)],
///    i.e. the TENSOR entries (with their sign), not the products of inertia.
///  - SI units: kg, m, kg m^2, kg/m^3.

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mbdae/model/Types.h"

namespace mbdae {

/// Density [kg/m^3]; selects the density overload of the solid factories.
struct Density {
  double value;  ///< [kg/m^3]
};

/// A particle: mass [kg] at a position in body axes [m].
struct PointMass {
  double mass;    ///< [kg], >= 0
  Vec3 position;  ///< body axes, from the reference point [m]
};

/// Coordinate axis of the body frame (for cylinders).
enum class Axis { X, Y, Z };

/// 3x3 symmetric tensor from j6 = [Jxx, Jyy, Jzz, Jyz, Jxz, Jxy] (tensor entries).
Mat3 inertia6_to_matrix(const Vec6& j6);

/// j6 = [J(0,0), J(1,1), J(2,2), J(1,2), J(0,2), J(0,1)]; each off-diagonal value is the
/// average of the two symmetric entries.
Vec6 matrix_to_inertia6(const Mat3& J);

/// Inertia of a point mass m [kg] at r [m] about the origin: m (r.r I - r r^T). This is also the
/// parallel-axis (Steiner) term.
Mat3 point_mass_inertia(double m, const Vec3& r);

/// Every problem of a (mass, inertia tensor) pair, as messages prefixed with "body 'name': "
/// when `name` is not empty. Empty result means valid. Checks, all reported together:
///  - mass finite and > 0;                      "mass must be > 0, got -1"
///  - J finite;                                 "inertia has non-finite entries"
///  - J symmetric within 1e-12 * max|J_ij|;     "inertia is not symmetric: J(0,1)=.. J(1,0)=.."
///  - J positive definite: smallest principal moment > 1e-14 * largest (a zero moment that came
///    out as rounding noise counts as zero);    "inertia is not positive definite: principal
///                                               moments a, b, c"
///  - triangle inequality J1 + J2 >= J3 for the ascending principal moments, with equality
///    allowed within 1e-12 * (J1 + J2 + J3) (thin plates are exactly on the boundary);
///                                              "principal moments violate the triangle
///                                               inequality: 1 + 2 < 4"
/// The moments are those of the symmetric part of J. J may be about the COM or any other
/// point (both properties are preserved by the parallel-axis shift). Never throws.
std::vector<std::string> inertia_problems(double mass, const Mat3& J, std::string_view name = {});

/// Throws std::invalid_argument whose message lists every problem found by inertia_problems()
/// (joined by "; "). Does nothing for valid input.
void validate_inertia(double mass, const Mat3& J, std::string_view name = {});

/// Principal axes of a body (result of RigidBodyInertia::principal_axes()).
/// With x_B a point in the original body frame and x_P the same point in principal axes:
///     x_B = R x_P + com,      x_P = R^T (x_B - com) = diag_rotation() x_B + diag_translation().
struct PrincipalAxes {
  Vec3 moments;  ///< principal moments about the COM, ascending [kg m^2]
  Mat3 R;        ///< columns = principal axes in body axes (R_BP), orthonormal, det +1
  Vec3 com;      ///< COM in the original body frame [m] (p_BC)

  /// Chaney's diagRotPos: rotation original -> principal coordinates (= R^T).
  Mat3 diag_rotation() const { return R.transpose(); }
  /// Chaney's diagLinPos: -R^T com.
  Vec3 diag_translation() const { return -(R.transpose() * com); }
  /// x_P = R^T (x_B - com).
  Vec3 to_principal(const Vec3& x_B) const { return R.transpose() * (x_B - com); }
};

/// Mass, COM and inertia of a rigid body, in the body frame B (see the file comment).
/// A value class: cheap to copy, no allocation. The default value is the empty body (mass 0),
/// the neutral element of operator+. Construction does not validate (so a model checker can
/// collect all problems); call check() or problems().
class RigidBodyInertia {
 public:
  /// Empty body: mass 0, COM 0, inertia 0.
  RigidBodyInertia() = default;

  /// @param mass        [kg]
  /// @param inertia_com inertia tensor about the COM in body axes [kg m^2] (stored as given)
  /// @param com         COM relative to the reference point, body axes [m]
  RigidBodyInertia(double mass, const Mat3& inertia_com, const Vec3& com = Vec3::Zero());

  /// From the Exudyn form: j6 = [Jxx, Jyy, Jzz, Jyz, Jxz, Jxy] about the REFERENCE POINT (tensor
  /// entries), and the COM [m]; the COM inertia follows by the parallel-axis theorem.
  static RigidBodyInertia from_inertia6(double mass, const Vec6& j6_about_reference,
                                        const Vec3& com);

  /// From the inertia tensor about the reference point and the COM.
  static RigidBodyInertia from_inertia_about_reference(double mass, const Mat3& J_reference,
                                                       const Vec3& com);

  // ---- Solids, COM at the origin, axes as stated. All lengths are FULL lengths [m]. --------
  // The mass overloads throw std::invalid_argument when mass <= 0 or a dimension is negative or
  // not finite; the Density overloads also when the volume is zero.

  /// Solid cuboid with side lengths lx, ly, lz along x, y, z: Jxx = m (ly^2 + lz^2)/12, ...
  /// A zero side gives a thin plate (on the boundary of the triangle inequality).
  static RigidBodyInertia box(double mass, double lx, double ly, double lz);
  /// Same with a density rho [kg/m^3, > 0] instead of the mass: m = rho × volume.
  static RigidBodyInertia box(Density rho, double lx, double ly, double lz);

  /// Solid circular cylinder of radius r and length L about `axis`:
  /// axial m r^2/2, transverse m (3 r^2 + L^2)/12.
  static RigidBodyInertia cylinder(double mass, double radius, double length, Axis axis);
  /// Same with a density rho [kg/m^3, > 0] instead of the mass: m = rho × volume.
  static RigidBodyInertia cylinder(Density rho, double radius, double length, Axis axis);
  /// Same with any axis direction (normalised inside; throws if zero).
  static RigidBodyInertia cylinder(double mass, double radius, double length, const Vec3& axis);
  /// Same with a density rho [kg/m^3, > 0] instead of the mass: m = rho × volume.
  static RigidBodyInertia cylinder(Density rho, double radius, double length, const Vec3& axis);

  /// Solid capsule: a cylinder of radius r and length L about `axis` with a hemisphere of radius r
  /// on each end (L between the hemispheres' centres), uniform density. With the masses
  /// m_c = m L / (L + 4r/3) of the cylinder and m_s = m − m_c of the two hemispheres: axial
  /// m_c r²/2 + 2 m_s r²/5, transverse m_c (r²/4 + L²/12) + m_s (2r²/5 + L²/4 + 3Lr/8) (the
  /// hemispheres' centroids 3r/8 from their flat faces, moved by the parallel-axis theorem).
  static RigidBodyInertia capsule(double mass, double radius, double length, const Vec3& axis);
  /// Same with a density rho [kg/m^3, > 0] instead of the mass: m = rho × (π r² L + 4π r³/3).
  static RigidBodyInertia capsule(Density rho, double radius, double length, const Vec3& axis);

  /// Thick-walled tube, 0 <= r_inner <= r_outer (throws otherwise; NOTE the order: inner first):
  /// axial m (ri^2 + ro^2)/2, transverse m (3 (ri^2 + ro^2) + L^2)/12.
  /// r_inner == r_outer is the thin-walled tube (mass overload only).
  static RigidBodyInertia hollow_cylinder(double mass, double r_inner, double r_outer,
                                          double length, Axis axis);
  /// Same with a density rho [kg/m^3, > 0]: m = rho π (ro^2 − ri^2) L; throws if the volume is
  /// zero (r_inner == r_outer).
  static RigidBodyInertia hollow_cylinder(Density rho, double r_inner, double r_outer,
                                          double length, Axis axis);
  /// Same with any axis direction (normalised inside; throws std::invalid_argument if zero).
  static RigidBodyInertia hollow_cylinder(double mass, double r_inner, double r_outer,
                                          double length, const Vec3& axis);

  /// Solid sphere: 2/5 m r^2.
  static RigidBodyInertia sphere(double mass, double radius);
  /// Same with a density rho [kg/m^3, > 0] instead of the mass: m = rho × volume.
  static RigidBodyInertia sphere(Density rho, double radius);

  /// Thick spherical shell, 0 <= r_inner <= r_outer (throws otherwise; NOTE the order: outer
  /// first): 2/5 m (ro^5 - ri^5)/(ro^3 - ri^3), evaluated in the cancellation-free form
  /// 2/5 m (ro^4 + ro^3 ri + ro^2 ri^2 + ro ri^3 + ri^4)/(ro^2 + ro ri + ri^2), which tends to
  /// the thin-shell value 2/3 m r^2 as r_inner -> r_outer (and equals it at r_inner == r_outer).
  static RigidBodyInertia hollow_sphere(double mass, double r_outer, double r_inner);
  /// Same with a density rho [kg/m^3, > 0]: m = rho 4/3 π (ro^3 − ri^3); throws if the volume
  /// is zero (r_inner == r_outer).
  static RigidBodyInertia hollow_sphere(Density rho, double r_outer, double r_inner);

  /// Thin spherical shell: 2/3 m r^2 (= hollow_sphere(mass, r, r)).
  static RigidBodyInertia spherical_shell(double mass, double radius);

  /// A particle of mass m at `position`: COM = position, zero inertia about the COM (so it does
  /// not pass check() on its own; combine it with other bodies). Throws if m < 0.
  static RigidBodyInertia point_mass(double mass, const Vec3& position);

  /// Sum of particles (Chaney Eq. 1-4). Throws std::invalid_argument if a mass is negative or
  /// not finite, or if the total mass is not > 0.
  static RigidBodyInertia from_point_masses(std::span<const PointMass> particles);

  // ---- Accessors ------------------------------------------------------------------------------
  double mass() const { return mass_; }                     ///< [kg]
  const Vec3& com() const { return com_; }                  ///< p_BC [m]
  const Mat3& inertia_com() const { return inertia_com_; }  ///< about the COM [kg m^2]

  /// Inertia about the reference point (body origin): J_com + m (c.c I - c c^T).
  Mat3 inertia_about_reference() const;
  /// Inertia about a point p_BP given in body axes.
  Mat3 inertia_about_point(const Vec3& p_BP) const;
  /// Exudyn's physicsInertia: [Jxx, Jyy, Jzz, Jyz, Jxz, Jxy] about the reference point.
  Vec6 inertia6_about_reference() const;
  /// [Jxx, Jyy, Jzz, Jyz, Jxz, Jxy] about the COM.
  Vec6 inertia6_com() const;

  // ---- Transformations (return new values) ----------------------------------------------------
  /// The body moved by d in body axes: com -> com + d (inertia about the COM unchanged). For
  /// a body described in a frame F, this gives it in a frame whose origin is at -d in F.
  RigidBodyInertia translated(const Vec3& d) const;
  /// The body rotated by R about the reference point: com -> R com, J_com -> R J_com R^T.
  /// @throws std::invalid_argument if R is not a rotation (orthonormal, det +1, tol 1e-9).
  RigidBodyInertia rotated(const Mat3& R) const;
  /// rotated(R).translated(p): a body given in its own frame, placed at pose (R, p) in this
  /// frame (Chaney's combine(body, rotPos, linPos) = *this + body.transformed(rotPos, linPos)).
  RigidBodyInertia transformed(const Mat3& R, const Vec3& p) const;

  /// Combination of two bodies given in the same frame: masses add, COMs combine by mass
  /// weighting, COM inertias add with their parallel-axis terms about the new COM.
  friend RigidBodyInertia operator+(const RigidBodyInertia& a, const RigidBodyInertia& b);
  /// *this = *this + b. No throw.
  RigidBodyInertia& operator+=(const RigidBodyInertia& b);

  /// Principal moments (ascending) and axes of the COM inertia, with a right-handed R (det +1).
  /// Axes are made unique up to the multiplicity of equal moments: the largest-magnitude
  /// component of the first two axes is positive, the third is their cross product.
  PrincipalAxes principal_axes() const;
  /// The same body in principal axes with the COM at the origin (Chaney's diagonalise()):
  /// mass unchanged, com = 0, inertia = diag(moments). Use principal_axes() for the transform.
  RigidBodyInertia diagonalised() const;

  // ---- Validation -----------------------------------------------------------------------------
  /// inertia_problems(mass(), inertia_com(), name), plus a non-finite COM.
  std::vector<std::string> problems(std::string_view name = {}) const;
  /// Throws std::invalid_argument listing all problems(name); does nothing if valid.
  void check(std::string_view name = {}) const;

 private:
  double mass_ = 0.0;
  Vec3 com_ = Vec3::Zero();
  Mat3 inertia_com_ = Mat3::Zero();
};

}  // namespace mbdae
