// IDA (stabilized index-2 GGL form) on generic minimal-coordinate DAEs: the SUNDIALS slider-crank
// and Andrews' squeezer, compared to their reference solutions (see the READMEs beside them).

#include <catch2/catch.hpp>

#include <Eigen/LU>

#include <cmath>
#include <limits>
#include <vector>

#include <mbdae/solvers/Ida.h>
#include <mbdae/validation/Andrews.h>
#include <mbdae/validation/GenericDae.h>
#include <mbdae/validation/SliderCrankGgl.h>

using namespace mbdae;
using namespace mbdae::validation;
using Catch::Matchers::Contains;

namespace {

struct Row {
  double t;
  VecX q, v, a, lambda;
};

Observer recorder(std::vector<Row>& rows) {
  return [&rows](const StateView& s) {
    rows.push_back({s.t, s.q, s.v, s.a, s.lambda});
    return true;
  };
}

const Row& row_at(const std::vector<Row>& rows, double t) {
  for (const Row& r : rows)
    if (std::abs(r.t - t) < 1e-12) return r;
  FAIL("no output at t = " << t);
  return rows.front();
}

double max_abs_diff(const VecX& y, const std::array<double, 3>& ref) {
  double e = 0;
  for (int i = 0; i < 3; ++i) e = std::max(e, std::abs(y[i] - ref[static_cast<size_t>(i)]));
  return e;
}

const char* name(IdaOptions::LinearSolver ls) {
  return ls == IdaOptions::LinearSolver::Sparse ? "KLU" : "dense";
}

/// Finite-difference check of an analytic derivative: |A − FD| ≤ tol·(1 + |A|).
void require_close(const MatX& A, const MatX& B, double tol) {
  REQUIRE(A.rows() == B.rows());
  REQUIRE(A.cols() == B.cols());
  for (Eigen::Index j = 0; j < A.cols(); ++j)
    for (Eigen::Index i = 0; i < A.rows(); ++i) {
      INFO("entry (" << i << ", " << j << "): " << A(i, j) << " vs " << B(i, j));
      REQUIRE(std::abs(A(i, j) - B(i, j)) <= tol * (1 + std::abs(A(i, j))));
    }
}

}  // namespace

TEST_CASE("Andrews and slider-crank: analytic G and gamma match finite differences",
          "[validation][generic_dae]") {
  // G and γ written by hand are checked against central differences of g (step 1e-6, O(h²)
  // truncation ~1e-12 and round-off ~1e-10 for these O(0.1) lengths).
  auto check = [](const GenericDae& sys, const VecX& q, const VecX& v, auto g_fn) {
    const int n = sys.num_coordinates(), m = sys.num_constraints();
    const MatX G = sys.constraint_jacobian(q);
    MatX Gfd(m, n);
    VecX gp(m), gm(m);
    const double h = 1e-6;
    for (int j = 0; j < n; ++j) {
      VecX qp = q, qm = q;
      qp[j] += h;
      qm[j] -= h;
      g_fn(qp, gp);
      g_fn(qm, gm);
      Gfd.col(j) = (gp - gm) / (2 * h);
    }
    require_close(G, Gfd, 1e-8);
    // γ = −d/ds [G(q + s v) v], central difference in s.
    VecX gam(m);
    auto ws = sys.make_workspace();
    sys.gamma(ws, 0.0, q, v, gam);
    const double s = 1e-6;
    const VecX gam_fd = -(sys.constraint_jacobian(q + s * v) * v - sys.constraint_jacobian(q - s * v) * v) / (2 * s);
    require_close(gam, gam_fd, 1e-7);
  };
  SECTION("Andrews") {
    const GenericDae sys = andrews::make_system();
    VecX q = andrews::to_vec(andrews::q_ref), v = andrews::to_vec(andrews::qd_ref) * 1e-3;
    check(sys, q, v, [](const VecX& x, VecX& g) { andrews::constraints(x, g); });
  }
  SECTION("slider-crank") {
    const GenericDae sys = slider_crank_ggl::make_system();
    VecX q(3), v(3);
    q << 0.3, 1.1, -0.4;
    v << 0.7, -0.2, 1.3;
    auto ws = sys.make_workspace();
    check(sys, q, v, [&sys, &ws](const VecX& x, VecX& g) { sys.constraints(ws, 0.0, x, g); });
  }
}

TEST_CASE("Andrews: the KKT solution at t = 0 reproduces the Test Set's q''0 and lambda0",
          "[validation][andrews]") {
  // This checks M, f and G together against the Test Set's consistent initial values.
  const GenericDae sys = andrews::make_system();
  const VecX q0 = andrews::to_vec(andrews::q0), v0 = andrews::to_vec(andrews::qd0);
  MatX K = MatX::Zero(13, 13);
  K.topLeftCorner(7, 7) = sys.mass_matrix(q0);
  const MatX G = sys.constraint_jacobian(q0);
  K.bottomLeftCorner(6, 7) = G;
  K.topRightCorner(7, 6) = G.transpose();
  VecX rhs(13);
  auto ws = sys.make_workspace();
  sys.forces(ws, 0.0, q0, v0, rhs.head(7));
  sys.gamma(ws, 0.0, q0, v0, rhs.tail(6));
  const VecX x = K.partialPivLu().solve(rhs);
  const VecX a_ref = andrews::to_vec(andrews::qdd0), l_ref = andrews::to_vec(andrews::lambda0);
  CHECK((x.head(7) - a_ref).cwiseAbs().maxCoeff() < 1e-8 * a_ref.cwiseAbs().maxCoeff());
  CHECK((x.tail(6) - l_ref).cwiseAbs().maxCoeff() < 1e-8 * l_ref.cwiseAbs().maxCoeff());
}

TEST_CASE("IDA on the SUNDIALS slider-crank (GGL) reaches the reference", "[validation][ida]") {
  const auto ls = GENERATE(IdaOptions::LinearSolver::Sparse, IdaOptions::LinearSolver::Dense);
  const GenericDae sys = slider_crank_ggl::make_system();
  VecX q0(3), v0(3);
  sys.initial_state(q0, v0);

  SECTION("tight tolerances") {
    // rtol 1e-10 / atol 1e-12: the global error of a BDF run over 10 s of this damped motion is
    // a small multiple of rtol·|y| (~1e-9); the reference is good to 2e-11. 1e-7 leaves two
    // orders of margin for error growth while still failing for any O(tol)-wrong formulation.
    IdaOptions opt;
    opt.t_end = slider_crank_ggl::t_end;
    opt.output_every = 0.001;
    opt.rtol = 1e-10;
    opt.atol = 1e-12;
    opt.linear_solver = ls;
    std::vector<Row> rows;
    const SolveResult res = solve_ida(sys, 0.0, q0, v0, opt, recorder(rows));
    INFO(name(ls) << ": " << res.message);
    REQUIRE(res.ok());
    REQUIRE(rows.size() == 10001);
    const double e5 = max_abs_diff(row_at(rows, 5.0).q, slider_crank_ggl::ref_t5);
    const double e10 = max_abs_diff(row_at(rows, 10.0).q, slider_crank_ggl::ref_t10);
    // G(10) = ∫ kinetic energy dt by composite Simpson on the 1 ms output grid (h⁴ error ~1e-12).
    double G = 0;
    for (size_t k = 0; k + 2 < rows.size(); k += 2)
      G += 0.001 / 3 *
           (slider_crank_ggl::kinetic_energy(rows[k].v) +
            4 * slider_crank_ggl::kinetic_energy(rows[k + 1].v) +
            slider_crank_ggl::kinetic_energy(rows[k + 2].v));
    const double eG = std::abs(G - slider_crank_ggl::ref_G10);
    INFO(name(ls) << " rtol 1e-10: |err q(5)| = " << e5 << ", |err q(10)| = " << e10
                  << ", |err G(10)| = " << eG << ", max |C| = " << res.stats.max_position_violation
                  << ", max |Cdot| = " << res.stats.max_velocity_violation
                  << ", steps = " << res.stats.steps << ", Newton = "
                  << res.stats.newton_iterations << ", jac = " << res.stats.jacobian_evaluations
                  << ", LU = " << res.stats.factorizations << ", ETF = "
                  << res.stats.error_test_failures << ", wall = " << res.stats.wall_time << " s");
    CHECK(e5 < 1e-7);
    CHECK(e10 < 1e-7);
    CHECK(eG < 1e-7);
    CHECK(res.stats.max_position_violation < 1e-8);
    CHECK(res.stats.max_velocity_violation < 1e-8);
    // Statistics are filled.
    CHECK(res.stats.steps > 0);
    CHECK(res.stats.newton_iterations > 0);
    CHECK(res.stats.residual_evaluations > 0);
    CHECK(res.stats.jacobian_evaluations > 0);
    CHECK(res.stats.factorizations > 0);
    CHECK(res.stats.wall_time > 0);
    CHECK(res.stats.last_step > 0);
    CHECK(res.t_reached == Approx(10.0).margin(1e-12));
    // λ and a are handed out and consistent with the dynamics: M a = Q − Gᵀλ at t = 10.
    const Row& last = rows.back();
    VecX r(3);
    auto ws = sys.make_workspace();
    sys.residual(ws, 10.0, last.q, last.v, last.a, last.lambda, r);
    CHECK(r.cwiseAbs().maxCoeff() < 1e-6);
  }

  SECTION("loose tolerances are honoured") {
    // At rtol 1e-6 / atol 1e-7 (the example's settings) the error must be of the order the
    // tolerance allows: well below 1e-4, and not implausibly small (> 1e-10), i.e. the tolerance
    // is actually used for step control.
    IdaOptions opt;
    opt.t_end = slider_crank_ggl::t_end;
    opt.output_every = 5.0;
    opt.rtol = 1e-6;
    opt.atol = 1e-7;
    opt.linear_solver = ls;
    std::vector<Row> rows;
    const SolveResult res = solve_ida(sys, 0.0, q0, v0, opt, recorder(rows));
    INFO(name(ls) << ": " << res.message);
    REQUIRE(res.ok());
    REQUIRE(rows.size() == 3);
    const double e = std::max(max_abs_diff(row_at(rows, 5.0).q, slider_crank_ggl::ref_t5),
                              max_abs_diff(row_at(rows, 10.0).q, slider_crank_ggl::ref_t10));
    INFO(name(ls) << " rtol 1e-6: max |err q| = " << e << ", steps = " << res.stats.steps
                  << ", max |C| = " << res.stats.max_position_violation);
    CHECK(e < 1e-4);
    CHECK(e > 1e-10);
  }
}

TEST_CASE("IDA on Andrews' squeezer: mixed error significant digits at t = 0.03",
          "[validation][ida][andrews]") {
  const GenericDae sys = andrews::make_system();
  const VecX q0 = andrews::to_vec(andrews::q0), v0 = andrews::to_vec(andrews::qd0);
  const auto ls = GENERATE(IdaOptions::LinearSolver::Sparse, IdaOptions::LinearSolver::Dense);
  IdaOptions opt;
  opt.t_end = andrews::t_end;
  opt.rtol = 1e-10;
  opt.atol = 1e-10;
  opt.linear_solver = ls;
  std::vector<Row> rows;
  const SolveResult res = solve_ida(sys, 0.0, q0, v0, opt, recorder(rows));
  INFO(name(ls) << ": " << res.message);
  REQUIRE(res.ok());
  REQUIRE(rows.size() == 2);
  const double scd_q = andrews::mixed_error_digits(rows.back().q, andrews::to_vec(andrews::q_ref));
  const double scd_v =
      andrews::mixed_error_digits(rows.back().v, andrews::to_vec(andrews::qd_ref));
  INFO(name(ls) << " Andrews rtol = atol = 1e-10: scd(q) = " << scd_q << ", scd(q') = " << scd_v
                << ", steps = " << res.stats.steps << ", rejected = " << res.stats.rejected_steps
                << ", Newton = " << res.stats.newton_iterations
                << ", jac = " << res.stats.jacobian_evaluations
                << ", LU = " << res.stats.factorizations
                << ", max |C| = " << res.stats.max_position_violation
                << ", wall = " << res.stats.wall_time << " s");
  CHECK(scd_q >= 8.0);
  CHECK(res.stats.max_position_violation < 1e-8);
}

namespace {

/// ẍ = −x on one coordinate without constraints whose force becomes NaN after t = 0.5.
GenericDae nan_after_half_second() {
  GenericDae::Functions fn;
  fn.n = 1;
  fn.m = 0;
  fn.mass = [](ConstVecRef, GenericDae::MatRef M) { M(0, 0) = 1.0; };
  fn.forces = [](double t, ConstVecRef q, ConstVecRef, VecRef f) {
    f[0] = t > 0.5 ? std::numeric_limits<double>::quiet_NaN() : -q[0];
  };
  fn.q0 = VecX::Ones(1);
  fn.v0 = VecX::Zero(1);
  fn.coordinate_names = {"x"};
  return GenericDae(std::move(fn));
}

}  // namespace

TEST_CASE("IDA: a residual that turns NaN stops the run with the time in the message",
          "[validation][ida]") {
  const auto ls = GENERATE(IdaOptions::LinearSolver::Sparse, IdaOptions::LinearSolver::Dense);
  const GenericDae sys = nan_after_half_second();
  IdaOptions opt;
  opt.t_end = 1.0;
  opt.output_every = 0.1;
  opt.linear_solver = ls;
  std::vector<Row> rows;
  const SolveResult res = solve_ida(sys, 0.0, VecX::Ones(1), VecX::Zero(1), opt, recorder(rows));
  INFO(res.message);
  CHECK_FALSE(res.ok());
  CHECK(res.status == SolveStatus::ResidualFailure);
  // No step can cross t = 0.5, so IDA closes in on it from below until the minimum step.
  CHECK(res.t_reached > 0.5 - 1e-6);
  CHECK(res.t_reached <= 0.5);
  CHECK_THAT(res.message, Contains("IDA failed at t = 0.5 s"));
  CHECK_THAT(res.message, Contains("not finite"));
  CHECK_THAT(res.message, Contains("'x'"));
  // Rows t = 0, 0.1, ..., 0.5 were handed out before the failure, and are right: x = cos t.
  // (IDA never steps past an output time, so t = 0.5 itself is reached with a finite residual;
  // the failure comes on the way to 0.6.)
  REQUIRE(rows.size() == 6);
  CHECK(rows.back().t == Approx(0.5));
  CHECK(rows.back().q[0] == Approx(std::cos(0.5)).epsilon(1e-4));
  CHECK(res.stats.steps > 0);
}

TEST_CASE("IDA: inconsistent initial values and bad settings are reported", "[validation][ida]") {
  const GenericDae sys = slider_crank_ggl::make_system();
  VecX q0(3), v0(3);
  sys.initial_state(q0, v0);
  IdaOptions opt;
  opt.t_end = 1.0;
  SECTION("inconsistent positions") {
    VecX q = q0;
    q[1] += 0.01;
    int calls = 0;
    const SolveResult res = solve_ida(sys, 0.0, q, v0, opt, [&](const StateView&) {
      ++calls;
      return true;
    });
    CHECK(res.status == SolveStatus::InconsistentInitialConditions);
    CHECK_THAT(res.message, Contains("loop closure x"));
    CHECK(calls == 0);
  }
  SECTION("end before start") {
    opt.t_end = -1.0;
    CHECK_THROWS_AS(solve_ida(sys, 0.0, q0, v0, opt, nullptr), SolverSettingsError);
  }
  SECTION("observer stops the run") {
    opt.output_every = 0.1;
    int calls = 0;
    const SolveResult res = solve_ida(sys, 0.0, q0, v0, opt, [&](const StateView&) {
      return ++calls < 3;
    });
    CHECK(res.status == SolveStatus::StoppedByObserver);
    CHECK(calls == 3);
    CHECK(res.t_reached == Approx(0.2));
  }
  SECTION("step limit") {
    opt.max_steps = 5;
    const SolveResult res = solve_ida(sys, 0.0, q0, v0, opt, nullptr);
    CHECK(res.status == SolveStatus::TooMuchWork);
    CHECK_THAT(res.message, Contains("IDA_TOO_MUCH_WORK"));
  }
}
