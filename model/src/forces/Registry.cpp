// The registry of force element types (ForceTypes.h): one entry per line of model/ForceTypeList.h,
// which also makes the enumerators of ForceType (so the order agrees by construction).
#include "Forces.h"

#include <stdexcept>

namespace mbdae {

const std::vector<ForceTypeInfo>& force_types() {
  static const std::vector<ForceTypeInfo> table = [] {
    std::vector<ForceTypeInfo> t{
#define MBDAE_FORCE_TYPE(enumerator, factory) forces::factory(),
#include <mbdae/model/ForceTypeList.h>
#undef MBDAE_FORCE_TYPE
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
