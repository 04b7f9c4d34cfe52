// The checks of a flexible cable (Cable.h).

#include <mbdae/model/System.h>

#include <cmath>
#include <set>

namespace mbdae {

std::vector<std::string> cable_problems(const System& system, const Cable& c) {
  std::vector<std::string> out;
  const std::string who = "cable '" + c.name + "'";
  auto add = [&](const std::string& m) { out.push_back(who + ": " + m); };
  if (c.name.empty()) out.push_back("a cable has no name");
  if (c.name == "ground") add("'ground' is the fixed body, not a cable name");
  int same = 0;
  for (const Cable& d : system.cables()) same += d.name == c.name;
  if (same > 1) add("duplicate cable name");
  if (system.find_body(c.name) && c.name != "ground") add("a body has the same name");
  if (c.segments < 1 || c.segments > 10000) add("segments is " + std::to_string(c.segments) + ", expected 1 … 10000");
  const auto positive = [&](double x, const char* key) {
    if (!(std::isfinite(x) && x > 0)) add(std::string(key) + " must be > 0");
  };
  positive(c.E, "E");
  positive(c.A, "A");
  positive(c.I, "I");
  positive(c.rho, "rho");
  if (!(std::isfinite(c.damping) && c.damping >= 0)) add("damping must be >= 0");
  const double length = (c.end - c.start).norm();
  if (!(std::isfinite(length) && length > 0)) add("start and end coincide");
  // The planar cable moves in the world x-y plane: what acts or lies out of it is refused, never
  // dropped.
  if (c.start.z() != c.end.z()) add("start and end differ in z; the planar cable lies in a plane z = const");
  if (c.load.z() != 0) add("load has a z component; the planar cable takes loads in the x-y plane only");
  if (c.velocity.z() != 0) add("velocity has a z component; the planar cable moves in the x-y plane only");
  if (system.gravity.z() != 0 && c.rho > 0)
    add("gravity has a z component and the planar cable moves in the world x-y plane; give gravity in that "
        "plane (e.g. [0, -9.81, 0])");
  std::set<int> supported;
  for (const CableSupport& s : c.supports) {
    if (s.node < 0 || s.node > c.segments) {
      add("support at node " + std::to_string(s.node) + ", expected 0 … " + std::to_string(c.segments));
      continue;
    }
    if (!supported.insert(s.node).second) add("node " + std::to_string(s.node) + " has two supports");
    if (!system.find_body(s.body)) add("support at node " + std::to_string(s.node) + ": unknown body '" + s.body + "'");
  }
  for (const CableNodeForce& f : c.node_forces) {
    if (f.node < 0 || f.node > c.segments)
      add("node force at node " + std::to_string(f.node) + ", expected 0 … " + std::to_string(c.segments));
    if (f.force.z() != 0) add("node force has a z component; the planar cable takes forces in the x-y plane only");
    if (!f.force.allFinite()) add("node force is not finite");
  }
  return out;
}

}  // namespace mbdae
