// irregfix runtime: the process-wide state behind one mutex: the configuration,
// the cache, the statistics, the allocations and symbols asked of CUDA so far,
// the records of sites and launchers (records.h), the locality orders
// (orders.h) and each device's streams and scratch (device.h). The launch
// between begin_launch and end_*_launch is launch.h's. The API layer alone
// holds it; it hands a builder what the builder may use (build_context).
#pragma once

#include <irregfix/irregfix.cuh>

#include "address_ranges.h"
#include "build.h"
#include "cache.h"
#include "config.h"
#include "device.h"
#include "domain.h"
#include "invalidation_stats.h"
#include "invalidation_tally.h"
#include "orders.h"
#include "records.h"
#include "stats.h"

#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

namespace irregfix {
namespace detail {

struct State {
  std::mutex mu;
  bool loaded = false;
  bool atexit_registered = false;
  Config cfg;
  Cache cache;
  std::map<std::string, SiteStats> stats;
  Devices devices; // each device's scratch, remap streams and attributes
  // Allocation ranges disjoint() has looked up (empty: not device memory), so
  // that a cached launch asks the driver nothing. Forgotten by irregfix_release().
  std::unordered_map<const void *, Range> allocations;
  // Device ranges of __device__ variables by (host-side address, device), as
  // cudaGetSymbolAddress/cudaGetSymbolSize found them (empty: not found).
  std::map<std::pair<const void *, int>, Range> symbols;
  InvalidationStats invalidations;
  std::map<RecordKey, SiteRecord> sites;
  std::map<RecordKey, LaunchRecord> launches;
  Orders orders;
  Domain domain; // program-wide renumbering (domain.h)
  // Whether domain.status is kFormed, read without the lock by invalidate_all:
  // unseen code must get the domain's arrays back as numbered.
  std::atomic<bool> domain_formed{false};
  unsigned epoch = 1; // bumped by forget_device_state(): records of older epochs are gone
  // Bumped whenever launch records go or the configuration changes (reset,
  // change_config): begin_launch's fast path then takes the lock again.
  std::atomic<unsigned> generation{1};

  // What a builder may use (build.h).
  BuildContext build_context() { return BuildContext{cfg, cache, devices}; }
};

State &state();
// Reads the environment on first use (and registers the stats report).
void ensure_loaded(State &st);
// What f(st) returns, read with the lock held (the testing hooks).
template <class Read> auto locked(Read f) {
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  return f(st);
}
// The one way to change the configuration after it is loaded (the testing
// hooks): change(cfg) under the lock, and the generation bumped, so that every
// launcher's fast path (begin_launch) takes the lock again and sees the change.
template <class Change> void change_config(Change change) {
  locked([&](State &st) {
    ensure_loaded(st);
    st.generation.fetch_add(1);
    change(st.cfg);
  });
}
SiteStats &site_stats(State &st, const SiteInfo &site);
// The statistics of the site whose SiteInfo::id is site_id, or null (the testing hooks).
SiteStats *find_stats(State &st, const char *site_id);
SiteRecord &site_record(State &st, const SiteInfo &site, int device);
// Whether a record's stats belong to `site` (records are keyed by the SiteInfo's
// address, which a caller may reuse for another site).
bool record_names(const SiteStats *stats, const SiteInfo &site);
// Reads the remap timings of every site and every launcher, waiting for them
// (reports, reset).
void resolve_all_timings(State &st);
// The IRREGFIX_STATS report: the sites', then the invalidations' block.
std::string stats_text(State &st);

// With the lock taken here: every cached copy stale, the copies so turned
// counted under `cause`, and the renumbered domain's arrays restored (invalidation.cu).
void invalidate_every_copy(State &st, int cause);
// irregfix_invalidate_all: the call counted on this thread, and, unless the
// cache is empty, every copy made stale. Inline, and without a lock while the
// cache is empty: the generated code calls it around every call of code the
// tool cannot see and at the entry of functions such code may call, which a
// host loop may do millions of times before the program's first launch.
inline void invalidate_all(int cause, const char *where) {
  tally_invalidate_all(cause, where);
  static State &st = state();
  if (!st.cache.empty_unlocked() || st.domain_formed.load(std::memory_order_relaxed))
    invalidate_every_copy(st, cause);
}

// The device allocation holding p as disjoint() knows it (remembered in
// st.allocations; empty: not device memory). False when it is not known.
bool known_allocation(State &st, const void *p, Range *r);
// The device range of a __device__ variable (`symbol`: its host-side address)
// on device dev, asked of the runtime once (remembered in st.symbols); false,
// with the CUDA error cleared, when it cannot be found.
bool symbol_range(State &st, const void *symbol, int dev, Range *r);

// Reads the completed timings of every launcher (waiting for them when wait),
// and writes each selector's state into its site's stats (and the launches
// its fast path took into its counts).
void resolve_launch_timings(State &st, bool wait);
// The launches record r's fast path took since they were last counted: into
// its selector (with the writes its sites' copies saw meanwhile) and its stats.
void count_fast_launches(LaunchRecord &r);
// Forgets every launch record (testing::reset), destroying pending events.
void clear_launch_records(State &st);

// Removes an entry from the cache (and from the sites that used it last) and frees it.
void drop_entry(State &st, const CacheKey &key);
// Before a miss builds key's entry: drops the stale copies of its site that no
// record reads any more, past the few served last (Cache::superseded), and
// counts them in ss.
void drop_superseded(State &st, SiteStats &ss, const CacheKey &key);
// Frees the buffers of hoisted loops' live variables (hoist.cu).
void free_hoist_buffers();
// Program-wide renumbering (numbered_launch.cu). Whether the launch the last
// numbered_launch on this thread announced runs on renumbered arrays (then a
// launcher runs its original kernel: the data is in a good order already);
// reading it clears it.
bool take_renumbered_launch();
// With the lock held: every renumbered array back in the program's numbering,
// `why` counted (unseen code, a reset).
void restore_domain(State &st, const char *why);
// Frees IRREGFIX_VERIFY's references of lanes variants (lanes_verify.cu).
void free_lanes_references();
// Frees or forgets everything the runtime holds on every device, statistics
// aside (device_reset.cu: before a device reset, and testing::reset). Returns
// how many cached copies went.
int forget_device_state(State &st);

} // namespace detail
} // namespace irregfix
