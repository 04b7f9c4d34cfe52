#pragma once
/// @file Suggest.h
/// "Did you mean" for a mistyped key, name, enumerated value or command: the closest candidate by
/// edit distance (Damerau–Levenshtein in its optimal-string-alignment form: insertions, deletions,
/// substitutions and swaps of two neighbouring characters each count 1).

#include <optional>
#include <string>
#include <vector>

namespace mbdae::io {

/// The number of single-character edits (insert, delete, substitute, swap neighbours) that turn
/// `a` into `b`; letters compared without case.
size_t edit_distance(const std::string& a, const std::string& b);

/// The candidate closest to `given`, if one is close enough to be a likely typo: only a difference
/// of case for 1 or 2 characters, at most 1 edit up to 4 characters, 2 up to 8, else a third of
/// the length. Ties go to the first
/// candidate of the list. None for an empty `given` or when `given` itself is a candidate.
std::optional<std::string> closest_name(const std::string& given, const std::vector<std::string>& candidates);

/// "did you mean 'x'? " (with its trailing space) for the closest candidate, else "": the start of
/// the parenthesis that lists the candidates, as in "unknown key 'gravityy' (did you mean
/// 'gravity'? expected one of: ...)".
std::string did_you_mean(const std::string& given, const std::vector<std::string>& candidates);

}  // namespace mbdae::io
