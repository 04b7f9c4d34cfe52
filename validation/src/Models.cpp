/// @file Models.cpp
/// The validation and benchmark mechanisms; see Models.h for their provenance and modelling
/// choices.

// Includes of this project's validation headers are relative to this file so that a program that
// only links mbdae::mbdae (bench/chain_bench.cpp) can compile this file into itself.
#include "../include/mbdae/validation/Models.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include <Eigen/Geometry>
#include <Eigen/QR>

#include <mbdae/model/Contact.h>
#include <mbdae/model/Inertia.h>
#include <mbdae/model/math/Rotation.h>

#include "../include/mbdae/validation/References.h"

namespace mbdae::validation::models {
namespace {

Vec3 V3(const std::array<double, 3>& a) { return Vec3(a[0], a[1], a[2]); }

/// Inertia 6-vector of a diagonal tensor.
Vec6 Diagonal(double jxx, double jyy, double jzz) {
  Vec6 j;
  j << jxx, jyy, jzz, 0.0, 0.0, 0.0;
  return j;
}

/// A body at rest with R = I, reference point at the COM.
RigidBody Body(const std::string& name, double mass, const Vec6& inertia, const Vec3& position,
               RotationParametrization rotation) {
  RigidBody b;
  b.name = name;
  b.mass = mass;
  b.inertia = inertia;
  b.position = position;
  b.rotation = rotation;
  return b;
}

void RequirePositive(int n, const char* what) {
  if (n < 1)
    throw std::invalid_argument(std::string(what) + ": expected at least 1, got " + std::to_string(n));
}

}  // namespace

System HeavyTop(RotationParametrization rotation) {
  namespace ht = refs::heavy_top;
  System s;
  s.name = "heavy_top";
  s.gravity = V3(ht::kGravity_W);
  RigidBody top = Body("top", ht::kMass,
                       Diagonal(ht::kInertiaFixedPoint[0], ht::kInertiaFixedPoint[1],
                                ht::kInertiaFixedPoint[2]),
                       Vec3::Zero(), rotation);
  top.com = V3(ht::kComOffset_B);
  top.angular_velocity = V3(ht::kOmega0_B);  // R(0) = I: body and world axes coincide
  s.add_body(top);
  s.add_spherical("fixed_point", "ground", "top", Vec3::Zero());
  return s;
}

System IftommA01(A01Link link, double inertia, RotationParametrization rotation) {
  namespace a01 = refs::iftomm::a01;
  if (!(inertia > 0.0))
    throw std::invalid_argument("IftommA01: expected inertia > 0, got " + std::to_string(inertia));
  System s;
  s.name = link == A01Link::Revolute ? "iftomm_a01_revolute" : "iftomm_a01_distance";
  s.gravity = Vec3(0.0, -a01::kGravity, 0.0);
  s.add_body(Body("mass", a01::kMass, Diagonal(inertia, inertia, inertia),
                  Vec3(a01::kLength, 0.0, 0.0), rotation));
  if (link == A01Link::Revolute)
    s.add_revolute("pivot", "ground", "mass", Vec3::Zero(), Vec3::UnitZ());
  else
    s.add_distance("link", "ground", "mass", Vec3::Zero(), Vec3(a01::kLength, 0.0, 0.0),
                   a01::kLength);
  return s;
}

System IftommA02(int n_loops, RotationParametrization rotation) {
  namespace a02 = refs::iftomm::a02;
  RequirePositive(n_loops, "IftommA02: number of loops N");
  const double m = a02::kRodMass, L = a02::kRodLength;
  const double transverse = m * L * L / 12.0;               // thin rod, as the reference assumes
  const double axial = m * (0.01 * 0.01 + 0.01 * 0.01) / 12.0;  // 0.01 × 0.01 m section
  System s;
  s.name = "iftomm_a02_n" + std::to_string(n_loops);
  s.gravity = Vec3(0.0, -a02::kGravity, 0.0);
  const double w = a02::kThetaDot0;  // rad/s about +z (−1: B0 moves towards +x)
  for (int i = 0; i <= n_loops; ++i) {
    RigidBody c = Body("crank" + std::to_string(i), m, Diagonal(transverse, axial, transverse),
                       Vec3(i * L, 0.5 * L, 0.0), rotation);
    c.angular_velocity = Vec3(0.0, 0.0, w);
    c.velocity = c.angular_velocity.cross(Vec3(0.0, 0.5 * L, 0.0));  // about the pivot (i, 0)
    s.add_body(c);
  }
  for (int j = 0; j < n_loops; ++j) {
    RigidBody c = Body("coupler" + std::to_string(j), m, Diagonal(axial, transverse, transverse),
                       Vec3((j + 0.5) * L, L, 0.0), rotation);
    c.velocity = Vec3(0.0, 0.0, w).cross(Vec3(0.0, L, 0.0));  // translates with the crank tips
    s.add_body(c);
  }
  for (int i = 0; i <= n_loops; ++i)
    s.add_revolute("ground_crank" + std::to_string(i), "ground", "crank" + std::to_string(i),
                   Vec3(i * L, 0.0, 0.0), Vec3::UnitZ());
  for (int j = 0; j < n_loops; ++j) {
    const std::string cj = "coupler" + std::to_string(j);
    s.add_revolute("crank" + std::to_string(j) + "_" + cj, "crank" + std::to_string(j), cj,
                   Vec3(j * L, L, 0.0), Vec3::UnitZ());
    s.add_revolute(cj + "_crank" + std::to_string(j + 1), cj, "crank" + std::to_string(j + 1),
                   Vec3((j + 1) * L, L, 0.0), Vec3::UnitZ());
  }
  return s;
}

Vec3 IftommA02TipB0() { return Vec3(0.0, 0.5 * refs::iftomm::a02::kRodLength, 0.0); }

System Bricard(RotationParametrization rotation) {
  const Vec3 P[6] = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, -1, 0),
                     Vec3(1, -1, 1), Vec3(0, -1, 1), Vec3(0, 0, 1)};
  const Vec3 axes[6] = {Vec3::UnitY(), Vec3::UnitZ(), Vec3::UnitX(),
                        Vec3::UnitY(), Vec3::UnitZ(), Vec3::UnitX()};
  System s;
  s.name = "bricard";
  s.gravity = Vec3(0.0, -9.81, 0.0);
  for (int k = 1; k <= 5; ++k) {
    const Vec3 d = P[k] - P[k - 1];  // a unit coordinate vector: the box's long side
    const Vec3 size = 0.1 * Vec3::Ones() + 0.9 * d.cwiseAbs();
    const RigidBodyInertia box = RigidBodyInertia::box(1.0, size.x(), size.y(), size.z());
    s.add_body(Body("rod" + std::to_string(k), 1.0, box.inertia6_about_reference(),
                    0.5 * (P[k - 1] + P[k]), rotation));
  }
  for (int k = 0; k <= 5; ++k) {
    const std::string a = k == 0 ? "ground" : "rod" + std::to_string(k);
    const std::string b = k == 5 ? "ground" : "rod" + std::to_string(k + 1);
    s.add_revolute("J" + std::to_string(k), a, b, P[k], axes[k]);
  }
  return s;
}

const char* to_string(ChainJoint j) { return j == ChainJoint::Spherical ? "spherical" : "revolute"; }

System Chain(int n_bars, ChainJoint joint, RotationParametrization rotation) {
  RequirePositive(n_bars, "Chain: number of bars N");
  const RigidBodyInertia bar = RigidBodyInertia::box(1.0, 1.0, 0.1, 0.1);
  System s;
  s.name = std::string("chain_") + to_string(joint) + "_" + std::to_string(n_bars);
  s.gravity = Vec3(0.0, 0.0, -9.81);
  for (int i = 0; i < n_bars; ++i)
    s.add_body(Body("bar" + std::to_string(i), 1.0, bar.inertia6_about_reference(),
                    Vec3(i + 0.5, 0.0, 0.0), rotation));
  for (int i = 0; i < n_bars; ++i) {
    const std::string a = i == 0 ? "ground" : "bar" + std::to_string(i - 1);
    const std::string b = "bar" + std::to_string(i);
    const std::string name = (i == 0 ? "ground" : a) + "_" + b;
    if (joint == ChainJoint::Spherical) s.add_spherical(name, a, b, Vec3(i, 0.0, 0.0));
    else s.add_revolute(name, a, b, Vec3(i, 0.0, 0.0), Vec3::UnitY());
  }
  return s;
}

System SpatialDoublePendulum(RotationParametrization rotation) {
  System s = Chain(2, ChainJoint::Spherical, rotation);
  s.name = "spatial_double_pendulum";
  s.gravity = Vec3(0.0, -9.81, 0.0);
  const Vec3 w(0.5, 0.3, 0.0);
  for (RigidBody& b : s.bodies()) {
    b.angular_velocity = w;
    b.velocity = w.cross(b.position);  // rigid rotation about the ground joint at the origin
  }
  return s;
}

System AdamsPendulum(JointType type, const Vec3& joint_point, const Vec3& axis, const Vec3& com0,
                     RotationParametrization rotation) {
  namespace ja = refs::joints_adams;
  System s;
  s.name = "adams_pendulum";
  s.gravity = Vec3(0, 0, -ja::kGravity);
  RigidBody b = Body("rod", ja::kMass, Diagonal(ja::kInertiaCom[0], ja::kInertiaCom[1], ja::kInertiaCom[2]),
                     com0, rotation);
  const Vec3 ex = (com0 - joint_point).normalized();
  const Vec3 ez = axis.normalized();
  b.orientation.col(0) = ex;
  b.orientation.col(1) = ez.cross(ex);
  b.orientation.col(2) = ez;
  s.add_body(b);
  if (type == JointType::Revolute) s.add_revolute("joint", "ground", "rod", joint_point, axis);
  else s.add_spherical("joint", "ground", "rod", joint_point);
  return s;
}

System SpatialSliderCrank() {
  namespace sc = refs::iftomm::spatial_slider_crank;
  const Vec3 slider_axis = Vec3::UnitX();
  System s;
  s.name = "spatial_slider_crank";
  s.gravity = V3(sc::kGravity);
  const Vec3 A = V3(sc::kCrankPivot);
  const Vec3 B = A + Vec3(0, 0, sc::kCrankLength);  // θ0 = 0: crank along +z
  const Vec3 C(sc::kSliderX0, 0, 0);
  const Vec3 w_crank(sc::kCrankOmega0, 0, 0);
  const Vec3 vB = w_crank.cross(B - A);
  const Vec3 vC = V3(sc::kSliderVelocity0);
  const Vec3 u = (C - B).normalized();
  const Vec3 axis_b = u.cross(slider_axis).normalized();  // rod-fixed Cardan axis
  // Rod angular velocity: ω × (C − B) = v_C − v_B and the Cardan condition ω · (e_b × x) = 0.
  Eigen::Matrix<double, 4, 3> Aw;
  Eigen::Vector4d bw;
  const Vec3 d = C - B;
  Mat3 dx;
  dx << 0, -d.z(), d.y(), d.z(), 0, -d.x(), -d.y(), d.x(), 0;
  Aw.topRows<3>() = -dx;
  Aw.row(3) = axis_b.cross(slider_axis).transpose();
  bw << vC - vB, 0;
  const Vec3 w_rod = Aw.colPivHouseholderQr().solve(bw);

  RigidBody crank = Body("crank", sc::kCrankMass,
                         Diagonal(sc::kCrankInertia[0], sc::kCrankInertia[1], sc::kCrankInertia[2]),
                         (A + B) / 2, RotationParametrization::EulerParameters);
  crank.velocity = w_crank.cross(crank.position - A);
  crank.angular_velocity = w_crank;
  s.add_body(crank);
  RigidBody rod = Body("rod", sc::kRodMass, Diagonal(sc::kRodInertia[0], sc::kRodInertia[1], sc::kRodInertia[2]),
                       (B + C) / 2, RotationParametrization::EulerParameters);
  rod.orientation.col(0) = u;
  rod.orientation.col(1) = axis_b;
  rod.orientation.col(2) = u.cross(axis_b);
  rod.velocity = V3(sc::kRodComVelocity0);
  rod.angular_velocity = w_rod;
  s.add_body(rod);
  RigidBody slider = Body("slider", sc::kSliderMass,
                          Diagonal(sc::kSliderInertia[0], sc::kSliderInertia[1], sc::kSliderInertia[2]), C,
                          RotationParametrization::EulerParameters);
  slider.velocity = vC;
  s.add_body(slider);
  s.add_revolute("crank_pivot", "ground", "crank", A, Vec3::UnitX());
  s.add_spherical("crank_rod", "crank", "rod", B);
  Joint cardan;
  cardan.name = "rod_slider";
  cardan.type = JointType::Universal;
  cardan.bodies = {"slider", "rod"};
  cardan.point = C;
  cardan.axis = slider_axis;
  cardan.axis_b = axis_b;
  s.add_joint(cardan);
  s.add_prismatic("slider_guide", "ground", "slider", C, Vec3::UnitX());
  return s;
}

System OffsetSliderCrank(bool driven, RotationParametrization rotation) {
  using D = OffsetSliderCrankData;
  const auto inertia_at = [](double m, const Vec3& Jc, const Vec3& c) {
    const Mat3 J = Mat3(Jc.asDiagonal()) + m * (c.squaredNorm() * Mat3::Identity() - c * c.transpose());
    Vec6 out;
    out << J(0, 0), J(1, 1), J(2, 2), J(1, 2), J(0, 2), J(0, 1);
    return out;
  };
  System s;
  s.name = "offset_slider_crank";
  s.gravity = Vec3(0, -9.81, 0);
  const double c0 = std::sqrt(D::l * D::l - D::e * D::e);
  const Vec3 B(D::r, 0, 0), C(D::r + c0, D::e, 0);
  RigidBody crank = Body("crank", 1.0, Vec6::Zero(), Vec3::Zero(), rotation);
  crank.com = Vec3(D::r / 2, 0, 0);
  crank.inertia = inertia_at(1.0, Vec3(1e-4, D::r * D::r / 12, D::r * D::r / 12), crank.com);
  s.add_body(crank);
  RigidBody rod = Body("rod", 2.0, Diagonal(2e-4, 2.0 * D::l * D::l / 12, 2.0 * D::l * D::l / 12),
                       (B + C) / 2, rotation);
  rod.orientation = Eigen::AngleAxisd(std::atan2(D::e, c0), Vec3::UnitZ()).toRotationMatrix();
  s.add_body(rod);
  s.add_body(Body("slider", 3.0, Diagonal(1e-3, 1e-3, 1e-3), C, rotation));
  Joint drive;
  drive.name = "crank_drive";
  drive.type = JointType::Revolute;
  drive.bodies = {"ground", "crank"};
  drive.axis = Vec3::UnitZ();
  if (driven) {
    drive.motion.value = [](double t) { return D::omega * t + 0.5 * D::alpha * t * t; };
    drive.motion.velocity = [](double t) { return D::omega + D::alpha * t; };
    drive.motion.acceleration = [](double) { return D::alpha; };
  }
  s.add_joint(drive);
  s.add_revolute("crank_rod", "crank", "rod", B, Vec3::UnitZ());
  s.add_revolute("rod_slider", "rod", "slider", C, Vec3::UnitZ());
  s.add_prismatic("slider_guide", "ground", "slider", C, Vec3::UnitX());
  return s;
}

Mat3 TorqueFreeBodyPrincipalAxes() {
  return (Eigen::AngleAxisd(0.3, Vec3::UnitZ()) * Eigen::AngleAxisd(-0.7, Vec3::UnitX()) *
          Eigen::AngleAxisd(0.2, Vec3::UnitY()))
      .toRotationMatrix();
}
Vec3 TorqueFreeBodyMoments() { return Vec3(1.0, 2.0, 3.0); }

System TorqueFreeBodyModel(RotationParametrization rotation, const Vec3& w0_P) {
  const Mat3 P = TorqueFreeBodyPrincipalAxes();
  const Mat3 J = P * TorqueFreeBodyMoments().asDiagonal() * P.transpose();
  System s;
  s.name = "torque_free_body";
  Vec6 inertia;
  inertia << J(0, 0), J(1, 1), J(2, 2), J(1, 2), J(0, 2), J(0, 1);
  RigidBody b = Body("body", 2.0, inertia, Vec3(0.5, -0.2, 1.0), rotation);
  b.orientation = (Eigen::AngleAxisd(0.4, Vec3::UnitX()) * Eigen::AngleAxisd(-1.1, Vec3::UnitZ())).toRotationMatrix();
  b.velocity = Vec3(0.3, 0.1, -0.2);
  b.angular_velocity = b.orientation * (P * w0_P);  // world axes
  s.add_body(b);
  return s;
}

System LagrangeTopModel(double mass, double gravity, double com_distance, double I1_O, double I3,
                        double theta0, double omega3, double phi_dot0, RotationParametrization rotation) {
  System s;
  s.name = "lagrange_top";
  s.gravity = Vec3(0, 0, -gravity);
  RigidBody b = Body("top", mass, Diagonal(I1_O, I1_O, I3), Vec3::Zero(), rotation);
  b.com = Vec3(0, 0, com_distance);
  b.orientation = Eigen::AngleAxisd(theta0, Vec3::UnitX()).toRotationMatrix();
  const Vec3 e3 = b.orientation.col(2);
  // ω = φ' z + ψ' e3 with ψ' = ω3 − φ' cos θ (θ' = 0).
  b.angular_velocity = phi_dot0 * Vec3::UnitZ() + (omega3 - phi_dot0 * std::cos(theta0)) * e3;
  s.add_body(b);
  s.add_spherical("fixed_point", "ground", "top", Vec3::Zero());
  return s;
}

RigidBody SphereBody(const std::string& name, double mass, double radius, const Vec3& position,
                     const Vec3& velocity) {
  const double I = 0.4 * mass * radius * radius;
  RigidBody b = Body(name, mass, Diagonal(I, I, I), position, RotationParametrization::EulerParameters);
  b.velocity = velocity;
  return b;
}

RigidBody BoxBody(const std::string& name, double mass, const Vec3& half, const Vec3& position,
                  const Vec3& velocity) {
  const Vec3 L = 2 * half;
  RigidBody b = Body(name, mass,
                     Diagonal(mass * (L.y() * L.y() + L.z() * L.z()) / 12, mass * (L.x() * L.x() + L.z() * L.z()) / 12,
                              mass * (L.x() * L.x() + L.y() * L.y()) / 12),
                     position, RotationParametrization::EulerParameters);
  b.velocity = velocity;
  return b;
}

System SpherePile(int K, double rolling) {
  const double r = 0.1, m = 1.0, mu = 0.5, s = 2.2 * r;
  const int n = static_cast<int>(std::ceil(std::cbrt(static_cast<double>(K)) - 1e-9));
  // Interior half width: n columns plus the half-spacing shift of odd layers, 1 cm clear each side.
  const double W = 0.5 * ((n - 0.5) * s + 2 * r + 0.02);
  System sys;
  sys.gravity = Vec3(0, 0, -9.81);
  int count = 0;
  for (int layer = 0; count < K; ++layer)
    for (int i = 0; i < n && count < K; ++i)
      for (int j = 0; j < n && count < K; ++j) {
        const double shift = (layer % 2) ? 0.5 * s : 0.0;
        RigidBody b;
        b.name = "s" + std::to_string(count);
        b.mass = m;
        const double I = 0.4 * m * r * r;
        b.inertia << I, I, I, 0, 0, 0;
        b.position = Vec3(-W + r + 0.01 + i * s + shift, -W + r + 0.01 + j * s + shift, r + 0.05 + layer * s);
        sys.add_body(b);
        Contact c = make_sphere(b.name, b.name, r, mu, 0.0);
        c.rolling_resistance = rolling;
        sys.add_contact(c);
        ++count;
      }
  sys.add_contact(make_plane("floor", Vec3::UnitZ(), 0.0, mu));
  sys.add_contact(make_plane("wall_x-", Vec3::UnitX(), -W, mu));
  sys.add_contact(make_plane("wall_x+", -Vec3::UnitX(), -W, mu));
  sys.add_contact(make_plane("wall_y-", Vec3::UnitY(), -W, mu));
  sys.add_contact(make_plane("wall_y+", -Vec3::UnitY(), -W, mu));
  return sys;
}

System BoxPile(int K) {
  const Vec3 half(0.1, 0.075, 0.05);
  const double m = 1.0, mu = 0.5, s = 0.25;
  const int n = static_cast<int>(std::ceil(std::cbrt(static_cast<double>(K)) - 1e-9));
  const double W = 0.5 * ((n - 0.5) * s + 2 * half.norm() + 0.02);
  System sys;
  sys.gravity = Vec3(0, 0, -9.81);
  int count = 0;
  for (int layer = 0; count < K; ++layer)
    for (int i = 0; i < n && count < K; ++i)
      for (int j = 0; j < n && count < K; ++j) {
        const bool odd = layer % 2;
        const double shift = odd ? 0.5 * s : 0.0;
        RigidBody b;
        b.name = "b" + std::to_string(count);
        b.mass = m;
        const Vec3 L = 2 * half;
        b.inertia << m * (L.y() * L.y() + L.z() * L.z()) / 12, m * (L.x() * L.x() + L.z() * L.z()) / 12,
            m * (L.x() * L.x() + L.y() * L.y()) / 12, 0, 0, 0;
        const double r = half.norm();
        b.position = Vec3(-W + r + 0.01 + i * s + shift, -W + r + 0.01 + j * s + shift, r + 0.05 + layer * s);
        if (odd) b.orientation = math::rot_z(0.3);
        sys.add_body(b);
        sys.add_contact(make_box(b.name, b.name, half, mu, 0.0));
        ++count;
      }
  sys.add_contact(make_plane("floor", Vec3::UnitZ(), 0.0, mu));
  sys.add_contact(make_plane("wall_x-", Vec3::UnitX(), -W, mu));
  sys.add_contact(make_plane("wall_x+", -Vec3::UnitX(), -W, mu));
  sys.add_contact(make_plane("wall_y-", Vec3::UnitY(), -W, mu));
  sys.add_contact(make_plane("wall_y+", -Vec3::UnitY(), -W, mu));
  return sys;
}

System BoxStack(int n, double a) {
  const Vec3 half(a / 2, a / 2, a / 4);
  System sys;
  sys.gravity = Vec3(0, 0, -9.81);
  for (int k = 0; k < n; ++k) {
    RigidBody b;
    b.name = "box" + std::to_string(k);
    b.mass = 1.0;
    const Vec3 L = 2 * half;
    b.inertia << (L.y() * L.y() + L.z() * L.z()) / 12, (L.x() * L.x() + L.z() * L.z()) / 12,
        (L.x() * L.x() + L.y() * L.y()) / 12, 0, 0, 0;
    b.position = Vec3(0, 0, half.z() * (2 * k + 1));
    sys.add_body(b);
    sys.add_contact(make_box(b.name, b.name, half, 0.5, 0.0));
  }
  sys.add_contact(make_plane("floor", Vec3::UnitZ(), 0.0, 0.5));
  return sys;
}

}  // namespace mbdae::validation::models
