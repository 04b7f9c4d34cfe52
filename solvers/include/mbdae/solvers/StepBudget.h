#pragma once
/// @file StepBudget.h
/// The step limit of the fixed-step solvers for a run.

#include <mbdae/solvers/SolverCommon.h>

namespace mbdae {

/// The step limit (max_steps) of the fixed-step solvers' options for a run of `s`: at least twice
/// the steps it takes, end_time / step plus one shortened step per output time (room for step
/// halvings), and never below 1e8. The model loader takes up to 1e9 steps; a limit below what the
/// run needs would stop a correct run part-way ("step limit reached"). No throw.
long step_budget(const RunSettings& s);

}  // namespace mbdae
