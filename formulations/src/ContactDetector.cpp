// The contact detector of the Newton–Euler positions: the contact module's broad phase
// (GridBroadPhase) and narrow phase (narrow_phase()) over the shapes of a NewtonEulerSystem's model.

#include <mbdae/contact/ContactPairs.h>
#include <mbdae/formulations/CompiledModel.h>
#include <mbdae/formulations/ContactDetector.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <unordered_map>
#include <utility>

namespace mbdae {


ContactDetector::ContactDetector(const NewtonEulerSystem& sys) : sys_(sys) {
  const System& m = sys.model();
  std::vector<ModelProblem> problems;
  const std::unordered_map<std::string, BodyIndex> body_index = m.body_indices();  // not find_body(): O(bodies) each
  for (size_t k = 0; k < m.contacts().size(); ++k) {
    const Contact& c = m.contacts()[k];
    const ItemRef item = ItemRef::contact(static_cast<int>(k));
    for (auto& p : contact_problems(c)) problems.push_back({std::move(p), item});
    const auto bi = body_index.find(c.body);
    if (bi == body_index.end()) {
      problems.push_back({"contact '" + c.name + "': unknown body '" + c.body + "'", item});
      continue;
    }
    Shape s{};
    s.index = static_cast<int>(k);
    s.body = bi->second;
    s.pos_B = c.position - (s.body == kGround ? Vec3::Zero() : sys.com_offset(s.body));
    s.R_BS = c.orientation;
    s.g = placed_shape(c);
    s.bound = c.bounding_radius();
    s.g.c_W = s.pos_B;
    s.g.R_WS = s.R_BS;
    shapes_.push_back(s);
    if (c.shape == ShapeType::Plane) planes_.push_back(static_cast<int>(shapes_.size()) - 1);
    else finite_.push_back(static_cast<int>(shapes_.size()) - 1);
  }
  if (problems.empty())
    for (ModelProblem& p : contact_pair_problems(m, ContactPath::Impulse)) problems.push_back(std::move(p));
  if (!problems.empty()) throw ModelError(std::move(problems));
  for (int si : finite_) {
    bound_.push_back(shapes_[static_cast<size_t>(si)].bound);
    group_.push_back(static_cast<int>(shapes_[static_cast<size_t>(si)].body));
  }
  centre_.reserve(finite_.size());
  grid_.reserve(finite_.size());
}

void ContactDetector::detect(const VecX& q, double margin, std::vector<ContactPoint>& out) {
  out.clear();
  pairs_ = 0;
  // World poses of the shapes on bodies (ground shapes keep their body-frame pose as world pose).
  for (Shape& s : shapes_) {
    if (s.body == kGround) continue;
    const Mat3 R = sys_.rotation(s.body, q);
    s.g.c_W = sys_.com_position(s.body, q) + R * s.pos_B;
    s.g.R_WS = R * s.R_BS;
  }
  // Planes against every finite shape on another body.
  for (int pi : planes_)
    for (int si : finite_) {
      const Shape& s = shapes_[static_cast<size_t>(si)];
      const Shape& pl = shapes_[static_cast<size_t>(pi)];
      if (s.body == pl.body || !plane_may_touch(pl.g, s.g.c_W, s.bound, margin)) continue;
      ++pairs_;
      narrow(pl, s, margin, out);
    }
  // Finite shapes: the grid.
  centre_.resize(finite_.size());
  for (size_t e = 0; e < finite_.size(); ++e) centre_[e] = shapes_[static_cast<size_t>(finite_[e])].g.c_W;
  grid_.find_pairs(centre_, bound_, group_, margin, candidates_);
  for (const auto& [i, j] : candidates_) {
    ++pairs_;
    narrow(shapes_[static_cast<size_t>(finite_[static_cast<size_t>(i)])],
           shapes_[static_cast<size_t>(finite_[static_cast<size_t>(j)])], margin, out);
  }
}

void ContactDetector::narrow(const Shape& s1, const Shape& s2, double margin,
                             std::vector<ContactPoint>& out) const {
  PairPoint pts[kMaxPairPoints];
  bool swapped = false;
  const int k = narrow_phase(s1.g, s2.g, margin, pts, swapped);
  const Shape& A = swapped ? s2 : s1;
  const Shape& B = swapped ? s1 : s2;
  for (int i = 0; i < k; ++i) {
    ContactPoint cp;
    cp.shape_a = A.index;
    cp.shape_b = B.index;
    cp.a = A.body;
    cp.b = B.body;
    cp.p = pts[i].p;
    cp.n = pts[i].n;
    cp.depth = pts[i].depth;
    cp.feature = pts[i].feature;
    cp.r_eff = pts[i].r_eff;
    const ContactMaterial mat = sys_.compiled()->material(A.index, B.index);
    cp.friction = mat.friction;
    cp.restitution = mat.restitution;
    cp.rolling_resistance = mat.rolling_resistance;
    cp.torsional_friction = mat.torsional_friction;
    out.push_back(cp);
  }
}


namespace {
/// The thickness initial_overlap_problems() measures an overlap against (its doc), m.
double thickness(const Contact& c) {
  switch (c.shape) {
    case ShapeType::Plane: return std::numeric_limits<double>::infinity();
    case ShapeType::Sphere:
    case ShapeType::Capsule: return c.radius;
    case ShapeType::Cylinder: return std::min(c.radius, c.half_length);
    case ShapeType::Box: return c.half_extents.minCoeff();
    case ShapeType::ConvexMesh: return c.hull ? c.hull->inner_radius() : 0;
  }
  return 0;
}
}  // namespace

std::vector<ModelProblem> initial_overlap_problems(const NewtonEulerSystem& sys, const VecX& q) {
  std::vector<ModelProblem> problems;
  const auto& contacts = sys.model().contacts();
  if (contacts.size() < 2) return problems;
  ContactDetector detector(sys);
  std::vector<ContactPoint> points;
  detector.detect(q, 0.0, points);
  std::map<std::pair<int, int>, double> deepest;  // pair -> largest penetration, m
  for (const ContactPoint& cp : points) {
    const std::pair<int, int> key = std::minmax(cp.shape_a, cp.shape_b);
    double& d = deepest[key];
    d = std::max(d, -cp.depth);
  }
  for (const auto& [pair, depth] : deepest) {
    const Contact& a = contacts[static_cast<size_t>(pair.first)];
    const Contact& b = contacts[static_cast<size_t>(pair.second)];
    const double allowed = kInitialOverlapFraction * std::min(thickness(a), thickness(b));
    if (!(depth > allowed)) continue;
    char text[512];
    std::snprintf(text, sizeof text,
                  "contact shapes '%s' and '%s' overlap by %.3g m at the start (resting contact allows %.3g m, a "
                  "tenth of the thinner shape's radius or half thickness); the contacts would push them apart "
                  "with energy that no force supplies: move the bodies apart or change the shapes",
                  a.name.c_str(), b.name.c_str(), depth, allowed);
    // About the second shape (as a pair that is not handled), unless it is on ground.
    const auto body_b = sys.model().find_body(b.body);
    const int item = body_b && *body_b == kGround ? pair.first : pair.second;
    problems.push_back({text, ItemRef::contact(item)});
  }
  return problems;
}

std::vector<ModelProblem> initial_overlap_problems(const System& model) {
  if (model.contacts().size() < 2) return {};
  const NewtonEulerSystem given(model);
  VecX q, v;
  given.initial_state(q, v);
  return initial_overlap_problems(given, q);
}

}  // namespace mbdae
