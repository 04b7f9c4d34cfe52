// A model file loaded and run through the installed mbdae::io, from outside the mbdae source tree:
// the same run as `mbdae run MODEL --set solver.end_time=1` (io::ModelRun, the solver the file
// names). Given the IFToMM A01 simple pendulum (examples/models/simple_pendulum.yaml: a 1 kg bob
// on a massless 1 m link, released at rest with the link horizontal), it compares the bob's
// position at t = 1 s with the benchmark's reference solution and exits 0 if they agree.
//
//   usage: pendulum_from_file simple_pendulum.yaml

#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include <mbdae/io/ModelLoader.h>
#include <mbdae/io/Run.h>

int main(int argc, char** argv) {
  using namespace mbdae;
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s simple_pendulum.yaml\n", argv[0]);
    return 2;
  }
  std::optional<io::LoadedModel> m;
  try {
    m = io::load_model_file(argv[1], {{"solver.end_time", "1"}});
  } catch (const io::LoadError& e) {
    std::fprintf(stderr, "%s\n", e.what());  // every problem, as FILE:LINE:COL: KEY: message
    return 2;
  }
  std::unique_ptr<io::ModelRun> run;
  try {
    run = std::make_unique<io::ModelRun>(*m);
  } catch (const ModelError& e) {  // each problem located at its item in the file
    for (const ModelProblem& p : e.details()) std::fprintf(stderr, "%s\n", m->locate(p).to_string().c_str());
    return 2;
  } catch (const ItemError& e) {
    std::fprintf(stderr, "%s\n", m->locate({e.what(), e.item()}).to_string().c_str());
    return 2;
  }

  // The columns of the sensor `bob` (output: position): bob.x, bob.y, bob.z.
  const std::vector<std::string>& columns = run->sensors().columns();
  int ix = -1;
  for (size_t c = 0; c < columns.size(); ++c)
    if (columns[c] == "bob.x") ix = static_cast<int>(c);
  if (ix < 0) {
    std::fprintf(stderr, "%s: no position sensor named 'bob'\n", argv[1]);
    return 2;
  }
  double t = 0, x = NAN, y = NAN;
  const SolveResult r = run->run([&](const StateView& s, std::span<const double> row) {
    t = s.t;
    x = row[static_cast<size_t>(ix)];
    y = row[static_cast<size_t>(ix) + 1];
    return true;
  });

  // IFToMM A01 reference at t = 1 s (library of computational benchmark problems; also in
  // validation/): the bob at (-0.986291751132, -0.165010853126) m.
  const double x_ref = -0.986291751132, y_ref = -0.165010853126;
  const double error = std::hypot(x - x_ref, y - y_ref);
  std::printf("%s: %s with %s: t = %g s, bob at (%.9f, %.9f) m, reference (%.9f, %.9f) m, error %.2e m\n",
              m->system.name.c_str(), to_string(r.status), run->method_summary().c_str(), t, x, y, x_ref, y_ref,
              error);
  return r.ok() && t == 1.0 && error < 1e-4 ? 0 : 1;
}
