// irregfix runtime: the process-wide state and the statistics kept in it. See state.h.
#include "state.h"

#include "indexed_plan.h"
#include "invalidation_tally.h"
#include "pipeline.h"
#include "timing.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_set>

namespace irregfix {
namespace detail {

State &state() {
  static State *s = new State; // never destroyed: at-exit code may still use it
  return *s;
}

namespace {

void print_stats_at_exit() {
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  const std::string report = stats_text(st);
  std::fputs(report.c_str(), stderr);
}

} // namespace

void ensure_loaded(State &st) {
  if (st.loaded)
    return;
  st.cfg = config_from_env();
  st.loaded = true;
  if (st.cfg.stats && !st.atexit_registered) {
    st.atexit_registered = true;
    std::atexit(print_stats_at_exit);
  }
}

SiteStats &site_stats(State &st, const SiteInfo &site) {
  std::string id = site.id ? site.id : "?";
  SiteStats &s = st.stats[id];
  if (s.id.empty()) {
    s.id = id;
    s.kernel = site.kernel ? site.kernel : "?";
    s.pattern = site.pattern ? site.pattern : "?";
  }
  return s;
}

SiteStats *find_stats(State &st, const char *site_id) {
  auto it = st.stats.find(site_id ? site_id : "");
  return it == st.stats.end() ? nullptr : &it->second;
}

bool record_names(const SiteStats *stats, const SiteInfo &site) {
  return stats && std::strcmp(stats->id.c_str(), site.id ? site.id : "?") == 0;
}

SiteRecord &site_record(State &st, const SiteInfo &site, int device) {
  SiteRecord &r = st.sites[RecordKey(&site, device)];
  if (!record_names(r.stats, site)) // a SiteInfo reused at one address for another site
    r = SiteRecord{};
  if (!r.stats)
    r.stats = &site_stats(st, site);
  return r;
}

std::string stats_text(State &st) {
  resolve_all_timings(st);
  collect_move_times(st.domain);
  InvalidationStats invalidations = st.invalidations;
  add_tallies(invalidations);
  return format_stats(st.stats) + format_domain(st.domain) + format_invalidations(invalidations);
}

void resolve_all_timings(State &st) {
  for (auto &kv : st.stats) {
    resolve_timings(kv.second, true);
    resolve_pipeline_timings(kv.second, true);
  }
  resolve_launch_timings(st, true);
}

void drop_entry(State &st, const CacheKey &key) {
  std::unique_ptr<Entry> e = st.cache.remove(key);
  if (!e)
    return;
  for (auto &kv : st.sites) {
    SiteRecord &r = kv.second;
    if (r.last == e.get())
      r.last = nullptr;
    for (Entry *&recent : r.recent)
      if (recent == e.get())
        recent = nullptr;
    for (Entry *&copy : r.candidate_copy)
      if (copy == e.get())
        copy = nullptr;
  }
  free_entry(*e);
}

void drop_superseded(State &st, SiteStats &ss, const CacheKey &key) {
  // A program that alternates between a few keys (two matrices, ping-pong
  // buffers) refreshes these in place rather than allocating again.
  constexpr std::size_t kStaleKept = 4;
  std::unordered_set<const Entry *> held;
  for (const auto &kv : st.sites) {
    const SiteRecord &r = kv.second;
    held.insert(r.last);
    held.insert(std::begin(r.recent), std::end(r.recent));
    held.insert(std::begin(r.candidate_copy), std::end(r.candidate_copy));
  }
  // An indexed copy that a host thread is building between its steps is its.
  auto claimed = [&](const Entry &e) { return held.count(&e) > 0 || indexed_builder(e) != 0; };
  for (const CacheKey &k : st.cache.superseded(key, kStaleKept, claimed)) {
    drop_entry(st, k);
    ++ss.superseded;
  }
}

} // namespace detail
} // namespace irregfix
