// irregfix runtime: the locality order of a permutable launch's threads
// (kLayoutLocality), computed on the GPU from the index arrays the runtime
// holds, and the sampled measure of how far apart a block's reads lie that
// decides when an order is worth computing and when it has decayed.
//
// The order: seeds every `region` threads (t % region == 0); every thread
// joins the seed nearest to it in the access graph (t reads element e, and
// element e is thread e: the neighbour list of MD, a square matrix's columns;
// e joins through t), ties to the lower seed, by breadth-first sweeps from
// every seed at once (each thread offers its key to what it reads once, when
// the search reaches it; the result does not depend on the order threads run
// in); the threads are then sorted by (region,
// hops from its seed, the least element they read), CUB's radix sort. Each
// region is a ball of the access graph: the threads of a block read mostly
// the same elements, whatever their numbering. Any permutation leaves each
// thread's arithmetic as it was, so results do not depend on the order.
#pragma once

#include "layout_policy.h"
#include "remap.cuh"

#include <cuda_runtime.h>

#include <cstddef>
#include <tuple>

namespace irregfix {
namespace detail {

// What thread t reads, as the order sees it: element indices e(t, j) for
// j < count(t).
struct AccessList {
  enum Kind { kNeighbors = 0, kRange = 1 };
  int kind = kNeighbors;
  long long n = 0; // threads
  // kNeighbors: e(t, j) = NB[j*sj + t*st], count(t) = min(counts ? counts[t] : jmax, jmax).
  // kRange: e(t, j) = idx[B[t] + j], count(t) = B[t+1] - B[t].
  const void *idx = nullptr;
  int idx_kind = 0;
  long long sj = 0, st = 0, jmax = 0;
  const void *counts = nullptr;
  int counts_kind = 0;
  const void *B = nullptr;
  int b_kind = 0;
  // Element indices outside [lo, hi) are sentinels: never read, never counted.
  long long lo = 0, hi = 0;
};

// The sampled measure: up to kOrderSampleBlocks blocks of kOrderBlock
// consecutive physical threads, spread evenly over [0, n); physical thread p
// runs logical thread perm[p] (identity when perm is null) and its first
// kOrderSampleReads reads count; sector = element / per_sector. The measure is
// the sampled blocks' distinct sectors over their reads (1: no two reads of a
// block share a sector; a block of MD numbered by cell: 0.05).
constexpr int kOrderBlock = 256;
constexpr int kOrderSampleBlocks = 32;
constexpr int kOrderSampleReads = 128;

// Device scratch sample_sectors needs for a at per_sector (by bitmaps,
// sector_marks.h, where they fit; else a sort of the sample's reads).
cudaError_t sample_scratch_bytes(const AccessList &a, int per_sector, std::size_t *bytes);
// Enqueues the measure into counts[0] (distinct sectors) and counts[1] (reads),
// device memory, which it sets first. `renumber` (null: none) numbers the
// elements read as a domain's order does (element e counts as renumber[e]),
// so that the measure is of threads and elements both in the order; it needs
// every element of [0, n) within [a.lo, a.hi).
cudaError_t sample_sectors(const AccessList &a, const int *perm, const int *renumber, int per_sector, void *scratch,
                           std::size_t scratch_bytes, unsigned long long *counts, cudaStream_t stream);

// Device scratch compute_order needs for n threads.
cudaError_t order_scratch_bytes(long long n, std::size_t *bytes);
// Computes the order into perm[0..n) (n at most INT_MAX; region a power of two
// of at least 32, raised so that the regions number under 2^24): enqueues its
// kernels on `stream` and synchronises it to read the frontiers' sizes. *sweeps: the
// sweeps run; *converged: false when kMaxSweeps stopped them.
cudaError_t compute_order(const AccessList &a, int region, int *perm, void *scratch, std::size_t scratch_bytes,
                          int *sweeps, bool *converged, cudaStream_t stream);

// out[j*n + p] = e(perm[p], j) as an int for j < count(perm[p]) and p in
// rows (the neighbour list in the locality order; elements outside [lo, hi)
// stay unwritten). Element indices must fit an int (the builder checks [lo, hi)).
// One thread a row: each read of the column-major list is a sector of its own.
cudaError_t permute_neighbors(const AccessList &a, const int *perm, Rows rows, int *out, cudaStream_t stream);

// The same for an int list stored column by column (NB[j*sj + t]), in two
// coalesced passes through rows[p * jmax + j] (jmax * n ints): stage_rows
// moves every column j < jmax of thread t into row inv[t] (inv: the inverse
// of the order); rows_to_columns then writes out[j*n + p] for p in `part`, a
// pass that chunks like any copy. Slots past a thread's count hold what the
// list holds there: the kernel never reads them.
bool stageable(const AccessList &a);
cudaError_t stage_rows(const AccessList &a, const int *inv, int *rows, cudaStream_t stream);
cudaError_t rows_to_columns(const int *rows, long long n, long long jmax, Rows part, int *out, cudaStream_t stream);

// inv[perm[p]] = p for p < n.
cudaError_t invert_order(const int *perm, long long n, int *inv, cudaStream_t stream);

// out[p] = in[perm[p]] for p < n (a range site's lengths in the locality order).
cudaError_t permute_ints(const int *in, const int *perm, long long n, int *out, cudaStream_t stream);

// counts[0] += how many of arr[k], k in [first, last), lie in [0, n) (arr of
// index kind `kind`): whether a range site's array holds thread indices.
cudaError_t count_thread_indices(const void *arr, int kind, long long first, long long last, long long n,
                                 unsigned long long *count, cudaStream_t stream);

// Renumbered gathers (SiteInfo::renumbered). index_extent: out[0] = how many
// of arr[first..last) lie outside [0, n), out[1] and out[2] their least and
// greatest (device memory, four long longs, set first; out[3] = 0).
cudaError_t index_extent(const int *arr, long long first, long long last, long long n, long long *out,
                         cudaStream_t stream);
// The same over every row of range graph a (a.n rows of columns a.idx), and
// out[3] = the columns within `band` of their own row.
cudaError_t rows_extent(const AccessList &a, long long band, long long *out, cudaStream_t stream);
// A SELL-32 int copy's slots of rows: a value v in [0, n) becomes renumber[v].
cudaError_t renumber_sell(Rows rows, const int *len, const long long *slice_start, const int *renumber, long long n,
                          int *copy, cudaStream_t stream);
// out[p] = x[perm[p]] for p < n whose perm[p] lies in [lo, hi] (elements of
// elem_size bytes; the others stay unwritten).
cudaError_t gather_in_order(const int *perm, long long n, long long lo, long long hi, const void *x,
                            std::size_t elem_size, void *out, cudaStream_t stream);

// A locality order, per device and per access graph: the index
// arrays it was computed from and how they are read, the threads, and the
// region size. Sites whose threads read through the same arrays share it.
struct OrderKey {
  int device = 0;
  long long n = 0;
  int kind = 0; // AccessList::Kind
  const void *idx = nullptr;
  int idx_kind = 0;
  long long sj = 0, st = 0;
  const void *counts = nullptr;
  const void *B = nullptr;
  int region = 0;
  bool operator<(const OrderKey &o) const {
    return std::tie(device, n, kind, idx, idx_kind, sj, st, counts, B, region) <
           std::tie(o.device, o.n, o.kind, o.idx, o.idx_kind, o.sj, o.st, o.counts, o.B, o.region);
  }
  // Whether it was computed from memory at p (irregfix_release forgets it).
  bool reads(const void *p) const { return p && (p == idx || p == counts || p == B); }
};

// The order itself and what the runtime measured of it. Any permutation is
// correct, so an order is never stale, only less good: it is checked (the
// sampled measure, order.h) when the lists it was computed from change, and
// computed again when it has decayed (order_decayed).
struct Order {
  void *perm = nullptr; // int[n]: physical thread -> logical thread
  std::size_t perm_bytes = 0;
  void *inv = nullptr;  // int[n]: logical thread -> physical thread
  std::size_t inv_bytes = 0;
  bool ready = false;   // perm and inv hold a permutation (a failed computation leaves them not)
  double identity = -1; // sampled sectors per read in the threads' own order
  double fresh = -1;    // ... in this order when computed
  double last = -1;     // ... in this order at its latest check
  double build_ms = 0;  // GPU time of its latest computation
  int region = 0, sweeps = 0;
  bool converged = true;
  long long computed = 0, kept = 0; // computations; changes of its lists that kept it
  OrderChecks checks;               // which of those changes measured it
  // The sampled measure's scratch and its two counts (device), kept: checks
  // run as the lists change.
  void *sample = nullptr;
  std::size_t sample_bytes = 0;
  unsigned long long *counts = nullptr;
};

} // namespace detail
} // namespace irregfix
