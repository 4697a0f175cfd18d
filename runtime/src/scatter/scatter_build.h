// irregfix runtime: the scatter builder. The inspector's segments of a scatter
// site (an irregular reduction, scatter.h) are a cache entry like a copy:
// keyed by (site, f, n, A, element type), built from f (its index arrays) and
// from A's allocation, made stale by the same invalidations, checked by
// IRREGFIX_VERIFY at hits. Only f's bytes decide the segments: A is a source
// by its allocation alone (a write to A leaves the entry valid,
// Cache::invalidate; freeing A makes the inspector run again, as A's extent
// may have changed), and its bytes are never fingerprinted.
#pragma once

#include "build.h"
#include "scatter_payload.h"

#include <irregfix/irregfix.cuh>
#include <irregfix/testing.h>

#include <string>

namespace irregfix {
namespace detail {

// The cache key of a scatter site's segments.
CacheKey scatter_key(const SiteInfo &site, const ScatterIndices &f, long long n, void *A, int kind, bool assign,
                     int dev);

// Runs the inspector into e (a miss, or a refresh after f or A's allocation
// changed); a refresh after a write to A only marks e valid again. *inspected:
// whether it ran (what the selector counts as this launch's remap).
std::string build_scatter(BuildContext &cx, SiteStats &ss, const SiteInfo &site, Entry &e, int dev,
                          const ScatterIndices &f, long long n, void *A, int kind, cudaStream_t stream,
                          bool *inspected);

// The executor's view of entry e's segments (the launch's contributions aside).
void fill_scatter_plan(const Entry &e, int kind, ScatterPlan *plan);
// The bytes of one launch's contributions for entry e's segments, and where
// an assignment's flags start in them (scatter.h).
std::size_t launch_contributions_bytes(const Entry &e, int kind, bool assign);
std::size_t launch_written_offset(const Entry &e, int kind);

// testing::scatter_segments: e's segments read back, when e is a scatter
// entry with its segments (false otherwise; *out empty when they cannot be read).
bool read_segments(const Entry &e, testing::ScatterSegments *out);

} // namespace detail
} // namespace irregfix
