#include <mbdae/io/ResultMeta.h>

#include <mbdae/io/Scene.h>

namespace mbdae::io {

std::string run_meta_json(const LoadedModel& m, const SensorSet& sensors) {
  std::string out = "{\n  \"model\": " + json_quoted(m.system.name.empty() ? m.file : m.system.name) +
                    ",\n  \"file\": " + json_quoted(m.file) + ",\n  \"solver\": " + json_quoted(m.solver_name()) +
                    ",\n  \"columns\": [\n    {\"name\": \"time\", \"unit\": \"s\", \"sensor\": \"time\", \"output\": \"time\"}";
  for (int c = 0; c < sensors.size(); ++c) {
    const auto k = static_cast<size_t>(c);
    const SensorSpec& sp = sensors.specs()[static_cast<size_t>(sensors.column_sensor()[k])];
    out += ",\n    {\"name\": " + json_quoted(sensors.columns()[k]) + ", \"unit\": " + json_quoted(sensors.units()[k]) +
           ", \"sensor\": " + json_quoted(sp.name) + ", \"output\": " + json_quoted(to_string(sp.output)) + "}";
  }
  return out + "\n  ]\n}\n";
}

}  // namespace mbdae::io
