// irregfix runtime: the hooks of irregfix/testing.h (tests and benchmarks).
#include <irregfix/testing.h>

#include "invalidation_tally.h"
#include "launch.h"
#include "state.h"

#include <mutex>

namespace irregfix {
namespace testing {

// Every setter changes the configuration through change_config (state.h),
// which bumps the generation a launcher's fast path checks; every reader
// reads under the lock (locked).
using detail::change_config;
using detail::Config;
using detail::locked;
using detail::SiteStats;
using detail::State;

SiteCounters site_counters(const char *site_id) {
  return locked([&](State &st) {
    SiteCounters c;
    const SiteStats *found = detail::find_stats(st, site_id);
    if (!found)
      return c;
    for (auto &kv : st.launches) // launches a settled launcher took without the lock
      if (kv.second.stats == found)
        detail::count_fast_launches(kv.second);
    const SiteStats &s = *found;
    c.launches = s.launches;
    c.hits = s.hits;
    c.misses = s.misses;
    c.refreshes = s.refreshes;
    c.remaps = s.remaps;
    c.fallbacks = s.fallback_count();
    c.bytes_remapped = s.bytes_remapped;
    c.pipelined = s.pipelined;
    c.last_chunks = s.last_chunks;
    c.last_fallback = s.last_fallback;
    c.chosen_original = s.chosen_original;
    c.layout = s.layout;
    c.candidates = s.selector_candidates;
    c.chosen_layout = s.selector_layout;
    c.host_writable_builds = s.host_writable_builds;
    c.verified = s.verified;
    c.lanes = s.lanes;
    c.lanes_compared = s.lanes_compared;
    c.lanes_max_relative = s.lanes_max_relative;
    c.lanes_differing = s.lanes_differing;
    return c;
  });
}

void reset() {
  locked([](State &st) {
    detail::forget_device_state(st);
    st.stats.clear();
    st.invalidations = detail::InvalidationStats{};
    st.domain.stats = detail::DomainStats{};
    st.domain.why.clear();
    detail::clear_tallies();
    st.loaded = false;
    detail::ensure_loaded(st);
  });
}

void set_disabled(bool disabled) {
  change_config([&](Config &c) { c.disabled = disabled; });
}

void set_max_bytes(unsigned long long max_bytes) {
  change_config([&](Config &c) { c.max_bytes = max_bytes; });
}

void set_layout(int layout) {
  change_config([&](Config &c) {
    c.layout = detail::layout_row(layout) || layout == detail::kLayoutChoiceNone ? layout : 0;
  });
}

void set_auto_sharing(bool on) {
  change_config([&](Config &c) { c.auto_sharing = on; });
}

void set_sharing_order(bool on) {
  change_config([&](Config &c) { c.sharing_order = on; });
}

void set_verify(bool on) {
  change_config([&](Config &c) { c.verify = on; });
}

void set_renumber(int choice) {
  change_config([&](Config &c) { c.renumber = choice == 1 || choice == -1 ? choice : 0; });
}

void set_deterministic(bool on) {
  change_config([&](Config &c) { c.deterministic = on; });
}

void set_nvtx(bool on) {
  change_config([&](Config &c) { c.nvtx = on; });
}

void set_original_time_scale(double scale) {
  change_config([&](Config &c) { c.original_time_scale = scale > 0 ? scale : 1.0; });
}

void set_sigma(int sigma) {
  change_config([&](Config &c) { c.sigma = detail::round_sigma(sigma); });
}

void set_chunks(int chunks) {
  change_config(
      [&](Config &c) { c.chunks = chunks < 0 ? 0 : chunks > detail::kMaxChunks ? detail::kMaxChunks : chunks; });
}

void set_domain(int choice) {
  change_config([&](Config &c) { c.domain = choice == 1 || choice == -1 ? choice : 0; });
}

DomainCounters domain_counters() {
  return locked([](State &st) {
    DomainCounters c;
    c.formed = st.domain.status == detail::Domain::kFormed;
    c.launches = st.domain.stats.launches;
    c.renumbered_launches = st.domain.stats.renumbered_launches;
    c.renumbers = st.domain.stats.renumbers;
    c.restores = st.domain.stats.restores;
    c.row_passes = st.domain.stats.row_passes;
    c.orders = st.domain.stats.orders;
    c.graph_changes = st.domain.checks.changes;
    c.graph_checks = st.domain.checks.checks;
    c.sectors_as_numbered = st.domain.identity;
    c.sectors_in_order = st.domain.fresh;
    return c;
  });
}

void set_lanes(int lanes) {
  change_config([&](Config &c) { c.lanes = lanes == 2 || lanes == 4 || lanes == 8 || lanes == 16 || lanes == 32 ? lanes : 0; });
}

void set_fail_alloc(bool fail) {
  change_config([&](Config &c) { c.fail_alloc = fail; });
}

std::size_t cached_bytes() {
  return locked([](State &st) { return st.cache.total_bytes(); });
}

std::size_t cached_entries() {
  return locked([](State &st) { return st.cache.size(); });
}

std::size_t known_allocations() {
  return locked([](State &st) { return st.allocations.size(); });
}

std::size_t known_symbols() {
  return locked([](State &st) { return st.symbols.size(); });
}

void set_invalidation_points(bool on) { detail::set_tally_by_point(on); }

InvalidationCounters invalidation_counters() {
  detail::InvalidationStats s = locked([](State &st) { return st.invalidations; });
  detail::add_tallies(s);
  InvalidationCounters c;
  c.by_name = s.by_name.calls;
  c.by_name_stale = s.by_name.stale;
  c.released = s.released.calls;
  c.released_stale = s.released.stale;
  c.by_symbol = s.by_symbol.calls;
  c.by_symbol_stale = s.by_symbol.stale;
  c.symbols_not_found = s.symbols_not_found;
  for (const auto &kv : s.all) {
    c.all += kv.second.count.calls;
    c.all_stale += kv.second.count.stale;
  }
  return c;
}

void settle_on_original(const SiteInfo &site) {
  detail::State &st = detail::state();
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) {
    cudaGetLastError();
    return;
  }
  std::lock_guard<std::mutex> lock(st.mu);
  detail::ensure_loaded(st);
  detail::settle_on_original(st, site, dev);
}

void set_order_region(int region) {
  change_config([&](Config &c) {
    const bool valid = detail::valid_order_region(region);
    c.order_region = valid ? region : detail::kOrderRegionDefault;
    c.domain_region = valid ? region : detail::kDomainRegionDefault;
  });
}

std::string stats_report() {
  return locked([](State &st) { return detail::stats_text(st); });
}

} // namespace testing
} // namespace irregfix
