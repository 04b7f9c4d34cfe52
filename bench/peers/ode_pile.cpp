// ODE (libode-dev 0.16, double precision) on the sphere pile of PeerCommon.h, for the
// side-by-side comparison with mbdae's impulse stepper: dWorldQuickStep (ODE's
// iterative PGS-type solver, its default 20 iterations) with h = 1e-3 s, a dHashSpace, spheres
// (r = 0.1 m, m = 1 kg) and static planes for the floor and the walls. Contacts: up to 4 per
// pair from dCollide, friction pyramid proportional to the normal force (dContactApprox1) with
// μ = 0.5, no bounce, ODE's default ERP (0.2) and CFM (1e-5). Auto-disable is off (ODE's default).
// Wall time per simulated second, max speed and max penetration at the end (2 s unless --t-end; PeerCommon.h).
// Usage: ode_pile [--sizes 512,4096] [--t-end S] [--csv FILE]

#include <ode/ode.h>

#include "PeerCommon.h"

namespace {

struct Callback {
  dWorldID world;
  dJointGroupID contacts;
};

void NearCallback(void* data, dGeomID a, dGeomID b) {
  auto* cb = static_cast<Callback*>(data);
  dContact c[4];
  const int n = dCollide(a, b, 4, &c[0].geom, sizeof(dContact));
  for (int i = 0; i < n; ++i) {
    c[i].surface.mode = dContactApprox1;
    c[i].surface.mu = peers::kPileMu;
    c[i].surface.bounce = 0;
    const dJointID j = dJointCreateContact(cb->world, cb->contacts, &c[i]);
    dJointAttach(j, dGeomGetBody(a), dGeomGetBody(b));
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string csv;
  const std::vector<int> sizes = peers::ParsePileSizes(argc, argv, csv);
  peers::CsvOut out(csv);
  dInitODE2(0);
  std::printf("sphere pile, h = 1e-3 s, %g s; error = max penetration at the end [m], extra = max speed at the end [m/s]\n", peers::kPileT);
  peers::PrintHeader();
  for (const int K : sizes) {
    const peers::PileLayout L = peers::MakePileLayout(K);
    const dWorldID world = dWorldCreate();
    dWorldSetGravity(world, 0, 0, -9.81);
    const dSpaceID space = dHashSpaceCreate(nullptr);
    const dJointGroupID contacts = dJointGroupCreate(0);
    // planes a x + b y + c z = d with the free side along (a, b, c)
    dCreatePlane(space, 0, 0, 1, 0);
    dCreatePlane(space, 1, 0, 0, -L.W);
    dCreatePlane(space, -1, 0, 0, -L.W);
    dCreatePlane(space, 0, 1, 0, -L.W);
    dCreatePlane(space, 0, -1, 0, -L.W);
    std::vector<dBodyID> bodies(K);
    for (int i = 0; i < K; ++i) {
      bodies[i] = dBodyCreate(world);
      dMass mass;
      dMassSetSphereTotal(&mass, peers::kPileMass, peers::kPileR);
      dBodySetMass(bodies[i], &mass);
      dBodySetPosition(bodies[i], L.p[i][0], L.p[i][1], L.p[i][2]);
      const dGeomID g = dCreateSphere(space, peers::kPileR);
      dGeomSetBody(g, bodies[i]);
    }
    Callback cb{world, contacts};
    const long nsteps = std::lround(peers::kPileT / peers::kPileH);
    const double t0 = peers::Now();
    for (long k = 0; k < nsteps; ++k) {
      dSpaceCollide(space, &cb, &NearCallback);
      dWorldQuickStep(world, peers::kPileH);
      dJointGroupEmpty(contacts);
    }
    const double wall = peers::Now() - t0;
    std::vector<std::array<double, 3>> p(K);
    double vmax = 0;
    std::vector<double> speeds;
    bool finite = true;
    for (int i = 0; i < K; ++i) {
      const dReal* x = dBodyGetPosition(bodies[i]);
      const dReal* v = dBodyGetLinearVel(bodies[i]);
      p[i] = {x[0], x[1], x[2]};
      speeds.push_back(std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
      vmax = std::max(vmax, speeds.back());
      finite = finite && std::isfinite(x[0] + x[1] + x[2]);
    }
    dJointGroupDestroy(contacts);
    dSpaceDestroy(space);
    dWorldDestroy(world);

    peers::Row row;
    row.engine = "ode";
    row.problem = "sphere_pile";
    row.n = K;
    row.method = "quickstep";
    row.setting_name = "h";
    row.setting = peers::kPileH;
    row.ok = finite;
    row.wall = wall;
    row.sim_time = peers::kPileT;
    row.steps = nsteps;
    row.us_per_step = 1e6 * wall / nsteps;
    row.error = peers::PileMaxPenetration(p, L.W);
    row.extra = vmax;
    row.peak_rss_kb = peers::PeakRssKb();
    row.note = "double precision; QuickStep 20 iterations; ERP 0.2 CFM 1e-5 (defaults); " + peers::PileSpeedSummary(speeds);
    out.Write(row);
  }
  dCloseODE();
  return 0;
}
