#include <mbdae/validation/GenericDae.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include <mbdae/formulations/Sparsity.h>

namespace mbdae::validation {
namespace {

const double kEps = std::numeric_limits<double>::epsilon();
const double kCbrtEps = std::cbrt(kEps);       // ≈ 6.1e-6
const double kQuartEps = std::sqrt(std::sqrt(kEps));  // ≈ 1.2e-4

/// Central-difference step for coordinate value x: ε^(1/3)·max(1, |x|), rounded so that x ± h is
/// exactly representable relative to x (the difference quotient then uses the true step).
double fd_step(double x) {
  const double h = kCbrtEps * std::max(1.0, std::abs(x));
  const volatile double xp = x + h;
  return xp - x;
}

/// The value array of a matrix with a dense (all entries stored) compressed-column pattern, seen
/// as a column-major dense matrix.
Eigen::Map<MatX> dense_values(SparseMatrix& A, int rows, int cols, const char* what) {
  if (A.rows() != rows || A.cols() != cols || !A.isCompressed() ||
      A.nonZeros() != static_cast<Eigen::Index>(rows) * cols)
    throw std::logic_error(std::string("GenericDae: ") + what +
                           " matrix does not have the dense pattern " + std::to_string(rows) +
                           "x" + std::to_string(cols));
  return Eigen::Map<MatX>(A.valuePtr(), rows, cols);
}

}  // namespace

GenericDae::GenericDae(Functions fns) : fns_(std::move(fns)) {
  const int n = fns_.n, m = fns_.m;
  if (n <= 0) throw std::invalid_argument("GenericDae: n must be positive, got " + std::to_string(n));
  if (m < 0) throw std::invalid_argument("GenericDae: m must be >= 0, got " + std::to_string(m));
  if (!fns_.mass) throw std::invalid_argument("GenericDae: the mass function is missing");
  if (!fns_.forces) throw std::invalid_argument("GenericDae: the force function is missing");
  if (m > 0 && !fns_.constraints)
    throw std::invalid_argument("GenericDae: m = " + std::to_string(m) +
                                " but the constraint function is missing");
  if (fns_.q0.size() == 0) fns_.q0 = VecX::Zero(n);
  if (fns_.v0.size() == 0) fns_.v0 = VecX::Zero(n);
  if (fns_.q0.size() != n || fns_.v0.size() != n)
    throw std::invalid_argument("GenericDae: expected q0, v0 of size " + std::to_string(n) +
                                ", got " + std::to_string(fns_.q0.size()) + " and " +
                                std::to_string(fns_.v0.size()));
  if (!fns_.coordinate_names.empty() && static_cast<int>(fns_.coordinate_names.size()) != n)
    throw std::invalid_argument("GenericDae: expected " + std::to_string(n) +
                                " coordinate names, got " +
                                std::to_string(fns_.coordinate_names.size()));
  if (!fns_.constraint_names.empty() && static_cast<int>(fns_.constraint_names.size()) != m)
    throw std::invalid_argument("GenericDae: expected " + std::to_string(m) +
                                " constraint names, got " +
                                std::to_string(fns_.constraint_names.size()));
  PatternBuilder T(n, n);
  T.add_block(0, n, 0, n);
  tangent_pattern_ = T.build();
  PatternBuilder C(m, n);
  C.add_block(0, m, 0, n);
  jacobian_pattern_ = C.build();
}

void GenericDae::initial_state(VecRef q0, VecRef v0) const {
  q0 = fns_.q0;
  v0 = fns_.v0;
}

MatX GenericDae::mass_matrix(ConstVecRef q) const {
  MatX M = MatX::Zero(fns_.n, fns_.n);
  fns_.mass(q, M);
  return M;
}

MatX GenericDae::constraint_jacobian(ConstVecRef q) const {
  const int n = fns_.n, m = fns_.m;
  MatX G = MatX::Zero(m, n);
  if (m == 0) return G;
  if (fns_.jacobian) {
    fns_.jacobian(q, G);
    return G;
  }
  VecX qp = q, gp(m), gm(m);
  for (int j = 0; j < n; ++j) {
    const double h = fd_step(q[j]);
    qp[j] = q[j] + h;
    fns_.constraints(qp, gp);
    qp[j] = q[j] - h;
    fns_.constraints(qp, gm);
    qp[j] = q[j];
    G.col(j) = (gp - gm) / (2 * h);
  }
  return G;
}

void GenericDae::residual(Workspace& /*ws*/, double t, ConstVecRef q, ConstVecRef v, ConstVecRef a,
                          ConstVecRef lambda, VecRef r) const {
  VecX f(fns_.n);
  fns_.forces(t, q, v, f);
  r = mass_matrix(q) * a - f;
  if (fns_.m > 0) r.noalias() += constraint_jacobian(q).transpose() * lambda;
}

void GenericDae::forces(Workspace& /*ws*/, double t, ConstVecRef q, ConstVecRef v, VecRef f) const {
  fns_.forces(t, q, v, f);
}

void GenericDae::constraints(Workspace& /*ws*/, double /*t*/, ConstVecRef q, VecRef c) const {
  if (fns_.m > 0) fns_.constraints(q, c);
}

void GenericDae::constraint_velocity(Workspace& /*ws*/, double /*t*/, ConstVecRef q, ConstVecRef v,
                                     VecRef cv) const {
  if (fns_.m > 0) cv.noalias() = constraint_jacobian(q) * v;
}

void GenericDae::gamma(Workspace& /*ws*/, double /*t*/, ConstVecRef q, ConstVecRef v, VecRef g) const {
  const int m = fns_.m;
  if (m == 0) return;
  if (fns_.gamma) {
    fns_.gamma(q, v, g);
    return;
  }
  const double vmax = v.cwiseAbs().maxCoeff();
  if (vmax == 0.0) {  // γ is quadratic in v
    g.setZero();
    return;
  }
  if (fns_.jacobian) {
    // −d/ds [G(q + s v) v] at s = 0, central difference.
    const double s = kCbrtEps / vmax;
    const VecX qp = q + s * v, qm = q - s * v;
    g = -(constraint_jacobian(qp) * v - constraint_jacobian(qm) * v) / (2 * s);
    return;
  }
  // −d²/ds² g(q + s v) at s = 0, second difference.
  const double s = kQuartEps / vmax;
  VecX gp(m), g0(m), gm(m);
  fns_.constraints(q + s * v, gp);
  fns_.constraints(q, g0);
  fns_.constraints(q - s * v, gm);
  g = -(gp - 2 * g0 + gm) / (s * s);
}

void GenericDae::assemble_tangent(Workspace& ws, double t, ConstVecRef q, ConstVecRef v, ConstVecRef a,
                                  ConstVecRef lambda, double c_q, double c_v, double c_a,
                                  SparseMatrix& A) const {
  const int n = fns_.n;
  auto T = dense_values(A, n, n, "tangent");
  T.setZero();
  if (c_a != 0.0) T += c_a * mass_matrix(q);
  VecX rp(n), rm(n);
  if (c_q != 0.0) {
    VecX qp = q;
    for (int j = 0; j < n; ++j) {
      const double h = fd_step(q[j]);
      qp[j] = q[j] + h;
      residual(ws, t, qp, v, a, lambda, rp);
      qp[j] = q[j] - h;
      residual(ws, t, qp, v, a, lambda, rm);
      qp[j] = q[j];
      T.col(j) += c_q * (rp - rm) / (2 * h);
    }
  }
  if (c_v != 0.0) {
    // ∂r/∂v = −∂f/∂v.
    VecX vp = v;
    for (int j = 0; j < n; ++j) {
      const double h = fd_step(v[j]);
      vp[j] = v[j] + h;
      fns_.forces(t, q, vp, rp);
      vp[j] = v[j] - h;
      fns_.forces(t, q, vp, rm);
      vp[j] = v[j];
      T.col(j) -= c_v * (rp - rm) / (2 * h);
    }
  }
}

void GenericDae::assemble_mass(Workspace& /*ws*/, ConstVecRef q, SparseMatrix& M) const {
  dense_values(M, fns_.n, fns_.n, "mass") = mass_matrix(q);
}

void GenericDae::assemble_jacobian(Workspace& /*ws*/, double /*t*/, ConstVecRef q, SparseMatrix& Cq) const {
  if (fns_.m == 0) return;
  dense_values(Cq, fns_.m, fns_.n, "constraint Jacobian") = constraint_jacobian(q);
}

void GenericDae::assemble_velocity_jacobian(Workspace& /*ws*/, double /*t*/, ConstVecRef q, ConstVecRef v,
                                            SparseMatrix& G) const {
  const int n = fns_.n, m = fns_.m;
  if (m == 0) return;
  auto D = dense_values(G, m, n, "velocity Jacobian");
  VecX qp = q;
  for (int j = 0; j < n; ++j) {
    const double h = fd_step(q[j]);
    qp[j] = q[j] + h;
    const VecX gp = constraint_jacobian(qp) * v;
    qp[j] = q[j] - h;
    const VecX gm = constraint_jacobian(qp) * v;
    qp[j] = q[j];
    D.col(j) = (gp - gm) / (2 * h);
  }
}

std::string GenericDae::coordinate_label(int i) const {
  if (i >= 0 && i < static_cast<int>(fns_.coordinate_names.size()))
    return "coordinate '" + fns_.coordinate_names[static_cast<size_t>(i)] + "'";
  return "coordinate q[" + std::to_string(i) + "]";
}

std::string GenericDae::constraint_label(int row) const {
  if (row >= 0 && row < static_cast<int>(fns_.constraint_names.size()))
    return "constraint '" + fns_.constraint_names[static_cast<size_t>(row)] + "'";
  return "constraint g[" + std::to_string(row) + "]";
}

double GenericDae::energy(Workspace& /*ws*/, double t, ConstVecRef q, ConstVecRef v) const {
  return fns_.energy ? fns_.energy(t, q, v) : 0.0;
}

}  // namespace mbdae::validation
