#include <mbdae/study/Sampling.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace mbdae::study {

namespace {

/// SplitMix64's output function (Steele, Lea, Flood 2014): spreads a counter over 64 bits.
std::uint64_t mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// Φ⁻¹(p) for 0 < p ≤ 1/2: P. J. Acklam's rational approximation (relative error < 1.15e-9),
/// then one Halley step on Φ(x) − p, which brings it to the accuracy of erfc.
double lower_quantile(double p) {
  static constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                                 1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
  static constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                                 6.680131188771972e+01,  -1.328068155288572e+01};
  static constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                                 -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
  static constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                                 3.754408661907416e+00};
  double x;
  if (p < 0.02425) {
    const double q = std::sqrt(-2 * std::log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else {
    const double q = p - 0.5, r = q * q;
    x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  }
  const double e = normal_cdf(x) - p;
  const double u = e * std::sqrt(2 * M_PI) * std::exp(0.5 * x * x);
  return x - u / (1 + 0.5 * x * u);
}

}  // namespace

RandomStream::RandomStream(std::uint64_t seed, std::uint64_t index)
    : engine_(mix(seed + 0x9e3779b97f4a7c15ULL * (index + 1))) {}

double RandomStream::uniform() {
  const std::uint64_t k = engine_() >> 11;
  return (static_cast<double>(k) + 0.5) * 0x1p-53;
}

std::uint64_t RandomStream::below(std::uint64_t n) {
  // 2^64 mod n values at the bottom would make small results more likely: draw again there.
  const std::uint64_t reject = (0 - n) % n;
  std::uint64_t x;
  do x = engine_();
  while (x < reject);
  return x % n;
}

double normal_cdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

double normal_quantile(double p) {
  if (!(p >= 0 && p <= 1)) return std::numeric_limits<double>::quiet_NaN();
  if (p == 0) return -std::numeric_limits<double>::infinity();
  if (p == 1) return std::numeric_limits<double>::infinity();
  // 1 − p is exact for p ≥ 1/2; the lower tail keeps the refinement accurate.
  return p <= 0.5 ? lower_quantile(p) : -lower_quantile(1 - p);
}

std::vector<std::vector<double>> unit_samples(long samples, int dims, std::uint64_t seed, bool latin) {
  std::vector<std::vector<double>> u(static_cast<size_t>(samples), std::vector<double>(static_cast<size_t>(dims)));
  for (int j = 0; j < dims; ++j) {
    RandomStream rs(seed, static_cast<std::uint64_t>(j));
    std::vector<long> stratum(static_cast<size_t>(samples));
    if (latin) {
      // Fisher–Yates: a uniformly random permutation of the strata.
      std::iota(stratum.begin(), stratum.end(), 0L);
      for (long i = samples - 1; i > 0; --i)
        std::swap(stratum[static_cast<size_t>(i)],
                  stratum[static_cast<size_t>(rs.below(static_cast<std::uint64_t>(i) + 1))]);
    }
    for (long i = 0; i < samples; ++i) {
      const double r = rs.uniform();
      double& x = u[static_cast<size_t>(i)][static_cast<size_t>(j)];
      x = latin ? (static_cast<double>(stratum[static_cast<size_t>(i)]) + r) / static_cast<double>(samples) : r;
      // (n − 1 + r) / n can round up to 1: keep the point inside the open cube.
      x = std::min(x, 1 - 0x1p-53);
    }
  }
  return u;
}

}  // namespace mbdae::study
