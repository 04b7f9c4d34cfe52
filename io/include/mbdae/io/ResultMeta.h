#pragma once
/// @file ResultMeta.h
/// `results.meta.json` beside a run's `results.csv` (docs/results-format.md): the model, its file,
/// the solver and, per column, its unit, sensor and output. Read by `mbdae plot` and the viewer;
/// written by `mbdae run` and by the Python Result.save().

#include <string>

#include <mbdae/io/ModelLoader.h>
#include <mbdae/io/Sensors.h>

namespace mbdae::io {

/// The meta JSON of a run of `m` whose columns are time and the columns of `sensors`.
std::string run_meta_json(const LoadedModel& m, const SensorSet& sensors);

}  // namespace mbdae::io
