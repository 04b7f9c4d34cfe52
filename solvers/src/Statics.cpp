// Static equilibrium by Newton's method with a line search; equations in Statics.h.

#include <mbdae/solvers/Statics.h>

#include <algorithm>
#include <cmath>
#include <limits>
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
  // The force residual cannot fall below the round-off of the coordinates it is evaluated at:
  // ffloor = 4 ε max_i Σ_j |∂r_i/∂q_j| |q_j| (from each Newton matrix). It matters for stiff
  // elements whose force is a small difference of coordinates, e.g. a steel cable's axial force
  // EA (|r'| − 1), which changes by about EA ε for one unit in the last place of its slope.
  double ffloor = 0;
  auto converged = [&](const VecX& rr, const VecX& cc) {
    return inf_norm(rr) <= std::max(ftol, ffloor) && inf_norm(cc) <= opt.constraint_tolerance;
  };
  auto merit = [&](const VecX& rr, const VecX& cc) {
    return 0.5 * (rr.squaredNorm() / (fscale * fscale) + cc.squaredNorm());
  };
  // Least-squares multipliers at the start, C_qᵀλ ≈ f: without them the geometric stiffness
  // ∂(C_qᵀλ)/∂q — the only stiffness of a pendulum about its pivot — would be missing from the
  // first Newton matrix.
  if (m > 0) lam = least_squares_multipliers(sys, t, q);
  eval(q, lam, r, c);
  double phi = merit(r, c);
  // The stabilizer α M (Statics.h): the mass matrix on the tangent pattern, and its seed.
  SparseMatrix Ms;
  double alpha = 0, alpha_seed = 0;
  if (opt.stabilize) {
    Ms = sys.tangent_pattern();
    sys.assemble_mass(ws, q, Ms);
    double mmax = 0;
    for (int k = 0; k < Ms.outerSize(); ++k) mmax = std::max(mmax, std::abs(Ms.coeff(k, k)));
    if (mmax > 0) alpha_seed = fscale / mmax;
  }
  const double alpha_max = alpha_seed * 1e12;
  // Raises α after a failed attempt; false if it cannot be raised any more.
  auto raise_alpha = [&]() {
    if (alpha_seed <= 0 || alpha >= alpha_max) return false;
    alpha = alpha < alpha_seed ? alpha_seed : 10 * alpha;
    return true;
  };
  int it = 0;
  std::string last_failure;
  VecX q_keep, l_keep, r_keep, c_keep;  // where the non-monotone steps began
  double phi_keep = 0;
  bool watching = false;
  int watch_budget = opt.nonmonotone_steps;
  for (; it < opt.max_iterations && !converged(r, c); ++it) {
    sys.assemble_tangent(ws, t, q, zero_n, zero_n, lam, 1.0, 0.0, 0.0, K.A);
    {
      VecX rowsum = VecX::Zero(n);
      for (int j = 0; j < K.A.outerSize(); ++j)
        for (SparseMatrix::InnerIterator e(K.A, j); e; ++e) rowsum[e.row()] += std::abs(e.value() * q[j]);
      ffloor = n ? 4 * std::numeric_limits<double>::epsilon() * rowsum.maxCoeff() : 0.0;
    }
    if (alpha > 0) {
      sys.assemble_mass(ws, q, Ms);
      // Both matrices are copies of the tangent pattern: the sum is one of their values.
      Eigen::Map<VecX>(K.A.valuePtr(), K.A.nonZeros()) += alpha * Eigen::Map<const VecX>(Ms.valuePtr(), Ms.nonZeros());
      ++res.stabilized_iterations;
    }
    sys.assemble_jacobian(ws, t, q, K.C);
    K.fill(1.0);
    if (!lu.factorize(K.S)) {
      last_failure =
          "static equilibrium: the stiffness matrix is singular on the constraint manifold — a "
          "direction has neither stiffness nor constraint (a free mechanism or body under no "
          "restoring force is in neutral equilibrium), or the constraints are redundant";
      if (raise_alpha()) continue;
      res.message = last_failure;
      break;
    }
    rhs.head(n) = -r;
    rhs.tail(m) = -c;
    lu.solve(rhs);
    if (!rhs.allFinite()) {
      last_failure = "static equilibrium: the Newton step is not finite (singular stiffness)";
      if (raise_alpha()) continue;
      res.message = last_failure;
      break;
    }
    VecX qn, ln, rn(n), cn(m);
    double phin = 0;
    if (alpha > 0) {
      // Pseudo-transient continuation: the full step, α following the residual (switched
      // evolution relaxation, Kelley & Keyes 1998, eq. 1.6: the pseudo-time step 1/α grows by
      // the factor the residual fell). No line search: the step of the overdamped motion may raise
      // ‖F‖ (away from an unstable equilibrium it must); a step that raises it tenfold or more, or
      // is not finite, is retried with α × 10.
      qn = q + rhs.head(n);
      ln = lam + rhs.tail(m);
      eval(qn, ln, rn, cn);
      phin = merit(rn, cn);
      if (!std::isfinite(phin) || phin > 100 * phi) {
        last_failure = "static equilibrium: the stabilized step raised the residual tenfold";
        if (raise_alpha()) continue;
        res.message = last_failure;
        ++it;
        break;
      }
      const double ratio = std::sqrt(phin / phi);
      alpha = std::max(alpha_seed * 1e-12, alpha * std::clamp(std::isfinite(ratio) ? ratio : 1.0, 1e-3, 10.0));
    } else if (opt.nonmonotone_steps > 0 && watch_budget > 0) {
      // Non-monotone (watchdog) steps, StaticsOptions::nonmonotone_steps: full Newton steps even
      // where ‖F‖ rises, until it falls below the value where they began; if it has not after that
      // many steps, back to that point and to the line search (Chamberlain, Powell, Lemarechal,
      // Pedersen, Math. Prog. Study 16, 1982).
      if (!watching) {
        q_keep = q;
        l_keep = lam;
        r_keep = r;
        c_keep = c;
        phi_keep = phi;
        watching = true;
      }
      qn = q + rhs.head(n);
      ln = lam + rhs.tail(m);
      eval(qn, ln, rn, cn);
      phin = merit(rn, cn);
      --watch_budget;
      if (std::isfinite(phin) && (phin <= (1 - 2e-4) * phi_keep || converged(rn, cn))) {
        watching = false;
        watch_budget = opt.nonmonotone_steps;
      } else if (!std::isfinite(phin) || watch_budget == 0) {
        q = q_keep;  // back to where the watch began; the line search from there
        lam = l_keep;
        r = r_keep;
        c = c_keep;
        phi = phi_keep;
        watching = false;
        watch_budget = 0;
        continue;
      }
    } else {
      // Backtracking on the merit function (a decrease of ‖F‖).
      double s = 1.0;
      for (int ls = 0; ls < 30; ++ls) {
        qn = q + s * rhs.head(n);
        ln = lam + s * rhs.tail(m);
        eval(qn, ln, rn, cn);
        phin = merit(rn, cn);
        if (std::isfinite(phin) && (phin <= (1 - 2e-4 * s) * phi || converged(rn, cn))) break;
        s *= 0.5;
      }
      if (!std::isfinite(phin) || (phin > phi && !converged(rn, cn))) {
        last_failure = "static equilibrium: the line search found no decrease of the residual "
                       "(no equilibrium near this start, or an unstable/neutral direction)";
        if (raise_alpha()) continue;
        res.message = last_failure;
        ++it;
        break;
      }
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
    if (res.stabilized_iterations > 0)
      s << " (" << res.stabilized_iterations << " iterations with the stabilizer α M, α last " << alpha << " 1/s²)";
    res.message = s.str();
  } else {
    res.message.clear();
  }
  return res;
}

VecX least_squares_multipliers(const ConstrainedSystem& sys, double t, const VecX& q) {
  const int n = sys.num_coordinates(), m = sys.num_constraints();
  if (q.size() != n)
    throw std::invalid_argument("least-squares multipliers: q has size " + std::to_string(q.size()) +
                                ", expected " + std::to_string(n));
  VecX lam = VecX::Zero(m);
  if (m == 0) return lam;
  ConstrainedSystem::Workspace ws = sys.make_workspace();
  VecX f(n);
  sys.forces(ws, t, q, VecX::Zero(n), f);
  SparseMatrix C = sys.jacobian_pattern();
  sys.assemble_jacobian(ws, t, q, C);
  const SparseMatrix Ct = C.transpose();
  Eigen::SimplicialLDLT<SparseMatrix> ldlt(SparseMatrix(C * Ct));
  if (ldlt.info() == Eigen::Success) {
    const VecX l0 = ldlt.solve(C * f);
    if (l0.allFinite()) lam = l0;
  }
  return lam;
}

}  // namespace mbdae
