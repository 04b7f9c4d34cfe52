// Generalized-α (index 3) and trapezoidal index-2 integrators; equations in GeneralizedAlpha.h.

#include <mbdae/solvers/GeneralizedAlpha.h>

#include <chrono>
#include <functional>
#include <algorithm>
#include <cmath>
#include <limits>
#include <new>
#include <sstream>
#include <vector>

#include "ConsistentAccelerations.h"
#include "Kkt.h"
#include <mbdae/solvers/Assembly.h>
#include <mbdae/solvers/Sensitivity.h>
#include <mbdae/solvers/SparseLu.h>

namespace mbdae {

const char* to_string(AlphaFormulation f) {
  return f == AlphaFormulation::StabilizedIndex2 ? "index2_ggl" : "index3";
}

AlphaParameters chung_hulbert(double rho) {
  if (!(rho >= 0 && rho <= 1)) {
    std::ostringstream s;
    s << "rho_inf must be in [0, 1], got " << rho;
    throw SolverSettingsError(s.str());
  }
  AlphaParameters p;
  p.alpha_m = (2 * rho - 1) / (rho + 1);
  p.alpha_f = rho / (rho + 1);
  p.gamma = 0.5 - p.alpha_m + p.alpha_f;
  p.beta = 0.25 * (1 - p.alpha_m + p.alpha_f) * (1 - p.alpha_m + p.alpha_f);
  return p;
}

namespace {

/// Position: index 3. Velocity: index 2 (trapezoidal). Ggl: stabilized index 2 (both levels).
enum class Level { Position, Velocity, Ggl };

template <class V>
double inf_norm(const V& x) {
  return x.size() ? x.cwiseAbs().maxCoeff() : 0.0;
}

/// Sensitivities: iterations on the differentiated step equations at most, and the relative
/// correction at which they stop (well above the differences' noise of about 1e-10); a run whose
/// corrections still contract after the last iteration stops, naming the parameter.
constexpr int kSensitivityIterations = 6;
constexpr double kSensitivityTolerance = 1e-8;

class Newmark {
 public:
  Newmark(const ConstrainedSystem& sys, AlphaParameters p, Level level, const NewmarkOptions& opt,
          const char* name)
      : sys_(sys), ws_(sys.make_workspace()), p_(p), level_(level), opt_(opt), name_(name), n_(sys.num_coordinates()),
        m_(sys.num_constraints()), K_(sys) {
    for (VecX* x : {&q_, &v_, &qdd_, &a_, &qn_, &vn_, &qddn_, &an_, &qddp_, &r_}) x->setZero(n_);
    for (VecX* x : {&mat_q_, &mat_v_, &mat_qdd_}) x->setZero(n_);
    for (VecX* x : {&lam_, &lamn_, &lamp_, &c_, &mat_lam_}) x->setZero(m_);
    rhs_.setZero(n_ + m_);
    if (level_ == Level::Ggl) {
      P_ = std::make_unique<detail::Kkt>(sys);
      Cnow_ = sys.jacobian_pattern();
      cp_.setZero(m_);
      dqp_.setZero(n_);
      rhs2_.setZero(n_ + m_);
    }
    // Velocity-level (nonholonomic) rows are enforced at velocity level also by the index-3
    // scheme, exactly as the trapezoidal index-2 scheme enforces every row.
    vel_row_.assign(static_cast<size_t>(m_), 0);
    for (int r = 0; r < m_; ++r)
      if (sys_.is_velocity_level(r)) {
        vel_row_[static_cast<size_t>(r)] = 1;
        has_vel_rows_ = true;
      }
    if (has_vel_rows_ || level_ == Level::Ggl) {
      cv_.setZero(m_);
      for (int c = 0; c < K_.C.outerSize(); ++c)
        for (SparseMatrix::InnerIterator it(K_.C, c); it; ++it)
          vel_entry_.push_back(vel_row_[static_cast<size_t>(it.row())]);
    }
  }

  /// Sets the initial state; computes consistent accelerations and multipliers from the KKT
  /// system. Returns false (status_/message_ set) if that fails.
  bool init(double t0, const VecX& q0, const VecX& v0) {
    if (!(opt_.step > 0)) throw SolverSettingsError(std::string(name_) + ": step must be > 0");
    if (q0.size() != n_ || v0.size() != n_)
      throw SolverSettingsError(std::string(name_) + ": initial state has the wrong size");
    h_min_ = opt_.min_step > 0 ? opt_.min_step : opt_.step * 1e-6;
    h_cur_ = opt_.step;
    t_ = t0;
    qn_ = q0;
    vn_ = v0;
    if (opt_.compute_initial_accelerations) {
      try {
        initial_accelerations(sys_, t0, qn_, vn_, qddn_, lamn_);
      } catch (const std::bad_alloc&) {
        throw;  // out of memory is not a singular matrix: the caller says where it ran out
      } catch (const std::exception& e) {
        status_ = SolveStatus::SingularMatrix;
        message_ = std::string(name_) + " at t = " + std::to_string(t0) + " s: " + e.what();
        return false;
      }
    }
    an_ = qddn_;
    ++state_stamp_;
    if (sens_) start_sensitivities(t0);
    return true;
  }

  /// Sensitivities of the state to parameters (Sensitivity.h), set before init().
  struct Sensitivity {
    std::vector<ParameterSystems> params;
    std::vector<ConstrainedSystem::Workspace> ws_minus, ws_plus;
    StateSensitivities s;  // at the current state
    MatX sa;               // S_a, the algorithmic accelerations'
    VecX dq, dv, qd, vd, rm, rp, cm, cp, cpar, cvpar, cv, g, rhs, x;
    SparseMatrix G;  // ∂Ċ/∂q at the step's state (velocity-level rows)
  };
  std::unique_ptr<Sensitivity> sens_;

  /// The sensitivities of state(): where state() gives the accelerations and multipliers solved at
  /// the output state (t, q, v), theirs are the directional central differences of that solve for
  /// the systems at p ± δ at (q ± δ S_q, v ± δ S_v) (as at the start, start_sensitivities()); else
  /// the step's own.
  const StateSensitivities& output_sensitivities() const {
    const Sensitivity& S = *sens_;
    (void)state();  // forms out_ok_ for this state
    if (m_ == 0 || last_compliant_ || !out_ok_) return S.s;
    if (sens_out_stamp_ != state_stamp_) {
      sens_out_stamp_ = state_stamp_;
      sens_out_ = S.s;
      VecX am, lm, ap, lp;
      for (int k = 0; k < static_cast<int>(S.params.size()); ++k) {
        const ParameterSystems& ps = S.params[static_cast<size_t>(k)];
        const double d = ps.delta;
        initial_accelerations(*ps.minus, t_, qn_ - d * S.s.q.col(k), vn_ - d * S.s.v.col(k), am, lm);
        initial_accelerations(*ps.plus, t_, qn_ + d * S.s.q.col(k), vn_ + d * S.s.v.col(k), ap, lp);
        sens_out_.a.col(k) = (ap - am) / (2 * d);
        sens_out_.lambda.col(k) = (lp - lm) / (2 * d);
      }
    }
    return sens_out_;
  }
  mutable StateSensitivities sens_out_;  // output_sensitivities() of the state with stamp sens_out_stamp_
  mutable long sens_out_stamp_ = -1;

  /// S_q̈,0 and S_λ,0 (S_q,0 and S_v,0 given): directional central differences of the consistent
  /// initial accelerations and multipliers of the systems at p ± δ.
  void start_sensitivities(double t0) {
    Sensitivity& S = *sens_;
    const int P = static_cast<int>(S.params.size());
    S.s.a.setZero(n_, P);
    S.s.lambda.setZero(m_, P);
    if (opt_.compute_initial_accelerations) {
      VecX am, lm, ap, lp;
      for (int k = 0; k < P; ++k) {
        const ParameterSystems& ps = S.params[static_cast<size_t>(k)];
        const double d = ps.delta;
        initial_accelerations(*ps.minus, t0, qn_ - d * S.s.q.col(k), vn_ - d * S.s.v.col(k), am, lm);
        initial_accelerations(*ps.plus, t0, qn_ + d * S.s.q.col(k), vn_ + d * S.s.v.col(k), ap, lp);
        S.s.a.col(k) = (ap - am) / (2 * d);
        S.s.lambda.col(k) = (lp - lm) / (2 * d);
      }
    }
    S.sa = S.s.a;
  }

  /// The sensitivities of the accepted step t → t + h (state n in qn_ ..., n+1 in q_ ...), by
  /// the equations of Sensitivity.h. False (message_ set) on a compliant step or a singular matrix.
  bool sensitivity_step(double t, double h) {
    Sensitivity& S = *sens_;
    const double am = p_.alpha_m, af = p_.alpha_f, be = p_.beta, ga = p_.gamma;
    const double t1 = t + h;
    const double bp = (1 - am) / (h * h * be * (1 - af));
    const double gp = ga / (h * be);
    const double fa = (1 - af) / (1 - am);
    std::ostringstream why;
    why << name_ << " at t = " << t1 << " s: ";
    if (compliant_ > 0) {
      why << "the step was taken with compliant constraints (a singular configuration, "
             "solver.singular_regularization); the sensitivities are not defined there";
      message_ = why.str();
      return false;
    }
    // The exact Jacobian of the step at its converged state (the iteration's may be older).
    if (!refresh(t1, h, bp, gp)) {
      why << "the step's iteration matrix is singular; no sensitivities";
      message_ = why.str();
      return false;
    }
    const int P = static_cast<int>(S.params.size());
    const bool vel_all = level_ == Level::Velocity;
    if (vel_all || has_vel_rows_) sys_.assemble_velocity_jacobian(ws_, t1, q_, v_, S.G);
    for (int k = 0; k < P; ++k) {
      const ParameterSystems& ps = S.params[static_cast<size_t>(k)];
      ConstrainedSystem::Workspace& wm = S.ws_minus[static_cast<size_t>(k)];
      ConstrainedSystem::Workspace& wp = S.ws_plus[static_cast<size_t>(k)];
      const double d = ps.delta;
      // Predictors: S_a,n+1 with S_q̈,n+1 = 0, and the S_q, S_v it gives.
      const VecX sa_pred = (af * S.s.a.col(k) - am * S.sa.col(k)) / (1 - am);
      S.dq = S.s.q.col(k) + h * S.s.v.col(k) + h * h * (0.5 - be) * S.sa.col(k) + h * h * be * sa_pred;
      S.dv = S.s.v.col(k) + h * (1 - ga) * S.sa.col(k) + h * ga * sa_pred;
      // The defect g of the differentiated step equations at S_q̈ = x.head(n), S_λ = x.tail(m):
      // one directional central difference of the residual and the constraints of the systems
      // at p ± δ (S_q̈ = S_λ = 0 gives the negative right-hand side of Sensitivity.h).
      auto defect = [&](const VecX& x) {
        const auto sqdd = x.head(n_);
        S.qd = S.dq + (h * h * be * fa) * sqdd;
        S.vd = S.dv + (h * ga * fa) * sqdd;
        ps.minus->residual(wm, t1, q_ - d * S.qd, v_ - d * S.vd, qdd_ - d * sqdd, lam_ - d * x.tail(m_), S.rm);
        ps.plus->residual(wp, t1, q_ + d * S.qd, v_ + d * S.vd, qdd_ + d * sqdd, lam_ + d * x.tail(m_), S.rp);
        S.g.head(n_) = (S.rp - S.rm) / (2 * d);
        if (m_ == 0) return;
        // The constraint rows with the step's C_q (and ∂Ċ/∂q): differences of C itself would
        // carry a round-off of ε/δ, which the rows' scaling β' ~ 1/h² would amplify.
        if (!vel_all) S.g.tail(m_).noalias() = bp * (K_.C * S.qd + S.cpar);
        if (vel_all || has_vel_rows_) {
          S.cv.noalias() = S.G * S.qd;
          S.cv.noalias() += K_.C * S.vd;
          for (int r = 0; r < m_; ++r)
            if (vel_all || vel_row_[static_cast<size_t>(r)]) S.g[n_ + r] = (bp / gp) * (S.cv[r] + S.cvpar[r]);
        }
      };
      // ∂C/∂p and ∂Ċ/∂p at the step's state: exactly 0 where the constraints do not depend on p.
      if (m_ > 0) {
        if (!vel_all) {
          ps.minus->constraints(wm, t1, q_, S.cm);
          ps.plus->constraints(wp, t1, q_, S.cp);
          S.cpar = (S.cp - S.cm) / (2 * d);
        }
        if (vel_all || has_vel_rows_) {
          ps.minus->constraint_velocity(wm, t1, q_, v_, S.cm);
          ps.plus->constraint_velocity(wp, t1, q_, v_, S.cp);
          S.cvpar = (S.cp - S.cm) / (2 * d);
        }
      }
      // Newton on the linear equations g(x) = 0 with the step's matrix: exact tangents make the
      // first solve the answer (the second defect is the differences' noise); a tangent that is
      // only approximate (an element's by differences) is corrected by the further iterations.
      // Stopped when the correction is below kSensitivityTolerance relative, or when it no longer
      // halves (the differences' noise is reached: a parameter with no effect yet has x ~ noise).
      S.x.setZero();
      bool converged = false;
      double last = 0;
      for (int it = 0; it < kSensitivityIterations && !converged; ++it) {
        defect(S.x);
        S.rhs = -S.g;
        lu_.solve(S.rhs);
        if (!S.rhs.allFinite()) {
          why << "the sensitivity of parameter " << k + 1 << " is not finite";
          message_ = why.str();
          return false;
        }
        S.x += S.rhs;
        const double corr = inf_norm(S.rhs);
        converged = (it > 0 && (corr <= kSensitivityTolerance * inf_norm(S.x) || corr > 0.5 * last)) ||
                    inf_norm(S.x) == 0;  // independent of p at this step
        last = corr;
      }
      if (!converged) {
        why << "the sensitivity equations of parameter " << k + 1 << " did not converge in "
            << kSensitivityIterations << " iterations (last correction " << inf_norm(S.rhs) << " of "
            << inf_norm(S.x) << ")";
        message_ = why.str();
        return false;
      }
      S.rhs = S.x;
      const auto sqdd = S.rhs.head(n_);
      S.sa.col(k) = sa_pred + fa * sqdd;
      S.s.q.col(k) = S.dq + (h * h * be * fa) * sqdd;
      S.s.v.col(k) = S.dv + (h * ga * fa) * sqdd;
      S.s.a.col(k) = sqdd;
      S.s.lambda.col(k) = S.rhs.tail(m_);
    }
    return true;
  }

  /// Integrates from the current time to t_out (landing on it exactly). Returns false on failure
  /// (status_ and message_ say why; the state stays at the last accepted step).
  bool advance(double t_out) {
    if (status_ != SolveStatus::Success) return false;
    const auto wall0 = std::chrono::steady_clock::now();
    auto done = [&](bool ok) {
      stats_.wall_time +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
      return ok;
    };
    auto fail = [&](SolveStatus st, const std::string& msg) {
      status_ = st;
      message_ = msg;
      return done(false);
    };
    while (t_ < t_out) {
      if (interrupted_()) {
        std::ostringstream s;
        s << "interrupted at t = " << t_ << " s";
        return fail(SolveStatus::Interrupted, s.str());
      }
      if (stats_.steps >= opt_.max_steps)
        return fail(SolveStatus::TooMuchWork, fail_msg(t_, h_cur_, "step limit reached"));
      double h = h_cur_;
      const bool truncated = t_out - t_ < 1.01 * h;
      if (truncated) h = t_out - t_;
      bool ok = step(t_, h);
      if (!ok && opt_.modified_newton && !fresh_) {
        fresh_needed_ = true;  // retry with a fresh iteration matrix
        ++stats_.rejected_steps;
        ok = step(t_, h);
      }
      if (!ok && opt_.singular_regularization > 0 && m_ > 0 && compliant_ == 0) {
        // Singular configuration (see NewmarkOptions::singular_regularization): the same step
        // again with slightly compliant constraints, kept for the next steps as well.
        // A configuration the constraints cannot leave (a lock-up, a drive the mechanism cannot
        // follow): every return to the exact constraints fails again, and the compliant steps
        // would creep on, violating the constraints, for ever. Stop after a bounded number.
        if (opt_.max_compliant_fallbacks > 0 && ++fallbacks_in_a_row_ > opt_.max_compliant_fallbacks)
          return fail(SolveStatus::NewtonFailure, locked_msg(h));
        compliant_ = std::max(1, opt_.singular_regularization_steps);
        fresh_needed_ = true;
        ++stats_.rejected_steps;
        ok = step(t_, h);
      }
      while (!ok) {
        ++stats_.rejected_steps;
        h *= 0.5;
        h_cur_ = h;
        good_ = 0;
        if (h < h_min_) {
          std::ostringstream s;
          s << "Newton iteration did not converge with step " << h * 2 << " s (minimum " << h_min_
            << " s)";
          return fail(last_status_, fail_msg(t_, h * 2, s.str()));
        }
        fresh_needed_ = true;
        ok = step(t_, h);
      }
      if (opt_.adaptive) {
        // Local error of the positions (Zienkiewicz & Xie 1991, for the Newmark family):
        // e ≈ h² (β − 1/6)(a_{n+1} − a_n), weighted like a BDF error test; order 3 in h.
        double sum = 0;
        const double c = h * h * std::abs(p_.beta - 1.0 / 6.0);
        for (int i = 0; i < n_; ++i) {
          const double w = opt_.atol + opt_.rtol * std::max(std::abs(q_[i]), std::abs(qn_[i]));
          const double e = c * (a_[i] - an_[i]) / w;
          sum += e * e;
        }
        const double err = n_ ? std::sqrt(sum / n_) : 0.0;
        const double factor = std::clamp(0.9 * std::pow(std::max(err, 1e-10), -1.0 / 3.0), 0.2, 2.0);
        if (err > 1.0) {
          ++stats_.rejected_steps;
          ++stats_.error_test_failures;
          h_cur_ = h * factor;
          if (h_cur_ < h_min_)
            return fail(SolveStatus::StepTooSmall,
                        fail_msg(t_, h, "local error test failed at the minimum step"));
          continue;  // the state n is untouched: retry with the smaller step
        }
        if (!truncated) h_cur_ = h * factor;
        if (opt_.max_step > 0) h_cur_ = std::min(h_cur_, opt_.max_step);
      }
      // accept
      if (sens_ && !sensitivity_step(t_, h)) return fail(SolveStatus::OtherFailure, message_);
      t_ = (t_out - t_ - h < 1e-12 * std::max(1.0, std::abs(t_out))) ? t_out : t_ + h;
      qn_.swap(q_);
      vn_.swap(v_);
      qddp_.swap(qddn_);
      qddn_.swap(qdd_);
      an_.swap(a_);
      lamp_.swap(lamn_);
      lamn_.swap(lam_);
      have_prev_ = true;
      h_prev_ = h;
      ++state_stamp_;
      last_compliant_ = compliant_ > 0;
      if (compliant_ > 0) {
        ++stats_.regularized_steps;
        if (--compliant_ == 0) fresh_needed_ = true;  // back to the exact constraints
      } else {
        fallbacks_in_a_row_ = 0;  // a step with the exact constraints
      }
      ++stats_.steps;
      stats_.last_step = h;
      stepped_();
      // Rotation coordinates at their singularity: stop rather than go on inaccurately.
      if (std::string why = sys_.coordinate_problem(qn_, vn_, opt_.adaptive ? 0.0 : h); !why.empty()) {
        std::ostringstream s;
        s << name_ << " stopped at t = " << t_ << " s: " << why;
        return fail(SolveStatus::OtherFailure, s.str());
      }
      if (!opt_.adaptive && h_cur_ < opt_.step && ++good_ >= 4) {
        h_cur_ = std::min(opt_.step, 2 * h_cur_);
        good_ = 0;
      }
    }
    return done(true);
  }

  double time() const { return t_; }
  /// The state at time(). With constraints, its accelerations and multipliers are solved from
  /// [M C_qᵀ; C_q 0][q̈; λ] = [f; γ] at (t, q, v) (once per state, on demand): the step's own q̈
  /// and λ satisfy the equations of motion only up to the scheme's perturbations, which a change
  /// of step size (a step shortened to land on an output time) and the first steps of a run make
  /// large on the index-3 form (Arnold & Brüls 2007, Multibody Syst. Dyn. 18: the O(h) transients
  /// of q̈ and λ of index-3 generalized-α; measured 8.3e-3 relative on a gear train, against
  /// 5.9e-5 on steps of constant size) and smaller on the index-2 forms (2.6e-4). Positions and
  /// velocities are the step's; so is the integration's own history (history()). Where that
  /// system is singular (a singular configuration, where λ is not unique) or the step was taken
  /// with compliant constraints, the step's own values are given.
  /// The factorization reuses the pivot sequence of an earlier output state while it stays
  /// well conditioned; where it was chosen is part of history(), so a restarted run forms the same.
  StateView state() const {
    if (m_ == 0 || last_compliant_) return StateView{t_, qn_, vn_, qddn_, lamn_};
    if (out_stamp_ != state_stamp_) {
      out_stamp_ = state_stamp_;
      out_ok_ = false;
      try {
        if (!out_solver_) out_solver_ = std::make_unique<detail::ConsistentAccelerations>(sys_);
        out_solver_->solve(t_, qn_, vn_, out_a_, out_lam_);
        out_ok_ = out_a_.allFinite() && out_lam_.allFinite();
        if (out_solver_->chose_pivots()) {
          // Where its pivots were chosen (history()): later solves reuse them (no allocation),
          // and a restarted run chooses the same ones first.
          out_piv_t_ = t_;
          out_piv_q_ = qn_;
          out_piv_v_ = vn_;
        }
      } catch (const std::exception&) {
        // singular KKT matrix: the step's values
      }
    }
    return out_ok_ ? StateView{t_, qn_, vn_, out_a_, out_lam_} : StateView{t_, qn_, vn_, qddn_, lamn_};
  }

  /// Everything advance() reads besides t, q, v: the accelerations q̈_n and multipliers λ_n of the
  /// last step (not the consistent ones of a fresh start), the algorithmic accelerations a_n, the
  /// predictor's previous q̈ and λ, the step sizes, the Newton contraction estimate, and the
  /// point where the iteration matrix was formed (to form the same matrix again).
  IntegratorHistory history() const {
    IntegratorHistory h;
    auto put = [&](const char* name, std::vector<double> x) { h.arrays.emplace_back(name, std::move(x)); };
    auto vec = [](const VecX& x) { return std::vector<double>(x.data(), x.data() + x.size()); };
    put("newmark.acceleration", vec(qddn_));
    put("newmark.multipliers", vec(lamn_));
    put("newmark.algorithmic_acceleration", vec(an_));
    put("newmark.previous_acceleration", vec(qddp_));
    put("newmark.previous_multipliers", vec(lamp_));
    put("newmark.steps", {h_cur_, h_prev_, have_prev_ ? 1.0 : 0.0, double(good_), double(compliant_), eta_});
    put("newmark.matrix", {have_factor_ ? 1.0 : 0.0, fresh_needed_ ? 1.0 : 0.0, h_factor_, mat_t1_, mat_bp_, mat_gp_,
                           mat_compliant_ ? 1.0 : 0.0});
    put("newmark.matrix_q", vec(mat_q_));
    put("newmark.matrix_v", vec(mat_v_));
    put("newmark.matrix_acceleration", vec(mat_qdd_));
    put("newmark.matrix_multipliers", vec(mat_lam_));
    if (!std::isnan(out_piv_t_)) {
      put("newmark.output_pivots", {out_piv_t_});
      put("newmark.output_pivots_q", vec(out_piv_q_));
      put("newmark.output_pivots_v", vec(out_piv_v_));
    }
    if (have_factor_ && !piv_.empty()) {
      put("newmark.pivots", piv_);
      put("newmark.pivots_q", vec(piv_q_));
      put("newmark.pivots_v", vec(piv_v_));
      put("newmark.pivots_acceleration", vec(piv_qdd_));
      put("newmark.pivots_multipliers", vec(piv_lam_));
    }
    return h;
  }

  /// Restores history() into an engine started (init()) at the saved t, q, v.
  void restore(const IntegratorHistory& h) {
    auto get = [&](const char* name, std::size_t size) -> const std::vector<double>& {
      const std::vector<double>* x = h.find(name);
      if (!x) throw std::invalid_argument(std::string(name_) + ": the history has no " + name);
      if (x->size() != size)
        throw std::invalid_argument(std::string(name_) + ": " + name + " has " + std::to_string(x->size()) +
                                    " values, expected " + std::to_string(size));
      return *x;
    };
    auto vec = [&](const char* name, VecX& x, int size) {
      const std::vector<double>& v = get(name, static_cast<std::size_t>(size));
      x = Eigen::Map<const VecX>(v.data(), size);
    };
    vec("newmark.acceleration", qddn_, n_);
    vec("newmark.multipliers", lamn_, m_);
    vec("newmark.algorithmic_acceleration", an_, n_);
    vec("newmark.previous_acceleration", qddp_, n_);
    vec("newmark.previous_multipliers", lamp_, m_);
    const std::vector<double>& st = get("newmark.steps", 6);
    h_cur_ = st[0];
    h_prev_ = st[1];
    have_prev_ = st[2] != 0;
    good_ = static_cast<int>(st[3]);
    compliant_ = static_cast<int>(st[4]);
    eta_ = st[5];
    const std::vector<double>& mt = get("newmark.matrix", 7);
    vec("newmark.matrix_q", q_, n_);
    vec("newmark.matrix_v", v_, n_);
    vec("newmark.matrix_acceleration", qdd_, n_);
    vec("newmark.matrix_multipliers", lam_, m_);
    have_factor_ = false;
    lu_.clear();
    if (mt[0] != 0) {
      // The same factors as the interrupted run's: the pivot sequence chosen from the same matrix,
      // then the current matrix formed at the same point and factorised with it.
      const int saved = compliant_;
      auto form = [&](double t1, double h1, double bp, double gp, bool compliant) {
        compliant_ = compliant ? 1 : 0;
        const bool ok = refresh(t1, h1, bp, gp);
        compliant_ = saved;
        --stats_.jacobian_evaluations;
        --stats_.factorizations;
        if (!ok) throw std::invalid_argument(std::string(name_) + ": a saved iteration matrix is singular");
      };
      if (h.find("newmark.pivots")) {
        const std::vector<double>& pv = get("newmark.pivots", 4);
        vec("newmark.pivots_q", q_, n_);
        vec("newmark.pivots_v", v_, n_);
        vec("newmark.pivots_acceleration", qdd_, n_);
        vec("newmark.pivots_multipliers", lam_, m_);
        form(pv[0], mt[2], pv[1], pv[2], pv[3] != 0);
      }
      vec("newmark.matrix_q", q_, n_);
      vec("newmark.matrix_v", v_, n_);
      vec("newmark.matrix_acceleration", qdd_, n_);
      vec("newmark.matrix_multipliers", lam_, m_);
      form(mt[3], mt[2], mt[4], mt[5], mt[6] != 0);
    }
    fresh_needed_ = mt[1] != 0;
    if (h.find("newmark.output_pivots")) {
      // The output states' pivot sequence, chosen again at the same state.
      const double tp = get("newmark.output_pivots", 1)[0];
      VecX qp, vp;
      vec("newmark.output_pivots_q", qp, n_);
      vec("newmark.output_pivots_v", vp, n_);
      try {
        if (!out_solver_) out_solver_ = std::make_unique<detail::ConsistentAccelerations>(sys_);
        out_solver_->solve(tp, qp, vp, out_a_, out_lam_);
        out_piv_t_ = tp;
        out_piv_q_ = qp;
        out_piv_v_ = vp;
      } catch (const std::exception&) {
        // singular there (not expected: it was solved there before): the next output state chooses its own
      }
    }
    ++state_stamp_;
    last_compliant_ = compliant_ > 0;
    status_ = SolveStatus::Success;
    message_.clear();
  }
  const SolverStats& stats() const { return stats_; }
  SolveStatus status() const { return status_; }
  const std::string& message() const { return message_; }

 private:
  /// One step from (t, state_n) with step h into (q_, v_, qdd_, a_, lam_). False on failure.
  bool step(double t, double h) {
    const double am = p_.alpha_m, af = p_.alpha_f, be = p_.beta, ga = p_.gamma;
    const double t1 = t + h;
    const double bp = (1 - am) / (h * h * be * (1 - af));  // β'
    const double gp = ga / (h * be);                       // γ'
    const double cscale = level_ == Level::Position ? bp : bp / gp;
    // Predictor: linear extrapolation of q̈ and λ from the last two steps (constant on the first).
    if (have_prev_) {
      const double r = h / h_prev_;
      qdd_ = qddn_ + r * (qddn_ - qddp_);
      lam_ = lamn_ + r * (lamn_ - lamp_);
    } else {
      qdd_ = qddn_;
      lam_ = lamn_;
    }
    a_ = (af * qddn_ - am * an_ + (1 - af) * qdd_) / (1 - am);
    q_ = qn_ + h * vn_ + h * h * (0.5 - be) * an_ + h * h * be * a_;
    v_ = vn_ + h * (1 - ga) * an_ + h * ga * a_;
    fresh_ = false;
    double err_prev = 0;
    last_status_ = SolveStatus::NewtonFailure;
    for (int it = 0; it < opt_.max_newton_iterations; ++it) {
      ++stats_.newton_iterations;
      ++stats_.residual_evaluations;
      sys_.residual(ws_, t1, q_, v_, qdd_, lam_, r_);
      if (level_ == Level::Position) {
        sys_.constraints(ws_, t1, q_, c_);
        if (has_vel_rows_) {
          // c_ is scaled by β' below; a velocity row needs β'/γ' (as the index-2 scheme).
          sys_.constraint_velocity(ws_, t1, q_, v_, cv_);
          for (int r = 0; r < m_; ++r)
            if (vel_row_[static_cast<size_t>(r)]) c_[r] = cv_[r] / gp;
        }
      } else {
        sys_.constraint_velocity(ws_, t1, q_, v_, c_);  // index 2, and GGL's velocity level
      }
      if (!r_.allFinite() || !c_.allFinite()) {
        last_status_ = SolveStatus::ResidualFailure;
        return false;
      }
      const bool stale_h = have_factor_ && std::abs(h - h_factor_) > 1e-12 * h;
      if (!have_factor_ || fresh_needed_ || !opt_.modified_newton || (stale_h && it == 0)) {
        if (!refresh(t1, h, bp, gp)) {
          last_status_ = SolveStatus::SingularMatrix;
          return false;
        }
      }
      rhs_.head(n_) = -r_;
      rhs_.tail(m_) = -cscale * c_;
      // Compliant constraints (regularized steps): β'C − ε λ = 0, i.e. C = (ε/β') λ.
      if (compliant_ > 0) rhs_.tail(m_) += eps_ * lam_;
      lu_.solve(rhs_);
      if (!rhs_.allFinite()) {
        last_status_ = SolveStatus::SingularMatrix;
        have_factor_ = false;
        return false;
      }
      const auto dqdd = rhs_.head(n_);
      qdd_ += dqdd;
      lam_ += rhs_.tail(m_);
      const double fa = (1 - af) / (1 - am);
      a_ += fa * dqdd;
      q_ += (h * h * be * fa) * dqdd;
      v_ += (h * ga * fa) * dqdd;
      if (level_ == Level::Ggl && m_ > 0) {
        // GGL: the positions onto C(q) = 0 along C_qᵀ (Δq = C_qᵀ Δν); the velocities stay.
        sys_.constraints(ws_, t1, q_, cp_);
        if (!cp_.allFinite()) {
          last_status_ = SolveStatus::ResidualFailure;
          return false;
        }
        rhs2_.head(n_).setZero();
        rhs2_.tail(m_) = -cp_;
        lu2_.solve(rhs2_);
        if (!rhs2_.allFinite()) {
          last_status_ = SolveStatus::SingularMatrix;
          have_factor_ = false;
          return false;
        }
        // Δq = −C_q(q)ᵀ μ with C_q at the current iterate: the factorised matrix only gives μ
        // (C_q C_qᵀ of the last refresh, a quasi-Newton step); the direction must be that of
        // the GGL equations, or the positions drift along the constraint manifold and the energy
        // with them (an old C_q tilts the correction).
        sys_.assemble_jacobian(ws_, t1, q_, Cnow_);
        dqp_.noalias() = -(Cnow_.transpose() * rhs2_.tail(m_));
        q_ += dqp_;
      }
      // Converged when the position correction is below the tolerance and the correction of the
      // accelerations is small relative to their size: with h² in front, a position test alone
      // would accept accelerations and multipliers that are still far off. (The multipliers are
      // not tested: they follow from the accelerations, except at singular configurations,
      // where they are not unique.)
      double err_q = 0;
      const bool ggl = level_ == Level::Ggl && m_ > 0;
      for (int i = 0; i < n_; ++i)
        err_q = std::max(err_q, std::abs(h * h * be * fa * dqdd[i] + (ggl ? dqp_[i] : 0.0)) /
                                    (opt_.newton_atol + opt_.newton_rtol * std::abs(q_[i])));
      // Round-off floor: a residual known to ε·|q| is amplified by β' ~ 1/h² into the
      // accelerations (the classical index-3 sensitivity), so nothing below it is attainable.
      // (For velocity-level rows the constraint residual is ε·|v| and the amplification β'/γ'.)
      const double acc_scale = std::max(1.0, inf_norm(qdd_));
      const double floor_acc =
          100 * std::numeric_limits<double>::epsilon() *
          (level_ == Level::Position ? std::max(1.0, inf_norm(q_)) * bp
                                     : std::max(1.0, inf_norm(v_)) * bp / gp);
      const double acc_tol = opt_.newton_acc_rtol * acc_scale + floor_acc;
      const double err = std::max(err_q, inf_norm(dqdd) / acc_tol);
      // Stopping rule of Hairer & Wanner (Solving ODEs II, IV.8): with the contraction rate θ
      // the remaining error is about θ/(1 − θ)·‖Δ‖, so a small correction from a poorly
      // contracting (stale) matrix is not mistaken for convergence. The first iteration of a step
      // uses the rate seen in the previous step.
      if (it > 0) {
        const double theta = err / err_prev;
        // Stagnation (a) within a factor 3 of the tolerance: the corrections are at the
        // round-off level of the linear solve; (b) with a fresh matrix and converged positions:
        // a singular configuration (e.g. a four-bar passing its dead point), where the
        // accelerations are ill-determined. In both cases the iterate is as good as it gets.
        if (theta > 0.5 && (err < 3.0 || (fresh_ && err_q <= 1.0))) {
          eta_ = 1.0;
          return true;
        }
        if (theta >= 1.0) {
          if (fresh_) return false;  // diverging with a fresh matrix
          fresh_needed_ = true;
          eta_ = 1.0;
          err_prev = err;
          continue;
        }
        if (theta > opt_.contraction_limit && !fresh_) fresh_needed_ = true;
        eta_ = theta / (1.0 - theta);
      }
      // GGL promises velocity constraints at round-off: besides small corrections, the velocity
      // residual this iteration started from must be at that level (usually one more iteration).
      const bool vel_ok =
          level_ != Level::Ggl ||
          inf_norm(c_) <= 1e3 * std::numeric_limits<double>::epsilon() * std::max(1.0, inf_norm(v_));
      if (err <= 1.0 && eta_ * err <= 1.0 && vel_ok) {
        eta_ = std::pow(std::max(eta_, 1e-16), 0.8);
        return true;
      }
      err_prev = err;
    }
    return false;
  }

  bool refresh(double t1, double h, double bp, double gp) {
    ++stats_.jacobian_evaluations;
    // Where the matrix is formed (history()).
    mat_t1_ = t1;
    mat_bp_ = bp;
    mat_gp_ = gp;
    mat_compliant_ = compliant_ > 0;
    mat_q_ = q_;
    mat_v_ = v_;
    mat_qdd_ = qdd_;
    mat_lam_ = lam_;
    sys_.assemble_tangent(ws_, t1, q_, v_, qdd_, lam_, 1.0 / bp, gp / bp, 1.0, K_.A);
    sys_.assemble_jacobian(ws_, t1, q_, K_.C);
    bool use_c2 = false;
    if (level_ != Level::Position) {
      sys_.assemble_velocity_jacobian(ws_, t1, q_, v_, K_.C2);
      // C2 ← C_q + ∂(C_q v)/∂q / γ'
      double* c2 = K_.C2.valuePtr();
      const double* c = K_.C.valuePtr();
      for (Eigen::Index k = 0; k < K_.C2.nonZeros(); ++k) c2[k] = c[k] + c2[k] / gp;
      use_c2 = true;
    } else if (has_vel_rows_) {
      // Velocity rows: C2 ← C_q + ∂(C_q v)/∂q / γ'; position rows keep C_q.
      sys_.assemble_velocity_jacobian(ws_, t1, q_, v_, K_.C2);
      double* c2 = K_.C2.valuePtr();
      const double* c = K_.C.valuePtr();
      for (Eigen::Index k = 0; k < K_.C2.nonZeros(); ++k)
        c2[k] = vel_entry_[static_cast<size_t>(k)] ? c[k] + c2[k] / gp : c[k];
      use_c2 = true;
    }
    // ∂r/∂λ: C_qᵀ, or with forces that read λ (joint friction by reaction) C_qᵀ − ∂f/∂λ at the
    // iterate, so the Newton iteration stays a Newton iteration in (q̈, λ).
    const bool use_ct = sys_.forces_read_multipliers();
    if (use_ct) sys_.assemble_multiplier_tangent(ws_, t1, q_, v_, lam_, K_.CT);
    eps_ = K_.fill(1.0, use_c2, compliant_ > 0 ? opt_.singular_regularization : 0.0, use_ct);
    ++stats_.factorizations;
    have_factor_ = lu_.factorize(K_.S);
    if (have_factor_ && lu_.chose_pivots()) {
      // Later refactorisations reuse this matrix's pivot sequence (history()).
      piv_ = {t1, bp, gp, compliant_ > 0 ? 1.0 : 0.0};
      piv_q_ = q_;
      piv_v_ = v_;
      piv_qdd_ = qdd_;
      piv_lam_ = lam_;
    }
    if (have_factor_ && level_ == Level::Ggl && m_ > 0) {
      // The position projection [I, C_qᵀ; C_q, 0] (−ε I in the multiplier block on compliant
      // steps); velocity-level rows take no part in it.
      zero_values(P_->A);
      for (int c = 0; c < P_->A.cols(); ++c) P_->A.valuePtr()[value_index(P_->A, c, c)] = 1.0;
      P_->C = K_.C;
      P_->fill(1.0, false, compliant_ > 0 ? opt_.singular_regularization : 0.0);
      if (has_vel_rows_) P_->drop_rows(vel_row_, vel_entry_);
      ++stats_.factorizations;
      have_factor_ = lu2_.factorize(P_->S);
    }
    fresh_ = true;
    fresh_needed_ = false;
    h_factor_ = h;
    return have_factor_;
  }

  /// The constraints held only with compliance: name the time, the cause and the constraint with
  /// the largest multiplier (the joint that locks).
  std::string locked_msg(double h) {
    std::ostringstream s;
    s.precision(6);
    s << name_ << " failed at t = " << t_ << " s (step " << h << " s): the constraints held only with compliance for "
      << opt_.max_compliant_fallbacks * std::max(1, opt_.singular_regularization_steps)
      << " steps with no exact step between (a lock-up, or a drive the mechanism cannot follow)";
    if (m_ > 0 && lamn_.size() == m_ && lamn_.allFinite()) {
      int i = 0;
      lamn_.cwiseAbs().maxCoeff(&i);
      s << "; largest multiplier " << lamn_[i] << " in " << sys_.constraint_label(i);
    }
    s << stability_hint();
    return s.str();
  }

  std::string fail_msg(double t, double h, const std::string& cause) {
    std::ostringstream s;
    s.precision(6);
    s << name_ << " failed at t = " << t << " s (step " << h << " s): " << cause;
    // Name the largest residual of the last iterate.
    if (r_.size() || c_.size()) {
      int ir = 0, ic = 0;
      const double rr = r_.size() ? r_.cwiseAbs().maxCoeff(&ir) : 0.0;
      const double cc = c_.size() ? c_.cwiseAbs().maxCoeff(&ic) : 0.0;
      if (std::isfinite(rr) && std::isfinite(cc)) {
        if (cc > 0 && (m_ > 0) && (cc >= rr || n_ == 0))
          s << "; largest constraint residual " << cc << " in " << sys_.constraint_label(ic);
        else if (n_ > 0)
          s << "; largest force residual " << rr << " at " << sys_.coordinate_label(ir);
      } else {
        s << "; the residual is not finite (NaN or Inf)";
        for (int i = 0; i < n_; ++i)
          if (!std::isfinite(r_[i])) {
            s << " at " << sys_.coordinate_label(i);
            break;
          }
      }
    }
    s << stability_hint();
    return s.str();
  }

  /// Index 3 without numerical damping is only weakly stable (Arnold & Brüls 2007): its errors can
  /// grow until Newton fails (a free pendulum after about 8 s at h = 1e-3). Names the settings
  /// that are stable; empty for the other methods and settings.
  std::string stability_hint() const {
    if (level_ == Level::Position && m_ > 0 && opt_.rho_inf >= 1 && std::string(name_) == "generalized-alpha")
      return "; generalized-alpha on the index-3 form at rho_inf = 1 is only weakly stable: use solver.formulation: "
             "index2_ggl (stable at rho_inf = 1), a rho_inf below 1, or solver.type: ida";
    return {};
  }

  const ConstrainedSystem& sys_;
  ConstrainedSystem::Workspace ws_;  // the evaluations' scratch
  AlphaParameters p_;
  Level level_;
  NewmarkOptions opt_;
  const char* name_;
  int n_, m_;
  detail::Kkt K_;
  SparseLu lu_;
  std::unique_ptr<detail::Kkt> P_;  // GGL: the position projection's matrix
  SparseLu lu2_;                    // ... factorised
  VecX cp_, dqp_, rhs2_;
  SparseMatrix Cnow_;               // GGL: C_q at the current iterate             // GGL: C(q), the projection's Δq, its right-hand side
  bool have_factor_ = false, fresh_ = false, fresh_needed_ = false;
  double h_factor_ = 0;
  double mat_t1_ = 0, mat_bp_ = 0, mat_gp_ = 0;  // where the iteration matrix was formed
  bool mat_compliant_ = false;
  VecX mat_q_, mat_v_, mat_qdd_, mat_lam_;
  std::vector<double> piv_;  // where the current pivot sequence was chosen: t1, β', γ', compliant
  VecX piv_q_, piv_v_, piv_qdd_, piv_lam_;
  int compliant_ = 0;   // steps left with compliant constraints (singular_regularization)
  int fallbacks_in_a_row_ = 0;  // compliant fallbacks since the last step with exact constraints
  double eps_ = 0;      // ε of the factorised matrix (0 unless compliant_ > 0)
  double eta_ = 1.0;  // θ/(1 − θ) of the Newton contraction
  bool have_prev_ = false;  // q̈, λ of the step before the last are known
  double h_prev_ = 0;
  SolveStatus last_status_ = SolveStatus::NewtonFailure;
  SolverStats stats_;
  SolveStatus status_ = SolveStatus::Success;
  std::string message_;
  double t_ = 0, h_cur_ = 0, h_min_ = 0;
  int good_ = 0;
  VecX q_, v_, qdd_, a_, lam_, qn_, vn_, qddn_, an_, lamn_, qddp_, lamp_, r_, c_, rhs_;
  std::vector<char> vel_row_, vel_entry_;  // velocity-level rows, and per value of C_q's pattern
  bool has_vel_rows_ = false;
  VecX cv_;
  // state(): the output state's own accelerations and multipliers (index 3), solved once per state.
  long state_stamp_ = 0;                 // counts the states (init, accepted steps, restore)
  bool last_compliant_ = false;          // the last step was taken with compliant constraints
  mutable long out_stamp_ = -1;          // the state out_a_, out_lam_ belong to
  mutable bool out_ok_ = false;          // the solve succeeded
  mutable std::unique_ptr<detail::ConsistentAccelerations> out_solver_;
  mutable VecX out_a_, out_lam_;
  mutable double out_piv_t_ = std::numeric_limits<double>::quiet_NaN();  // where out_solver_ chose its pivots
  mutable VecX out_piv_q_, out_piv_v_;

 public:
  /// Read between steps: true stops advance() with status Interrupted.
  std::function<bool()> interrupted_ = [] { return false; };
  /// Called after every accepted step (Integrator::set_step_observer()).
  std::function<void()> stepped_ = [] {};
};

}  // namespace

namespace {
/// The Integrator interface (Base: Integrator or SensitivityIntegrator) over a Newmark engine.
template <class Base>
class NewmarkDriver : public Base {
 public:
  NewmarkDriver(const ConstrainedSystem& sys, AlphaParameters p, Level level, const NewmarkOptions& opt,
                const char* name)
      : engine_(sys, p, level, opt, name) {
    engine_.interrupted_ = [this] { return this->interrupted(); };
    engine_.stepped_ = [this] { this->step_taken(); };
  }
  bool advance_to(double t) override { return engine_.advance(t); }
  double time() const override { return engine_.time(); }
  StateView state() const override { return engine_.state(); }
  const SolverStats& stats() const override { return engine_.stats(); }
  SolveStatus status() const override { return engine_.status(); }
  const std::string& message() const override { return engine_.message(); }

 protected:
  Newmark engine_;
};

class NewmarkIntegrator final : public NewmarkDriver<Integrator> {
 public:
  NewmarkIntegrator(const ConstrainedSystem& sys, AlphaParameters p, Level level,
                    const NewmarkOptions& opt, const char* name, double t0, const VecX& q0,
                    const VecX& v0)
      : NewmarkDriver(sys, p, level, opt, name) {
    engine_.init(t0, q0, v0);
  }
  IntegratorHistory history() const override { return engine_.history(); }
  void restore_history(const IntegratorHistory& h) override { engine_.restore(h); }
};
}  // namespace

namespace {
class NewmarkSensitivityIntegrator final : public NewmarkDriver<SensitivityIntegrator> {
 public:
  NewmarkSensitivityIntegrator(const ConstrainedSystem& sys, AlphaParameters p, Level level, const NewmarkOptions& opt,
                               const char* name, double t0, const VecX& q0, const VecX& v0,
                               std::vector<ParameterSystems> params, const MatX& dq0, const MatX& dv0)
      : NewmarkDriver(sys, p, level, opt, name) {
    const int n = sys.num_coordinates(), m = sys.num_constraints();
    const auto P = static_cast<Eigen::Index>(params.size());
    if (dq0.rows() != n || dv0.rows() != n || dq0.cols() != P || dv0.cols() != P)
      throw SolverSettingsError(std::string(name) + ": the initial sensitivities have the wrong size");
    auto sens = std::make_unique<Newmark::Sensitivity>();
    for (size_t k = 0; k < params.size(); ++k) {
      const ParameterSystems& ps = params[k];
      if (!ps.minus || !ps.plus || !(ps.delta > 0))
        throw SolverSettingsError(std::string(name) + ": parameter " + std::to_string(k + 1) +
                                  " needs both perturbed systems and a step > 0");
      for (const ConstrainedSystem* s : {ps.minus, ps.plus})
        if (s->num_coordinates() != n || s->num_constraints() != m)
          throw SolverSettingsError(std::string(name) + ": parameter " + std::to_string(k + 1) + " changes the system's size (" +
                                    std::to_string(s->num_coordinates()) + " coordinates, " +
                                    std::to_string(s->num_constraints()) + " constraint rows; nominal " +
                                    std::to_string(n) + ", " + std::to_string(m) + ")");
      sens->ws_minus.push_back(ps.minus->make_workspace());
      sens->ws_plus.push_back(ps.plus->make_workspace());
    }
    sens->params = std::move(params);
    sens->s.q = dq0;
    sens->s.v = dv0;
    for (VecX* x : {&sens->dq, &sens->dv, &sens->qd, &sens->vd, &sens->rm, &sens->rp}) x->setZero(n);
    for (VecX* x : {&sens->cm, &sens->cp, &sens->cpar, &sens->cvpar, &sens->cv}) x->setZero(m);
    sens->G = sys.jacobian_pattern();
    for (VecX* x : {&sens->g, &sens->rhs, &sens->x}) x->setZero(n + m);
    engine_.sens_ = std::move(sens);
    engine_.init(t0, q0, v0);
  }
  const StateSensitivities& sensitivities() const override { return engine_.output_sensitivities(); }
};
}  // namespace

std::unique_ptr<SensitivityIntegrator> make_newmark_sensitivity(const ConstrainedSystem& sys, double t0,
                                                                const VecX& q0, const VecX& v0,
                                                                const NewmarkOptions& opt, bool trapezoidal,
                                                                std::vector<ParameterSystems> params,
                                                                const MatX& dq0, const MatX& dv0) {
  if (trapezoidal)
    return std::make_unique<NewmarkSensitivityIntegrator>(sys, AlphaParameters{0.0, 0.0, 0.25, 0.5}, Level::Velocity,
                                                          opt, "trapezoidal-index2", t0, q0, v0, std::move(params),
                                                          dq0, dv0);
  if (opt.formulation == AlphaFormulation::StabilizedIndex2)
    throw SolverSettingsError(
        "generalized-alpha: sensitivities are not available on the stabilized index-2 form (solver.formulation: "
        "index2_ggl; its position projection is not differentiated): use solver.formulation: index3");
  return std::make_unique<NewmarkSensitivityIntegrator>(sys, chung_hulbert(opt.rho_inf), Level::Position, opt,
                                                        "generalized-alpha", t0, q0, v0, std::move(params), dq0, dv0);
}

std::unique_ptr<Integrator> make_generalized_alpha(const ConstrainedSystem& sys, double t0,
                                                   const VecX& q0, const VecX& v0,
                                                   const NewmarkOptions& opt) {
  const bool ggl = opt.formulation == AlphaFormulation::StabilizedIndex2;
  return std::make_unique<NewmarkIntegrator>(sys, chung_hulbert(opt.rho_inf), ggl ? Level::Ggl : Level::Position,
                                             opt, ggl ? "generalized-alpha (stabilized index 2)" : "generalized-alpha",
                                             t0, q0, v0);
}

std::unique_ptr<Integrator> make_trapezoidal_index2(const ConstrainedSystem& sys, double t0,
                                                    const VecX& q0, const VecX& v0,
                                                    const NewmarkOptions& opt) {
  return std::make_unique<NewmarkIntegrator>(sys, AlphaParameters{0.0, 0.0, 0.25, 0.5},
                                             Level::Velocity, opt, "trapezoidal-index2", t0, q0,
                                             v0);
}

SolveResult solve_generalized_alpha(const ConstrainedSystem& sys, double t0, const VecX& q0,
                                    const VecX& v0, const NewmarkOptions& opt, const Observer& obs) {
  auto integ = make_generalized_alpha(sys, t0, q0, v0, opt);
  return run_to_end(sys, *integ, opt, obs);
}

SolveResult solve_trapezoidal_index2(const ConstrainedSystem& sys, double t0, const VecX& q0,
                                     const VecX& v0, const NewmarkOptions& opt, const Observer& obs) {
  auto integ = make_trapezoidal_index2(sys, t0, q0, v0, opt);
  return run_to_end(sys, *integ, opt, obs);
}

}  // namespace mbdae
