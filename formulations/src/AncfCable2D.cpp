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
