/// @file Inertia.cpp
/// Rigid-body mass properties; conventions in Inertia.h. Formulas of the solids: any handbook
/// table of mass moments of inertia (e.g. Meriam & Kraige, Dynamics, Appendix D); particles,
/// combine and diagonalise: Chaney seed section 2.2.

#include "mbdae/model/Inertia.h"

#include <Eigen/Eigenvalues>
#include <array>
#include <charconv>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "mbdae/model/math/Rotation.h"

namespace mbdae {

namespace {

/// Shortest round-trip decimal representation of x (for error messages).
std::string num(double x) {
  std::array<char, 32> buf{};
  const auto res = std::to_chars(buf.data(), buf.data() + buf.size(), x);
  return std::string(buf.data(), res.ptr);
}

void require_mass(const char* what, double mass) {
  if (!(mass > 0.0) || !std::isfinite(mass))
    throw std::invalid_argument(std::string(what) + ": mass must be > 0, got " + num(mass));
}

void require_density(const char* what, double rho) {
  if (!(rho > 0.0) || !std::isfinite(rho))
    throw std::invalid_argument(std::string(what) + ": density must be > 0, got " + num(rho));
}

void require_length(const char* what, const char* which, double x) {
  if (!(x >= 0.0) || !std::isfinite(x))
    throw std::invalid_argument(std::string(what) + ": " + which + " must be >= 0, got " + num(x));
}

double require_volume(const char* what, double volume) {
  if (!(volume > 0.0))
    throw std::invalid_argument(std::string(what) + ": volume is zero, cannot use a density");
  return volume;
}

void require_radii(const char* what, double r_inner, double r_outer) {
  require_length(what, "inner radius", r_inner);
  require_length(what, "outer radius", r_outer);
  if (r_inner > r_outer)
    throw std::invalid_argument(std::string(what) + ": inner radius must be <= outer radius, got " +
                                num(r_inner) + " > " + num(r_outer));
}

Vec3 unit_axis(const char* what, const Vec3& axis) {
  const double n = axis.norm();
  if (!(n > 0.0) || !std::isfinite(n))
    throw std::invalid_argument(std::string(what) + ": axis must have non-zero length, got " +
                                num(n));
  return axis / n;
}

Vec3 axis_vector(Axis a) {
  switch (a) {
    case Axis::X: return Vec3::UnitX();
    case Axis::Y: return Vec3::UnitY();
    case Axis::Z: return Vec3::UnitZ();
  }
  return Vec3::UnitZ();  // unreachable for valid enum values
}

/// Axisymmetric inertia: J = J_axial a a^T + J_transverse (I - a a^T), |a| = 1.
Mat3 axisymmetric(double j_axial, double j_transverse, const Vec3& a) {
  const Mat3 P = a * a.transpose();
  return j_axial * P + j_transverse * (Mat3::Identity() - P);
}

Mat3 sym(const Mat3& J) { return 0.5 * (J + J.transpose()); }

}  // namespace

// ------------------------------------------------------------------------------------------------
// Free functions
// ------------------------------------------------------------------------------------------------

Mat3 inertia6_to_matrix(const Vec6& j6) {
  Mat3 J;
  J << j6[0], j6[5], j6[4],  //
      j6[5], j6[1], j6[3],   //
      j6[4], j6[3], j6[2];
  return J;
}

Vec6 matrix_to_inertia6(const Mat3& J) {
  Vec6 j6;
  j6 << J(0, 0), J(1, 1), J(2, 2), 0.5 * (J(1, 2) + J(2, 1)), 0.5 * (J(0, 2) + J(2, 0)),
      0.5 * (J(0, 1) + J(1, 0));
  return j6;
}

Mat3 point_mass_inertia(double m, const Vec3& r) {
  return m * (r.squaredNorm() * Mat3::Identity() - r * r.transpose());
}

std::vector<std::string> inertia_problems(double mass, const Mat3& J, std::string_view name) {
  std::vector<std::string> out;
  const std::string prefix = name.empty() ? std::string() : "body '" + std::string(name) + "': ";
  if (!(mass > 0.0) || !std::isfinite(mass))
    out.push_back(prefix + "mass must be > 0, got " + num(mass));
  if (!J.allFinite()) {
    out.push_back(prefix + "inertia has non-finite entries");
    return out;
  }

  // Symmetry: report the worst pair.
  const double scale = J.cwiseAbs().maxCoeff();
  int wi = 0, wj = 1;
  double worst = 0.0;
  for (int i = 0; i < 3; ++i)
    for (int j = i + 1; j < 3; ++j) {
      const double d = std::abs(J(i, j) - J(j, i));
      if (d > worst) worst = d, wi = i, wj = j;
    }
  if (worst > 1e-12 * scale)
    out.push_back(prefix + "inertia is not symmetric: J(" + std::to_string(wi) + "," +
                  std::to_string(wj) + ")=" + num(J(wi, wj)) + " J(" + std::to_string(wj) + "," +
                  std::to_string(wi) + ")=" + num(J(wj, wi)));

  const Eigen::SelfAdjointEigenSolver<Mat3> es(sym(J), Eigen::EigenvaluesOnly);
  const Vec3 m = es.eigenvalues();  // ascending
  if (!(m[0] > 1e-14 * std::abs(m[2])) || !(m[2] > 0.0))
    out.push_back(prefix + "inertia is not positive definite: principal moments " + num(m[0]) +
                  ", " + num(m[1]) + ", " + num(m[2]));
  // Only the largest moment can violate J_a + J_b >= J_c.
  const double tol = 1e-12 * (std::abs(m[0]) + std::abs(m[1]) + std::abs(m[2]));
  if (m[0] + m[1] < m[2] - tol)
    out.push_back(prefix + "principal moments violate the triangle inequality: " + num(m[0]) +
                  " + " + num(m[1]) + " < " + num(m[2]));
  return out;
}

void validate_inertia(double mass, const Mat3& J, std::string_view name) {
  const std::vector<std::string> p = inertia_problems(mass, J, name);
  if (p.empty()) return;
  std::string msg = p.front();
  for (std::size_t i = 1; i < p.size(); ++i) msg += "; " + p[i];
  throw std::invalid_argument(msg);
}

// ------------------------------------------------------------------------------------------------
// RigidBodyInertia
// ------------------------------------------------------------------------------------------------

RigidBodyInertia::RigidBodyInertia(double mass, const Mat3& inertia_com, const Vec3& com)
    : mass_(mass), com_(com), inertia_com_(inertia_com) {}

RigidBodyInertia RigidBodyInertia::from_inertia6(double mass, const Vec6& j6_about_reference,
                                                 const Vec3& com) {
  return from_inertia_about_reference(mass, inertia6_to_matrix(j6_about_reference), com);
}

RigidBodyInertia RigidBodyInertia::from_inertia_about_reference(double mass,
                                                                const Mat3& J_reference,
                                                                const Vec3& com) {
  return RigidBodyInertia(mass, J_reference - point_mass_inertia(mass, com), com);
}

RigidBodyInertia RigidBodyInertia::box(double mass, double lx, double ly, double lz) {
  require_mass("box", mass);
  require_length("box", "lx", lx);
  require_length("box", "ly", ly);
  require_length("box", "lz", lz);
  const double k = mass / 12.0;
  const Vec3 d(k * (ly * ly + lz * lz), k * (lx * lx + lz * lz), k * (lx * lx + ly * ly));
  return RigidBodyInertia(mass, d.asDiagonal().toDenseMatrix());
}

RigidBodyInertia RigidBodyInertia::box(Density rho, double lx, double ly, double lz) {
  require_density("box", rho.value);
  require_length("box", "lx", lx);
  require_length("box", "ly", ly);
  require_length("box", "lz", lz);
  return box(rho.value * require_volume("box", lx * ly * lz), lx, ly, lz);
}

RigidBodyInertia RigidBodyInertia::cylinder(double mass, double radius, double length,
                                            Axis axis) {
  return cylinder(mass, radius, length, axis_vector(axis));
}

RigidBodyInertia RigidBodyInertia::cylinder(Density rho, double radius, double length,
                                            Axis axis) {
  return cylinder(rho, radius, length, axis_vector(axis));
}

RigidBodyInertia RigidBodyInertia::cylinder(double mass, double radius, double length,
                                            const Vec3& axis) {
  require_mass("cylinder", mass);
  require_length("cylinder", "radius", radius);
  require_length("cylinder", "length", length);
  const Vec3 a = unit_axis("cylinder", axis);
  const double r2 = radius * radius;
  return RigidBodyInertia(
      mass, axisymmetric(0.5 * mass * r2, mass * (3.0 * r2 + length * length) / 12.0, a));
}

RigidBodyInertia RigidBodyInertia::capsule(double mass, double radius, double length, const Vec3& axis) {
  require_mass("capsule", mass);
  require_length("capsule", "radius", radius);
  require_length("capsule", "length", length);
  const Vec3 a = unit_axis("capsule", axis);
  const double r = radius, L = length, r2 = r * r;
  const double mc = mass * L / (L + 4.0 * r / 3.0), ms = mass - mc;
  const double axial = 0.5 * mc * r2 + 0.4 * ms * r2;
  const double transverse = mc * (r2 / 4.0 + L * L / 12.0) + ms * (0.4 * r2 + L * L / 4.0 + 3.0 * L * r / 8.0);
  return RigidBodyInertia(mass, axisymmetric(axial, transverse, a));
}

RigidBodyInertia RigidBodyInertia::capsule(Density rho, double radius, double length, const Vec3& axis) {
  require_density("capsule", rho.value);
  require_length("capsule", "radius", radius);
  require_length("capsule", "length", length);
  const double volume = std::numbers::pi * radius * radius * (length + 4.0 * radius / 3.0);
  return capsule(rho.value * require_volume("capsule", volume), radius, length, axis);
}

RigidBodyInertia RigidBodyInertia::cylinder(Density rho, double radius, double length,
                                            const Vec3& axis) {
  require_density("cylinder", rho.value);
  require_length("cylinder", "radius", radius);
  require_length("cylinder", "length", length);
  const double volume = std::numbers::pi * radius * radius * length;
  return cylinder(rho.value * require_volume("cylinder", volume), radius, length, axis);
}

RigidBodyInertia RigidBodyInertia::hollow_cylinder(double mass, double r_inner, double r_outer,
                                                   double length, Axis axis) {
  return hollow_cylinder(mass, r_inner, r_outer, length, axis_vector(axis));
}

RigidBodyInertia RigidBodyInertia::hollow_cylinder(Density rho, double r_inner, double r_outer,
                                                   double length, Axis axis) {
  require_density("hollow_cylinder", rho.value);
  require_radii("hollow_cylinder", r_inner, r_outer);
  require_length("hollow_cylinder", "length", length);
  const double volume =
      std::numbers::pi * (r_outer - r_inner) * (r_outer + r_inner) * length;
  return hollow_cylinder(rho.value * require_volume("hollow_cylinder", volume), r_inner, r_outer,
                         length, axis_vector(axis));
}

RigidBodyInertia RigidBodyInertia::hollow_cylinder(double mass, double r_inner, double r_outer,
                                                   double length, const Vec3& axis) {
  require_mass("hollow_cylinder", mass);
  require_radii("hollow_cylinder", r_inner, r_outer);
  require_length("hollow_cylinder", "length", length);
  const Vec3 a = unit_axis("hollow_cylinder", axis);
  const double s = r_inner * r_inner + r_outer * r_outer;
  return RigidBodyInertia(mass,
                          axisymmetric(0.5 * mass * s, mass * (3.0 * s + length * length) / 12.0,
                                       a));
}

RigidBodyInertia RigidBodyInertia::sphere(double mass, double radius) {
  require_mass("sphere", mass);
  require_length("sphere", "radius", radius);
  return RigidBodyInertia(mass, (0.4 * mass * radius * radius) * Mat3::Identity());
}

RigidBodyInertia RigidBodyInertia::sphere(Density rho, double radius) {
  require_density("sphere", rho.value);
  require_length("sphere", "radius", radius);
  const double volume = 4.0 / 3.0 * std::numbers::pi * radius * radius * radius;
  return sphere(rho.value * require_volume("sphere", volume), radius);
}

RigidBodyInertia RigidBodyInertia::hollow_sphere(double mass, double r_outer, double r_inner) {
  require_mass("hollow_sphere", mass);
  require_radii("hollow_sphere", r_inner, r_outer);
  const double o = r_outer, i = r_inner;
  const double num5 = o * o * o * o + o * o * o * i + o * o * i * i + o * i * i * i + i * i * i * i;
  const double den3 = o * o + o * i + i * i;
  const double j = den3 > 0.0 ? 0.4 * mass * num5 / den3 : 0.0;  // den3 = 0 only for o = i = 0
  return RigidBodyInertia(mass, j * Mat3::Identity());
}

RigidBodyInertia RigidBodyInertia::hollow_sphere(Density rho, double r_outer, double r_inner) {
  require_density("hollow_sphere", rho.value);
  require_radii("hollow_sphere", r_inner, r_outer);
  // ro^3 - ri^3 = (ro - ri)(ro^2 + ro ri + ri^2) without cancellation.
  const double volume = 4.0 / 3.0 * std::numbers::pi * (r_outer - r_inner) *
                        (r_outer * r_outer + r_outer * r_inner + r_inner * r_inner);
  return hollow_sphere(rho.value * require_volume("hollow_sphere", volume), r_outer, r_inner);
}

RigidBodyInertia RigidBodyInertia::spherical_shell(double mass, double radius) {
  require_mass("spherical_shell", mass);
  require_length("spherical_shell", "radius", radius);
  return RigidBodyInertia(mass, (2.0 / 3.0 * mass * radius * radius) * Mat3::Identity());
}

RigidBodyInertia RigidBodyInertia::point_mass(double mass, const Vec3& position) {
  if (!(mass >= 0.0) || !std::isfinite(mass))
    throw std::invalid_argument("point_mass: mass must be >= 0, got " + num(mass));
  return RigidBodyInertia(mass, Mat3::Zero(), position);
}

RigidBodyInertia RigidBodyInertia::from_point_masses(std::span<const PointMass> particles) {
  // Two passes (COM first, then inertia about the COM) avoid the cancellation of
  // J_com = J_origin - m (c.c I - c c^T) for particles far from the origin.
  double m = 0.0;
  Vec3 first = Vec3::Zero();
  for (std::size_t k = 0; k < particles.size(); ++k) {
    const PointMass& p = particles[k];
    if (!(p.mass >= 0.0) || !std::isfinite(p.mass))
      throw std::invalid_argument("from_point_masses: particle " + std::to_string(k) +
                                  ": mass must be >= 0, got " + num(p.mass));
    m += p.mass;
    first += p.mass * p.position;
  }
  if (!(m > 0.0))
    throw std::invalid_argument("from_point_masses: total mass must be > 0, got " + num(m) +
                                " (" + std::to_string(particles.size()) + " particles)");
  const Vec3 com = first / m;
  Mat3 J = Mat3::Zero();
  for (const PointMass& p : particles) J += point_mass_inertia(p.mass, p.position - com);
  return RigidBodyInertia(m, J, com);
}

Mat3 RigidBodyInertia::inertia_about_reference() const {
  return inertia_com_ + point_mass_inertia(mass_, com_);
}

Mat3 RigidBodyInertia::inertia_about_point(const Vec3& p_BP) const {
  return inertia_com_ + point_mass_inertia(mass_, com_ - p_BP);
}

Vec6 RigidBodyInertia::inertia6_about_reference() const {
  return matrix_to_inertia6(inertia_about_reference());
}

Vec6 RigidBodyInertia::inertia6_com() const { return matrix_to_inertia6(inertia_com_); }

RigidBodyInertia RigidBodyInertia::translated(const Vec3& d) const {
  return RigidBodyInertia(mass_, inertia_com_, com_ + d);
}

RigidBodyInertia RigidBodyInertia::rotated(const Mat3& R) const {
  if (!math::is_rotation(R, 1e-9)) {
    throw std::invalid_argument("RigidBodyInertia::rotated: R is not a rotation (|R^T R - I|max = " +
                                num((R.transpose() * R - Mat3::Identity()).cwiseAbs().maxCoeff()) +
                                ", det = " + num(R.determinant()) + ")");
  }
  return RigidBodyInertia(mass_, R * inertia_com_ * R.transpose(), R * com_);
}

RigidBodyInertia RigidBodyInertia::transformed(const Mat3& R, const Vec3& p) const {
  return rotated(R).translated(p);
}

RigidBodyInertia operator+(const RigidBodyInertia& a, const RigidBodyInertia& b) {
  const double m = a.mass_ + b.mass_;
  const Vec3 com = m != 0.0 ? Vec3((a.mass_ * a.com_ + b.mass_ * b.com_) / m) : Vec3::Zero();
  const Mat3 J = a.inertia_com_ + point_mass_inertia(a.mass_, a.com_ - com) + b.inertia_com_ +
                 point_mass_inertia(b.mass_, b.com_ - com);
  return RigidBodyInertia(m, J, com);
}

RigidBodyInertia& RigidBodyInertia::operator+=(const RigidBodyInertia& b) {
  *this = *this + b;
  return *this;
}

PrincipalAxes RigidBodyInertia::principal_axes() const {
  const Eigen::SelfAdjointEigenSolver<Mat3> es(sym(inertia_com_));
  Mat3 R = es.eigenvectors();
  for (int c = 0; c < 2; ++c) {
    Eigen::Index imax = 0;
    R.col(c).cwiseAbs().maxCoeff(&imax);
    if (R(imax, c) < 0.0) R.col(c) = -R.col(c);
  }
  R.col(2) = R.col(0).cross(R.col(1));  // right-handed (det +1), still the third eigenvector
  return PrincipalAxes{es.eigenvalues(), R, com_};
}

RigidBodyInertia RigidBodyInertia::diagonalised() const {
  const PrincipalAxes pa = principal_axes();
  return RigidBodyInertia(mass_, pa.moments.asDiagonal().toDenseMatrix(), Vec3::Zero());
}

std::vector<std::string> RigidBodyInertia::problems(std::string_view name) const {
  std::vector<std::string> out = inertia_problems(mass_, inertia_com_, name);
  if (!com_.allFinite()) {
    const std::string prefix = name.empty() ? std::string() : "body '" + std::string(name) + "': ";
    out.push_back(prefix + "center of mass has non-finite entries");
  }
  return out;
}

void RigidBodyInertia::check(std::string_view name) const {
  const std::vector<std::string> p = problems(name);
  if (p.empty()) return;
  std::string msg = p.front();
  for (std::size_t i = 1; i < p.size(); ++i) msg += "; " + p[i];
  throw std::invalid_argument(msg);
}

}  // namespace mbdae
