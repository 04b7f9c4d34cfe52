#pragma once
/// @file ContactPairs.h
/// The contact pair kinds, each described once: the two shape types, the name (`box-box`), the
/// narrow-phase function that yields its contact points, the largest number of points, which
/// contact paths take it and a line on its method. The dispatcher narrow_phase(), the refusal of
/// pairs that are not handled (contact_pair_problems(), read by the model loader and so by
/// `mbdae check`, by ContactDetector and by MultibodySystem), `mbdae check`'s list of the pairs of
/// a model and the pair table of docs/contacts.md (checked by tests/test_registry_docs.cpp) all
/// read this table. A new pair kind is its function (contact/src/NarrowPhase*.cpp) and one
/// line in the registry (contact/src/ContactPairs.cpp); the registry checks at its first use
/// that every unordered pair of shape types has exactly one line.

#include <span>
#include <string>
#include <vector>

#include <mbdae/contact/ContactGeometry.h>

namespace mbdae {

/// Which contact path reads a pair kind.
enum class ContactPath {
  Impulse,  ///< impulses of the impulse stepper (ContactDetector)
  Penalty,  ///< penalty forces of the implicit solvers (MultibodySystem)
};
/// "impulse" or "penalty". No throw.
const char* to_string(ContactPath p);

/// Narrow phase of one pair kind: the points of shape a (of the kind's type a) and shape b (type b)
/// with depth < margin, normal from a to b, into out[0..k); returns k ≤ kMaxPairPoints. No
/// allocation, no throw.
using PairFunction = int (*)(const PlacedShape& a, const PlacedShape& b, double margin, PairPoint* out);

/// One kind of contact pair (see the file comment).
struct ContactPairKind {
  ShapeType a;             ///< type of shape a (the normal points from a to b)
  ShapeType b;             ///< type of shape b
  const char* name;        ///< "box-box": the two types' model-file names, a first
  PairFunction collide;    ///< nullptr: the pair is not handled (refused by name)
  int max_points;          ///< most points of one pair (≤ kMaxPairPoints); 0 if not handled
  bool impulse;            ///< the impulse stepper takes it
  bool penalty;            ///< the penalty contacts of the implicit solvers take it
  const char* method;      ///< one line for the docs table
  /// Every point of the pair carries a rolling radius (the round shape's radius: a sphere, or a
  /// capsule's cap sphere against a plane), so `rolling_resistance` acts; a pair without one is
  /// refused where its material asks for rolling resistance (contact_pair_problems()).
  bool rolling_radius = false;
  /// Whether `path` takes the pair (a handled pair on that path).
  bool on(ContactPath path) const {
    return collide && (path == ContactPath::Impulse ? impulse : penalty);
  }
};

/// Every pair kind, one line per unordered pair of shape types. @throws std::logic_error at the
/// first call if a pair of shape types has no line or two.
std::span<const ContactPairKind> contact_pair_kinds();

/// The kind of the pair (x, y) in either order; `swapped` is set when the kind's shape a is y
/// (never for two shapes of one type). No throw after the first call of contact_pair_kinds().
const ContactPairKind& contact_pair_kind(ShapeType x, ShapeType y, bool& swapped);

/// Whether the contact geometry handles shapes x and y touching, in either order. No throw.
bool contact_pair_handled(ShapeType x, ShapeType y);

/// The pairs of shapes on different (known) bodies of `model` whose kind is not handled, or, with
/// `path`, not taken by that path: one problem per kind, at the later of its first two shapes
/// (ItemRef::contact), naming both shapes, their bodies, the pair and the handled pairs. Empty if
/// none. No throw other than std::bad_alloc.
std::vector<ModelProblem> contact_pair_problems(const System& model);
/// As above, for the pairs that `path` does not take.
std::vector<ModelProblem> contact_pair_problems(const System& model, ContactPath path);

}  // namespace mbdae
