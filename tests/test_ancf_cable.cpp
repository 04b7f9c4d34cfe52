// The planar ANCF cable (formulations/AncfCable2D.h) against closed forms and independent
// computations:
// (1) cantilever, small tip load: tip deflection P L³/(3 EI) (Euler–Bernoulli);
// (2) cantilever, large tip load: tip position against the inextensible elastica, integrated
//     here independently (shooting on θ'' = −(P/EI) cos θ with a classical RK4);
// (3) cantilever eigenfrequencies (first five) and free-free ones (first three) against the
//     Euler–Bernoulli closed form ω = (βL)² √(EI/(ρA L⁴)), through the modes analysis;
// (4) zero strain energy and forces under rigid motion, and energy invariance of a bent element;
// (5) a cable with a rigid tip mass pinned to it: tip deflection m g L³/(3 EI);
// (6) energy conservation of the undamped swinging cable pendulum (IDA and generalized-α, ρ∞ = 1);
// (7) the examples run; the explicit and impulse solvers refuse a cable by name.
// Convergence orders are measured between meshes and printed.

#include <cmath>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <mbdae/formulations/AncfCable2D.h>
#include <mbdae/formulations/Multibody.h>
#include <mbdae/formulations/NewtonEuler.h>
#include <mbdae/io/Analyses.h>
#include <mbdae/io/ModelLoader.h>
#include <mbdae/io/Run.h>
#include <mbdae/solvers/SolverRegistry.h>

using namespace mbdae;
using namespace mbdae::io;

namespace {

// A steel strip 10 mm × 10 mm, 1 m long (EI = 166.67 N m², ρA = 0.78 kg/m).
constexpr double kE = 2.0e11, kRho = 7800, kL = 1.0, kB = 0.01;
constexpr double kA = kB * kB, kI = kB * kB * kB * kB / 12, kEI = kE * kI;

std::string num(double x) {
  char b[40];
  std::snprintf(b, sizeof b, "%.17g", x);
  return b;
}

/// A cable along x from the origin, with `supports` and `extra` keys, no bodies unless given.
std::string cable_model(int segments, const std::string& supports, const std::string& extra,
                        const std::string& gravity = "[0, 0, 0]", double A = kA, const std::string& bodies = "[]") {
  return "gravity: " + gravity + "\nbodies: " + bodies +
         "\ncables:\n"
         "  - name: strip\n"
         "    type: ancf_cable_2d\n"
         "    start: [0, 0, 0]\n"
         "    end: [" + num(kL) + ", 0, 0]\n"
         "    segments: " + std::to_string(segments) + "\n" +
         "    E: " + num(kE) + "\n    A: " + num(A) + "\n    I: " + num(kI) + "\n    rho: " + num(kRho) + "\n" +
         "    supports: " + supports + "\n" + extra + "solver: {type: generalized_alpha, end_time: 0.1, step: 1.0e-3}\n";
}

/// Index of the coordinate labelled `label`.
int coordinate(const MultibodySystem& mb, const std::string& label) {
  for (int i = 0; i < mb.num_coordinates(); ++i)
    if (mb.coordinate_label(i) == label) return i;
  FAIL("no coordinate " << label);
  return -1;
}

/// The tip (x, y) of the cantilever under a tip force [0, −P] at static equilibrium.
std::pair<double, double> cantilever_tip(int segments, double P, int load_steps) {
  const std::string end = std::to_string(segments);
  const LoadedModel m = load_model_text(
      cable_model(segments, "[{node: start, type: clamped}]",
                  "    node_forces: [{node: end, force: [0, " + num(-P) + ", 0]}]\n"),
      "cantilever.yaml");
  ModelAnalysis a(m);
  StaticsSettings s;
  s.load_steps = load_steps;
  const StaticsReport st = solve_statics(a, s);
  INFO(st.message);
  REQUIRE(st.converged);
  return {st.q[coordinate(a.system(), "cable 'strip' node " + end + " x")],
          st.q[coordinate(a.system(), "cable 'strip' node " + end + " y")]};
}

/// The elastica of a cantilever (Reissner's extensible elastica: bending by the moment, M = EI θ'
/// per unit reference length, and an axial strain ε = N/EA) under a tip load P normal to its
/// clamped direction: EI θ' = P (x_tip − x), so θ'' = −(P/EI) (1 + ε) cos θ with N = P sin θ,
/// θ(0) = 0, θ'(L) = 0 (θ the angle of the tangent below the x axis); x' = (1 + ε) cos θ,
/// y' = −(1 + ε) sin θ. Shooting on θ'(0) by bisection, each shot a classical RK4 of n steps.
/// `P_over_EA` = 0: the inextensible elastica. Returns the tip (x, y).
std::pair<double, double> elastica_tip(double P_over_EI, double P_over_EA) {
  const int n = 4000;
  const double h = kL / n;
  struct S {
    double th, om, x, y;
  };
  auto rhs = [&](const S& s) {
    const double stretch = 1 + P_over_EA * std::sin(s.th);
    return S{s.om, -P_over_EI * stretch * std::cos(s.th), stretch * std::cos(s.th), -stretch * std::sin(s.th)};
  };
  auto add = [](const S& a, const S& b, double c) { return S{a.th + c * b.th, a.om + c * b.om, a.x + c * b.x, a.y + c * b.y}; };
  auto shoot = [&](double om0) {
    S s{0, om0, 0, 0};
    for (int k = 0; k < n; ++k) {
      const S k1 = rhs(s), k2 = rhs(add(s, k1, h / 2)), k3 = rhs(add(s, k2, h / 2)), k4 = rhs(add(s, k3, h));
      s = add(add(add(add(s, k1, h / 6), k2, h / 3), k3, h / 3), k4, h / 6);
    }
    return s;
  };
  // θ'(0) = M(0)/EI = P x_tip / EI lies in [0, P L (1 + P/EA)/EI]; θ'(L) grows with θ'(0).
  double lo = 0, hi = P_over_EI * kL * (1 + P_over_EA);
  for (int it = 0; it < 200; ++it) {
    const double mid = 0.5 * (lo + hi);
    if (shoot(mid).om > 0) hi = mid;
    else lo = mid;
  }
  const S s = shoot(0.5 * (lo + hi));
  return {s.x, s.y};
}

/// The sensor values of a static state, by column name (the model's sensors section).
std::vector<std::pair<std::string, double>> sensors_at(ModelAnalysis& a, const VecX& q, const VecX& lambda) {
  auto set = a.make_sensors({true, true});
  std::vector<double> values(static_cast<size_t>(set->size()));
  const VecX zero = VecX::Zero(q.size());
  set->evaluate(StateView{0.0, q, zero, zero, lambda}, values);
  std::vector<std::pair<std::string, double>> out;
  for (size_t i = 0; i < values.size(); ++i) out.emplace_back(set->columns()[i], values[i]);
  return out;
}
double column(const std::vector<std::pair<std::string, double>>& row, const std::string& name) {
  for (const auto& [c, v] : row)
    if (c == name) return v;
  FAIL("no column " << name);
  return 0;
}

/// log2 of the ratio of successive errors.
double order(double coarse, double fine) { return std::log2(coarse / fine); }

}  // namespace

TEST_CASE("ANCF cable: cantilever tip deflection against P L^3/(3 EI) in the small-deflection limit",
          "[flexible][ancf]") {
  const double w = 1e-4 * kL;  // tip deflection of the linear theory
  const double P = 3 * kEI * w / (kL * kL * kL);
  std::printf("\ncantilever, small tip load (w/L = 1e-4): relative error of the tip deflection\n");
  for (const int N : {1, 2, 4, 8, 16}) {
    const auto [x, y] = cantilever_tip(N, P, 1);
    const double err = std::abs(-y / w - 1);
    std::printf("  segments %3d: %.3e\n", N, err);
    // Cubic Hermite elements hold the linear solution (a cubic) exactly at any mesh; what is left
    // is the geometric nonlinearity, −0.11 (P L²/EI)² ≈ −1e-8 here (the elastica's series), the
    // solver's tolerance and, on one element, membrane locking: the axial strain w'²/2 that the
    // bending brings cannot relax in a cubic (Gerstmayr & Irschik 2008), 1.5e-6 here.
    CHECK(err < (N == 1 ? 1e-5 : 1e-6));
    CHECK(std::abs(x - kL) < 1e-7);  // the shortening, ≈ 0.6 w²/L
  }
}

TEST_CASE("ANCF cable: sensors of curvature, axial force, position and slope against the beam's closed forms",
          "[flexible][ancf]") {
  // A tip force on a cantilever, two load cases (their coupling, tension stiffening, is not part
  // of the linear closed forms):
  // transverse −P, small deflection: the bending moment is linear in x, M(x) = −P (L − x)
  //   (κ = M/EI, negative: bent clockwise), deflection w(x) = P x² (3L − x)/(6 EI) and slope
  //   w'(x) = P x (2L − x)/(2 EI); the cubic elements hold them exactly at the nodes and κ
  //   everywhere (linear in each element);
  // axial H: the axial force N = H everywhere, the stretch H/EA.
  // The sensors sit between nodes (3 segments, x = 0.45).
  const double w = 1e-4 * kL, P = 3 * kEI * w / (kL * kL * kL), H = 5.0e3, x = 0.45, EA = kE * kA;
  auto solve = [&](double fx, double fy) {
    const LoadedModel m = load_model_text(
        cable_model(3, "[{node: start, type: clamped}]",
                    "    node_forces: [{node: end, force: [" + num(fx) + ", " + num(fy) + ", 0]}]\n"
                    "sensors:\n"
                    "  - {name: k0, cable: strip, at: 0.0, output: cable_curvature}\n"
                    "  - {name: k1, cable: strip, at: 0.45, output: cable_curvature}\n"
                    "  - {name: n1, cable: strip, at: 0.45, output: cable_axial_force}\n"
                    "  - {name: p1, cable: strip, at: 0.45, output: cable_position}\n"
                    "  - {name: s1, cable: strip, at: 0.45, output: cable_slope}\n"),
        "sensors.yaml");
    ModelAnalysis a(m);
    const StaticsReport st = solve_statics(a);
    INFO(st.message);
    REQUIRE(st.converged);
    return sensors_at(a, st.q, st.lambda);
  };
  const auto bent = solve(0.0, -P);
  CHECK(std::abs(column(bent, "k0") / (-P * kL / kEI) - 1) < 1e-6);
  CHECK(std::abs(column(bent, "k1") / (-P * (kL - x) / kEI) - 1) < 1e-6);
  CHECK(std::abs(-column(bent, "s1.y") / (P * x * (2 * kL - x) / (2 * kEI)) - 1) < 1e-6);
  // Between nodes the cubic interpolates the quartic-free cubic w(x) exactly as well.
  CHECK(std::abs(-column(bent, "p1.y") / (P * x * x * (3 * kL - x) / (6 * kEI)) - 1) < 1e-6);
  const auto pulled = solve(H, 0.0);
  CHECK(std::abs(column(pulled, "n1") / H - 1) < 1e-9);
  CHECK(std::abs(column(pulled, "p1.x") - x * (1 + H / EA)) < 1e-12);
  CHECK(std::abs(column(pulled, "s1.x") - (1 + H / EA)) < 1e-12);
  CHECK(std::abs(column(pulled, "k1")) < 1e-9);
}

TEST_CASE("ANCF cable: large-deflection cantilever against the elastica", "[flexible][ancf]") {
  // P L²/EI = 2. The inextensible elastica's tip deflection δ/L = 0.4935 (Bisshopp & Drucker,
  // Q. Appl. Math. 3 (1945) 272, table) checks the shooting; the cable is compared with the
  // extensible elastica of its own EA (ε ≈ P/EA ≈ 2e-5).
  const double alpha = 2.0, P = alpha * kEI / (kL * kL);
  const auto [xi, yi] = elastica_tip(alpha / (kL * kL), 0.0);
  std::printf("\nelastica P L^2/EI = %.1f: inextensible tip x/L = %.8f, y/L = %.8f\n", alpha, xi / kL, yi / kL);
  CHECK(std::abs(-yi / kL - 0.4935) < 1e-4);
  const auto [xe, ye] = elastica_tip(alpha / (kL * kL), P / (kE * kA));
  std::printf("  extensible (EA = %.3g N): tip x/L = %.8f, y/L = %.8f\n", kE * kA, xe / kL, ye / kL);
  std::vector<double> err;
  for (const int N : {2, 4, 8, 16, 32}) {
    const auto [x, y] = cantilever_tip(N, P, 40);
    const double e = std::hypot(x - xe, y - ye) / kL;
    err.push_back(e);
    if (err.size() > 1) std::printf("  segments %3d: |tip - elastica|/L = %.3e, order %.2f\n", N, e, order(err[err.size() - 2], e));
    else std::printf("  segments %3d: |tip - elastica|/L = %.3e\n", N, e);
  }
  CHECK(err.back() < 1e-6);
  CHECK(order(err[err.size() - 2], err.back()) > 3.5);
}

TEST_CASE("ANCF cable: cantilever and free-free eigenfrequencies against Euler-Bernoulli", "[flexible][ancf]") {
  const double base = std::sqrt(kEI / (kRho * kA * std::pow(kL, 4))) / (2 * M_PI);  // Hz per (βL)²
  const double clamped[5] = {1.87510407, 4.69409113, 7.85475744, 10.99554073, 14.13716839};
  const double free[3] = {4.73004074, 7.85320462, 10.99560784};
  for (const bool cantilever : {true, false}) {
    std::printf("\n%s beam: relative error of the eigenfrequencies\n", cantilever ? "cantilever" : "free-free");
    std::vector<std::vector<double>> errs;
    for (const int N : {4, 8, 16, 32}) {
      const LoadedModel m = load_model_text(cable_model(N, cantilever ? "[{node: start, type: clamped}]" : "[]", ""),
                                            "modes.yaml");
      ModelAnalysis a(m);
      // A slender steel strip's stiffness spans 1e9 (axial against bending, in these coordinates):
      // the default rigid-body threshold, 1e-8 of the largest singular value of K, would count
      // its first bending mode at 32 segments as rigid.
      ModesSettings ms;
      ms.rigid_tolerance = 1e-13;
      const ModesReport md = solve_modes(a, ms);
      REQUIRE(md.ok);
      CHECK(md.rigid_body_modes == (cantilever ? 0 : 3));
      // Rigid-body modes are s = 0 (listed twice each, the two roots of the first-order form).
      int first = 0;
      while (first < static_cast<int>(md.modes.size()) && md.modes[static_cast<size_t>(first)].frequency_hz < 1e-3) ++first;
      CHECK(first == (cantilever ? 0 : 6));
      const int count = cantilever ? 5 : 3;
      REQUIRE(static_cast<int>(md.modes.size()) >= first + count);
      std::vector<double> e;
      std::printf("  segments %3d:", N);
      for (int k = 0; k < count; ++k) {
        const double bl = cantilever ? clamped[k] : free[k];
        const double f = md.modes[static_cast<size_t>(first + k)].frequency_hz;
        e.push_back(std::abs(f / (bl * bl * base) - 1));
        std::printf(" %.2e", e.back());
      }
      std::printf("\n");
      errs.push_back(e);
    }
    // At 32 segments every frequency within 1e-6 (the first) to 1e-4 (the fifth); the error falls
    // as h^4 (cubic Hermite, consistent mass).
    const std::vector<double>& fine = errs.back();
    const std::vector<double>& coarse = errs[errs.size() - 2];
    for (size_t k = 0; k < fine.size(); ++k) {
      INFO("mode " << k + 1 << ": " << fine[k] << " (16 segments: " << coarse[k] << ")");
      CHECK(fine[k] < 1e-4);
      CHECK(order(coarse[k], fine[k]) > 3.5);
    }
    CHECK(fine[0] < 1e-6);
  }
}

TEST_CASE("ANCF cable: zero strain energy and forces under rigid motion", "[flexible][ancf]") {
  const ancf::Section s{kE * kA, kEI, kRho * kA, 0.0};
  const double L = 0.25;
  ancf::Vec8 e0;
  e0 << 0, 0, 1, 0, L, 0, 1, 0;
  for (const double phi : {0.3, 1.7, -2.9}) {
    const Eigen::Rotation2Dd R(phi);
    const Eigen::Vector2d c(0.7, -1.3);
    ancf::Vec8 e;
    for (int i = 0; i < 2; ++i) {
      e.segment<2>(4 * i) = R * e0.segment<2>(4 * i) + c;
      e.segment<2>(4 * i + 2) = R * e0.segment<2>(4 * i + 2);
    }
    const ancf::Vec8 ed = ancf::Vec8::Constant(0.0);
    // A scale of the terms: EA times a strain of 1 over the element.
    CHECK(std::abs(ancf::strain_energy(e, L, s)) < 1e-20 * s.EA * L);
    CHECK(ancf::internal_forces(e, &ed, L, s).cwiseAbs().maxCoeff() < 1e-6);
    // A bent and stretched element keeps its energy under a rigid motion.
    ancf::Vec8 b;
    b << 0, 0, 1.01, 0.2, L, 0.01, 0.98, -0.3;
    ancf::Vec8 bm;
    for (int i = 0; i < 2; ++i) {
      bm.segment<2>(4 * i) = R * b.segment<2>(4 * i) + c;
      bm.segment<2>(4 * i + 2) = R * b.segment<2>(4 * i + 2);
    }
    const double U = ancf::strain_energy(b, L, s);
    CHECK(U > 0);
    CHECK(std::abs(ancf::strain_energy(bm, L, s) / U - 1) < 1e-12);
    CHECK(std::abs(ancf::curvature(bm, 0.3, L) - ancf::curvature(b, 0.3, L)) < 1e-12);
  }
  // A circular arc of radius ρ0 through the nodes with slopes along the circle: κ ≈ 1/ρ0.
  const double r0 = 2.0, dphi = L / r0;
  ancf::Vec8 arc;
  arc << 0, 0, 1, 0, r0 * std::sin(dphi), r0 * (1 - std::cos(dphi)), std::cos(dphi), std::sin(dphi);
  CHECK(std::abs(ancf::curvature(arc, 0.5, L) * r0 - 1) < 1e-3);
}

TEST_CASE("ANCF cable: a rigid tip mass pinned to the cable end deflects it by m g L^3/(3 EI)",
          "[flexible][ancf]") {
  // The ball's centre is the cable's end; a planar joint keeps it in the x-y plane; it may turn
  // about z (the pin), its weight m g acts at the pin.
  const double mass = 1e-3, g = 9.81;
  const int N = 4;
  const std::string bodies =
      "\n  - {name: ball, mass: " + num(mass) + ", inertia: [1.0e-6, 1.0e-6, 1.0e-6, 0, 0, 0], position: [" + num(kL) +
      ", 0, 0]}\njoints:\n  - {name: plane, type: planar, bodies: [ground, ball], point: [" + num(kL) +
      ", 0, 0], axis: [0, 0, 1]}";
  const LoadedModel m = load_model_text(
      cable_model(N, "[{node: start, type: clamped}, {node: end, type: pinned, body: ball}]", "",
                  "[0, " + num(-g) + ", 0]", kA, bodies),
      "tip_mass.yaml");
  ModelAnalysis a(m);
  const StaticsReport st = solve_statics(a);
  INFO(st.message);
  REQUIRE(st.converged);
  // The cable's own weight adds q L⁴/(8 EI) (q = ρ A g per length).
  const double w = mass * g * std::pow(kL, 3) / (3 * kEI) + kRho * kA * g * std::pow(kL, 4) / (8 * kEI);
  const double y = st.q[coordinate(a.system(), "cable 'strip' node " + std::to_string(N) + " y")];
  std::printf("\ntip mass on the cable: tip y = %.10e, closed form %.10e, relative error %.2e\n", y, -w,
              std::abs(-y / w - 1));
  CHECK(std::abs(-y / w - 1) < 1e-4);  // the geometric nonlinearity, of order (w/L)² ≈ 4e-5
}

namespace {
std::string example(const char* name) { return std::string(MBDAE_TEST_SOURCE_DIR) + "/examples/models/" + name; }

/// The largest |E(t) − E(0)| of the run's column E, and the number of rows.
std::pair<double, size_t> energy_drift(const LoadedModel& lm) {
  ModelRun r(lm);
  const std::vector<std::string> cols = r.sensors().columns();
  size_t ke = 0;
  while (ke < cols.size() && cols[ke] != "E") ++ke;
  REQUIRE(ke < cols.size());
  double e0 = 0, drift = 0;
  size_t rows = 0;
  const SolveResult res = r.run([&](const StateView&, std::span<const double> row) {
    if (rows++ == 0) e0 = row[ke];
    drift = std::max(drift, std::abs(row[ke] - e0));
    return true;
  });
  INFO(res.message);
  REQUIRE(res.ok());
  return {drift, rows};
}
}  // namespace

TEST_CASE("ANCF cable: the undamped cable pendulum keeps its energy", "[flexible][ancf]") {
  // Scale: the weight of cable and ball times the length, (ρ A L + m) g L.
  const double scale = (1200 * 1e-4 * 1.0 + 0.05) * 9.81 * 1.0;
  std::printf("\ncable pendulum, 0.5 s: largest |E(t) - E(0)| / ((rho A L + m) g L)\n");
  if (find_solver("ida")) {
    const LoadedModel lm = load_model_file(
        example("cable_pendulum.yaml"),
        {{"solver.type", "ida"}, {"solver.end_time", "0.5"}, {"solver.tolerance", "{relative: 1.0e-9, absolute: 1.0e-11}"}});
    const auto [drift, rows] = energy_drift(lm);
    std::printf("  ida (rtol 1e-9):                 %.2e (%zu rows)\n", drift / scale, rows);
    CHECK(rows == 51);
    CHECK(drift / scale < 1e-6);
  }
  for (const char* step : {"1.0e-3", "5.0e-4"}) {
    const LoadedModel lm = load_model_file(example("cable_pendulum.yaml"),
                                           {{"solver.end_time", "0.5"}, {"solver.step", step}});
    REQUIRE(lm.settings.rho_inf == 1.0);
    const auto [drift, rows] = energy_drift(lm);
    std::printf("  generalized_alpha rho_inf 1, h %s: %.2e\n", step, drift / scale);
    CHECK(drift / scale < 1e-3);
  }
}

TEST_CASE("ANCF cable: the examples run, and statics of the cantilever example", "[flexible][ancf]") {
  for (const char* name : {"cantilever_cable.yaml", "cable_pendulum.yaml"}) {
    INFO(name);
    const LoadedModel lm = load_model_file(example(name), {{"solver.end_time", "0.05"}});
    ModelRun r(lm);
    const SolveResult res = r.run([](const StateView&, std::span<const double>) { return true; });
    INFO(res.message);
    CHECK(res.ok());
  }
  const LoadedModel lm = load_model_file(example("cantilever_cable.yaml"));
  ModelAnalysis a(lm);
  StaticsSettings s;
  s.load_steps = 2;
  const StaticsReport st = solve_statics(a, s);
  INFO(st.message);
  REQUIRE(st.converged);
  const Cable& c = lm.system.cables()[0];
  const double EI = c.E * c.I, L = 1.0;
  const double w = 20 * L * L * L / (3 * EI) + c.rho * c.A * 9.81 * std::pow(L, 4) / (8 * EI);
  const double y = st.q[coordinate(a.system(), "cable 'strip' node 8 y")];
  // w/L ≈ 0.046: the linear closed form holds to the geometric nonlinearity, (w/L)² ≈ 2e-3.
  CHECK(std::abs(-y / w - 1) < 1e-2);
}

TEST_CASE("ANCF cable: refusals by name", "[flexible][ancf]") {
  const std::string ok = cable_model(2, "[{node: start, type: clamped}]", "");
  auto message = [](const std::string& text, const std::vector<Override>& sets = {}) -> std::string {
    try {
      load_model_text(text, "bad.yaml", sets);
    } catch (const LoadError& e) {
      return e.what();
    }
    return "";
  };
  for (const char* solver : {"rk4", "dopri5", "lie_rk4", "impulse"}) {
    if (!find_solver(solver)) continue;
    const std::string m = message(ok, {{"solver.type", solver}});
    INFO(solver << ": " << m);
    CHECK(m.find("cables[0]") != std::string::npos);
    CHECK(m.find("flexible cables are handled by the implicit solvers") != std::string::npos);
  }
  // A sliding support, a support between nodes, the spatial cable: refused at their keys.
  const std::string sliding = message(cable_model(2, "[{node: start, type: sliding}]", ""));
  CHECK(sliding.find("cables[0].supports[0].type") != std::string::npos);
  const std::string between = message(cable_model(2, "[{position: 0.3, type: pinned}]", ""));
  CHECK(between.find("cables[0].supports[0].position") != std::string::npos);
  CHECK(between.find("between nodes is not supported") != std::string::npos);
  std::string spatial = ok;
  spatial.replace(spatial.find("ancf_cable_2d"), 13, "ancf_cable_3d");
  CHECK(message(spatial).find("cables[0].type") != std::string::npos);
  // Gravity out of the cable's plane.
  const std::string g = message(cable_model(2, "[{node: start, type: clamped}]", "", "[0, 0, -9.81]"));
  CHECK(g.find("gravity has a z component") != std::string::npos);
  CHECK(message(cable_model(2, "[{node: 3, type: clamped}]", "")).find("cables[0].supports[0].node") != std::string::npos);
  CHECK(message(cable_model(2, "[{node: end, type: pinned, body: nothing}]", "")).find("unknown body 'nothing'") !=
        std::string::npos);
  // The C++ path: the Newton-Euler bodies refuse a model with a cable.
  const LoadedModel lm = load_model_text(ok, "ok.yaml");
  CHECK_THROWS_WITH(NewtonEulerSystem(lm.system), Catch::Contains("cable 'strip'"));
}

TEST_CASE("ANCF cable: the element's analytic tangent against central differences of its forces",
          "[flexible][ancf]") {
  // Stiffnesses of one order (EA = 3, EI = 2) so that the bending terms are not hidden under the
  // axial ones; a bent, stretched state with velocities; damping on.
  const ancf::Section s{3.0, 2.0, 1.0, 0.05};
  const double L = 0.7;
  ancf::Vec8 e, ed;
  e << 0.1, -0.2, 0.9, 0.5, 0.75, 0.1, 1.1, -0.4;
  ed << 0.3, -0.1, 0.2, 0.7, -0.5, 0.4, -0.3, 0.2;
  ancf::Mat8 K, D;
  ancf::tangent(e, &ed, L, s, K, D);
  ancf::Mat8 Kd, Dd;
  const double h = 1e-6;
  for (int j = 0; j < 8; ++j) {
    ancf::Vec8 ep = e, em = e, vp = ed, vm = ed;
    ep[j] += h;
    em[j] -= h;
    vp[j] += h;
    vm[j] -= h;
    Kd.col(j) = (ancf::internal_forces(ep, &ed, L, s) - ancf::internal_forces(em, &ed, L, s)) / (2 * h);
    Dd.col(j) = (ancf::internal_forces(e, &vp, L, s) - ancf::internal_forces(e, &vm, L, s)) / (2 * h);
  }
  INFO("K:\n" << K << "\ndifferences:\n" << Kd);
  CHECK((K - Kd).cwiseAbs().maxCoeff() < 1e-7 * Kd.cwiseAbs().maxCoeff());
  INFO("D:\n" << D << "\ndifferences:\n" << Dd);
  CHECK((D - Dd).cwiseAbs().maxCoeff() < 1e-7 * Dd.cwiseAbs().maxCoeff());
  // The forces are the gradient of the strain energy (no damping).
  const ancf::Section el{3.0, 2.0, 1.0, 0.0};
  ancf::Vec8 g;
  for (int j = 0; j < 8; ++j) {
    ancf::Vec8 ep = e, em = e;
    ep[j] += h;
    em[j] -= h;
    g[j] = (ancf::strain_energy(ep, L, el) - ancf::strain_energy(em, L, el)) / (2 * h);
  }
  const ancf::Vec8 Q = ancf::internal_forces(e, nullptr, L, el);
  CHECK((Q - g).cwiseAbs().maxCoeff() < 1e-7 * Q.cwiseAbs().maxCoeff());
}
