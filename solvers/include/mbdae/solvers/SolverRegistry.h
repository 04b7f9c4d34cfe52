#pragma once
/// @file SolverRegistry.h
/// Every time integrator of mbdae, described once: its identifier (SolverType), its model-file
/// name, the formulation it runs on, and what it supports. The model loader's refusals ("contacts are not handled by lie_rk4"),
/// the sensors a run can give, the command line's summaries and the docs' tables read these
/// declarations; no other place keeps a list of solvers.
///
/// | name               | path         | formulation (state)             | step           |
/// |--------------------|--------------|---------------------------------|----------------|
/// | generalized_alpha  | implicit     | Multibody.h (index 3)           | fixed/adaptive |
/// | ida                | implicit     | Multibody.h (stabilized index 2)| adaptive (BDF) |
/// | trapezoidal_index2 | implicit     | Multibody.h (index 2)           | fixed/adaptive |
/// | rk4                | Newton–Euler | NewtonEuler.h                   | fixed          |
/// | dopri5             | Newton–Euler | NewtonEuler.h                   | adaptive       |
/// | lie_rk4            | Lie group    | LieGroupBodies.h                | fixed          |
/// | impulse            | impulse      | NewtonEuler.h (velocity level)  | fixed          |

#include <string>
#include <string_view>
#include <vector>

namespace mbdae {

/// Every time integrator of mbdae: the one identifier of a solver, in the C++ API
/// (SimulationSettings::solver), the model file (`solver.type`, by its registry name) and the
/// bindings alike.
enum class SolverType {
  GeneralizedAlpha,   ///< generalized_alpha: solve_generalized_alpha() (index 3 or GGL)
  Ida,                ///< ida: solve_ida() (stabilized index 2, BDF); not in a build without
                      ///< SUNDIALS (MBDAE_WITH_IDA=OFF), where it is refused by name
  TrapezoidalIndex2,  ///< trapezoidal_index2: solve_trapezoidal_index2()
  RK4,                ///< rk4: make_explicit() with ExplicitMethod::RK4
  Dopri5,             ///< dopri5: make_explicit() with ExplicitMethod::Dopri5
  LieRK4,             ///< lie_rk4: make_lie_group() with LieGroupMethod::RK4
  Impulse,            ///< impulse: make_impulse()
};
/// The solver's registry name ("generalized_alpha", ..., "impulse"), also for ida in a build
/// without it. No throw.
const char* to_string(SolverType s);
/// The solver of that registry name.
/// @throws SolverSettingsError for a name that is no solver of mbdae, or ida in a build without
///         SUNDIALS (the message says why).
SolverType solver_type_from_string(std::string_view name);

/// Which formulation and which family of integrators a solver belongs to (its settings:
/// SolverSettings.h, one struct per family).
enum class SolverPath {
  Implicit,     ///< MultibodySystem + make_integrator() (Simulation.h)
  NewtonEuler,  ///< NewtonEulerSystem + make_explicit() (Explicit.h)
  LieGroup,     ///< LieGroupBodies + make_lie_group() (Explicit.h)
  Impulse,      ///< NewtonEulerSystem + make_impulse() (ImpulseStepper.h)
};

/// What a model may contain for a solver, and what its states carry.
struct SolverSupport {
  bool joints;               ///< joints of any type
  bool driven_joints;        ///< joints with `motion`
  bool force_elements;       ///< spring-dampers and user forces (System::forces())
  bool contacts;             ///< contact shapes
  bool contact_penalty;      ///< contacts as penalty forces (needs penalty parameters)
  bool rolling_resistance;   ///< contact rolling resistance
  bool torsional_friction;   ///< contact torsional (spinning) friction
  bool accelerations;        ///< a run gives accelerations at its output times (acceleration sensors)
  bool multipliers;          ///< a run gives the joints' multipliers at its output times (reaction sensors)
  bool couplings;            ///< couplings of joint coordinates (System::couplings()) and 1-D shafts (System::shafts())
  bool controller_states;    ///< controller states integrated with the mechanism (System::controller_states())
  bool reaction_friction;    ///< joint_friction with the joint's reaction as normal force (`normal: reaction`)
};

/// One solver's declaration.
struct SolverInfo {
  SolverType type;          ///< the solver's identifier
  const char* name;         ///< model-file `solver.type`
  SolverPath path;          ///< formulation and integrator family
  bool adaptive;            ///< chooses its own steps from `tolerance` (else `step` is fixed)
  SolverSupport support;    ///< what a model may contain, what the states carry
  const char* description;  ///< one line for docs and `mbdae --help`
};

/// Every solver of this build, in the order of the table above. A build without SUNDIALS
/// (MBDAE_WITH_IDA=OFF) has no ida.
const std::vector<SolverInfo>& solvers();
/// Why a solver of mbdae is not in this build ("is not available in this build: ..."), or nullptr
/// if it is (or if there is no such solver).
const char* unavailable_solver(std::string_view name);
/// The reason a build without SUNDIALS gives for ida.
inline constexpr const char* kIdaUnavailable =
    "is not available in this build: mbdae was built without SUNDIALS IDA (MBDAE_WITH_IDA=OFF)";
/// The solver named `name` (model-file spelling); nullptr if there is none in this build.
const SolverInfo* find_solver(std::string_view name);
/// The declaration of solver `type`.
/// @throws SolverSettingsError for ida in a build without SUNDIALS.
const SolverInfo& solver_info(SolverType type);
/// "generalized_alpha, ida, …": the names of every solver, for messages.
std::string solver_names();
/// Names of the solvers for which `accepts(info)` holds, joined by ", " (for messages such as
/// "driven joints are handled by generalized_alpha, ida, …").
std::string solver_names_where(bool (*accepts)(const SolverInfo&));

}  // namespace mbdae
