// The unit list of the implicit formulation, and the central-difference tangent of AssemblyUnit.

#include "Units.h"

#include "../FiniteDifference.h"
#include "Cables.h"
#include "Controllers.h"
#include "Couplings.h"
#include "ForceElements.h"
#include "Joints.h"
#include "ModalBodies.h"
#include "PenaltyContacts.h"
#include "ReactionFriction.h"
#include "RigidBodies.h"
#include "Shafts.h"

namespace mbdae {

void AssemblyUnit::tangent_by_differences(
    const std::vector<int>& coords, const UnitState& s, double c_q, double c_v, double c_a, const BlockMap& map,
    const std::function<void(const double*, const double*, const double*, double*)>& f, SparseMatrix& A) {
  const int nc = static_cast<int>(coords.size());
  VecX x[3] = {VecX(nc), VecX(nc), VecX(nc)};
  const ConstVecRef* g[3] = {&s.q, &s.v, &s.a};
  const double c[3] = {c_q, c_v, c_a};
  for (int j = 0; j < 3; ++j)
    for (int k = 0; k < nc; ++k) x[j][k] = g[j]->size() ? (*g[j])[coords[static_cast<size_t>(k)]] : 0.0;
  MatX B = MatX::Zero(nc, nc);
  VecX fp(nc), fm(nc);
  for (int j = 0; j < 3; ++j) {
    if (c[j] == 0) continue;
    detail::central_differences(
        x[j], 0, nc, fp, fm, [&](int, VecX& out) { f(x[0].data(), x[1].data(), x[2].data(), out.data()); },
        [&](int k, const VecX& p, const VecX& m, double h2) { B.col(k) += c[j] * (p - m) / h2; });
  }
  map.scatter_add(A, B);
}

}  // namespace mbdae

namespace mbdae::units {

namespace {
template <class U>
U* add(UnitList& L, std::unique_ptr<U> u) {
  U* p = u.get();
  L.all.push_back(std::move(u));
  return p;
}
}  // namespace

UnitList make_units(UnitContext& cx) {
  ReactionFriction::refuse_unless_enabled(cx.model(), cx.options);
  // Units another unit reads are made before they take their place in the list.
  auto joints = std::make_unique<Joints>(cx);
  auto forces = std::make_unique<ForceElements>(cx);
  UnitList L;
  // The unit list: its order is the layout (coordinates: bodies, shafts, coupling angles,
  // controller states, cable nodes, modal coordinates; rows: Euler-parameter norms, joints,
  // couplings, cable supports) and the order in which every evaluation adds the units' terms.
  L.bodies = add(L, std::make_unique<RigidBodies>(cx));
  L.shafts = add(L, std::make_unique<Shafts>(cx));
  L.angles = add(L, std::make_unique<CouplingAngles>(cx));
  L.controllers = add(L, std::make_unique<Controllers>(cx));
  L.cables = add(L, std::make_unique<Cables>(cx));  // their coordinates after the controller states
  add(L, std::make_unique<ModalBodies>(cx));  // its coordinates after the controller states
  L.forces = add(L, std::move(forces));
  L.reaction_friction = add(L, std::make_unique<ReactionFriction>(cx, *L.forces, *joints));
  L.contacts = add(L, std::make_unique<PenaltyContacts>(cx));
  L.shaft_forces = add(L, std::make_unique<ShaftForces>(cx, *L.shafts));
  L.joints = add(L, std::move(joints));
  L.couplings = add(L, std::make_unique<CouplingRows>(cx, *L.angles, *L.shafts));
  add(L, std::make_unique<CableSupports>(cx, *L.cables));  // their rows after the couplings'
  for (const UnitFactory& f : cx.options.extra_units) L.all.push_back(f(cx.model()));
  return L;
}

}  // namespace mbdae::units
