/// @file Models.cpp
/// The validation and benchmark mechanisms; see Models.h for their provenance and modelling
/// choices.

// Includes of this project's validation headers are relative to this file so that a program that
// only links mbdae::mbdae (bench/chain_bench.cpp) can compile this file into itself.
#include "../include/mbdae/validation/Models.h"

#include <stdexcept>
#include <string>

#include <mbdae/model/Inertia.h>

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

}  // namespace mbdae::validation::models
