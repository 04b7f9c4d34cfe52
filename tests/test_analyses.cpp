// The analyses of a model file (io/Analyses.h: what `mbdae statics`, `modes`, `kinematics` and
// `inverse` run) against closed forms, on the models of tests/analysis_models/ and
// examples/models/driven_crank.yaml. Each reference is computed here from the model's data
// (scalar equations solved by Newton's method or bisection, quadratic formulas), never taken from
// the program's output.

#include <cmath>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <mbdae/io/Analyses.h>
#include <mbdae/validation/Analytic.h>

using namespace mbdae;
using namespace mbdae::io;

namespace {

std::string model_path(const std::string& name) {
  return std::string(MBDAE_TEST_SOURCE_DIR) + "/tests/analysis_models/" + name;
}

/// Root of f on [lo, hi] (f(lo), f(hi) of opposite signs) by bisection to round-off.
template <class F>
double bisect(F f, double lo, double hi) {
  double flo = f(lo);
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi), fm = f(mid);
    if ((fm < 0) == (flo < 0)) {
      lo = mid;
      flo = fm;
    } else {
      hi = mid;
    }
  }
  return 0.5 * (lo + hi);
}

/// The sensor values of a state, by column name.
struct Row {
  std::vector<std::string> columns;
  std::vector<double> values;
  double operator[](const std::string& name) const {
    for (size_t i = 0; i < columns.size(); ++i)
      if (columns[i] == name) return values[i];
    FAIL("no column " << name);
    return 0;
  }
};

Row sensors_at(ModelAnalysis& a, const VecX& q, const VecX& lambda) {
  auto set = a.make_sensors({true, true});
  Row r{set->columns(), std::vector<double>(static_cast<size_t>(set->size()))};
  const VecX zero = VecX::Zero(q.size());
  set->evaluate(StateView{0.0, q, zero, zero, lambda}, r.values);
  return r;
}

double angle_z(const Mat3& R) { return std::atan2(R(1, 0), R(0, 0)); }

}  // namespace

TEST_CASE("statics: pendulum with a torsional spring against k θ = −m g d cos θ", "[analyses][statics]") {
  const LoadedModel m = load_model_file(model_path("torsion_pendulum.yaml"));
  ModelAnalysis a(m);
  const StaticsReport st = solve_statics(a);
  INFO(st.message);
  REQUIRE(st.converged);
  const double k = 20.0, mass = 2.0, d = 0.3, g = 9.81, J = 0.24, c = 0.5;
  const double th = bisect([&](double x) { return k * x + mass * g * d * std::cos(x); }, -M_PI / 2, 0.0);
  a.kinematics().update(StateView{0.0, st.q, VecX::Zero(st.q.size()), VecX::Zero(st.q.size()), st.lambda});
  CHECK(std::abs(angle_z(a.kinematics().rotation(0)) - th) < 1e-9);
  CHECK(a.kinematics().position(0).norm() < 1e-9);
  const Row s = sensors_at(a, st.q, st.lambda);
  CHECK(std::abs(s["angle"] - th) < 1e-9);
  CHECK(std::abs(s["angle.rate"]) < 1e-12);
  // The pivot carries the weight: m g upwards on the rod (joint axes are world axes here).
  CHECK(std::abs(s["pivot.x"]) < 1e-9);
  CHECK(std::abs(s["pivot.y"] - mass * g) < 1e-9);
  CHECK(std::abs(s["pivot.z"]) < 1e-9);
  CHECK(st.steps.back().unstable_directions == 0);

  // Modes about it: I θ'' + c θ' + (k − m g d sin θ*) θ = 0 (I about the pivot).
  ModesSettings ms;
  ms.at_equilibrium = true;
  const ModesReport md = solve_modes(a, ms);
  REQUIRE(md.ok);
  REQUIRE(md.modes.size() == 1);
  CHECK(md.rigid_body_modes == 0);
  const double kt = k - mass * g * d * std::sin(th);
  const double f = std::sqrt(kt / J) / (2 * M_PI), zeta = c / (2 * std::sqrt(kt * J));
  CHECK(std::abs(md.modes[0].frequency_hz / f - 1) < 1e-8);
  CHECK(std::abs(md.modes[0].damping_ratio - zeta) < 1e-8);
}

TEST_CASE("statics: spring-loaded slider-crank against the virtual work M = k (L − L0) dL/dθ", "[analyses][statics]") {
  const LoadedModel m = load_model_file(model_path("spring_crank.yaml"));
  ModelAnalysis a(m);
  const StaticsReport st = solve_statics(a);
  INFO(st.message);
  REQUIRE(st.converged);
  const double r = 0.2, l = 0.6, k = 100.0, L0 = 0.2, M = 2.0, xg = 1.2;
  auto x_of = [&](double t) { return r * std::cos(t) + std::sqrt(l * l - r * r * std::sin(t) * std::sin(t)); };
  auto dx_of = [&](double t) {
    return -r * std::sin(t) - r * r * std::sin(t) * std::cos(t) / std::sqrt(l * l - r * r * std::sin(t) * std::sin(t));
  };
  // V(θ) = ½ k (L − L0)² − M θ with L = xg − x(θ): V' = −k (L − L0) x' − M = 0.
  const double th = bisect([&](double t) { return -k * (xg - x_of(t) - L0) * dx_of(t) - M; }, 1e-3, M_PI / 2);
  const double x = x_of(th), L = xg - x, T = k * (L - L0);
  const VecX zero = VecX::Zero(st.q.size());
  a.kinematics().update(StateView{0.0, st.q, zero, zero, st.lambda});
  CHECK(std::abs(angle_z(a.kinematics().rotation(0)) - th) < 1e-9);
  CHECK(std::abs(a.kinematics().position(2).x() - x) < 1e-9);
  const Row s = sensors_at(a, st.q, st.lambda);
  CHECK(std::abs(s["spring.force"] - T) < 1e-9);
  CHECK(std::abs(s["spring.length"] - L) < 1e-9);
  CHECK(std::abs(s["spring.speed"]) < 1e-12);
  // The rod carries no load of its own: a two-force member along B→C. The slider's balance along
  // x gives its force, the guide takes the rest: R_y = −f e_y with f e_x = −T.
  const double s_phi = -r * std::sin(th) / l, c_phi = std::sqrt(1 - s_phi * s_phi);
  const double f = -T / c_phi;
  const JointReaction guide = a.system().reaction(3, 0.0, st.q, st.lambda);
  CHECK(std::abs(guide.force_W.x()) < 1e-9);
  CHECK(std::abs(guide.force_W.y() - (-f * s_phi)) < 1e-9);
}

TEST_CASE("statics: load steps follow the stable branch where one step fails", "[analyses][statics]") {
  const LoadedModel m = load_model_file(model_path("lever_follower.yaml"));
  ModelAnalysis a(m);
  StaticsSettings one;
  const StaticsReport st1 = solve_statics(a, one);
  CHECK_FALSE(st1.converged);
  INFO(st1.message);
  CHECK(st1.load_fraction == 0.0);
  CHECK(st1.message.find("unstable directions") != std::string::npos);
  StaticsSettings steps;
  steps.load_steps = 20;
  const StaticsReport st = solve_statics(a, steps);
  INFO(st.message);
  REQUIRE(st.converged);
  CHECK(st.steps.size() == 20);
  // k θ = P L sin(α − θ), followed from θ = 0 at λ = 0 to λ = 1 (continuation by Newton steps in λ).
  const double k = 10, PL = 50, alpha = 2.5;
  double th = 0;
  for (int i = 1; i <= 1000; ++i) {
    const double lam = i / 1000.0;
    for (int it = 0; it < 60; ++it)
      th -= (k * th - lam * PL * std::sin(alpha - th)) / (k + lam * PL * std::cos(alpha - th));
  }
  const VecX zero = VecX::Zero(st.q.size());
  a.kinematics().update(StateView{0.0, st.q, zero, zero, st.lambda});
  CHECK(std::abs(angle_z(a.kinematics().rotation(0)) - th) < 1e-9);
}

TEST_CASE("statics: a snap-through fails with the load fraction reached below the limit load", "[analyses][statics]") {
  const LoadedModel m = load_model_file(model_path("von_mises_truss.yaml"));
  ModelAnalysis a(m);
  StaticsSettings steps;
  steps.load_steps = 40;
  const StaticsReport st = solve_statics(a, steps);
  CHECK_FALSE(st.converged);
  INFO(st.message);
  // Upward spring force F(y) = 2 k (L0 − L) y / L, L = sqrt(1 + y²); its maximum P_lim where
  // F'(y) = 0, i.e. L³ = L0 (d/dy of 2k (L0/L − 1) y).
  const double k = 1000, L0 = std::sqrt(1.25), P = 51.5;
  auto F = [&](double y) { return 2 * k * (L0 - std::sqrt(1 + y * y)) * y / std::sqrt(1 + y * y); };
  const double y_lim = std::sqrt(std::pow(L0, 2.0 / 3.0) - 1), P_lim = F(y_lim);
  CHECK(st.load_fraction <= P_lim / P);
  CHECK(st.load_fraction > P_lim / P - 1.0 / 40);
  // The last equilibrium is on the near branch: F(y) = f P with y in (y_lim, h).
  const double y = bisect([&](double yy) { return F(yy) - st.load_fraction * P; }, y_lim, 0.5);
  const VecX zero = VecX::Zero(st.q.size());
  a.kinematics().update(StateView{0.0, st.q, zero, zero, st.lambda});
  CHECK(std::abs(a.kinematics().position(0).y() - y) < 1e-9);
}

TEST_CASE("modes: hanging double pendulum against det(K − ω² M) = 0", "[analyses][modes]") {
  const LoadedModel m = load_model_file(model_path("double_pendulum_hanging.yaml"));
  ModelAnalysis a(m);
  for (bool eq : {false, true}) {
    ModesSettings ms;
    ms.at_equilibrium = eq;
    const ModesReport md = solve_modes(a, ms);
    REQUIRE(md.ok);
    REQUIRE(md.modes.size() == 2);
    CHECK(md.dof == 2);
    CHECK(md.rigid_body_modes == 0);
    const double ml2 = 1.0, mgl = 9.81;
    const double M11 = 4.0 / 3 * ml2, M12 = 0.5 * ml2, M22 = ml2 / 3, K11 = 1.5 * mgl, K22 = 0.5 * mgl;
    const double A = M11 * M22 - M12 * M12, B = -(K11 * M22 + K22 * M11), C = K11 * K22;
    const double disc = std::sqrt(B * B - 4 * A * C);
    const double f1 = std::sqrt((-B - disc) / (2 * A)) / (2 * M_PI), f2 = std::sqrt((-B + disc) / (2 * A)) / (2 * M_PI);
    CHECK(std::abs(md.modes[0].frequency_hz / f1 - 1) < 1e-8);
    CHECK(std::abs(md.modes[1].frequency_hz / f2 - 1) < 1e-8);
    CHECK(std::abs(md.modes[0].damping_ratio) < 1e-12);
  }
}

TEST_CASE("modes: chain of masses and springs, fixed and free ends", "[analyses][modes]") {
  const LoadedModel m = load_model_file(model_path("mass_spring_chain.yaml"));
  const double w0 = std::sqrt(800.0 / 2.0);
  {
    ModelAnalysis a(m);
    const ModesReport md = solve_modes(a);
    REQUIRE(md.modes.size() == 3);
    CHECK(md.rigid_body_modes == 0);
    for (int j = 1; j <= 3; ++j) {
      const double f = 2 * w0 * std::sin(j * M_PI / 8) / (2 * M_PI);
      CHECK(std::abs(md.modes[static_cast<size_t>(j - 1)].frequency_hz / f - 1) < 1e-8);
    }
  }
  {
    // Free-free (the wall springs without stiffness): ω_j = 2 sqrt(k/m) sin(j π / (2n)),
    // j = 0 … n − 1; j = 0 is the rigid-body mode.
    const LoadedModel free = load_model_file(model_path("mass_spring_chain.yaml"),
                                             {{"forces[0].stiffness", "0"}, {"forces[3].stiffness", "0"}});
    ModelAnalysis a(free);
    const ModesReport md = solve_modes(a);
    CHECK(md.rigid_body_modes == 1);
    REQUIRE(md.rigid_body_coordinates.size() == 1);
    CHECK(md.rigid_body_coordinates[0].find(" x") != std::string::npos);
    std::vector<double> f;
    for (const Mode& mode : md.modes)
      if (mode.frequency_hz > 1e-6) f.push_back(mode.frequency_hz);
    REQUIRE(f.size() == 2);
    for (int j = 1; j <= 2; ++j)
      CHECK(std::abs(f[static_cast<size_t>(j - 1)] / (2 * w0 * std::sin(j * M_PI / 6) / (2 * M_PI)) - 1) < 1e-8);
  }
}

TEST_CASE("modes: damping ratio of a damped oscillator", "[analyses][modes]") {
  const LoadedModel m = load_model_file(model_path("damped_oscillator.yaml"));
  ModelAnalysis a(m);
  const ModesReport md = solve_modes(a);
  REQUIRE(md.modes.size() == 1);
  const double k = 1200, mass = 3, c = 18;
  const double zeta = c / (2 * std::sqrt(k * mass)), f = std::sqrt(k / mass) / (2 * M_PI);
  CHECK(std::abs(md.modes[0].damping_ratio - zeta) < 1e-8);
  CHECK(std::abs(md.modes[0].frequency_hz / f - 1) < 1e-8);
  CHECK(std::abs(md.modes[0].damped_frequency_hz / (f * std::sqrt(1 - zeta * zeta)) - 1) < 1e-8);
}

namespace {

// examples/models/driven_crank.yaml: crank r = 0.2 m driven at θ = 2π t, rod l = 0.6 m, slider on
// the x axis (offset 0); boxes of mass 0.5, 1 and 2 kg; gravity −9.81 y.
constexpr double kR = 0.2, kL = 0.6, kOmega = 2 * M_PI, kG = 9.81;
constexpr double kMc = 0.5, kMr = 1.0, kMs = 2.0;
const double kJr = kMr * (0.6 * 0.6 + 0.03 * 0.03) / 12;  // rod about its COM, z

LoadedModel driven_crank() {
  LoadedModel m = load_model_file(std::string(MBDAE_TEST_SOURCE_DIR) + "/examples/models/driven_crank.yaml");
  SensorSpec angle;
  angle.name = "theta";
  angle.output = SensorOutput::JointAngle;
  angle.joint = "drive";
  m.sensors.push_back(angle);
  SensorSpec disp;
  disp.name = "s";
  disp.output = SensorOutput::JointDisplacement;
  disp.joint = "guide";
  m.sensors.push_back(disp);
  return m;
}

}  // namespace

TEST_CASE("kinematics of the driven slider-crank against the closed form", "[analyses][kinematics]") {
  const LoadedModel m = driven_crank();
  ModelAnalysis a(m);
  auto sensors = a.make_sensors({true, false});
  std::vector<double> row(static_cast<size_t>(sensors->size()));
  auto col = [&](const std::string& n) {
    for (size_t i = 0; i < sensors->columns().size(); ++i)
      if (sensors->columns()[i] == n) return i;
    FAIL("no column " << n);
    return size_t{0};
  };
  const size_t c_theta = col("theta"), c_rate = col("theta.rate"), c_s = col("s"), c_sr = col("s.rate");
  double ex = 0, ev = 0, ea = 0, ew = 0, eal = 0, eth = 0, es = 0;
  int rows = 0;
  const SolveResult res = solve_model_kinematics(a, kinematics_options(m), [&](const StateView& s, const InverseDynamicsResult* r) {
    CHECK(r == nullptr);
    const double th = kOmega * s.t;
    const auto ref = validation::CalcSliderCrankKinematics(th, kOmega, 0.0, kR, kL, 0.0);
    sensors->evaluate(s, row);
    BodyKinematics& k = a.kinematics();
    k.update(s);
    ex = std::max(ex, std::abs(k.position(2).x() - ref.x));
    ev = std::max(ev, std::abs(k.velocity(2).x() - ref.x_dot));
    ea = std::max(ea, std::abs(k.acceleration(2).x() - ref.x_ddot));
    ew = std::max(ew, std::abs(k.angular_velocity(1).z() - ref.phi_dot));
    eal = std::max(eal, std::abs(k.angular_acceleration(1).z() - ref.phi_ddot));
    // The drive's angle counts turns (two by t = 2 s); the guide's displacement from x(0) = 0.8.
    eth = std::max({eth, std::abs(row[c_theta] - th), std::abs(row[c_rate] - kOmega)});
    es = std::max({es, std::abs(row[c_s] - (ref.x - 0.8)), std::abs(row[c_sr] - ref.x_dot)});
    ++rows;
    return true;
  });
  REQUIRE(res.ok());
  CHECK(rows == 201);
  INFO("x " << ex << " x' " << ev << " x'' " << ea << " phi' " << ew << " phi'' " << eal << " theta " << eth << " s " << es);
  CHECK(ex < 1e-9);
  CHECK(ev < 1e-9);
  CHECK(ea < 1e-8);
  CHECK(ew < 1e-9);
  CHECK(eal < 1e-8);
  CHECK(eth < 1e-9);
  CHECK(es < 1e-9);
}

TEST_CASE("inverse dynamics of the driven slider-crank: drive torque τ = dE/dt / ω in closed form", "[analyses][inverse]") {
  const LoadedModel m = driven_crank();
  ModelAnalysis a(m);
  double err = 0, tmax = 0, resid = 0;
  const SolveResult res = solve_model_inverse(a, kinematics_options(m), [&](const StateView& s, const InverseDynamicsResult* r) {
    REQUIRE(r);
    REQUIRE(r->drive_forces.size() == 1);
    // T = ½ m_c v_c² + ½ J_c ω² + ½ m_r v_r² + ½ J_r φ'² + ½ m_s x'², V = g (m_c + m_r) r sin θ / 2.
    // The crank's COM moves on a circle at constant speed (v·a = 0) and ω is constant, so
    // dT/dt = m_r v_r·a_r + J_r φ' φ'' + m_s x' x''; the rod's COM is the mean of B and C.
    const double th = kOmega * s.t, st = std::sin(th), ct = std::cos(th);
    const auto ref = validation::CalcSliderCrankKinematics(th, kOmega, 0.0, kR, kL, 0.0);
    const Vec3 vB(-kR * kOmega * st, kR * kOmega * ct, 0), aB(-kR * kOmega * kOmega * ct, -kR * kOmega * kOmega * st, 0);
    const Vec3 vC(ref.x_dot, 0, 0), aC(ref.x_ddot, 0, 0);
    const Vec3 vr = 0.5 * (vB + vC), ar = 0.5 * (aB + aC);
    const double dT = kMr * vr.dot(ar) + kJr * ref.phi_dot * ref.phi_ddot + kMs * ref.x_dot * ref.x_ddot;
    const double dV = kG * (kMc + kMr) * 0.5 * kR * kOmega * ct;
    const double tau = (dT + dV) / kOmega;
    err = std::max(err, std::abs(r->drive_forces[0] - tau));
    tmax = std::max(tmax, std::abs(tau));
    resid = std::max(resid, r->residual);
    return true;
  });
  REQUIRE(res.ok());
  INFO("max |tau| " << tmax << " N m, max error " << err << " N m, residual " << resid);
  CHECK(tmax > 1.0);
  CHECK(err < 1e-9 * tmax);
  CHECK(resid < 1e-9);
}

TEST_CASE("kinematics refuses a model with free degrees of freedom, naming them", "[analyses][kinematics]") {
  const LoadedModel m = load_model_file(std::string(MBDAE_TEST_SOURCE_DIR) + "/examples/models/double_pendulum.yaml");
  ModelAnalysis a(m);
  try {
    (void)solve_model_kinematics(a, kinematics_options(m), {});
    FAIL("kinematic analysis of a free double pendulum was accepted");
  } catch (const std::invalid_argument& e) {
    const std::string w = e.what();
    CHECK(w.find("2 degrees of freedom") != std::string::npos);
    CHECK(w.find("joint 'shoulder'") != std::string::npos);
    CHECK(w.find("joint 'elbow'") != std::string::npos);
  }
}

// ------------------------------------------------------------------------------------ sensors

#include <mbdae/io/Run.h>

namespace {

/// Every output row of a run, with its time first.
struct Series {
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;
  size_t col(const std::string& n) const {
    for (size_t i = 0; i < columns.size(); ++i)
      if (columns[i] == n) return i + 1;
    FAIL("no column " << n);
    return 0;
  }
};

Series run_text(const std::string& text, const std::vector<Override>& sets = {}) {
  const LoadedModel m = load_model_text(text, "sensors.yaml", sets);
  ModelRun run(m);
  Series s;
  s.columns = run.sensors().columns();
  const SolveResult r = run.run([&](const StateView& st, std::span<const double> row) {
    std::vector<double> x{st.t};
    x.insert(x.end(), row.begin(), row.end());
    s.rows.push_back(x);
    return true;
  });
  INFO(r.message);
  REQUIRE(r.ok());
  return s;
}

}  // namespace

TEST_CASE("sensors: spring_damper force, length and speed against the mass's own motion", "[analyses][sensors]") {
  // The damped oscillator released with a speed: the spring runs from the origin to the mass's
  // reference point along x, so its length is the mass's x and its speed the mass's velocity.
  std::string text = R"(bodies:
  - {name: mass, mass: 3.0, inertia: [0.01, 0.01, 0.01, 0, 0, 0], position: [0.5, 0, 0], velocity: [1.5, 0, 0]}
joints:
  - {name: guide, type: prismatic, bodies: [ground, mass], point: [0.5, 0, 0], axis: [1, 0, 0]}
forces:
  - {name: spring, type: spring_damper, bodies: [ground, mass], points: [[0, 0, 0], [0.5, 0, 0]], stiffness: 1200.0, damping: 18.0, length: 0.4}
sensors:
  - {name: spring, force: spring, output: spring_damper}
  - {name: p, body: mass, output: position}
  - {name: v, body: mass, output: velocity}
  - {name: s, joint: guide, output: joint_displacement}
solver: {end_time: 0.5, step: 1.0e-3}
output: {every: 0.01}
)";
  for (const char* solver : {"generalized_alpha", "rk4"}) {
    INFO(solver);
    const Series s = run_text(text, {{"solver.type", solver}});
    const size_t F = s.col("spring.force"), L = s.col("spring.length"), Ld = s.col("spring.speed"), x = s.col("p.x"),
                 vx = s.col("v.x"), d = s.col("s"), dr = s.col("s.rate");
    double e = 0;
    for (const auto& r : s.rows) {
      e = std::max({e, std::abs(r[L] - r[x]), std::abs(r[Ld] - r[vx]),
                    std::abs(r[F] - (1200.0 * (r[x] - 0.4) + 18.0 * r[vx])) / 1200.0, std::abs(r[d] - (r[x] - 0.5)),
                    std::abs(r[dr] - r[vx])});
    }
    CHECK(e < 1e-9);
    CHECK(std::abs(s.rows[0][Ld] - 1.5) < 1e-12);
  }
}

TEST_CASE("sensors: kinetic and potential energy, linear and angular momentum of a free body", "[analyses][sensors]") {
  // A free tumbling body: its momenta at t0 follow from the input (COM velocity v + ω × R c,
  // inertia about the COM by the parallel-axis theorem); without gravity both are conserved, with
  // gravity ṗ = m g and the potential is −m g·p_C.
  const double m = 2.0;
  const Vec3 c(0.1, 0.2, 0.3), p0(1, 2, 3), v0(0.5, -1, 2), w0(1, 2, -3);
  Mat3 Jref;
  Jref << 0.6, -0.04, -0.06, -0.04, 0.7, -0.04, -0.06, -0.04, 0.5;
  const Mat3 R0 = (Eigen::AngleAxisd(0.3, Vec3::UnitX()) * Eigen::AngleAxisd(-0.2, Vec3::UnitY()) *
                   Eigen::AngleAxisd(0.5, Vec3::UnitZ())).toRotationMatrix();
  const Mat3 Jc = Jref - m * (c.squaredNorm() * Mat3::Identity() - c * c.transpose());
  const Vec3 pc = p0 + R0 * c, vc = v0 + w0.cross(R0 * c);
  const Vec3 P = m * vc, H = pc.cross(m * vc) + R0 * Jc * R0.transpose() * w0;
  const double T = 0.5 * m * vc.squaredNorm() + 0.5 * w0.dot(R0 * Jc * R0.transpose() * w0);
  const std::string body = R"(bodies:
  - {name: rod, mass: 2.0, inertia: [0.6, 0.7, 0.5, -0.04, -0.06, -0.04], com: [0.1, 0.2, 0.3],
     position: [1, 2, 3], orientation: {rxyz: [0.3, -0.2, 0.5]}, velocity: [0.5, -1, 2], angular_velocity: [1, 2, -3]}
sensors:
  - {name: T, output: kinetic_energy}
  - {name: V, output: potential_energy}
  - {name: E, output: energy}
  - {name: P, output: linear_momentum}
  - {name: Pb, body: rod, output: linear_momentum}
  - {name: H, output: angular_momentum}
  - {name: C, body: rod, point: [0.1, 0.2, 0.3], output: position}
solver: {end_time: 0.5, step: 1.0e-4}
output: {every: 0.05}
)";
  for (const char* solver : {"generalized_alpha", "rk4"}) {
    INFO(solver);
    {
      const Series s = run_text(body, {{"solver.type", solver}});
      const auto& r0 = s.rows.front();
      CHECK(std::abs(r0[s.col("T")] - T) < 1e-12 * T);
      CHECK(std::abs(r0[s.col("V")]) < 1e-12);
      for (int i = 0; i < 3; ++i) {
        const std::string a = i == 0 ? ".x" : i == 1 ? ".y" : ".z";
        CHECK(std::abs(r0[s.col("P" + a)] - P[i]) < 1e-12);
        CHECK(std::abs(r0[s.col("Pb" + a)] - P[i]) < 1e-12);
        CHECK(std::abs(r0[s.col("H" + a)] - H[i]) < 1e-12);
      }
      // Conserved over the run (to the solver's accuracy).
      double dP = 0, dH = 0, dT = 0;
      for (const auto& r : s.rows)
        for (int i = 0; i < 3; ++i) {
          const std::string a = i == 0 ? ".x" : i == 1 ? ".y" : ".z";
          dP = std::max(dP, std::abs(r[s.col("P" + a)] - P[i]));
          dH = std::max(dH, std::abs(r[s.col("H" + a)] - H[i]));
          dT = std::max(dT, std::abs(r[s.col("T")] - T));
        }
      INFO("dP " << dP << " dH " << dH << " dT " << dT);
      CHECK(dP < 1e-6);
      CHECK(dH < 1e-5);
      CHECK(dT < 1e-5);
    }
    {
      // Gravity: V = −m g·p_C, and T + V = E at every row.
      const Series s = run_text("gravity: [0, 0, -9.81]\n" + body, {{"solver.type", solver}});
      double e = 0;
      for (const auto& r : s.rows)
        e = std::max({e, std::abs(r[s.col("V")] - m * 9.81 * r[s.col("C.z")]),
                      std::abs(r[s.col("T")] + r[s.col("V")] - r[s.col("E")])});
      CHECK(e < 1e-9);
    }
  }
}

TEST_CASE("sensors: joint reactions in the joint frame for every holonomic joint type", "[analyses][sensors]") {
  // A 2 kg block hangs at rest from a joint 0.3 m above its COM (gravity −y): whatever the type,
  // the joint carries the weight, m g upwards in world axes, with no torque about the joint point
  // (the weight's line passes through it); in the joint's axes the force has the same length.
  struct Case {
    const char* type;
    const char* keys;
  };
  const std::vector<Case> cases{
      {"spherical", ""},
      {"revolute", ", axis: [0, 0, 1]"},
      {"prismatic", ", axis: [1, 0, 0]"},
      {"fixed", ""},
      {"generic", ", constrained: [1, 1, 1, 1, 1, 1], frame: {rxyz: [0.2, 0.4, -0.3]}"},
      {"distance", ", point_b: [0, 0, 0]"},
      {"cylindrical", ", axis: [0, 0, 1]"},
      {"universal", ", axis: [1, 0, 0], axis_b: [0, 0, 1]"},
      {"planar", ", axis: [0, 1, 0]"},
      {"coordinate", ", coordinate: y"},
  };
  for (const Case& c : cases) {
    INFO(c.type);
    const std::string text = std::string(R"(gravity: [0, -9.81, 0]
bodies:
  - {name: block, mass: 2.0, inertia: [0.02, 0.03, 0.04, 0, 0, 0]}
joints:
  - {name: j, type: )") + c.type + ", bodies: [ground, block], point: [0, 0.3, 0]" + c.keys + R"(}
sensors:
  - {name: Fw, joint: j, output: reaction_force}
  - {name: Tw, joint: j, output: reaction_torque}
  - {name: Fj, joint: j, output: reaction_force, frame: joint}
  - {name: Tj, joint: j, output: reaction_torque, frame: joint}
solver: {end_time: 0.1, step: 1.0e-3}
output: {every: 0.05}
)";
    const Series s = run_text(text);
    for (const auto& r : s.rows) {
      const Vec3 Fw(r[s.col("Fw.x")], r[s.col("Fw.y")], r[s.col("Fw.z")]);
      const Vec3 Fj(r[s.col("Fj.x")], r[s.col("Fj.y")], r[s.col("Fj.z")]);
      const Vec3 Tw(r[s.col("Tw.x")], r[s.col("Tw.y")], r[s.col("Tw.z")]);
      const Vec3 Tj(r[s.col("Tj.x")], r[s.col("Tj.y")], r[s.col("Tj.z")]);
      CHECK((Fw - Vec3(0, 2.0 * 9.81, 0)).norm() < 1e-8);
      CHECK(std::abs(Fj.norm() - 2.0 * 9.81) < 1e-8);
      CHECK(Tw.norm() < 1e-8);
      CHECK(Tj.norm() < 1e-8);
    }
  }
}
