// The planar ANCF cable element (AncfCable2D.h: equations and sources).

#include <mbdae/formulations/AncfCable2D.h>

#include <array>
#include <cmath>

namespace mbdae::ancf {

namespace {
// Gauss–Legendre points on [0, 1] and weights (summing to 1).
struct Rule {
  std::array<double, 5> x, w;
  int n;
};
Rule gauss(int n) {
  Rule r{};
  r.n = n;
  std::array<double, 5> x{}, w{};
  if (n == 4) {
    const double a = std::sqrt(3.0 / 7 - 2.0 / 7 * std::sqrt(6.0 / 5)), b = std::sqrt(3.0 / 7 + 2.0 / 7 * std::sqrt(6.0 / 5));
    const double wa = (18 + std::sqrt(30.0)) / 36, wb = (18 - std::sqrt(30.0)) / 36;
    x = {-b, -a, a, b, 0};
    w = {wb, wa, wa, wb, 0};
  } else {  // 5
    const double a = std::sqrt(5 - 2 * std::sqrt(10.0 / 7)) / 3, b = std::sqrt(5 + 2 * std::sqrt(10.0 / 7)) / 3;
    const double wa = (322 + 13 * std::sqrt(70.0)) / 900, wb = (322 - 13 * std::sqrt(70.0)) / 900;
    x = {-b, -a, 0, a, b};
    w = {wb, wa, 128.0 / 225, wa, wb};
  }
  for (int k = 0; k < n; ++k) {
    r.x[static_cast<size_t>(k)] = 0.5 * (x[static_cast<size_t>(k)] + 1);
    r.w[static_cast<size_t>(k)] = 0.5 * w[static_cast<size_t>(k)];
  }
  return r;
}
const Rule& axial_rule() {
  static const Rule r = gauss(5);
  return r;
}
const Rule& bending_rule() {
  static const Rule r = gauss(4);
  return r;
}
Vec2 combine(const Vec8& e, const double* S) {
  return S[0] * e.segment<2>(0) + S[1] * e.segment<2>(2) + S[2] * e.segment<2>(4) + S[3] * e.segment<2>(6);
}
double cross(const Vec2& a, const Vec2& b) { return a.x() * b.y() - a.y() * b.x(); }
}  // namespace

Eigen::Matrix<double, 3, 4> shape(double xi, double L) {
  const double x2 = xi * xi, x3 = x2 * xi;
  Eigen::Matrix<double, 3, 4> S;
  S.row(0) << 1 - 3 * x2 + 2 * x3, L * (xi - 2 * x2 + x3), 3 * x2 - 2 * x3, L * (x3 - x2);
  S.row(1) << (-6 * xi + 6 * x2) / L, 1 - 4 * xi + 3 * x2, (6 * xi - 6 * x2) / L, 3 * x2 - 2 * xi;
  S.row(2) << (-6 + 12 * xi) / (L * L), (-4 + 6 * xi) / L, (6 - 12 * xi) / (L * L), (6 * xi - 2) / L;
  return S;
}

Vec2 interpolate(const Vec8& e, double xi, double L, int derivative) {
  const Eigen::Matrix<double, 3, 4> S = shape(xi, L);
  const double s[4] = {S(derivative, 0), S(derivative, 1), S(derivative, 2), S(derivative, 3)};
  return combine(e, s);
}

double axial_strain(const Vec8& e, double xi, double L) { return interpolate(e, xi, L, 1).norm() - 1; }

double curvature(const Vec8& e, double xi, double L) {
  const Vec2 rx = interpolate(e, xi, L, 1), rxx = interpolate(e, xi, L, 2);
  return cross(rx, rxx) / rx.squaredNorm();
}

double strain_energy(const Vec8& e, double L, const Section& s) {
  double U = 0;
  const Rule& ra = axial_rule();
  for (int k = 0; k < ra.n; ++k) {
    const double eps = axial_strain(e, ra.x[static_cast<size_t>(k)], L);
    U += ra.w[static_cast<size_t>(k)] * L * 0.5 * s.EA * eps * eps;
  }
  const Rule& rb = bending_rule();
  for (int k = 0; k < rb.n; ++k) {
    const double kappa = curvature(e, rb.x[static_cast<size_t>(k)], L);
    U += rb.w[static_cast<size_t>(k)] * L * 0.5 * s.EI * kappa * kappa;
  }
  return U;
}

Vec8 internal_forces(const Vec8& e, const Vec8* e_dot, double L, const Section& s) {
  Vec8 Q = Vec8::Zero();
  const Rule& ra = axial_rule();
  for (int k = 0; k < ra.n; ++k) {
    const Eigen::Matrix<double, 3, 4> S = shape(ra.x[static_cast<size_t>(k)], L);
    const double d1[4] = {S(1, 0), S(1, 1), S(1, 2), S(1, 3)};
    const Vec2 rx = combine(e, d1);
    const double n = rx.norm();
    const Vec2 t = rx / n;  // ∂ε/∂r'
    double N = s.EA * (n - 1);
    if (e_dot && s.damping > 0) N += s.EA * s.damping * t.dot(combine(*e_dot, d1));
    const double c = ra.w[static_cast<size_t>(k)] * L * N;
    for (int i = 0; i < 4; ++i) Q.segment<2>(2 * i) += c * d1[i] * t;
  }
  const Rule& rb = bending_rule();
  for (int k = 0; k < rb.n; ++k) {
    const Eigen::Matrix<double, 3, 4> S = shape(rb.x[static_cast<size_t>(k)], L);
    const double d1[4] = {S(1, 0), S(1, 1), S(1, 2), S(1, 3)}, d2[4] = {S(2, 0), S(2, 1), S(2, 2), S(2, 3)};
    const Vec2 rx = combine(e, d1), rxx = combine(e, d2);
    const double g = rx.squaredNorm(), cr = cross(rx, rxx), kappa = cr / g;
    // κ = c/g: ∂κ/∂r' = (r''_y, −r''_x)/g − 2 c r'/g², ∂κ/∂r'' = (−r'_y, r'_x)/g.
    const Vec2 dk1 = Vec2(rxx.y(), -rxx.x()) / g - 2 * cr / (g * g) * rx;
    const Vec2 dk2 = Vec2(-rx.y(), rx.x()) / g;
    double M = s.EI * kappa;
    if (e_dot && s.damping > 0)
      M += s.EI * s.damping * (dk1.dot(combine(*e_dot, d1)) + dk2.dot(combine(*e_dot, d2)));
    const double c = rb.w[static_cast<size_t>(k)] * L * M;
    for (int i = 0; i < 4; ++i) Q.segment<2>(2 * i) += c * (d1[i] * dk1 + d2[i] * dk2);
  }
  return Q;
}

void tangent(const Vec8& e, const Vec8* e_dot, double L, const Section& s, Mat8& K, Mat8& D) {
  using Mat2 = Eigen::Matrix2d;
  using B = Eigen::Matrix<double, 2, 8>;
  K.setZero();
  D.setZero();
  const bool damped = e_dot && s.damping > 0;
  // B such that B e = Σ S_i e_i for one row of shape(): r' (row 1) or r'' (row 2).
  auto make_b = [](const Eigen::Matrix<double, 3, 4>& S, int row) {
    B b = B::Zero();
    for (int i = 0; i < 4; ++i) b.block<2, 2>(0, 2 * i) = S(row, i) * Mat2::Identity();
    return b;
  };
  const Rule& ra = axial_rule();
  for (int k = 0; k < ra.n; ++k) {
    const Eigen::Matrix<double, 3, 4> S = shape(ra.x[static_cast<size_t>(k)], L);
    const B b1 = make_b(S, 1);
    const Vec2 rx = b1 * e;
    const double n = rx.norm(), wL = ra.w[static_cast<size_t>(k)] * L;
    const Vec2 t = rx / n;
    const Mat2 P = (Mat2::Identity() - t * t.transpose()) / n;  // ∂t/∂r' = ∂²ε/∂r'²
    const Vec8 de = b1.transpose() * t;                       // ∂ε/∂e
    double N = s.EA * (n - 1);
    Vec8 dN = s.EA * de;  // ∂N/∂e
    if (damped) {
      const Vec2 rxd = b1 * *e_dot;
      N += s.EA * s.damping * t.dot(rxd);
      dN += s.EA * s.damping * b1.transpose() * (P * rxd);  // ∂ε̇/∂e = B₁ᵀ P ṙ'
      D += wL * s.EA * s.damping * de * de.transpose();
    }
    K += wL * (de * dN.transpose() + N * b1.transpose() * P * b1);
  }
  const Rule& rb = bending_rule();
  Mat2 Jm;
  Jm << 0, 1, -1, 0;  // c = r' × r'' = r'ᵀ Jm r''
  for (int k = 0; k < rb.n; ++k) {
    const Eigen::Matrix<double, 3, 4> S = shape(rb.x[static_cast<size_t>(k)], L);
    const B b1 = make_b(S, 1), b2 = make_b(S, 2);
    const Vec2 rx = b1 * e, rxx = b2 * e;
    const double g = rx.squaredNorm(), c = rx.dot(Jm * rxx), kappa = c / g, wL = rb.w[static_cast<size_t>(k)] * L;
    const Vec2 a = Jm * rxx;                 // ∂c/∂r'
    const Vec2 k1 = a / g - 2 * c / (g * g) * rx;  // ∂κ/∂r'
    const Vec2 k2 = Jm.transpose() * rx / g;       // ∂κ/∂r''
    // Second derivatives of κ: H11 (r', r'), H12 (r', r''); ∂²κ/∂r''² = 0.
    const Mat2 H11 = -2 * (a * rx.transpose() + rx * a.transpose()) / (g * g) - 2 * c / (g * g) * Mat2::Identity() +
                     8 * c / (g * g * g) * rx * rx.transpose();
    const Mat2 H12 = Jm / g - 2 * rx * (Jm.transpose() * rx).transpose() / (g * g);
    const Vec8 dk = b1.transpose() * k1 + b2.transpose() * k2;  // ∂κ/∂e
    const Eigen::Matrix<double, 8, 8> Hk =
        b1.transpose() * H11 * b1 + b1.transpose() * H12 * b2 + b2.transpose() * H12.transpose() * b1;
    double M = s.EI * kappa;
    Vec8 dM = s.EI * dk;
    if (damped) {
      const Vec2 rxd = b1 * *e_dot, rxxd = b2 * *e_dot;
      M += s.EI * s.damping * (k1.dot(rxd) + k2.dot(rxxd));
      // ∂κ̇/∂e with κ̇ = k1·ṙ' + k2·ṙ'': B₁ᵀ(H11 ṙ' + H12 ṙ'') + B₂ᵀ H12ᵀ ṙ'.
      dM += s.EI * s.damping * (b1.transpose() * (H11 * rxd + H12 * rxxd) + b2.transpose() * (H12.transpose() * rxd));
      D += wL * s.EI * s.damping * dk * dk.transpose();
    }
    K += wL * (dk * dM.transpose() + M * Hk);
  }
}

Mat8 mass_matrix(double L, double rhoA) {
  Mat8 M = Mat8::Zero();
  const Rule& r = bending_rule();  // 4 points: exact for degree 7
  for (int k = 0; k < r.n; ++k) {
    const Eigen::Matrix<double, 3, 4> S = shape(r.x[static_cast<size_t>(k)], L);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        const double m = r.w[static_cast<size_t>(k)] * L * rhoA * S(0, i) * S(0, j);
        M(2 * i, 2 * j) += m;
        M(2 * i + 1, 2 * j + 1) += m;
      }
  }
  return M;
}

Vec8 distributed_load(double L, const Vec2& f) {
  // ∫ S dx = [L/2, L²/12, L/2, −L²/12] (exact).
  const double s[4] = {L / 2, L * L / 12, L / 2, -L * L / 12};
  Vec8 Q;
  for (int i = 0; i < 4; ++i) Q.segment<2>(2 * i) = s[i] * f;
  return Q;
}

}  // namespace mbdae::ancf
