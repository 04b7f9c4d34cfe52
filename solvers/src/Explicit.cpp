// Explicit integrators: RK4 and Dormand–Prince 5(4) through Boost.Odeint for Newton–Euler bodies,
// and Lie-group Euler / Runge–Kutta–Munthe-Kaas 4 (Munthe-Kaas, BIT 38, 1998; Iserles, Munthe-Kaas,
// Nørsett, Zanna, "Lie-group methods", Acta Numerica 2000, §5) for bodies on SE(3) or SO(3)×R³.

#include <mbdae/solvers/Explicit.h>

#include <chrono>
#include <cmath>
#include <new>
#include <sstream>
#include <vector>

#include <boost/numeric/odeint.hpp>

namespace mbdae {

namespace odeint = boost::numeric::odeint;

const char* to_string(ExplicitMethod m) { return m == ExplicitMethod::RK4 ? "rk4" : "dopri5"; }
const char* to_string(LieGroupMethod m) { return m == LieGroupMethod::RK4 ? "lie_rk4" : "lie_euler"; }

namespace {


void check_common(double t0, double t_end, double step, double output_every) {
  if (!(t_end > t0)) {
    std::ostringstream s;
    s << "explicit solver: t_end must be > t0, got t0 = " << t0 << ", t_end = " << t_end;
    throw SolverSettingsError(s.str());
  }
  if (!(step > 0) || !std::isfinite(step))
    throw SolverSettingsError("explicit solver: step must be > 0, got " + std::to_string(step));
  if (output_every < 0)
    throw SolverSettingsError("explicit solver: output_every must be >= 0, got " +
                              std::to_string(output_every));
}

std::string at_time(double t) {
  std::ostringstream s;
  s.precision(10);
  s << "t = " << t << " s: ";
  return s.str();
}

}  // namespace

namespace {

/// A state or derivative that is not finite (thrown from the right-hand side, caught in advance_to()).
struct NonFinite : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// RK4 / Dormand–Prince on the Newton–Euler state y = [q; v] (Explicit.h).
class ExplicitIntegrator final : public IntegratorBase {
 public:
  /// `owned`: the view `sys` when the integrator owns it (else null).
  ExplicitIntegrator(ExplicitSystem& sys, std::unique_ptr<ExplicitSystem> owned, double t0, const VecX& q0,
                     const VecX& v0, const ExplicitOptions& opt)
      : owned_(std::move(owned)), sys_(sys), opt_(opt), nq_(sys.num_q()), nv_(sys.num_v()),
        joints_(sys.num_constraints() > 0),
        t_(t0), h_(opt.step), q_(q0), v_(v0), qd_(nq_), vd_(nv_), rq_(nq_), rv_(nv_),
        y_(static_cast<size_t>(nq_ + nv_)),
        dopri_(odeint::make_controlled(opt.atol, opt.rtol, odeint::runge_kutta_dopri5<std::vector<double>>())) {
    to_y();
    min_step_ = opt.min_step > 0 ? opt.min_step : std::max(1e-14, 1e-6 * opt.step);
  }

  bool advance_to(double t_out) override {
    if (status_ != SolveStatus::Success) return false;
    const WallTimer timer(stats_);
    auto rhs = [this](const std::vector<double>& x, std::vector<double>& dxdt, double t) {
      rq_ = Eigen::Map<const VecX>(x.data(), nq_);
      rv_ = Eigen::Map<const VecX>(x.data() + nq_, nv_);
      // A NaN force makes a NaN state one stage later, and the next factorization of the joint
      // equations would then report a singular matrix: name the cause where it appears.
      if (!rq_.allFinite() || !rv_.allFinite()) throw NonFinite("the state is not finite (NaN or Inf)");
      sys_.derivative(t, rq_, rv_, qd_, vd_);
      if (!vd_.allFinite() || !qd_.allFinite())
        throw NonFinite("the accelerations are not finite (NaN or Inf): a force, a load or an expression of t "
                        "gave NaN or Inf");
      Eigen::Map<VecX>(dxdt.data(), nq_) = qd_;
      Eigen::Map<VecX>(dxdt.data() + nq_, nv_) = vd_;
      ++stats_.residual_evaluations;
    };
    try {
      while (t_ < t_out) {
        if (interrupted()) return fail(SolveStatus::Interrupted, at_time(t_) + "interrupted");
        if (stats_.steps >= opt_.max_steps)
          return fail(SolveStatus::TooMuchWork,
                      at_time(t_) + "step limit " + std::to_string(opt_.max_steps) + " reached");
        if (stats_.wall_time + timer.elapsed() > opt_.max_wall_time)
          return fail(SolveStatus::TooMuchWork, at_time(t_) + "wall-time limit " + fmt(opt_.max_wall_time) +
                                                    " s reached after " + std::to_string(stats_.steps) + " steps");
        const double remaining = t_out - t_;
        if (opt_.method == ExplicitMethod::RK4) {
          // Land on the output time (a step within 1e-9 h of it is taken to it exactly).
          const double hs = (remaining <= opt_.step * (1 + 1e-9)) ? remaining : opt_.step;
          rk4_.do_step(rhs, y_, t_, hs);
          t_ = (hs == remaining) ? t_out : t_ + hs;
          stats_.last_step = hs;
        } else {
          const bool last = h_ >= remaining;
          double hs = last ? remaining : h_;
          const double t_before = t_;
          const odeint::controlled_step_result r = dopri_.try_step(rhs, y_, t_, hs);
          if (r == odeint::fail) {
            ++stats_.rejected_steps;
            ++stats_.error_test_failures;
            h_ = hs;
            if (h_ < min_step_)
              return fail(SolveStatus::StepTooSmall, at_time(t_) + "dopri5's step " + fmt(h_) +
                                                         " s fell below its minimum " + fmt(min_step_) +
                                                         " s (error test failures): " + kStiffHint);
            continue;
          }
          stats_.last_step = t_ - t_before;
          // A step far below the given one, many times in a row: a stiff model (the step is held
          // by the stability of the fastest mode, not by the error of the motion).
          // (A step cut short to land on an output time neither counts nor resets the count.)
          if (!last) crawl_ = stats_.last_step < opt_.crawl_ratio * opt_.step ? crawl_ + 1 : 0;
          if (last) t_ = t_out;
          h_ = last ? std::max(h_, hs) : hs;  // keep the controller's suggestion
        }
        ++stats_.steps;
        from_y();
        bool changed = false;
        if (opt_.renormalize) {
          sys_.normalize(q_);
          changed = true;
        }
        if (joints_ && opt_.project_positions) {
          sys_.project_positions(t_, q_, opt_.projection_tol, kProjectionIterations);
          changed = true;
        }
        if (joints_ && opt_.project_velocities) {
          sys_.project_velocities(t_, q_, v_);
          changed = true;
        }
        if (!q_.allFinite() || !v_.allFinite())
          return fail(SolveStatus::ResidualFailure, at_time(t_) + "the state became non-finite");
        if (changed) {
          to_y();
          if (opt_.method == ExplicitMethod::Dopri5) dopri_.reset();  // FSAL derivative is stale
        }
        step_taken();
        if (opt_.max_crawl_steps > 0 && crawl_ >= opt_.max_crawl_steps)
          return fail(SolveStatus::TooMuchWork,
                      at_time(t_) + "dopri5 took " + std::to_string(crawl_) + " steps in a row shorter than " +
                          fmt(opt_.crawl_ratio * opt_.step) + " s (the last " + fmt(stats_.last_step) +
                          " s; the given step " + fmt(opt_.step) + " s): " + kStiffHint);
      }
    } catch (const NonFinite& e) {
      return fail(SolveStatus::ResidualFailure, at_time(t_) + e.what());
    } catch (const std::bad_alloc&) {
      throw;  // out of memory is not a singular matrix: the caller says where it ran out
    } catch (const std::exception& e) {
      return fail(SolveStatus::SingularMatrix, at_time(t_) + e.what());
    }
    return true;
  }

  double time() const override { return t_; }
  StateView state() const override { return StateView{t_, q_, v_, empty_, empty_}; }

 private:
  void to_y() {
    Eigen::Map<VecX>(y_.data(), nq_) = q_;
    Eigen::Map<VecX>(y_.data() + nq_, nv_) = v_;
  }
  void from_y() {
    q_ = Eigen::Map<const VecX>(y_.data(), nq_);
    v_ = Eigen::Map<const VecX>(y_.data() + nq_, nv_);
  }

  /// Gauss–Newton iterations of the position projection after a step.
  static constexpr int kProjectionIterations = 10;
  static constexpr const char* kStiffHint =
      "the model is too stiff for an explicit method (a stiff spring, contact or stop, or a fast feedback "
      "loop); use an implicit solver (generalized_alpha, ida) or soften the element";
  static std::string fmt(double x) {
    std::ostringstream s;
    s.precision(3);
    s << x;
    return s.str();
  }
  double min_step_ = 0;  // opt_.min_step, or its default
  long crawl_ = 0;       // accepted steps in a row below crawl_ratio · step

  std::unique_ptr<ExplicitSystem> owned_;
  ExplicitSystem& sys_;  // derivative() and the projections (which reuse its factorization)
  ExplicitOptions opt_;
  int nq_, nv_;
  bool joints_;
  double t_, h_;
  VecX q_, v_, qd_, vd_, rq_, rv_;
  const VecX empty_;
  std::vector<double> y_;
  odeint::runge_kutta4<std::vector<double>> rk4_;
  decltype(odeint::make_controlled(1.0, 1.0, odeint::runge_kutta_dopri5<std::vector<double>>())) dopri_;
};

}  // namespace

ExplicitMonitor::ExplicitMonitor(ExplicitSystem& sys)
    : sys_(sys), c_(sys.num_constraints()), cd_(sys.num_constraints()) {}

double ExplicitMonitor::energy(const StateView& s) { return sys_.energy(s.q, s.v); }

ConstraintViolation ExplicitMonitor::constraint_violation(const StateView& s) {
  ConstraintViolation out;
  if (sys_.num_constraints() == 0) return out;
  sys_.constraints(s.t, s.q, c_);
  sys_.constraint_velocity(s.t, s.q, s.v, cd_);
  out.position = c_.cwiseAbs().maxCoeff();
  out.velocity = cd_.cwiseAbs().maxCoeff();
  return out;
}

namespace {
/// The checks of make_explicit(), then the integrator on `sys` (owning `owned` if given).
std::unique_ptr<Integrator> checked_explicit(ExplicitSystem& sys, std::unique_ptr<ExplicitSystem> owned, double t0,
                                             const VecX& q0, const VecX& v0, const ExplicitOptions& opt) {
  check_common(t0, opt.t_end, opt.step, opt.output_every);
  if (q0.size() != sys.num_q() || v0.size() != sys.num_v())
    throw SolverSettingsError("solve_explicit: expected q of size " + std::to_string(sys.num_q()) +
                              " and v of size " + std::to_string(sys.num_v()) + ", got " +
                              std::to_string(q0.size()) + " and " + std::to_string(v0.size()));
  if (opt.method == ExplicitMethod::Dopri5 && !(opt.rtol > 0 && opt.atol > 0))
    throw SolverSettingsError("solve_explicit: rtol and atol must be > 0");
  return std::make_unique<ExplicitIntegrator>(sys, std::move(owned), t0, q0, v0, opt);
}
}  // namespace

std::unique_ptr<Integrator> make_explicit(ExplicitSystem& sys, double t0, const VecX& q0, const VecX& v0,
                                          const ExplicitOptions& opt) {
  return checked_explicit(sys, nullptr, t0, q0, v0, opt);
}

std::unique_ptr<Integrator> make_explicit(const NewtonEulerSystem& sys, double t0, const VecX& q0,
                                          const VecX& v0, const ExplicitOptions& opt) {
  auto view = std::make_unique<NewtonEulerExplicit>(sys);
  ExplicitSystem& ref = *view;
  return checked_explicit(ref, std::move(view), t0, q0, v0, opt);
}

SolveResult solve_explicit(const NewtonEulerSystem& sys, double t0, const VecX& q0, const VecX& v0,
                           const ExplicitOptions& opt, const Observer& obs) {
  const auto integ = make_explicit(sys, t0, q0, v0, opt);
  NewtonEulerMonitor monitor(sys);
  return run_to_end(monitor, *integ, opt, obs);
}

namespace {

/// Lie–Euler / RKMK4 on the Lie-group bodies (Explicit.h).
class LieGroupIntegratorImpl final : public LieGroupIntegrator {
 public:
  LieGroupIntegratorImpl(const LieGroupBodies& sys, double t0, const LieGroupState& s0, const LieGroupOptions& opt)
      : sys_(sys), opt_(opt), n_(sys.num_bodies()), t_(t0), s_(s0), stage_(s0), L1_(6 * n_), L2_(6 * n_),
        L3_(6 * n_), L4_(6 * n_), K1_(static_cast<size_t>(n_)), K2_(K1_), K3_(K1_), K4_(K1_) {
    sys_.to_coordinates(s_, q_, v_);
  }

  bool advance_to(double t_out) override {
    if (status_ != SolveStatus::Success) return false;
    const WallTimer timer(stats_);
    // The coordinates handed out follow the group state on every return.
    auto done = [&](bool ok) {
      sys_.to_coordinates(s_, q_, v_);
      return ok;
    };
    auto stop = [&](SolveStatus st, const std::string& msg) { return done(fail(st, msg)); };
    const int n = n_;
    while (t_ < t_out) {
      if (interrupted()) return stop(SolveStatus::Interrupted, at_time(t_) + "interrupted");
      if (stats_.steps >= opt_.max_steps) return stop(SolveStatus::TooMuchWork, at_time(t_) + "step limit reached");
      const double remaining = t_out - t_;
      const double h = (remaining <= opt_.step * (1 + 1e-9)) ? remaining : opt_.step;
      if (opt_.method == LieGroupMethod::Euler) {
        // g ← g exp(h ξ), ξ ← ξ + h ξ̇ (Bauer, seed 002).
        sys_.twist_rate(t_, s_, L1_);
        ++stats_.residual_evaluations;
        for (int i = 0; i < n; ++i) {
          const size_t b = static_cast<size_t>(i);
          s_.g[b] = sys_.retract(s_.g[b], h * s_.xi.segment<6>(6 * i));
        }
        s_.xi += h * L1_;
      } else {
        // RKMK4: θ = h/6 (K1 + 2K2 + 2K3 + K4), ξ_{n+1} = ξ_n + h/6 (L1 + 2L2 + 2L3 + L4).
        eval_stage(t_, 0, nullptr, nullptr, K1_, L1_);
        eval_stage(t_ + h / 2, h / 2, &K1_, &L1_, K2_, L2_);
        eval_stage(t_ + h / 2, h / 2, &K2_, &L2_, K3_, L3_);
        eval_stage(t_ + h, h, &K3_, &L3_, K4_, L4_);
        for (int i = 0; i < n; ++i) {
          const size_t b = static_cast<size_t>(i);
          const Vec6 th = (h / 6) * (K1_[b] + 2 * K2_[b] + 2 * K3_[b] + K4_[b]);
          s_.g[b] = sys_.retract(s_.g[b], th);
        }
        s_.xi += (h / 6) * (L1_ + 2 * L2_ + 2 * L3_ + L4_);
      }
      t_ = (h == remaining) ? t_out : t_ + h;
      stats_.last_step = h;
      ++stats_.steps;
      if (!s_.xi.allFinite()) return stop(SolveStatus::ResidualFailure, at_time(t_) + "the twist became non-finite");
    }
    return done(true);
  }

  double time() const override { return t_; }
  StateView state() const override { return StateView{t_, q_, v_, empty_, empty_}; }
  const LieGroupState& group_state() const override { return s_; }

 private:
  // Stage: g_i = g_n exp(a θ_prev), ξ_i = ξ_n + a L_prev; K = dexp⁻¹_{−θ}(ξ_i), L = ξ̇(t_i).
  void eval_stage(double ts, double a, const std::vector<Vec6>* Kp, const VecX* Lp, std::vector<Vec6>& K, VecX& L) {
    for (int i = 0; i < n_; ++i) {
      const size_t k = static_cast<size_t>(i);
      const Vec6 th = Kp ? Vec6(a * (*Kp)[k]) : Vec6::Zero();
      stage_.g[k] = Kp ? sys_.retract(s_.g[k], th) : s_.g[k];
      stage_.xi.segment<6>(6 * i) = s_.xi.segment<6>(6 * i) + (Lp ? Vec6(a * Lp->segment<6>(6 * i)) : Vec6::Zero());
      K[k] = sys_.dexpinv(th, stage_.xi.segment<6>(6 * i));
    }
    sys_.twist_rate(ts, stage_, L);
    ++stats_.residual_evaluations;
  }

  const LieGroupBodies& sys_;
  LieGroupOptions opt_;
  int n_;
  double t_;
  LieGroupState s_, stage_;
  VecX q_, v_, L1_, L2_, L3_, L4_;
  const VecX empty_;
  std::vector<Vec6> K1_, K2_, K3_, K4_;
};

}  // namespace

std::unique_ptr<LieGroupIntegrator> make_lie_group(const LieGroupBodies& sys, double t0, const LieGroupState& s0,
                                                   const LieGroupOptions& opt) {
  check_common(t0, opt.t_end, opt.step, opt.output_every);
  const int n = sys.num_bodies();
  if (static_cast<int>(s0.g.size()) != n || s0.xi.size() != 6 * n)
    throw SolverSettingsError("solve_lie_group: state does not match the " + std::to_string(n) + " bodies");
  return std::make_unique<LieGroupIntegratorImpl>(sys, t0, s0, opt);
}

double LieGroupMonitor::energy(const StateView&) { return sys_.energy(integ_.group_state()); }

SolveResult solve_lie_group(const LieGroupBodies& sys, double t0, const LieGroupState& s0,
                            const LieGroupOptions& opt, const Observer& obs,
                            LieGroupState* final_state) {
  const auto integ = make_lie_group(sys, t0, s0, opt);
  LieGroupMonitor monitor(sys, *integ);
  SolveResult res = run_to_end(monitor, *integ, opt, obs);
  if (final_state) *final_state = integ->group_state();
  return res;
}

}  // namespace mbdae
