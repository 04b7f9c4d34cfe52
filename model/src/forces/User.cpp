// User force: a C++ function of time and the motions of any number of bodies (not ground)
// returns one wrench per body (System.h, UserForceFunction), optionally with its Jacobian; or
// the same function also of the values of controller states (UserStateForceFunction).
#include "Forces.h"

namespace mbdae::forces {

const ForceTypeInfo& user() {
  static const ForceTypeInfo info{
      ForceType::User, "user", "a user function of time and the bodies' motions (C++ only)", {}, false, false,
      [](const ForceElement& f, std::vector<KeyProblem>& p) {
        if (f.bodies.empty()) p.push_back({nullptr, "needs at least one body"});
        if (!f.user && !f.user_of_states) p.push_back({nullptr, "no user function"});
        if (f.user && f.user_of_states) p.push_back({nullptr, "both user and user_of_states are given; give one"});
        if (!f.states.empty() && f.user && !f.user_of_states)
          p.push_back({nullptr, "reads controller states, but its function (user) takes none: give user_of_states"});
        if (f.user_of_states && f.user_jacobian)
          p.push_back({nullptr, "a user_of_states force takes no user_jacobian (its tangent, also over the states, is "
                                "formed by central differences)"});
      },
      nullptr, nullptr, nullptr, true};
  return info;
}

}  // namespace mbdae::forces
