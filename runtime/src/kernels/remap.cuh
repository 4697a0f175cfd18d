// irregfix runtime: the copy kernels every layout shares, their interface:
// range sites in column-major ELL and in SELL-32 (and SELL-32-sigma's sort),
// two-level ranges, gathers, two-level gathers, neighbour lists and their
// field pieces, and the CUB reductions that size and validate them. Each
// pattern's file checks its arguments and dispatches to the generated module
// of its index type and word class (remap_dispatch.cuh). A layout's own
// kernels live in its folder (layouts/sharing/sharing_kernels.h); the
// locality order's in order/order.h.
#pragma once

#include <cuda_runtime.h>

#include <climits>
#include <cstddef>

namespace irregfix {
namespace detail {

// The threads [first, last) of a copy (a chunk of a pipelined launch, or all
// n) and the iterations [iter_first, iter_last) of each (a hoisted launch's
// slice, or all). The copy's layout (column stride n, slice offsets) does not
// change; a part writes exactly its slots.
struct Rows {
  long long first = 0, last = 0;
  long long iter_first = 0, iter_last = LLONG_MAX;
  long long count() const { return last > first ? last - first : 0; }
  // Iteration 0 is in the window: a gather's one element a thread.
  bool has_first_iteration() const { return iter_first <= 0 && iter_last > 0; }
};

// Threads of a range remap block, and the most rows one block handles.
constexpr int kRemapRows = 256;
constexpr int kMaxRowsPerBlock = 1024;

// Launch shape of a range remap: rows per block (a multiple of kRemapRows) and
// the shared-memory staging capacity for a block's source segment.
struct RangePlan {
  int rows_per_block = kRemapRows;
  std::size_t segment_bytes = 4096;
};

// len[t] = B[t+1] - B[t] for t in [0, n), or -1 where that is negative or does
// not fit an int; minmax[0], minmax[1] = the min and max of len (INT_MAX and
// INT_MIN when n == 0). bounds[0] = B[0], bounds[1] = B[n] (as long long). Device
// pointers.
cudaError_t range_lengths(const void *B, int b_kind, long long n, int *len, int *minmax,
                          long long *bounds, cudaStream_t stream);

// CUB min and max of the index array B[0..n) (of kind b_kind) into out[0], out[1],
// each stored in 8 bytes as the index type itself (read back with index_to_ll).
cudaError_t minmax_indices(const void *B, int b_kind, long long n, void *out, void *temp,
                           std::size_t *temp_bytes, cudaStream_t stream);
// Decodes one 8-byte slot written by minmax_indices; false if it does not fit
// a long long.
bool index_to_ll(const void *slot, int b_kind, long long *value);

// The launch shape for a remap of nnz elements of elem_size bytes over n rows
// (rows_per_block > 0 forces that many rows per block: for benchmarks).
RangePlan plan_range(long long nnz, long long n, std::size_t elem_size, int rows_per_block = 0);

// out[ell_slot(t, iter, width)] = A[B[t] + iter] for iter < B[t+1]-B[t], t in rows
// (width: the longest row, at least); padding is not written. Lengths must have
// been validated (non-negative) before.
cudaError_t remap_range(const void *B, int b_kind, long long n, long long width, Rows rows, const void *A,
                        std::size_t elem_size, void *out, const RangePlan &plan,
                        cudaStream_t stream);

// SELL-32 slice offsets: slice_start[s] = sum over slices r < s of 32 * (longest
// len in slice r), for s in [0, nslices], nslices = ceil(n / 32); so
// slice_start[nslices] is the total cell count. A CUB exclusive scan over the
// slice widths (computed on the fly from len). With temp null, only sets
// *temp_bytes. Lengths must be non-negative (validated) for the offsets to mean
// anything; they are computed before the validation, and ignored when it fails.
cudaError_t sell_slices(const int *len, long long n, long long *slice_start, void *temp,
                        std::size_t *temp_bytes, cudaStream_t stream);

// SELL-32-sigma: perm sorts the threads by length, longest first, inside
// windows of sigma consecutive threads (stable: equal lengths keep their order);
// len holds the logical lengths on entry, the physical ones (len[perm[p]]) after.
// sigma must divide kSigmaTile (a power of two from 32 to 4096); n must fit an int.
constexpr int kSigmaTile = 4096;
cudaError_t sigma_sort(int *len, long long n, int sigma, int *perm, cudaStream_t stream);

// out[slice_start[p/32] + iter*32 + p%32] = A[B[r] + iter] for iter < len[p], where
// r = perm[p] under SELL-32-sigma (perm non-null), else r = p; p in rows. Padding is
// not written.
cudaError_t remap_sell(const void *B, int b_kind, Rows rows, const int *len,
                       const long long *slice_start, const int *perm, const void *A,
                       std::size_t elem_size, void *out, cudaStream_t stream);

// out[t] = A[B[t]] for t in rows with lo <= B[t] < hi (A's allocation, see
// element_bounds); other slots (sentinels) are not written.
cudaError_t remap_gather(const void *B, int b_kind, Rows rows, const void *A,
                         std::size_t elem_size, long long lo, long long hi, void *out,
                         cudaStream_t stream);

// Slots of the range2 summary written by range2_rows (long long each).
enum Range2Summary {
  kR2MinLen = 0,
  kR2MaxLen = 1,
  kR2MinStart = 2,
  kR2MaxEnd = 3,
  kR2SumLen = 4, // sum of len over rows with len > 0
  kR2Slots = 5
};

// First range2 kernel: r = C[t]; start[t] = B[r], len[t] = B[r+1] - B[r] when
// rlo <= r and r + 1 < rhi (B's allocation, in B elements), else len[t] = -2
// and B is not read; len[t] = -1 for a negative or over-INT_MAX length.
// summary[kR2*]: min and max len, min start and max start+len over rows with
// len > 0 (LLONG_MAX / LLONG_MIN when there are none), and the sum of those
// lengths. Device pointers.
cudaError_t range2_rows(const void *B, int b_kind, const void *C, int c_kind, long long n,
                        long long rlo, long long rhi, long long *start, int *len,
                        long long *summary, cudaStream_t stream);

// Second range2 kernel: out[ell_slot(t, iter, width)] = A[start[t] + iter] for
// iter < len[t], t in rows (thread per row; rows of consecutive t are not adjacent in A).
cudaError_t remap_range2(const long long *start, const int *len, long long n, long long width, Rows rows,
                         const void *A, std::size_t elem_size, void *out, cudaStream_t stream);

// D[t] = B[C[t]] for rlo <= C[t] < rhi (B's allocation), else LLONG_MIN (as
// when B[C[t]] does not fit a long long): gathers skip those.
cudaError_t compose_indices(const void *B, int b_kind, const void *C, int c_kind, long long n,
                            long long rlo, long long rhi, long long *D, cudaStream_t stream);

// Neighbour-list gather: out[ell_slot(t, j, jmax)] = A[NB[j*sj + t*st]] for j < count(t),
// count(t) = min(counts ? counts[t] : jmax, jmax), t in rows, when the index lies
// in [lo, hi); other slots are not written. Thread per t, coalesced writes.
cudaError_t remap_neighbors(const void *NB, int nb_kind, long long sj, long long st,
                            long long jmax, const void *counts, int counts_kind, long long n,
                            Rows rows,
                            const void *A, std::size_t elem_size, long long lo, long long hi,
                            void *out, cudaStream_t stream);

// ---- copies split into field pieces (field_plan.h) -------------------------

struct FieldPlan;
struct FieldOut;

// For t in rows with lo <= B[t] < hi: piece q of A[B[t]] to out.p[q][t], for
// every piece of the plan; other slots (sentinels) are not written.
cudaError_t remap_gather_fields(const void *B, int b_kind, Rows rows, const void *A, long long lo,
                                long long hi, const FieldPlan &plan, const FieldOut &out,
                                cudaStream_t stream);

// As remap_neighbors, each piece q of A[NB[j*sj + t*st]] to out.p[q][ell_slot(t, j, jmax)].
cudaError_t remap_neighbors_fields(const void *NB, int nb_kind, long long sj, long long st,
                                   long long jmax, const void *counts, int counts_kind, long long n,
                                   Rows rows, const void *A, long long lo, long long hi,
                                   const FieldPlan &plan, const FieldOut &out, cudaStream_t stream);

} // namespace detail
} // namespace irregfix
