#pragma once
/// @file ContactDetector.h
/// The contacts of a NewtonEulerSystem's model at its positions: the contact module's broad and
/// narrow phase (mbdae/contact/ContactGeometry.h) over the shapes posed on the bodies' centres of
/// mass, with the material of each pair (the impulse stepper's detector), and the check of the
/// shapes' overlap at the start of a run.

#include <utility>
#include <vector>

#include <mbdae/contact/ContactGeometry.h>
#include <mbdae/formulations/NewtonEuler.h>

namespace mbdae {

/// Broad and narrow phase for the shapes of sys.model().contacts(). Keeps a reference to `sys`,
/// which must outlive the detector. detect() reuses internal buffers: not for concurrent use.
class ContactDetector {
 public:
  /// Checks every contact description (throws ModelError listing all problems).
  /// @throws ModelError if a contact is invalid (contact_problems()), names an unknown body, or
  /// two shapes on different bodies form a pair the impulse path does not take
  /// (contact_pair_problems()).
  explicit ContactDetector(const NewtonEulerSystem& sys);

  /// Number of shapes (= the model's contacts().size()).
  int num_shapes() const { return static_cast<int>(shapes_.size()); }
  /// All contact points with depth < margin at the positions q (NewtonEuler layout). `out` is
  /// cleared and refilled; its capacity is kept between calls. q has size 7 n; margin in m.
  void detect(const VecX& q, double margin, std::vector<ContactPoint>& out);
  /// Candidate pairs of the last broad phase (for statistics).
  long last_pair_count() const { return pairs_; }

 private:
  struct Shape {
    int index;
    BodyIndex body;
    Vec3 pos_B;  ///< shape origin relative to the COM, body axes
    Mat3 R_BS;
    double bound;
    PlacedShape g;  ///< geometry with the world pose at the current detection
  };
  void narrow(const Shape& s1, const Shape& s2, double margin, std::vector<ContactPoint>& out) const;

  const NewtonEulerSystem& sys_;
  std::vector<Shape> shapes_;
  std::vector<int> planes_, finite_;
  GridBroadPhase grid_;
  std::vector<Vec3> centre_;   // of the finite shapes, world
  std::vector<double> bound_;  // of the finite shapes
  std::vector<int> group_;     // body of each finite shape
  std::vector<std::pair<int, int>> candidates_;
  long pairs_ = 0;
};

/// Fraction of the thinner shape of a pair (sphere, capsule: radius; cylinder: the smaller of its
/// radius and half length; box: its smallest half extent; a plane has no thickness) by which two
/// shapes may overlap at the start of a run: deeper, the contacts would push them apart with
/// energy that no force supplies (initial_overlap_problems()).
inline constexpr double kInitialOverlapFraction = 0.1;

/// The pairs of shapes that overlap by more than kInitialOverlapFraction of the thinner shape at
/// the positions q (NewtonEuler layout), one problem per pair, naming both shapes, the depth and
/// the allowed depth, about the second shape of the pair, or the first if the second is on ground
/// (ItemRef::contact). Empty if none.
/// @throws ModelError as ContactDetector's constructor.
std::vector<ModelProblem> initial_overlap_problems(const NewtonEulerSystem& sys, const VecX& q);
/// The same at the poses the model gives its bodies (System::bodies()), as `mbdae check` and a
/// run whose formulation has no Newton–Euler positions see them. @throws as above.
std::vector<ModelProblem> initial_overlap_problems(const System& model);

}  // namespace mbdae
