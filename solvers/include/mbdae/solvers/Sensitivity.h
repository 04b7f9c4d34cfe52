#pragma once
/// @file Sensitivity.h
/// Forward sensitivities of the Newmark-family integrators (generalized-α on the index-3 form and
/// the trapezoidal rule on the index-2 form) by direct differentiation of their discrete step
/// (docs/sensitivities.md; Brüls & Eberhard 2008, "Sensitivity analysis for dynamic mechanical
/// systems with finite rotations", Int. J. Numer. Meth. Engng 74:1897–1927).
///
/// For a parameter p, with S_x = dx/dp for x ∈ {q, v, q̈, a, λ}, the step n → n+1 of
/// GeneralizedAlpha.h differentiated is
///     (1 − α_m) S_a,n+1 + α_m S_a,n = (1 − α_f) S_q̈,n+1 + α_f S_q̈,n
///     S_q,n+1 = S_q,n + h S_v,n + h²(½ − β) S_a,n + h² β S_a,n+1
///     S_v,n+1 = S_v,n + h(1 − γ) S_a,n + h γ S_a,n+1
/// and, with the predictors S̃_q, S̃_v (the above with S_q̈,n+1 = 0),
///     [ M + (γ'/β') r_v + (1/β') r_q   r_λ ] [S_q̈,n+1]   [ −(r_q S̃_q + r_v S̃_v + r_p)          ]
///     [ C_q (position rows; C_q + Ċ_q/γ' velocity rows) 0 ] [S_λ,n+1 ] = [ −β'(C_q S̃_q + C_p); −(β'/γ')(Ċ_q S̃_q + C_q S̃_v + Ċ_p) ]
/// all at the converged state of step n+1: the step's Newton matrix, formed afresh there (the
/// modified Newton iteration's matrix may be older) and factorized once for all parameters. The
/// right-hand sides are one directional central difference each,
///     r_q S̃_q + r_v S̃_v + r_p ≈ [r_{p+δ}(q + δ S̃_q, v + δ S̃_v) − r_{p−δ}(q − δ S̃_q, v − δ S̃_v)] / 2δ
/// (q̈ and λ held), from the system rebuilt with p ± δ (ParameterSystems): differences of the
/// residual at one state, never of whole runs.
///
/// The step sizes are those of the nominal run (an adaptive run's step sequence is taken as
/// independent of p). Refused: the stabilized index-2 form (GGL; its position projection is not
/// differentiated), and a step taken with compliant constraints (a singular configuration: the
/// run stops there, naming the time).

#include <memory>
#include <vector>

#include <mbdae/solvers/GeneralizedAlpha.h>
#include <mbdae/solvers/SolverSettings.h>

namespace mbdae {

/// One parameter p of a sensitivity run: the system rebuilt with p − δ and with p + δ, with the
/// same coordinates and constraint rows as the nominal one; δ > 0 in the parameter's unit.
struct ParameterSystems {
  const ConstrainedSystem* minus = nullptr;  ///< the system at p − δ (outlives the integrator)
  const ConstrainedSystem* plus = nullptr;   ///< the system at p + δ
  double delta = 0;                          ///< δ
};

/// dx/dp of a state, one column per parameter: q, v, q̈ (n × P) and λ (m × P).
struct StateSensitivities {
  MatX q;       ///< dq/dp, n × P
  MatX v;       ///< dv/dp, n × P
  MatX a;       ///< dq̈/dp, n × P
  MatX lambda;  ///< dλ/dp, m × P
};

/// An integrator that carries the sensitivities of its state to the parameters.
class SensitivityIntegrator : public Integrator {
 public:
  /// The sensitivities of state() (valid until the next advance_to()).
  virtual const StateSensitivities& sensitivities() const = 0;
};

/// The integrator of make_generalized_alpha() (trapezoidal = false) or make_trapezoidal_index2()
/// (true) with the sensitivities to `params`, starting from S_q,0 = dq0 and S_v,0 = dv0 (n × P,
/// the derivatives of the consistent initial state); S_q̈,0 and S_λ,0 are the directional central
/// differences of the consistent initial accelerations and multipliers (initial_accelerations()).
/// @throws SolverSettingsError as make_generalized_alpha(), for opt.formulation = index2_ggl, and
///         for parameter systems of other sizes than `sys` or δ ≤ 0, or dq0, dv0 of the wrong size.
std::unique_ptr<SensitivityIntegrator> make_newmark_sensitivity(const ConstrainedSystem& sys, double t0,
                                                                const VecX& q0, const VecX& v0,
                                                                const NewmarkOptions& opt, bool trapezoidal,
                                                                std::vector<ParameterSystems> params,
                                                                const MatX& dq0, const MatX& dv0);

/// The integrator of the run's solver (make_integrator(), SolverSettings.h) with the forward
/// sensitivities to `params`: generalized_alpha (index 3) and trapezoidal_index2; the translation
/// of the settings is SolverSettings.cpp's. dq0, dv0: d(q0, v0)/dp, n × P.
/// @throws SolverSettingsError as make_newmark_sensitivity(), and naming any other solver.
std::unique_ptr<SensitivityIntegrator> make_sensitivity_integrator(const ConstrainedSystem& sys, double t0,
                                                                   const VecX& q0, const VecX& v0,
                                                                   const SimulationSettings& s,
                                                                   std::vector<ParameterSystems> params,
                                                                   const MatX& dq0, const MatX& dv0);

}  // namespace mbdae
