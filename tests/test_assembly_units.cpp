// Every assembly unit kind of the implicit formulation (AssemblyUnit.h) through one test, as
// Pinocchio's all-joints test: on random states (fixed seed) of models that hold every kind, each
// unit's tangent against central differences of its own residual terms, and its rows against
// differences of its residual in λ (C_qᵀ), of its position rows in q (C_q), of its velocity rows
// in q (∂Ċ/∂q), and along the motion (Ċ from C, γ from Ċ: C̈ = C_q a − γ). And the test-only
// unit of SpringCoordinateUnit.h, registered by one line, against the damped oscillator's closed form.

#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <random>
#include <set>
#include <string>

#include <mbdae/formulations/Multibody.h>
#include <mbdae/io/ModelLoader.h>
#include <mbdae/solvers/GeneralizedAlpha.h>

#include "ResidualDifferences.h"
#include "HoldCoordinateUnit.h"
#include "SpringCoordinateUnit.h"

using namespace mbdae;
using io::LoadedModel;
using io::load_model_file;

namespace {

struct ModelCase {
  const char* file;
  std::vector<io::Override> sets;
  bool reaction_friction = false;
  double q_noise = 0.05;
};

std::string model_path(const char* name) { return std::string(MBDAE_TEST_SOURCE_DIR) + "/examples/models/" + name; }

/// max |A − B| ≤ tol · max(1, max |B|), with the worst entry in the message.
void check_close(const MatX& A, const MatX& B, double tol, const std::string& what) {
  INFO(what);
  REQUIRE(A.rows() == B.rows());
  REQUIRE(A.cols() == B.cols());
  if (A.size() == 0) return;
  Eigen::Index i = 0, j = 0;
  const double err = (A - B).cwiseAbs().maxCoeff(&i, &j);
  const double scale = std::max(1.0, B.cwiseAbs().maxCoeff());
  INFO("largest difference " << err << " at (" << i << ", " << j << "): " << A(i, j) << " against " << B(i, j)
                             << ", scale " << scale);
  CHECK(err <= tol * scale);
}

/// Columns k of d f/dx by central differences, f: VecX → VecX (size m).
template <class F>
MatX differences(F&& f, const VecX& x, Eigen::Index m, double h) {
  MatX D(m, x.size());
  VecX fp(m), fm(m);
  for (Eigen::Index k = 0; k < x.size(); ++k) {
    VecX xp = x, xm = x;
    xp[k] += h;
    xm[k] -= h;
    f(xp, fp);
    f(xm, fm);
    D.col(k) = (fp - fm) / (2 * h);
  }
  return D;
}

}  // namespace

TEST_CASE("assembly units: every kind's tangent and rows against central differences", "[units]") {
  const std::vector<ModelCase> cases = {
      {"double_pendulum.yaml", {{"bodies[0].rotation", "rxyz"}, {"bodies[1].rotation", "rotation_vector"}}},
      {"double_pendulum.yaml", {}},
      {"gear_train.yaml", {}},
      {"drivetrain.yaml", {}},
      {"pi_flywheel.yaml", {}},
      {"hover_pid.yaml", {}},
      {"pin_friction_pendulum.yaml", {}, true},
      {"end_stops.yaml", {}},
      {"rolling_coin.yaml", {}},
      {"crank_motor_curve.yaml", {}},
      {"bouncing_ball.yaml", {{"bodies[0].position", "[0, 0, 0.02]"}}, false, 1e-3},
      {"cantilever_cable.yaml", {}},
      {"cable_pendulum.yaml", {}},
      {"rotor_blade_modal.yaml", {}},
  };
  const std::set<std::string> kinds = {"rigid bodies", "shafts", "coupling angles", "controller states",
                                       "force elements", "friction by reaction", "penalty contacts", "shaft forces",
                                       "joints", "coupling rows", "cables", "cable supports",
                                       "modal bodies"};
  std::set<std::string> covered;
  std::mt19937 gen(20261128);
  std::normal_distribution<double> N(0, 1);
  for (const ModelCase& mc : cases) {
    INFO(mc.file);
    const LoadedModel lm = load_model_file(model_path(mc.file), mc.sets);
    MultibodyOptions opt;
    opt.reaction_friction = mc.reaction_friction;
    const MultibodySystem mb(lm.system, opt);
    auto ws = mb.make_workspace();
    const int n = mb.num_coordinates(), m = mb.num_constraints();
    VecX q(n), v(n);
    mb.initial_state(q, v);
    for (int i = 0; i < n; ++i) {
      q[i] += mc.q_noise * N(gen);
      v[i] += 0.3 * N(gen);
    }
    const VecX a = VecX::NullaryExpr(n, [&]() { return N(gen); });
    const VecX lam = VecX::NullaryExpr(m, [&]() { return 2 * N(gen); });
    const double t = 0.3, h = 1e-6, cq = 0.7, cv = 1.3, ca = 0.4;
    for (int k = 0; k < mb.num_units(); ++k) {
      const AssemblyUnit& u = mb.unit(k);
      INFO("unit " << u.kind());
      // The tangent against the differences of the unit's own residual terms.
      SparseMatrix A = mb.tangent_pattern();
      mb.unit_tangent(ws, k, t, q, v, a, lam, cq, cv, ca, A);
      const test::ResidualDifferences d = test::residual_differences(
          [&](const VecX& qq, const VecX& vv, const VecX& aa, VecX& r) {
            mb.unit_residual(ws, k, t, qq, vv, aa, lam, r);
          },
          q, v, a, h);
      const MatX fd = d.tangent(cq, cv, ca);
      check_close(MatX(A), fd, 1e-6, "tangent");
      bool present = fd.cwiseAbs().maxCoeff() > 0 || u.num_full_rows() > 0;
      for (int i = 0; i < n && !present; ++i) present = !u.coordinate_label(i).empty();
      if (present) covered.insert(u.kind());
      if (u.num_full_rows() == 0) continue;
      // Its rows: C_q against the residual's λ-differences (r = … + C_qᵀ λ) and the position
      // rows' q-differences; ∂Ċ/∂q against the velocity rows' q-differences.
      SparseMatrix Cq = mb.jacobian_pattern(), G = mb.jacobian_pattern();
      mb.unit_jacobian(ws, k, t, q, v, RowLevel::Position, Cq);
      mb.unit_jacobian(ws, k, t, q, v, RowLevel::Velocity, G);
      const MatX C(Cq);
      std::vector<int> rows;  // the unit's active rows
      for (int r = 0; r < u.num_full_rows(); ++r)
        if (u.active_row(r) >= 0) rows.push_back(u.active_row(r));
      const MatX dr_dl = differences(
          [&](const VecX& l, VecX& r) { mb.unit_residual(ws, k, t, q, v, a, l, r); }, lam, n, h);
      MatX C_rows(static_cast<Eigen::Index>(rows.size()), n), L_rows(static_cast<Eigen::Index>(rows.size()), n);
      for (size_t i = 0; i < rows.size(); ++i) {
        C_rows.row(static_cast<Eigen::Index>(i)) = C.row(rows[i]);
        L_rows.row(static_cast<Eigen::Index>(i)) = dr_dl.col(rows[i]).transpose();
      }
      if (u.kind() != std::string("friction by reaction")) check_close(C_rows, L_rows, 1e-6, "C_q against dr/dλ");
      auto level_rows = [&](RowLevel level, double tt, const VecX& qq, const VecX& vv) {
        VecX out(m);
        mb.unit_rows(ws, k, tt, qq, vv, level, out);
        return out;
      };
      const MatX dC = differences([&](const VecX& qq, VecX& c) { c = level_rows(RowLevel::Position, t, qq, v); }, q, m, h);
      const MatX dCv = differences([&](const VecX& qq, VecX& c) { c = level_rows(RowLevel::Velocity, t, qq, v); }, q, m, h);
      // Along the motion q(t + s) = q + s v + ½ s² a, v(t + s) = v + s a: Ċ = dC/ds, C̈ = dĊ/ds = C_q a − γ.
      const double s = 1e-5;
      auto at = [&](double ds, const VecX& x, const VecX& xd, double half) { return VecX(x + ds * xd + half * ds * ds * a); };
      const VecX Cdot_fd = (level_rows(RowLevel::Position, t + s, at(s, q, v, 0.5), v) -
                            level_rows(RowLevel::Position, t - s, at(-s, q, v, 0.5), v)) / (2 * s);
      const VecX Cddot_fd = (level_rows(RowLevel::Velocity, t + s, at(s, q, v, 0.5), at(s, v, a, 0.0)) -
                             level_rows(RowLevel::Velocity, t - s, at(-s, q, v, 0.5), at(-s, v, a, 0.0))) / (2 * s);
      const VecX Cdot = level_rows(RowLevel::Velocity, t, q, v);
      const VecX gam = level_rows(RowLevel::Acceleration, t, q, v);
      const MatX Gd(G);
      for (const int r : rows) {
        INFO("row " << r << ": " << mb.constraint_label(r));
        if (!mb.is_velocity_level(r)) {
          check_close(C.row(r), dC.row(r), 1e-6, "C_q against dC/dq");
          check_close(MatX::Constant(1, 1, Cdot[r]), MatX::Constant(1, 1, Cdot_fd[r]), 1e-6, "Ċ against dC/dt");
        }
        check_close(Gd.row(r), dCv.row(r), 1e-6, "∂Ċ/∂q against dĊ/dq");
        check_close(MatX::Constant(1, 1, (C.row(r) * a)(0) - gam[r]), MatX::Constant(1, 1, Cddot_fd[r]), 1e-5,
                    "C_q a − γ against dĊ/dt");
      }
    }
  }
  CHECK(covered == kinds);
}

TEST_CASE("assembly units: a unit of the tests' own, registered by one line", "[units]") {
  // The IFToMM simple pendulum with one more coordinate: a damped oscillator m ẍ + d ẋ + k x = 0.
  const double mass = 2.0, k = 50.0, d = 0.8, x0 = 0.1, v0 = -0.3;
  const LoadedModel lm = load_model_file(model_path("simple_pendulum.yaml"), {});
  MultibodyOptions opt;
  opt.extra_units.push_back([&](const System&) { return std::make_unique<test::SpringCoordinateUnit>(mass, k, d, x0, v0); });
  const MultibodySystem mb(lm.system, opt);
  const MultibodySystem plain(lm.system);
  // Its coordinate comes after the model's, with its label; the model's rows are unchanged.
  REQUIRE(mb.num_coordinates() == plain.num_coordinates() + 1);
  REQUIRE(mb.num_constraints() == plain.num_constraints());
  const int x = plain.num_coordinates();
  CHECK(mb.coordinate_label(x) == "spring coordinate x");
  CHECK(std::string(mb.unit(mb.num_units() - 1).kind()) == "spring coordinate (test)");
  // Integrated with the pendulum by generalized-α against the closed form (underdamped):
  // x = e^{−ζωt} (x0 cos ω_d t + (v0 + ζω x0)/ω_d sin ω_d t).
  VecX q(mb.num_coordinates()), v(mb.num_coordinates());
  mb.initial_state(q, v);
  NewmarkOptions o;
  o.t_end = 2.0;
  o.step = 1e-3;
  double x_end = 0, E0 = -1, E_end = 0;
  auto ws = mb.make_workspace();
  const SolveResult res = solve_generalized_alpha(mb, 0.0, q, v, o, [&](const StateView& s) {
    if (E0 < 0) E0 = mb.energy(ws, s.t, s.q, s.v);
    x_end = s.q[x];
    E_end = mb.energy(ws, s.t, s.q, s.v);
    return true;
  });
  REQUIRE(res.ok());
  const double w = std::sqrt(k / mass), zeta = d / (2 * std::sqrt(k * mass)), wd = w * std::sqrt(1 - zeta * zeta);
  const double exact = std::exp(-zeta * w * 2.0) * (x0 * std::cos(wd * 2.0) + (v0 + zeta * w * x0) / wd * std::sin(wd * 2.0));
  CHECK(std::abs(x_end - exact) < 2e-5);
  // Its energy is part of the system's: the damper only takes energy out.
  CHECK(E_end < E0);
}

TEST_CASE("assembly units: a row unit of the tests' own holds another unit's coordinate", "[units]") {
  // The oscillator above started at x0 at rest and held there by one row x − x0 = 0: x stays, and
  // the row's multiplier is the holding force. At rest m ẍ + d ẋ + k x + λ = 0 gives λ = −k x0.
  const double mass = 2.0, k = 50.0, d = 0.8, x0 = 0.1;
  const LoadedModel lm = load_model_file(model_path("simple_pendulum.yaml"), {});
  MultibodyOptions opt;
  test::SpringCoordinateUnit* spring = nullptr;
  opt.extra_units.push_back([&](const System&) {
    auto u = std::make_unique<test::SpringCoordinateUnit>(mass, k, d, x0, 0.0);
    spring = u.get();
    return u;
  });
  opt.extra_units.push_back([&](const System&) {
    return std::make_unique<test::HoldCoordinateUnit>([&] { return spring->coordinate(); }, x0);
  });
  const MultibodySystem mb(lm.system, opt);
  const MultibodySystem plain(lm.system);
  REQUIRE(mb.num_coordinates() == plain.num_coordinates() + 1);
  REQUIRE(mb.num_constraints() == plain.num_constraints() + 1);
  const int x = plain.num_coordinates(), row = plain.num_constraints();
  CHECK(mb.constraint_label(row) == "hold x (test)");
  VecX q(mb.num_coordinates()), v(mb.num_coordinates());
  mb.initial_state(q, v);
  NewmarkOptions o;
  o.t_end = 1.0;
  o.step = 1e-3;
  double x_max = 0, lambda_end = 0;
  const SolveResult res = solve_generalized_alpha(mb, 0.0, q, v, o, [&](const StateView& s) {
    x_max = std::max(x_max, std::abs(s.q[x] - x0));
    if (s.lambda.size()) lambda_end = s.lambda[row];
    return true;
  });
  REQUIRE(res.ok());
  // Within the Newton tolerances (1e-10 on Δq, 1e-8 relative on Δq̈: m Δq̈ ≈ 2e-8 N on λ).
  CHECK(x_max < 1e-9);
  CHECK(std::abs(lambda_end + k * x0) < 1e-6);
}
