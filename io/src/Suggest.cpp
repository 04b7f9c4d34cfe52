#include <mbdae/io/Suggest.h>

#include <algorithm>
#include <cctype>

namespace mbdae::io {

size_t edit_distance(const std::string& a, const std::string& b) {
  const auto lower = [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); };
  const size_t n = a.size(), m = b.size();
  // Three rows of the dynamic programme: i-2, i-1, i.
  std::vector<size_t> prev2(m + 1), prev(m + 1), cur(m + 1);
  for (size_t j = 0; j <= m; ++j) prev[j] = j;
  for (size_t i = 1; i <= n; ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= m; ++j) {
      const size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1]))
        cur[j] = std::min(cur[j], prev2[j - 2] + 1);
    }
    std::swap(prev2, prev);
    std::swap(prev, cur);
  }
  return prev[m];
}

std::optional<std::string> closest_name(const std::string& given, const std::vector<std::string>& candidates) {
  if (given.empty() || given.size() > 200) return std::nullopt;
  if (std::find(candidates.begin(), candidates.end(), given) != candidates.end()) return std::nullopt;
  // One or two characters ('w' for an axis): any other short name is one edit away, so only a
  // difference of case counts there.
  const size_t limit = given.size() <= 2 ? 0 : given.size() <= 4 ? 1 : given.size() <= 8 ? 2 : given.size() / 3;
  std::optional<std::string> best;
  size_t best_distance = limit + 1;
  for (const std::string& c : candidates) {
    const size_t d = edit_distance(given, c);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  return best;
}

std::string did_you_mean(const std::string& given, const std::vector<std::string>& candidates) {
  const std::optional<std::string> c = closest_name(given, candidates);
  return c ? "did you mean '" + *c + "'? " : std::string();
}

}  // namespace mbdae::io
