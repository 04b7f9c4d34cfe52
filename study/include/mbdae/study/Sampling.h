#pragma once
/// @file Sampling.h
/// Random draws of a study, defined bit for bit so that a study gives the same cases on every
/// machine and with every standard library: std::mt19937_64 (its output sequence is fixed by the
/// C++ standard) seeded per parameter through SplitMix64, doubles from the top 53 bits, normal
/// quantiles by a rational approximation refined with erfc; no std::*_distribution (their
/// algorithms are implementation-defined).

#include <cstdint>
#include <random>
#include <vector>

namespace mbdae::study {

/// One parameter's stream of uniform numbers.
class RandomStream {
 public:
  /// Stream `index` of the study seeded with `seed` (streams of one seed are independent).
  RandomStream(std::uint64_t seed, std::uint64_t index);
  /// Uniform in the open interval (0, 1): (k + 1/2) 2^-53, k the top 53 bits of the next output.
  double uniform();
  /// Uniform integer in [0, n), n ≥ 1, without modulo bias (rejection).
  std::uint64_t below(std::uint64_t n);

 private:
  std::mt19937_64 engine_;
};

/// Φ(z), the standard normal distribution function.
double normal_cdf(double z);
/// Φ⁻¹(p) for p in (0, 1), to a few units in the last place; ±inf at p = 0 or 1, NaN outside.
double normal_quantile(double p);

/// Points in the unit cube (0, 1)^dims, one row per sample (u[i][j]: sample i, dimension j).
/// Random: independent uniforms, dimension j from stream j. Latin hypercube: in each dimension
/// every stratum [k/n, (k+1)/n) holds exactly one point, strata permuted at random, the point
/// uniform inside its stratum.
std::vector<std::vector<double>> unit_samples(long samples, int dims, std::uint64_t seed, bool latin);

}  // namespace mbdae::study
