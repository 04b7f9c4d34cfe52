// mbdae's side of the chain comparison with the peers: work–precision sweeps of every
// mbdae solver on the N-link chain (cases in PeerCommon.h), and the reference tip positions the
// peer programs read.
//
// Reference (--make-reference FILE): SUNDIALS IDA through mbdae (stabilized index 2, KLU) at
// rtol 1e-12, atol 1e-14. Its own error is estimated (N ≤ 64) by a second run at rtol 1e-11, written
// beside it (column ref_error_estimate, m); the peers' tightest runs give an independent check
// (scripts/bench-peers prints the distance of Simbody's tightest run to this reference).
//
// Sweep, per case and N, cheapest setting first:
//   generalized_alpha   h = 1e-2 … 2e-5 s (ρ∞ = 0.8, Newton tolerance 1e-10, KLU)
//   trapezoidal_index2  h = 1e-2 … 2e-5 s
//   ida                 rtol = 1e-4 … 1e-10, atol = 1e-2 rtol (KLU)
//   dopri5              rtol = 1e-4 … 1e-10, atol = 1e-2 rtol (explicit, Newton–Euler bodies with
//                       joints at acceleration level, positions and velocities projected after
//                       every step)
//   rk4                 h = 1e-2 … 2e-5 s (same formulation as dopri5)
//   dopri5_noproj, rk4_noproj   the same without projection (only with --methods)
// A setting whose predicted wall time exceeds --budget is skipped (a row with skipped = 1).
// Wall time: std::chrono::steady_clock around the solve only (model building, prepare() and the
// projection of the initial state are not timed), median of up to 5 runs while their sum < 0.3 s.
//
// Usage: mbdae_chain_wp [--sizes 4,16,64] [--cases spherical,revolute,stiff_revolute,damped_revolute]
//                       [--reference FILE] [--csv FILE] [--budget SECONDS]
//                       [--methods generalized_alpha,trapezoidal_index2,ida,dopri5,rk4,...]
//        mbdae_chain_wp --make-reference FILE [--sizes ...] [--cases ...]

#include <memory>
#include <stdexcept>

#include <mbdae/solvers/Explicit.h>
#include <mbdae/solvers/Simulation.h>

#include "PeerCommon.h"

// bench/ links mbdae::mbdae only; the model builders are compiled in here (as in chain_bench.cpp).
#include "../../validation/src/Models.cpp"

using namespace mbdae;
namespace models = mbdae::validation::models;

namespace {

System ChainModel(const std::string& problem, int n) {
  System s = models::Chain(n, peers::IsRevolute(problem) ? models::ChainJoint::Revolute
                                                         : models::ChainJoint::Spherical);
  if (peers::IsStiff(problem)) {
    for (int i = 0; i < n; ++i)
      s.add_torsional_spring_damper("spring" + std::to_string(i), i == 0 ? "ground" : "bar" + std::to_string(i - 1),
                                    "bar" + std::to_string(i), Vec3(i, 0, 0), Vec3::UnitY(), peers::kStiffK,
                                    peers::SpringDamping(problem));
  }
  return s;
}

peers::Tip ToTip(const Vec3& p) { return {p.x(), p.y(), p.z()}; }

struct Outcome {
  bool ok = false;
  double t_reached = 0;
  peers::Tip tip;
  SolverStats stats;
  std::string message;
};

/// Implicit solvers through simulate(); the tip of the last bar at T.
Outcome RunImplicit(const PreparedSystem& p, int n, SolverType solver, double h, double rtol, double atol,
                    double t_end = peers::kT) {
  SimulationSettings s;
  s.solver = solver;
  s.t_end = t_end;
  s.step = h;
  s.rho_inf = 0.8;
  s.output_every = 0;
  s.rtol = rtol;
  s.atol = atol;
  Outcome o;
  VecX q_end;
  const SolveResult r = simulate(*p.system, 0, p.q0, p.v0, s, [&](const StateView& st) {
    q_end = st.q;
    return true;
  });
  o.ok = r.ok() && q_end.allFinite();
  o.stats = r.stats;
  o.message = r.message;
  o.t_reached = r.t_reached;
  if (q_end.size()) o.tip = ToTip(p.system->position(n - 1, q_end, Vec3(0.5, 0, 0)));
  return o;
}

Outcome RunExplicit(const NewtonEulerSystem& ne, const VecX& q0, const VecX& v0, int n, ExplicitMethod m,
                    double h, double rtol, double t_end = peers::kT, bool project = true) {
  ExplicitOptions opt;
  opt.method = m;
  opt.t_end = t_end;
  opt.step = h;
  opt.rtol = rtol;
  opt.atol = 1e-2 * rtol;
  opt.project_positions = project;
  opt.project_velocities = project;
  Outcome o;
  VecX q_end;
  const SolveResult r = solve_explicit(ne, 0, q0, v0, opt, [&](const StateView& st) {
    q_end = st.q;
    return true;
  });
  o.ok = r.ok() && q_end.allFinite();
  o.stats = r.stats;
  o.message = r.message;
  o.t_reached = r.t_reached;
  if (q_end.size())
    o.tip = ToTip(ne.reference_position(n - 1, q_end) + ne.rotation(n - 1, q_end) * Vec3(0.5, 0, 0));
  return o;
}

const std::vector<double> kSteps = {1e-2, 5e-3, 2e-3, 1e-3, 5e-4, 2e-4, 1e-4, 5e-5, 2e-5};
const std::vector<double> kTols = {1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10};

int MakeReference(const peers::ChainArgs& a) {
  std::ofstream f(a.make_reference);
  if (!f) {
    std::cerr << "cannot write " << a.make_reference << "\n";
    return 1;
  }
  f << "problem,n,tip_x,tip_y,tip_z,ref_error_estimate,wall_s,steps,source\n";
  f.precision(17);
  int status = 0;
  for (const auto& problem : a.cases)
    for (const int n : a.sizes) {
      const PreparedSystem p = prepare(ChainModel(problem, n));
      const double t0 = peers::Now();
      const Outcome o = RunImplicit(p, n, SolverType::Ida, 1e-3, 1e-12, 1e-14);
      const double wall = peers::Now() - t0;
      // Self-check at rtol 1e-11 for N ≤ 64 only (it doubles the cost); larger N are checked
      // against Simbody's tightest run by scripts/bench-peers.
      const Outcome o2 = n <= 64 ? RunImplicit(p, n, SolverType::Ida, 1e-3, 1e-11, 1e-13) : o;
      const double est = n <= 64 ? peers::Distance(o.tip, o2.tip) : NAN;
      std::printf("reference %-15s N = %5d: tip (%.12f, %.12f, %.12f), |rtol 1e-12 - rtol 1e-11| = %.2e m, "
                  "%ld steps, %.2f s%s%s\n",
                  problem.c_str(), n, o.tip.x, o.tip.y, o.tip.z, est, o.stats.steps, wall,
                  o.ok && o2.ok ? "" : "  FAILED: ", o.ok ? o2.message.c_str() : o.message.c_str());
      std::fflush(stdout);
      if (!o.ok || !o2.ok) {
        status = 1;
        continue;
      }
      f << problem << ',' << n << ',' << o.tip.x << ',' << o.tip.y << ',' << o.tip.z << ',' << est << ','
        << wall << ',' << o.stats.steps << ",mbdae IDA rtol 1e-12 atol 1e-14 (KLU)\n";
    }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  const char* usage =
      "usage: mbdae_chain_wp [--sizes 4,16,64] [--cases spherical,revolute,stiff_revolute,damped_revolute] "
      "[--reference FILE] [--csv FILE] [--budget S] [--methods m1,m2,...]\n"
      "       mbdae_chain_wp --make-reference FILE [--sizes ...] [--cases ...]\n";
  const peers::ChainArgs a = peers::ParseChainArgs(argc, argv, usage);
  if (!a.make_reference.empty()) return MakeReference(a);

  const auto ref = peers::ReadReference(a.reference);
  peers::CsvOut out(a.csv);
  peers::PrintHeader();
  for (const auto& problem : a.cases)
    for (const int n : a.sizes) {
      const auto it = ref.find(problem + "/" + std::to_string(n));
      const System model = ChainModel(problem, n);
      const PreparedSystem p = prepare(model);
      NewtonEulerSystem ne(model);
      VecX q0, v0;
      ne.initial_state(q0, v0);

      struct Setting {
        std::string method, name;
        double value;
        bool fixed_step;
      };
      std::vector<Setting> settings;
      std::vector<std::string> methods = {"generalized_alpha", "trapezoidal_index2", "ida", "dopri5", "rk4"};
      if (!a.methods.empty()) methods = a.methods;
      for (const std::string& m : methods) {
        const bool fixed = m == "generalized_alpha" || m == "trapezoidal_index2" || m == "rk4" ||
                           m == "rk4_noproj";
        for (const double v : fixed ? kSteps : kTols) settings.push_back({m, fixed ? "h" : "rtol", v, fixed});
      }

      auto run = [&](const Setting& st, double t_end) {
        Outcome o;
        if (st.method == "generalized_alpha")
          o = RunImplicit(p, n, SolverType::GeneralizedAlpha, st.value, 1e-6, 1e-8, t_end);
        else if (st.method == "trapezoidal_index2")
          o = RunImplicit(p, n, SolverType::TrapezoidalIndex2, st.value, 1e-6, 1e-8, t_end);
        else if (st.method == "ida")
          o = RunImplicit(p, n, SolverType::Ida, 1e-3, st.value, 1e-2 * st.value, t_end);
        else if (st.method == "dopri5")
          o = RunExplicit(ne, q0, v0, n, ExplicitMethod::Dopri5, 1e-3, st.value, t_end);
        else if (st.method == "dopri5_noproj")
          o = RunExplicit(ne, q0, v0, n, ExplicitMethod::Dopri5, 1e-3, st.value, t_end, false);
        else if (st.method == "rk4_noproj")
          o = RunExplicit(ne, q0, v0, n, ExplicitMethod::RK4, st.value, 1e-8, t_end, false);
        else if (st.method == "rk4")
          o = RunExplicit(ne, q0, v0, n, ExplicitMethod::RK4, st.value, 1e-8, t_end);
        else
          throw std::invalid_argument("unknown method " + st.method);
        return o;
      };
      // per method: wall time (scaled to T if the run stopped early) and setting of the last run,
      // for the budget prediction; the first setting of a method is predicted from a probe over T/50.
      std::map<std::string, double> last_wall, last_value, best_error;
      for (const Setting& st : settings) {
        if (best_error.count(st.method) && best_error[st.method] < peers::kErrorFloor) continue;  // converged
        if (!last_wall.count(st.method)) {
          const double t0 = peers::Now();
          double scale = 50;
          try {
            const Outcome probe = run(st, peers::kT / 50);
            if (probe.t_reached > 0) scale = peers::kT / probe.t_reached;
          } catch (const std::exception&) {
          }
          last_wall[st.method] = (peers::Now() - t0) * scale;
          last_value[st.method] = st.value;
        }
        peers::Row r;
        r.engine = "mbdae";
        r.problem = problem;
        r.n = n;
        r.method = st.method;
        r.setting_name = st.name;
        r.setting = st.value;
        {
          const double predicted = st.fixed_step ? last_wall[st.method] * last_value[st.method] / st.value
                                                 : (st.value == last_value[st.method] ? 1.0 : 2.0) * last_wall[st.method];
          if (predicted > a.budget) {
            r.skipped = true;
            r.note = "predicted " + std::to_string(predicted) + " s > budget";
            r.peak_rss_kb = peers::PeakRssKb();
            out.Write(r);
            continue;
          }
        }
        Outcome o;
        std::string error;
        try {
          r.wall = peers::TimedMedian([&] {
            o = run(st, peers::kT);
            return o.ok;
          });
        } catch (const std::exception& e) {
          o.ok = false;
          o.message = e.what();
        }
        r.ok = o.ok;
        r.steps = o.stats.steps;
        r.us_per_step = r.steps ? 1e6 * r.wall / static_cast<double>(r.steps) : NAN;
        r.newton = o.stats.newton_iterations;
        r.factorizations = o.stats.factorizations;
        if (it != ref.end() && o.ok) r.error = peers::Distance(o.tip, it->second);
        if (!o.ok) r.note = o.message.substr(0, 120);
        if (o.ok && std::isfinite(r.error))
          best_error[st.method] = std::min(best_error.count(st.method) ? best_error[st.method] : INFINITY, r.error);
        r.peak_rss_kb = peers::PeakRssKb();
        out.Write(r);
        if (std::isfinite(r.wall)) {
          last_wall[st.method] = o.t_reached > 0 ? r.wall * peers::kT / o.t_reached : r.wall;
          last_value[st.method] = st.value;
        }
      }
    }
  return 0;
}
