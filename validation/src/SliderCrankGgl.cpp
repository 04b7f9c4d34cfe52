#include <mbdae/validation/SliderCrankGgl.h>

#include <cmath>
#include <numbers>

namespace mbdae::validation::slider_crank_ggl {

// Spring-damper between the crank midpoint and the rod midpoint, written as in the SUNDIALS
// example's documentation (slider_crank_ggl.md): with s21 = sin(p − q), c21 = cos(p − q),
//   l² = x² − x(cos p + a cos q) + (1 + a²)/4 + a c21/2,   l̇ = d/dt l,
//   f = k(l − l0) + c l̇,  fl = f/l.
void generalized_forces(ConstVecRef q, ConstVecRef v, VecRef Q) {
  const double qa = q[0], x = q[1], p = q[2];
  const double qd = v[0], xd = v[1], pd = v[2];
  const double sq = std::sin(qa), cq = std::cos(qa), sp = std::sin(p), cp = std::cos(p);
  const double s21 = sp * cq - cp * sq;
  const double c21 = cp * cq + sp * sq;
  const double l2 = x * x - x * (cp + a * cq) + (1.0 + a * a) / 4.0 + a * c21 / 2.0;
  const double l = std::sqrt(l2);
  const double ld = (2.0 * x * xd - xd * (cp + a * cq) + x * (sp * pd + a * sq * qd) -
                     a * s21 * (pd - qd) / 2.0) /
                    (2.0 * l);
  const double f = k * (l - l0) + c * ld;
  const double fl = f / l;
  Q[0] = -fl * a * (s21 / 2.0 + x * sq) / 2.0;
  Q[1] = fl * (cp / 2.0 - x + a * cq / 2.0) + F;
  Q[2] = -fl * (x * sp - a * s21 / 2.0) / 2.0 - F * sp;
}

double kinetic_energy(ConstVecRef v) {
  return 0.5 * (J1 * v[0] * v[0] + m2 * v[1] * v[1] + J2 * v[2] * v[2]);
}

GenericDae make_system() {
  GenericDae::Functions fn;
  fn.n = 3;
  fn.m = 2;
  fn.mass = [](ConstVecRef, GenericDae::MatRef M) {
    M.setZero();
    M(0, 0) = J1;
    M(1, 1) = m2;
    M(2, 2) = J2;
  };
  fn.forces = [](double, ConstVecRef q, ConstVecRef v, VecRef f) { generalized_forces(q, v, f); };
  fn.constraints = [](ConstVecRef q, VecRef g) {
    g[0] = q[1] - std::cos(q[2]) - a * std::cos(q[0]);
    g[1] = -std::sin(q[2]) - a * std::sin(q[0]);
  };
  fn.jacobian = [](ConstVecRef q, GenericDae::MatRef G) {
    G(0, 0) = a * std::sin(q[0]);
    G(0, 1) = 1.0;
    G(0, 2) = std::sin(q[2]);
    G(1, 0) = -a * std::cos(q[0]);
    G(1, 1) = 0.0;
    G(1, 2) = -std::cos(q[2]);
  };
  // γ = −d²/dt² g at q̈ = 0: each term T(φ) of g (T = ±cos, ±sin times a constant, φ linear
  // in q) contributes T(φ) φ̇² to γ, because d²/dt² T(φ) = −T(φ) φ̇² when φ̈ = 0.
  fn.gamma = [](ConstVecRef q, ConstVecRef v, VecRef gam) {
    gam[0] = -a * std::cos(q[0]) * v[0] * v[0] - std::cos(q[2]) * v[2] * v[2];
    gam[1] = -a * std::sin(q[0]) * v[0] * v[0] - std::sin(q[2]) * v[2] * v[2];
  };
  const double p0 = std::asin(-a);
  fn.q0 = VecX(3);
  fn.q0 << std::numbers::pi / 2, std::cos(p0), p0;
  fn.v0 = VecX::Zero(3);
  fn.coordinate_names = {"crank angle q", "slider x", "rod angle p"};
  fn.constraint_names = {"loop closure x", "loop closure y"};
  return GenericDae(std::move(fn));
}

}  // namespace mbdae::validation::slider_crank_ggl
