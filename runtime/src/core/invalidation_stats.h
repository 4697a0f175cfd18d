// irregfix runtime: the process-wide count of invalidations, by cause (by
// name, at frees, by __device__ variable, and each irregfix_cause of
// irregfix_invalidate_all), with how many cached copies each turned stale and,
// for the causes that drop everything, where in the program they came from.
// Host-only: test/unit/runtime formats it without a GPU.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace irregfix {
namespace detail {

struct InvalidationCount {
  long long calls = 0;
  long long stale = 0; // cached copies the calls turned stale
};

// One irregfix_cause: its count, and its calls by the program point that made
// them (irregfix_invalidate_all's `where`).
struct CauseStats {
  InvalidationCount count;
  std::map<std::string, long long, std::less<>> where;
};

struct InvalidationStats {
  InvalidationCount by_name;   // irregfix_invalidate
  InvalidationCount released;  // irregfix_release
  InvalidationCount by_symbol; // irregfix_invalidate_symbol
  // Of those, the calls whose variable's address could not be found: each made
  // every copy stale, counted (calls and copies) under IRREGFIX_CAUSE_UNNAMED_COPY.
  long long symbols_not_found = 0;
  std::map<int, CauseStats> all; // irregfix_invalidate_all, by cause

  // One irregfix_invalidate_all(cause, where) call that turned `stale` copies stale.
  // (No allocation when `where` was seen before.)
  void note_all(int cause, const char *where, int stale);
  // `calls` calls of irregfix_invalidate_all(cause, where) (null `where`: "?"),
  // and, apart, copies they turned stale: irregfix_invalidate_all counts its
  // calls per thread without a lock (invalidation_tally.h) and its stale copies
  // under the runtime's lock.
  void note_calls(int cause, const char *where, long long calls);
  void note_stale(int cause, long long stale);
  // `calls` calls of irregfix_invalidate_all(cause, ...) counted by cause alone
  // (the program points are kept only under IRREGFIX_STATS).
  void note_count(int cause, long long calls);
  bool empty() const;
};

// "untraced kernel", "launch API", "unseen call", "entry", "unnamed copy" for
// the irregfix_cause values; "cause <n>" for any other.
std::string cause_name(int cause);

// The `most` program points with the most calls, most first (ties by name).
std::vector<std::pair<std::string, long long>> top_where(const CauseStats &c, int most);

// The report's block: a header line, then one line for each kind of
// invalidation that happened; "" when none did.
std::string format_invalidations(const InvalidationStats &s);

} // namespace detail
} // namespace irregfix
