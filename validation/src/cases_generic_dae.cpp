/// @file cases_generic_dae.cpp
/// Validation-suite cases on generic DAEs in minimal coordinates (GenericDae.h): Andrews'
/// squeezer (validation/andrews/README.md) scored like the IVP Test Set, and the SUNDIALS GGL
/// slider-crank (validation/slider_crank_ggl/README.md). These check the solvers independently of
/// the rigid-body formulation.

#include <cmath>
#include <vector>

#include <mbdae/solvers/Simulation.h>
#include <mbdae/validation/Andrews.h>
#include <mbdae/validation/SliderCrankGgl.h>

#include "CaseSupport.h"

namespace mbdae::validation::suite {
namespace {

struct EndState {
  VecX q, v;
  SolveResult res;
  double wall = 0;
};

EndState RunToEnd(const ConstrainedSystem& sys, const VecX& q0, const VecX& v0,
                  const SimulationSettings& s) {
  EndState e;
  Stopwatch w;
  e.res = simulate(sys, 0.0, q0, v0, s, [&](const StateView& st) {
    e.q = st.q;
    e.v = st.v;
    return true;
  });
  e.wall = w.seconds();
  return e;
}

// Andrews' squeezer, Test Set scoring: mixed-error significant digits of the 7 positions at
// t = 0.03, scd = −log10 max_i |y_i − ref_i|/(1 + |ref_i|). The reference is good to ~9.5 digits
// in q (validation/andrews/README.md), so scores above 9.5 measure the reference.
//
// Minimum scores (rows "≥"):
// - IDA at rtol = atol = 1e-10: 8 digits (the requirement; measured 9.5 with KLU).
// - IDA at rtol = atol = 10^-k for k = 6, 7, 8, 9: the error must follow the tolerance within a
//   factor 100 (scd ≥ k − 2): a BDF code's global error on this stiff, highly oscillatory problem
//   is a modest multiple of the local tolerance.
// - generalized-α (ρ∞ = 0.8) and the trapezoidal rule at fixed steps: the second-order error C h²
//   (scd grows by log10(4) = 0.6 per halving); the minimum is the measured score (GA 4.68, 5.29,
//   5.89; trapezoidal 4.88, 5.48, 6.09 at h = 2e-5, 1e-5, 5e-6) less half a digit.
void Andrews(Context& ctx) {
  const GenericDae sys = andrews::make_system();
  const VecX q0 = andrews::to_vec(andrews::q0), v0 = andrews::to_vec(andrews::qd0);
  const VecX q_ref = andrews::to_vec(andrews::q_ref);
  const std::string ref = "Test Set (PSIDE 1e-14), good to ~9.5 digits";
  for (int k = 6; k <= 10; ++k) {
    const double tol = std::pow(10.0, -k);
    SimulationSettings s = Settings(SolverType::Ida, andrews::t_end, tol, 0.0);
    s.atol = tol;
    const EndState e = RunToEnd(sys, q0, v0, s);
    const std::string label = "ida rtol=atol=" + Num(tol, 2);
    if (!e.res.ok()) {
      ctx.add_failure(label, "scd(q) at t = 0.03", e.res.message, e.wall);
      continue;
    }
    const double scd = andrews::mixed_error_digits(e.q, q_ref);
    const double minimum = k == 10 ? 8.0 : k - 2.0;
    ctx.add_at_least(label, "scd(q) at t = 0.03 (mixed-error digits)", ref, scd, minimum,
                     "digits ≥", e.wall);
    ctx.add_work("ida", "rtol", tol, std::pow(10.0, -scd), e.wall);
    if (k == 10) {
      const double scd_v = andrews::mixed_error_digits(e.v, andrews::to_vec(andrews::qd_ref));
      // q̇ reference good to ~7 digits (README); IDA's velocity error is larger than q's.
      ctx.add_at_least(label, "scd(q') at t = 0.03", "Test Set, good to ~7 digits", scd_v, 6.0,
                       "digits ≥", e.wall);
      ctx.add(label, "max |C(q)| (position drift)", "0", Num(e.res.stats.max_position_violation, 3),
              e.res.stats.max_position_violation, 1e-8, "max abs", e.wall);
      ctx.add(label, "max |C_q q'| (velocity drift)", "0", Num(e.res.stats.max_velocity_violation, 3),
              e.res.stats.max_velocity_violation, 1e-6, "max abs", e.wall);
    }
  }
  // Fixed-step index-3 generalized-α (ρ∞ = 0.8) and index-2 trapezoidal rule.
  struct Fixed {
    SolverType type;
    double h;
    double min_digits;
  };
  const std::vector<Fixed> fixed = {{SolverType::GeneralizedAlpha, 2e-5, 4.2},
                                    {SolverType::GeneralizedAlpha, 1e-5, 4.8},
                                    {SolverType::GeneralizedAlpha, 5e-6, 5.4},
                                    {SolverType::TrapezoidalIndex2, 2e-5, 4.4},
                                    {SolverType::TrapezoidalIndex2, 1e-5, 5.0},
                                    {SolverType::TrapezoidalIndex2, 5e-6, 5.6}};
  for (const Fixed& f : fixed) {
    const SimulationSettings s = Settings(f.type, andrews::t_end, f.h, 0.0, 0.8);
    const EndState e = RunToEnd(sys, q0, v0, s);
    if (!e.res.ok()) {
      ctx.add_failure(Label(s), "scd(q) at t = 0.03", e.res.message, e.wall);
      continue;
    }
    const double scd = andrews::mixed_error_digits(e.q, q_ref);
    ctx.add_at_least(Label(s), "scd(q) at t = 0.03 (mixed-error digits)", ref, scd, f.min_digits,
                     "digits ≥", e.wall);
    ctx.add_work(to_string(f.type), "h", f.h, std::pow(10.0, -scd), e.wall);
  }
}

// SUNDIALS idasSlCrank_dns: (q, x, p) at t = 5 and 10 s and G(10) = ∫ kinetic energy dt.
// Reference good to 2e-11 (README). Tolerances: IDA: 100 rtol (a BDF code controls the local
// error; the global error over 10 s is a modest multiple of rtol: measured 6e-10 at 1e-10, 7.9e-5
// at 1e-6, the example's own setting); generalized-α (ρ∞ = 1) and trapezoidal: the measured
// second-order error × ~3 (h = 1e-3: ≤ 1.7e-7; h = 2.5e-4: ≤ 1e-8). Constraint drift at the
// outputs: GA (index 3) to Newton tolerance; IDA's outputs are interpolants, on which C holds to
// ~rtol (10 rtol); trapezoidal (index 2) positions drift at O(h²).
void SliderCrankGgl(Context& ctx) {
  namespace sc = slider_crank_ggl;
  const GenericDae sys = sc::make_system();
  VecX q0(3), v0(3);
  sys.initial_state(q0, v0);
  struct Setting {
    SolverType type;
    double step_or_rtol;
    double tol;
  };
  const std::vector<Setting> settings = {{SolverType::Ida, 1e-10, 1e-8},
                                         {SolverType::Ida, 1e-6, 1e-4},
                                         {SolverType::GeneralizedAlpha, 1e-3, 5e-7},
                                         {SolverType::GeneralizedAlpha, 2.5e-4, 3e-8},
                                         {SolverType::TrapezoidalIndex2, 1e-3, 5e-7},
                                         {SolverType::TrapezoidalIndex2, 2.5e-4, 3e-8}};
  for (const Setting& st : settings) {
    const double dt = 1e-3;
    SimulationSettings s = Settings(st.type, sc::t_end, st.step_or_rtol, dt, 1.0);
    VecX q5, q10;
    double G = 0;
    std::vector<double> ke;
    Stopwatch w;
    const SolveResult res = simulate(sys, 0.0, q0, v0, s, [&](const StateView& v) {
      if (std::abs(v.t - 5.0) < 1e-9) q5 = v.q;
      if (std::abs(v.t - 10.0) < 1e-9) q10 = v.q;
      ke.push_back(sc::kinetic_energy(v.v));
      return true;
    });
    const double wall = w.seconds();
    if (!res.ok() || q5.size() != 3 || q10.size() != 3) {
      ctx.add_failure(Label(s), "(q, x, p) at t = 5, 10 s", res.message, wall);
      continue;
    }
    // Composite Simpson on the 1 ms output grid (h⁴ error ~1e-12).
    for (size_t i = 0; i + 2 < ke.size(); i += 2) G += dt / 3 * (ke[i] + 4 * ke[i + 1] + ke[i + 2]);
    double e5 = 0, e10 = 0;
    for (int i = 0; i < 3; ++i) {
      e5 = std::max(e5, std::abs(q5[i] - sc::ref_t5[static_cast<size_t>(i)]));
      e10 = std::max(e10, std::abs(q10[i] - sc::ref_t10[static_cast<size_t>(i)]));
    }
    const std::vector<double> r5(sc::ref_t5.begin(), sc::ref_t5.end()), r10(sc::ref_t10.begin(), sc::ref_t10.end());
    ctx.add(Label(s), "(q, x, p) at t = 5 s [rad, m, rad]", Tuple(r5, 12), Tuple({q5[0], q5[1], q5[2]}, 12),
            e5, st.tol, "max abs", wall);
    ctx.add(Label(s), "(q, x, p) at t = 10 s", Tuple(r10, 12), Tuple({q10[0], q10[1], q10[2]}, 12), e10,
            st.tol, "max abs", wall);
    ctx.add(Label(s), "G(10) = ∫ T dt [J s]", Num(sc::ref_G10, 12), Num(G, 12), std::abs(G - sc::ref_G10),
            st.tol, "abs", wall);
    // Drift: index 3 (GA) and GGL (IDA) hold positions; the index-2 rule holds velocities.
    const double pos_tol = st.type == SolverType::TrapezoidalIndex2 ? 1e-6
                           : st.type == SolverType::Ida               ? 10 * st.step_or_rtol
                                                                      : 1e-10;
    ctx.add(Label(s), "max |C(q)| over the run", "0", Num(res.stats.max_position_violation, 3),
            res.stats.max_position_violation, pos_tol, "max abs", wall);
    if (st.type != SolverType::GeneralizedAlpha)
      ctx.add(Label(s), "max |C_q q'| over the run", "0", Num(res.stats.max_velocity_violation, 3),
              res.stats.max_velocity_violation, st.type == SolverType::Ida ? 10 * st.step_or_rtol : 1e-10, "max abs",
              wall);
    ctx.add_work(to_string(st.type), st.type == SolverType::Ida ? "rtol" : "h", st.step_or_rtol,
                 std::max(e5, e10), wall);
  }
}

}  // namespace

void AddGenericDaeCases(std::vector<Case>& cases) {
  cases.push_back({"andrews_dae",
                   "Andrews' squeezer as a generic index-3 DAE (Hairer-Wanner; IVP Test Set): "
                   "mixed-error digits at t = 0.03 per solver and tolerance",
                   false, Andrews});
  cases.push_back({"slider_crank_ggl",
                   "SUNDIALS idasSlCrank_dns slider-crank (GGL): (q, x, p) at 5 and 10 s, G(10)",
                   false, SliderCrankGgl});
}

}  // namespace mbdae::validation::suite
