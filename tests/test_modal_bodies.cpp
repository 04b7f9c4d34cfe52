// Modally reduced bodies (model/ModalBody.h, formulations/src/units/ModalBodies.cpp) against
// references computed here: the finite-element model's own eigenfrequencies (its Matrix Market
// files read by this file's own reader, Eigen's generalized eigensolver), the Euler-Bernoulli
// closed forms, the rotating cantilever's frequencies without stress stiffening, the conservation
// of energy and angular momentum of a tumbling free body (both formed here from the FE mass
// matrix, not from the unit's invariants), and the rigid body of the same mass and inertia.

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <Eigen/Eigenvalues>

#include <mbdae/formulations/Multibody.h>
#include <mbdae/io/Analyses.h>
#include <mbdae/io/ModelLoader.h>
#include <mbdae/io/Run.h>
#include <mbdae/model/ModalBody.h>
#include <mbdae/model/math/Rotation.h>
#include <mbdae/solvers/GeneralizedAlpha.h>

using namespace mbdae;

namespace {

constexpr double kPi = 3.14159265358979323846;

std::string data(const std::string& name) { return std::string(MBDAE_TEST_SOURCE_DIR) + "/tests/modal_models/" + name; }

// The beam of tests/modal_models/beam20_* (scripts/modal/beam_fe.py): 2 m, 20 elements.
constexpr double kL = 2.0, kE = 2.1e11, kG = 8.1e10, kRho = 7850, kA = 1e-4, kIy = 8.33e-10, kIz = 3.33e-9, kIp = 2e-9;

/// A symmetric coordinate Matrix Market file as a dense matrix (this test's own reader).
MatX read_mtx(const std::string& path) {
  std::ifstream f(path);
  std::string line;
  std::getline(f, line);
  do std::getline(f, line);
  while (line.empty() || line[0] == '%');
  std::istringstream h(line);
  int n = 0, m = 0, nnz = 0;
  h >> n >> m >> nnz;
  MatX A = MatX::Zero(n, m);
  for (int k = 0; k < nnz; ++k) {
    int i = 0, j = 0;
    double v = 0;
    f >> i >> j >> v;
    A(i - 1, j - 1) = v;
    A(j - 1, i - 1) = v;
  }
  return A;
}

FeModel beam_fe() {
  FeModel fe;
  fe.mass = read_mtx(data("beam20_M.mtx"));
  fe.stiffness = read_mtx(data("beam20_K.mtx"));
  for (int i = 0; i <= 20; ++i) fe.nodes.push_back(Vec3(kL * i / 20.0, 0, 0));
  fe.dofs_per_node = 6;
  return fe;
}

/// The FE model's free-free elastic frequencies (rad/s), ascending, without the six zeros.
std::vector<double> fe_frequencies(const FeModel& fe) {
  Eigen::GeneralizedSelfAdjointEigenSolver<MatX> es(fe.stiffness, fe.mass);
  std::vector<double> w;
  for (Eigen::Index k = 6; k < es.eigenvalues().size(); ++k) w.push_back(std::sqrt(es.eigenvalues()[k]));
  return w;
}

/// A System holding the modal body of `fe` (its frame's body carries the reduction's rigid part).
System modal_system(const FeModel& fe, const ModalChoice& choice, const Vec3& w0, const VecX& q0, const VecX& v0) {
  System s;
  s.gravity = Vec3::Zero();
  auto red = std::make_shared<ModalReduction>(reduce_modal(fe, choice));
  RigidBody b;
  b.name = "beam";
  b.mass = red->mass;
  b.com = red->com;
  const Mat3& J = red->inertia;
  b.inertia << J(0, 0), J(1, 1), J(2, 2), J(1, 2), J(0, 2), J(0, 1);
  b.angular_velocity = w0;
  const BodyIndex bi = s.add_body(b);
  ModalBody mb;
  mb.name = "beam";
  mb.body = bi;
  mb.modes = red;
  mb.q0 = q0;
  mb.v0 = v0;
  s.add_modal_body(mb);
  return s;
}

}  // namespace

TEST_CASE("modal body: free-free beam gives its FE model's frequencies and the Euler-Bernoulli beam's",
          "[flexible]") {
  const FeModel fe = beam_fe();
  const std::vector<double> w_fe = fe_frequencies(fe);
  const io::LoadedModel lm = io::load_model_file(data("free_beam.yaml"));
  REQUIRE(lm.system.modal_bodies().size() == 1);
  const io::ModelAnalysis an(lm);
  const io::ModesReport md = io::solve_modes(an);
  REQUIRE(md.ok);
  CHECK(md.rigid_body_modes == 6);
  std::vector<double> w;
  for (const Mode& m : md.modes)
    if (m.frequency_hz > 1e-3) w.push_back(2 * kPi * m.frequency_hz);
  std::sort(w.begin(), w.end());
  REQUIRE(w.size() == 8);
  double worst = 0;
  for (size_t k = 0; k < 8; ++k) worst = std::max(worst, std::abs(w[k] / w_fe[k] - 1));
  INFO("largest relative difference to the FE model's frequencies " << worst);
  CHECK(worst <= 1e-9);

  // Euler-Bernoulli free-free beam: ω = (βL)² √(EI/(ρA L⁴)), βL = 4.7300407, 7.8532046, 10.9956078,
  // 14.1371655 (Blevins, Formulas for Natural Frequency and Mode Shape, table 8-1), both bending
  // planes (the torsion and axial modes are far above). The cubic elements' consistent mass gives
  // upper bounds with the error O((βh)⁴) (h = L/20): measured (βh)⁴/1500 for the first six modes,
  // checked against (βh)⁴/1000.
  std::vector<std::pair<double, double>> w_eb;  // ω, β
  for (double bl : {4.730040745, 7.853204624, 10.99560784, 14.13716549})
    for (double I : {kIy, kIz}) w_eb.push_back({bl * bl * std::sqrt(kE * I / (kRho * kA * std::pow(kL, 4))), bl / kL});
  std::sort(w_eb.begin(), w_eb.end());
  for (size_t k = 0; k < 6; ++k) {
    const double bh = w_eb[k].second * kL / 20, err = w[k] / w_eb[k].first - 1;
    INFO("mode " << k + 1 << ": " << w[k] << " rad/s, Euler-Bernoulli " << w_eb[k].first << ", relative " << err
                 << ", (beta h)^4 " << std::pow(bh, 4));
    CHECK(err >= 0);
    CHECK(err <= std::pow(bh, 4) / 1000);
  }
}

TEST_CASE("modal body: rigid part of the reduction is the beam's mass and inertia", "[flexible]") {
  const ModalReduction r = reduce_modal(beam_fe(), {0, std::nullopt, {}});
  const double m = kRho * kA * kL;
  CHECK(r.mass == Approx(m).epsilon(1e-13));
  CHECK(r.com.x() == Approx(kL / 2).epsilon(1e-13));
  CHECK(r.inertia(0, 0) == Approx(kRho * kIp * kL).epsilon(1e-12));
  CHECK(r.inertia(1, 1) == Approx(m * kL * kL / 3).epsilon(1e-12));  // about the end, no rotary inertia
  CHECK(r.inertia(2, 2) == Approx(m * kL * kL / 3).epsilon(1e-12));
}

TEST_CASE("modal body: bad finite-element data is refused by name", "[flexible]") {
  FeModel fe = beam_fe();
  CHECK_THROWS_WITH(reduce_modal(fe, {200, std::nullopt, {}}), Catch::Contains("elastic modes"));
  CHECK_THROWS_WITH(reduce_modal(fe, {2, 21, {}}), Catch::Contains("interface_node 21"));
  CHECK_THROWS_WITH(reduce_modal(fe, {2, std::nullopt, {0.1, 0.2, 0.3}}), Catch::Contains("damping_ratio"));
  fe.nodes.pop_back();
  CHECK_THROWS_WITH(reduce_modal(fe, {2, std::nullopt, {}}), Catch::Contains("20 nodes of 6"));
}

TEST_CASE("modal body: rotating cantilever shows no stress stiffening (flap stays, lead-lag softens)", "[flexible]") {
  // The beam clamped at node 0 on a bearing driven at Ω about z through that node (the frame's
  // origin), linearised about the steady rotation by `mbdae modes`. The linear modal formulation
  // has no geometric stiffness: the flap mode (out of the plane of rotation, z) keeps ω0 and the
  // lead-lag mode (in the plane, y) softens to √(ω0² − Ω²) (docs/flexible_modal.md); the
  // continuum with stiffening would give √(ω0² + 1.1935 Ω²) and √(ω0² + 0.1935 Ω²).
  const double Omega = 15.0;
  const io::LoadedModel lm = io::load_model_file(data("rotating_blade.yaml"));
  const io::ModelAnalysis an(lm);
  const io::ModesReport md = io::solve_modes(an);
  REQUIRE(md.ok);
  std::vector<double> w;
  for (const Mode& m : md.modes) w.push_back(2 * kPi * m.frequency_hz);
  std::sort(w.begin(), w.end());
  REQUIRE(w.size() == 2);
  // ω0 of the clamped FE model (node 0's six degrees of freedom removed), computed here.
  const FeModel fe = beam_fe();
  const MatX K = fe.stiffness.bottomRightCorner(120, 120), M = fe.mass.bottomRightCorner(120, 120);
  Eigen::GeneralizedSelfAdjointEigenSolver<MatX> es(K, M);
  const double flap0 = std::sqrt(es.eigenvalues()[0]), lag0 = std::sqrt(es.eigenvalues()[1]);
  // Euler-Bernoulli cantilever: (1.8751041)² √(EI/(ρA L⁴)) (Blevins, table 8-1).
  CHECK(flap0 == Approx(3.5160153 * std::sqrt(kE * kIy / (kRho * kA * std::pow(kL, 4)))).epsilon(1e-5));
  CHECK(lag0 == Approx(3.5160153 * std::sqrt(kE * kIz / (kRho * kA * std::pow(kL, 4)))).epsilon(1e-5));
  const double lag = std::sqrt(lag0 * lag0 - Omega * Omega);
  INFO("flap " << w[0] << " rad/s (ω0 " << flap0 << "), lead-lag " << w[1] << " rad/s (√(ω0² − Ω²) " << lag
               << ", ω0 " << lag0 << ")");
  CHECK(std::abs(w[0] / flap0 - 1) <= 1e-9);
  // The nodal form's softening uses the FE mass of the nodes' translations moved along the beam:
  // the continuum's ∫ρA v² up to the mesh (20 elements).
  CHECK(std::abs(w[1] / lag - 1) <= 2e-3);
  CHECK(w[1] < lag0 * (1 - 0.1));
}

namespace {

/// Energy and angular momentum of the modal body's FE model at a state, formed here from the FE
/// mass and stiffness matrices (the nodal velocities ξ in the frame's axes, T = ½ ξᵀ M ξ).
struct Invariants {
  double E;
  Vec3 H;
};
Invariants fe_invariants(const FeModel& fe, const ModalReduction& r, const VecX& q, const VecX& v, int first) {
  const Vec4 th = q.segment<4>(3);
  const Mat3 R = math::ep_to_matrix(th / th.norm());
  const Vec3 wB = math::ep_G_local(th) * v.segment<4>(3) / th.squaredNorm();
  const Vec3 vB = R.transpose() * v.head<3>();
  const VecX u = r.phi * q.segment(first, r.n), ud = r.phi * v.segment(first, r.n);
  const Eigen::Index N = fe.mass.rows();
  MatX Tt = MatX::Zero(N, 3), Tr = MatX::Zero(N, 3);
  for (size_t i = 0; i < fe.nodes.size(); ++i) {
    const Eigen::Index o = static_cast<Eigen::Index>(i) * 6;
    Tt.block<3, 3>(o, 0).setIdentity();
    Tr.block<3, 3>(o, 0) = -math::skew(fe.nodes[i] + u.segment<3>(o));
    Tr.block<3, 3>(o + 3, 0).setIdentity();
  }
  const VecX xi = Tt * vB + Tr * wB + ud;
  const VecX Mxi = fe.mass * xi;
  const Vec3 P = Tt.transpose() * Mxi, HB = Tr.transpose() * Mxi;
  return {0.5 * xi.dot(Mxi) + 0.5 * u.dot(fe.stiffness * u), Vec3(q.head<3>()).cross(R * P) + R * HB};
}

}  // namespace

TEST_CASE("modal body: tumbling free body keeps its energy and angular momentum", "[flexible]") {
  const FeModel fe = beam_fe();
  VecX q0 = VecX::Zero(6), v0(6);
  v0 << 0.3, -0.2, 0.1, 0.05, -0.04, 0.02;
  const System s = modal_system(fe, {6, std::nullopt, {}}, Vec3(0.4, 3.0, 2.0), q0, v0);
  const ModalReduction& r = *s.modal_bodies()[0].modes;
  const MultibodySystem mb(s);
  auto ws = mb.make_workspace();
  VecX q(mb.num_coordinates()), v(mb.num_coordinates());
  mb.initial_state(q, v);
  const int first = 7;
  REQUIRE(mb.num_coordinates() == 13);
  // Generalized-α at ρ∞ = 1 (no numerical dissipation) conserves them up to its O(h²) error:
  // halving the step divides the largest drifts by about 4.
  const Invariants I0 = fe_invariants(fe, r, q, v, first);
  double dE[2] = {0, 0}, dH[2] = {0, 0};
  for (int pass = 0; pass < 2; ++pass) {
    NewmarkOptions o;
    o.t_end = 1.0;
    o.step = pass == 0 ? 4e-4 : 2e-4;
    o.rho_inf = 1.0;
    double dE_unit = 0, q_max = 0;
    const SolveResult res = solve_generalized_alpha(mb, 0.0, q, v, o, [&](const StateView& st) {
      const Invariants I = fe_invariants(fe, r, st.q, st.v, first);
      dE[pass] = std::max(dE[pass], std::abs(I.E - I0.E));
      dH[pass] = std::max(dH[pass], (I.H - I0.H).norm());
      dE_unit = std::max(dE_unit, std::abs(mb.energy(ws, st.t, st.q, st.v) - I.E));
      q_max = std::max(q_max, st.q.segment(first, 6).cwiseAbs().maxCoeff());
      return true;
    });
    REQUIRE(res.ok());
    INFO("h " << o.step << ": E0 " << I0.E << " J, |H0| " << I0.H.norm() << " N m s; max |E - E0| " << dE[pass]
              << ", max |H - H0| " << dH[pass] << ", unit's energy against the FE one " << dE_unit << ", max |q| "
              << q_max);
    CHECK(q_max > 1e-3);  // the modes move
    CHECK(dE_unit <= 1e-12 * I0.E);
    CHECK(dE[pass] <= 1e-5 * I0.E);
    CHECK(dH[pass] <= 1e-4 * I0.H.norm());
  }
  INFO("drift ratios (h, h/2): energy " << dE[0] / dE[1] << ", angular momentum " << dH[0] / dH[1]);
  CHECK(dE[0] / dE[1] > 3.0);
  CHECK(dH[0] / dH[1] > 3.0);
}

TEST_CASE("modal body: with no modes it is the rigid body of the same mass and inertia", "[flexible]") {
  const FeModel fe = beam_fe();
  System flex = modal_system(fe, {0, std::nullopt, {}}, Vec3(0.5, -1.0, 2.0), VecX(), VecX());
  flex.gravity = Vec3(0, 0, -9.81);
  System rigid;
  rigid.gravity = flex.gravity;
  rigid.add_body(flex.bodies()[0]);  // the same mass, centre of mass and inertia, no modal body
  for (System* s : {&flex, &rigid}) s->add_spherical("pivot", "ground", "beam", Vec3::Zero());
  REQUIRE(flex.modal_bodies().size() == 1);
  REQUIRE(rigid.modal_bodies().empty());
  NewmarkOptions o;
  o.t_end = 1.0;
  o.step = 1e-3;
  std::vector<VecX> traj[2];
  for (int k = 0; k < 2; ++k) {
    const MultibodySystem mb(k == 0 ? flex : rigid);
    VecX q(mb.num_coordinates()), v(mb.num_coordinates());
    mb.initial_state(q, v);
    const SolveResult res = solve_generalized_alpha(mb, 0.0, q, v, o, [&](const StateView& st) {
      traj[k].push_back(st.q);
      return true;
    });
    REQUIRE(res.ok());
  }
  REQUIRE(traj[0].size() == traj[1].size());
  double diff = 0, travel = 0;
  for (size_t i = 0; i < traj[0].size(); ++i) {
    diff = std::max(diff, (traj[0][i] - traj[1][i]).cwiseAbs().maxCoeff());
    travel = std::max(travel, (traj[1][i] - traj[1][0]).cwiseAbs().maxCoeff());
  }
  INFO("largest coordinate difference " << diff << ", largest coordinate travel " << travel);
  CHECK(travel > 0.1);
  CHECK(diff == 0.0);
}

TEST_CASE("modal body: the rotor-blade example runs, its root carries the blade's centrifugal force", "[flexible]") {
  // examples/models/rotor_blade_modal.yaml: a 2 m blade (ρ = 2700, A = 2e-3: m = 10.8 kg, centre
  // of mass at r = 1.2 m) on a hub at Ω = 10 rad/s. The root joint's force in the plane of
  // rotation is the centripetal force m Ω² r = 1296 N (the deformation moves r by millimetres);
  // its z component oscillates about the weight m g (the blade vibrates in flap).
  const std::string file = std::string(MBDAE_TEST_SOURCE_DIR) + "/examples/models/rotor_blade_modal.yaml";
  const io::LoadedModel lm = io::load_model_file(file);
  io::ModelRun run(lm);
  const auto& cols = run.sensors().columns();
  auto col = [&](const std::string& name) {
    const auto it = std::find(cols.begin(), cols.end(), name);
    REQUIRE(it != cols.end());
    return static_cast<size_t>(it - cols.begin());
  };
  const size_t fx = col("root.x"), fy = col("root.y"), fz = col("root.z");
  const double m = 2700 * 2e-3 * 2.0, Fc = m * 100.0 * 1.2;
  double worst = 0, fz_sum = 0;
  int rows = 0;
  const SolveResult res = run.run([&](const StateView&, std::span<const double> row) {
    worst = std::max(worst, std::abs(std::hypot(row[fx], row[fy]) / Fc - 1));
    fz_sum += row[fz];
    ++rows;
    return true;
  });
  REQUIRE(res.ok());
  INFO("largest relative difference of the in-plane root force to m Omega^2 r " << worst << ", mean F_z "
                                                                                 << fz_sum / rows << " N");
  CHECK(worst <= 5e-3);
  // The mean over the run of the signed z force carries the weight; what is left is the flap
  // oscillation's unfinished last period (measured below 1 %).
  CHECK(std::abs(fz_sum / rows) == Approx(m * 9.81).epsilon(0.02));
  // rk4 has no modal coordinates: refused at load time, naming the body.
  CHECK_THROWS_WITH(io::load_model_file(file, {{"solver.type", "rk4"}}), Catch::Contains("modal body 'blade'"));
}

TEST_CASE("modal body: sensors that sum rigid bodies' inertia are refused by name", "[flexible]") {
  CHECK_THROWS_WITH(io::load_model_file(data("momentum_sensor.yaml")),
                    Catch::Contains("sensor 'H'") && Catch::Contains("modal body 'beam'"));
}

TEST_CASE("modal body: its files are read through the input policy, bad ones refused at their key", "[flexible]") {
  try {
    (void)io::load_model_file(data("bad_files.yaml"));
    FAIL("loaded");
  } catch (const std::exception& e) {
    const std::string m = e.what();
    INFO(m);
    CHECK_THAT(m, Catch::Contains("modal_bodies[0].mass_matrix") && Catch::Contains("mass_matrix file"));
    CHECK_THAT(m, Catch::Contains("modal_bodies[0].nodes") && Catch::Contains("line 1: expected three numbers"));
  }
}
