#include <mbdae/solvers/Simulation.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

#include <mbdae/formulations/CompiledModel.h>
#include <mbdae/solvers/GeneralizedAlpha.h>

namespace mbdae {

namespace {

/// Names of the joints whose active rows (of `sys`) combine to row `row` of the full system
/// `full` at (t, q): the least-squares combination of the active rows' Jacobian rows that gives
/// row `row`'s; empty for large systems (the dense solve would cost too much) or none found.
std::vector<std::string> conflict_partners(const MultibodySystem& full, const MultibodySystem& sys, int row,
                                           double t, const VecX& q) {
  const int n = full.num_coordinates(), m = sys.num_constraints();
  std::vector<std::string> names;
  if (static_cast<long>(n) * m > 250'000 || m == 0) return names;
  SparseMatrix Jf = full.jacobian_pattern(), Js = sys.jacobian_pattern();
  MultibodySystem::Workspace wf = full.make_workspace(), ws = sys.make_workspace();
  full.assemble_jacobian(wf, t, q, Jf);
  sys.assemble_jacobian(ws, t, q, Js);
  const MatX A = MatX(Js).transpose();  // n x m
  const VecX b = MatX(Jf).row(row).transpose();
  const VecX x = A.colPivHouseholderQr().solve(b);
  const double xmax = x.cwiseAbs().maxCoeff();
  const auto& joints = full.model().joints();
  for (size_t j = 0; j < joints.size(); ++j)
    for (int r : sys.joint_rows(static_cast<int>(j)))
      if (std::abs(x[r]) > 1e-6 * xmax) {
        names.push_back("'" + joints[j].name + "'");
        break;
      }
  return names;
}

}  // namespace

PreparedSystem prepare(const System& model, double t0, const AssemblyOptions& opt, const MultibodyOptions& mb) {
  return prepare(compile(model), t0, opt, mb);
}

PreparedSystem prepare(std::shared_ptr<const CompiledModel> model, double t0, const AssemblyOptions& opt,
                       const MultibodyOptions& mb) {
  if (!model) throw std::invalid_argument("prepare: no compiled model");
  PreparedSystem p;
  MultibodyOptions base = mb;
  base.disabled_rows.clear();
  p.system = std::make_unique<MultibodySystem>(model, base);
  const int n = p.system->num_coordinates();
  p.q0.resize(n);
  p.v0.resize(n);
  p.system->initial_state(p.q0, p.v0);
  // Redundancy is judged at the initial configuration as given (before assembly: a model whose
  // loop does not close still shows its structural redundancy).
  p.redundancy = find_redundant_constraints(*p.system, t0, p.q0);
  std::unique_ptr<MultibodySystem> full;  // every row, to check the removed ones after assembly
  if (!p.redundancy.dependent_rows.empty()) {
    std::ostringstream w;
    w << "redundant constraints: the constraint Jacobian has rank " << p.redundancy.rank << " of "
      << p.redundancy.rows << " rows; removed ";
    for (size_t k = 0; k < p.redundancy.dependent_rows.size(); ++k)
      w << (k ? ", " : "") << p.system->all_row_label(p.redundancy.dependent_rows[k]);
    p.warnings.push_back(w.str());
    p.warning_items.push_back(p.system->all_row_item(p.redundancy.dependent_rows.front()));
    MultibodyOptions mo = base;
    mo.disabled_rows = p.redundancy.dependent_rows;
    full = std::move(p.system);
    p.system = std::make_unique<MultibodySystem>(model, mo);
  }
  const VecX q_given = p.q0, v_given = p.v0;
  p.assembly = assemble_initial_state(*p.system, t0, p.q0, p.v0, opt);
  if (!p.assembly.converged)
    throw ItemError("initial assembly failed: " + p.assembly.message,
                    p.assembly.worst_row >= 0 ? p.system->constraint_item(p.assembly.worst_row) : ItemRef{});
  if (full) {
    // A removed equation is redundant only if it holds where the others hold: at the assembled
    // positions and velocities, and with the accelerations the others give. Otherwise it
    // conflicts with them (a joint that cannot close, a drive against a locked structure).
    const int m = full->num_constraints();
    VecX c(m), cv(m), g(m), a, lambda;
    MultibodySystem::Workspace wf = full->make_workspace();
    full->constraints(wf, t0, p.q0, c);
    full->constraint_velocity(wf, t0, p.q0, p.v0, cv);
    full->gamma(wf, t0, p.q0, p.v0, g);
    VecX ca = VecX::Zero(m);
    try {
      initial_accelerations(*p.system, t0, p.q0, p.v0, a, lambda);
      SparseMatrix Cq = full->jacobian_pattern();
      full->assemble_jacobian(wf, t0, p.q0, Cq);
      ca = Cq * a - g;
    } catch (const std::exception&) {
      // no accelerations (singular mass matrix): positions and velocities are still checked
    }
    const double scale = std::max(1.0, p.q0.cwiseAbs().maxCoeff());
    std::vector<ModelProblem> problems;
    for (int r : p.redundancy.dependent_rows) {
      const char* level = nullptr;
      double residual = 0;
      if (std::abs(c[r]) > 1e-8 * scale) level = "position", residual = c[r];
      else if (std::abs(cv[r]) > 1e-8 * std::max(1.0, p.v0.cwiseAbs().maxCoeff())) level = "velocity", residual = cv[r];
      else if (std::abs(ca[r]) > 1e-6 * std::max(1.0, a.size() ? a.cwiseAbs().maxCoeff() : 0.0))
        level = "acceleration", residual = ca[r];
      if (!level) continue;
      const std::vector<std::string> partners = conflict_partners(*full, *p.system, r, t0, p.q0);
      std::ostringstream e;
      e.precision(3);
      e << "conflicting constraints: " << full->all_row_label(r)
        << " depends on the other equations but does not hold with them (" << level << " residual " << residual
        << " after the initial assembly)";
      if (!partners.empty()) {
        e << "; it conflicts with joint" << (partners.size() > 1 ? "s " : " ");
        for (size_t k = 0; k < partners.size(); ++k) e << (k ? ", " : "") << partners[k];
      }
      e << ". A redundant equation must be satisfied where the others are: check the joints' points, lengths "
           "and motions";
      problems.push_back({e.str(), full->all_row_item(r)});
    }
    if (!problems.empty()) throw ModelError(std::move(problems));
  }
  if (p.assembly.position_change > 1e-9 || p.assembly.velocity_change > 1e-9) {
    std::ostringstream w;
    w.precision(3);
    w << "initial state adjusted to satisfy the constraints: |Δq| = " << p.assembly.position_change
      << ", |Δv| = " << p.assembly.velocity_change;
    if (p.assembly.velocity_change > 1e-9)
      w << (p.assembly.mass_weighted ? " (velocities: the impulse of the joints, least kinetic energy)"
                                     : " (velocities: least-squares change; the mass matrix is singular on the joints)");
    // Which bodies moved, by how much (reference point and angular velocity, world); the warning is
    // about the first of them.
    const MultibodySystem& sys = *p.system;
    ItemRef first_moved;
    for (size_t i = 0; i < model->bodies().size(); ++i) {
      const BodyIndex b = static_cast<BodyIndex>(i);
      const double dp = (sys.position(b, p.q0) - sys.position(b, q_given)).norm();
      const double dv = (sys.velocity(b, p.q0, p.v0) - sys.velocity(b, q_given, v_given)).norm();
      const double dw = (sys.angular_velocity(b, p.q0, p.v0) - sys.angular_velocity(b, q_given, v_given)).norm();
      if (!(dp > 1e-9 || dv > 1e-9 || dw > 1e-9)) continue;
      if (!first_moved) first_moved = ItemRef::body(static_cast<int>(i));
      w << "; body '" << model->bodies()[i].name << "': |Δp| = " << dp << " m, |Δv| = " << dv << " m/s, |Δω| = " << dw
        << " rad/s";
    }
    p.warnings.push_back(w.str());
    p.warning_items.push_back(first_moved);
  }
  return p;
}

SolveResult simulate(const ConstrainedSystem& sys, double t0, const VecX& q0, const VecX& v0,
                     const SimulationSettings& s, const Observer& obs) {
  if (!(s.t_end >= t0)) throw SolverSettingsError("end time must not be before the start time");
  auto integ = make_integrator(sys, t0, q0, v0, s);
  return run_to_end(sys, *integ, s, obs);
}

}  // namespace mbdae
