/// @file ElementKeys.cpp
/// Reads the value of an element type's key (ElementKeys.h) by the kind of value it holds: one
/// reader per kind, for every joint and force element type.

#include "Loader.h"

#include <cmath>

namespace mbdae::io::loader {

namespace {
Range range_of(KeyRange r) {
  switch (r) {
    case KeyRange::Any: return any();
    case KeyRange::Positive: return positive();
    case KeyRange::NonNegative: return non_negative();
    case KeyRange::AngleHalfOpen: return {-M_PI, M_PI, true, false, "in (-pi, pi]"};
    case KeyRange::Coordinate: return coordinate();
  }
  return any();
}
}  // namespace

std::optional<KeyValue> Reader::key_value(const YAML::Node& n, const std::string& path, KeyKind kind,
                                          KeyRange range, const std::vector<std::string>& choices) {
  KeyValue v;
  const Range r = range_of(range);
  switch (kind) {
    case KeyKind::Number: {
      auto x = number(n, path, r);
      if (!x) return std::nullopt;
      v.number = *x;
      return v;
    }
    case KeyKind::Vector: {
      auto x = vec3(n, path, r);
      if (!x) return std::nullopt;
      v.vector = *x;
      return v;
    }
    case KeyKind::Axis: {
      auto x = nonzero_vec3(n, path);
      if (!x) return std::nullopt;
      v.vector = *x;
      return v;
    }
    case KeyKind::PointPair: {
      if (!list(n, path, 2, "2 points [[x, y, z], [x, y, z]]")) return std::nullopt;
      auto a = vec3(n[0], index(path, 0), r), b = vec3(n[1], index(path, 1), r);
      if (!a || !b) return std::nullopt;
      v.points = {*a, *b};
      return v;
    }
    case KeyKind::Orientation: {
      auto x = orientation(n, path);
      if (!x) return std::nullopt;
      v.rotation = *x;
      return v;
    }
    case KeyKind::Flags6: {
      if (!list(n, path, 6, "6 flags [x, y, z, rx, ry, rz]")) return std::nullopt;
      bool ok = true;
      for (size_t k = 0; k < 6; ++k) {
        if (auto f = flag(n[k], index(path, k))) v.flags[k] = *f;
        else ok = false;
      }
      if (!ok) return std::nullopt;
      return v;
    }
    case KeyKind::Matrix6: {
      if (!n.IsSequence() || n.size() != 6) {
        error(n, path, std::string("expected 6 numbers (the diagonal) or 6 rows of 6 numbers, got ") +
                           (n.IsSequence() ? std::to_string(n.size()) + " items" : kind_of(n)));
        return std::nullopt;
      }
      bool ok = true;
      const bool rows = n[0].IsSequence();
      for (size_t i = 0; i < 6; ++i) {
        const int ii = static_cast<int>(i);
        if (!rows) {
          if (auto x = number(n[i], index(path, i), r)) v.matrix6(ii, ii) = *x;
          else ok = false;
          continue;
        }
        if (!list(n[i], index(path, i), 6, "a row of 6 numbers")) {
          ok = false;
          continue;
        }
        for (size_t c = 0; c < 6; ++c) {
          if (auto x = number(n[i][c], index(index(path, i), c))) v.matrix6(ii, static_cast<int>(c)) = *x;
          else ok = false;
        }
      }
      if (!ok) return std::nullopt;
      return v;
    }
    case KeyKind::Choice: {
      auto c = choice(n, path, choices);
      if (!c) return std::nullopt;
      for (size_t i = 0; i < choices.size(); ++i)
        if (choices[i] == *c) v.choice = static_cast<int>(i);
      return v;
    }
  }
  return std::nullopt;
}

void Reader::key_problems(const Map& m, const std::vector<KeyProblem>& problems) {
  for (const KeyProblem& p : problems) {
    const Entry* e = p.key ? m.find(p.key) : nullptr;
    if (e) error(e->value, m.path(p.key), p.message);
    else error(m.node(), m.path(), p.message);
  }
}

}  // namespace mbdae::io::loader
