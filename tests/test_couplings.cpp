// Couplings of joint coordinates (gear, rack_pinion, linear) against closed forms:
// (1) two flywheels on revolute joints geared at ratio r, a constant torque T on the first:
//     a1 = T / (I1 + r² I2), a2 = −r a1, and the coupling's multiplier λ = r I2 a1 (the gear
//     applies −λ to the second shaft: I2 a2 = −λ, and −r λ to the first: I1 a1 = T − r λ);
// (2) the two-stage gearbox of examples/models/gear_train.yaml (torque-driven, a flexible output
//     shaft): the ratios held, the closed form of its two-inertia reduction, and the work of the
//     torque equal to the kinetic and spring energy;
// (3) rack and pinion: x = R θ and a_θ = T / (I + m R²);
// (1) and (3) on rxyz bodies, whose rotation about z is one coordinate moving quadratically in t,
// so that generalized-α and the trapezoidal rule reproduce it to round-off;
// (4) a coupling of an unknown joint or of a spherical joint refused at its place in the file;
// and the coupling rows' Jacobian, velocity, γ and tangent against finite differences.

#include <cmath>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "ResidualDifferences.h"

#include <mbdae/formulations/Multibody.h>
#include <mbdae/io/Run.h>

using namespace mbdae;
using namespace mbdae::io;

namespace {

constexpr double kI1 = 0.02, kI2 = 0.3, kR = 0.37, kT = 1.5;

std::string flywheels(const std::string& rot) {
  return "gravity: [0, 0, -9.81]\n"
         "bodies:\n"
         "  - {name: a, mass: 1.0, inertia: [0.012, 0.012, 0.02, 0, 0, 0], position: [0, 0, 0], rotation: " + rot + "}\n"
         "  - {name: b, mass: 3.0, inertia: [0.2, 0.2, 0.3, 0, 0, 0], position: [0.4, 0, 0], rotation: " + rot + "}\n"
         "joints:\n"
         "  - {name: ja, type: revolute, bodies: [ground, a], point: [0, 0, 0], axis: [0, 0, 1]}\n"
         "  - {name: jb, type: revolute, bodies: [ground, b], point: [0.4, 0, 0], axis: [0, 0, 1]}\n"
         "couplings:\n"
         "  - {name: mesh, type: gear, joints: [ja, jb], ratio: 0.37}\n"
         "forces:\n"
         "  - {name: drive, type: torque, body: a, value: [0, 0, 1.5]}\n"
         "solver: {end_time: 3.0, step: 2.0e-4}\n"
         "output: {every: 0.5}\n";
}

struct Sample {
  double t;
  VecX q, v, a, lambda;
};

/// Runs the model, keeping every output state (and sensor row); the run owns the formulation.
std::unique_ptr<ModelRun> run(const LoadedModel& lm, std::vector<Sample>& out,
                              std::vector<std::vector<double>>* rows = nullptr) {
  auto r = std::make_unique<ModelRun>(lm);
  const SolveResult res = r->run([&](const StateView& s, std::span<const double> row) {
    out.push_back({s.t, s.q, s.v, s.a, s.lambda});
    if (rows) rows->emplace_back(row.begin(), row.end());
    return true;
  });
  INFO(res.message);
  REQUIRE(res.ok());
  REQUIRE(r->multibody());
  return r;
}

}  // namespace

TEST_CASE("gear pair: accelerations and the transmitted torque against the closed form", "[coupling]") {
  const double a1 = kT / (kI1 + kR * kR * kI2), a2 = -kR * a1, lam = kR * kI2 * a1;
  struct Case {
    const char* name;
    const char* rotation;
    std::vector<Override> sets;
    double tol;  // relative
    bool index3 = false;
  };
  // With rxyz coordinates the rotation about z is the third angle, quadratic in t: generalized-α
  // and the trapezoidal rule integrate it exactly (round-off). Euler parameters move as
  // cos(θ/2), sin(θ/2): IDA at a tight tolerance.
  const std::vector<Case> cases{
      {"generalized_alpha", "rxyz", {}, 1e-9, true},
      {"generalized_alpha index2_ggl", "rxyz", {{"solver.formulation", "index2_ggl"}}, 1e-9},
      {"trapezoidal_index2", "rxyz", {{"solver.type", "trapezoidal_index2"}}, 1e-9},
      {"ida", "euler_parameters", {{"solver.type", "ida"}, {"solver.tolerance", "{relative: 1.0e-10, absolute: 1.0e-12}"}}, 1e-6},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const LoadedModel lm = load_model_text(flywheels(c.rotation), "gears.yaml", c.sets);
    std::vector<Sample> s;
    const auto r = run(lm, s);
    const MultibodySystem* mb = r->multibody();
    const int pa = mb->coupling_angle_coordinate(0), pb = mb->coupling_angle_coordinate(1);
    REQUIRE(pa >= 0);
    REQUIRE(pb >= 0);
    double err_a = 0, err_l = 0, err_th = 0;  // largest relative errors, for the message below
    for (const Sample& x : s) {
      if (x.t == 0) continue;
      const JointCoordinate ca = mb->joint_coordinate(0, x.t, x.q, x.v, x.a);
      const JointCoordinate cb = mb->joint_coordinate(1, x.t, x.q, x.v, x.a);
      // Index-3 generalized-α fixes accelerations and multipliers only down to its Newton test's
      // round-off floor, about 100 ε β' ‖q‖∞ with β' = 1/(β h²) ≤ 4/h² (GeneralizedAlpha.h).
      const double floor = c.index3 ? 400 * 2.3e-16 * x.q.cwiseAbs().maxCoeff() / (2e-4 * 2e-4) : 0.0;
      CHECK(std::abs(ca.acceleration - a1) <= c.tol * a1 + floor);
      CHECK(std::abs(cb.acceleration - a2) <= c.tol * a1 + floor);
      CHECK(std::abs(mb->coupling_multiplier(0, x.lambda) - lam) <= c.tol * lam + kI2 * kR * floor);
      // The angles count turns: θ1 = a1 t²/2 (62 rad at 3 s), θ2 = −r θ1.
      const double th1 = 0.5 * a1 * x.t * x.t;
      CHECK(std::abs(x.q[pa] - th1) <= c.tol * th1);
      CHECK(std::abs(x.q[pb] + kR * x.q[pa]) <= 1e-9 * th1);
      err_a = std::max({err_a, std::abs(ca.acceleration - a1) / a1, std::abs(cb.acceleration - a2) / a1});
      err_l = std::max(err_l, std::abs(mb->coupling_multiplier(0, x.lambda) - lam) / lam);
      err_th = std::max(err_th, std::abs(x.q[pa] - th1) / th1);
    }
    INFO("largest relative errors: accelerations " << err_a << ", transmitted torque " << err_l << ", angle "
                                                    << err_th);
    CHECK(err_th <= c.tol);
    CHECK(0.5 * a1 * 9.0 > 20 * M_PI);  // many turns
  }
}

TEST_CASE("two-stage gear train: ratios held, closed form, energy balance", "[coupling]") {
  // examples/models/gear_train.yaml: T = 2 N m on the input; stages r1 = 0.5, r2 = 0.25; the
  // output gear drives the load through k = 200 N m/rad.
  const double T = 2.0, r1 = 0.5, r2 = 0.25, r = r1 * r2, k = 200.0;
  const double Ja = (0.02 + r1 * r1 * 0.1 + r * r * 0.5) / (r * r), JL = 2.0, J = Ja + JL, Ta = T / r;
  const double W = std::sqrt(k * J / (Ja * JL));
  const LoadedModel lm = load_model_file(std::string(MBDAE_TEST_SOURCE_DIR) + "/examples/models/gear_train.yaml",
                                         {{"solver.type", "ida"},
                                          {"solver.tolerance", "{relative: 1.0e-12, absolute: 1.0e-13}"}});
  std::vector<std::vector<double>> rows;
  std::vector<Sample> s;
  const auto the_run = run(lm, s, &rows);
  const MultibodySystem* mb = the_run->multibody();
  const int pin = mb->coupling_angle_coordinate(0), pmid = mb->coupling_angle_coordinate(1),
            pout = mb->coupling_angle_coordinate(2);
  double worst_ratio = 0, worst_energy = 0, worst_x = 0, worst_lambda = 0;
  const double Iout = 0.5, Imid = 0.1;
  for (size_t i = 0; i < s.size(); ++i) {
    const Sample& x = s[i];
    const double th_in = x.q[pin];
    // The ratios measured by the joint_angle sensors (from the bodies' rotations, turns counted),
    // not by the coupling's own angle coordinates.
    const double s_in = rows[i][0], s_mid = rows[i][2], s_out = rows[i][4];
    worst_ratio = std::max({worst_ratio, std::abs(s_mid + r1 * s_in), std::abs(s_out + r2 * s_mid)});
    CHECK(std::abs(x.q[pmid] + r1 * th_in) < 1e-12 * std::max(1.0, th_in));
    // The work of the constant torque against kinetic + spring energy (sensors T and V).
    const double work = T * th_in, E = rows[i][8] + rows[i][9];
    if (x.t > 0.1) worst_energy = std::max(worst_energy, std::abs(work - E) / work);
    const double z = Ta * JL / (k * J) * (1 - std::cos(W * x.t));
    const double xo = Ta * x.t * x.t / (2 * J) + JL / J * z;
    worst_x = std::max(worst_x, std::abs(x.q[pout] - xo));
    // The transmitted torques (coupling_effort sensors stage1, stage2): the output gear
    // I_out ẍ = −λ2 − k z (the gear's −λ2 and the shaft's spring), the middle gear
    // I_mid α_mid = −λ1 − r2 λ2 with α_mid = −ẍ / r2, ẍ = T_a / J + (T_a J_L / (J J_a)) cos W t.
    const double xdd = Ta / J + Ta * JL / (J * Ja) * std::cos(W * x.t);
    const double lam2 = -Iout * xdd - k * z, lam1 = Imid * xdd / r2 - r2 * lam2;
    worst_lambda = std::max({worst_lambda, std::abs(rows[i][12] - lam1), std::abs(rows[i][13] - lam2)});
    // The output angle sensor counts turns as the coupling's coordinate does.
    CHECK(std::abs(rows[i][4] - x.q[pout]) < 1e-9);
  }
  INFO("largest ratio residual " << worst_ratio << " rad, energy balance " << worst_energy
                                 << " relative, output angle " << worst_x << " rad from the closed form, transmitted torques "
                                 << worst_lambda << " N m from the closed form");
  REQUIRE(the_run->sensors().columns().at(12) == "stage1");
  REQUIRE(the_run->sensors().columns().at(13) == "stage2");
  CHECK(s.back().q[pin] > 40.0);  // about 7.6 turns of the input
  CHECK(worst_ratio < 1e-9);
  CHECK(worst_energy < 1e-9);
  CHECK(worst_x < 1e-8);
  CHECK(worst_lambda < 1e-6);  // of torques up to T_a = 16 N m
}

TEST_CASE("rack and pinion: x = R theta against the closed form", "[coupling]") {
  const double R = 0.05, I = 0.01, m = 2.0, T = 0.4;
  const double al = T / (I + m * R * R);
  const std::string text =
      "bodies:\n"
      "  - {name: pinion, mass: 0.5, inertia: [0.006, 0.006, 0.01, 0, 0, 0], position: [0, 0, 0], rotation: rxyz}\n"
      "  - {name: rack, mass: 2.0, inertia: [0.01, 0.1, 0.1, 0, 0, 0], position: [0, -0.05, 0]}\n"
      "joints:\n"
      "  - {name: hinge, type: revolute, bodies: [ground, pinion], point: [0, 0, 0], axis: [0, 0, 1]}\n"
      "  - {name: slide, type: prismatic, bodies: [ground, rack], point: [0, -0.05, 0], axis: [1, 0, 0]}\n"
      "couplings:\n"
      "  - {name: teeth, type: rack_pinion, joints: [hinge, slide], radius: 0.05}\n"
      "forces:\n"
      "  - {name: drive, type: torque, body: pinion, value: [0, 0, 0.4]}\n"
      "solver: {end_time: 2.0, step: 2.0e-4}\n"
      "output: {every: 0.25}\n";
  for (const char* solver : {"generalized_alpha", "trapezoidal_index2"}) {
    INFO(solver);
    const LoadedModel lm = load_model_text(text, "rack.yaml", {{"solver.type", solver}});
    std::vector<Sample> s;
    const auto r = run(lm, s);
    const MultibodySystem* mb = r->multibody();
    const int p = mb->coupling_angle_coordinate(0);
    for (const Sample& x : s) {
      const double th = x.q[p];
      const JointCoordinate xs = mb->joint_coordinate(1, x.t, x.q, x.v, x.a);
      CHECK(std::abs(xs.value - R * th) <= 1e-12);
      CHECK(std::abs(th - 0.5 * al * x.t * x.t) <= 1e-9 * std::max(1.0, th));
      if (x.t > 0) {
        // As above: index-3 generalized-α down to its Newton floor ~100 ε β' ‖q‖∞.
        const double floor = std::string(solver) == "generalized_alpha"
                                 ? 400 * 2.3e-16 * x.q.cwiseAbs().maxCoeff() / (2e-4 * 2e-4)
                                 : 0.0;
        CHECK(std::abs(xs.acceleration - R * al) <= 1e-9 * R * al + R * floor);
        // The rack's force: m ẍ = −λ (c = 1 on the rack).
        CHECK(std::abs(mb->coupling_multiplier(0, x.lambda) + m * R * al) <= 1e-9 * m * R * al + m * R * floor);
      }
    }
  }
}

TEST_CASE("couplings: Jacobian, velocity, gamma and tangent against finite differences", "[coupling][jacobian]") {
  // A gear between two floating bodies' revolute joints and a linear coupling with a prismatic
  // joint, at a random state off the constraints.
  const std::string text =
      "bodies:\n"
      "  - {name: a, mass: 1.0, inertia: [0.1, 0.2, 0.3, 0, 0, 0], position: [0, 0, 0]}\n"
      "  - {name: b, mass: 2.0, inertia: [0.2, 0.2, 0.3, 0, 0, 0], position: [1, 0, 0], rotation: rxyz}\n"
      "  - {name: c, mass: 1.5, inertia: [0.2, 0.3, 0.3, 0, 0, 0], position: [0, 1, 0], rotation: rotation_vector}\n"
      "joints:\n"
      "  - {name: ja, type: revolute, bodies: [a, b], point: [0.5, 0, 0], axis: [0, 1, 1]}\n"
      "  - {name: jb, type: revolute, bodies: [c, a], point: [0, 0.5, 0], axis: [1, 0, 0]}\n"
      "  - {name: jc, type: prismatic, bodies: [b, c], point: [0.5, 0.5, 0], axis: [1, 1, 0]}\n"
      "couplings:\n"
      "  - {name: g, type: gear, joints: [ja, jb], ratio: 1.7, internal: true}\n"
      "  - {name: l, type: linear, joints: [jb, jc, ja], coefficients: [0.3, -2.0, 0.5]}\n"
      "solver: {end_time: 1.0}\n";
  const LoadedModel lm = load_model_text(text, "fd.yaml", {});
  const MultibodySystem mb(lm.system);
  auto ws = mb.make_workspace();
  const int n = mb.num_coordinates(), m = mb.num_constraints();
  VecX q(n), v(n);
  mb.initial_state(q, v);
  std::mt19937 gen(7);
  std::normal_distribution<double> N(0, 0.1);
  for (int i = 0; i < n; ++i) {
    q[i] += N(gen);
    v[i] += N(gen);
  }
  q[mb.coupling_angle_coordinate(0)] += 12.0;  // a few turns
  const VecX a = VecX::NullaryExpr(n, [&]() { return 3 * N(gen); });
  const VecX lam = VecX::NullaryExpr(m, [&]() { return 5 * N(gen); });
  const double t = 0.2, h = 1e-6;
  SparseMatrix Cq = mb.jacobian_pattern();
  mb.assemble_jacobian(ws, t, q, Cq);
  const MatX C(Cq);
  MatX Cfd(m, n), Gfd(m, n);
  VecX cp(m), cm(m);
  const double cq = 0.7, cv = 1.3, ca = 0.4;
  for (int k = 0; k < n; ++k) {
    VecX qp = q, qm = q;
    qp[k] += h;
    qm[k] -= h;
    mb.constraints(ws, t, qp, cp);
    mb.constraints(ws, t, qm, cm);
    Cfd.col(k) = (cp - cm) / (2 * h);
    mb.constraint_velocity(ws, t, qp, v, cp);
    mb.constraint_velocity(ws, t, qm, v, cm);
    Gfd.col(k) = (cp - cm) / (2 * h);
  }
  const MatX Tfd = test::residual_differences(mb, ws, t, q, v, a, lam, h).tangent(cq, cv, ca);
  CHECK((C - Cfd).cwiseAbs().maxCoeff() < 1e-7 * std::max(1.0, Cfd.cwiseAbs().maxCoeff()));
  VecX cvel(m);
  mb.constraint_velocity(ws, t, q, v, cvel);
  CHECK((cvel - C * v).cwiseAbs().maxCoeff() < 1e-12 * std::max(1.0, cvel.cwiseAbs().maxCoeff()));
  SparseMatrix G = mb.jacobian_pattern();
  mb.assemble_velocity_jacobian(ws, t, q, v, G);
  CHECK((MatX(G) - Gfd).cwiseAbs().maxCoeff() < 1e-6 * std::max(1.0, Gfd.cwiseAbs().maxCoeff()));
  // γ: d²/ds² C(q + v s + a s²/2) = C_q a − γ.
  VecX gam(m), c0(m);
  mb.gamma(ws, t, q, v, gam);
  const double s = 1e-4;
  mb.constraints(ws, t, q + v * s + a * (s * s / 2), cp);
  mb.constraints(ws, t, q - v * s + a * (s * s / 2), cm);
  mb.constraints(ws, t, q, c0);
  const VecX cdd = (cp - 2 * c0 + cm) / (s * s);
  CHECK((cdd - (C * a - gam)).cwiseAbs().maxCoeff() < 1e-5 * std::max(1.0, cdd.cwiseAbs().maxCoeff()));
  SparseMatrix A = mb.tangent_pattern();
  mb.assemble_tangent(ws, t, q, v, a, lam, cq, cv, ca, A);
  CHECK((MatX(A) - Tfd).cwiseAbs().maxCoeff() < 1e-5 * std::max(1.0, Tfd.cwiseAbs().maxCoeff()));
}

TEST_CASE("couplings of an unknown joint or a joint without one coordinate are refused at their place", "[coupling][io]") {
  const std::string head =
      "bodies:\n"
      "  - {name: a, mass: 1.0, inertia: [0.1, 0.1, 0.1, 0, 0, 0], position: [0, 0, 0]}\n"
      "  - {name: b, mass: 1.0, inertia: [0.1, 0.1, 0.1, 0, 0, 0], position: [1, 0, 0]}\n"
      "joints:\n"
      "  - {name: ja, type: revolute, bodies: [ground, a], point: [0, 0, 0], axis: [0, 0, 1]}\n"
      "  - {name: ball, type: spherical, bodies: [ground, b], point: [1, 0, 0]}\n"
      "couplings:\n";
  struct Bad {
    std::string item, path, message;
    int column;
  };
  const std::vector<Bad> bad{
      {"  - {name: g, type: gear, joints: [ja, nothing], ratio: 2}\n", "couplings[0].joints[1]", "unknown joint or shaft 'nothing'", 40},
      {"  - {name: g, type: linear, joints: [ja, ball], coefficients: [1, 1]}\n", "couplings[0].joints[1]",
       "joint 'ball' is spherical; a coupling takes revolute and prismatic joints", 42},
  };
  for (const Bad& b : bad) {
    INFO(b.item);
    try {
      (void)load_model_text(head + b.item + "solver: {end_time: 1}\n", "bad.yaml", {});
      FAIL("accepted");
    } catch (const LoadError& e) {
      REQUIRE(!e.diagnostics().empty());
      const Diagnostic& d = e.diagnostics().front();
      CHECK(d.file == "bad.yaml");
      CHECK(d.line == 8);
      CHECK(d.column == b.column);
      CHECK(d.key_path == b.path);
      CHECK(d.message.find(b.message) != std::string::npos);
    }
  }
  // The explicit solvers refuse a coupling, naming the solvers that take it.
  try {
    (void)load_model_text(head + "  - {name: g, type: linear, joints: [ja], coefficients: [1]}\n"
                                 "solver: {type: rk4, end_time: 1}\n",
                          "bad.yaml", {});
    FAIL("accepted");
  } catch (const LoadError& e) {
    const Diagnostic& d = e.diagnostics().front();
    CHECK(d.line == 8);
    CHECK(d.key_path == "couplings[0]");
    CHECK(d.message.find("generalized_alpha, ida, trapezoidal_index2") != std::string::npos);
  }
}

TEST_CASE("couplings do no work: a spatial mechanism with an internal gear and a linear coupling keeps its energy",
          "[coupling]") {
  // A chain ground–a–b–c under gravity (revolute, revolute, prismatic on skew axes) with an
  // internal gear between the two hinges and a linear coupling of all three coordinates: no
  // source or sink of energy, so kinetic + gravity energy stays at its initial value.
  const std::string text =
      "gravity: [0, -9.81, 0]\n"
      "bodies:\n"
      "  - {name: a, mass: 1.0, inertia: [0.1, 0.2, 0.3, 0, 0, 0], position: [0, 0, 0]}\n"
      "  - {name: b, mass: 2.0, inertia: [0.2, 0.2, 0.3, 0, 0, 0], position: [1, 0, 0]}\n"
      "  - {name: c, mass: 1.5, inertia: [0.2, 0.3, 0.3, 0, 0, 0], position: [0, 1, 0], rotation: rotation_vector}\n"
      "joints:\n"
      "  - {name: ja, type: revolute, bodies: [ground, a], point: [0, 0, 0], axis: [0, 1, 1]}\n"
      "  - {name: jb, type: revolute, bodies: [a, b], point: [0.5, 0, 0], axis: [1, 0, 0]}\n"
      "  - {name: jc, type: prismatic, bodies: [b, c], point: [0.5, 0.5, 0], axis: [1, 1, 0]}\n"
      "couplings:\n"
      "  - {name: g, type: gear, joints: [ja, jb], ratio: 1.7, internal: true}\n"
      "  - {name: l, type: linear, joints: [jb, jc, ja], coefficients: [0.3, -2.0, 0.5]}\n"
      "sensors:\n"
      "  - {name: E, output: energy}\n"
      "solver: {type: ida, end_time: 1.0, tolerance: {relative: 1.0e-10, absolute: 1.0e-12}}\n"
      "output: {every: 0.05}\n";
  const LoadedModel lm = load_model_text(text, "workless.yaml", {});
  std::vector<std::vector<double>> rows;
  std::vector<Sample> s;
  const auto the_run = run(lm, s, &rows);
  const double E0 = rows.front()[0];
  double worst = 0, moved = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    worst = std::max(worst, std::abs(rows[i][0] - E0) / std::abs(E0));
    moved = std::max(moved, std::abs(s[i].q[the_run->multibody()->coupling_angle_coordinate(0)]));
  }
  INFO("largest relative energy change " << worst << ", largest angle of ja " << moved << " rad");
  CHECK(moved > 0.3);  // the mechanism moves
  CHECK(worst < 1e-8);
}

TEST_CASE("coupling_effort sensor: the transmitted torque of a gear pair under a varying torque against the closed form",
          "[coupling][sensors]") {
  // The flywheels of the first test with τ(t) = 1.5 + sin 2t on a: J_a α_a = τ − r λ,
  // J_b α_b = −λ, α_b = −r α_a, so α_a = τ / (J_a + r² J_b) and λ = r J_b α_a = r J_b τ(t) / (J_a + r² J_b)
  // at every instant (the gear has no compliance). The sensor column is λ.
  auto model = [](const std::string& rot, const std::string& sensor) {
    return "gravity: [0, 0, -9.81]\n"
           "bodies:\n"
           "  - {name: a, mass: 1.0, inertia: [0.012, 0.012, 0.02, 0, 0, 0], position: [0, 0, 0], rotation: " + rot + "}\n"
           "  - {name: b, mass: 3.0, inertia: [0.2, 0.2, 0.3, 0, 0, 0], position: [0.4, 0, 0], rotation: " + rot + "}\n"
           "joints:\n"
           "  - {name: ja, type: revolute, bodies: [ground, a], point: [0, 0, 0], axis: [0, 0, 1]}\n"
           "  - {name: jb, type: revolute, bodies: [ground, b], point: [0.4, 0, 0], axis: [0, 0, 1]}\n"
           "couplings:\n"
           "  - {name: mesh, type: gear, joints: [ja, jb], ratio: 0.37}\n"
           "forces:\n"
           "  - {name: drive, type: torque, body: a, value: [0, 0, \"1.5 + sin(2*t)\"]}\n"
           "sensors:\n" + sensor +
           "solver: {end_time: 3.0, step: 2.0e-4}\n"
           "output: {every: 0.01}\n";
  };
  const std::string sensor = "  - {name: mesh, coupling: mesh, output: coupling_effort}\n";
  auto lam = [](double t) { return kR * kI2 * (1.5 + std::sin(2 * t)) / (kI1 + kR * kR * kI2); };
  struct Case {
    const char* name;
    const char* rotation;
    std::vector<Override> sets;
    double tol;  // relative to λ's largest value
    bool index3 = false;
  };
  // rxyz: the gear equation is linear in the coordinates, so the Newmark-type updates keep the
  // accelerations on it (α_b = −r α_a) and the multiplier of the step's last Newton iterate
  // satisfies the two equations of motion at its time: λ exact up to the iteration's convergence
  // (generalized-α: the floor below, as in the first test). IDA on Euler parameters: λ is an
  // algebraic variable, left out of IDA's error test; its error follows that of the BDF
  // derivative of the velocities, about the tolerance over the step (1e-10 / 1e-4 = 1e-6).
  const std::vector<Case> cases{
      {"generalized_alpha", "rxyz", {}, 1e-9, true},
      {"trapezoidal_index2", "rxyz", {{"solver.type", "trapezoidal_index2"}}, 1e-9},
      {"ida", "euler_parameters", {{"solver.type", "ida"}, {"solver.tolerance", "{relative: 1.0e-10, absolute: 1.0e-12}"}}, 1e-5},
  };
  const double lmax = lam(M_PI / 4);
  for (const Case& c : cases) {
    INFO(c.name);
    const LoadedModel lm = load_model_text(model(c.rotation, sensor), "gears.yaml", c.sets);
    std::vector<Sample> s;
    std::vector<std::vector<double>> rows;
    const auto r = run(lm, s, &rows);
    REQUIRE(r->sensors().columns() == std::vector<std::string>{"mesh"});
    REQUIRE(r->sensors().units() == std::vector<std::string>{"N m"});
    double worst = 0;
    for (size_t k = 0; k < s.size(); ++k) {
      if (s[k].t == 0) continue;
      const double floor = c.index3 ? 400 * 2.3e-16 * s[k].q.cwiseAbs().maxCoeff() / (2e-4 * 2e-4) * kI2 * kR : 0.0;
      CHECK(std::abs(rows[k][0] - lam(s[k].t)) <= c.tol * lmax + floor);
      worst = std::max(worst, std::abs(rows[k][0] - lam(s[k].t)) / lmax);
    }
    INFO("largest error of the transmitted torque relative to its largest value: " << worst);
    CHECK(s.size() == 301);
  }
  // Refused by name: an unknown coupling at its name, the key on another output, and a solver
  // without couplings at the coupling (before the sensor could be evaluated).
  auto problem = [&](const std::string& sens, const std::vector<Override>& sets = {}) -> std::string {
    try {
      load_model_text(model("rxyz", sens), "gears.yaml", sets);
    } catch (const LoadError& e) {
      return e.what();
    }
    return "";
  };
  CHECK_THAT(problem("  - {name: m, coupling: mush, output: coupling_effort}\n"),
             Catch::Contains("gears.yaml:13:25: sensors[0].coupling: unknown coupling 'mush'"));
  CHECK_THAT(problem("  - {name: m, output: coupling_effort}\n"),
             Catch::Contains("sensors[0]: missing required key 'coupling'"));
  CHECK_THAT(problem("  - {name: m, joint: ja, coupling: mesh, output: joint_angle}\n"),
             Catch::Contains("sensors[0].coupling: key 'coupling' does not apply to output joint_angle"));
  CHECK_THAT(problem(sensor, {{"solver.type", "rk4"}}), Catch::Contains("gears.yaml:9:5: couplings[0]"));
}
