#pragma once
/// @file SolverRegistry.h
/// Every time integrator of mbdae, described once: its model-file name, the formulation it runs
/// on, and what it supports. The model loader's refusals ("contacts are not handled by lie_rk4"),
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

/// Which formulation and which kind of integrator a solver belongs to.
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
/// The solver named `name` (model-file spelling); nullptr if there is none.
const SolverInfo* find_solver(std::string_view name);
/// "generalized_alpha, ida, …": the names of every solver, for messages.
std::string solver_names();
/// Names of the solvers for which `accepts(info)` holds, joined by ", " (for messages such as
/// "driven joints are handled by generalized_alpha, ida, …").
std::string solver_names_where(bool (*accepts)(const SolverInfo&));

}  // namespace mbdae
