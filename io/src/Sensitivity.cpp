/// @file Sensitivity.cpp
/// A model file's run with forward sensitivities (Sensitivity.h, docs/sensitivities.md).

#include <mbdae/io/Sensitivity.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include <mbdae/formulations/Multibody.h>
#include <mbdae/io/Run.h>
#include <mbdae/model/ForceTypes.h>
#include <mbdae/solvers/Sensitivity.h>

namespace mbdae::io {

namespace {

/// Relative step of the parameters' central differences: about the cube root of the machine
/// epsilon, where the truncation error (δ²) and the round-off (ε/δ) of a central difference balance.
constexpr double kRelativeStep = 1e-5;
/// The scale below which a parameter's step is no longer relative (a value near 0).
constexpr double kStepFloor = 1e-3;

/// What sensitivities cannot take in `m` (non-smooth elements, solvers), each by name; empty if none.
std::vector<std::string> refusals(const LoadedModel& m) {
  std::vector<std::string> why;
  const SimulationSettings& s = m.settings;
  if (s.solver != SolverType::GeneralizedAlpha && s.solver != SolverType::TrapezoidalIndex2)
    why.push_back("solver.type: " + m.solver_name() +
                  " has no sensitivities yet (generalized_alpha with formulation index3, and trapezoidal_index2, have)");
  else if (s.solver == SolverType::GeneralizedAlpha && s.formulation == AlphaFormulation::StabilizedIndex2)
    why.push_back("solver.formulation: index2_ggl has no sensitivities (its position projection is not "
                  "differentiated): use solver.formulation: index3");
  for (const Contact& c : m.system.contacts())
    why.push_back("contact shape on body '" + c.body + "': contacts switch on and off (non-smooth), no sensitivities");
  for (const ForceElement& f : m.system.forces()) {
    if (f.type == ForceType::EndStop || f.type == ForceType::JointLimit)
      why.push_back(std::string(force_type_info(f.type).name) + " '" + f.name +
                    "': one-sided stops switch on and off (non-smooth), no sensitivities");
    else if (f.type == ForceType::JointFriction && (f.friction != 0 || f.static_friction || f.normal_from_reaction))
      why.push_back("joint_friction '" + f.name +
                    "': its Coulomb part switches with the sliding direction (non-smooth), no sensitivities "
                    "(viscous friction alone is taken)");
  }
  return why;
}

}  // namespace

struct SensitivityRun::Impl {
  std::vector<SensitivityParameter> params;
  std::unique_ptr<LoadedModel> model;
  std::unique_ptr<ModelRun> nominal;
  // For each parameter: the models and runs at p − δ and p + δ.
  std::vector<std::unique_ptr<LoadedModel>> models_minus, models_plus;
  std::vector<std::unique_ptr<ModelRun>> minus, plus;
  std::unique_ptr<SensitivityIntegrator> integ;  // the nominal run's, with the sensitivities
};

SensitivityRun::SensitivityRun(const std::string& file, const std::vector<Override>& overrides,
                               const std::vector<std::string>& keys)
    : impl_(std::make_unique<Impl>()) {
  Impl& I = *impl_;
  if (keys.empty()) throw std::invalid_argument("sensitivities need at least one parameter (--param KEY)");
  for (size_t k = 0; k < keys.size(); ++k)
    for (size_t j = 0; j < k; ++j)
      if (keys[j] == keys[k]) throw std::invalid_argument("parameter '" + keys[k] + "' is given twice");
  I.model = std::make_unique<LoadedModel>(load_model_file(file, overrides));
  if (std::vector<std::string> why = refusals(*I.model); !why.empty()) {
    std::string text = "no sensitivities of " + file + ":";
    for (const std::string& w : why) text += "\n  " + w;
    throw std::invalid_argument(text);
  }
  for (const std::string& key : keys) {
    // The solver's and the output's settings change the discretization, not the model.
    if (key.rfind("solver.", 0) == 0 || key.rfind("output.", 0) == 0)
      throw std::invalid_argument("parameter '" + key +
                                  "': a setting of the solver or the output is no parameter of the model");
    SensitivityParameter p;
    p.key = key;
    p.value = model_number(file, overrides, key);
    p.delta = kRelativeStep * std::max(std::abs(p.value), kStepFloor);
    I.params.push_back(p);
  }
  I.nominal = std::make_unique<ModelRun>(*I.model);
  const MultibodySystem& sys = *I.nominal->multibody();
  const StateView s0 = I.nominal->integrator().state();
  const VecX q0 = s0.q, v0 = s0.v;
  const int n = static_cast<int>(q0.size());
  const auto P = static_cast<Eigen::Index>(I.params.size());
  MatX dq0(n, P), dv0(n, P);
  std::vector<ParameterSystems> systems;
  for (Eigen::Index k = 0; k < P; ++k) {
    const SensitivityParameter& p = I.params[static_cast<size_t>(k)];
    auto at = [&](double value) {
      std::vector<Override> o = overrides;
      std::ostringstream v;
      v.precision(17);
      v << value;
      o.push_back({p.key, v.str()});
      auto m = std::make_unique<LoadedModel>(load_model_file(file, o));
      auto r = std::make_unique<ModelRun>(*m);
      if (r->multibody()->num_coordinates() != sys.num_coordinates() ||
          r->multibody()->num_constraints() != sys.num_constraints())
        throw std::invalid_argument("parameter '" + p.key + "' changes the equations' size at " + v.str() +
                                    " (coordinates or independent constraint rows); no sensitivities");
      return std::make_pair(std::move(m), std::move(r));
    };
    auto [mm, rm] = at(p.value - p.delta);
    auto [mp, rp] = at(p.value + p.delta);
    const StateView sm = rm->integrator().state(), sp = rp->integrator().state();
    dq0.col(k) = (sp.q - sm.q) / (2 * p.delta);
    dv0.col(k) = (sp.v - sm.v) / (2 * p.delta);
    systems.push_back({rm->multibody(), rp->multibody(), p.delta});
    I.models_minus.push_back(std::move(mm));
    I.models_plus.push_back(std::move(mp));
    I.minus.push_back(std::move(rm));
    I.plus.push_back(std::move(rp));
  }
  I.integ = make_sensitivity_integrator(sys, 0.0, q0, v0, I.model->settings, std::move(systems), dq0, dv0);
}

SensitivityRun::~SensitivityRun() = default;

const LoadedModel& SensitivityRun::model() const { return *impl_->model; }
const SensorSet& SensitivityRun::sensors() const { return impl_->nominal->sensors(); }
const std::vector<SensitivityParameter>& SensitivityRun::parameters() const { return impl_->params; }
std::string SensitivityRun::method_summary() const { return impl_->nominal->method_summary(); }

SolveResult SensitivityRun::run(const SensitivityObserver& obs) {
  Impl& I = *impl_;
  SensorSet& sensors = I.nominal->sensors();
  const int cols = sensors.size();
  const size_t P = I.params.size();
  std::vector<double> row(static_cast<size_t>(cols)), rm(row.size()), rp(row.size()), d(row.size() * P);
  VecX q, v, a, l;
  const Observer observer = [&](const StateView& s) {
    sensors.evaluate(s, row);
    const StateSensitivities& S = I.integ->sensitivities();
    for (size_t k = 0; k < P; ++k) {
      const double h = I.params[k].delta;
      const auto K = static_cast<Eigen::Index>(k);
      auto eval = [&](ModelRun& r, double sign, std::vector<double>& out) {
        q = s.q + sign * h * S.q.col(K);
        v = s.v + sign * h * S.v.col(K);
        a = s.a.size() ? VecX(s.a + sign * h * S.a.col(K)) : s.a;
        l = s.lambda.size() ? VecX(s.lambda + sign * h * S.lambda.col(K)) : s.lambda;
        r.sensors().evaluate(StateView{s.t, q, v, a, l}, out);
      };
      eval(*I.minus[k], -1, rm);
      eval(*I.plus[k], 1, rp);
      for (int j = 0; j < cols; ++j)
        d[k * static_cast<size_t>(cols) + static_cast<size_t>(j)] =
            (rp[static_cast<size_t>(j)] - rm[static_cast<size_t>(j)]) / (2 * h);
    }
    return !obs || obs(s, row, d);
  };
  ConstrainedSystemMonitor monitor(*I.nominal->multibody());
  return run_to_end(monitor, *I.integ, I.model->settings, observer, run_checks(*I.model), 0.0);
}

}  // namespace mbdae::io
