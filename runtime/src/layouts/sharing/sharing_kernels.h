// irregfix runtime: the kernels of the sharing layout (kLayoutSharing): each
// thread block's distinct elements of a neighbour list found (a CUB segmented
// sort), each (thread, slot)'s place among them, and the copy of those
// elements, block by block (sharing_kernels.cu).
#pragma once

#include "remap.cuh"

#include <cuda_runtime.h>

#include <cstddef>

namespace irregfix {
namespace detail {

// Thread t reads A[NB[j*sj + t*st]] for j < count(t) (as remap_neighbors: count(t)
// = min(counts ? counts[t] : jmax, jmax)); an index is valid in [lo, hi), and
// hi - lo < 2^32 - 1 (sets hold indices less lo as unsigned). Physical thread p
// works for thread perm[p] (null: p itself; the locality order, which clusters
// a block's threads around the elements they share) and is in block p / block.
// n * jmax must fit an int.
struct SharedList {
  const void *NB = nullptr;
  int nb_kind = 0;
  long long sj = 0, st = 0, jmax = 0;
  const void *counts = nullptr;
  int counts_kind = 0;
  long long n = 0;
  int block = 0;
  long long lo = 0, hi = 0;
  const int *perm = nullptr;
  __host__ __device__ long long blocks() const { return (n + block - 1) / block; }
};

// Bytes of scratch the two build steps below need (their temporaries and CUB's).
cudaError_t sharing_scratch_bytes(const SharedList &l, std::size_t *bytes);

// First build step: per block b, the sorted distinct valid indices (less lo) its
// threads read, left in the scratch at *sets (block b's from min(b*block, n)*jmax);
// block_first[0..blocks] the exclusive scan of their counts. summary (device)
// gets two ints: the largest count and the total.
cudaError_t sharing_sets(const SharedList &l, void *scratch, std::size_t scratch_bytes,
                         int *block_first, int *summary, const unsigned **sets,
                         cudaStream_t stream);

// Second build step: uniq[block_first[b] + i] = block b's i-th set element, and
// local[j*n + p] = the position of (p, j)'s index in its block's set for every
// valid (p, j) (others are not written).
cudaError_t sharing_layout(const SharedList &l, const unsigned *sets, const int *block_first,
                           unsigned *uniq, int *local, cudaStream_t stream);

// The copy: out[i] = A[lo + uniq[i]] for the set elements of the blocks holding
// the threads `rows` (blocks rows.first / block up to ceil(rows.last / block)),
// their bounds read from block_first on the device. `total` (all blocks' set
// elements) sizes the grid.
cudaError_t remap_sharing(const unsigned *uniq, const int *block_first, int block, long long n,
                          long long total, Rows rows, const void *A, std::size_t elem_size,
                          long long lo, void *out, cudaStream_t stream);

} // namespace detail
} // namespace irregfix
