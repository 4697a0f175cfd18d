// irregfix runtime: the per-site statistics (IRREGFIX_STATS, testing.h) and
// their report. Host-only: test/unit/runtime formats them without a GPU. The
// whole-program count of invalidations is in invalidation_stats.h.
#pragma once

#include <cuda_runtime.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace irregfix {
namespace detail {

struct SiteStats {
  std::string kernel, pattern, id;
  long long launches = 0;   // transformed launches
  long long prepares = 0;   // prepare_* calls: the site's launch numbers (IRREGFIX_VERIFY)
  long long hits = 0, misses = 0, refreshes = 0;
  long long superseded = 0; // stale copies dropped at a miss (drop_superseded)
  long long remaps = 0;     // remap kernel runs (misses + refreshes that got that far)
  unsigned long long bytes_remapped = 0;
  double remap_ms = 0;      // resolved so far
  long long remaps_timed = 0; // remaps whose time remap_ms holds
  int layout = 0;
  // Range sites: cells / non-zeros of each layout at the latest build (0: not computed).
  double ell_padding = 0, sell_padding = 0;
  double sigma_padding = 0; // SELL-32-sigma's, when it was built
  int sigma = 0;
  long long chosen_original = 0; // launches the selector (or IRREGFIX_LAYOUT=none) ran the original
  std::string selector;           // the selector's state for the report ("" when it never ran)
  int selector_candidates = 0;    // layouts the selector times (1: no choice of layout)
  int selector_layout = 0;        // the Layout it chose (0: profiling, or not a range launcher)
  // Sharing: distinct elements a block at the latest build (mean and most), the
  // dynamic shared memory a block stages them in, and whether its blocks
  // group the threads in the locality order.
  double shared_mean = 0;
  long long shared_max = 0;
  unsigned shared_bytes = 0;
  bool shared_in_order = false;
  std::map<std::string, long long> fallbacks; // reason -> count
  // Launches that built their copy because a source is in managed or host
  // memory (Entry::host_writable), and cache hits IRREGFIX_VERIFY checked.
  long long host_writable_builds = 0;
  long long verified = 0;
  // The lanes layout: the lanes a row at its latest build, and the rows' mean
  // length it chose them for. IRREGFIX_VERIFY: launches of the lanes variant
  // compared with the original, whether it reassociates floating-point sums,
  // the largest relative difference found, and the elements that differed.
  int lanes = 0;
  double lanes_mean = 0;
  long long lanes_compared = 0;
  bool lanes_reassociates = false;
  double lanes_max_relative = 0;
  unsigned long long lanes_differing = 0;
  std::string last_fallback;
  // The locality order its latest locality build used: what it measured, how
  // it was computed and kept ("" when none).
  std::string order;
  // A site that renumbers (SiteInfo::renumbered): what its latest locality
  // build did, or why not ("" when none).
  std::string renumbered;
  // A scatter site: what its latest inspection found (describe_segments; ""
  // when none).
  std::string inspector;
  // Hoisted loops: launches planned by begin_hoisted, their steps, the latest
  // group (iterations a step), the launches that ran the in-kernel loop because
  // there was no remap to overlap (cached copies, one step), and the calls that
  // declined (no live buffers: the in-kernel loop ran).
  long long hoisted_launches = 0, hoisted_steps = 0, hoist_in_kernel = 0, hoist_declined = 0;
  int hoist_group = 0;
  std::string hoist_last_decline;
  std::vector<std::pair<cudaEvent_t, cudaEvent_t>> pending; // remap timings to read
  // Pipelined launches (their remap split in chunks behind the kernel's chunks):
  // how many, the chunks of the latest, and (as timed) the remap time and the
  // part of it that ran while the kernel computed.
  long long pipelined = 0;
  int last_chunks = 0;
  bool last_sliced = false; // the latest was a hoisted launch: slices of iterations
  long long pipelined_timed = 0;
  double pipelined_remap_ms = 0, hidden_ms = 0;
  std::vector<std::vector<cudaEvent_t>> pipeline_pending; // their events (pipeline.cu)
  long long fallback_count() const;
};

// The IRREGFIX_STATS report, one block per site, sorted by id.
// A scatter inspection's result for the report: the elements updated, how
// many of the updates go to elements of many (summed a warp, or in chunks of
// blocks, each), and the chunks.
std::string describe_segments(long long elements, long long updates, long long region, long long chunks);

std::string format_stats(const std::map<std::string, SiteStats> &stats);

// A launch of the site falls back to the original kernel, for this reason.
void record_fallback(SiteStats &s, const std::string &why);

} // namespace detail
} // namespace irregfix
