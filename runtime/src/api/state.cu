// irregfix runtime: the process-wide state and the statistics kept in it. See state.h.
#include "state.h"

#include "invalidation_tally.h"
#include "pipeline.h"
#include "timing.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

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

} // namespace detail
} // namespace irregfix
