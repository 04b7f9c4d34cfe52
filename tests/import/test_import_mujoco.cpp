// The imported models against an independent implementation: MuJoCo (Debian's libmujoco-dev)
// loads the same URDF file with its own parser and computes the joint-space mass matrix
// (mj_fullM), the bias forces (qfrc_bias), the forward-dynamics accelerations (qacc of mj_forward
// with contacts, limits, friction loss and passive forces off) and every body's pose (xpos,
// xmat). mbdae's come from its Newton–Euler formulation of the imported model at the same joint
// state, mapped by tests/import/JointSpace.h. Three random joint states per file (fixed seed).

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <random>
#include <tuple>

#include <catch2/catch.hpp>
#include <mujoco/mujoco.h>

#include <mbdae/formulations/NewtonEuler.h>
#include <mbdae/import/Import.h>
#include <mbdae/io/Run.h>

#include "ImportTestSupport.h"
#include "JointSpace.h"

using namespace mbdae;

namespace {

const std::string kRobots = std::string(MBDAE_TEST_SOURCE_DIR) + "/examples/robots/";

struct MuJoCo {
  mjModel* m = nullptr;
  mjData* d = nullptr;
  explicit MuJoCo(const std::string& file) {
    char error[1000] = "";
    m = mj_loadXML(file.c_str(), nullptr, error, sizeof error);
    if (!m) throw std::runtime_error("MuJoCo cannot load " + file + ": " + error);
    d = mj_makeData(m);
  }
  ~MuJoCo() {
    mj_deleteData(d);
    mj_deleteModel(m);
  }
  MuJoCo(const MuJoCo&) = delete;
  MuJoCo& operator=(const MuJoCo&) = delete;
};

/// The file MuJoCo reads: the example itself (MJCF), or for URDF a copy in a scratch folder with
/// MuJoCo's own compiler settings added (<mujoco><compiler fusestatic="false"/></mujoco>, an
/// extension element of URDF that MuJoCo reads) beside copies of its meshes. With the default
/// fusestatic="true" MuJoCo merges bodies on fixed joints into their parents and re-diagonalizes
/// the merged inertia with an iterative eigen-solver accurate to about 1e-9 (measured on arm6's
/// flange + tool: Ixx 0.0016879999926 against the exact 0.001688), which would be the error
/// of the reference, not of the import.
std::string mujoco_file(const std::string& name) {
  namespace fs = std::filesystem;
  const std::string file = kRobots + name;
  if (fs::path(name).extension() != ".urdf") return file;
  const fs::path dir = fs::temp_directory_path() / "mbdae_import_mujoco";
  fs::create_directories(dir);
  for (const auto& e : fs::directory_iterator(kRobots))
    if (e.path().extension() == ".stl") fs::copy_file(e.path(), dir / e.path().filename(), fs::copy_options::overwrite_existing);
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  std::string s = text.str();
  const size_t robot = s.find("<robot");
  const size_t end = s.find('>', robot);
  REQUIRE(robot != std::string::npos);
  s.insert(end + 1, "\n<mujoco><compiler fusestatic=\"false\" discardvisual=\"true\"/></mujoco>");
  const fs::path out = dir / name;
  std::ofstream(out) << s;
  return out.string();
}

/// The imported model without its force elements and couplings (MuJoCo's tree has no <mimic>).
io::LoadedModel load_tree(const std::string& file, const std::vector<io::Override>& more = {}) {
  std::vector<io::Override> ov{{"forces", "[]"}, {"couplings", "[]"}};
  ov.insert(ov.end(), more.begin(), more.end());
  std::vector<io::Diagnostic> warnings;
  return import::load_imported(file, ov, warnings);
}

double max_abs(const MatX& a) { return a.cwiseAbs().maxCoeff(); }

struct Figures {
  double fk = 0, M = 0, bias = 0, qacc = 0, violation = 0;
  double placed_pose = 0, placed_velocity = 0;  ///< mbdae's placement from joint coordinates vs MuJoCo
};

/// mbdae's own placement of the imported model at (q, q̇) (the joints' `initial:` keys,
/// solvers/InitialPlacement.h) against MuJoCo's body poses (xpos, xmat) and velocities of the body
/// frames' origins (mj_objectVelocity, world axes), over the bodies MuJoCo has. Largest differences
/// in m (and rotation-matrix entries) and m/s (rad/s).
std::pair<double, double> compare_placement(const std::string& file, MuJoCo& mj, const testing::JointSpace& js,
                                            const VecX& q, const VecX& qd) {
  const io::LoadedModel plain = load_tree(file);
  std::vector<io::Override> ov;
  for (int k = 0; k < js.nq(); ++k) {
    const std::string& name = js.coordinate_joints()[static_cast<size_t>(k)];
    for (size_t i = 0; i < plain.system.joints().size(); ++i) {
      const Joint& j = plain.system.joints()[i];
      if (j.name != name) continue;
      const bool revolute = j.type == JointType::Revolute;
      char v[200];
      std::snprintf(v, sizeof v, revolute ? "{angle: %.17g, rate: %.17g}" : "{displacement: %.17g, speed: %.17g}", q[k],
                    qd[k]);
      ov.push_back({"joints[" + std::to_string(i) + "].initial", v});
    }
  }
  const io::LoadedModel placed = load_tree(file, ov);
  double pose = 0, vel = 0;
  for (const RigidBody& b : placed.system.bodies()) {
    const int id = mj_name2id(mj.m, mjOBJ_BODY, b.name.c_str());
    if (id < 0) continue;
    mjtNum v6[6];
    mj_objectVelocity(mj.m, mj.d, mjOBJ_XBODY, id, v6, 0);  // [ω; v] at the body frame's origin, world axes
    for (int r = 0; r < 3; ++r) {
      pose = std::max(pose, std::abs(b.position[r] - mj.d->xpos[3 * id + r]));
      for (int c = 0; c < 3; ++c) pose = std::max(pose, std::abs(b.orientation(r, c) - mj.d->xmat[9 * id + 3 * r + c]));
      vel = std::max({vel, std::abs(b.angular_velocity[r] - v6[r]), std::abs(b.velocity[r] - v6[3 + r])});
    }
  }
  return {pose, vel};
}

/// Compares mbdae and MuJoCo at (q, q̇) of mbdae's coordinates.
Figures compare_state(const io::LoadedModel& lm, MuJoCo& mj, const testing::JointSpace& js, const VecX& q,
                      const VecX& qd) {
  NewtonEulerSystem ne(lm.system);
  auto ws = ne.make_workspace();
  const int nq = js.nq();
  std::vector<int> qpos(static_cast<size_t>(nq)), dof(static_cast<size_t>(nq));
  for (int k = 0; k < nq; ++k) {
    const int id = mj_name2id(mj.m, mjOBJ_JOINT, js.coordinate_joints()[static_cast<size_t>(k)].c_str());
    REQUIRE(id >= 0);
    qpos[static_cast<size_t>(k)] = mj.m->jnt_qposadr[id];
    dof[static_cast<size_t>(k)] = mj.m->jnt_dofadr[id];
  }
  REQUIRE(mj.m->nv == nq);
  mj_resetData(mj.m, mj.d);
  for (int k = 0; k < nq; ++k) {
    mj.d->qpos[qpos[static_cast<size_t>(k)]] = q[k];
    mj.d->qvel[dof[static_cast<size_t>(k)]] = qd[k];
  }
  mj.m->opt.disableflags = mjDSBL_CONTACT | mjDSBL_LIMIT | mjDSBL_FRICTIONLOSS | mjDSBL_PASSIVE | mjDSBL_EQUALITY | mjDSBL_ACTUATION;
  mj_forward(mj.m, mj.d);
  MatX M_mj(nq, nq);
  {
    std::vector<mjtNum> full(static_cast<size_t>(nq * nq));
    mj_fullM(mj.m, full.data(), mj.d->qM);
    for (int r = 0; r < nq; ++r)
      for (int c = 0; c < nq; ++c) M_mj(r, c) = full[static_cast<size_t>(dof[static_cast<size_t>(r)] * nq + dof[static_cast<size_t>(c)])];
  }
  VecX bias_mj(nq), qacc_mj(nq);
  for (int k = 0; k < nq; ++k) {
    bias_mj[k] = mj.d->qfrc_bias[dof[static_cast<size_t>(k)]];
    qacc_mj[k] = mj.d->qacc[dof[static_cast<size_t>(k)]];
  }

  Figures f;
  // Forward kinematics: every body MuJoCo kept (it fuses bodies on fixed joints into their parent).
  const testing::JointSpace::Motion mo = js.motion(q, qd, VecX::Zero(nq));
  for (size_t i = 0; i < lm.system.bodies().size(); ++i) {
    const int id = mj_name2id(mj.m, mjOBJ_BODY, lm.system.bodies()[i].name.c_str());
    if (id < 0) continue;
    for (int r = 0; r < 3; ++r) {
      f.fk = std::max(f.fk, std::abs(mo.X[i].translation()[r] - mj.d->xpos[3 * id + r]));
      for (int c = 0; c < 3; ++c) f.fk = std::max(f.fk, std::abs(mo.X[i].linear()(r, c) - mj.d->xmat[9 * id + 3 * r + c]));
    }
  }

  VecX x, u, ud;
  js.newton_euler(ne, q, qd, VecX::Zero(nq), x, u, ud);
  // The mapped state satisfies mbdae's own joint equations.
  VecX c;
  ne.joint_violation(ws, x, c);
  f.violation = c.size() ? c.cwiseAbs().maxCoeff() : 0.0;

  const MatX J = js.velocity_jacobian(ne, q);
  const MatX Mb = testing::JointSpace::body_mass_matrix(ne);
  const MatX M = J.transpose() * Mb * J;
  f.M = max_abs(M - M_mj) / max_abs(M_mj);

  // Bias forces: Jᵀ (M_b b − f − gyroscopic), b = u̇ at q̈ = 0.
  VecX forces;
  ne.applied_forces(ws, 0.0, x, u, forces);
  for (int i = 0; i < ne.num_bodies(); ++i) {
    const Vec3 w = u.segment<3>(6 * i + 3);
    forces.segment<3>(6 * i + 3) -= w.cross(ne.inertia_com(i) * w);
  }
  const VecX bias = J.transpose() * (Mb * ud - forces);
  f.bias = (bias - bias_mj).cwiseAbs().maxCoeff() / bias_mj.cwiseAbs().maxCoeff();

  // Forward dynamics: mbdae's constrained Newton–Euler accelerations, mapped back to q̈.
  VecX xd, udot;
  ne.derivative(ws, 0.0, x, u, xd, udot);
  const VecX qacc = J.colPivHouseholderQr().solve(udot.head(6 * ne.num_bodies()) - ud);
  f.qacc = (qacc - qacc_mj).cwiseAbs().maxCoeff() / qacc_mj.cwiseAbs().maxCoeff();
  return f;
}

void check_file(const std::string& name) {
  const std::string file = kRobots + name;
  const io::LoadedModel lm = load_tree(file);
  MuJoCo mj(mujoco_file(name));
  const testing::JointSpace js(lm.system);
  std::mt19937 rng(20261128);
  std::uniform_real_distribution<double> angle(-1.5, 1.5), rate(-2.0, 2.0);
  for (int s = 0; s < 4; ++s) {
    VecX q(js.nq()), qd(js.nq());
    for (int k = 0; k < js.nq(); ++k) {
      // prismatic coordinates within a few centimetres, angles within ±1.5 rad
      const int id = mj_name2id(mj.m, mjOBJ_JOINT, js.coordinate_joints()[static_cast<size_t>(k)].c_str());
      const bool slide = mj.m->jnt_type[id] == mjJNT_SLIDE;
      q[k] = s == 0 ? 0.0 : (slide ? 0.02 * angle(rng) : angle(rng));
      qd[k] = slide ? 0.1 * rate(rng) : rate(rng);
    }
    Figures f = compare_state(lm, mj, js, q, qd);
    std::tie(f.placed_pose, f.placed_velocity) = compare_placement(file, mj, js, q, qd);
    std::printf("%s state %d: FK %.2e m, mass matrix %.2e, bias %.2e, qacc %.2e (relative), joint residual %.2e; "
                "mbdae's placement from joint coordinates: poses %.2e m, velocities %.2e m/s\n",
                name.c_str(), s, f.fk, f.M, f.bias, f.qacc, f.violation, f.placed_pose, f.placed_velocity);
    CHECK(f.fk < 1e-12);
    CHECK(f.placed_pose < 1e-12);
    CHECK(f.placed_velocity < 1e-12);
    CHECK(f.violation < 1e-12);
    CHECK(f.M < 1e-9);
    CHECK(f.bias < 1e-9);
    CHECK(f.qacc < 1e-9);
  }
}

}  // namespace

TEST_CASE("Imported URDF arm: mass matrix, bias forces, accelerations and poses as MuJoCo's", "[import][mujoco]") {
  check_file("arm6.urdf");
}

TEST_CASE("Imported URDF gripper (mimic dropped on both sides): as MuJoCo's", "[import][mujoco]") {
  check_file("gripper.urdf");
}

TEST_CASE("Imported MJCF hand (joint equality dropped on both sides): as MuJoCo's", "[import][mujoco]") {
  check_file("hand.xml");
}

// One second of motion from the reference configuration under gravity (no damping, no limits):
// mbdae's IDA at tight tolerances against MuJoCo's RK4 at h = 1e-4 s. Rows every 5 ms, so that
// the joint_angle sensors count the turns of the fast wrist.
TEST_CASE("Imported URDF arm: one simulated second as MuJoCo's", "[import][mujoco]") {
  const std::string file = kRobots + "arm6.urdf";
  const io::LoadedModel lm = load_tree(file, {{"solver", "{type: ida, end_time: 1, tolerance: {relative: 1e-10, absolute: 1e-12}}"},
                                              {"output", "{every: 0.005}"}});
  const auto row = testing::final_row(lm);
  MuJoCo mj(mujoco_file("arm6.urdf"));
  mj.m->opt.disableflags = mjDSBL_CONTACT | mjDSBL_LIMIT | mjDSBL_FRICTIONLOSS | mjDSBL_PASSIVE | mjDSBL_EQUALITY | mjDSBL_ACTUATION;
  mj.m->opt.integrator = mjINT_RK4;
  mj.m->opt.timestep = 1e-4;
  mj_resetData(mj.m, mj.d);
  for (int k = 0; k < 10000; ++k) mj_step(mj.m, mj.d);
  double worst = 0, worst_rate = 0;
  for (const auto& [col, value] : row) {
    const bool is_rate = col.size() > 5 && col.substr(col.size() - 5) == ".rate";
    const std::string joint = is_rate ? col.substr(0, col.size() - 5) : col;
    const int id = mj_name2id(mj.m, mjOBJ_JOINT, joint.c_str());
    REQUIRE(id >= 0);
    const double ref = is_rate ? mj.d->qvel[mj.m->jnt_dofadr[id]] : mj.d->qpos[mj.m->jnt_qposadr[id]];
    (is_rate ? worst_rate : worst) = std::max(is_rate ? worst_rate : worst, std::abs(value - ref));
  }
  std::printf("arm6.urdf, 1 s from rest: max |q - q_MuJoCo| = %.2e rad, max |qd - qd_MuJoCo| = %.2e rad/s\n", worst,
              worst_rate);
  CHECK(worst < 1e-6);
  CHECK(worst_rate < 1e-5);
}
