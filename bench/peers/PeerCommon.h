#pragma once
// Shared by mbdae's and the peers' benchmark programs in bench/peers: the benchmark cases, the
// command line, the reference tip positions, the CSV row every program writes, peak memory and
// the time budget. Plain C++ (no mbdae, no Eigen), so that each peer program links only its engine.
//
// The chain cases: N uniform bars (1 kg, 1 × 0.1 × 0.1 m, COM at mid-bar) along +x at
// rest, bar i from x = i to i + 1, joints at the shared ends and from bar 0 to ground at the
// origin, gravity (0, 0, −9.81), T = 1 s.
//   spherical       all joints spherical
//   revolute        all joints revolute, axis y
//   stiff_revolute  revolute chain with a torsional spring-damper in parallel to every joint,
//                   k = 1e5 N m/rad, d = 1e2 N m s/rad, reference angle 0. Under-damped
//                   (damping ratio ~0.27, ~550 rad/s): a fast oscillation that every method,
//                   explicit or implicit, has to resolve to reach the accuracy target, so it
//                   limits the step size of all methods alike.
//   damped_revolute revolute chain with k = 1e5 N m/rad, d = 1e4 N m s/rad, reference angle 0:
//                   over-damped, i.e. numerically stiff. The joint-space eigenvalues split into
//                   fast modes ~ −d/I ≈ −3e4 1/s and faster (I ≈ 0.33 kg m², a bar about its joint;
//                   the fastest, −d·λmax(M⁻¹) of the chain linearized at rest, is ≈ −3.3e5 1/s at
//                   N = 4 and ≈ −4.6e5 1/s at N = 16), which decay within ~1e-4 s and bound the step
//                   size of explicit methods (|λ h| ≲ 3, so h ≲ 1e-5 s), and slow modes ~ −k/d =
//                   −10 1/s that the solution follows. A-/L-stable implicit methods may take steps
//                   sized by the slow modes only.
// Tip = the free end of the last bar, (N, 0, 0) at t = 0. Tip error = Euclidean distance (m) to the
// reference tip position at T (chain_reference.csv, written by mbdae_chain_wp --make-reference).

#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace peers {

constexpr double kT = 1.0;                 // s, simulated time of the chain
constexpr double kGravity = 9.81;          // m/s²
constexpr double kBarMass = 1.0;           // kg
constexpr double kBarIxx = 1.0 * (0.1 * 0.1 + 0.1 * 0.1) / 12.0;  // kg m², about the COM
constexpr double kBarIyy = 1.0 * (1.0 * 1.0 + 0.1 * 0.1) / 12.0;
constexpr double kStiffK = 1e5;            // N m/rad
constexpr double kStiffD = 1e2;            // N m s/rad, stiff_revolute
constexpr double kDampedD = 1e4;           // N m s/rad, damped_revolute
/// A sweep stops refining once a run is this close to the reference (m): finer settings would
/// add nothing at the 1e-6 m target.
constexpr double kErrorFloor = 1e-8;

inline bool IsRevolute(const std::string& c) {
  return c == "revolute" || c == "stiff_revolute" || c == "damped_revolute";
}
/// The case has a torsional spring-damper (kStiffK, SpringDamping(c)) parallel to every joint.
inline bool IsStiff(const std::string& c) { return c == "stiff_revolute" || c == "damped_revolute"; }
/// Damping (N m s/rad) of the case's spring-dampers (0 for the cases without them).
inline double SpringDamping(const std::string& c) {
  return c == "stiff_revolute" ? kStiffD : c == "damped_revolute" ? kDampedD : 0.0;
}

inline double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// Peak resident set size of this process so far, kB (getrusage ru_maxrss).
inline long PeakRssKb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

inline std::vector<std::string> Split(const std::string& s, char sep = ',') {
  std::vector<std::string> v;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, sep);)
    if (!item.empty()) v.push_back(item);
  return v;
}

inline std::vector<int> ParseInts(const std::string& s) {
  std::vector<int> v;
  for (const auto& x : Split(s)) v.push_back(std::stoi(x));
  return v;
}

/// Command line shared by the chain programs.
struct ChainArgs {
  std::vector<int> sizes = {4, 16, 64};
  std::vector<std::string> cases = {"spherical", "revolute"};
  std::string reference = "chain_reference.csv";
  std::string csv;
  double budget = 20.0;  // s: a setting predicted to take longer is skipped (recorded with its per-step cost)
  std::string make_reference;  // mbdae only
  std::vector<std::string> methods;  // mbdae only: run only these methods (empty: the default set)
};

inline ChainArgs ParseChainArgs(int argc, char** argv, const char* usage) {
  ChainArgs a;
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << usage;
        std::exit(2);
      }
      return argv[++i];
    };
    if (k == "--sizes") a.sizes = ParseInts(next());
    else if (k == "--cases") a.cases = Split(next());
    else if (k == "--reference") a.reference = next();
    else if (k == "--csv") a.csv = next();
    else if (k == "--budget") a.budget = std::stod(next());
    else if (k == "--make-reference") a.make_reference = next();
    else if (k == "--methods") a.methods = Split(next());
    else {
      std::cerr << usage;
      std::exit(k == "--help" || k == "-h" ? 0 : 2);
    }
  }
  return a;
}

struct Tip {
  double x = 0, y = 0, z = 0;
};

inline double Distance(const Tip& a, const Tip& b) {
  return std::sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) + (a.z - b.z) * (a.z - b.z));
}

/// Reference tip positions at T, keyed by "case/N". File: case,n,tip_x,tip_y,tip_z,...
inline std::map<std::string, Tip> ReadReference(const std::string& file) {
  std::map<std::string, Tip> ref;
  std::ifstream f(file);
  std::string line;
  std::getline(f, line);  // header
  while (std::getline(f, line)) {
    const auto c = Split(line);
    if (c.size() < 5) continue;
    ref[c[0] + "/" + c[1]] = Tip{std::stod(c[2]), std::stod(c[3]), std::stod(c[4])};
  }
  return ref;
}

/// One measured (or skipped) setting; every program writes the same columns.
struct Row {
  std::string engine, problem, method, setting_name;
  int n = 0;
  double setting = 0;
  bool ok = false;
  bool skipped = false;       // not run: predicted over the budget (us_per_step from a probe)
  double wall = NAN;          // s, for the whole simulated interval
  double sim_time = kT;       // s simulated
  long steps = 0;
  double us_per_step = NAN;
  long newton = 0, factorizations = 0;
  double error = NAN;         // chain: tip error (m); pile: max penetration at the end (m)
  double extra = NAN;         // pile: max speed at the end (m/s)
  long peak_rss_kb = 0;
  std::string note;
};

inline const char* kCsvHeader =
    "engine,problem,n,method,setting_name,setting,ok,skipped,wall_s,sim_time_s,wall_per_sim_s,steps,"
    "us_per_step,newton_iterations,factorizations,error,extra,peak_rss_kb,note\n";

class CsvOut {
 public:
  explicit CsvOut(const std::string& file) {
    if (file.empty()) return;
    f_.open(file);
    if (!f_) {
      std::cerr << "cannot write " << file << "\n";
      std::exit(1);
    }
    f_ << kCsvHeader;
    f_.precision(10);
  }
  void Write(const Row& r) {
    std::printf("%-8s %-15s %5d %-20s %-6s %9.2e %-4s %10.4f %10.4f %8ld %11.2f %8ld %7ld %10.2e %8.1f MB%s%s\n",
                r.engine.c_str(), r.problem.c_str(), r.n, r.method.c_str(), r.setting_name.c_str(),
                r.setting, r.skipped ? "skip" : (r.ok ? "ok" : "FAIL"), r.wall, r.wall / r.sim_time, r.steps,
                r.us_per_step, r.newton, r.factorizations, r.error, r.peak_rss_kb / 1024.0,
                r.note.empty() ? "" : "  ", r.note.c_str());
    std::fflush(stdout);
    if (!f_.is_open()) return;
    std::string note = r.note;
    std::replace(note.begin(), note.end(), ',', ';');
    std::replace(note.begin(), note.end(), '\n', ' ');
    f_ << r.engine << ',' << r.problem << ',' << r.n << ',' << r.method << ',' << r.setting_name << ','
       << r.setting << ',' << (r.ok ? 1 : 0) << ',' << (r.skipped ? 1 : 0) << ',' << r.wall << ','
       << r.sim_time << ',' << r.wall / r.sim_time << ',' << r.steps << ',' << r.us_per_step << ','
       << r.newton << ',' << r.factorizations << ',' << r.error << ',' << r.extra << ','
       << r.peak_rss_kb << ',' << note << '\n';
    f_.flush();
  }

 private:
  std::ofstream f_;
};

inline void PrintHeader() {
  std::printf("%-8s %-15s %5s %-20s %-6s %9s %-4s %10s %10s %8s %11s %8s %7s %10s %11s\n", "engine", "problem",
              "N", "method", "param", "value", "", "wall[s]", "s/sim-s", "steps", "us/step", "Newton",
              "factor", "error[m]", "peak RSS");
}

/// Median wall time of a run: repeated (up to 5 times) while the total stays under 0.3 s, so
/// that short runs are not dominated by timer noise and long runs are measured once.
template <class F>
double TimedMedian(F&& run) {
  std::vector<double> w;
  double total = 0;
  do {
    const double t0 = Now();
    const bool ok = run();
    w.push_back(Now() - t0);
    total += w.back();
    if (!ok) break;
  } while (total < 0.3 && w.size() < 5);
  std::sort(w.begin(), w.end());
  return w[w.size() / 2];
}

}  // namespace peers

namespace peers {

// ---- Sphere pile: K spheres, r = 0.1 m, m = 1 kg, μ = 0.5, restitution 0, dropped from a
// lattice into a box (floor z = 0, four walls), h = 1e-3 s, 2 s. The lattice is the one of
// bench/sphere_pile_bench.cpp: n × n columns (n = ⌈K^(1/3)⌉), spacing 2.2 r, odd layers shifted by
// half a spacing in x and y; the box's interior half width W leaves 1 cm clear on each side.

constexpr double kPileR = 0.1, kPileMass = 1.0, kPileMu = 0.5, kPileH = 1e-3;
inline double kPileT = 2.0;  // s, simulated time; --t-end S sets it (the same for every engine)

struct PileLayout {
  double W = 0;                       // m, walls at x = ±W, y = ±W
  std::vector<std::array<double, 3>> p;  // sphere centres at t = 0, m
};

inline PileLayout MakePileLayout(int K) {
  const double r = kPileR, s = 2.2 * r;
  const int n = static_cast<int>(std::ceil(std::cbrt(static_cast<double>(K)) - 1e-9));
  PileLayout L;
  L.W = 0.5 * ((n - 0.5) * s + 2 * r + 0.02);
  int count = 0;
  for (int layer = 0; count < K; ++layer)
    for (int i = 0; i < n && count < K; ++i)
      for (int j = 0; j < n && count < K; ++j) {
        const double shift = (layer % 2) ? 0.5 * s : 0.0;
        L.p.push_back({-L.W + r + 0.01 + i * s + shift, -L.W + r + 0.01 + j * s + shift, r + 0.05 + layer * s});
        ++count;
      }
  return L;
}

/// Largest penetration (m, ≥ 0) of the spheres into each other, the floor and the walls.
inline double PileMaxPenetration(const std::vector<std::array<double, 3>>& p, double W) {
  const double r = kPileR;
  double pen = 0;
  const size_t K = p.size();
  for (size_t i = 0; i < K; ++i) {
    pen = std::max({pen, r - p[i][2], r - (p[i][0] + W), r - (W - p[i][0]), r - (p[i][1] + W), r - (W - p[i][1])});
    for (size_t j = i + 1; j < K; ++j) {
      const double dx = p[i][0] - p[j][0], dy = p[i][1] - p[j][1], dz = p[i][2] - p[j][2];
      const double d2 = dx * dx + dy * dy + dz * dz;
      if (d2 < 4 * r * r) pen = std::max(pen, 2 * r - std::sqrt(d2));
    }
  }
  return pen;
}

/// The spheres' speeds at the end, summarised the same way for every engine: the max alone is
/// one sphere's and changes with rounding, so also the 99th percentile, the median and how many
/// spheres move faster than 1 cm/s (no commas: it goes into the CSV's note column).
inline std::string PileSpeedSummary(std::vector<double> speeds) {
  if (speeds.empty()) return "";
  std::sort(speeds.begin(), speeds.end());
  const size_t n = speeds.size();
  const size_t i99 = static_cast<size_t>(std::ceil(0.99 * static_cast<double>(n))) - 1;
  const long fast = std::count_if(speeds.begin(), speeds.end(), [](double v) { return v > 1e-2; });
  char s[160];
  std::snprintf(s, sizeof s, "speed at the end: median %.2g m/s; 99th percentile %.2g m/s; %ld of %zu above 1e-2 m/s",
                speeds[n / 2], speeds[i99], fast, n);
  return s;
}

inline std::vector<int> ParsePileSizes(int argc, char** argv, std::string& csv) {
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--csv" && i + 1 < argc) csv = argv[++i];
    else if (a == "--sizes" && i + 1 < argc) sizes = ParseInts(argv[++i]);
    else if (a == "--t-end" && i + 1 < argc) kPileT = std::atof(argv[++i]);
    else {
      std::cerr << "usage: " << argv[0] << " [--sizes 512,4096] [--t-end S] [--csv FILE]\n";
      std::exit(a == "--help" || a == "-h" ? 0 : 2);
    }
  }
  if (sizes.empty()) sizes = {512, 4096};
  return sizes;
}

}  // namespace peers
