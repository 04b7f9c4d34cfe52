// rk4 and dopri5 step any ExplicitSystem (formulations/ExplicitSystem.h), not only the
// Newton-Euler bodies: a harmonic oscillator written against the interface alone, against its
// closed form x(t) = x0 cos(ωt), v(t) = −x0 ω sin(ωt).

#include <catch2/catch.hpp>

#include <cmath>

#include <mbdae/formulations/ExplicitSystem.h>
#include <mbdae/solvers/Explicit.h>

using namespace mbdae;

namespace {

/// ẍ = −ω² x with q = [x], v = [ẋ]; no constraints; energy ½ v² + ½ ω² x² (unit mass).
class Oscillator final : public ExplicitSystem {
 public:
  explicit Oscillator(double omega) : w_(omega) {}
  int num_q() const override { return 1; }
  int num_v() const override { return 1; }
  int num_constraints() const override { return 0; }
  void derivative(double, const VecX& q, const VecX& v, VecX& qdot, VecX& vdot) override {
    qdot = v;
    vdot = -w_ * w_ * q;
    ++evaluations;
  }
  double project_positions(double, VecX&, double, int) override { return 0; }
  double project_velocities(double, const VecX&, VecX&) override { return 0; }
  double energy(const VecX& q, const VecX& v) override { return 0.5 * v[0] * v[0] + 0.5 * w_ * w_ * q[0] * q[0]; }
  void constraints(double, const VecX&, VecX&) override {}
  void constraint_velocity(double, const VecX&, const VecX&, VecX&) override {}
  long evaluations = 0;

 private:
  double w_;
};

/// |x(T) − x0 cos(ωT)| of one run.
double error_at_end(ExplicitMethod method, double h, double rtol, double& energy_drift) {
  const double w = 1.3, x0 = 0.7, T = 2.0;
  Oscillator osc(w), measured(w);
  ExplicitOptions o;
  o.method = method;
  o.t_end = T;
  o.step = h;
  o.output_every = 0.5;
  o.rtol = rtol;
  o.atol = rtol;
  VecX q0(1), v0(1);
  q0 << x0;
  v0 << 0;
  auto integ = make_explicit(osc, 0.0, q0, v0, o);
  ExplicitMonitor monitor(measured);
  const SolveResult r = run_to_end(monitor, *integ, o, {});
  REQUIRE(r.ok());
  CHECK(osc.evaluations == r.stats.residual_evaluations);
  const StateView s = integ->state();
  REQUIRE(s.t == T);
  energy_drift = std::abs(r.stats.energy_final - r.stats.energy_initial);
  CHECK(std::abs(s.v[0] + x0 * w * std::sin(w * T)) < 1e-6);
  return std::abs(s.q[0] - x0 * std::cos(w * T));
}

}  // namespace

TEST_CASE("Explicit steppers on an ExplicitSystem: a harmonic oscillator against its closed form", "[explicit]") {
  double drift = 0;
  // RK4: global error O(h⁴): halving h divides it by about 16.
  const double e1 = error_at_end(ExplicitMethod::RK4, 0.02, 1e-8, drift);
  const double e2 = error_at_end(ExplicitMethod::RK4, 0.01, 1e-8, drift);
  CHECK(e1 < 1e-7);
  CHECK(e1 / e2 > 14);
  CHECK(e1 / e2 < 18);
  CHECK(drift < 1e-8);  // energy ½ v² + ½ ω² x², J per unit mass
  // Dormand-Prince: within a small multiple of its tolerance.
  const double ed = error_at_end(ExplicitMethod::Dopri5, 1e-3, 1e-10, drift);
  CHECK(ed < 1e-8);
}
