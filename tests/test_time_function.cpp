// TimeFunction: derivatives of driven-joint motions by Richardson-extrapolated differences.

#include <catch2/catch.hpp>

#include <cmath>

#include <mbdae/model/System.h>

using namespace mbdae;

TEST_CASE("TimeFunction derivatives: given, or by extrapolated differences", "[model][time_function]") {
  TimeFunction f;
  f.value = [](double t) { return 0.3 * std::sin(2 * t) + 0.5 * t * t + 2 * M_PI * t; };
  auto d1 = [](double t) { return 0.6 * std::cos(2 * t) + t + 2 * M_PI; };
  auto d2 = [](double t) { return -1.2 * std::sin(2 * t) + 1.0; };
  for (double t : {0.0, 0.37, 1.0, 5.5, 40.0}) {
    // Fourth-order differences: ~1e-11 (first) and ~1e-9 (second derivative) for this scale.
    CHECK(std::abs(f.derivative(t) - d1(t)) < 1e-9);
    CHECK(std::abs(f.second_derivative(t) - d2(t)) < 1e-7);
  }
  f.velocity = d1;
  CHECK(f.derivative(0.4) == d1(0.4));
  CHECK(std::abs(f.second_derivative(0.4) - d2(0.4)) < 1e-9);  // differences of the velocity
  f.acceleration = d2;
  CHECK(f.second_derivative(0.4) == d2(0.4));
  CHECK(static_cast<bool>(f));
  CHECK_FALSE(static_cast<bool>(TimeFunction{}));
}
