// irregfix: the access patterns the tool finds in kernels and the runtime
// remaps, each with its number and its name, defined once for both. The
// runtime keys its cache and its report by these numbers; SiteInfo::pattern,
// which the tool writes into generated code, is the name.
//
// Plain C++17, no CUDA: the tool includes this header as well as the runtime.
#pragma once

namespace irregfix {

enum Pattern : int {
  kPatternRange = 0,     // for (k = B[t]; k < B[t+1]; ++k) ... A[k]
  kPatternGather = 1,    // A[B[t]]
  kPatternRange2 = 2,    // the range of row r = C[t]: for (k = B[r]; k < B[r+1]; ++k) ... A[k]
  kPatternGather2 = 3,   // A[B[C[t]]]
  kPatternNeighbors = 4, // for (j = 0; j < m or counts[t]; ++j) ... A[NB[j*M + t]]
  kPatternIndexed = 5,   // any other index the tool computes: A[f(t)], or A[f(t, k)] in a loop
  kPatternScatter = 6,   // an irregular reduction: A[f[t]] += e, atomicAdd(&A[f[t]], e)
  kPatternOrder = 7,     // no copy: a permutable kernel's threads in a locality order another site computed
};

struct PatternName {
  Pattern pattern;
  const char *name;
};

// The table: every pattern once, in the order of its number.
inline constexpr PatternName kPatternNames[] = {
    {kPatternRange, "range"},     {kPatternGather, "gather"},       {kPatternRange2, "range2"},
    {kPatternGather2, "gather2"}, {kPatternNeighbors, "neighbors"}, {kPatternIndexed, "indexed"},
    {kPatternScatter, "scatter"}, {kPatternOrder, "order"},
};

// "range", "gather", "range2", "gather2", "neighbors", "indexed", "scatter", "order"; "unknown" for any other number.
constexpr const char *pattern_name(int pattern) {
  for (const PatternName &p : kPatternNames)
    if (p.pattern == pattern)
      return p.name;
  return "unknown";
}

// The pattern named `name` (as pattern_name writes it): true and *out set, or false.
constexpr bool pattern_from_name(const char *name, Pattern *out) {
  if (!name)
    return false;
  for (const PatternName &p : kPatternNames) {
    const char *a = p.name, *b = name;
    while (*a && *a == *b)
      ++a, ++b;
    if (*a == '\0' && *b == '\0') {
      *out = p.pattern;
      return true;
    }
  }
  return false;
}

static_assert(pattern_name(kPatternNeighbors)[0] == 'n', "the table names every pattern");

} // namespace irregfix
