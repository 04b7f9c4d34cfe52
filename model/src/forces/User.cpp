// User force: a C++ function of time and the motions of any number of bodies (not ground)
// returns one wrench per body (System.h, UserForceFunction), optionally with its Jacobian.
#include "Forces.h"

namespace mbdae::forces {

const ForceTypeInfo& user() {
  static const ForceTypeInfo info{
      ForceType::User, "user", "a user function of time and the bodies' motions (C++ only)", {}, false, false,
      [](const ForceElement& f, std::vector<KeyProblem>& p) {
        if (f.bodies.empty()) p.push_back({nullptr, "needs at least one body"});
        if (!f.user) p.push_back({nullptr, "no user function"});
      },
      nullptr, nullptr};
  return info;
}

}  // namespace mbdae::forces
