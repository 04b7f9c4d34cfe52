// Narrow phase of every pair of contact shapes (ContactGeometry.h): the geometry of two shapes at
// their world poses, independent of bodies, material and solver. Formulas:
//  - sphere–plane, box–plane, point–box: Ericson, "Real-Time Collision Detection" (2005), §5.1.3,
//    §5.2.2, §5.2.5;
//  - closest points of two segments (capsule–capsule): Ericson §5.1.9;
//  - box–box: separating-axis test over the 15 axes (Gottschalk, Lin & Manocha, "OBBTree",
//    SIGGRAPH 1996; Ericson §4.4.1), then for a face axis the incident face clipped against the
//    side planes of the reference face (Sutherland–Hodgman; Ericson §8.3.4, the manifold of
//    Gregorius, "The Separating Axis Test between Convex Polyhedra", GDC 2013), for an edge axis
//    the closest points of the two edges;
//  - capsule–box: the segment point deepest in the box, by golden-section search on the signed
//    distance to the box (a convex function of the point, so unimodal along the segment), and the
//    two cap ends;
//  - cylinder–plane: the lowest points of the two end discs (the whole rim, sampled at four
//    points, when an end lies flat); cylinder–sphere: the closest point of the solid cylinder;
//    cylinder–capsule: as capsule–box on the cylinder's signed distance;
//  - box–cylinder and cylinder–cylinder: the separating-axis test (Ericson §4.4.1) with
//    separations exact from the support functions (for two convex shapes the largest separation
//    over all axes is their signed distance); the candidate axes are the faces' normals, the
//    cylinder axis, axis × the box edges, and the other shape's surface normal at the deepest
//    point of each box corner and edge (convex signed distance: golden-section search) and of
//    each cylinder rim (sampled, then refined); then the incident feature clipped to a reference
//    face (as for box–box) or the feature points inside the other shape.

#include "NarrowPhase.h"

#include <mbdae/contact/ContactPairs.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

namespace mbdae {

namespace {

struct Emitter {
  PairPoint* out;
  int count = 0;
  void operator()(const Vec3& p, const Vec3& n, double depth, int feature, double r_eff) {
    if (count < kMaxPairPoints) out[count++] = PairPoint{p, n, depth, feature, r_eff};
  }
};

/// Visits `count` of the candidates 0 .. nc (nc ≤ 256): the deepest first (least depth(c)), then
/// each time the one whose point(c) is farthest from those taken. Spreads a manifold's points.
template <class Depth, class Point, class Visit>
void farthest_point_order(int nc, int count, Depth&& depth, Point&& point, Visit&& visit) {
  std::array<bool, 256> taken{};
  int first = 0;
  for (int c = 1; c < nc; ++c)
    if (depth(c) < depth(first)) first = c;
  for (int m = 0; m < count; ++m) {
    int pick = first;
    if (m > 0) {
      double best = -1;
      for (int c = 0; c < nc; ++c) {
        if (taken[static_cast<size_t>(c)]) continue;
        double dmin = 1e300;
        for (int t = 0; t < nc; ++t)
          if (taken[static_cast<size_t>(t)]) dmin = std::min(dmin, (point(c) - point(t)).norm());
        if (dmin > best) best = dmin, pick = c;
      }
    }
    taken[static_cast<size_t>(pick)] = true;
    visit(pick);
  }
}

Vec3 orthogonal_to(const Vec3& n) {
  const Vec3 t = std::abs(n.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  return (t - n * n.dot(t)).normalized();
}

/// World normal and offset of a plane shape: n_W = R_WS n_S, n_W·x = offset + n_W·c_W.
void plane_world(const PlacedShape& pl, Vec3& n, double& off) {
  n = pl.R_WS * pl.normal;
  off = pl.offset + n.dot(pl.c_W);
}

/// Signed distance of the point x (world) to a box, with the closest surface point s and the
/// outward unit normal there (Ericson §5.1.3; inside: through the nearest face).
double box_signed_distance(const PlacedShape& box, const Vec3& x, Vec3& s_W, Vec3& n_W) {
  const Vec3 cl = box.R_WS.transpose() * (x - box.c_W);
  const Vec3 clamped = cl.cwiseMax(-box.half).cwiseMin(box.half);
  const Vec3 diff = cl - clamped;
  const double dist = diff.norm();
  Vec3 n_S, s_S;
  double sd;
  if (dist > 0) {
    n_S = diff / dist;
    s_S = clamped;
    sd = dist;
  } else {
    int k = 0;
    double best = 1e300;
    for (int i = 0; i < 3; ++i) {
      const double gap = box.half[i] - std::abs(cl[i]);
      if (gap < best) {
        best = gap;
        k = i;
      }
    }
    n_S = Vec3::Zero();
    n_S[k] = cl[k] >= 0 ? 1 : -1;
    s_S = cl;
    s_S[k] = n_S[k] * box.half[k];
    sd = -best;
  }
  n_W = box.R_WS * n_S;
  s_W = box.c_W + box.R_WS * s_S;
  return sd;
}

/// Signed distance only (the objective of the capsule–box search).
double box_sd(const PlacedShape& box, const Vec3& x) {
  const Vec3 cl = box.R_WS.transpose() * (x - box.c_W);
  const Vec3 q = cl.cwiseAbs() - box.half;
  return q.cwiseMax(0.0).norm() + std::min(q.maxCoeff(), 0.0);
}

/// Closest points of segments p1 + s (q1 − p1) and p2 + t (q2 − p2), s, t ∈ [0, 1] (Ericson
/// §5.1.9); returns the squared distance.
double closest_segments(const Vec3& p1, const Vec3& q1, const Vec3& p2, const Vec3& q2, double& s, double& t,
                        Vec3& c1, Vec3& c2) {
  const Vec3 d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
  constexpr double eps = 1e-300;
  if (a <= eps && e <= eps) {
    s = t = 0;
  } else if (a <= eps) {
    s = 0;
    t = std::clamp(f / e, 0.0, 1.0);
  } else {
    const double c = d1.dot(r);
    if (e <= eps) {
      t = 0;
      s = std::clamp(-c / a, 0.0, 1.0);
    } else {
      const double b = d1.dot(d2), denom = a * e - b * b;
      s = denom > 1e-14 * a * e ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        s = std::clamp(-c / a, 0.0, 1.0);
      } else if (t > 1) {
        t = 1;
        s = std::clamp((b - c) / a, 0.0, 1.0);
      }
    }
  }
  c1 = p1 + d1 * s;
  c2 = p2 + d2 * t;
  return (c1 - c2).squaredNorm();
}

/// Sphere (centre c, radius r) against a plane (world n, offset).
void sphere_plane(Emitter& emit, const Vec3& n, double off, const Vec3& c, double r, double margin,
                  int feature) {
  const double d = n.dot(c) - off - r;
  if (d < margin) emit(c - n * (r + 0.5 * d), n, d, feature, r);
}

/// Two spheres; the normal from the first to the second.
void sphere_sphere(Emitter& emit, const Vec3& ca, double ra, const Vec3& cb, double rb, double margin,
                   int feature, const Vec3& fallback_normal) {
  const Vec3 dc = cb - ca;
  const double L = dc.norm();
  const double d = L - ra - rb;
  if (d >= margin) return;
  const Vec3 n = L > 1e-300 ? Vec3(dc / L) : fallback_normal;
  emit(ca + n * (ra + 0.5 * d), n, d, feature, ra * rb / (ra + rb));
}

/// Box (a) against a sphere of radius r at c (b).
void box_sphere(Emitter& emit, const PlacedShape& box, const Vec3& c, double r, double margin, int feature) {
  Vec3 s_W, n;
  const double d = box_signed_distance(box, c, s_W, n) - r;
  if (d < margin) emit(s_W + n * (0.5 * d), n, d, feature, r);
}

// ---- box–box ------------------------------------------------------------------------------------

/// Clips the convex polygon `in` (n points) to the half-space a·x ≤ b; returns the new count.
using Poly = std::array<Vec3, 32>;

int clip(const Poly& in, int n, const Vec3& a, double b, Poly& out) {
  int m = 0;
  for (int i = 0; i < n; ++i) {
    const Vec3& p = in[static_cast<size_t>(i)];
    const Vec3& q = in[static_cast<size_t>((i + 1) % n)];
    const double dp = a.dot(p) - b, dq = a.dot(q) - b;
    if (dp <= 0) out[static_cast<size_t>(m++)] = p;
    if ((dp < 0 && dq > 0) || (dp > 0 && dq < 0)) out[static_cast<size_t>(m++)] = p + (q - p) * (dp / (dp - dq));
    if (m >= 31) break;
  }
  return m;
}

/// Separation of boxes A and B (centres d = c_B − c_A apart) along the unit axis L (> 0: apart),
/// L oriented from A to B.
double box_separation(const PlacedShape& A, const PlacedShape& B, const Vec3& d, const Vec3& L) {
  double ra = 0, rb = 0;
  for (int i = 0; i < 3; ++i) {
    ra += A.half[i] * std::abs(L.dot(A.R_WS.col(i)));
    rb += B.half[i] * std::abs(L.dot(B.R_WS.col(i)));
  }
  return std::abs(L.dot(d)) - ra - rb;
}

/// The best separating axis of a family (face axes or edge–edge axes) of two boxes.
struct BoxAxis {
  int index = -1;   ///< face 0–5 (A's 0–2, B's 3–5) or edge pair 3 i + j; −1: none
  double s = -1e300;  ///< its separation, m
  Vec3 L = Vec3::Zero();  ///< the axis (edge pairs)
};

/// Face axes of A (0–2) and B (3–5): the least penetrating (largest separation) wins; B's only
/// if clearly better, so that a resting pair keeps its reference face from step to step. False if
/// one of them separates the boxes by margin or more.
bool box_face_axis(const PlacedShape& A, const PlacedShape& B, const Vec3& d, double scale, double margin,
                   BoxAxis& face) {
  for (int k = 0; k < 6; ++k) {
    const Vec3 L = k < 3 ? Vec3(A.R_WS.col(k)) : Vec3(B.R_WS.col(k - 3));
    const double s = box_separation(A, B, d, L);
    if (s >= margin) return false;
    if (s > face.s + (k < 3 ? 0.0 : 1e-9 * scale)) {
      face.s = s;
      face.index = k;
    }
  }
  return true;
}

/// Edge–edge axes a_i × b_j (parallel edges are covered by the face axes): the least penetrating.
/// False if one of them separates the boxes by margin or more.
bool box_edge_axis(const PlacedShape& A, const PlacedShape& B, const Vec3& d, double margin, BoxAxis& edge) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      Vec3 L = A.R_WS.col(i).cross(B.R_WS.col(j));
      const double len = L.norm();
      if (len < 1e-6) continue;  // parallel edges: covered by the face axes
      L /= len;
      const double s = box_separation(A, B, d, L);
      if (s >= margin) return false;
      if (s > edge.s) {
        edge.s = s;
        edge.index = 3 * i + j;
        edge.L = L;
      }
    }
  return true;
}

/// Edge–edge contact along `edge`: one point midway between the closest points of the two edges.
void box_box_edge(Emitter& emit, const PlacedShape& A, const PlacedShape& B, const Vec3& d, const BoxAxis& edge) {
  const Mat3& Ra = A.R_WS;
  const Mat3& Rb = B.R_WS;
  const int i = edge.index / 3, j = edge.index % 3;
  Vec3 L = edge.L;
  if (L.dot(d) < 0) L = -L;
  // The edge of A parallel to a_i farthest along L, and the edge of B parallel to b_j farthest along −L.
  Vec3 pa = A.c_W, pb = B.c_W;
  for (int k = 0; k < 3; ++k) {
    if (k != i) pa += Ra.col(k) * (L.dot(Ra.col(k)) >= 0 ? A.half[k] : -A.half[k]);
    if (k != j) pb -= Rb.col(k) * (L.dot(Rb.col(k)) >= 0 ? B.half[k] : -B.half[k]);
  }
  const Vec3 ea = Ra.col(i) * A.half[i], eb = Rb.col(j) * B.half[j];
  double s, t;
  Vec3 c1, c2;
  closest_segments(pa - ea, pa + ea, pb - eb, pb + eb, s, t, c1, c2);
  emit(0.5 * (c1 + c2), L, edge.s, 200 + edge.index, 0);
}

/// The face of box `inc` most anti-parallel to n, clipped to the side planes of face f of box
/// `ref` (±(axis k) · (x − c_ref) ≤ half_k for its two other axes): the polygon into `poly`,
/// its point count returned.
int clipped_incident_face(const PlacedShape& ref, const PlacedShape& inc, int f, const Vec3& n, Poly& poly) {
  int g = 0;
  double best = -1;
  for (int k = 0; k < 3; ++k) {
    const double c = std::abs(n.dot(inc.R_WS.col(k)));
    if (c > best) {
      best = c;
      g = k;
    }
  }
  const double sg = n.dot(inc.R_WS.col(g)) > 0 ? -1.0 : 1.0;
  const int u = (g + 1) % 3, v = (g + 2) % 3;
  const Vec3 fc = inc.c_W + inc.R_WS.col(g) * (sg * inc.half[g]);
  const Vec3 eu = inc.R_WS.col(u) * inc.half[u], ev = inc.R_WS.col(v) * inc.half[v];
  Poly tmp{};
  poly[0] = fc + eu + ev;
  poly[1] = fc - eu + ev;
  poly[2] = fc - eu - ev;
  poly[3] = fc + eu - ev;
  int np = 4;
  for (int k = 0; k < 3 && np > 0; ++k) {
    if (k == f) continue;
    const Vec3 ax = ref.R_WS.col(k);
    const double c0 = ax.dot(ref.c_W);
    np = clip(poly, np, ax, c0 + ref.half[k], tmp);
    poly = tmp;
    np = clip(poly, np, -ax, -c0 + ref.half[k], tmp);
    poly = tmp;
  }
  return np;
}

/// Face contact: reference face on box `ref` (A if the best face axis is A's) along n (outward,
/// towards the other box); the incident face clipped to it, its points below the face within
/// margin, at most kMaxPairPoints (the deepest).
void box_box_face(Emitter& emit, const PlacedShape& A, const PlacedShape& B, int best_face, double scale,
                  double margin) {
  const bool ref_is_a = best_face < 3;
  const PlacedShape& ref = ref_is_a ? A : B;
  const PlacedShape& inc = ref_is_a ? B : A;
  const int f = ref_is_a ? best_face : best_face - 3;
  const Vec3 to_inc = inc.c_W - ref.c_W;
  const double sgn = ref.R_WS.col(f).dot(to_inc) >= 0 ? 1.0 : -1.0;
  const Vec3 n = sgn * ref.R_WS.col(f);
  Poly poly{};
  const int np = clipped_incident_face(ref, inc, f, n, poly);
  const double face_off = n.dot(ref.c_W) + ref.half[f];
  const Vec3 n_ab = ref_is_a ? n : Vec3(-n);
  const int face_id = (ref_is_a ? 0 : 6) + 2 * f + (sgn > 0 ? 1 : 0);  // 0–11
  // At most kMaxPairPoints points: the deepest ones if clipping left more.
  std::array<std::pair<double, int>, 32> cand{};
  int nc = 0;
  // Faces of equal size stacked almost exactly clip to pairs of points a rounding or a tiny turn
  // apart (an octagon of near-duplicate corners): keep one of each pair (1e-4 of the box size).
  const double same = 1e-4 * scale;
  for (int k = 0; k < np; ++k) {
    const Vec3& pk = poly[static_cast<size_t>(k)];
    const double depth = n.dot(pk) - face_off;
    bool dup = false;
    for (int c = 0; c < nc && !dup; ++c) dup = (poly[static_cast<size_t>(cand[static_cast<size_t>(c)].second)] - pk).norm() <= same;
    if (depth < margin && !dup) cand[static_cast<size_t>(nc++)] = {depth, k};
  }
  if (nc > kMaxPairPoints) {
    std::partial_sort(cand.begin(), cand.begin() + kMaxPairPoints, cand.begin() + nc);
    nc = kMaxPairPoints;
  }
  for (int c = 0; c < nc; ++c) {
    const auto [depth, k] = cand[static_cast<size_t>(c)];
    emit(poly[static_cast<size_t>(k)] - n * (0.5 * depth), n_ab, depth, 16 * face_id + k, 0);  // < 192
  }
}

/// Box–box by separating axes (the 6 face axes, the 9 edge–edge axes), then an edge–edge point
/// or the clipped face (box_box_face()).
void box_box(Emitter& emit, const PlacedShape& A, const PlacedShape& B, double margin) {
  const Vec3 d = B.c_W - A.c_W;
  const double scale = std::max(A.half.maxCoeff(), B.half.maxCoeff());
  BoxAxis face, edge;
  if (!box_face_axis(A, B, d, scale, margin, face) || !box_edge_axis(A, B, d, margin, edge)) return;
  // An edge axis only if clearly less penetrating than the best face (Box2D's relative tolerance).
  if (edge.index >= 0 && edge.s > 0.95 * face.s + 1e-3 * scale && edge.s > face.s + 1e-9 * scale)
    box_box_edge(emit, A, B, d, edge);
  else
    box_box_face(emit, A, B, face.index, scale, margin);
}

// ---- capsule pairs ------------------------------------------------------------------------------

void capsule_capsule(Emitter& emit, const PlacedShape& A, const PlacedShape& B, double margin) {
  const Vec3 ua = A.R_WS.col(2), ub = B.R_WS.col(2);
  const Vec3 a0 = A.c_W - ua * A.half_length, a1 = A.c_W + ua * A.half_length;
  const Vec3 b0 = B.c_W - ub * B.half_length, b1 = B.c_W + ub * B.half_length;
  const Vec3 fallback = orthogonal_to(ua);
  const double cr = ua.cross(ub).norm();
  if (cr < 1e-6 && A.half_length > 0 && B.half_length > 0) {
    // Parallel axes: a line contact, two points at the ends of the overlap of the segments along ua.
    const double s0 = ua.dot(b0 - A.c_W), s1 = ua.dot(b1 - A.c_W);
    const double lo = std::max(-A.half_length, std::min(s0, s1)), hi = std::min(A.half_length, std::max(s0, s1));
    if (lo <= hi) {
      int feature = 0;
      for (const double s : {lo, hi}) {
        const Vec3 pa = A.c_W + ua * s;
        const double tb = std::clamp(ub.dot(pa - B.c_W), -B.half_length, B.half_length);
        sphere_sphere(emit, pa, A.radius, B.c_W + ub * tb, B.radius, margin, feature++, fallback);
        if (hi - lo <= 1e-12 * std::max(1.0, A.half_length)) break;
      }
      return;
    }
  }
  double s, t;
  Vec3 c1, c2;
  closest_segments(a0, a1, b0, b1, s, t, c1, c2);
  Vec3 fb = ua.cross(ub);
  fb = fb.norm() > 0 ? Vec3(fb.normalized()) : fallback;
  if (fb.dot(B.c_W - A.c_W) < 0) fb = -fb;
  sphere_sphere(emit, c1, A.radius, c2, B.radius, margin, 2, fb);
}

void capsule_sphere(Emitter& emit, const PlacedShape& A, const PlacedShape& B, double margin) {
  const Vec3 u = A.R_WS.col(2);
  const double t = std::clamp(u.dot(B.c_W - A.c_W), -A.half_length, A.half_length);
  sphere_sphere(emit, A.c_W + u * t, A.radius, B.c_W, B.radius, margin, 0, orthogonal_to(u));
}

/// Argument of the minimum of f on [lo, hi] by golden-section search (f unimodal there).
template <class F>
double golden_min(const F& f, double lo, double hi) {
  const double gr = 0.5 * (std::sqrt(5.0) - 1);
  double x1 = hi - gr * (hi - lo), x2 = lo + gr * (hi - lo);
  double f1 = f(x1), f2 = f(x2);
  const double tol = 1e-12 * std::max({1.0, std::abs(lo), std::abs(hi)});
  for (int it = 0; it < 200 && hi - lo > tol; ++it) {
    if (f1 <= f2) {
      hi = x2;
      x2 = x1;
      f2 = f1;
      x1 = hi - gr * (hi - lo);
      f1 = f(x1);
    } else {
      lo = x1;
      x1 = x2;
      f1 = f2;
      x2 = lo + gr * (hi - lo);
      f2 = f(x2);
    }
  }
  return 0.5 * (lo + hi);
}

/// A convex shape a (its signed distance sd(x), and sdn(x, s, n) with the closest surface point s
/// and outward normal n) against a capsule b: the two cap ends (a capsule lying on a face rests on
/// both), and the segment point deepest in a (golden-section search: the signed distance of a
/// convex set is convex, so unimodal along the segment) if it is deeper than both ends.
template <class Sd, class SdN>
void convex_capsule(Emitter& emit, const Sd& sd, const SdN& sdn, double scale, const PlacedShape& cap,
                    double margin) {
  const Vec3 u = cap.R_WS.col(2);
  const double L = cap.half_length;
  auto at = [&](double s) { return Vec3(cap.c_W + u * s); };
  auto ball = [&](const Vec3& c, int feature) {
    Vec3 s_W, n;
    const double d = sdn(c, s_W, n) - cap.radius;
    if (d < margin) emit(s_W + n * (0.5 * d), n, d, feature, cap.radius);
  };
  const double sm = golden_min([&](double s) { return sd(at(s)); }, -L, L);
  const double fm = sd(at(sm)), fe0 = sd(at(-L)), fe1 = sd(at(L));
  const double eps = 1e-9 * std::max(1.0, scale);
  ball(at(-L), 0);
  if (L > 0) ball(at(L), 1);
  if (L > 0 && fm < std::min(fe0, fe1) - eps) ball(at(sm), 2);
}

void box_capsule(Emitter& emit, const PlacedShape& box, const PlacedShape& cap, double margin) {
  convex_capsule(
      emit, [&](const Vec3& x) { return box_sd(box, x); },
      [&](const Vec3& x, Vec3& s, Vec3& n) { return box_signed_distance(box, x, s, n); }, box.half.maxCoeff(), cap,
      margin);
}

// ---- cylinder pairs -----------------------------------------------------------------------------

void cylinder_plane(Emitter& emit, const Vec3& n, double off, const PlacedShape& cyl, double margin) {
  const Vec3 u = cyl.R_WS.col(2);
  // Direction in the disc plane towards the plane (−n without its axial part).
  Vec3 w = -n - u * u.dot(-n);
  const double wn = w.norm();
  for (int end = 0; end < 2; ++end) {
    const Vec3 ce = cyl.c_W + u * (end ? cyl.half_length : -cyl.half_length);
    if (wn < 1e-9) {
      // This end lies flat on the plane: four points of its rim.
      const Vec3 e1 = cyl.R_WS.col(0), e2 = cyl.R_WS.col(1);
      const Vec3 rim[4] = {e1, e2, -e1, -e2};
      for (int k = 0; k < 4; ++k) {
        const Vec3 x = ce + cyl.radius * rim[k];
        const double dd = n.dot(x) - off;
        if (dd < margin) emit(x - n * (0.5 * dd), n, dd, 4 * end + k, 0);
      }
    } else {
      const Vec3 x = ce + cyl.radius * (w / wn);
      const double dd = n.dot(x) - off;
      if (dd < margin) emit(x - n * (0.5 * dd), n, dd, 4 * end, 0);
    }
  }
}

/// Signed distance of the point x (world) to a solid cylinder, with the closest surface point s and
/// the outward unit normal there. In the (radial, axial) half-plane the cylinder is the rectangle
/// [0, R] × [−H, H], so outside the closest point clamps both coordinates; inside, the nearer of
/// the side and the end faces.
double cylinder_signed_distance(const PlacedShape& cyl, const Vec3& x, Vec3& s_W, Vec3& n) {
  const Vec3 u = cyl.R_WS.col(2);
  const Vec3 xr = x - cyl.c_W;
  const double a = u.dot(xr);
  const Vec3 radial = xr - u * a;
  const double rho = radial.norm();
  const Vec3 e = rho > 1e-300 ? Vec3(radial / rho) : Vec3(cyl.R_WS.col(0));
  const double H = cyl.half_length, R = cyl.radius;
  if (std::abs(a) <= H && rho <= R) {
    const double side = R - rho, cap = H - std::abs(a);
    if (side < cap) {
      n = e;
      s_W = cyl.c_W + u * a + e * R;
      return -side;
    }
    n = a >= 0 ? u : Vec3(-u);
    s_W = cyl.c_W + u * (a >= 0 ? H : -H) + e * rho;
    return -cap;
  }
  s_W = cyl.c_W + u * std::clamp(a, -H, H) + e * std::min(rho, R);
  const Vec3 diff = x - s_W;
  const double sd = diff.norm();
  n = diff / sd;
  return sd;
}

/// Signed distance only.
double cylinder_sd(const PlacedShape& cyl, const Vec3& x) {
  const Vec3 u = cyl.R_WS.col(2);
  const Vec3 xr = x - cyl.c_W;
  const double a = u.dot(xr);
  const double rho = (xr - u * a).norm();
  const double qr = rho - cyl.radius, qa = std::abs(a) - cyl.half_length;
  return std::hypot(std::max(qr, 0.0), std::max(qa, 0.0)) + std::min(std::max(qr, qa), 0.0);
}

void cylinder_sphere(Emitter& emit, const PlacedShape& cyl, const Vec3& c, double r, double margin) {
  Vec3 s_W, n;
  const double d = cylinder_signed_distance(cyl, c, s_W, n) - r;
  if (d < margin) emit(s_W + n * (0.5 * d), n, d, 0, r);
}

void cylinder_capsule(Emitter& emit, const PlacedShape& cyl, const PlacedShape& cap, double margin) {
  convex_capsule(
      emit, [&](const Vec3& x) { return cylinder_sd(cyl, x); },
      [&](const Vec3& x, Vec3& s, Vec3& n) { return cylinder_signed_distance(cyl, x, s, n); },
      std::max(cyl.radius, cyl.half_length), cap, margin);
}

/// Half-width of a box or a cylinder along the unit direction L: max L·(x − c) over the shape
/// (the support function about its origin).
double extent(const PlacedShape& s, const Vec3& L) {
  if (s.type == ShapeType::Box) {
    double h = 0;
    for (int i = 0; i < 3; ++i) h += s.half[i] * std::abs(L.dot(s.R_WS.col(i)));
    return h;
  }
  const double c = L.dot(s.R_WS.col(2));
  return s.half_length * std::abs(c) + s.radius * std::sqrt(std::max(0.0, 1 - c * c));
}

/// Separation of shapes a and b (box or cylinder) along the unit axis L oriented from a to b
/// (> 0: apart by at least that much; the largest over all L is the signed distance).
double separation(const PlacedShape& a, const PlacedShape& b, const Vec3& L) {
  return L.dot(b.c_W - a.c_W) - extent(a, L) - extent(b, L);
}

/// The point of a box or a cylinder farthest along L (the middle of a face, edge or end disc
/// perpendicular to L).
Vec3 support_point(const PlacedShape& s, const Vec3& L) {
  auto sign = [](double x) { return x > 1e-12 ? 1.0 : x < -1e-12 ? -1.0 : 0.0; };
  if (s.type == ShapeType::Box) {
    Vec3 p = s.c_W;
    for (int i = 0; i < 3; ++i) p += s.R_WS.col(i) * (sign(L.dot(s.R_WS.col(i))) * s.half[i]);
    return p;
  }
  const Vec3 u = s.R_WS.col(2);
  const double c = u.dot(L);
  const Vec3 w = L - u * c;
  const double wn = w.norm();
  return s.c_W + u * (sign(c) * s.half_length) + (wn > 1e-12 ? Vec3(w / wn * s.radius) : Vec3::Zero());
}

/// When the feature points found none, or none nearly as deep as the overlap along every axis
/// tried (a shape passing through the other's faces with its corners, edges and rims barely or
/// not inside): one more point on the axis L of largest separation s (≤ the signed distance, so
/// at least as deep as the true overlap), midway between the two supporting points.
/// `midpoint()` gives the point midway between the supporting points of the two shapes on L.
template <class Midpoint>
void axis_point_at(Emitter& emit, const Vec3& L, double s, double margin, double scale, Midpoint&& midpoint) {
  double deepest = 1e300;
  int shallowest = 0;
  for (int k = 0; k < emit.count; ++k) {
    deepest = std::min(deepest, emit.out[k].depth);
    if (emit.out[k].depth > emit.out[shallowest].depth) shallowest = k;
  }
  if (s >= margin || (emit.count > 0 && deepest <= s + 1e-3 * scale)) return;
  const PairPoint p{midpoint(), L, s, 255, 0};
  if (emit.count < kMaxPairPoints) emit.out[emit.count++] = p;
  else emit.out[shallowest] = p;  // all taken: the axis point replaces the shallowest
}

void axis_point(Emitter& emit, const PlacedShape& a, const PlacedShape& b, const Vec3& L, double s, double margin,
                double scale) {
  axis_point_at(emit, L, s, margin, scale, [&] { return Vec3(0.5 * (support_point(a, L) + support_point(b, -L))); });
}

/// The points of a cylinder that meet a reference face whose outward normal is −d: the end disc
/// facing d if it is within 0.05 rad of flat (eight rim points, and the rim point farthest along d
/// in between), else the generator farthest along d (its two end points), in polygon order.
/// Returns the count.
int cylinder_incident(const PlacedShape& cyl, const Vec3& d, Poly& poly) {
  const Vec3 u = cyl.R_WS.col(2);
  const double c = u.dot(d);
  const Vec3 w = d - u * c;
  const double wn = w.norm();
  const Vec3 e1 = cyl.R_WS.col(0), e2 = cyl.R_WS.col(1);
  if (wn < 0.05) {
    const Vec3 ce = cyl.c_W + u * (c >= 0 ? cyl.half_length : -cyl.half_length);
    std::array<double, 9> ang{};
    int n = 0;
    for (int k = 0; k < 8; ++k) ang[static_cast<size_t>(n++)] = k * M_PI / 4;
    // The exact deepest rim point in between, unless the disc is within 1e-3 rad of flat (then
    // the eight are within 0.08 r · 1e-3 of it, and the points keep their numbers for warm starts).
    if (wn > 1e-3) {
      double phi = std::atan2(w.dot(e2), w.dot(e1));
      if (phi < 0) phi += 2 * M_PI;
      ang[static_cast<size_t>(n++)] = phi;
      std::sort(ang.begin(), ang.begin() + n);
    }
    for (int k = 0; k < n; ++k)
      poly[static_cast<size_t>(k)] =
          ce + cyl.radius * (std::cos(ang[static_cast<size_t>(k)]) * e1 + std::sin(ang[static_cast<size_t>(k)]) * e2);
    return n;
  }
  const Vec3 r = w / wn * cyl.radius;
  poly[0] = cyl.c_W - u * cyl.half_length + r;
  poly[1] = cyl.c_W + u * cyl.half_length + r;
  return 2;
}

/// A reference face (plane n·x = off, n outward towards the other shape; side planes
/// side[k].first · x ≤ side[k].second) and the incident points `poly` of the other shape: the
/// polygon clipped to the side planes (Sutherland–Hodgman), its points below margin, the deepest
/// first and then, if more than kMaxPairPoints, the ones farthest from those taken. The normal is
/// n if the reference shape is a (ref_is_a), else −n; feature 32 face_id + vertex. Returns the
/// count, and the depth of the deepest point in `deepest`.
int clip_to_face(Emitter& emit, Poly poly, int np, const Vec3& n, double off,
                 const std::array<std::pair<Vec3, double>, 16>& side, int ns, bool ref_is_a, int face_id,
                 double scale, double margin, double& deepest) {
  Poly tmp{};
  for (int k = 0; k < ns && np > 0; ++k) {
    np = clip(poly, np, side[static_cast<size_t>(k)].first, side[static_cast<size_t>(k)].second, tmp);
    poly = tmp;
  }
  const double same = 1e-6 * scale;
  std::array<int, 32> idx{};
  std::array<double, 32> dep{};
  int nc = 0;
  for (int k = 0; k < np; ++k) {
    const Vec3& pk = poly[static_cast<size_t>(k)];
    const double depth = n.dot(pk) - off;
    bool dup = false;
    for (int c = 0; c < nc && !dup; ++c) dup = (poly[static_cast<size_t>(idx[static_cast<size_t>(c)])] - pk).norm() <= same;
    if (depth < margin && !dup) {
      idx[static_cast<size_t>(nc)] = k;
      dep[static_cast<size_t>(nc++)] = depth;
    }
  }
  // Pick at most kMaxPairPoints: the deepest, then each time the point farthest from those taken.
  const int count = std::min(nc, kMaxPairPoints);
  deepest = nc > 0 ? *std::min_element(dep.begin(), dep.begin() + nc) : 1e300;
  const Vec3 n_ab = ref_is_a ? n : Vec3(-n);
  farthest_point_order(
      nc, count, [&](int c) { return dep[static_cast<size_t>(c)]; },
      [&](int c) -> const Vec3& { return poly[static_cast<size_t>(idx[static_cast<size_t>(c)])]; },
      [&](int pick) {
        const int k = idx[static_cast<size_t>(pick)];
        const double depth = dep[static_cast<size_t>(pick)];
        emit(poly[static_cast<size_t>(k)] - n * (0.5 * depth), n_ab, depth, 32 * face_id + k, 0);
      });
  return count;
}

/// Side planes of the 16-gon inscribed in an end disc of a cylinder (vertices on the rim at angles
/// k π/8 from the shape x axis): a point of the disc's plane within them is within the disc.
int disc_sides(const PlacedShape& cyl, std::array<std::pair<Vec3, double>, 16>& side) {
  const Vec3 e1 = cyl.R_WS.col(0), e2 = cyl.R_WS.col(1);
  for (int k = 0; k < 16; ++k) {
    const double t = (2 * k + 1) * M_PI / 16;
    const Vec3 a = std::cos(t) * e1 + std::sin(t) * e2;
    side[static_cast<size_t>(k)] = {a, a.dot(cyl.c_W) + cyl.radius * std::cos(M_PI / 16)};
  }
  return 16;
}

/// Whether an axis of separation s is clearly better (less penetrating) than a face axis of
/// separation s_face (Box2D's relative tolerance, as in box_box()).
bool clearly_better(double s, double s_face, double scale) {
  return s > 0.95 * s_face + 1e-3 * scale && s > s_face + 1e-9 * scale;
}

/// The point of a rim (centre ce, axes e1, e2, radius R) deepest in a convex shape of signed
/// distance sd: 32 samples, then golden-section search between the neighbours of the best.
template <class Sd>
Vec3 deepest_rim_point(const Sd& sd, const Vec3& ce, const Vec3& e1, const Vec3& e2, double R) {
  auto at = [&](double t) { return Vec3(ce + R * (std::cos(t) * e1 + std::sin(t) * e2)); };
  constexpr int N = 32;
  int best = 0;
  double fb = 1e300;
  for (int k = 0; k < N; ++k) {
    const double f = sd(at(2 * M_PI * k / N));
    if (f < fb) {
      fb = f;
      best = k;
    }
  }
  const double h = 2 * M_PI / N;
  return at(golden_min([&](double t) { return sd(at(t)); }, best * h - h, best * h + h));
}

/// Box (a) against a cylinder (b). Separating axes: the three face normals of the box, the
/// cylinder axis, the cylinder axis × each box edge, and the cylinder's surface normal at the
/// deepest point of each box corner and edge (golden-section search along the edge on the
/// cylinder's signed distance, convex), and the box's normal at the deepest point of each rim of
/// the cylinder (32 samples, then golden-section search); all separations are exact (support functions), so any
/// axis with separation ≥ margin proves the pair apart. If a box face is the best axis (or not
/// clearly worse than the best), its face is the reference and the cylinder's incident feature
/// (an end disc lying on it, or a generator) is clipped to it; otherwise the box corners and edge
/// points inside the cylinder are the contacts, each with the cylinder's normal there, and the
/// rim points inside the box, with the box's normal.
/// L, or −L if it points away from d (the separation of the centres).
Vec3 toward(const Vec3& L, const Vec3& d) { return L.dot(d) < 0 ? Vec3(-L) : L; }

/// The least penetrating of the axes of a box–cylinder pair other than the box's face axes.
struct OtherAxis {
  double s = -1e300;      ///< its separation, m
  Vec3 L = Vec3::Zero();  ///< the axis
  /// Takes `axis` of separation s_axis; false if it separates the pair by margin or more.
  bool take(double s_axis, const Vec3& axis, double margin) {
    if (s_axis > s) {
      s = s_axis;
      L = axis;
    }
    return s_axis < margin;
  }
  /// take() of the box–cylinder separation along `axis`.
  bool consider(const PlacedShape& box, const PlacedShape& cyl, const Vec3& axis, double margin) {
    return take(separation(box, cyl, axis), axis, margin);
  }
};

/// The features of a box–cylinder pair that may touch: the box corners, the deepest point of
/// each box edge (inside when deeper than both its corners) and the deepest point of each rim of
/// the cylinder in the box.
struct BoxCylinderFeatures {
  std::array<Vec3, 8> corner;
  std::array<Vec3, 12> edge_pt;
  std::array<bool, 12> edge_in{};
  std::array<Vec3, 2> rim_pt;
};

/// Fills `f` and takes the normal at each feature as an axis into `other`; false as soon as one
/// separates the pair by margin or more.
bool box_cylinder_features(const PlacedShape& box, const PlacedShape& cyl, double scale, double margin,
                           OtherAxis& other, BoxCylinderFeatures& f) {
  // Box corners and the deepest point of each edge (kept when deeper than both its corners).
  std::array<double, 8> corner_sd{};
  for (int k = 0; k < 8; ++k) {
    const Vec3 cs((k & 1 ? 1 : -1) * box.half.x(), (k & 2 ? 1 : -1) * box.half.y(), (k & 4 ? 1 : -1) * box.half.z());
    f.corner[static_cast<size_t>(k)] = box.c_W + box.R_WS * cs;
    Vec3 s_W, n;
    corner_sd[static_cast<size_t>(k)] = cylinder_signed_distance(cyl, f.corner[static_cast<size_t>(k)], s_W, n);
    if (!other.consider(box, cyl, -n, margin)) return false;
  }
  const double eps = 1e-9 * std::max(1.0, scale);
  int e = 0;
  for (int k = 0; k < 8; ++k)
    for (int axis = 0; axis < 3; ++axis) {
      if (k & (1 << axis)) continue;
      const int k2 = k | (1 << axis);
      const Vec3 p0 = f.corner[static_cast<size_t>(k)], p1 = f.corner[static_cast<size_t>(k2)];
      const double t = golden_min([&](double s) { return cylinder_sd(cyl, p0 + (p1 - p0) * s); }, 0.0, 1.0);
      const Vec3 x = p0 + (p1 - p0) * t;
      Vec3 s_W, n;
      const double sd = cylinder_signed_distance(cyl, x, s_W, n);
      f.edge_pt[static_cast<size_t>(e)] = x;
      f.edge_in[static_cast<size_t>(e)] =
          sd < std::min(corner_sd[static_cast<size_t>(k)], corner_sd[static_cast<size_t>(k2)]) - eps;
      if (f.edge_in[static_cast<size_t>(e)] && !other.consider(box, cyl, -n, margin)) return false;
      ++e;
    }
  // The deepest point of each rim of the cylinder in the box, with the box's normal there.
  const Vec3 u = cyl.R_WS.col(2);
  for (int end = 0; end < 2; ++end) {
    const Vec3 ce = cyl.c_W + u * (end ? cyl.half_length : -cyl.half_length);
    f.rim_pt[static_cast<size_t>(end)] = deepest_rim_point([&](const Vec3& x) { return box_sd(box, x); }, ce,
                                                           cyl.R_WS.col(0), cyl.R_WS.col(1), cyl.radius);
    Vec3 s_W, n;
    box_signed_distance(box, f.rim_pt[static_cast<size_t>(end)], s_W, n);
    if (!other.consider(box, cyl, n, margin)) return false;
  }
  return true;
}

/// Box face `best_face` (separation s_face) as the reference, the cylinder's incident feature
/// clipped to it. True if that is the contact (the cylinder's deepest point along it is on the
/// face); else the points emitted are dropped and an edge of the face meets the cylinder.
bool box_face_on_cylinder(Emitter& emit, const PlacedShape& box, const PlacedShape& cyl, const Vec3& d, int best_face,
                          double s_face, double scale, double margin) {
  const double sgn = box.R_WS.col(best_face).dot(d) >= 0 ? 1.0 : -1.0;
  const Vec3 n = sgn * box.R_WS.col(best_face);
  std::array<std::pair<Vec3, double>, 16> side{};
  int ns = 0;
  for (int k = 0; k < 3; ++k) {
    if (k == best_face) continue;
    const Vec3 ax = box.R_WS.col(k);
    side[static_cast<size_t>(ns++)] = {ax, ax.dot(box.c_W) + box.half[k]};
    side[static_cast<size_t>(ns++)] = {-ax, -ax.dot(box.c_W) + box.half[k]};
  }
  Poly poly{};
  const int np = cylinder_incident(cyl, -n, poly);
  const int face_id = 2 * best_face + (sgn > 0 ? 1 : 0);
  // The face is the contact if the cylinder's deepest point along it is on it (then the deepest
  // point kept is s_face deep); else an edge of the face meets the cylinder: the features below.
  double deepest;
  if (clip_to_face(emit, poly, np, n, n.dot(box.c_W) + box.half[best_face], side, ns, true, face_id, scale,
                   margin, deepest) > 0 &&
      deepest <= s_face + 1e-3 * scale)
    return true;
  emit.count = 0;
  return false;
}

/// The box corners and edge points inside the cylinder, with the cylinder's normal, and the rim
/// points inside the box, with the box's normal.
void emit_box_cylinder_features(Emitter& emit, const PlacedShape& box, const PlacedShape& cyl,
                                const BoxCylinderFeatures& f, double margin) {
  for (int k = 0; k < 8; ++k) {
    Vec3 s_W, n;
    const double sd = cylinder_signed_distance(cyl, f.corner[static_cast<size_t>(k)], s_W, n);
    if (sd < margin) emit(s_W + n * (0.5 * sd), -n, sd, 200 + k, 0);
  }
  for (int k = 0; k < 12; ++k) {
    if (!f.edge_in[static_cast<size_t>(k)]) continue;
    Vec3 s_W, n;
    const double sd = cylinder_signed_distance(cyl, f.edge_pt[static_cast<size_t>(k)], s_W, n);
    if (sd < margin) emit(s_W + n * (0.5 * sd), -n, sd, 210 + k, 0);
  }
  for (int end = 0; end < 2; ++end) {
    Vec3 s_W, n;
    const double sd = box_signed_distance(box, f.rim_pt[static_cast<size_t>(end)], s_W, n);
    if (sd < margin) emit(s_W + n * (0.5 * sd), n, sd, 230 + end, 0);
  }
}

void box_cylinder(Emitter& emit, const PlacedShape& box, const PlacedShape& cyl, double margin) {
  const Vec3 d = cyl.c_W - box.c_W;
  const double scale = std::max({box.half.maxCoeff(), cyl.radius, cyl.half_length});
  int best_face = 0;
  double s_face = -1e300;
  for (int f = 0; f < 3; ++f) {
    const double s = separation(box, cyl, toward(box.R_WS.col(f), d));
    if (s >= margin) return;
    if (s > s_face) {
      s_face = s;
      best_face = f;
    }
  }
  OtherAxis other;
  const Vec3 u = cyl.R_WS.col(2);
  if (!other.consider(box, cyl, toward(u, d), margin)) return;
  for (int i = 0; i < 3; ++i) {
    const Vec3 L = u.cross(box.R_WS.col(i));
    if (L.norm() > 1e-6 && !other.consider(box, cyl, toward(L.normalized(), d), margin)) return;
  }
  BoxCylinderFeatures f;
  if (!box_cylinder_features(box, cyl, scale, margin, other, f)) return;
  if (!clearly_better(other.s, s_face, scale) &&
      box_face_on_cylinder(emit, box, cyl, d, best_face, s_face, scale, margin))
    return;
  emit_box_cylinder_features(emit, box, cyl, f, margin);
  if (s_face >= other.s) axis_point(emit, box, cyl, toward(box.R_WS.col(best_face), d), s_face, margin, scale);
  else axis_point(emit, box, cyl, other.L, other.s, margin, scale);
}

void cylinder_points(Emitter& emit, const PlacedShape& A, const PlacedShape& B, int best_pt, double s_pt,
                     const std::array<Vec3, 5>& pt, const Vec3& c1, const Vec3& c2, bool parallel, double margin);

/// Two cylinders. Separating axes (from a to b): each end axis, the direction between the closest
/// points of the two axis segments, and the other's surface normal at the deepest point of each
/// rim (sampled, then refined). An end axis that is the best (or not clearly worse) makes its end
/// disc the reference face (the 16-gon inscribed in it) against which the other's incident feature
/// is clipped; else the sides touch (closest points of the axes; two points at the ends of the
/// overlap if the axes are parallel) or a rim does (its deepest point).
void cylinder_cylinder(Emitter& emit, const PlacedShape& A, const PlacedShape& B, double margin) {
  const Vec3 d = B.c_W - A.c_W;
  const double scale = std::max({A.radius, A.half_length, B.radius, B.half_length});
  auto toward = [&](Vec3 L) { return L.dot(d) < 0 ? Vec3(-L) : L; };
  const Vec3 ua = A.R_WS.col(2), ub = B.R_WS.col(2);
  const double s_a = separation(A, B, toward(ua)), s_b = separation(A, B, toward(ub));
  if (s_a >= margin || s_b >= margin) return;
  // Point features: 0 side–side, 1–2 rims of a in b, 3–4 rims of b in a.
  double s_pt = -1e300;
  int best_pt = -1;
  Vec3 L_pt = Vec3::Zero();
  std::array<Vec3, 5> pt{};
  // A rim only if clearly better than the sides (a rim touching a side the sides touch too).
  auto consider = [&](int k, const Vec3& L) {
    const double s = separation(A, B, L);
    if (s > s_pt + (k > 0 && best_pt == 0 ? 1e-9 * scale : 0.0)) {
      s_pt = s;
      best_pt = k;
      L_pt = L;
    }
    return s < margin;
  };
  const Vec3 a0 = A.c_W - ua * A.half_length, a1 = A.c_W + ua * A.half_length;
  const Vec3 b0 = B.c_W - ub * B.half_length, b1 = B.c_W + ub * B.half_length;
  double sa, tb;
  Vec3 c1, c2;
  closest_segments(a0, a1, b0, b1, sa, tb, c1, c2);
  const bool parallel = ua.cross(ub).norm() < 1e-6;
  const double dist = (c2 - c1).norm();
  if (dist > 1e-12 * scale) {
    pt[0] = c1;
    if (!consider(0, (c2 - c1) / dist)) return;
  }
  for (int end = 0; end < 2; ++end) {
    const Vec3 cea = A.c_W + ua * (end ? A.half_length : -A.half_length);
    pt[static_cast<size_t>(1 + end)] = deepest_rim_point([&](const Vec3& x) { return cylinder_sd(B, x); }, cea,
                                                          A.R_WS.col(0), A.R_WS.col(1), A.radius);
    Vec3 s_W, n;
    cylinder_signed_distance(B, pt[static_cast<size_t>(1 + end)], s_W, n);
    if (!consider(1 + end, -n)) return;
    const Vec3 ceb = B.c_W + ub * (end ? B.half_length : -B.half_length);
    pt[static_cast<size_t>(3 + end)] = deepest_rim_point([&](const Vec3& x) { return cylinder_sd(A, x); }, ceb,
                                                          B.R_WS.col(0), B.R_WS.col(1), B.radius);
    cylinder_signed_distance(A, pt[static_cast<size_t>(3 + end)], s_W, n);
    if (!consider(3 + end, n)) return;
  }
  const bool b_face = s_b > s_a + 1e-9 * scale;
  const double s_face = b_face ? s_b : s_a;
  if (!clearly_better(s_pt, s_face, scale)) {
    // Reference: an end disc of `ref`, normal n outward towards the other cylinder.
    const PlacedShape& ref = b_face ? B : A;
    const PlacedShape& inc = b_face ? A : B;
    const Vec3 u = ref.R_WS.col(2);
    const double sgn = u.dot(inc.c_W - ref.c_W) >= 0 ? 1.0 : -1.0;
    const Vec3 n = sgn * u;
    PlacedShape disc = ref;
    disc.c_W = ref.c_W + n * ref.half_length;
    std::array<std::pair<Vec3, double>, 16> side{};
    const int ns = disc_sides(disc, side);
    Poly poly{};
    const int np = cylinder_incident(inc, -n, poly);
    const int face_id = 2 * (b_face ? 1 : 0) + (sgn > 0 ? 1 : 0);
    double deepest;
    if (clip_to_face(emit, poly, np, n, n.dot(disc.c_W), side, ns, !b_face, face_id, scale, margin, deepest) > 0 &&
        deepest <= s_face + 1e-3 * scale)
      return;
    emit.count = 0;
  }
  cylinder_points(emit, A, B, best_pt, s_pt, pt, c1, c2, parallel, margin);
  if (s_face >= s_pt) axis_point(emit, A, B, toward(b_face ? ub : ua), s_face, margin, scale);
  else axis_point(emit, A, B, L_pt, s_pt, margin, scale);
}

/// The point contacts of cylinder_cylinder(): the sides (best_pt 0) or a rim (1–4).
void cylinder_points(Emitter& emit, const PlacedShape& A, const PlacedShape& B, int best_pt, double s_pt,
                     const std::array<Vec3, 5>& pt, const Vec3& c1, const Vec3& c2, bool parallel, double margin) {
  const Vec3 ua = A.R_WS.col(2), ub = B.R_WS.col(2);
  const Vec3 b0 = B.c_W - ub * B.half_length, b1 = B.c_W + ub * B.half_length;
  if (best_pt < 0) return;
  if (best_pt == 0) {
    // Sides: a line contact for parallel axes (the two ends of the overlap), else one point.
    if (parallel) {
      const double s0 = ua.dot(b0 - A.c_W), s1 = ua.dot(b1 - A.c_W);
      const double lo = std::max(-A.half_length, std::min(s0, s1)), hi = std::min(A.half_length, std::max(s0, s1));
      if (lo <= hi) {
        int feature = 0;
        for (const double s : {lo, hi}) {
          const Vec3 pa = A.c_W + ua * s;
          const double t = std::clamp(ub.dot(pa - B.c_W), -B.half_length, B.half_length);
          sphere_sphere(emit, pa, A.radius, B.c_W + ub * t, B.radius, margin, 240 + feature++, orthogonal_to(ua));
          if (hi - lo <= 1e-12 * std::max(1.0, A.half_length)) break;
        }
        return;
      }
    }
    // Along c2 − c1 the cylinders reach no farther than the capsules around their axes, and as
    // far when the closest points are inside both segments: the depth is the larger (shallower)
    // of the capsules' distance and the cylinders' separation s_pt along that line.
    const Vec3 dc = c2 - c1;
    const double dist = dc.norm();
    if (dist <= 0) return;
    const Vec3 n = dc / dist;
    const double depth = std::max(dist - A.radius - B.radius, s_pt);
    if (depth < margin) emit(c1 + n * (A.radius + 0.5 * depth), n, depth, 242, A.radius * B.radius / (A.radius + B.radius));
    return;
  }
  const Vec3 x = pt[static_cast<size_t>(best_pt)];
  Vec3 s_W, n;
  if (best_pt <= 2) {
    const double sd = cylinder_signed_distance(B, x, s_W, n);
    if (sd < margin) emit(s_W + n * (0.5 * sd), -n, sd, 243 + best_pt, 0);
  } else {
    const double sd = cylinder_signed_distance(A, x, s_W, n);
    if (sd < margin) emit(s_W + n * (0.5 * sd), n, sd, 243 + best_pt, 0);
  }
}


// ---- convex meshes ------------------------------------------------------------------------------
// A convex polyhedron at a world pose (a convex_mesh's hull, or a box as one), and its pairs:
//  - against a plane: the vertices below it;
//  - against a sphere: the polyhedron's signed distance (inside: the least deep face; outside: the
//    closest point over the faces facing the point, Ericson §5.1.5 on each face polygon);
//  - against a capsule: as box–capsule on that signed distance (convex);
//  - against a box or another polyhedron: the separating-axis test over both shapes' face normals
//    and the edge–edge axes whose arcs cross on the Gauss map (Gregorius, "The Separating Axis
//    Test between Convex Polyhedra", GDC 2013), each separation exact from the vertices; a face
//    axis: the incident face (the other shape's face most anti-parallel to it) clipped against the
//    side planes of the reference face (Sutherland–Hodgman), the points below the reference face,
//    with box–box's preference for shape a's faces and for faces over edges; an edge axis: the
//    closest points of the two edges.

/// Largest polygon the clipping below holds (faces of a hull have at most kMaxHullFaceVertices
/// vertices, and each side plane adds at most one).
using BigPoly = std::array<Vec3, 2 * kMaxHullFaceVertices + 8>;

int clip_big(const BigPoly& in, int n, const Vec3& a, double b, BigPoly& out) {
  int m = 0;
  const int cap = static_cast<int>(out.size()) - 1;
  for (int i = 0; i < n && m < cap; ++i) {
    const Vec3& p = in[static_cast<size_t>(i)];
    const Vec3& q = in[static_cast<size_t>((i + 1) % n)];
    const double dp = a.dot(p) - b, dq = a.dot(q) - b;
    if (dp <= 0) out[static_cast<size_t>(m++)] = p;
    if (m < cap && ((dp < 0 && dq > 0) || (dp > 0 && dq < 0))) out[static_cast<size_t>(m++)] = p + (q - p) * (dp / (dp - dq));
  }
  return m;
}

struct HullView {
  const ConvexHull* h = nullptr;
  Vec3 c = Vec3::Zero();
  Mat3 R = Mat3::Identity();
  Vec3 scale = Vec3::Ones();  // a box: the unit cube's vertices times its half extents
  bool box = false;           // the unit cube scaled by `scale` (its faces stay axis-aligned)

  int nv() const { return static_cast<int>(h->vertices.size()); }
  int nf() const { return h->num_faces(); }
  Vec3 local(int i) const { return h->vertices[static_cast<size_t>(i)].cwiseProduct(scale); }
  Vec3 vertex(int i) const { return c + R * local(i); }
  /// Face normals of a scaled cube stay axis-aligned; offsets scale with the half extent.
  Vec3 normal_local(int f) const { return h->face_normals[static_cast<size_t>(f)]; }
  double offset_local(int f) const {
    return box ? h->face_offsets[static_cast<size_t>(f)] * std::abs(normal_local(f).dot(scale))
               : h->face_offsets[static_cast<size_t>(f)];
  }
  Vec3 normal(int f) const { return R * normal_local(f); }
  double offset(int f) const { return offset_local(f) + normal(f).dot(c); }
  int loop_begin(int f) const { return h->face_start[static_cast<size_t>(f)]; }
  int loop_end(int f) const { return h->face_start[static_cast<size_t>(f) + 1]; }
  int loop_vertex(int k) const { return h->face_vertices[static_cast<size_t>(k)]; }
  double size() const {
    double r = 0;
    for (int i = 0; i < nv(); ++i) r = std::max(r, local(i).norm());
    return r;
  }
};

/// The unit cube as a hull, vertex k at ((k & 1 ? 1 : −1), (k & 2 ? 1 : −1), (k & 4 ? 1 : −1)) as
/// the box corners elsewhere in this file.
const ConvexHull& unit_cube() {
  static const ConvexHull cube = [] {
    std::array<Vec3, 8> v;
    for (int k = 0; k < 8; ++k) v[static_cast<size_t>(k)] = Vec3(k & 1 ? 1 : -1, k & 2 ? 1 : -1, k & 4 ? 1 : -1);
    return convex_hull(v);
  }();
  return cube;
}

/// Clips the polygon poly[0 .. np) to the side planes of face f of H (outward normal n): each
/// edge's plane through the face normal. Returns the clipped polygon's vertex count.
int clip_to_face(const HullView& H, int f, const Vec3& n, BigPoly& poly, int np) {
  BigPoly tmp{};
  const int b = H.loop_begin(f), e = H.loop_end(f);
  for (int k = b; k < e && np > 0; ++k) {
    const Vec3 p = H.vertex(H.loop_vertex(k)), q = H.vertex(H.loop_vertex(k + 1 < e ? k + 1 : b));
    Vec3 side = (q - p).cross(n);
    const double len = side.norm();
    if (len <= 0) continue;
    side /= len;
    np = clip_big(poly, np, side, side.dot(p), tmp);
    poly = tmp;
  }
  return np;
}

HullView hull_view(const PlacedShape& s) {
  HullView v;
  v.c = s.c_W;
  v.R = s.R_WS;
  if (s.type == ShapeType::Box) {
    v.h = &unit_cube();
    v.scale = s.half;
    v.box = true;
  } else {
    v.h = s.hull;
  }
  return v;
}

/// Signed distance of the point x (world) to the polyhedron, with the closest surface point s_W
/// and the outward unit normal there.
double hull_signed_distance(const HullView& H, const Vec3& x, Vec3& s_W, Vec3& n_W) {
  const Vec3 xl = H.R.transpose() * (x - H.c);
  double smax = -1e300;
  int fmax = 0;
  for (int f = 0; f < H.nf(); ++f) {
    const double s = H.normal_local(f).dot(xl) - H.offset_local(f);
    if (s > smax) smax = s, fmax = f;
  }
  if (smax <= 0) {
    const Vec3 n = H.normal_local(fmax);
    n_W = H.R * n;
    s_W = H.c + H.R * (xl - n * smax);
    return smax;
  }
  double best = 1e300;
  Vec3 sbest = xl;
  for (int f = 0; f < H.nf(); ++f) {
    const Vec3 n = H.normal_local(f);
    const double s = n.dot(xl) - H.offset_local(f);
    if (s <= 0) continue;
    const Vec3 y = xl - n * s;
    bool inside = true;
    const int b = H.loop_begin(f), e = H.loop_end(f);
    for (int k = b; k < e && inside; ++k) {
      const Vec3 p = H.local(H.loop_vertex(k)), q = H.local(H.loop_vertex(k + 1 < e ? k + 1 : b));
      inside = (q - p).cross(n).dot(y - p) <= 0;
    }
    if (inside) {
      if (s < best) best = s, sbest = y;
      continue;
    }
    for (int k = b; k < e; ++k) {
      const Vec3 p = H.local(H.loop_vertex(k)), q = H.local(H.loop_vertex(k + 1 < e ? k + 1 : b));
      const Vec3 d = q - p;
      const double t = std::clamp(d.dot(xl - p) / std::max(d.squaredNorm(), 1e-300), 0.0, 1.0);
      const Vec3 z = p + d * t;
      const double dist = (xl - z).norm();
      if (dist < best) best = dist, sbest = z;
    }
  }
  s_W = H.c + H.R * sbest;
  const Vec3 diff = xl - sbest;
  n_W = best > 0 ? Vec3(H.R * (diff / diff.norm())) : Vec3(H.R * H.normal_local(fmax));
  return best;
}

double hull_sd(const HullView& H, const Vec3& x) {
  Vec3 s, n;
  return hull_signed_distance(H, x, s, n);
}

/// Candidate points of a pair (fixed capacity; when full, a deeper point replaces the shallowest).
struct Candidates {
  std::array<PairPoint, 256> p;
  int n = 0;
  void add(const PairPoint& q) {
    if (n < static_cast<int>(p.size())) {
      p[static_cast<size_t>(n++)] = q;
      return;
    }
    int worst = 0;
    for (int i = 1; i < n; ++i)
      if (p[static_cast<size_t>(i)].depth > p[static_cast<size_t>(worst)].depth) worst = i;
    if (q.depth < p[static_cast<size_t>(worst)].depth) p[static_cast<size_t>(worst)] = q;
  }
};

/// Emits the candidates: all of them in order if at most kMaxPairPoints, else the deepest and then
/// each time the one farthest from those taken.
void emit_spread(Emitter& emit, const Candidates& cand) {
  const int nc = cand.n;
  auto at = [&](int i) -> const PairPoint& { return cand.p[static_cast<size_t>(i)]; };
  if (nc <= kMaxPairPoints) {
    for (int i = 0; i < nc; ++i) emit(at(i).p, at(i).n, at(i).depth, at(i).feature, at(i).r_eff);
    return;
  }
  farthest_point_order(
      nc, kMaxPairPoints, [&](int c) { return at(c).depth; }, [&](int c) -> const Vec3& { return at(c).p; },
      [&](int pick) { emit(at(pick).p, at(pick).n, at(pick).depth, at(pick).feature, at(pick).r_eff); });
}

void hull_plane(Emitter& emit, const Vec3& n, double off, const HullView& H, double margin) {
  Candidates cand;
  for (int k = 0; k < H.nv(); ++k) {
    const Vec3 x = H.vertex(k);
    const double d = n.dot(x) - off;
    if (d < margin) cand.add({x - n * (0.5 * d), n, d, k % 200, 0});
  }
  emit_spread(emit, cand);
}

/// Whether the arcs a–b (normals of the faces of an edge of one shape) and c–d (the negated
/// normals of the faces of an edge of the other) cross on the unit sphere: then the edges' cross
/// product is a face normal of the Minkowski difference (Gregorius 2013).
bool arcs_cross(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  const Vec3 bxa = b.cross(a), dxc = d.cross(c);
  const double cba = c.dot(bxa), dba = d.dot(bxa), adc = a.dot(dxc), bdc = b.dot(dxc);
  return cba * dba < 0 && adc * bdc < 0 && cba * bdc > 0;
}

/// Separation of hull O from face f of hull F along its normal, exact from O's vertices.
double hull_face_separation(const HullView& F, int f, const HullView& O) {
  const Vec3 n = F.normal(f);
  const double off = F.offset(f);
  double s = 1e300;
  for (int i = 0; i < O.nv(); ++i) s = std::min(s, n.dot(O.vertex(i)) - off);
  return s;
}

/// The face of F least penetrated by O (face f, separation s); false if one separates them by
/// margin or more.
bool best_hull_face(const HullView& F, const HullView& O, double margin, int& f, double& s) {
  for (int k = 0; k < F.nf(); ++k) {
    const double sk = hull_face_separation(F, k, O);
    if (sk >= margin) return false;
    if (sk > s) s = sk, f = k;
  }
  return true;
}

/// The best edge–edge axis of two hulls.
struct HullEdgeAxis {
  double s = -1e300;      ///< its separation, m
  int ea = -1, eb = -1;   ///< the edges of A and B; −1: none
  Vec3 L = Vec3::Zero();  ///< the axis, from A to B
};

/// Edge–edge axes of the Minkowski difference's faces; false if one separates the hulls by
/// margin or more.
bool hull_edge_axis(const HullView& A, const HullView& B, double margin, HullEdgeAxis& e) {
  Vec3 cA = Vec3::Zero();
  for (int i = 0; i < A.nv(); ++i) cA += A.vertex(i);
  cA /= A.nv();
  for (size_t i = 0; i < A.h->edges.size(); ++i) {
    const Vec3 pa = A.vertex(A.h->edges[i][0]), qa = A.vertex(A.h->edges[i][1]);
    const Vec3 na1 = A.normal(A.h->edge_faces[i][0]), na2 = A.normal(A.h->edge_faces[i][1]);
    for (size_t j = 0; j < B.h->edges.size(); ++j) {
      const Vec3 nb1 = B.normal(B.h->edge_faces[j][0]), nb2 = B.normal(B.h->edge_faces[j][1]);
      if (!arcs_cross(na1, na2, -nb1, -nb2)) continue;
      const Vec3 pb = B.vertex(B.h->edges[j][0]), qb = B.vertex(B.h->edges[j][1]);
      const Vec3 da = qa - pa, db = qb - pb;
      Vec3 L = da.cross(db);
      const double len = L.norm();
      if (len < 1e-6 * da.norm() * db.norm()) continue;  // parallel edges: the face axes cover them
      L /= len;
      if (L.dot(pa - cA) < 0) L = -L;
      const double s = L.dot(pb - pa);
      if (s >= margin) return false;
      if (s > e.s) e.s = s, e.ea = static_cast<int>(i), e.eb = static_cast<int>(j), e.L = L;
    }
  }
  return true;
}

/// Face contact of two hulls: face f of `ref` (separation s_face) as the reference, the face of
/// `inc` most anti-parallel to it clipped to it; if that leaves no point, one at inc's deepest
/// vertex.
void hull_face_contact(Emitter& emit, const HullView& ref, const HullView& inc, int f, bool ref_is_a, double s_face,
                       double scale, double margin) {
  const Vec3 n = ref.normal(f);  // outward of ref, towards inc
  const double off = ref.offset(f);
  int g = 0;
  double most = 1e300;
  for (int k = 0; k < inc.nf(); ++k) {
    const double c = inc.normal(k).dot(n);
    if (c < most) most = c, g = k;
  }
  BigPoly poly{};
  int np = 0;
  for (int k = inc.loop_begin(g); k < inc.loop_end(g); ++k) poly[static_cast<size_t>(np++)] = inc.vertex(inc.loop_vertex(k));
  np = clip_to_face(ref, f, n, poly, np);
  const Vec3 n_ab = ref_is_a ? n : Vec3(-n);
  const int face_id = ((ref_is_a ? 0 : 6) + f % 6) % 12;
  const double same = 1e-6 * scale;
  Candidates cand;
  for (int k = 0; k < np; ++k) {
    const Vec3& pk = poly[static_cast<size_t>(k)];
    const double depth = n.dot(pk) - off;
    if (!(depth < margin)) continue;
    bool dup = false;
    for (int c = 0; c < cand.n && !dup; ++c)
      dup = (cand.p[static_cast<size_t>(c)].p + n * (0.5 * cand.p[static_cast<size_t>(c)].depth) - pk).norm() <= same;
    if (!dup) cand.add({pk - n * (0.5 * depth), n_ab, depth, 16 * face_id + k % 16, 0});
  }
  emit_spread(emit, cand);
  if (emit.count > 0 || !(s_face < margin)) return;
  // The incident face clipped away (the other shape reaches the reference face with another
  // face's vertex): one point at the other shape's deepest vertex along n, with the face
  // separation as its depth.
  int deepest = 0;
  for (int i = 1; i < inc.nv(); ++i)
    if (n.dot(inc.vertex(i)) < n.dot(inc.vertex(deepest))) deepest = i;
  emit(inc.vertex(deepest) - n * (0.5 * s_face), n_ab, s_face, 255, 0);
}

void hull_hull(Emitter& emit, const HullView& A, const HullView& B, double margin) {
  const double scale = std::max(A.size(), B.size());
  // Face axes: separation along the face normal, exact from the other shape's vertices.
  int fa = -1, fb = -1;
  double sa = -1e300, sb = -1e300;
  if (!best_hull_face(A, B, margin, fa, sa) || !best_hull_face(B, A, margin, fb, sb)) return;
  HullEdgeAxis e;
  if (!hull_edge_axis(A, B, margin, e)) return;
  const bool ref_is_a = !(sb > sa + 1e-9 * scale);
  const double s_face = ref_is_a ? sa : sb;
  if (e.ea >= 0 && e.s > 0.95 * s_face + 1e-3 * scale && e.s > s_face + 1e-9 * scale) {
    const Vec3 pa = A.vertex(A.h->edges[static_cast<size_t>(e.ea)][0]), qa = A.vertex(A.h->edges[static_cast<size_t>(e.ea)][1]);
    const Vec3 pb = B.vertex(B.h->edges[static_cast<size_t>(e.eb)][0]), qb = B.vertex(B.h->edges[static_cast<size_t>(e.eb)][1]);
    double s, t;
    Vec3 c1, c2;
    closest_segments(pa, qa, pb, qb, s, t, c1, c2);
    emit(0.5 * (c1 + c2), e.L, e.s, 200 + (e.ea * 7 + e.eb) % 50, 0);
    return;
  }
  hull_face_contact(emit, ref_is_a ? A : B, ref_is_a ? B : A, ref_is_a ? fa : fb, ref_is_a, s_face, scale, margin);
}


/// Largest L·(x − c) over the polyhedron's vertices (its support function about its origin c).
double hull_extent(const HullView& H, const Vec3& L) {
  double e = -1e300;
  for (int i = 0; i < H.nv(); ++i) e = std::max(e, L.dot(H.R * H.local(i)));
  return e;
}

/// The polyhedron's point farthest along L: the mean of its vertices within 1e-9 of the size of
/// the farthest (the middle of a face or an edge perpendicular to L).
Vec3 hull_support(const HullView& H, const Vec3& L) {
  const double e = hull_extent(H, L), tol = 1e-9 * std::max(1.0, H.size());
  Vec3 sum = Vec3::Zero();
  int n = 0;
  for (int i = 0; i < H.nv(); ++i)
    if (L.dot(H.R * H.local(i)) >= e - tol) sum += H.vertex(i), ++n;
  return sum / std::max(n, 1);
}

/// A polyhedron (a) against a cylinder (b): box_cylinder() with the polyhedron's faces, vertices
/// and edges for the box's. Separating axes: the face normals, the cylinder axis, the axis × each
/// edge, the cylinder's normal at each vertex and at each edge's deepest point, the polyhedron's
/// normal at each rim's deepest point (all separations exact from the support functions). A face
/// that is best (or not clearly worse than the best): the cylinder's incident end disc or
/// generator clipped to it; else the vertices and edge points inside the cylinder and the rim
/// points inside the polyhedron.
/// The deepest point x of hull edge e in the cylinder; true if deeper than both its ends (by eps).
bool hull_edge_point(const HullView& H, const PlacedShape& cyl, const std::array<int, 2>& e, double eps, Vec3& x) {
  const Vec3 p0 = H.vertex(e[0]), p1 = H.vertex(e[1]);
  const double t = golden_min([&](double s) { return cylinder_sd(cyl, p0 + (p1 - p0) * s); }, 0.0, 1.0);
  x = p0 + (p1 - p0) * t;
  return cylinder_sd(cyl, x) < std::min(cylinder_sd(cyl, p0), cylinder_sd(cyl, p1)) - eps;
}

/// The axes of a hull–cylinder pair other than the hull's face normals into `other`: the
/// cylinder axis, the axis × each hull edge, the cylinder's normal at each hull vertex and at the
/// deepest point of each edge, and the hull's normal at the deepest point of each rim (rim_pt).
/// False as soon as one separates the pair by margin or more.
bool hull_cylinder_axes(const HullView& H, const PlacedShape& cyl, double scale, double margin, OtherAxis& other,
                        std::array<Vec3, 2>& rim_pt) {
  const Vec3 d = cyl.c_W - H.c;
  auto consider = [&](const Vec3& L) {
    return other.take(L.dot(d) - hull_extent(H, L) - extent(cyl, L), L, margin);
  };
  const Vec3 u = cyl.R_WS.col(2);
  if (!consider(toward(u, d))) return false;
  for (const auto& e : H.h->edges) {
    const Vec3 L = u.cross(H.vertex(e[1]) - H.vertex(e[0]));
    if (L.norm() > 1e-6 * scale && !consider(toward(L.normalized(), d))) return false;
  }
  const double eps = 1e-9 * std::max(1.0, scale);
  for (int k = 0; k < H.nv(); ++k) {
    Vec3 s_W, n;
    cylinder_signed_distance(cyl, H.vertex(k), s_W, n);
    if (!consider(-n)) return false;
  }
  for (const auto& e : H.h->edges) {
    Vec3 x, s_W, n;
    if (!hull_edge_point(H, cyl, e, eps, x)) continue;
    cylinder_signed_distance(cyl, x, s_W, n);
    if (!consider(-n)) return false;
  }
  for (int end = 0; end < 2; ++end) {
    const Vec3 ce = cyl.c_W + u * (end ? cyl.half_length : -cyl.half_length);
    rim_pt[static_cast<size_t>(end)] =
        deepest_rim_point([&](const Vec3& x) { return hull_sd(H, x); }, ce, cyl.R_WS.col(0), cyl.R_WS.col(1), cyl.radius);
    Vec3 s_W, n;
    hull_signed_distance(H, rim_pt[static_cast<size_t>(end)], s_W, n);
    if (!consider(n)) return false;
  }
  return true;
}

/// Hull face `best_face` (separation s_face) as the reference, the cylinder's incident feature
/// clipped to it. True if that is the contact (the cylinder's deepest point along it is on the
/// face); else the points emitted are dropped.
bool hull_face_on_cylinder(Emitter& emit, const HullView& H, const PlacedShape& cyl, int best_face, double s_face,
                           double scale, double margin) {
  const Vec3 n = H.normal(best_face);
  const double off = H.offset(best_face);
  Poly inc{};
  const int ni = cylinder_incident(cyl, -n, inc);
  BigPoly poly{};
  for (int k = 0; k < ni; ++k) poly[static_cast<size_t>(k)] = inc[static_cast<size_t>(k)];
  const int np = clip_to_face(H, best_face, n, poly, ni);
  Candidates cand;
  double deepest = 1e300;
  const double same = 1e-6 * scale;
  for (int k = 0; k < np; ++k) {
    const Vec3& pk = poly[static_cast<size_t>(k)];
    const double depth = n.dot(pk) - off;
    if (!(depth < margin)) continue;
    bool dup = false;
    for (int c = 0; c < cand.n && !dup; ++c)
      dup = (cand.p[static_cast<size_t>(c)].p + n * (0.5 * cand.p[static_cast<size_t>(c)].depth) - pk).norm() <= same;
    if (dup) continue;
    cand.add({pk - n * (0.5 * depth), n, depth, 16 * (best_face % 12) + k % 16, 0});
    deepest = std::min(deepest, depth);
  }
  emit_spread(emit, cand);
  // The face is the contact if the cylinder's deepest point along it is on it.
  if (emit.count > 0 && deepest <= s_face + 1e-3 * scale) return true;
  emit.count = 0;
  return false;
}

/// The hull vertices and edge points inside the cylinder, with the cylinder's normal, and the rim
/// points inside the hull, with the hull's normal (spread over at most kMaxPairPoints).
void emit_hull_cylinder_features(Emitter& emit, const HullView& H, const PlacedShape& cyl,
                                 const std::array<Vec3, 2>& rim_pt, double scale, double margin) {
  const double eps = 1e-9 * std::max(1.0, scale);
  Candidates cand;
  for (int k = 0; k < H.nv(); ++k) {
    Vec3 s_W, n;
    const double sd = cylinder_signed_distance(cyl, H.vertex(k), s_W, n);
    if (sd < margin) cand.add({s_W + n * (0.5 * sd), -n, sd, 100 + k % 100, 0});
  }
  for (size_t k = 0; k < H.h->edges.size(); ++k) {
    Vec3 x, s_W, n;
    if (!hull_edge_point(H, cyl, H.h->edges[k], eps, x)) continue;
    const double sd = cylinder_signed_distance(cyl, x, s_W, n);
    if (sd < margin) cand.add({s_W + n * (0.5 * sd), -n, sd, 200 + static_cast<int>(k % 30), 0});
  }
  for (int end = 0; end < 2; ++end) {
    Vec3 s_W, n;
    const double sd = hull_signed_distance(H, rim_pt[static_cast<size_t>(end)], s_W, n);
    if (sd < margin) cand.add({s_W + n * (0.5 * sd), n, sd, 230 + end, 0});
  }
  emit_spread(emit, cand);
}

void hull_cylinder(Emitter& emit, const HullView& H, const PlacedShape& cyl, double margin) {
  const double scale = std::max({H.size(), cyl.radius, cyl.half_length});
  int best_face = 0;
  double s_face = -1e300;
  for (int f = 0; f < H.nf(); ++f) {
    const Vec3 n = H.normal(f);
    const double s = n.dot(cyl.c_W) - extent(cyl, n) - H.offset(f);
    if (s >= margin) return;
    if (s > s_face) s_face = s, best_face = f;
  }
  OtherAxis other;
  std::array<Vec3, 2> rim_pt;
  if (!hull_cylinder_axes(H, cyl, scale, margin, other, rim_pt)) return;
  if (!clearly_better(other.s, s_face, scale) && hull_face_on_cylinder(emit, H, cyl, best_face, s_face, scale, margin))
    return;
  emit_hull_cylinder_features(emit, H, cyl, rim_pt, scale, margin);
  // As axis_point(): a point on the axis of largest separation if no point is nearly as deep.
  const bool face_axis = s_face >= other.s;
  const double s = face_axis ? s_face : other.s;
  const Vec3 L = face_axis ? H.normal(best_face) : other.L;
  axis_point_at(emit, L, s, margin, scale, [&] { return Vec3(0.5 * (hull_support(H, L) + support_point(cyl, -L))); });
}

}  // namespace

PlacedShape placed_shape(const Contact& c) {
  PlacedShape g;
  g.type = c.shape;
  g.radius = c.radius;
  g.half_length = c.half_length;
  g.half = c.half_extents;
  g.normal = c.normal.norm() > 0 ? Vec3(c.normal.normalized()) : Vec3::UnitZ();
  g.offset = c.offset;
  g.c_W = c.position;
  g.R_WS = c.orientation;
  g.hull = c.hull.get();
  return g;
}

// ---- the pair functions of the registry (ContactPairs.cpp), one per pair kind -------------------

namespace pairs {

namespace {
/// World normal and offset of the plane a, then the points of b against it.
template <class F>
int against_plane(const PlacedShape& A, PairPoint* out, F&& f) {
  Emitter emit{out};
  Vec3 n;
  double off;
  plane_world(A, n, off);
  f(emit, n, off);
  return emit.count;
}

/// The points f(emit) emits into out, and their count.
template <class F>
int emitted(PairPoint* out, F&& f) {
  Emitter emit{out};
  f(emit);
  return emit.count;
}
}  // namespace

int plane_sphere(const PlacedShape& A, const PlacedShape& B, double margin, PairPoint* out) {
  return against_plane(A, out, [&](Emitter& emit, const Vec3& n, double off) {
    sphere_plane(emit, n, off, B.c_W, B.radius, margin, 0);
  });
}

int plane_capsule(const PlacedShape& A, const PlacedShape& B, double margin, PairPoint* out) {
  return against_plane(A, out, [&](Emitter& emit, const Vec3& n, double off) {
    const Vec3 ax = B.R_WS.col(2) * B.half_length;
    sphere_plane(emit, n, off, B.c_W + ax, B.radius, margin, 0);
    sphere_plane(emit, n, off, B.c_W - ax, B.radius, margin, 1);
  });
}

int plane_box(const PlacedShape& A, const PlacedShape& B, double margin, PairPoint* out) {
  return against_plane(A, out, [&](Emitter& emit, const Vec3& n, double off) {
    for (int k = 0; k < 8; ++k) {
      const Vec3 corner_S((k & 1 ? 1 : -1) * B.half.x(), (k & 2 ? 1 : -1) * B.half.y(),
                          (k & 4 ? 1 : -1) * B.half.z());
      const Vec3 x = B.c_W + B.R_WS * corner_S;
      const double d = n.dot(x) - off;
      if (d < margin) emit(x - n * (0.5 * d), n, d, k, 0);
    }
  });
}

int plane_cylinder(const PlacedShape& A, const PlacedShape& B, double margin, PairPoint* out) {
  return against_plane(A, out, [&](Emitter& emit, const Vec3& n, double off) { cylinder_plane(emit, n, off, B, margin); });
}

int box_box(const PlacedShape& A, const PlacedShape& B, double margin, PairPoint* out) {
  return emitted(out, [&](Emitter& emit) { mbdae::box_box(emit, A, B, margin); });
}

int box_cylinder(const PlacedShape& A, const PlacedShape& B, double margin, PairPoint* out) {
  return emitted(out, [&](Emitter& emit) { mbdae::box_cylinder(emit, A, B, margin); });
}

int box_capsule(const PlacedShape& A, const PlacedShape& B, double margin, PairPoint* out) {
  return emitted(out, [&](Emitter& emit) { mbdae::box_capsule(emit, A, B, margin); });
}

int box_sphere(const PlacedShape& A, const PlacedShape& B, double margin, PairPoint* out) {
  return emitted(out, [&](Emitter& emit) { mbdae::box_sphere(emit, A, B.c_W, B.radius, margin, 0); });
}

int cylinder_cylinder(const PlacedShape& A, const PlacedShape& B, double margin, PairPoint* out) {
  return emitted(out, [&](Emitter& emit) { mbdae::cylinder_cylinder(emit, A, B, margin); });
}

int cylinder_capsule(const PlacedShape& A, const PlacedShape& B, double margin, PairPoint* out) {
  return emitted(out, [&](Emitter& emit) { mbdae::cylinder_capsule(emit, A, B, margin); });
}

int cylinder_sphere(const PlacedShape& A, const PlacedShape& B, double margin, PairPoint* out) {
  return emitted(out, [&](Emitter& emit) { mbdae::cylinder_sphere(emit, A, B.c_W, B.radius, margin); });
}

int capsule_capsule(const PlacedShape& A, const PlacedShape& B, double margin, PairPoint* out) {
  return emitted(out, [&](Emitter& emit) { mbdae::capsule_capsule(emit, A, B, margin); });
}

int capsule_sphere(const PlacedShape& A, const PlacedShape& B, double margin, PairPoint* out) {
  return emitted(out, [&](Emitter& emit) { mbdae::capsule_sphere(emit, A, B, margin); });
}

int sphere_sphere(const PlacedShape& A, const PlacedShape& B, double margin, PairPoint* out) {
  return emitted(out, [&](Emitter& emit) {
    mbdae::sphere_sphere(emit, A.c_W, A.radius, B.c_W, B.radius, margin, 0, Vec3::UnitZ());
  });
}

int plane_convex_mesh(const PlacedShape& A, const PlacedShape& B, double margin, PairPoint* out) {
  return against_plane(A, out, [&](Emitter& emit, const Vec3& n, double off) { hull_plane(emit, n, off, hull_view(B), margin); });
}

int convex_mesh_sphere(const PlacedShape& A, const PlacedShape& B, double margin, PairPoint* out) {
  return emitted(out, [&](Emitter& emit) {
    const HullView H = hull_view(A);
    Vec3 s_W, n;
    const double d = hull_signed_distance(H, B.c_W, s_W, n) - B.radius;
    if (d < margin) emit(s_W + n * (0.5 * d), n, d, 0, B.radius);
  });
}

int convex_mesh_capsule(const PlacedShape& A, const PlacedShape& B, double margin, PairPoint* out) {
  return emitted(out, [&](Emitter& emit) {
    const HullView H = hull_view(A);
    convex_capsule(
        emit, [&](const Vec3& x) { return hull_sd(H, x); },
        [&](const Vec3& x, Vec3& s, Vec3& n) { return hull_signed_distance(H, x, s, n); }, H.size(), B, margin);
  });
}

int convex_mesh_cylinder(const PlacedShape& A, const PlacedShape& B, double margin, PairPoint* out) {
  return emitted(out, [&](Emitter& emit) { hull_cylinder(emit, hull_view(A), B, margin); });
}

int convex_mesh_box(const PlacedShape& A, const PlacedShape& B, double margin, PairPoint* out) {
  return emitted(out, [&](Emitter& emit) { hull_hull(emit, hull_view(A), hull_view(B), margin); });
}

int convex_mesh_convex_mesh(const PlacedShape& A, const PlacedShape& B, double margin, PairPoint* out) {
  return emitted(out, [&](Emitter& emit) { hull_hull(emit, hull_view(A), hull_view(B), margin); });
}

}  // namespace pairs

int narrow_phase(const PlacedShape& s1, const PlacedShape& s2, double margin, PairPoint* out, bool& swapped) {
  const ContactPairKind& kind = contact_pair_kind(s1.type, s2.type, swapped);
  if (!kind.collide) return 0;  // refused before (contact_pair_problems())
  return swapped ? kind.collide(s2, s1, margin, out) : kind.collide(s1, s2, margin, out);
}

}  // namespace mbdae
