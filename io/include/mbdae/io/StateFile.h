#pragma once
/// @file StateFile.h
/// Restart files: the state of a run at one time, written by `mbdae run --save-state FILE` and
/// read by `mbdae run --restart FILE`, which continues the run from there (docs/results-format.md
/// describes the file). The numbers are written as hexadecimal floating point (C99 "%a"), so they
/// are read back bit for bit.
///
/// Text, one item a line, `#` comments; version 1:
///
///     mbdae-state 1
///     model <name as a JSON string>
///     solver <solver.type>
///     coordinates <n> constraints <m> bodies <number of bodies>
///     time <t>
///     array <name> <count> <values…>        (state.q, state.v, state.a, state.lambda, the
///                                            solver's history, sensors.memory)
///     end

#include <cstddef>
#include <string>
#include <vector>

#include <mbdae/solvers/SolverCommon.h>

namespace mbdae::io {

inline constexpr int kStateFileVersion = 1;
/// The largest state file read (a FIFO or a device is refused; docs/results-format.md).
inline constexpr std::size_t kMaxStateFileBytes = std::size_t{1} << 30;

/// A run's state at one time and what its solver and sensors carry from step to step.
struct RunState {
  std::string model;    ///< the model's name (a check on restart)
  std::string solver;   ///< solver.type of the run that wrote it
  int coordinates = 0;  ///< size of q in the solver's formulation
  int constraints = 0;  ///< m (0 on the explicit paths)
  int bodies = 0;       ///< number of bodies of the model
  double t = 0;         ///< s
  VecX q, v, a, lambda; ///< the solver's state (a, λ empty where it has none)
  IntegratorHistory history;        ///< Integrator::history()
  std::vector<double> sensor_memory;  ///< SensorSet::memory()
};

/// Writes `s` to `path`. @throws std::runtime_error naming the file if it cannot be written.
void write_state_file(const std::string& path, const RunState& s);
/// Reads a state file (a regular file of at most kMaxStateFileBytes; an array's count at most half
/// its line's length). @throws std::runtime_error naming the file, the line and what is wrong
/// (never quoting the file's text).
RunState read_state_file(const std::string& path);

}  // namespace mbdae::io
