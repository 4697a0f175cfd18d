// irregfix runtime: the padded layouts, ELL (column-major, padded to the
// longest row), SELL-32 (padded per slice of 32 threads) and SELL-32-sigma
// (SELL-32 over threads sorted by row length in windows): the builders of
// range and two-level range sites (range.cu), and of gathers, two-level
// gathers, neighbour lists and their field pieces, whose copies are ELL
// (gather.cu). The layouts that build on them (sharing, locality) use the
// shapes exported here: a range site's rows surveyed, a neighbour list
// validated.
#pragma once

#include "build.h"
#include "field_plan.h"
#include "orders.h"
#include "padded_payload.h"

#include <cstddef>
#include <string>
#include <vector>

namespace irregfix {
namespace detail {

// ---- range sites (range.cu) -------------------------------------------------

// Builds or refreshes a range entry (ELL, SELL-32 or SELL-32-sigma): lengths,
// their min/max and the slice offsets in one round trip (a second one when auto
// sorts the threads); a refresh with B unchanged only copies the arrays again.
// Under auto, a launch being profiled also measures whether the locality order
// is worth timing (orders).
std::string build_range(BuildContext &cx, Orders &orders, SiteStats &ss, const SiteInfo &site, Entry &e, int dev,
                        const LayoutRequest &request, const void *B, int b_kind, long long n, int count,
                        const void *const *arrays, const std::size_t *elem_sizes, cudaStream_t stream,
                        Built *built);

// Two-level range: the first kernel gathers row starts and lengths through C
// (start[t] = B[C[t]], len[t]) and reduces them; with CUB's min/max of C that
// is one round trip. The second kernel copies the data (copy_range2).
std::string build_range2(BuildContext &cx, SiteStats &ss, const SiteInfo &site, Entry &e, int dev,
                         const void *B, int b_kind, const void *C, int c_kind, long long n,
                         int count, const void *const *arrays, const std::size_t *elem_sizes,
                         cudaStream_t stream, Built *built);

// What range_survey read back of a range site's rows: the lengths are in its
// payload's len (and, unless ELL is forced, SELL-32's slice offsets in slices).
struct RangeSurvey {
  int min_len = 0, max_len = 0;
  long long lo = 0, hi = 0; // B[0], B[n]: the elements the rows span
  LayoutCells cells;        // ELL's and (counted) SELL-32's cells
  bool slices = false;      // SELL-32's slices were counted
  std::size_t len_bytes = 0;
  std::size_t temp_bytes = 0;  // the slices' scan temporaries
  std::size_t old_bytes = 0;   // the entry's bytes before the build
  Scratch *scratch = nullptr;
};
// A range build's first step: the lengths, their min/max, B[0], B[n] and the
// SELL-32 slices (CUB scan) in one copy back and one sync; each layout's
// padding reported when the request asks.
std::string range_survey(BuildContext &cx, SiteStats &ss, const SiteInfo &site, Entry &e, RangePayload &p,
                         int dev, const LayoutRequest &request, const void *B, int b_kind, long long n,
                         cudaStream_t stream, RangeSurvey *out);
// Its last steps, once the layout is made: the sources (each array's extent,
// then B) and the bytes of each copy of `cells` cells (range_sources); then the
// byte cap checked, the copies' buffers made and the entry's shape kept
// (keep_range).
struct RangeSources {
  std::vector<SourceRange> sources;
  std::vector<std::size_t> need;
  std::size_t total_need = 0;
};
std::string range_sources(const RangePayload &p, const RangeSurvey &s, const void *B, int b_kind, long long n,
                          int count, const void *const *arrays, const std::size_t *elem_sizes,
                          unsigned long long cells, RangeSources *out);
std::string keep_range(BuildContext &cx, const SiteInfo &site, Entry &e, const RangeSurvey &s, int layout,
                       RangeSources &&sources);
// Array i's copy for the threads `rows` in SELL-32 (p's slices; the threads
// in the order p.perm when it has one).
cudaError_t copy_sell(const RangePayload &p, const void *B, int b_kind, Rows rows, const void *A, std::size_t esz,
                      void *out, cudaStream_t stream);

// ---- gathers and neighbour lists (gather.cu) --------------------------------

// Gather: no reduction and no round trip. B is read only by the copy, and an
// index outside A's allocation is a sentinel the kernel guards: skipped.
std::string build_gather(BuildContext &cx, SiteStats &ss, const SiteInfo &site, Entry &e, const void *B,
                         int b_kind, long long n, const void *A, std::size_t esz, Built *built);

// Two-level gather: D[t] = B[C[t]] is built once (C must index inside B's
// allocation: checked with CUB min/max, one round trip), kept in the entry,
// and a refresh after a write to A is a plain gather through D.
std::string build_gather2(BuildContext &cx, SiteStats &ss, const SiteInfo &site, Entry &e, int dev,
                          const void *B, int b_kind, const void *C, int c_kind, long long n,
                          const void *A, std::size_t esz, cudaStream_t stream, Built *built);

// What every neighbour-list build validates first: the columns (max(count),
// m without counts; with counts one CUB min/max and one round trip), NB's
// extent over (t < n, j < columns), and A's valid indices [lo, hi).
struct NeighborShape {
  std::vector<SourceRange> sources; // A, NB, then counts when given
  long long jmax = 0, lo = 0, hi = 0;
};
std::string neighbor_shape(BuildContext &cx, SiteStats &ss, const SiteInfo &site, int dev,
                           const NeighborArgs &a, long long n, const void *A, std::size_t esz,
                           cudaStream_t stream, NeighborShape *out);
// The entry (its payload p) holds that shape from now on (a refresh keeps it
// until NB or counts are written).
void set_neighbor_shape(Entry &e, NeighborPayload &p, NeighborShape &&shape);

// Neighbour list: the copy has max(count) columns (m without counts). Without
// counts nothing is read back; with them, one CUB min/max and one round trip.
// NB must lie in its allocation for every (t, j < columns); indices outside A's
// allocation are sentinels, skipped.
// Under auto (request.wish), a first build also proposes the candidates
// (neighbor_candidates), measuring the list in its own order (orders).
std::string build_neighbors(BuildContext &cx, Orders &orders, SiteStats &ss, const SiteInfo &site, Entry &e,
                            int dev, const NeighborArgs &a, long long n, const void *A, std::size_t esz,
                            const LayoutRequest &request, cudaStream_t stream, Built *built);

// The same two, their copies split into the plan's pieces (field_plan.h): one
// buffer a piece, the entry's sources as for the whole copy. Always ELL.
std::string build_gather_fields(BuildContext &cx, SiteStats &ss, const SiteInfo &site, Entry &e, const void *B,
                                int b_kind, long long n, const void *A, std::size_t esz, const FieldPlan &plan,
                                Built *built);
std::string build_neighbors_fields(BuildContext &cx, SiteStats &ss, const SiteInfo &site, Entry &e, int dev,
                                   const NeighborArgs &a, long long n, const void *A, std::size_t esz,
                                   const FieldPlan &plan, cudaStream_t stream, Built *built);

} // namespace detail
} // namespace irregfix
