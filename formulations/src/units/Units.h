#pragma once
// The implicit formulation's assembly units (internal header): the bodies' kinematics every unit
// reads, the context the units are built from, the units of the formulation and its unit list.
// The equations are in Multibody.h; the interface in AssemblyUnit.h.

#include <memory>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include <mbdae/formulations/AssemblyUnit.h>
#include <mbdae/formulations/CompiledModel.h>
#include <mbdae/formulations/Multibody.h>

#include "../JointKernels.h"

namespace mbdae::units {

using Mat3X = Eigen::Matrix<double, 3, Eigen::Dynamic, 0, 3, 4>;
using Row6 = Eigen::Matrix<double, 1, 6>;
using BlockN = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 14, 14>;
using VecN = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 14, 1>;

/// Kinematics of one body at one state, world axes unless noted.
struct Kin : detail::FrameKin {  // p, v, R, w, ah
  Mat3X G;                  // local G (3 × nr): ω_B = G θ̇
  Mat3X RG;                 // R G (3 × nr): ω_W = R G θ̇
  Vec3 wB = Vec3::Zero();   // ω in body axes
  Vec3 gdB = Vec3::Zero();  // Ġθ̇, body axes (ah = R Ġθ̇)
};

/// A rigid body's coordinates and inertia (the rigid-body unit fills the table).
struct BodyData {
  std::string name;
  RotationParametrization param = RotationParametrization::EulerParameters;
  int off = 0, n = 0, nr = 0;
  double m = 0;
  Mat3 J = Mat3::Zero();
  Vec3 b = Vec3::Zero();
  std::vector<int> loads;
};

/// Every rigid body's coordinates and the kinematics of a body from them (RigidBodyKinematics.cpp:
/// one case per rotation parametrization).
struct BodyTable {
  std::vector<BodyData> list;

  /// R, G and Ġθ̇ of body bd from its rotation coordinates th (and rates thd, may be null).
  static void rot_kin(const BodyData& bd, const double* th, const double* thd, Kin& k);
  /// Kinematics from a body's coordinate and velocity arrays (v may be null: velocities zero).
  Kin kin(BodyIndex i, const double* q, const double* v) const;
  /// The same from the global vectors.
  Kin kin_state(BodyIndex i, const double* q, const double* v) const {
    if (i == kGround) return kin(i, nullptr, nullptr);
    const int off = list[static_cast<size_t>(i)].off;
    return kin(i, q + off, v ? v + off : nullptr);
  }
  /// Appends the coordinate indices of body i (none for ground) to `coords`; returns their count.
  int append_coords(BodyIndex i, std::vector<int>& coords) const;
  /// Number of coordinates of body i (0 for ground).
  int size(BodyIndex i) const { return i == kGround ? 0 : list[static_cast<size_t>(i)].n; }
  const BodyData& operator[](BodyIndex i) const { return list[static_cast<size_t>(i)]; }
};

}  // namespace mbdae::units

namespace mbdae {
/// Every body's kinematics at one state (UnitState::kin), formed once per evaluation.
class UnitKinematics {
 public:
  std::vector<units::Kin> ks;
  /// Body i's (ground: identity at rest).
  const units::Kin& operator[](BodyIndex i) const { return i == kGround ? ground() : ks[static_cast<size_t>(i)]; }
  /// Fills ks at (q, v) (v may be null); the storage only grows.
  void update(const units::BodyTable& bodies, const double* q, const double* v);
  static const units::Kin& ground();
};
}  // namespace mbdae

namespace mbdae::units {

/// What the units are built from: the compiled model and the body table.
struct UnitContext {
  std::shared_ptr<const CompiledModel> cm;
  MultibodyOptions options;
  BodyTable bodies;
  int controller_first = 0;  // the first controller state's coordinate (Controllers::claim())
  const System& model() const { return cm->system(); }
};

/// ql, vl ← the values of q and v at `coords` (resized to its length; workspace buffers grow once).
template <class V>
void gather_local(const std::vector<int>& coords, const double* q, const double* v, V& ql, V& vl) {
  ql.resize(coords.size());
  vl.resize(coords.size());
  for (size_t k = 0; k < coords.size(); ++k) {
    ql[k] = q[coords[k]];
    vl[k] = v[coords[k]];
  }
}
/// Makes x at least n long (never shrinks it).
inline void grow(VecX& x, int n) {
  if (x.size() < n) x.resize(n);
}

// ---- the units of the formulation (one file each; their order is the unit list's, Units.cpp)
class RigidBodies;
class Shafts;
class ShaftForces;
class CouplingAngles;
class CouplingRows;
class Controllers;
class ForceElements;
class ReactionFriction;
class PenaltyContacts;
class Joints;
class Cables;

/// The built-in units in the order of the unit list, with typed access for the accessors of
/// MultibodySystem.
struct UnitList {
  std::vector<std::unique_ptr<AssemblyUnit>> all;
  RigidBodies* bodies = nullptr;
  Shafts* shafts = nullptr;
  ShaftForces* shaft_forces = nullptr;
  CouplingAngles* angles = nullptr;
  CouplingRows* couplings = nullptr;
  Controllers* controllers = nullptr;
  ForceElements* forces = nullptr;
  ReactionFriction* reaction_friction = nullptr;
  PenaltyContacts* contacts = nullptr;
  Joints* joints = nullptr;
  Cables* cables = nullptr;
};

/// The unit list: every unit of a model, in the order of layout and evaluation (Units.cpp).
/// @throws ModelError as MultibodySystem's constructor.
UnitList make_units(UnitContext& cx);

}  // namespace mbdae::units
