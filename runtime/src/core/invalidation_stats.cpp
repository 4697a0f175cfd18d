// irregfix runtime: the count of invalidations. See invalidation_stats.h.
#include "invalidation_stats.h"

#include <irregfix/irregfix.cuh>

#include <algorithm>
#include <string_view>

namespace irregfix {
namespace detail {

void InvalidationStats::note_all(int cause, const char *where, int stale) {
  note_calls(cause, where, 1);
  all[cause].count.stale += stale;
}

void InvalidationStats::note_calls(int cause, const char *where, long long calls) {
  CauseStats &c = all[cause];
  c.count.calls += calls;
  const std::string_view at = where ? where : "?";
  auto it = c.where.find(at);
  if (it == c.where.end())
    it = c.where.emplace(std::string(at), 0).first;
  it->second += calls;
}

void InvalidationStats::note_stale(int cause, long long stale) { all[cause].count.stale += stale; }

void InvalidationStats::note_count(int cause, long long calls) { all[cause].count.calls += calls; }

bool InvalidationStats::empty() const {
  return by_name.calls == 0 && released.calls == 0 && by_symbol.calls == 0 && all.empty();
}

std::string cause_name(int cause) {
  switch (cause) {
  case IRREGFIX_CAUSE_UNTRACED_KERNEL: return "untraced kernel";
  case IRREGFIX_CAUSE_LAUNCH_API: return "launch API";
  case IRREGFIX_CAUSE_UNSEEN_CALL: return "unseen call";
  case IRREGFIX_CAUSE_ENTRY: return "entry";
  case IRREGFIX_CAUSE_UNNAMED_COPY: return "unnamed copy";
  case IRREGFIX_CAUSE_DEVICE_RESET: return "device reset";
  default: return "cause " + std::to_string(cause);
  }
}

std::vector<std::pair<std::string, long long>> top_where(const CauseStats &c, int most) {
  std::vector<std::pair<std::string, long long>> v(c.where.begin(), c.where.end());
  std::stable_sort(v.begin(), v.end(), [](const auto &a, const auto &b) { return a.second > b.second; });
  if (static_cast<int>(v.size()) > most)
    v.resize(static_cast<std::size_t>(std::max(most, 0)));
  return v;
}

namespace {

std::string counts(const InvalidationCount &c) {
  return std::to_string(c.calls) + (c.calls == 1 ? " call, " : " calls, ") + std::to_string(c.stale) +
         (c.stale == 1 ? " copy" : " copies") + " turned stale";
}

} // namespace

std::string format_invalidations(const InvalidationStats &s) {
  if (s.empty())
    return "";
  std::string out = "irregfix: invalidations, whole program (calls, and the cached copies they turned stale)\n";
  if (s.by_name.calls > 0)
    out += "irregfix:   by name (irregfix_invalidate): " + counts(s.by_name) + "\n";
  if (s.released.calls > 0)
    out += "irregfix:   at frees (irregfix_release): " + counts(s.released) + "\n";
  if (s.by_symbol.calls > 0) {
    out += "irregfix:   by __device__ variable (irregfix_invalidate_symbol): " + counts(s.by_symbol);
    if (s.symbols_not_found > 0)
      out += "; " + std::to_string(s.symbols_not_found) +
             " found no address and made every copy stale (counted under unnamed copy)";
    out += "\n";
  }
  for (const auto &kv : s.all) {
    out += "irregfix:   every copy (irregfix_invalidate_all), " + cause_name(kv.first) + ": " +
           counts(kv.second.count);
    const auto top = top_where(kv.second, 3);
    for (std::size_t i = 0; i < top.size(); ++i)
      out += (i == 0 ? "; most from " : ", ") + top[i].first + " (" + std::to_string(top[i].second) + ")";
    out += "\n";
  }
  return out;
}

} // namespace detail
} // namespace irregfix
