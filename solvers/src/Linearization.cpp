// Linearisation and modal analysis on the null space of the constraint Jacobian; see
// Linearization.h.

#include <mbdae/solvers/Linearization.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>

namespace mbdae {

LinearizedSystem linearize(const ConstrainedSystem& sys, double t, const VecX& q, const VecX& v,
                           const VecX& a, const VecX& lambda, double rank_tol) {
  const int n = sys.num_coordinates(), m = sys.num_constraints();
  ConstrainedSystem::Workspace ws = sys.make_workspace();
  if (q.size() != n || v.size() != n || a.size() != n || lambda.size() != m)
    throw std::invalid_argument("linearize: expected q, v, a of size " + std::to_string(n) +
                                " and lambda of size " + std::to_string(m));
  for (int r = 0; r < m; ++r)
    if (sys.is_velocity_level(r))
      throw std::invalid_argument("linearize: " + sys.constraint_label(r) +
                                  " is a velocity-level (nonholonomic) equation; not supported");
  LinearizedSystem out;
  SparseMatrix C = sys.jacobian_pattern();
  sys.assemble_jacobian(ws, t, q, C);
  // Null space of C_q from the complete orthogonal factor of C_qᵀ = Q R P: the last n − r
  // columns of Q span the null space of C_q.
  MatX Ct = MatX(C).transpose();
  MatX Q = MatX::Identity(n, n);
  int r = 0;
  if (m > 0) {
    Eigen::ColPivHouseholderQR<MatX> qr(Ct);
    qr.setThreshold(rank_tol);
    r = static_cast<int>(qr.rank());
    Q = qr.householderQ() * MatX::Identity(n, n);
  }
  out.rank = r;
  out.N = Q.rightCols(n - r);
  SparseMatrix Ms = sys.tangent_pattern(), Kq = sys.tangent_pattern(), Dv = sys.tangent_pattern();
  sys.assemble_mass(ws, q, Ms);
  sys.assemble_tangent(ws, t, q, v, a, lambda, 1.0, 0.0, 0.0, Kq);
  sys.assemble_tangent(ws, t, q, v, a, lambda, 0.0, 1.0, 0.0, Dv);
  out.M = out.N.transpose() * (Ms * out.N);
  out.K = out.N.transpose() * (Kq * out.N);
  out.D = out.N.transpose() * (Dv * out.N);
  return out;
}

std::vector<Mode> modal_analysis(const LinearizedSystem& lin) {
  const int k = static_cast<int>(lin.M.rows());
  std::vector<Mode> modes;
  if (k == 0) return modes;
  Eigen::FullPivLU<MatX> mlu(lin.M);
  if (!mlu.isInvertible())
    throw std::runtime_error("modal analysis: the reduced mass matrix is singular (a direction "
                             "without mass or inertia)");
  // Undamped, with symmetric K and M (no gyroscopic or circulatory terms): the symmetric-definite
  // problem K φ = ω² M φ (a Cholesky factor of M, then a symmetric eigensolver), which is
  // backward stable; the first-order form below loses the low frequencies' accuracy when the
  // stiffness spans many decades (a slender cable's axial and bending modes: ω² from 1e3 to 1e11).
  // (Symmetric to 1e-8 of its largest entry: a tangent formed by central differences is symmetric
  // to about that; the symmetric part is used.)
  const auto symmetric = [](const MatX& X) {
    return (X - X.transpose()).cwiseAbs().maxCoeff() <= 1e-8 * X.cwiseAbs().maxCoeff();
  };
  if (lin.D.cwiseAbs().maxCoeff() == 0 && symmetric(lin.K) && symmetric(lin.M)) {
    const MatX Ks = 0.5 * (lin.K + lin.K.transpose()), Ms = 0.5 * (lin.M + lin.M.transpose());
    Eigen::GeneralizedSelfAdjointEigenSolver<MatX> ges(Ks, Ms);
    if (ges.info() == Eigen::Success) {
      const VecX& lam = ges.eigenvalues();
      const double zero = 1e-12 * std::max(lam.cwiseAbs().maxCoeff(), 1e-300);
      auto add = [&](std::complex<double> s, const VecX& z) {
        Mode md;
        md.eigenvalue = s;
        md.frequency_hz = std::abs(s) / (2 * M_PI);
        md.damped_frequency_hz = std::abs(s.imag()) / (2 * M_PI);
        md.damping_ratio = std::abs(s) > 0 ? -s.real() / std::abs(s) : std::nan("");
        md.shape = lin.N * z;
        const double mx = md.shape.cwiseAbs().maxCoeff();
        if (mx > 0) md.shape /= mx;
        modes.push_back(std::move(md));
      };
      for (int i = 0; i < k; ++i) {
        const double l = lam[i];
        const VecX z = ges.eigenvectors().col(i);
        if (std::abs(l) <= zero) {  // a rigid-body direction: s = 0, twice (as in the first-order form)
          add(0.0, z);
          add(0.0, z);
        }
        else if (l > 0) add({0.0, std::sqrt(l)}, z);  // the pair ±iω, once
        else {  // an unstable direction: s = ±sqrt(−λ), both real
          add(std::sqrt(-l), z);
          add(-std::sqrt(-l), z);
        }
      }
      std::sort(modes.begin(), modes.end(),
                [](const Mode& x, const Mode& y) { return x.frequency_hz < y.frequency_hz; });
      return modes;
    }
  }
  MatX A = MatX::Zero(2 * k, 2 * k);
  A.topRightCorner(k, k).setIdentity();
  A.bottomLeftCorner(k, k) = -mlu.solve(lin.K);
  A.bottomRightCorner(k, k) = -mlu.solve(lin.D);
  Eigen::EigenSolver<MatX> es(A, true);
  const auto ev = es.eigenvalues();
  const auto V = es.eigenvectors();
  for (int i = 0; i < 2 * k; ++i) {
    const std::complex<double> s = ev[i];
    const double scale = std::max(1.0, std::abs(s));
    if (s.imag() < -1e-12 * scale) continue;  // the conjugate of a reported pair
    Mode md;
    md.eigenvalue = s;
    md.frequency_hz = std::abs(s) / (2 * M_PI);
    md.damped_frequency_hz = std::abs(s.imag()) / (2 * M_PI);
    md.damping_ratio = std::abs(s) > 0 ? -s.real() / std::abs(s) : std::nan("");
    VecX z = V.col(i).head(k).real();
    if (z.norm() < 1e-12 * std::max(1.0, V.col(i).head(k).norm())) z = V.col(i).head(k).imag();
    md.shape = lin.N * z;
    const double mx = md.shape.cwiseAbs().maxCoeff();
    if (mx > 0) md.shape /= mx;
    modes.push_back(std::move(md));
  }
  // A real pair split by round-off into s, s̄ with tiny imaginary parts is kept once above; real
  // eigenvalues appear individually.
  std::sort(modes.begin(), modes.end(),
            [](const Mode& x, const Mode& y) { return x.frequency_hz < y.frequency_hz; });
  return modes;
}

std::vector<Mode> modal_analysis(const ConstrainedSystem& sys, double t, const VecX& q,
                                 const VecX& lambda) {
  const int n = sys.num_coordinates();
  return modal_analysis(linearize(sys, t, q, VecX::Zero(n), VecX::Zero(n), lambda));
}

}  // namespace mbdae
