// MuJoCo (libmujoco-dev 2.2.2) on the N-link chain of PeerCommon.h, for the side-by-side
// comparison with mbdae. The model is an MJCF string built here: N nested bodies, each
// with a ball joint (or a hinge with axis y) at its origin, the inboard end of the bar; explicit
// <inertial> (mass 1, COM (0.5, 0, 0), box inertia about the COM); no geoms, contacts disabled; a
// site at the free end of the last bar is the tip. The cases with spring-dampers (stiff_revolute,
// damped_revolute) set the hinges' stiffness k and damping d of the case (springref 0).
//
// Integrators: Euler (MuJoCo's semi-implicit Euler), RK4 and "implicit" (implicit in velocity) at
// fixed dt = 1e-2 … 1e-5 s (… 5e-6 s for damped_revolute), mj_step to T = 1 s. Wall time covers
// the mj_step loop (mj_resetData and the model compilation are not timed). A setting whose
// predicted time (from a probe of 20 steps) exceeds --budget is skipped and recorded with the
// probe's time per step.
// Tip error against the reference file (mbdae IDA rtol 1e-12) — see PeerCommon.h.
//
// Usage: mujoco_chain [--sizes ...] [--cases ...] [--reference FILE] [--csv FILE] [--budget S]

#include <mujoco/mujoco.h>

#include <cstring>

#include "PeerCommon.h"

namespace {

std::string ChainXml(const std::string& problem, int n) {
  const long nv = static_cast<long>(n) * (peers::IsRevolute(problem) ? 1 : 3);
  std::ostringstream x;
  x.precision(17);
  x << "<mujoco model=\"chain\">\n<compiler angle=\"radian\" inertiafromgeom=\"false\"/>\n"
    << "<option gravity=\"0 0 " << -peers::kGravity << "\"><flag contact=\"disable\"/></option>\n"
    // Arena for mj_step's temporaries: the chain's joint-space mass matrix is dense (every dof has
    // all earlier dofs as ancestors), so give room for several nv × nv matrices (3 nv² + 2e5 was
    // too small for RK4 with ball joints at N = 64: "Stack overflow" in mj_step, which exits).
    << "<size nstack=\"" << 2000000 + 10L * nv * nv << "\"/>\n<worldbody>\n";
  for (int i = 0; i < n; ++i) {
    x << "<body name=\"bar" << i << "\" pos=\"" << (i == 0 ? 0 : 1) << " 0 0\">";
    if (peers::IsRevolute(problem)) {
      x << "<joint type=\"hinge\" axis=\"0 1 0\" pos=\"0 0 0\"";
      if (peers::IsStiff(problem))
        x << " stiffness=\"" << peers::kStiffK << "\" damping=\"" << peers::SpringDamping(problem)
          << "\" springref=\"0\"";
      x << "/>";
    } else {
      x << "<joint type=\"ball\" pos=\"0 0 0\"/>";
    }
    x << "<inertial pos=\"0.5 0 0\" mass=\"" << peers::kBarMass << "\" diaginertia=\"" << peers::kBarIxx << ' '
      << peers::kBarIyy << ' ' << peers::kBarIyy << "\"/>\n";
  }
  x << "<site name=\"tip\" pos=\"1 0 0\"/>\n";
  for (int i = 0; i < n; ++i) x << "</body>";
  x << "\n</worldbody>\n</mujoco>\n";
  return x.str();
}

mjModel* LoadFromString(const std::string& xml, std::string& message) {
  mjVFS vfs;
  mj_defaultVFS(&vfs);
  if (mj_makeEmptyFileVFS(&vfs, "chain.xml", static_cast<int>(xml.size())) != 0) return nullptr;
  const int k = mj_findFileVFS(&vfs, "chain.xml");
  std::memcpy(vfs.filedata[k], xml.data(), xml.size());
  char error[1000] = "";
  mjModel* m = mj_loadXML("chain.xml", &vfs, error, sizeof error);
  mj_deleteVFS(&vfs);
  if (!m) message = error;
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  const char* usage =
      "usage: mujoco_chain [--sizes 4,16,64] [--cases spherical,revolute,stiff_revolute,damped_revolute] "
      "[--reference FILE] [--csv FILE] [--budget S]\n";
  const peers::ChainArgs a = peers::ParseChainArgs(argc, argv, usage);
  const auto ref = peers::ReadReference(a.reference);
  peers::CsvOut out(a.csv);
  peers::PrintHeader();
  const std::vector<double> base_steps = {1e-2, 5e-3, 2e-3, 1e-3, 5e-4, 2e-4, 1e-4, 5e-5, 2e-5, 1e-5};
  const std::vector<std::pair<std::string, int>> integrators = {
      {"euler", mjINT_EULER}, {"rk4", mjINT_RK4}, {"implicit", mjINT_IMPLICIT}};
  for (const auto& problem : a.cases)
    for (const int n : a.sizes) {
      // damped_revolute: RK4 is unstable up to dt = 1e-5 s (fastest mode ≈ −3e5 … −5e5 1/s), so the
      // sweep goes on to 5e-6 s there.
      std::vector<double> steps = base_steps;
      if (problem == "damped_revolute") steps.push_back(5e-6);
      std::string message;
      mjModel* m = LoadFromString(ChainXml(problem, n), message);
      if (!m) {
        // MuJoCo 2.2.2's XML parser (tinyxml2) refuses more than 100 nested elements, so a chain
        // of nested bodies longer than about 98 cannot be written as MJCF.
        peers::Row r;
        r.engine = "mujoco";
        r.problem = problem;
        r.n = n;
        r.method = "all";
        r.skipped = true;
        r.note = "not run: mj_loadXML failed: " + message;
        out.Write(r);
        continue;
      }
      mjData* d = mj_makeData(m);
      const int tip = mj_name2id(m, mjOBJ_SITE, "tip");
      const auto it = ref.find(problem + "/" + std::to_string(n));
      for (const auto& [name, integrator] : integrators) {
        double best_error = INFINITY;
        // The cost of a step does not depend on dt: one probe of a few steps per integrator
        // predicts every run's time.
        m->opt.integrator = integrator;
        m->opt.timestep = steps.front();
        mj_resetData(m, d);
        const double t0 = peers::Now();
        for (int k = 0; k < 5; ++k) mj_step(m, d);
        const double per_step = (peers::Now() - t0) / 5;
        for (const double dt : steps) {
          if (best_error < peers::kErrorFloor) break;  // converged to the reference: smaller dt adds nothing
          m->opt.integrator = integrator;
          m->opt.timestep = dt;
          const long nsteps = std::lround(peers::kT / dt);
          peers::Row r;
          r.engine = "mujoco";
          r.problem = problem;
          r.n = n;
          r.method = name;
          r.setting_name = "dt";
          r.setting = dt;
          r.steps = nsteps;
          if (per_step * nsteps > a.budget) {
            r.skipped = true;
            r.us_per_step = 1e6 * per_step;
            r.wall = per_step * nsteps;
            r.note = "predicted " + std::to_string(per_step * nsteps) + " s > budget (wall_s is the prediction)";
            r.peak_rss_kb = peers::PeakRssKb();
            out.Write(r);
            continue;
          }
          bool ok = true;
          r.wall = peers::TimedMedian([&] {
            mj_resetData(m, d);
            for (long k = 0; k < nsteps; ++k) mj_step(m, d);
            mj_kinematics(m, d);
            ok = true;
            for (int j = 0; j < m->nq; ++j) ok = ok && std::isfinite(d->qpos[j]);
            return ok;
          });
          r.ok = ok && std::abs(d->time - peers::kT) < 1e-6;
          r.us_per_step = 1e6 * r.wall / nsteps;
          const peers::Tip p{d->site_xpos[3 * tip], d->site_xpos[3 * tip + 1], d->site_xpos[3 * tip + 2]};
          if (r.ok && it != ref.end()) r.error = peers::Distance(p, it->second);
          if (r.ok) best_error = std::min(best_error, r.error);
          if (!r.ok) r.note = "non-finite state (unstable at this dt)";
          r.peak_rss_kb = peers::PeakRssKb();
          out.Write(r);
        }
      }
      mj_deleteData(d);
      mj_deleteModel(m);
    }
  return 0;
}
