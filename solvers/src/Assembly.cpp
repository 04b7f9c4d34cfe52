#include <mbdae/solvers/Assembly.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include <Eigen/Dense>
#include <Eigen/SparseQR>
#include <Eigen/OrderingMethods>

#include "ConsistentAccelerations.h"
#include "Kkt.h"
#include <mbdae/solvers/SparseLu.h>

namespace mbdae {

namespace {
int worst(const VecX& c) {
  int k = 0;
  if (c.size()) c.cwiseAbs().maxCoeff(&k);
  return k;
}
double inf_norm(const VecX& c) { return c.size() ? c.cwiseAbs().maxCoeff() : 0.0; }

/// A ← identity on the tangent pattern.
void set_identity(SparseMatrix& A) {
  zero_values(A);
  for (int c = 0; c < A.cols(); ++c) A.valuePtr()[value_index(A, c, c)] = 1.0;
}
}  // namespace

AssemblyReport assemble_initial_state(const ConstrainedSystem& sys, double t0, VecX& q, VecX& v,
                                      const AssemblyOptions& opt) {
  AssemblyReport rep;
  const int n = sys.num_coordinates(), m = sys.num_constraints();
  ConstrainedSystem::Workspace ws = sys.make_workspace();
  VecX c(m), cv(m);
  sys.constraints(ws, t0, q, c);
  rep.position_violation_before = inf_norm(c);
  sys.constraint_velocity(ws, t0, q, v, cv);
  rep.velocity_violation_before = inf_norm(cv);
  if (m == 0) {
    rep.converged = true;
    return rep;
  }
  detail::Kkt K(sys);
  SparseLu lu;
  set_identity(K.A);
  VecX rhs(n + m);
  const VecX q_start = q;
  double prev = inf_norm(c);
  while (rep.iterations < opt.max_iterations && inf_norm(c) > opt.tolerance) {
    ++rep.iterations;
    sys.assemble_jacobian(ws, t0, q, K.C);
    bool factorized = false;
    if (opt.mass_weighted_positions) {
      sys.assemble_mass(ws, q, K.A);
      K.fill(1.0);
      factorized = lu.factorize(K.S);
      if (!factorized) set_identity(K.A);
    }
    if (!factorized) {
      K.fill(1.0);
      factorized = lu.factorize(K.S);
    }
    if (!factorized) {
      rep.message = "assembly: the constraint Jacobian is rank deficient (redundant constraints?)";
      break;
    }
    rhs.head(n).setZero();
    rhs.tail(m) = -c;
    lu.solve(rhs);
    // Damped step if the violation grows (far from the solution).
    double s = 1.0;
    VecX qn = q + rhs.head(n);
    sys.constraints(ws, t0, qn, c);
    while (inf_norm(c) > prev && s > 1.0 / 64) {
      s *= 0.5;
      qn = q + s * rhs.head(n);
      sys.constraints(ws, t0, qn, c);
    }
    q = qn;
    prev = inf_norm(c);
  }
  rep.position_violation_after = inf_norm(c);
  rep.position_change = (q - q_start).norm();
  if (rep.position_violation_after > opt.tolerance) {
    std::ostringstream s;
    rep.worst_row = worst(c);
    s << "assembly did not converge: after " << rep.iterations << " iterations ‖C‖∞ = "
      << rep.position_violation_after << " in " << sys.constraint_label(rep.worst_row);
    if (!rep.message.empty()) s << "; " << rep.message;
    rep.message = s.str();
    return rep;
  }
  // Velocities: the impulse the constraints would apply, Δv = argmin ½ Δvᵀ M Δv subject to
  // C_q (v + Δv) + C_t = 0, i.e. [M C_qᵀ; C_q 0] [Δv; μ] = [0; −Ċ] (M Δv = −C_qᵀ μ: momentum
  // changes only by the constraint impulse). The explicit path projects with the same metric (the
  // kinetic energy), so both paths start from the same velocities.
  sys.assemble_jacobian(ws, t0, q, K.C);
  sys.assemble_mass(ws, q, K.A);
  K.fill(1.0);
  sys.constraint_velocity(ws, t0, q, v, cv);
  rep.mass_weighted = lu.factorize(K.S);
  if (!rep.mass_weighted) {
    // A mass matrix singular on the constraints' null space (a massless direction): the
    // least-squares change of the coordinates instead, reported as such.
    set_identity(K.A);
    K.fill(1.0);
    if (!lu.factorize(K.S)) {
      rep.message = "assembly: the constraint Jacobian is rank deficient (redundant constraints?)";
      return rep;
    }
  }
  rhs.head(n).setZero();
  rhs.tail(m) = -cv;
  lu.solve(rhs);
  v += rhs.head(n);
  rep.velocity_change = rhs.head(n).norm();
  sys.constraint_velocity(ws, t0, q, v, cv);
  rep.velocity_violation_after = inf_norm(cv);
  const double vtol = opt.tolerance * std::max(1.0, v.cwiseAbs().maxCoeff());
  rep.converged = rep.velocity_violation_after <= vtol;
  if (!rep.converged) {
    std::ostringstream s;
    rep.worst_row = worst(cv);
    s << "velocity projection left ‖Ċ‖∞ = " << rep.velocity_violation_after << " in "
      << sys.constraint_label(rep.worst_row);
    rep.message = s.str();
  }
  return rep;
}

struct detail::ConsistentAccelerations::Impl {
  explicit Impl(const ConstrainedSystem& s)
      : sys(s), ws(s.make_workspace()), K(s), n(s.num_coordinates()), m(s.num_constraints()), rhs(n + m), r(n), g(m),
        d(n + m) {}
  const ConstrainedSystem& sys;
  ConstrainedSystem::Workspace ws;
  detail::Kkt K;
  SparseLu lu;
  int n, m;
  VecX rhs, r, g, d;
  bool chose_pivots = false;  // the last solve's first factorization chose its pivots
};

detail::ConsistentAccelerations::ConsistentAccelerations(const ConstrainedSystem& sys)
    : impl_(std::make_unique<Impl>(sys)) {}
detail::ConsistentAccelerations::~ConsistentAccelerations() = default;

void detail::ConsistentAccelerations::solve(double t, const VecX& q, const VecX& v, VecX& a, VecX& lambda) {
  Impl& I = *impl_;
  const ConstrainedSystem& sys = I.sys;
  ConstrainedSystem::Workspace& ws = I.ws;
  detail::Kkt& K = I.K;
  SparseLu& lu = I.lu;
  const int n = I.n, m = I.m;
  sys.assemble_mass(ws, q, K.A);
  sys.assemble_jacobian(ws, t, q, K.C);
  K.fill(1.0);
  I.chose_pivots = true;  // (also if the factorization fails: the next one starts afresh)
  if (!lu.factorize(K.S))
    throw std::runtime_error(
        "initial accelerations: the KKT matrix [M C_qᵀ; C_q 0] is singular (redundant "
        "constraints, or a body without mass or inertia in a free direction)");
  I.chose_pivots = lu.chose_pivots();
  VecX& rhs = I.rhs;
  sys.forces(ws, t, q, v, rhs.head(n));
  sys.gamma(ws, t, q, v, rhs.tail(m));
  lu.solve(rhs);
  a = rhs.head(n);
  lambda = rhs.tail(m);
  if (!sys.forces_read_multipliers() || m == 0) return;
  // Forces that read λ (joint friction by reaction): the equations M a + C_qᵀ λ = f(λ), C_q a = γ
  // are nonlinear in λ. Newton from the solution without them, with the iteration matrix
  // [M, (∂r/∂λ); C_q, 0], until the correction is at round-off relative to the solution.
  VecX &r = I.r, &g = I.g, &d = I.d;
  sys.gamma(ws, t, q, v, g);
  for (int it = 0; it < 50; ++it) {
    sys.residual(ws, t, q, v, a, lambda, r);
    sys.assemble_multiplier_tangent(ws, t, q, v, lambda, K.CT);
    K.fill(1.0, false, 0.0, true);
    if (!lu.factorize(K.S))
      throw std::runtime_error("initial accelerations: the matrix [M ∂r/∂λ; C_q 0] with the friction by reaction is singular");
    d.head(n) = -r;
    d.tail(m) = g - K.C * a;
    lu.solve(d);
    if (!d.allFinite()) throw std::runtime_error("initial accelerations: the friction by reaction gives no finite solution");
    a += d.head(n);
    lambda += d.tail(m);
    const double scale = std::max({1.0, a.cwiseAbs().maxCoeff(), lambda.cwiseAbs().maxCoeff()});
    if (d.cwiseAbs().maxCoeff() <= 1e-13 * scale) return;
  }
  throw std::runtime_error(
      "initial accelerations: the Newton iteration for the friction by reaction did not converge in 50 iterations");
}

bool detail::ConsistentAccelerations::chose_pivots() const { return impl_->chose_pivots; }

void initial_accelerations(const ConstrainedSystem& sys, double t, const VecX& q, const VecX& v,
                           VecX& a, VecX& lambda) {
  detail::ConsistentAccelerations(sys).solve(t, q, v, a, lambda);
}

namespace {

// Scales the rows of C to unit norm, so that a rank tolerance is relative per equation.
void normalize_rows(SparseMatrix& C) {
  VecX rn = VecX::Zero(C.rows());
  for (int c = 0; c < C.outerSize(); ++c)
    for (SparseMatrix::InnerIterator it(C, c); it; ++it) rn[it.row()] += it.value() * it.value();
  for (int c = 0; c < C.outerSize(); ++c)
    for (SparseMatrix::InnerIterator it(C, c); it; ++it)
      it.valueRef() /= std::sqrt(std::max(rn[it.row()], 1e-300));
}

// The rows of a row-normalised C (m×n) that depend on earlier rows (the slow path of the rank
// test, for a C that is not recognised as of full row rank).
void dependent_rows(const SparseMatrix& C, double tol, RedundancyReport& rep) {
  const int n = static_cast<int>(C.cols()), m = static_cast<int>(C.rows());
  std::vector<int> dep;
  if (static_cast<long>(n) * m <= 250'000) {
    // Dense rank-revealing QR of C_qᵀ (columns = equations). Column pivoting picks independent
    // equations greedily; to report the *later* equations as dependent we process equations in
    // order with an incremental orthogonal basis (modified Gram–Schmidt, twice).
    const MatX Ct = MatX(C).transpose();
    MatX Q(n, 0);
    Q.resize(n, std::min(n, m));
    int r = 0;
    for (int j = 0; j < m; ++j) {
      VecX x = Ct.col(j);
      for (int pass = 0; pass < 2; ++pass)
        for (int k = 0; k < r; ++k) x -= Q.col(k).dot(x) * Q.col(k);
      const double nx = x.norm();
      if (nx > tol && r < Q.cols()) {
        Q.col(r++) = x / nx;
      } else {
        dep.push_back(j);
      }
    }
    rep.rank = r;
  } else {
    Eigen::SparseQR<SparseMatrix, Eigen::COLAMDOrdering<int>> qr;
    SparseMatrix Ct = C.transpose();
    Ct.makeCompressed();
    qr.setPivotThreshold(tol);
    qr.compute(Ct);
    rep.rank = static_cast<int>(qr.rank());
    const auto& P = qr.colsPermutation();
    std::vector<bool> indep(static_cast<size_t>(m), false);
    for (int k = 0; k < rep.rank; ++k) indep[static_cast<size_t>(P.indices()[k])] = true;
    for (int j = 0; j < m; ++j)
      if (!indep[static_cast<size_t>(j)]) dep.push_back(j);
  }
  rep.dependent_rows = dep;
}

}  // namespace

RedundancyReport find_redundant_constraints(const ConstrainedSystem& sys, double t, const VecX& q,
                                            double tol) {
  RedundancyReport rep;
  const int m = sys.num_constraints();
  ConstrainedSystem::Workspace ws = sys.make_workspace();
  rep.rows = m;
  if (m == 0) return rep;
  SparseMatrix C = sys.jacobian_pattern();
  sys.assemble_jacobian(ws, t, q, C);
  normalize_rows(C);
  {
    // Fast path: if [I C_qᵀ; C_q 0] factorises with healthy pivots, C_q has full row rank.
    detail::Kkt K(sys);
    set_identity(K.A);
    K.C = C;
    K.fill(1.0);
    SparseLu lu;
    if (lu.factorize(K.S) && lu.rcond() > 1e-8) {
      rep.rank = m;
      return rep;
    }
  }
  dependent_rows(C, tol, rep);
  return rep;
}

RedundancyReport find_dependent_rows(SparseMatrix C, double tol) {
  RedundancyReport rep;
  const int n = static_cast<int>(C.cols()), m = static_cast<int>(C.rows());
  rep.rows = m;
  if (m == 0) return rep;
  C.makeCompressed();
  normalize_rows(C);
  {
    // Fast path as in find_redundant_constraints(): [I Cᵀ; C 0] by a sparse LU, O(nnz) for chains
    // and trees.
    std::vector<Eigen::Triplet<double>> tr;
    tr.reserve(static_cast<size_t>(n + 2 * C.nonZeros() + m));
    for (int i = 0; i < n; ++i) tr.emplace_back(i, i, 1.0);
    for (int c = 0; c < C.outerSize(); ++c)
      for (SparseMatrix::InnerIterator it(C, c); it; ++it) {
        tr.emplace_back(n + static_cast<int>(it.row()), c, it.value());
        tr.emplace_back(c, n + static_cast<int>(it.row()), it.value());
      }
    for (int r = 0; r < m; ++r) tr.emplace_back(n + r, n + r, 0.0);  // the diagonal in the pattern
    SparseMatrix S(n + m, n + m);
    S.setFromTriplets(tr.begin(), tr.end());
    S.makeCompressed();
    SparseLu lu;
    if (lu.factorize(S) && lu.rcond() > 1e-8) {
      rep.rank = m;
      return rep;
    }
  }
  dependent_rows(C, tol, rep);
  return rep;
}

}  // namespace mbdae
