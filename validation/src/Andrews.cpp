#include <mbdae/validation/Andrews.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace mbdae::validation::andrews {

using namespace param;

// Coordinates: q = (β, Θ, γ, Φ, δ, Ω, ε) = q[0..6]. Formulas of Hairer–Wanner VII.7 / the Test
// Set (andrews.md), written out here.

void mass(ConstVecRef q, Eigen::Ref<MatX> M) {
  const double cth = std::cos(q[1]);
  const double sphi = std::sin(q[3]);
  const double som = std::sin(q[5]);
  const double eea = e - ea, zfa = zf - fa;
  M.setZero();
  M(0, 0) = m1 * ra * ra + m2 * (rr * rr - 2 * da * rr * cth + da * da) + i1 + i2;
  M(1, 0) = M(0, 1) = m2 * (da * da - da * rr * cth) + i2;
  M(1, 1) = m2 * da * da + i2;
  M(2, 2) = m3 * (sa * sa + sb * sb) + i3;
  M(3, 3) = m4 * eea * eea + i4;
  M(4, 3) = M(3, 4) = m4 * (eea * eea + zt * eea * sphi) + i4;
  M(4, 4) = m4 * (zt * zt + 2 * zt * eea * sphi + eea * eea) + m5 * (ta * ta + tb * tb) + i4 + i5;
  M(5, 5) = m6 * zfa * zfa + i6;
  M(6, 5) = M(5, 6) = m6 * (zfa * zfa - u * zfa * som) + i6;
  M(6, 6) = m6 * (zfa * zfa - 2 * u * zfa * som + u * u) + m7 * (ua * ua + ub * ub) + i6 + i7;
}

void forces(ConstVecRef q, ConstVecRef v, VecRef f) {
  const double sth = std::sin(q[1]);
  const double cga = std::cos(q[2]), sga = std::sin(q[2]);
  const double cphi = std::cos(q[3]);
  const double com = std::cos(q[5]);
  const double bep = v[0], thp = v[1], php = v[3], dep = v[4], omp = v[5], epp = v[6];
  // Spring c0 between point D (on body 3) and the fixed point C.
  const double xd = sd * cga + sc * sga + xb;
  const double yd = sd * sga - sc * cga + yb;
  const double L = std::sqrt((xd - xc) * (xd - xc) + (yd - yc) * (yd - yc));
  const double Fs = -c0 * (L - l0) / L;
  const double fx = Fs * (xd - xc), fy = Fs * (yd - yc);
  const double eea = e - ea, zfa = zf - fa;
  f[0] = mom - m2 * da * rr * thp * (thp + 2 * bep) * sth;
  f[1] = m2 * da * rr * bep * bep * sth;
  f[2] = fx * (sc * cga - sd * sga) + fy * (sd * cga + sc * sga);
  f[3] = m4 * zt * eea * dep * dep * cphi;
  f[4] = -m4 * zt * eea * php * (php + 2 * dep) * cphi;
  f[5] = -m6 * u * zfa * epp * epp * com;
  f[6] = m6 * u * zfa * omp * (omp + 2 * epp) * com;
}

void constraints(ConstVecRef q, VecRef g) {
  const double be = q[0], th = q[1], ga = q[2], phi = q[3], de = q[4], om = q[5], ep = q[6];
  // Common part: the crank/rod point (x, y) = (rr cosβ − d cos(β+Θ), rr sinβ − d sin(β+Θ)).
  const double px = rr * std::cos(be) - d * std::cos(be + th);
  const double py = rr * std::sin(be) - d * std::sin(be + th);
  g[0] = px - ss * std::sin(ga) - xb;
  g[1] = py + ss * std::cos(ga) - yb;
  g[2] = px - e * std::sin(phi + de) - zt * std::cos(de) - xa;
  g[3] = py + e * std::cos(phi + de) - zt * std::sin(de) - ya;
  g[4] = px - zf * std::cos(om + ep) - u * std::sin(ep) - xa;
  g[5] = py - zf * std::sin(om + ep) + u * std::cos(ep) - ya;
}

void constraint_jacobian(ConstVecRef q, Eigen::Ref<MatX> G) {
  const double be = q[0], th = q[1], ga = q[2], phi = q[3], de = q[4], om = q[5], ep = q[6];
  const double sbe = std::sin(be), cbe = std::cos(be);
  const double sbt = std::sin(be + th), cbt = std::cos(be + th);
  const double spd = std::sin(phi + de), cpd = std::cos(phi + de);
  const double soe = std::sin(om + ep), coe = std::cos(om + ep);
  G.setZero();
  // ∂(px, py)/∂(β, Θ), shared by every row pair.
  const double dpx_db = -rr * sbe + d * sbt, dpx_dt = d * sbt;
  const double dpy_db = rr * cbe - d * cbt, dpy_dt = -d * cbt;
  for (int r = 0; r < 6; r += 2) {
    G(r, 0) = dpx_db;
    G(r, 1) = dpx_dt;
    G(r + 1, 0) = dpy_db;
    G(r + 1, 1) = dpy_dt;
  }
  G(0, 2) = -ss * std::cos(ga);
  G(1, 2) = -ss * std::sin(ga);
  G(2, 3) = -e * cpd;
  G(2, 4) = -e * cpd + zt * std::sin(de);
  G(3, 3) = -e * spd;
  G(3, 4) = -e * spd - zt * std::cos(de);
  G(4, 5) = zf * soe;
  G(4, 6) = zf * soe - u * std::cos(ep);
  G(5, 5) = -zf * coe;
  G(5, 6) = -zf * coe - u * std::sin(ep);
}

// γ = −d²/dt² g at q̈ = 0. Every term of g is c·T(φ) with T ∈ {cos, sin} and φ a sum of
// coordinates; d²/dt² T(φ) = −T(φ) φ̇² when φ̈ = 0, so each term c·T(φ) contributes c·T(φ) φ̇².
void gamma(ConstVecRef q, ConstVecRef v, VecRef gam) {
  const double be = q[0], th = q[1], ga = q[2], phi = q[3], de = q[4], om = q[5], ep = q[6];
  const double w_b = v[0], w_bt = v[0] + v[1], w_g = v[2], w_pd = v[3] + v[4], w_d = v[4],
               w_oe = v[5] + v[6], w_e = v[6];
  const double gx = rr * std::cos(be) * w_b * w_b - d * std::cos(be + th) * w_bt * w_bt;
  const double gy = rr * std::sin(be) * w_b * w_b - d * std::sin(be + th) * w_bt * w_bt;
  gam[0] = gx - ss * std::sin(ga) * w_g * w_g;
  gam[1] = gy + ss * std::cos(ga) * w_g * w_g;
  gam[2] = gx - e * std::sin(phi + de) * w_pd * w_pd - zt * std::cos(de) * w_d * w_d;
  gam[3] = gy + e * std::cos(phi + de) * w_pd * w_pd - zt * std::sin(de) * w_d * w_d;
  gam[4] = gx - zf * std::cos(om + ep) * w_oe * w_oe - u * std::sin(ep) * w_e * w_e;
  gam[5] = gy - zf * std::sin(om + ep) * w_oe * w_oe + u * std::cos(ep) * w_e * w_e;
}

GenericDae make_system() {
  GenericDae::Functions fn;
  fn.n = 7;
  fn.m = 6;
  fn.mass = [](ConstVecRef q, GenericDae::MatRef M) { mass(q, M); };
  fn.forces = [](double, ConstVecRef q, ConstVecRef v, VecRef f) { forces(q, v, f); };
  fn.constraints = [](ConstVecRef q, VecRef g) { constraints(q, g); };
  fn.jacobian = [](ConstVecRef q, GenericDae::MatRef G) { constraint_jacobian(q, G); };
  fn.gamma = [](ConstVecRef q, ConstVecRef v, VecRef g) { gamma(q, v, g); };
  fn.q0 = to_vec(q0);
  fn.v0 = to_vec(qd0);
  fn.coordinate_names = {"beta", "Theta", "gamma", "Phi", "delta", "Omega", "epsilon"};
  fn.constraint_names = {"g1", "g2", "g3", "g4", "g5", "g6"};
  return GenericDae(std::move(fn));
}

double mixed_error_digits(const VecX& y, const VecX& ref) {
  if (y.size() != ref.size())
    throw std::invalid_argument("mixed_error_digits: sizes " + std::to_string(y.size()) +
                                " and " + std::to_string(ref.size()) + " differ");
  double worst = 0;
  for (Eigen::Index i = 0; i < y.size(); ++i)
    worst = std::max(worst, std::abs(y[i] - ref[i]) / (1.0 + std::abs(ref[i])));
  return -std::log10(worst);
}

}  // namespace mbdae::validation::andrews
