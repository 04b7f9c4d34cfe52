// mbdae's side of the pile comparison (spheres or boxes, --shape): the impulse stepper
// (ImpulseStepper.h) on the pile of PeerCommon.h (boxes: box–box manifolds from face clipping,
// up to four points per pair, and box–plane corners): PGS tolerance 1e-6 m/s, at most 20 velocity sweeps and 20 split-impulse
// sweeps per step (--max-sweeps N sets both; docs/benchmarks.md has the settling this gives beside
// 100 sweeps), split impulse with the stepper's defaults, no sleeping; and the same end-of-run
// metrics as the peers: wall time per simulated second, max speed and max penetration at the end
// (computed from the final poses by PeerCommon.h, not by the stepper), and the contact points of
// the last step.
// Usage: mbdae_pile [--shape sphere|box] [--sizes 512,4096] [--t-end S] [--max-sweeps N] [--csv FILE]

#include <mbdae/solvers/ImpulseStepper.h>

#include "PeerCommon.h"

using namespace mbdae;

int main(int argc, char** argv) {
  std::string csv;
  int sweeps = 20;
  std::vector<char*> args{argv[0]};
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--max-sweeps" && i + 1 < argc) sweeps = std::atoi(argv[++i]);
    else args.push_back(argv[i]);
  }
  const std::vector<int> sizes = peers::ParsePileSizes(static_cast<int>(args.size()), args.data(), csv);
  peers::CsvOut out(csv);
  peers::PrintPileHeader();
  const bool box = peers::kPileShape == peers::PileShape::Box;
  const Vec3 half(peers::kBoxHalf[0], peers::kBoxHalf[1], peers::kBoxHalf[2]);
  for (const int K : sizes) {
    const peers::PileLayout L = peers::MakePileLayout(K);
    peers::CheckPileLayout(L);
    System sys;
    sys.gravity = Vec3(0, 0, -9.81);
    const double r = peers::kPileR, mu = peers::kPileMu;
    for (int i = 0; i < K; ++i) {
      RigidBody b;
      b.name = "s" + std::to_string(i);
      b.mass = peers::kPileMass;
      const auto I = peers::PileInertia();
      b.inertia << I[0], I[1], I[2], 0, 0, 0;
      b.position = Vec3(L.p[i][0], L.p[i][1], L.p[i][2]);
      const peers::Mat R = peers::QuatToMat(L.q[i]);
      for (int a = 0; a < 3; ++a)
        for (int c = 0; c < 3; ++c) b.orientation(a, c) = R[a][c];
      sys.add_body(b);
      sys.add_contact(box ? make_box(b.name, b.name, half, mu, 0.0) : make_sphere(b.name, b.name, r, mu, 0.0));
    }
    sys.add_contact(make_plane("floor", Vec3::UnitZ(), 0.0, mu));
    sys.add_contact(make_plane("wall_x-", Vec3::UnitX(), -L.W, mu));
    sys.add_contact(make_plane("wall_x+", -Vec3::UnitX(), -L.W, mu));
    sys.add_contact(make_plane("wall_y-", Vec3::UnitY(), -L.W, mu));
    sys.add_contact(make_plane("wall_y+", -Vec3::UnitY(), -L.W, mu));
    NewtonEulerSystem ne(sys);
    VecX q0, v0;
    ne.initial_state(q0, v0);
    ImpulseOptions o;
    o.step = peers::kPileH;
    o.t_end = peers::kPileT;
    o.record_per_step = true;  // for the contact points of the last step (one small record per step)
    o.pgs_tolerance = 1e-6;
    o.pgs_max_iterations = sweeps;
    o.position_iterations = sweeps;
    VecX q_end, v_end;
    const double t0 = peers::Now();
    const ImpulseResult res = solve_impulse(ne, 0, q0, v0, o, [&](const StateView& st) {
      q_end = st.q;
      v_end = st.v;
      return true;
    });
    const double wall = peers::Now() - t0;
    std::vector<std::array<double, 3>> p(K);
    std::vector<peers::Quat> q(K);
    double vmax = 0;
    std::vector<double> speeds;
    for (int i = 0; i < K; ++i) {
      const Vec3 x = ne.com_position(i, q_end);
      p[i] = {x.x(), x.y(), x.z()};
      const auto Q = q_end.segment<4>(7 * i + 3);  // NewtonEuler.h: [x_C, Q] per body, Q = (w, x, y, z)
      q[i] = {Q[0], Q[1], Q[2], Q[3]};
      speeds.push_back(ne.com_velocity(i, v_end).norm());
      vmax = std::max(vmax, speeds.back());
    }
    peers::Row row;
    row.engine = "mbdae";
    row.problem = peers::PileProblem();
    row.n = K;
    row.method = "impulse_pgs" + std::to_string(sweeps);
    row.setting_name = "h";
    row.setting = o.step;
    row.ok = res.ok();
    row.wall = wall;
    row.sim_time = peers::kPileT;
    row.steps = res.result.stats.steps;
    row.us_per_step = 1e6 * wall / std::max(1L, row.steps);
    row.error = peers::PileMaxPenetration(p, q, L.W);
    row.extra = vmax;
    row.peak_rss_kb = peers::PeakRssKb();
    row.contacts_end = res.pgs.per_step.empty() ? 0 : res.pgs.per_step.back().contacts;
    char note[200];
    std::snprintf(note, sizeof note, "PGS sweeps/step %.1f; steps at the %d-sweep cap %ld; %ld contact points in the last step",
                  double(res.pgs.total_iterations) / std::max(1L, row.steps), sweeps, res.pgs.steps_at_cap, row.contacts_end);
    row.note = res.ok() ? std::string(note) + "; " + peers::PileSpeedSummary(speeds) : res.result.message;
    out.Write(row);
  }
  return 0;
}
