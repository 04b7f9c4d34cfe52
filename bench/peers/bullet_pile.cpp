// Bullet (libbullet-dev 3.24, the default single-precision build) on the pile of PeerCommon.h
// (spheres or boxes, --shape), for the side-by-side comparison with mbdae's impulse stepper:
// btDiscreteDynamicsWorld with btDbvtBroadphase and btSequentialImpulseConstraintSolver (default
// solver settings: 10 iterations, split impulse), btSphereShape (r = 0.1 m, m = 1 kg, inertia
// 2/5 m r²) or btBoxShape (0.2 × 0.15 × 0.1 m, 1 kg, the box's inertia; the default collision
// margin 0.04 m, which btBoxShape keeps inside its half extents, and box–box pairs go through
// btBoxBoxCollisionAlgorithm, box–plane through btConvexPlaneCollisionAlgorithm: both use the
// exact box), static btStaticPlaneShape floor and walls; friction 0.5 and restitution 0 on every
// body and plane (Bullet combines them by product: 0.5 · 1 for sphere–plane... so the planes get
// friction 1 and the pair's friction is 0.5, spheres pairwise 0.5·0.5 would be 0.25, hence the
// combine callback below that takes the minimum, i.e. 0.5 everywhere). Fixed step
// h = 1e-3 s: stepSimulation(h, 0) (no substeps, no interpolation). Deactivation (sleeping) is
// left at Bullet's default, as a user would; the note column says how many bodies sleep at the end.
// Wall time per simulated second, max speed and max penetration at the end (2 s unless --t-end;
// PeerCommon.h), and the contact points of the persistent manifolds after the last step.
// Usage: bullet_pile [--shape sphere|box] [--sizes 512,4096] [--t-end S] [--csv FILE]

#include <btBulletDynamicsCommon.h>

#include <memory>

#include "PeerCommon.h"

namespace {

bool FrictionCombineMin(btManifoldPoint& cp, const btCollisionObjectWrapper* a, int, int,
                        const btCollisionObjectWrapper* b, int, int) {
  cp.m_combinedFriction = std::min(a->getCollisionObject()->getFriction(), b->getCollisionObject()->getFriction());
  cp.m_combinedRestitution = 0;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::string csv;
  const std::vector<int> sizes = peers::ParsePileSizes(argc, argv, csv);
  peers::CsvOut out(csv);
  gContactAddedCallback = FrictionCombineMin;
  peers::PrintPileHeader();
  const bool box = peers::kPileShape == peers::PileShape::Box;
  for (const int K : sizes) {
    const peers::PileLayout L = peers::MakePileLayout(K);
    peers::CheckPileLayout(L);
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher(&config);
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    btDiscreteDynamicsWorld world(&dispatcher, &broadphase, &solver, &config);
    world.setGravity(btVector3(0, 0, -9.81));

    std::vector<std::unique_ptr<btCollisionShape>> shapes;
    std::vector<std::unique_ptr<btRigidBody>> bodies;
    std::vector<std::unique_ptr<btDefaultMotionState>> states;
    auto add_plane = [&](const btVector3& normal, double offset) {  // n·x = offset, solid behind n
      shapes.push_back(std::make_unique<btStaticPlaneShape>(normal, btScalar(offset)));
      btRigidBody::btRigidBodyConstructionInfo info(0, nullptr, shapes.back().get());
      info.m_friction = peers::kPileMu;
      info.m_restitution = 0;
      bodies.push_back(std::make_unique<btRigidBody>(info));
      bodies.back()->setCollisionFlags(bodies.back()->getCollisionFlags() |
                                       btCollisionObject::CF_CUSTOM_MATERIAL_CALLBACK);
      world.addRigidBody(bodies.back().get());
    };
    add_plane(btVector3(0, 0, 1), 0);
    add_plane(btVector3(1, 0, 0), -L.W);
    add_plane(btVector3(-1, 0, 0), -L.W);
    add_plane(btVector3(0, 1, 0), -L.W);
    add_plane(btVector3(0, -1, 0), -L.W);
    const size_t first_sphere = bodies.size();
    std::unique_ptr<btCollisionShape> shape;
    if (box) shape = std::make_unique<btBoxShape>(btVector3(peers::kBoxHalf[0], peers::kBoxHalf[1], peers::kBoxHalf[2]));
    else shape = std::make_unique<btSphereShape>(btScalar(peers::kPileR));
    const auto I = peers::PileInertia();
    const btVector3 inertia(I[0], I[1], I[2]);
    for (int i = 0; i < K; ++i) {
      btTransform X;
      X.setIdentity();
      X.setOrigin(btVector3(L.p[i][0], L.p[i][1], L.p[i][2]));
      X.setRotation(btQuaternion(L.q[i][1], L.q[i][2], L.q[i][3], L.q[i][0]));  // (x, y, z, w)
      states.push_back(std::make_unique<btDefaultMotionState>(X));
      btRigidBody::btRigidBodyConstructionInfo info(btScalar(peers::kPileMass), states.back().get(), shape.get(),
                                                    inertia);
      info.m_friction = peers::kPileMu;
      info.m_restitution = 0;
      bodies.push_back(std::make_unique<btRigidBody>(info));
      bodies.back()->setCollisionFlags(bodies.back()->getCollisionFlags() |
                                       btCollisionObject::CF_CUSTOM_MATERIAL_CALLBACK);
      world.addRigidBody(bodies.back().get());
    }

    const long nsteps = std::lround(peers::kPileT / peers::kPileH);
    const double t0 = peers::Now();
    for (long k = 0; k < nsteps; ++k) world.stepSimulation(btScalar(peers::kPileH), 0);
    const double wall = peers::Now() - t0;

    long contacts = 0;
    for (int m = 0; m < dispatcher.getNumManifolds(); ++m)
      contacts += dispatcher.getManifoldByIndexInternal(m)->getNumContacts();
    std::vector<std::array<double, 3>> p(K);
    std::vector<peers::Quat> q(K);
    double vmax = 0;
    std::vector<double> speeds;
    int sleeping = 0;
    bool finite = true;
    for (int i = 0; i < K; ++i) {
      const btRigidBody& b = *bodies[first_sphere + i];
      const btVector3 x = b.getCenterOfMassPosition();
      p[i] = {x.x(), x.y(), x.z()};
      const btQuaternion Q = b.getOrientation();
      q[i] = {Q.w(), Q.x(), Q.y(), Q.z()};
      speeds.push_back(double(b.getLinearVelocity().length()));
      vmax = std::max(vmax, speeds.back());
      sleeping += b.getActivationState() == ISLAND_SLEEPING;
      finite = finite && std::isfinite(x.x() + x.y() + x.z());
    }
    for (auto& b : bodies) world.removeRigidBody(b.get());

    peers::Row row;
    row.engine = "bullet";
    row.problem = peers::PileProblem();
    row.n = K;
    row.method = "seq_impulse";
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
    row.contacts_end = contacts;
    row.note = "single precision; default solver (10 iterations); " + std::to_string(sleeping) + " of " +
               std::to_string(K) + " bodies asleep at the end; " + std::to_string(contacts) +
               " manifold points after the last step; " + peers::PileSpeedSummary(speeds);
    out.Write(row);
  }
  return 0;
}
