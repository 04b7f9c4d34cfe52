// Static equilibrium by Newton's method with a line search; equations in Statics.h.

#include <mbdae/solvers/Statics.h>

#include <cmath>
#include <sstream>
#include <stdexcept>

#include <Eigen/SparseCholesky>

#include "Kkt.h"
#include <mbdae/solvers/Assembly.h>
#include <mbdae/solvers/SparseLu.h>

namespace mbdae {

namespace {
double inf_norm(const VecX& x) { return x.size() ? x.cwiseAbs().maxCoeff() : 0.0; }
}  // namespace

StaticsResult solve_static_equilibrium(const ConstrainedSystem& sys, const VecX& q0,
                                       const StaticsOptions& opt) {
  const int n = sys.num_coordinates(), m = sys.num_constraints();
  ConstrainedSystem::Workspace ws = sys.make_workspace();
  if (q0.size() != n)
    throw std::invalid_argument("static equilibrium: q0 has size " + std::to_string(q0.size()) +
                                ", expected " + std::to_string(n));
  StaticsResult res;
  const double t = opt.t;
  VecX q = q0, v = VecX::Zero(n);
  {
    AssemblyOptions ao;
    ao.tolerance = opt.constraint_tolerance;
    const AssemblyReport ar = assemble_initial_state(sys, t, q, v, ao);
    if (ar.position_violation_after > opt.constraint_tolerance) {
      res.q = q;
      res.lambda = VecX::Zero(m);
      res.constraint_residual = ar.position_violation_after;
      res.message = "static equilibrium: the starting configuration could not be assembled: " + ar.message;
      return res;
    }
  }
  v.setZero();
  const VecX zero_n = VecX::Zero(n);
  VecX lam = VecX::Zero(m);
  detail::Kkt K(sys);
  SparseLu lu;
  VecX r(n), c(m), rhs(n + m), f(n);
  sys.forces(ws, t, q, v, f);
  const double fscale = std::max(1.0, inf_norm(f));
  const double ftol = opt.force_tolerance * fscale;
  auto eval = [&](const VecX& qq, const VecX& ll, VecX& rr, VecX& cc) {
    sys.residual(ws, t, qq, zero_n, zero_n, ll, rr);
    sys.constraints(ws, t, qq, cc);
  };
  // Convergence: each residual below its tolerance. Line search: the smooth merit
  // ½‖D F‖² with constant D = diag(1/fscale, 1), for which the Newton step is a descent direction.
  auto converged = [&](const VecX& rr, const VecX& cc) {
    return inf_norm(rr) <= ftol && inf_norm(cc) <= opt.constraint_tolerance;
  };
  auto merit = [&](const VecX& rr, const VecX& cc) {
    return 0.5 * (rr.squaredNorm() / (fscale * fscale) + cc.squaredNorm());
  };
  // Least-squares multipliers at the start, C_qᵀλ ≈ f: without them the geometric stiffness
  // ∂(C_qᵀλ)/∂q — the only stiffness of a pendulum about its pivot — would be missing from the
  // first Newton matrix.
  if (m > 0) {
    SparseMatrix C = sys.jacobian_pattern();
    sys.assemble_jacobian(ws, t, q, C);
    const SparseMatrix Ct = C.transpose();
    Eigen::SimplicialLDLT<SparseMatrix> ldlt(SparseMatrix(C * Ct));
    if (ldlt.info() == Eigen::Success) {
      const VecX l0 = ldlt.solve(C * f);
      if (l0.allFinite()) lam = l0;
    }
  }
  eval(q, lam, r, c);
  double phi = merit(r, c);
  int it = 0;
  for (; it < opt.max_iterations && !converged(r, c); ++it) {
    sys.assemble_tangent(ws, t, q, zero_n, zero_n, lam, 1.0, 0.0, 0.0, K.A);
    sys.assemble_jacobian(ws, t, q, K.C);
    K.fill(1.0);
    if (!lu.factorize(K.S)) {
      res.message =
          "static equilibrium: the stiffness matrix is singular on the constraint manifold — a "
          "direction has neither stiffness nor constraint (a free mechanism or body under no "
          "restoring force is in neutral equilibrium), or the constraints are redundant";
      break;
    }
    rhs.head(n) = -r;
    rhs.tail(m) = -c;
    lu.solve(rhs);
    if (!rhs.allFinite()) {
      res.message = "static equilibrium: the Newton step is not finite (singular stiffness)";
      break;
    }
    // Backtracking on the merit function (a decrease of ‖F‖).
    double s = 1.0;
    VecX qn, ln, rn(n), cn(m);
    double phin = 0;
    for (int ls = 0; ls < 30; ++ls) {
      qn = q + s * rhs.head(n);
      ln = lam + s * rhs.tail(m);
      eval(qn, ln, rn, cn);
      phin = merit(rn, cn);
      if (std::isfinite(phin) && (phin <= (1 - 2e-4 * s) * phi || converged(rn, cn))) break;
      s *= 0.5;
    }
    if (!std::isfinite(phin) || (phin > phi && !converged(rn, cn))) {
      res.message = "static equilibrium: the line search found no decrease of the residual "
                    "(no equilibrium near this start, or an unstable/neutral direction)";
      ++it;
      break;
    }
    q = qn;
    lam = ln;
    r = rn;
    c = cn;
    phi = phin;
  }
  res.iterations = it;
  res.q = q;
  res.lambda = lam;
  res.force_residual = inf_norm(r);
  res.constraint_residual = inf_norm(c);
  res.converged = converged(r, c);
  if (!res.converged) {
    std::ostringstream s;
    s.precision(6);
    if (!res.message.empty()) s << res.message << "; ";
    else s << "static equilibrium did not converge in " << opt.max_iterations << " iterations; ";
    int kr = 0, kc = 0;
    if (n) r.cwiseAbs().maxCoeff(&kr);
    if (m) c.cwiseAbs().maxCoeff(&kc);
    s << "after " << it << " iterations the largest force residual is " << res.force_residual
      << " at " << (n ? sys.coordinate_label(kr) : std::string("-"));
    if (m) s << ", the largest constraint residual " << res.constraint_residual << " in "
             << sys.constraint_label(kc);
    res.message = s.str();
  } else {
    res.message.clear();
  }
  return res;
}

}  // namespace mbdae
