#pragma once
/// @file ImportCommon.h
/// Pieces shared by the importers.

#include <cstdio>
#include <string>

namespace mbdae::import {

/// A number as the user wrote it, near enough for a message ("0.5", "1e+05").
inline std::string fmt_num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.10g", v);
  return b;
}

}  // namespace mbdae::import
