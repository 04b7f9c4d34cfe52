// The registry of force element types (ForceTypes.h): one line per type, in the order of ForceType.
#include "Forces.h"

#include <stdexcept>

namespace mbdae {

const std::vector<ForceTypeInfo>& force_types() {
  static const std::vector<ForceTypeInfo> table = [] {
    std::vector<ForceTypeInfo> t{
        forces::spring_damper(),
        forces::torsional_spring_damper(),
        forces::rigid_body_spring_damper(),
        forces::cartesian_spring_damper(),
        forces::user(),
        forces::end_stop(),
        forces::joint_motor(),
        forces::joint_friction(),
        forces::joint_limit(),
    };
    for (size_t i = 0; i < t.size(); ++i)
      if (static_cast<size_t>(t[i].type) != i) throw std::logic_error("force_types: registry out of order");
    return t;
  }();
  return table;
}

const ForceTypeInfo& force_type_info(ForceType t) { return force_types()[static_cast<size_t>(t)]; }

const ForceTypeInfo* find_force_type(std::string_view name) {
  for (const ForceTypeInfo& t : force_types())
    if (name == t.name) return &t;
  return nullptr;
}

const char* to_string(ForceType t) { return force_type_info(t).name; }

}  // namespace mbdae
