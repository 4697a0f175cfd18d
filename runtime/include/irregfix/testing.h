// irregfix runtime: hooks for tests and benchmarks. Not called by generated code.
//
// Environment knobs the runtime reads (once, at first use, and again at reset()):
//   IRREGFIX_DISABLE=1      prepare_* always decline: the original kernels run.
//   IRREGFIX_MAX_BYTES=N    cap on the bytes of all cached remapped copies (N, NK, NM, NG);
//                           a remap that would exceed it declines ("over IRREGFIX_MAX_BYTES").
//   IRREGFIX_STATS=1        per-site statistics on stderr at exit.
//   IRREGFIX_LAYOUT=L       ell, sell32, sell32s, locality or lanes: every launch runs the transformed kernel with
//                           range sites in that layout (sell32s: SELL-32-sigma, for kernels whose
//                           SiteInfo is kSitePermutable; SELL-32 for the others); none: every
//                           launch runs the original kernel; sharing: neighbour sites of
//                           kSiteShareable kernels stage each block's distinct elements in
//                           shared memory (ELL on launches that may not; range sites auto);
//                           locality: the threads of kSitePermutable launches run in a
//                           locality order computed from the index arrays (range sites:
//                           SELL-32 in that order; neighbour sites: the data read in place
//                           through the neighbour list copied in that order); lanes: the range
//                           sites of kSiteLanes kernels run each row with several lanes (other
//                           sites: auto);
//                           auto (the default): per launcher, the selector times the original
//                           and each candidate layout of its range sites (proposed from their
//                           padding: SELL-32-sigma, SELL-32, ELL; for the neighbour sites of a
//                           launch that may share, ELL and sharing; the locality order for
//                           kSitePermutable launches whose threads read far-apart elements; the
//                           lanes layout for kSiteLanes launches of rows of 8 or more on average;
//                           none that the range model expects to lose by 1.5x)
//                           on the first launches, then runs
//                           the fastest, its remap amortised over the launches a copy serves, or
//                           the original when none pays; without a launcher, SELL-32 when ELL pads
//                           more than 15% over the non-zeros and SELL-32 pads less (SELL-32-sigma
//                           for a permutable kernel when SELL-32 still does).
//   IRREGFIX_LANES=L        the lanes layout runs each row with L lanes (2, 4, 8, 16 or 32); default:
//                           the power of two at or below the rows' mean length, 2 to 32.
//   IRREGFIX_AUTO_SHARING=1 auto also times the sharing layout of shareable neighbour-list launches.
//   IRREGFIX_ORDER_REGION=R the locality order (IRREGFIX_LAYOUT=locality, and a program-wide
//                           domain's) grows regions of about R threads around seeds (a power of
//                           two, 32 to 4096; default 128, a domain's 1024).
//   IRREGFIX_SIGMA=N        SELL-32-sigma's window: threads are sorted by row length inside
//                           windows of N (default 256; a power of two from 32 to 4096).
//   IRREGFIX_CHUNKS=K       a launch that remaps runs in K chunks (1 to 64; at most one per
//                           thread block), its copies overlapping its kernel; default: a model
//                           of remap vs kernel time (one chunk when nothing is remapped).
//   IRREGFIX_HOIST_GROUP=G  hoisted loops (--hoist): G iterations a launch (1: the paper's one
//                           launch per iteration); default: the loop's width in four steps.
//   IRREGFIX_VERIFY=1       checking mode: every build fingerprints the bytes its copy was built
//                           from (data and index arrays) and every cache hit checks them again
//                           (synchronously); a copy that would be served stale prints
//                           "irregfix: IRREGFIX_VERIFY: stale copy at <site> ..." and aborts.
//   IRREGFIX_NVTX=1         NVTX ranges (domain "irregfix") around remaps, refreshes, the
//                           selector's timed launches and its decision, chunks, hoisted steps.
//   IRREGFIX_DETERMINISTIC=1 scatter sites (irregular reductions) always run the inspector-executor:
//                           the same bits at every run (IRREGFIX_DISABLE still wins).
//   IRREGFIX_FAIL_ALLOC=1   testing knob: every runtime device allocation fails, so the
//                           out-of-memory fallback can be exercised.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace irregfix {
struct SiteInfo;
namespace testing {

struct SiteCounters {
  long long launches = 0;   // end_transformed_launch calls
  long long chosen_original = 0; // launches the selector sent to the original kernel
  long long hits = 0;       // prepares answered from a valid cache entry
  long long misses = 0;     // prepares that built a new entry (or tried to)
  long long refreshes = 0;  // prepares that rebuilt a stale entry (or tried to)
  long long remaps = 0;     // remaps actually run (misses + refreshes that got that far)
  long long fallbacks = 0;  // declines, all reasons
  unsigned long long bytes_remapped = 0;
  long long pipelined = 0;  // launches whose remap ran in chunks beside the kernel
  int last_chunks = 0;      // chunks of the latest of them
  std::string last_fallback; // reason of the latest decline, "" if none
  int layout = 0;           // the Layout of the copy its latest prepare read
  // Auto: the layouts the site's launcher times (1: no choice of layout; 0: no
  // selector) and the one it settled on (0: still profiling, or none to name).
  int candidates = 0;
  int chosen_layout = 0;
  // Launches that rebuilt their copy because a source is in managed or host
  // memory (never served from the cache), and hits IRREGFIX_VERIFY checked.
  long long host_writable_builds = 0;
  long long verified = 0;
  // The lanes layout: the lanes a row at the latest build (0: none built).
  // IRREGFIX_VERIFY: launches of the lanes variant compared with the original,
  // the largest relative difference, and the elements whose bits differed.
  int lanes = 0;
  long long lanes_compared = 0;
  double lanes_max_relative = 0;
  unsigned long long lanes_differing = 0;
};

// Counters of one site (by SiteInfo::id); all zero for an unknown site.
SiteCounters site_counters(const char *site_id);

// Frees every cached copy, forgets all statistics and re-reads the environment.
void reset();

// Overrides the environment's settings until the next reset().
void set_disabled(bool disabled);
void set_max_bytes(unsigned long long max_bytes); // 0 = unlimited
void set_fail_alloc(bool fail);
// As IRREGFIX_LAYOUT: kLayoutEllColMajor, kLayoutSell32, kLayoutSell32Sigma,
// kLayoutSharing, kLayoutLocality, kLayoutLanes, -1 for none, or 0 for auto.
void set_layout(int layout);
// As IRREGFIX_SIGMA: SELL-32-sigma's sort window (rounded up to a power of two, 32..4096).
void set_sigma(int sigma);
// As IRREGFIX_CHUNKS: the chunk count of launches that remap (0: the model).
void set_chunks(int chunks);
// As IRREGFIX_AUTO_SHARING=1: auto times the sharing layout of shareable launches.
void set_auto_sharing(bool on);
// As IRREGFIX_SHARING_ORDER: sharing over the threads in the locality order (true) or as numbered.
void set_sharing_order(bool on);
// As IRREGFIX_VERIFY=1: fingerprint sources at builds, check them at every hit.
void set_verify(bool on);
// As IRREGFIX_RENUMBER: 1 always, -1 never, 0 where the copies overflow the L2.
void set_renumber(int choice);
// As IRREGFIX_DETERMINISTIC=1: scatter sites always run the inspector-executor.
void set_deterministic(bool on);
// As IRREGFIX_NVTX=1: NVTX ranges around the runtime's work.
void set_nvtx(bool on);
// As IRREGFIX_ORDER_REGION: threads a region of the locality order and of a domain's (a power of
// two, 32..4096; anything else: the defaults).
void set_order_region(int region);
// As IRREGFIX_DOMAIN: program-wide renumbering, 1 wherever a domain can form,
// -1 never, 0 where its graph's threads read far apart.
void set_domain(int choice);
// What program-wide renumbering did since the last reset.
struct DomainCounters {
  bool formed = false;
  long long launches = 0, renumbered_launches = 0, renumbers = 0, restores = 0;
  long long row_passes = 0; // passes over a matrix's rows on the device (the check that it is square)
  long long orders = 0;     // orders computed
  long long graph_changes = 0, graph_checks = 0; // writes of the graph seen, and those that measured the order
  double sectors_as_numbered = -1; // the graph's sampled measure as the program numbers it (-1: not measured)
  double sectors_in_order = -1;    // its measure with threads and elements in the order, when computed
};
DomainCounters domain_counters();
// As IRREGFIX_LANES: the lanes a row of the lanes layout (2, 4, 8, 16 or 32; 0: chosen from the rows).
void set_lanes(int lanes);

// The selector reads the original kernel's timed launches as `scale` times
// their time: tests of its decisions (keep a copy, drop a candidate, settle)
// then decide alike on every GPU, whatever the kernels' real margins.
void set_original_time_scale(double scale);

// Settles the selector of `site`'s launcher (on the current device) on the
// original kernel, as profiling does when the transformed kernel loses by
// far: its launches then run the original on the settled launcher's path
// (a watched launch every Selector::kWatchPeriod). Under auto only.
void settle_on_original(const SiteInfo &site);

// Bytes of device memory held by cached copies now, and how many copies.
std::size_t cached_bytes();
std::size_t cached_entries();

// How many pointers' allocation ranges disjoint() remembers (irregfix_release forgets them).
std::size_t known_allocations();
// How many __device__ variables' addresses (per device) the runtime has asked for.
std::size_t known_symbols();

// Invalidations since the last reset(): calls and the copies they turned stale.
struct InvalidationCounters {
  long long by_name = 0, by_name_stale = 0;     // irregfix_invalidate
  long long released = 0, released_stale = 0;   // irregfix_release
  long long by_symbol = 0, by_symbol_stale = 0; // irregfix_invalidate_symbol
  long long symbols_not_found = 0;              // of those, no address found: every copy stale
  long long all = 0, all_stale = 0;             // irregfix_invalidate_all, every cause (and those)
};
InvalidationCounters invalidation_counters();

// Hoisted loops of one site (by SiteInfo::id): begin_hoisted calls that planned
// steps, the steps planned, the latest group, calls that declined, and the bytes
// of live-variable buffers held for the site (all devices and streams).
struct HoistCounters {
  long long launches = 0, steps = 0, declined = 0;
  long long in_kernel = 0; // launches that ran the in-kernel loop: no remap to overlap
  int group = 0;
  std::size_t buffer_bytes = 0;
};
HoistCounters hoist_counters(const char *site_id);
// As IRREGFIX_HOIST_GROUP: iterations a step (0: the default), until the next reset().
void set_hoist_group(int group);
// As IRREGFIX_HOIST_ALWAYS: hoist launches whose copies are cached too, until the next reset().
void set_hoist_always(bool always);

// The inspector's result of a scatter site (by SiteInfo::id) on the current
// device, as its latest prepare_scatter left it: segment s updates
// A[target_first + targets[s]] (targets[s] == extent: indices outside A's
// allocation, skipped) with the contributions threads[first[s]], ...,
// threads[first[s+1] - 1] (items t * updates + k), and each item's slot in
// the contributions buffer. Empty when there is none.
struct ScatterSegments {
  std::vector<unsigned> targets;
  std::vector<int> first; // segments + 1 entries
  std::vector<int> threads;
  std::vector<int> slots;
  long long target_first = 0;
  unsigned long long extent = 0;
};
ScatterSegments scatter_segments(const char *site_id);

// The IRREGFIX_STATS report as it would be printed now (remap times resolved).
std::string stats_report();
// As IRREGFIX_STATS for the calls of irregfix_invalidate_all: counted by
// program point too (the report's "most from"), or by cause alone, until the
// next reset().
void set_invalidation_points(bool on);

} // namespace testing
} // namespace irregfix
