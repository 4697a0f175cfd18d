// irregfix runtime: what building a cache entry takes (checked CUDA calls,
// device buffers sized and reused, extents validated, copies enqueued and
// timed; build_support.cu) and each pattern's builder (build_range.cu: range
// and range2; build_gather.cu: gather, gather2, neighbours; build_sharing.cu).
// A builder takes the layout request of the prepare (layout_policy.h), makes
// the entry's shape (lengths, slices, sets; buffers sized) and returns what it
// built: its copy, not yet enqueued, and the candidate layouts it counted.
// The prepare then enqueues the copy or hands it to the launch (start_copy).
// On failure it returns why, and the launch runs the original kernel.
#pragma once

#include "field_plan.h"
#include "launch.h"
#include "layout_policy.h"
#include "pipeline.h"
#include "state.h"

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <vector>

// Returns the fallback reason for a failed CUDA call, from a function with `site` in scope.
#define IRREGFIX_TRY(call)                                                                         \
  do {                                                                                             \
    cudaError_t irregfix_e_ = (call);                                                              \
    if (irregfix_e_ != cudaSuccess)                                                                \
      return cuda_failure(#call, site, irregfix_e_);                                               \
  } while (0)

namespace irregfix {
namespace detail {

// Device allocation of the runtime; IRREGFIX_FAIL_ALLOC makes it fail.
cudaError_t dev_alloc(const State &st, void **p, std::size_t bytes);

// The device allocation holding p, if p is device (or managed) memory; and in
// *memory (when given) the kind of memory p is (a cudaMemoryType).
bool allocation_of(const void *p, Range *r, int *memory = nullptr);

// Frees an entry's device buffers and event.
void free_entry_buffers(Entry &e);
// Removes an entry from the cache (and from the sites that used it last) and frees it.
void drop_entry(State &st, const CacheKey &key);
// Bytes of one element of an index array of this IndexKind.
std::size_t index_size(int kind);

// Makes sure the entry's buffer i holds at least `bytes`, reusing it when it is big enough.
std::string ensure_buffer(State &st, const SiteInfo &site, void **buf, std::size_t *have,
                          std::size_t bytes);

// Bytes of a copy of `cells` elements of `esz` bytes; "" or why it cannot be.
std::string copy_bytes(unsigned long long cells, std::size_t esz, std::size_t *bytes);

// One device buffer per remapped array, at least need[i] bytes each (reused
// when big enough). The caller has checked the byte cap.
std::string ensure_copies(State &st, const SiteInfo &site, Entry &e, const std::vector<std::size_t> &need);

// The device's scratch (CUB temporaries, the read-back summary), at least temp_bytes.
std::string ensure_scratch(State &st, const SiteInfo &site, int dev, std::size_t temp_bytes,
                           Scratch **out);

// Enqueues CUB's min and max of the index array p[0..n) (of kind `kind`) into
// the first 16 bytes of the device scratch's summary (see minmax_indices);
// *out is that scratch.
std::string minmax_to_summary(State &st, const SiteInfo &site, int dev, const void *p, int kind,
                              long long n, cudaStream_t stream, Scratch **out);
// The same, read back (one round trip, the stream synchronised): *fits is false
// when the min or the max does not fit a long long.
std::string read_index_minmax(State &st, SiteStats &ss, const SiteInfo &site, int dev, const void *p,
                              int kind, long long n, cudaStream_t stream, long long *min,
                              long long *max, bool *fits);

// Extent [p + lo*esz, p + hi*esz) must lie in p's device allocation.
std::string check_extent(const void *p, std::size_t esz, long long lo, long long hi,
                         SourceRange *src);

// Events around a remap on the stream, read later by resolve_timings (no
// events, and no timing, when they cannot be created).
void start_timing(SiteStats &ss, cudaStream_t stream, cudaEvent_t *start, cudaEvent_t *stop);
void stop_timing(SiteStats &ss, cudaStream_t stream, cudaEvent_t start, cudaEvent_t stop);

// A data array read by a gather: its allocation (the extent, for invalidation)
// and the element indices that lie inside it. Indices outside are sentinels.
std::string gather_source(const void *A, std::size_t esz, SourceRange *src, long long *lo,
                          long long *hi);

// An index array read by the remap itself: device memory, and the valid element
// indices of its allocation.
std::string index_source(const void *p, int kind, long long lo, long long hi, SourceRange *src,
                         long long *alo, long long *ahi);

// An index array read whole, p[0..n): as index_source, and all of it inside
// its allocation ("bad index data: <name>[0..n) ..." otherwise).
std::string whole_index_source(const void *p, int kind, long long n, const char *name,
                               SourceRange *src);

// The copies of an entry were enqueued on `stream`: the entry is valid from
// there on (e.ready marks the point for launches on other streams).
std::string copies_enqueued(SiteStats &ss, const SiteInfo &site, Entry &e,
                            unsigned long long bytes, cudaStream_t stream);

// Enqueues copy_one(i, [0, n), stream) for each of count arrays between
// timing events; "" or the failure (reported, the events dropped).
template <class CopyOne>
std::string enqueue_timed(SiteStats &ss, const SiteInfo &site, int count, long long n,
                          const char *what, cudaStream_t stream, CopyOne copy_one) {
  cudaEvent_t t0, t1;
  start_timing(ss, stream, &t0, &t1);
  for (int i = 0; i < count; ++i) {
    cudaError_t r = copy_one(i, Rows{0, n}, stream);
    if (r != cudaSuccess) {
      if (t0) {
        cudaEventDestroy(t0);
        cudaEventDestroy(t1);
      }
      return cuda_failure(what, site, r);
    }
  }
  stop_timing(ss, stream, t0, t1);
  return "";
}

// What a builder made: the entry's copy (copy.entry), to be enqueued, and, for
// a range build under auto's key, the candidate layouts it counted (favourite first).
struct Built {
  DeferredCopy copy;
  int proposed[kMaxLayoutCandidates] = {};
  int proposals = 0;
};

// The copy of an entry as a builder returns it: copy_one(i, rows, stream)
// enqueues array i's copy for the threads `rows` and returns the launch error;
// it runs after the builder returns, so it captures by value (the entry by
// reference). bytes(i) is what array i's copy moves.
template <class CopyOne, class Bytes>
std::string plan_copy(SiteStats &ss, const SiteInfo &site, Entry &e, int count, long long n,
                      const char *what, CopyOne copy_one, Bytes bytes, Built *built) {
  unsigned long long total = 0;
  for (int i = 0; i < count; ++i)
    total += bytes(i);
  built->copy = DeferredCopy{&e, &ss, &site, count, n, what, total, CopyFn(copy_one)};
  return "";
}

// Starts a built copy: hands it to launch l when l takes its copies (chunks,
// slices; the entry becomes valid when they are enqueued), else enqueues it,
// all threads [0, n), on `stream` between timing events and marks the entry
// valid. "" or the failure (reported).
std::string start_copy(Launch *l, DeferredCopy copy, cudaStream_t stream);

// The scalars of a neighbour-list site: thread t reads A[NB[j*sj + t*st]] for
// j < (counts ? counts[t] : m).
struct NeighborArgs {
  const void *NB;
  int nb_kind;
  long long sj, st, m;
  const void *counts;
  int counts_kind;
};

// Builds or refreshes a range entry (ELL, SELL-32 or SELL-32-sigma): lengths,
// their min/max and the slice offsets in one round trip (a second one when auto
// sorts the threads); a refresh with B unchanged only copies the arrays again.
std::string build_range(State &st, SiteStats &ss, const SiteInfo &site, Entry &e, int dev,
                        const LayoutRequest &request, const void *B, int b_kind, long long n,
                        int count, const void *const *arrays, const std::size_t *elem_sizes,
                        cudaStream_t stream, Built *built);

// Two-level range: the first kernel gathers row starts and lengths through C
// (start[t] = B[C[t]], len[t]) and reduces them; with CUB's min/max of C that
// is one round trip. The second kernel copies the data (copy_range2).
std::string build_range2(State &st, SiteStats &ss, const SiteInfo &site, Entry &e, int dev,
                         const void *B, int b_kind, const void *C, int c_kind, long long n,
                         int count, const void *const *arrays, const std::size_t *elem_sizes,
                         cudaStream_t stream, Built *built);

// Gather: no reduction and no round trip. B is read only by the copy, and an
// index outside A's allocation is a sentinel the kernel guards: skipped.
std::string build_gather(State &st, SiteStats &ss, const SiteInfo &site, Entry &e, const void *B,
                         int b_kind, long long n, const void *A, std::size_t esz, Built *built);

// Two-level gather: D[t] = B[C[t]] is built once (C must index inside B's
// allocation: checked with CUB min/max, one round trip), kept in the entry,
// and a refresh after a write to A is a plain gather through D.
std::string build_gather2(State &st, SiteStats &ss, const SiteInfo &site, Entry &e, int dev,
                          const void *B, int b_kind, const void *C, int c_kind, long long n,
                          const void *A, std::size_t esz, cudaStream_t stream, Built *built);

// What every neighbour-list build validates first: the columns (max(count),
// m without counts; with counts one CUB min/max and one round trip), NB's
// extent over (t < n, j < columns), and A's valid indices [lo, hi).
struct NeighborShape {
  std::vector<SourceRange> sources; // A, NB, then counts when given
  long long jmax = 0, lo = 0, hi = 0;
};
std::string neighbor_shape(State &st, SiteStats &ss, const SiteInfo &site, int dev,
                           const NeighborArgs &a, long long n, const void *A, std::size_t esz,
                           cudaStream_t stream, NeighborShape *out);
// The entry holds that shape from now on (a refresh keeps it until NB or counts are written).
void set_neighbor_shape(Entry &e, NeighborShape &&shape);

// Neighbour list: the copy has max(count) columns (m without counts). Without
// counts nothing is read back; with them, one CUB min/max and one round trip.
// NB must lie in its allocation for every (t, j < columns); indices outside A's
// allocation are sentinels, skipped.
// Under auto (request.wish), a first build also proposes the candidates
// (neighbor_candidates).
std::string build_neighbors(State &st, SiteStats &ss, const SiteInfo &site, Entry &e, int dev,
                            const NeighborArgs &a, long long n, const void *A, std::size_t esz,
                            const LayoutRequest &request, cudaStream_t stream, Built *built);

// The same two, their copies split into the plan's pieces (field_plan.h): one
// buffer a piece, the entry's sources as for the whole copy. Always ELL.
std::string build_gather_fields(State &st, SiteStats &ss, const SiteInfo &site, Entry &e, const void *B,
                                int b_kind, long long n, const void *A, std::size_t esz, const FieldPlan &plan,
                                Built *built);
std::string build_neighbors_fields(State &st, SiteStats &ss, const SiteInfo &site, Entry &e, int dev,
                                   const NeighborArgs &a, long long n, const void *A, std::size_t esz,
                                   const FieldPlan &plan, cudaStream_t stream, Built *built);

// Sharing (kLayoutSharing) of a neighbour list, for launches of e.key.params[3]
// threads a block: per block, its threads' distinct valid indices (a CUB
// segmented sort, one round trip for their total and largest count), each
// (t, j)'s position among them, and the copy of those elements. Refused when
// the largest set does not fit the shared memory the kernel (site.transformed)
// may have, whose limit is raised when it must. A refresh after a write to A
// gathers the copy again from the kept sets.
std::string build_sharing(State &st, SiteStats &ss, const SiteInfo &site, Entry &e, int dev,
                          const NeighborArgs &a, long long n, const void *A, std::size_t esz,
                          cudaStream_t stream, Built *built);

// ---- the locality layout (build_locality.cu) --------------------------------

// The order a launch without a site (pattern "order", prepare_order) runs in:
// one that a site computed over as many threads as `shape` runs (its n needs
// grid.x blocks of block.x), on device dev; its perm buffer, n and how many
// times it was computed (a recomputed order is another copy). "" or why none.
std::string pick_order(const State &st, int dev, const LaunchShape &shape, const void **perm, long long *n,
                       long long *computed);
// The entry of such a launch: its own copy of that order (e.perm), in the
// locality layout. Fails when the order is gone.
std::string build_order(State &st, SiteStats &ss, const SiteInfo &site, Entry &e, const void *order_perm,
                        long long n, Built *built);

// The locality order of a neighbour list's threads (State::orders: computed,
// or kept while it has not decayed), copied into e.perm: for a sharing entry
// whose blocks group the threads in that order. The list's shape as
// neighbor_shape found it.
std::string neighbor_order_into(State &st, SiteStats &ss, const SiteInfo &site, Entry &e, int dev,
                                const NeighborArgs &a, long long n, long long jmax, long long lo, long long hi,
                                std::size_t esz, cudaStream_t stream);

// A neighbour list in the locality order: the order (State::orders: computed,
// or kept while it has not decayed), the list copied in it (the entry's copy,
// int[jmax * n], order_index), and the data array read in place, so a write to
// it leaves the entry valid. Element indices must fit an int.
std::string build_locality_neighbors(State &st, SiteStats &ss, const SiteInfo &site, Entry &e, int dev,
                                     const NeighborArgs &a, long long n, const void *A, std::size_t esz,
                                     cudaStream_t stream, Built *built);

// A range entry in the locality order (build_range, once its lengths are in
// e.len and the arrays' extents [lo, hi) checked): the order of the graph of
// the array that holds thread indices (range_graph_array), the entry's own
// copy of it, the lengths in physical order and SELL-32's slices over them.
// *cells: the cells of the copy.
std::string locality_range_shape(State &st, SiteStats &ss, const SiteInfo &site, Entry &e, int dev,
                                 const void *B, int b_kind, long long n, int count, const void *const *arrays,
                                 const std::size_t *elem_sizes, long long lo, long long hi, cudaStream_t stream,
                                 unsigned long long *cells);

// After a range entry's build or refresh in the locality order, for a site
// that renumbers (SiteInfo::renumbered = r): when every value of arrays[r]
// over [first, last) is a thread index (4-byte elements), the entry's
// renumber table (each thread's position in the order) and the values' extent
// are set and e.renumbered is true; otherwise false, and the site's
// statistics say why. One round trip.
std::string renumber_range(State &st, SiteStats &ss, const SiteInfo &site, Entry &e, int dev, long long n,
                           int count, const void *const *arrays, const std::size_t *elem_sizes, long long first,
                           long long last, cudaStream_t stream);

// Which of a range site's arrays (4- or 8-byte elements, the first 8) holds
// thread indices: most of its values over [lo, hi) in [0, n) (a square
// matrix's columns); *chosen -1 when none does. One round trip.
std::string range_graph_array(State &st, const SiteInfo &site, int dev, long long n, int count,
                              const void *const *arrays, const std::size_t *elem_sizes, long long lo,
                              long long hi, cudaStream_t stream, int *chosen);

// For auto's proposals: whether n elements of esz bytes fit the share of the
// device's L2 an order needs (order_fits_cache); when not, the reason goes to
// the site's statistics (an unknown L2 size does not bound).
bool order_in_cache(State &st, SiteStats &ss, int dev, long long n, std::size_t esz);

// For auto's proposals: the sampled measure of the threads in their own order
// (order.h; whether a locality order is worth timing is locality_pays'). One
// round trip, remembered with the order's record.
std::string range_order_sectors(State &st, const SiteInfo &site, int dev, const void *B, int b_kind, long long n,
                                const void *arr, std::size_t esz, cudaStream_t stream, double *sectors);
std::string neighbor_order_sectors(State &st, const SiteInfo &site, int dev, const NeighborArgs &args,
                                   long long n, long long jmax, long long lo, long long hi, std::size_t esz,
                                   cudaStream_t stream, double *sectors);

// Frees the orders computed from memory at p (every order when p is null).
void forget_orders(State &st, const void *p);
// Frees the buffers of hoisted loops' live variables (hoist.cu).
void free_hoist_buffers();
// Frees or forgets everything the runtime holds on every device, statistics
// aside (device_reset.cu: before a device reset, and testing::reset). Returns
// how many cached copies went.
int forget_device_state(State &st);

} // namespace detail
} // namespace irregfix
