// ODE (libode-dev 0.16, double precision) on the pile of PeerCommon.h (spheres or boxes,
// --shape), for the side-by-side comparison with mbdae's impulse stepper: dWorldQuickStep (ODE's
// iterative PGS-type solver, its default 20 iterations) with h = 1e-3 s, a dHashSpace, spheres
// (r = 0.1 m, m = 1 kg) or boxes (0.2 × 0.15 × 0.1 m, 1 kg; dBoxBox, whose face clipping is
// culled to the 4 points asked for) and static planes for the floor and the walls. Contacts: up to 4 per
// pair from dCollide, friction pyramid proportional to the normal force (dContactApprox1) with
// μ = 0.5, no bounce, ODE's default ERP (0.2) and CFM (1e-5). Auto-disable is off (ODE's default).
// Wall time per simulated second, max speed and max penetration at the end (2 s unless --t-end;
// PeerCommon.h), and the contact joints of the last step.
// Usage: ode_pile [--shape sphere|box] [--sizes 512,4096] [--t-end S] [--csv FILE]

#include <ode/ode.h>

#include "PeerCommon.h"

namespace {

struct Callback {
  dWorldID world;
  dJointGroupID contacts;
  long created = 0;  // contact joints created in this step
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
    ++cb->created;
    dJointAttach(j, dGeomGetBody(a), dGeomGetBody(b));
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string csv;
  const std::vector<int> sizes = peers::ParsePileSizes(argc, argv, csv);
  peers::CsvOut out(csv);
  dInitODE2(0);
  peers::PrintPileHeader();
  const bool box = peers::kPileShape == peers::PileShape::Box;
  const double lx = 2 * peers::kBoxHalf[0], ly = 2 * peers::kBoxHalf[1], lz = 2 * peers::kBoxHalf[2];
  for (const int K : sizes) {
    const peers::PileLayout L = peers::MakePileLayout(K);
    peers::CheckPileLayout(L);
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
      if (box) dMassSetBoxTotal(&mass, peers::kPileMass, lx, ly, lz);
      else dMassSetSphereTotal(&mass, peers::kPileMass, peers::kPileR);
      dBodySetMass(bodies[i], &mass);
      dBodySetPosition(bodies[i], L.p[i][0], L.p[i][1], L.p[i][2]);
      const dQuaternion Q = {L.q[i][0], L.q[i][1], L.q[i][2], L.q[i][3]};  // (w, x, y, z)
      dBodySetQuaternion(bodies[i], Q);
      const dGeomID g = box ? dCreateBox(space, lx, ly, lz) : dCreateSphere(space, peers::kPileR);
      dGeomSetBody(g, bodies[i]);
    }
    Callback cb{world, contacts};
    const long nsteps = std::lround(peers::kPileT / peers::kPileH);
    const double t0 = peers::Now();
    for (long k = 0; k < nsteps; ++k) {
      cb.created = 0;
      dSpaceCollide(space, &cb, &NearCallback);
      dWorldQuickStep(world, peers::kPileH);
      dJointGroupEmpty(contacts);
    }
    const double wall = peers::Now() - t0;
    std::vector<std::array<double, 3>> p(K);
    std::vector<peers::Quat> q(K);
    double vmax = 0;
    std::vector<double> speeds;
    bool finite = true;
    for (int i = 0; i < K; ++i) {
      const dReal* x = dBodyGetPosition(bodies[i]);
      const dReal* v = dBodyGetLinearVel(bodies[i]);
      p[i] = {x[0], x[1], x[2]};
      const dReal* Q = dBodyGetQuaternion(bodies[i]);
      q[i] = {Q[0], Q[1], Q[2], Q[3]};
      speeds.push_back(std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
      vmax = std::max(vmax, speeds.back());
      finite = finite && std::isfinite(x[0] + x[1] + x[2]);
    }
    dJointGroupDestroy(contacts);
    dSpaceDestroy(space);
    dWorldDestroy(world);

    peers::Row row;
    row.engine = "ode";
    row.problem = peers::PileProblem();
    row.n = K;
    row.method = "quickstep";
    row.setting_name = "h";
    row.setting = peers::kPileH;
    row.ok = finite;
    row.wall = wall;
    row.sim_time = peers::kPileT;
    row.steps = nsteps;
    row.us_per_step = 1e6 * wall / nsteps;
    row.error = peers::PileMaxPenetration(p, q, L.W);
    row.extra = vmax;
    row.peak_rss_kb = peers::PeakRssKb();
    row.contacts_end = cb.created;
    row.note = "double precision; QuickStep 20 iterations; ERP 0.2 CFM 1e-5 (defaults); " +
               std::to_string(cb.created) + " contact joints in the last step; " + peers::PileSpeedSummary(speeds);
    out.Write(row);
  }
  dCloseODE();
  return 0;
}
