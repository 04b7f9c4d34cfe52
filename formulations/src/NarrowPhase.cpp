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
//    points, when an end lies flat); cylinder–sphere: the closest point of the solid cylinder.

#include <mbdae/formulations/ContactGeometry.h>

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
int clip(const std::array<Vec3, 16>& in, int n, const Vec3& a, double b, std::array<Vec3, 16>& out) {
  int m = 0;
  for (int i = 0; i < n; ++i) {
    const Vec3& p = in[static_cast<size_t>(i)];
    const Vec3& q = in[static_cast<size_t>((i + 1) % n)];
    const double dp = a.dot(p) - b, dq = a.dot(q) - b;
    if (dp <= 0) out[static_cast<size_t>(m++)] = p;
    if ((dp < 0 && dq > 0) || (dp > 0 && dq < 0)) out[static_cast<size_t>(m++)] = p + (q - p) * (dp / (dp - dq));
    if (m >= 15) break;
  }
  return m;
}

void box_box(Emitter& emit, const PlacedShape& A, const PlacedShape& B, double margin) {
  const Vec3 d = B.c_W - A.c_W;
  const Mat3& Ra = A.R_WS;
  const Mat3& Rb = B.R_WS;
  const double scale = std::max(A.half.maxCoeff(), B.half.maxCoeff());
  // Separation of the boxes along the unit axis L (> 0: apart), L oriented from A to B.
  auto separation = [&](const Vec3& L) {
    double ra = 0, rb = 0;
    for (int i = 0; i < 3; ++i) {
      ra += A.half[i] * std::abs(L.dot(Ra.col(i)));
      rb += B.half[i] * std::abs(L.dot(Rb.col(i)));
    }
    return std::abs(L.dot(d)) - ra - rb;
  };
  // Face axes of A (0–2) and B (3–5): the least penetrating (largest separation) wins; B's only
  // if clearly better, so that a resting pair keeps its reference face from step to step.
  int best_face = -1;
  double s_face = -1e300;
  for (int k = 0; k < 6; ++k) {
    const Vec3 L = k < 3 ? Vec3(Ra.col(k)) : Vec3(Rb.col(k - 3));
    const double s = separation(L);
    if (s >= margin) return;
    if (s > s_face + (k < 3 ? 0.0 : 1e-9 * scale)) {
      s_face = s;
      best_face = k;
    }
  }
  int best_edge = -1;
  double s_edge = -1e300;
  Vec3 L_edge = Vec3::Zero();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      Vec3 L = Ra.col(i).cross(Rb.col(j));
      const double len = L.norm();
      if (len < 1e-6) continue;  // parallel edges: covered by the face axes
      L /= len;
      const double s = separation(L);
      if (s >= margin) return;
      if (s > s_edge) {
        s_edge = s;
        best_edge = 3 * i + j;
        L_edge = L;
      }
    }
  // An edge axis only if clearly less penetrating than the best face (Box2D's relative tolerance).
  if (best_edge >= 0 && s_edge > 0.95 * s_face + 1e-3 * scale && s_edge > s_face + 1e-9 * scale) {
    const int i = best_edge / 3, j = best_edge % 3;
    Vec3 L = L_edge;
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
    emit(0.5 * (c1 + c2), L, s_edge, 200 + best_edge, 0);
    return;
  }
  // Face contact: reference face on box `ref` along n (outward, towards the other box).
  const bool ref_is_a = best_face < 3;
  const PlacedShape& ref = ref_is_a ? A : B;
  const PlacedShape& inc = ref_is_a ? B : A;
  const int f = ref_is_a ? best_face : best_face - 3;
  const Vec3 to_inc = inc.c_W - ref.c_W;
  const double sgn = ref.R_WS.col(f).dot(to_inc) >= 0 ? 1.0 : -1.0;
  const Vec3 n = sgn * ref.R_WS.col(f);
  // Incident face: the face of inc most anti-parallel to n.
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
  std::array<Vec3, 16> poly{}, tmp{};
  poly[0] = fc + eu + ev;
  poly[1] = fc - eu + ev;
  poly[2] = fc - eu - ev;
  poly[3] = fc + eu - ev;
  int np = 4;
  // Side planes of the reference face: ±(axis k) · (x − c_ref) ≤ half_k for the two other axes.
  for (int k = 0; k < 3 && np > 0; ++k) {
    if (k == f) continue;
    const Vec3 ax = ref.R_WS.col(k);
    const double c0 = ax.dot(ref.c_W);
    np = clip(poly, np, ax, c0 + ref.half[k], tmp);
    poly = tmp;
    np = clip(poly, np, -ax, -c0 + ref.half[k], tmp);
    poly = tmp;
  }
  const double face_off = n.dot(ref.c_W) + ref.half[f];
  const Vec3 n_ab = ref_is_a ? n : Vec3(-n);
  const int face_id = (ref_is_a ? 0 : 6) + 2 * f + (sgn > 0 ? 1 : 0);  // 0–11
  // At most kMaxPairPoints points: the deepest ones if clipping left more.
  std::array<std::pair<double, int>, 16> cand{};
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

void box_capsule(Emitter& emit, const PlacedShape& box, const PlacedShape& cap, double margin) {
  const Vec3 u = cap.R_WS.col(2);
  const double L = cap.half_length;
  auto at = [&](double s) { return Vec3(cap.c_W + u * s); };
  // Golden-section search for the segment point deepest in the box (signed distance is convex).
  double lo = -L, hi = L;
  const double gr = 0.5 * (std::sqrt(5.0) - 1);
  double x1 = hi - gr * (hi - lo), x2 = lo + gr * (hi - lo);
  double f1 = box_sd(box, at(x1)), f2 = box_sd(box, at(x2));
  const double tol = 1e-12 * std::max(1.0, L);
  for (int it = 0; it < 200 && hi - lo > tol; ++it) {
    if (f1 <= f2) {
      hi = x2;
      x2 = x1;
      f2 = f1;
      x1 = hi - gr * (hi - lo);
      f1 = box_sd(box, at(x1));
    } else {
      lo = x1;
      x1 = x2;
      f1 = f2;
      x2 = lo + gr * (hi - lo);
      f2 = box_sd(box, at(x2));
    }
  }
  const double sm = 0.5 * (lo + hi);
  const double fm = box_sd(box, at(sm)), fe0 = box_sd(box, at(-L)), fe1 = box_sd(box, at(L));
  // The cap ends (a capsule lying on a face rests on both), and the deepest point if it is inside
  // the segment and deeper than both ends.
  const double eps = 1e-9 * std::max(1.0, box.half.maxCoeff());
  box_sphere(emit, box, at(-L), cap.radius, margin, 0);
  if (L > 0) box_sphere(emit, box, at(L), cap.radius, margin, 1);
  if (L > 0 && fm < std::min(fe0, fe1) - eps) box_sphere(emit, box, at(sm), cap.radius, margin, 2);
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

void cylinder_sphere(Emitter& emit, const PlacedShape& cyl, const Vec3& c, double r, double margin) {
  const Vec3 u = cyl.R_WS.col(2);
  const Vec3 x = c - cyl.c_W;
  const double a = u.dot(x);
  Vec3 radial = x - u * a;
  const double rho = radial.norm();
  const Vec3 e = rho > 1e-300 ? Vec3(radial / rho) : Vec3(cyl.R_WS.col(0));
  const double H = cyl.half_length, R = cyl.radius;
  Vec3 s_W, n;
  double sd;
  if (std::abs(a) <= H && rho <= R) {
    // Centre inside: leave through the nearer of the side and the end faces.
    const double side = R - rho, cap = H - std::abs(a);
    if (side < cap) {
      n = e;
      s_W = cyl.c_W + u * a + e * R;
      sd = -side;
    } else {
      n = a >= 0 ? u : Vec3(-u);
      s_W = cyl.c_W + u * (a >= 0 ? H : -H) + e * rho;
      sd = -cap;
    }
  } else {
    s_W = cyl.c_W + u * std::clamp(a, -H, H) + e * std::min(rho, R);
    const Vec3 diff = c - s_W;
    sd = diff.norm();
    n = diff / sd;
  }
  const double d = sd - r;
  if (d < margin) emit(s_W + n * (0.5 * d), n, d, 0, r);
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
  return g;
}

int shape_order(ShapeType t) {
  switch (t) {
    case ShapeType::Plane: return 0;
    case ShapeType::Box: return 1;
    case ShapeType::Cylinder: return 2;
    case ShapeType::Capsule: return 3;
    case ShapeType::Sphere: return 4;
  }
  return 5;
}

bool narrow_phase_handles(ShapeType x, ShapeType y) { return contact_pair_handled(x, y); }

int narrow_phase(const PlacedShape& s1, const PlacedShape& s2, double margin, PairPoint* out, bool& swapped) {
  // Order the pair: plane first, then box, cylinder, capsule, sphere (a is the "lower" type).
  swapped = !(shape_order(s1.type) <= shape_order(s2.type));
  const PlacedShape& A = swapped ? s2 : s1;
  const PlacedShape& B = swapped ? s1 : s2;
  Emitter emit{out};
  if (!contact_pair_handled(A.type, B.type)) return 0;
  if (A.type == ShapeType::Plane) {
    Vec3 n;
    double off;
    plane_world(A, n, off);
    switch (B.type) {
      case ShapeType::Sphere: sphere_plane(emit, n, off, B.c_W, B.radius, margin, 0); break;
      case ShapeType::Capsule: {
        const Vec3 ax = B.R_WS.col(2) * B.half_length;
        sphere_plane(emit, n, off, B.c_W + ax, B.radius, margin, 0);
        sphere_plane(emit, n, off, B.c_W - ax, B.radius, margin, 1);
        break;
      }
      case ShapeType::Box:
        for (int k = 0; k < 8; ++k) {
          const Vec3 corner_S((k & 1 ? 1 : -1) * B.half.x(), (k & 2 ? 1 : -1) * B.half.y(),
                              (k & 4 ? 1 : -1) * B.half.z());
          const Vec3 x = B.c_W + B.R_WS * corner_S;
          const double d = n.dot(x) - off;
          if (d < margin) emit(x - n * (0.5 * d), n, d, k, 0);
        }
        break;
      case ShapeType::Cylinder: cylinder_plane(emit, n, off, B, margin); break;
      case ShapeType::Plane: break;
    }
    return emit.count;
  }
  switch (A.type) {
    case ShapeType::Box:
      if (B.type == ShapeType::Box) box_box(emit, A, B, margin);
      else if (B.type == ShapeType::Capsule) box_capsule(emit, A, B, margin);
      else if (B.type == ShapeType::Sphere) box_sphere(emit, A, B.c_W, B.radius, margin, 0);
      break;
    case ShapeType::Cylinder:
      if (B.type == ShapeType::Sphere) cylinder_sphere(emit, A, B.c_W, B.radius, margin);
      break;
    case ShapeType::Capsule:
      if (B.type == ShapeType::Capsule) capsule_capsule(emit, A, B, margin);
      else if (B.type == ShapeType::Sphere) capsule_sphere(emit, A, B, margin);
      break;
    case ShapeType::Sphere:
      sphere_sphere(emit, A.c_W, A.radius, B.c_W, B.radius, margin, 0, Vec3::UnitZ());
      break;
    case ShapeType::Plane: break;
  }
  return emit.count;
}

}  // namespace mbdae
