// Rigid-body formulation in absolute coordinates; see Multibody.h for the equations. The
// formulation is a list of assembly units (AssemblyUnit.h; the list in units/Units.cpp, one file
// per kind in units/): this file lays out their coordinates and rows and evaluates each function
// as one loop over them.

#include <mbdae/formulations/Multibody.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

#include <mbdae/formulations/CompiledModel.h>
#include <mbdae/model/math/Rotation.h>

#include "units/Cables.h"
#include "units/Controllers.h"
#include "units/ForceElements.h"
#include "units/Couplings.h"
#include "units/Joints.h"
#include "units/PenaltyContacts.h"
#include "units/ReactionFriction.h"
#include "units/RigidBodies.h"
#include "units/Shafts.h"

namespace mbdae {

namespace {
const VecX kNone;  // the argument an evaluation does not have (UnitState)
}  // namespace

/// The scratch memory of the evaluations (MultibodySystem::make_workspace()): the bodies'
/// kinematics at the state of an evaluation and each unit's own scratch. Each only grows: no
/// allocation once they have their sizes.
struct MultibodySystem::WorkspaceData final : ConstrainedSystem::Workspace::Data {
  UnitKinematics kin;
  std::vector<std::unique_ptr<UnitScratch>> scratch;  // per unit (null where it needs none)
  VecX viol_c, viol_cv;                                // constraint_violation()
};

struct MultibodySystem::Impl {
  units::UnitContext cx;
  units::UnitList units;
  std::vector<std::pair<int, int>> full_rows;  // per full row: its unit and its index there
  std::vector<int> active_to_full;
  std::vector<char> vel_row;  // per active row: velocity-level (nonholonomic)
  std::vector<std::string> force_names;  // of the force elements' unit, in its order
  int n = 0, m = 0;
  SparseMatrix tangent_pattern, jacobian_pattern;

  const System& model() const { return cx.model(); }
  /// f(unit, its scratch) for every unit in the order of the list (only unit `only` if ≥ 0).
  template <class F>
  void each(WorkspaceData& W, F&& f, int only = -1) const {
    for (size_t k = 0; k < units.all.size(); ++k)
      if (only < 0 || static_cast<int>(k) == only) f(*units.all[k], W.scratch[k].get());
  }
  UnitScratch* scratch_of(WorkspaceData& W, const AssemblyUnit* u) const {
    for (size_t k = 0; k < units.all.size(); ++k)
      if (units.all[k].get() == u) return W.scratch[k].get();
    return nullptr;
  }
  /// The rows at `level` (constraints(), constraint_velocity(), gamma()).
  void rows(WorkspaceData& W, double t, ConstVecRef q, ConstVecRef v, RowLevel level, VecRef out, int only = -1) const {
    W.kin.update(cx.bodies, q.data(), level == RowLevel::Position ? nullptr : v.data());
    const UnitState s{t, q, v, kNone, kNone, &W.kin};
    each(W, [&](const AssemblyUnit& u, UnitScratch* w) { u.rows(w, s, level, out); }, only);
  }
  /// C_q (level Position) or ∂Ċ/∂q (Velocity) into J.
  void rows_jacobian(WorkspaceData& W, double t, ConstVecRef q, ConstVecRef v, RowLevel level, SparseMatrix& J,
                     int only = -1) const {
    zero_values(J);
    if (level == RowLevel::Position) W.kin.update(cx.bodies, q.data(), nullptr);  // each body once, not per joint
    const UnitState s{t, q, v, kNone, kNone, level == RowLevel::Position ? &W.kin : nullptr};
    each(W, [&](const AssemblyUnit& u, UnitScratch* w) { u.add_jacobian(w, s, level, J); }, only);
  }
  void residual(WorkspaceData& W, double t, ConstVecRef q, ConstVecRef v, ConstVecRef a, ConstVecRef lambda, VecRef r,
                int only = -1) const {
    W.kin.update(cx.bodies, q.data(), v.data());  // every body once, for every unit
    const UnitState s{t, q, v, a, lambda, &W.kin};
    each(W, [&](const AssemblyUnit& u, UnitScratch* w) { u.residual(w, s, r); }, only);
  }
  void tangent(WorkspaceData& W, double t, ConstVecRef q, ConstVecRef v, ConstVecRef a, ConstVecRef lambda, double c_q,
               double c_v, double c_a, SparseMatrix& A, int only = -1) const {
    zero_values(A);
    const UnitState s{t, q, v, a, lambda, nullptr};
    each(W, [&](const AssemblyUnit& u, UnitScratch* w) { u.add_tangent(w, s, c_q, c_v, c_a, A); }, only);
  }
  int check_unit(int k) const {
    if (k < 0 || k >= static_cast<int>(units.all.size()))
      throw std::out_of_range("MultibodySystem: no unit " + std::to_string(k));
    return k;
  }
  void layout(const MultibodyOptions& options);
};

// ===================================================================================== setup

MultibodySystem::MultibodySystem(const System& model, MultibodyOptions options)
    : MultibodySystem(compile(model), std::move(options)) {}

MultibodySystem::MultibodySystem(std::shared_ptr<const CompiledModel> compiled, MultibodyOptions options)
    : impl_(std::make_unique<Impl>()) {
  if (!compiled) throw std::invalid_argument("MultibodySystem: no compiled model");
  Impl& I = *impl_;
  I.cx.cm = std::move(compiled);
  I.cx.options = options;
  I.units = units::make_units(I.cx);
  for (const units::ForceData& fd : I.units.forces->list()) I.force_names.push_back(fd.src->name);
  for (const units::BodyData& bd : I.cx.bodies.list)
    for (int li : bd.loads) I.force_names.push_back(I.model().loads()[static_cast<size_t>(li)].name);
  I.layout(options);
}

void MultibodySystem::Impl::layout(const MultibodyOptions& options) {
  // Coordinates and rows in the order of the unit list.
  UnitLayout L;
  for (size_t k = 0; k < units.all.size(); ++k) {
    const int r0 = L.num_rows();
    units.all[k]->claim(L);
    for (int r = r0; r < L.num_rows(); ++r) full_rows.emplace_back(static_cast<int>(k), r - r0);
  }
  n = L.num_coordinates();
  // Active rows.
  std::vector<bool> disabled(full_rows.size(), false);
  for (int r : options.disabled_rows) {
    if (r < 0 || r >= static_cast<int>(full_rows.size()))
      throw std::out_of_range("MultibodyOptions::disabled_rows: row " + std::to_string(r) + " does not exist");
    disabled[static_cast<size_t>(r)] = true;
  }
  std::vector<std::vector<int>> active(units.all.size());
  for (size_t r = 0; r < full_rows.size(); ++r) {
    const auto [u, local] = full_rows[r];
    int act = -1;
    if (!disabled[r]) {
      act = static_cast<int>(active_to_full.size());
      active_to_full.push_back(static_cast<int>(r));
      vel_row.push_back(units.all[static_cast<size_t>(u)]->row_velocity_level(local));
    }
    active[static_cast<size_t>(u)].push_back(act);
  }
  m = static_cast<int>(active_to_full.size());
  for (size_t k = 0; k < units.all.size(); ++k) units.all[k]->set_active_rows(std::move(active[k]));
  // Patterns, computed once.
  PatternBuilder tp(n, n), jp(m, n);
  for (const auto& u : units.all) u->add_pattern(tp, jp);
  tangent_pattern = tp.build();
  jacobian_pattern = jp.build();
  for (const auto& u : units.all) u->make_maps(tangent_pattern, jacobian_pattern);
}

MultibodySystem::~MultibodySystem() = default;

int MultibodySystem::num_coordinates() const { return impl_->n; }
int MultibodySystem::num_contact_pairs() const { return impl_->units.contacts->num_pairs(); }
int MultibodySystem::num_contact_pairs_near(Workspace& ws, ConstVecRef q) const {
  WorkspaceData& W = workspace_data<WorkspaceData>(ws);
  return static_cast<int>(impl_->units.contacts->active_pairs(impl_->scratch_of(W, impl_->units.contacts), q.data()).size());
}
MultibodySystem::Workspace MultibodySystem::make_workspace() const {
  auto W = std::make_unique<WorkspaceData>();
  for (const auto& u : impl_->units.all) W->scratch.push_back(u->make_scratch());
  return Workspace(*this, std::move(W));
}
int MultibodySystem::num_constraints() const { return impl_->m; }
const System& MultibodySystem::model() const { return impl_->model(); }
const std::shared_ptr<const CompiledModel>& MultibodySystem::compiled() const { return impl_->cx.cm; }
int MultibodySystem::body_offset(BodyIndex i) const { return impl_->cx.bodies.list.at(static_cast<size_t>(i)).off; }
int MultibodySystem::body_size(BodyIndex i) const { return impl_->cx.bodies.list.at(static_cast<size_t>(i)).n; }
int MultibodySystem::num_all_rows() const { return static_cast<int>(impl_->full_rows.size()); }
const SparseMatrix& MultibodySystem::tangent_pattern() const { return impl_->tangent_pattern; }
const SparseMatrix& MultibodySystem::jacobian_pattern() const { return impl_->jacobian_pattern; }

void MultibodySystem::initial_state(VecRef q0, VecRef v0) const {
  for (const auto& u : impl_->units.all) u->initial_state(q0, v0);
}

// ===================================================================================== residuals

void MultibodySystem::residual(Workspace& ws, double t, ConstVecRef q, ConstVecRef v, ConstVecRef a,
                               ConstVecRef lambda, VecRef r) const {
  impl_->residual(workspace_data<WorkspaceData>(ws), t, q, v, a, lambda, r);
}

void MultibodySystem::forces(Workspace& ws, double t, ConstVecRef q, ConstVecRef v, VecRef f) const {
  WorkspaceData& W = workspace_data<WorkspaceData>(ws);
  const UnitState s{t, q, v, kNone, kNone, nullptr};
  impl_->each(W, [&](const AssemblyUnit& u, UnitScratch* w) { u.forces(w, s, f); });
}

void MultibodySystem::constraints(Workspace& ws, double t, ConstVecRef q, VecRef c) const {
  impl_->rows(workspace_data<WorkspaceData>(ws), t, q, kNone, RowLevel::Position, c);
}

void MultibodySystem::constraint_velocity(Workspace& ws, double t, ConstVecRef q, ConstVecRef v, VecRef cv) const {
  impl_->rows(workspace_data<WorkspaceData>(ws), t, q, v, RowLevel::Velocity, cv);
}

void MultibodySystem::gamma(Workspace& ws, double t, ConstVecRef q, ConstVecRef v, VecRef g) const {
  impl_->rows(workspace_data<WorkspaceData>(ws), t, q, v, RowLevel::Acceleration, g);
}

// ===================================================================================== matrices

void MultibodySystem::assemble_tangent(Workspace& ws, double t, ConstVecRef q, ConstVecRef v, ConstVecRef a,
                                       ConstVecRef lambda, double c_q, double c_v, double c_a,
                                       SparseMatrix& A) const {
  impl_->tangent(workspace_data<WorkspaceData>(ws), t, q, v, a, lambda, c_q, c_v, c_a, A);
}

void MultibodySystem::assemble_mass(Workspace& ws, ConstVecRef q, SparseMatrix& M) const {
  WorkspaceData& W = workspace_data<WorkspaceData>(ws);
  zero_values(M);
  const UnitState s{0.0, q, kNone, kNone, kNone, nullptr};
  impl_->each(W, [&](const AssemblyUnit& u, UnitScratch* w) { u.add_mass(w, s, M); });
}

void MultibodySystem::assemble_jacobian(Workspace& ws, double t, ConstVecRef q, SparseMatrix& Cq) const {
  impl_->rows_jacobian(workspace_data<WorkspaceData>(ws), t, q, kNone, RowLevel::Position, Cq);
}

void MultibodySystem::assemble_velocity_jacobian(Workspace& ws, double t, ConstVecRef q, ConstVecRef v,
                                                 SparseMatrix& G) const {
  impl_->rows_jacobian(workspace_data<WorkspaceData>(ws), t, q, v, RowLevel::Velocity, G);
}

bool MultibodySystem::forces_read_multipliers() const { return !impl_->units.reaction_friction->empty(); }

void MultibodySystem::assemble_multiplier_tangent(Workspace& ws, double t, ConstVecRef q, ConstVecRef v,
                                                  ConstVecRef lambda, SparseMatrix& D) const {
  assemble_jacobian(ws, t, q, D);
  const units::ReactionFriction* rf = impl_->units.reaction_friction;
  if (rf->empty()) return;
  WorkspaceData& W = workspace_data<WorkspaceData>(ws);
  rf->add_multiplier_tangent(impl_->scratch_of(W, rf), UnitState{t, q, v, kNone, lambda, nullptr}, D);
}

// ===================================================================================== outputs

std::string MultibodySystem::coordinate_label(int i) const {
  for (const auto& u : impl_->units.all)
    if (std::string l = u->coordinate_label(i); !l.empty()) return l;
  return "coordinate " + std::to_string(i);
}

std::string MultibodySystem::all_row_label(int full_row) const {
  const auto [u, local] = impl_->full_rows.at(static_cast<size_t>(full_row));
  return impl_->units.all[static_cast<size_t>(u)]->row_label(local);
}

ItemRef MultibodySystem::all_row_item(int full_row) const {
  const auto [u, local] = impl_->full_rows.at(static_cast<size_t>(full_row));
  return impl_->units.all[static_cast<size_t>(u)]->row_item(local);
}

ItemRef MultibodySystem::constraint_item(int row) const {
  return all_row_item(impl_->active_to_full.at(static_cast<size_t>(row)));
}

std::string MultibodySystem::constraint_label(int row) const {
  return all_row_label(impl_->active_to_full.at(static_cast<size_t>(row)));
}

std::string MultibodySystem::coordinate_problem(ConstVecRef q, ConstVecRef v, double h) const {
  return impl_->units.bodies->coordinate_problem(q, v, h);
}

double MultibodySystem::energy(Workspace& ws, double t, ConstVecRef q, ConstVecRef v) const {
  return kinetic_energy(q, v) + potential_energy(ws, t, q);
}

double MultibodySystem::kinetic_energy(ConstVecRef q, ConstVecRef v) const {
  const UnitState s{0.0, q, v, kNone, kNone, nullptr};
  double E = 0;
  for (const auto& u : impl_->units.all) u->add_kinetic_energy(s, E);
  return E;
}

double MultibodySystem::potential_energy(Workspace& ws, double t, ConstVecRef q) const {
  WorkspaceData& W = workspace_data<WorkspaceData>(ws);
  const UnitState s{t, q, kNone, kNone, kNone, nullptr};
  double V = 0;
  impl_->each(W, [&](const AssemblyUnit& u, UnitScratch* w) { u.add_potential_energy(w, s, V); });
  return V;
}

const std::vector<std::string>& MultibodySystem::force_names() const { return impl_->force_names; }

void MultibodySystem::force_powers(Workspace& ws, double t, ConstVecRef q, ConstVecRef v, ForcePowers& p) const {
  WorkspaceData& W = workspace_data<WorkspaceData>(ws);
  const UnitState s{t, q, v, kNone, kNone, nullptr};
  impl_->units.forces->powers(impl_->scratch_of(W, impl_->units.forces), s, p);
  // Then the loads on the bodies (no potential), in the order of force_names().
  const units::BodyTable& bodies = impl_->cx.bodies;
  for (BodyIndex i = 0; i < static_cast<BodyIndex>(bodies.list.size()); ++i) {
    if (bodies[i].loads.empty()) continue;
    const units::Kin k = bodies.kin_state(i, q.data(), v.data());
    for (int li : bodies[i].loads) {
      p.total.push_back(detail::load_power(impl_->model().loads()[static_cast<size_t>(li)], t, k.R, k.v, k.w,
                                           impl_->model().loads()[static_cast<size_t>(li)].point));
      p.elastic.push_back(0.0);
      p.potential.push_back(0.0);
    }
  }
}

bool MultibodySystem::is_velocity_level(int row) const { return impl_->vel_row.at(static_cast<size_t>(row)) != 0; }

ConstraintViolation MultibodySystem::constraint_violation(Workspace& ws, double t, ConstVecRef q,
                                                          ConstVecRef v) const {
  const int m = impl_->m;
  WorkspaceData& W = workspace_data<WorkspaceData>(ws);
  VecX &c = W.viol_c, &cv = W.viol_cv;
  c.resize(m);  // no-op once sized
  cv.resize(m);
  constraints(ws, t, q, c);
  constraint_velocity(ws, t, q, v, cv);
  ConstraintViolation out;
  for (int r = 0; r < m; ++r) {
    if (!impl_->vel_row[static_cast<size_t>(r)]) out.position = std::max(out.position, std::abs(c[r]));
    out.velocity = std::max(out.velocity, std::abs(cv[r]));
  }
  return out;
}

JointCoordinate MultibodySystem::joint_coordinate(int joint, double t, ConstVecRef q, ConstVecRef v,
                                                  ConstVecRef a) const {
  return impl_->units.joints->coordinate(joint, t, q, v, a);
}

double MultibodySystem::joint_drive_force(int joint, double t, ConstVecRef q, ConstVecRef lambda) const {
  return impl_->units.joints->drive_force(joint, t, q, lambda);
}

JointReaction MultibodySystem::reaction(int joint, double t, ConstVecRef q, ConstVecRef lambda) const {
  return impl_->units.joints->reaction(joint, t, q, lambda);
}

std::vector<int> MultibodySystem::joint_rows(int joint) const {
  return impl_->units.joints->list().at(static_cast<size_t>(joint)).active_global;
}

// Kinematics of a body from the state (the body table's, units/RigidBodyKinematics.cpp).
Mat3 MultibodySystem::rotation(BodyIndex i, ConstVecRef q) const {
  return impl_->cx.bodies.kin_state(i, q.data(), nullptr).R;
}
Vec3 MultibodySystem::position(BodyIndex i, ConstVecRef q, const Vec3& p_B) const {
  const units::Kin k = impl_->cx.bodies.kin_state(i, q.data(), nullptr);
  return k.p + k.R * p_B;
}
Vec3 MultibodySystem::velocity(BodyIndex i, ConstVecRef q, ConstVecRef v, const Vec3& p_B) const {
  const units::Kin k = impl_->cx.bodies.kin_state(i, q.data(), v.data());
  return k.v + k.w.cross(k.R * p_B);
}
Vec3 MultibodySystem::angular_velocity(BodyIndex i, ConstVecRef q, ConstVecRef v) const {
  return impl_->cx.bodies.kin_state(i, q.data(), v.data()).w;
}
Vec3 MultibodySystem::angular_acceleration(BodyIndex i, ConstVecRef q, ConstVecRef v, ConstVecRef a) const {
  if (i == kGround) return Vec3::Zero();
  const units::Kin k = impl_->cx.bodies.kin_state(i, q.data(), v.data());
  const units::BodyData& bd = impl_->cx.bodies[i];
  return k.RG * a.segment(bd.off + 3, bd.nr) + k.ah;
}
Vec3 MultibodySystem::acceleration(BodyIndex i, ConstVecRef q, ConstVecRef v, ConstVecRef a, const Vec3& p_B) const {
  if (i == kGround) return Vec3::Zero();
  const units::Kin k = impl_->cx.bodies.kin_state(i, q.data(), v.data());
  const units::BodyData& bd = impl_->cx.bodies[i];
  const Vec3 al = k.RG * a.segment(bd.off + 3, bd.nr) + k.ah;
  const Vec3 r = k.R * p_B;
  return a.segment<3>(bd.off) + al.cross(r) + k.w.cross(k.w.cross(r));
}
Vec4 MultibodySystem::euler_parameters(BodyIndex i, ConstVecRef q) const {
  if (i != kGround && impl_->cx.bodies[i].nr == 4) return q.segment<4>(impl_->cx.bodies[i].off + 3).normalized();
  return math::matrix_to_ep(rotation(i, q));
}

int MultibodySystem::coupling_angle_coordinate(int joint) const { return impl_->units.angles->coordinate(joint); }
int MultibodySystem::shaft_coordinate(int shaft) const { return impl_->units.shafts->coordinate(shaft); }

JointCoordinate MultibodySystem::shaft_motion(int shaft, ConstVecRef q, ConstVecRef v, ConstVecRef a) const {
  const int c = shaft_coordinate(shaft);
  JointCoordinate out;
  out.value = q[c];
  out.rate = v[c];
  out.acceleration = a.size() == q.size() ? a[c] : std::numeric_limits<double>::quiet_NaN();
  return out;
}

CablePoint MultibodySystem::cable_point(int cable, double s, ConstVecRef q, ConstVecRef v) const {
  return impl_->units.cables->point(cable, s, q, v);
}

double MultibodySystem::shaft_force_effort(int force, double t, ConstVecRef q, ConstVecRef v) const {
  return impl_->units.shaft_forces->effort(force, t, q, v);
}

double MultibodySystem::coupling_multiplier(int coupling, ConstVecRef lambda) const {
  const int row = coupling_row(coupling);
  return row < 0 ? 0.0 : lambda[row];
}

int MultibodySystem::coupling_row(int coupling) const { return impl_->units.couplings->coupling_row(coupling); }
int MultibodySystem::controller_coordinate(int k) const { return impl_->units.controllers->coordinate(k); }

int MultibodySystem::num_units() const { return static_cast<int>(impl_->units.all.size()); }
const AssemblyUnit& MultibodySystem::unit(int k) const { return *impl_->units.all[static_cast<size_t>(impl_->check_unit(k))]; }

void MultibodySystem::unit_residual(Workspace& ws, int k, double t, ConstVecRef q, ConstVecRef v, ConstVecRef a,
                                    ConstVecRef lambda, VecRef r) const {
  r.setZero();
  impl_->residual(workspace_data<WorkspaceData>(ws), t, q, v, a, lambda, r, impl_->check_unit(k));
}
void MultibodySystem::unit_tangent(Workspace& ws, int k, double t, ConstVecRef q, ConstVecRef v, ConstVecRef a,
                                   ConstVecRef lambda, double c_q, double c_v, double c_a, SparseMatrix& A) const {
  impl_->tangent(workspace_data<WorkspaceData>(ws), t, q, v, a, lambda, c_q, c_v, c_a, A, impl_->check_unit(k));
}
void MultibodySystem::unit_rows(Workspace& ws, int k, double t, ConstVecRef q, ConstVecRef v, RowLevel level,
                                VecRef out) const {
  out.setZero();
  impl_->rows(workspace_data<WorkspaceData>(ws), t, q, v, level, out, impl_->check_unit(k));
}
void MultibodySystem::unit_jacobian(Workspace& ws, int k, double t, ConstVecRef q, ConstVecRef v, RowLevel level,
                                    SparseMatrix& J) const {
  impl_->rows_jacobian(workspace_data<WorkspaceData>(ws), t, q, v, level, J, impl_->check_unit(k));
}

}  // namespace mbdae
