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
#include <random>
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
  long contacts_end = -1;     // pile: contact points the engine solved in the last step (-1: not a pile)
  std::string note;
};

inline const char* kCsvHeader =
    "engine,problem,n,method,setting_name,setting,ok,skipped,wall_s,sim_time_s,wall_per_sim_s,steps,"
    "us_per_step,newton_iterations,factorizations,error,extra,peak_rss_kb,contacts_end,note\n";

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
       << r.peak_rss_kb << ',' << r.contacts_end << ',' << note << '\n';
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

// ---- Pile: K spheres or K boxes dropped into a walled bin (floor z = 0, four walls), μ = 0.5,
// restitution 0, h = 1e-3 s, 2 s unless --t-end. `--shape sphere|box` picks the bodies; every
// engine builds the same bodies at the same initial poses from PileLayout.
//
// Spheres: r = 0.1 m, m = 1 kg; the lattice of bench/sphere_pile_bench.cpp: n × n columns
// (n = ⌈K^(1/3)⌉), spacing 2.2 r, odd layers shifted by half a spacing in x and y.
// Boxes: 0.2 × 0.15 × 0.1 m, m = 1 kg (the box of validation::models::BoxPile); lattice spacing
// 0.25 m, odd layers shifted by half a spacing and turned 0.3 rad about z (so that boxes land on
// the edges and corners of those below), and each box moved by a small random offset (±4 mm in x
// and y) and rotation (±0.05 rad about z, ±0.02 rad about x and y; std::mt19937, seed 22, the
// same numbers in every program), so that the pile does not stay a regular lattice.
// In both cases the bin's interior half width W leaves 1 cm between the walls and the bodies'
// bounding spheres.

enum class PileShape { Sphere, Box };
constexpr double kPileR = 0.1, kPileMass = 1.0, kPileMu = 0.5, kPileH = 1e-3;
constexpr double kBoxHalf[3] = {0.1, 0.075, 0.05};  // m, half extents of the pile's boxes
inline double kPileT = 2.0;  // s, simulated time; --t-end S sets it (the same for every engine)
inline PileShape kPileShape = PileShape::Sphere;  // --shape sphere|box

inline const char* PileProblem() { return kPileShape == PileShape::Box ? "box_pile" : "sphere_pile"; }
/// Principal moments of inertia of one body about its centre, kg m².
inline std::array<double, 3> PileInertia() {
  if (kPileShape == PileShape::Sphere) {
    const double I = 0.4 * kPileMass * kPileR * kPileR;
    return {I, I, I};
  }
  const double a = 2 * kBoxHalf[0], b = 2 * kBoxHalf[1], c = 2 * kBoxHalf[2];
  return {kPileMass * (b * b + c * c) / 12, kPileMass * (a * a + c * c) / 12, kPileMass * (a * a + b * b) / 12};
}

using Quat = std::array<double, 4>;  // unit quaternion (w, x, y, z), body → world
using Mat = std::array<std::array<double, 3>, 3>;

inline Quat QuatMul(const Quat& a, const Quat& b) {
  return {a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3], a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
          a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1], a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]};
}
/// Rotation by `angle` (rad) about the unit axis (x, y, z).
inline Quat AxisAngle(double x, double y, double z, double angle) {
  const double s = std::sin(0.5 * angle);
  return {std::cos(0.5 * angle), x * s, y * s, z * s};
}
/// Rotation matrix of a quaternion (normalised here), columns = the body axes in world.
inline Mat QuatToMat(Quat q) {
  const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (double& c : q) c /= n;
  const double w = q[0], x = q[1], y = q[2], z = q[3];
  return {{{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
           {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
           {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}}};
}

struct PileLayout {
  double W = 0;                          // m, walls at x = ±W, y = ±W
  std::vector<std::array<double, 3>> p;  // body centres at t = 0, m
  std::vector<Quat> q;                   // body orientations at t = 0
};

inline PileLayout MakePileLayout(int K) {
  const bool box = kPileShape == PileShape::Box;
  const double r = box ? std::sqrt(kBoxHalf[0] * kBoxHalf[0] + kBoxHalf[1] * kBoxHalf[1] + kBoxHalf[2] * kBoxHalf[2])
                       : kPileR;  // bounding radius
  const double s = box ? 0.25 : 2.2 * kPileR;
  const int n = static_cast<int>(std::ceil(std::cbrt(static_cast<double>(K)) - 1e-9));
  PileLayout L;
  L.W = 0.5 * ((n - 0.5) * s + 2 * r + 0.02);
  // Uniform in [-a, a] from mt19937's 32-bit output (not std::uniform_real_distribution, whose
  // algorithm the standard leaves open).
  std::mt19937 rng(22);
  auto uniform = [&rng](double a) { return a * (2.0 * static_cast<double>(rng()) / 4294967295.0 - 1.0); };
  int count = 0;
  for (int layer = 0; count < K; ++layer)
    for (int i = 0; i < n && count < K; ++i)
      for (int j = 0; j < n && count < K; ++j) {
        const double shift = (layer % 2) ? 0.5 * s : 0.0;
        std::array<double, 3> c{-L.W + r + 0.01 + i * s + shift, -L.W + r + 0.01 + j * s + shift, r + 0.05 + layer * s};
        Quat q{1, 0, 0, 0};
        if (box) {
          c[0] += uniform(0.004);
          c[1] += uniform(0.004);
          const double az = (layer % 2 ? 0.3 : 0.0) + uniform(0.05), ax = uniform(0.02), ay = uniform(0.02);
          q = QuatMul(AxisAngle(0, 0, 1, az), QuatMul(AxisAngle(0, 1, 0, ay), AxisAngle(1, 0, 0, ax)));
        }
        L.p.push_back(c);
        L.q.push_back(q);
        ++count;
      }
  return L;
}

/// Penetration depth (m, ≥ 0) of two boxes with half extents kBoxHalf: the smallest overlap of
/// their projections over the 15 separating axes (3 + 3 face normals, 9 edge–edge cross
/// products), 0 if one axis separates them. For two convex polyhedra the minimum translation
/// that separates them is along one of these axes (Gottschalk, Lin & Manocha, "OBBTree", SIGGRAPH
/// 1996, for the axes; Ericson, "Real-Time Collision Detection", 2005, §4.4.1 and §5.2.1).
inline double BoxBoxPenetration(const std::array<double, 3>& pa, const Mat& Ra, const std::array<double, 3>& pb,
                                const Mat& Rb) {
  const double* e = kBoxHalf;
  std::array<std::array<double, 3>, 15> axes{};
  int na = 0;
  for (int k = 0; k < 3; ++k) axes[na++] = {Ra[0][k], Ra[1][k], Ra[2][k]};
  for (int k = 0; k < 3; ++k) axes[na++] = {Rb[0][k], Rb[1][k], Rb[2][k]};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const std::array<double, 3>&u = axes[i], &v = axes[3 + j];
      const std::array<double, 3> w{u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
      const double len = std::sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
      if (len > 1e-6) axes[na++] = {w[0] / len, w[1] / len, w[2] / len};  // parallel edges: a face axis covers it
    }
  const std::array<double, 3> d{pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]};
  double depth = INFINITY;
  for (int k = 0; k < na; ++k) {
    const auto& L = axes[k];
    double ra = 0, rb = 0;
    for (int i = 0; i < 3; ++i) {
      ra += e[i] * std::abs(L[0] * Ra[0][i] + L[1] * Ra[1][i] + L[2] * Ra[2][i]);
      rb += e[i] * std::abs(L[0] * Rb[0][i] + L[1] * Rb[1][i] + L[2] * Rb[2][i]);
    }
    const double overlap = ra + rb - std::abs(L[0] * d[0] + L[1] * d[1] + L[2] * d[2]);
    if (overlap <= 0) return 0;
    depth = std::min(depth, overlap);
  }
  return depth;
}

/// Depth (m, ≥ 0) of a box below the plane n·x = offset (solid on the side opposite to n): its
/// lowest vertex along n.
inline double BoxPlanePenetration(const std::array<double, 3>& p, const Mat& R, const std::array<double, 3>& n,
                                  double offset) {
  double lowest = n[0] * p[0] + n[1] * p[1] + n[2] * p[2];
  for (int i = 0; i < 3; ++i) lowest -= kBoxHalf[i] * std::abs(n[0] * R[0][i] + n[1] * R[1][i] + n[2] * R[2][i]);
  return std::max(0.0, offset - lowest);
}

/// Largest penetration (m, ≥ 0) of the bodies into each other, the floor and the walls, from
/// their poses (the same code for every engine; pairs farther apart than two bounding radii are
/// skipped).
inline double PileMaxPenetration(const std::vector<std::array<double, 3>>& p, const std::vector<Quat>& q, double W) {
  double pen = 0;
  const size_t K = p.size();
  if (kPileShape == PileShape::Sphere) {
    const double r = kPileR;
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
  const double r = std::sqrt(kBoxHalf[0] * kBoxHalf[0] + kBoxHalf[1] * kBoxHalf[1] + kBoxHalf[2] * kBoxHalf[2]);
  std::vector<Mat> R(K);
  for (size_t i = 0; i < K; ++i) R[i] = QuatToMat(q[i]);
  // bodies sorted by x, so that the pair loop stops at the first body more than 2 r to the right
  std::vector<size_t> order(K);
  for (size_t i = 0; i < K; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&p](size_t a, size_t b) { return p[a][0] < p[b][0]; });
  for (size_t a = 0; a < K; ++a) {
    const size_t i = order[a];
    pen = std::max({pen, BoxPlanePenetration(p[i], R[i], {0, 0, 1}, 0), BoxPlanePenetration(p[i], R[i], {1, 0, 0}, -W),
                    BoxPlanePenetration(p[i], R[i], {-1, 0, 0}, -W), BoxPlanePenetration(p[i], R[i], {0, 1, 0}, -W),
                    BoxPlanePenetration(p[i], R[i], {0, -1, 0}, -W)});
    for (size_t b = a + 1; b < K && p[order[b]][0] - p[i][0] < 2 * r; ++b) {
      const size_t j = order[b];
      const double dx = p[i][0] - p[j][0], dy = p[i][1] - p[j][1], dz = p[i][2] - p[j][2];
      if (dx * dx + dy * dy + dz * dz < 4 * r * r) pen = std::max(pen, BoxBoxPenetration(p[i], R[i], p[j], R[j]));
    }
  }
  return pen;
}

/// The bodies' (centre) speeds at the end, summarised the same way for every engine: the max alone is
/// one body's and changes with rounding, so also the 99th percentile, the median and how many
/// bodies move faster than 1 cm/s (no commas: it goes into the CSV's note column).
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

/// Refuses a layout whose bodies overlap at t = 0 (the random offsets must not create contacts
/// that push bodies apart from the start). Exits with code 1 and the depth.
inline void CheckPileLayout(const PileLayout& L) {
  const double pen = PileMaxPenetration(L.p, L.q, L.W);
  if (pen > 0) {
    std::fprintf(stderr, "pile layout: bodies overlap by %g m at t = 0\n", pen);
    std::exit(1);
  }
}

inline std::vector<int> ParsePileSizes(int argc, char** argv, std::string& csv) {
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--csv" && i + 1 < argc) csv = argv[++i];
    else if (a == "--sizes" && i + 1 < argc) sizes = ParseInts(argv[++i]);
    else if (a == "--t-end" && i + 1 < argc) kPileT = std::atof(argv[++i]);
    else if (a == "--shape" && i + 1 < argc && (std::string(argv[i + 1]) == "sphere" || std::string(argv[i + 1]) == "box"))
      kPileShape = std::string(argv[++i]) == "box" ? PileShape::Box : PileShape::Sphere;
    else {
      std::cerr << "usage: " << argv[0] << " [--shape sphere|box] [--sizes 512,4096] [--t-end S] [--csv FILE]\n";
      std::exit(a == "--help" || a == "-h" ? 0 : 2);
    }
  }
  if (sizes.empty()) sizes = {512, 4096};
  return sizes;
}

inline void PrintPileHeader() {
  std::printf("%s, h = 1e-3 s, %g s; error = max penetration at the end [m], extra = max speed at the end [m/s]\n",
              kPileShape == PileShape::Box ? "box pile" : "sphere pile", kPileT);
  PrintHeader();
}

}  // namespace peers
