// Cost of forward sensitivities relative to the plain run (docs/sensitivities.md):
//   the model's plain run (io::ModelRun, its settings as in the file: modified Newton) against
//   io::SensitivityRun with P = 1, 2, 4 parameters (generalized-α's direct differentiation: one
//   fresh factorization of the step's Newton matrix per step, then per parameter two residual and
//   two constraint evaluations and one pair of triangular solves per step, and the sensor columns'
//   differences at each output time).
// Timed: run() only (std::chrono::steady_clock, median of R repeats); the set-up (loading and
// preparing the model at p ± δ for each parameter) is reported apart.
// Prints: the plain run's time, each sensitivity run's time, the overhead with P parameters
// (T_P − T_plain)/T_plain and the cost per parameter (T_P − T_1)/(P − 1)/T_plain.
//
// Usage: sensitivity_bench [MODEL] [--repeats R] [--param KEY ...]
//   default: examples/models/slider_crank.yaml with bodies[0].mass, bodies[1].mass, bodies[2].mass,
//   joints[1].point[0].

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <mbdae/io/Run.h>
#include <mbdae/io/Sensitivity.h>

using namespace mbdae;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> x) {
  std::sort(x.begin(), x.end());
  return x[x.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  std::string model = std::string(MBDAE_SOURCE_DIR) + "/examples/models/slider_crank.yaml";
  int repeats = 5;
  std::vector<std::string> keys;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--repeats" && i + 1 < argc) repeats = std::max(1, std::atoi(argv[++i]));
    else if (a == "--param" && i + 1 < argc) keys.push_back(argv[++i]);
    else model = a;
  }
  if (keys.empty()) keys = {"bodies[0].mass", "bodies[1].mass", "bodies[2].mass", "joints[1].point[0]"};

  std::vector<double> plain;
  long steps = 0, factorizations = 0;
  const io::LoadedModel m = io::load_model_file(model);
  for (int r = 0; r < repeats; ++r) {
    io::ModelRun run(m);
    const auto t0 = std::chrono::steady_clock::now();
    const SolveResult res = run.run(nullptr);
    plain.push_back(seconds_since(t0));
    steps = res.stats.steps;
    factorizations = res.stats.factorizations;
  }
  const double tp = median(plain);
  std::printf("model %s\nplain run: %.4f s (%ld steps, %ld factorizations)\n", model.c_str(), tp, steps, factorizations);
  double t1 = 0;
  for (size_t P = 1; P <= keys.size(); P *= 2) {
    const std::vector<std::string> k(keys.begin(), keys.begin() + static_cast<long>(P));
    std::vector<double> times, setups;
    long fz = 0;
    for (int r = 0; r < repeats; ++r) {
      const auto s0 = std::chrono::steady_clock::now();
      io::SensitivityRun run(model, {}, k);
      setups.push_back(seconds_since(s0));
      const auto t0 = std::chrono::steady_clock::now();
      const SolveResult res = run.run(nullptr);
      times.push_back(seconds_since(t0));
      fz = res.stats.factorizations;
    }
    const double t = median(times);
    if (P == 1) t1 = t;
    std::printf("P = %zu: %.4f s (set-up %.4f s, %ld factorizations), overhead (T_P - T_plain)/T_plain = %.2f", P, t,
                median(setups), fz, (t - tp) / tp);
    if (P > 1) std::printf(", per parameter beyond the first (T_P - T_1)/(P - 1)/T_plain = %.3f", (t - t1) / double(P - 1) / tp);
    std::printf("\n");
  }
  return 0;
}
