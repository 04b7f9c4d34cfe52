#pragma once
/// @file ElementKeys.h
/// The model-file keys of an element type (joint or force element), described once in the type's
/// registry entry: the key's name, whether it is required, its meaning, the kind of value it
/// holds and where the value goes. The model loader reads every key of every type from these
/// descriptions (one reader per kind of value), so a new element type whose keys are of the kinds
/// below needs no change in the loader; the docs tables list them.

#include <array>
#include <string>
#include <vector>

#include <mbdae/model/Types.h>

namespace mbdae {

/// The kind of value a key holds, as written in the model file.
enum class KeyKind {
  Number,       ///< one number (KeyValue::number), within `range`
  Vector,       ///< [x, y, z] (KeyValue::vector), each within `range`
  Axis,         ///< [x, y, z] of nonzero length (KeyValue::vector, as written)
  PointPair,    ///< [[x, y, z], [x, y, z]] (KeyValue::points)
  Orientation,  ///< a rotation: a 3 x 3 matrix or the model format's rotation forms (KeyValue::rotation)
  Flags6,       ///< 6 flags, 0 or 1 (KeyValue::flags)
  Matrix6,      ///< 6 numbers (a diagonal, each within `range`) or 6 rows of 6 (KeyValue::matrix6)
  Choice,       ///< one of `choices` (KeyValue::choice: its index)
};

/// The admissible values of a Number, Vector or Matrix6 diagonal.
enum class KeyRange {
  Any,          ///< any finite number
  Positive,     ///< > 0
  NonNegative,  ///< ≥ 0
  AngleHalfOpen,  ///< in (−π, π]
  Coordinate,   ///< a position: within the model format's coordinate range (±1e6 m)
};

/// A value read for a key; the member of its KeyKind is set.
struct KeyValue {
  double number = 0;                       ///< Number
  Vec3 vector = Vec3::Zero();              ///< Vector, Axis
  std::array<Vec3, 2> points{Vec3::Zero(), Vec3::Zero()};  ///< PointPair
  Mat3 rotation = Mat3::Identity();        ///< Orientation
  std::array<bool, 6> flags{};             ///< Flags6
  Mat6 matrix6 = Mat6::Zero();             ///< Matrix6
  int choice = 0;                          ///< Choice: index into ElementKey::choices
};

/// A model-file key of element type `Item` (Joint, ForceElement), beyond the keys every element
/// of its section has (name, type, bodies; for joints also point and motion).
template <class Item>
struct ElementKey {
  const char* key;       ///< "axis", "stiffness", ...
  bool required;         ///< must be given
  const char* meaning;   ///< unit and meaning, for messages and the docs ("the hinge axis, world, t0")
  KeyKind kind;          ///< what the value is
  KeyRange range;        ///< admissible numbers (Number, Vector, Matrix6)
  std::vector<std::string> choices;  ///< Choice: the words allowed
  void (*set)(Item& item, const KeyValue& value);  ///< store the value in the item
};

/// A problem of one element found by its type's check, with the key it is about (nullptr: the
/// element as a whole). The message does not name the element; the caller prefixes it.
struct KeyProblem {
  const char* key;        ///< the key the problem is about, or nullptr
  std::string message;    ///< e.g. "axis has zero length"
};

}  // namespace mbdae
