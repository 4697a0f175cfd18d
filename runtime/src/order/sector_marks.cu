// irregfix runtime: the sampled measure counted by bitmaps. See sector_marks.h.
#include "sector_marks.h"

#include "access_list.cuh"

#include <cub/block/block_reduce.cuh>

#include <climits>

namespace irregfix {
namespace detail {
namespace {

constexpr int kThreads = kOrderBlock;
constexpr int kSlices = 4; // grid slices of a sample block's reads

// The words of one sample block's bitmap of a's sectors.
long long bitmap_words(const AccessList &a, int per_sector) {
  // In unsigned arithmetic: an unknown extent is [0, LLONG_MAX).
  const unsigned long long span = a.hi > a.lo ? static_cast<unsigned long long>(a.hi) - a.lo : 0;
  const unsigned long long words = span / static_cast<unsigned>(per_sector) / 64 + 1;
  return words < static_cast<unsigned long long>(LLONG_MAX) ? static_cast<long long>(words) : LLONG_MAX;
}

// The same measure without a sort, where every sample block's bitmap of the
// sectors fits kSampleBitmapBytes: block i of the sample marks the sectors it
// reads in its own `words` words, a read whose bit was clear counting a
// distinct sector. Slice y of the grid's second dimension takes reads y,
// y + gridDim.y, ... of each thread (the bits do not depend on who sets them).
__global__ void __launch_bounds__(kThreads)
    mark_kernel(AccessList a, const int *__restrict__ perm, const int *__restrict__ renumber, int per_sector,
                long long nblocks, long long blocks, long long words, unsigned long long *__restrict__ bits, unsigned long long *__restrict__ counts) {
  const long long i = blockIdx.x;
  const long long p = i * nblocks / blocks * kOrderBlock + threadIdx.x;
  unsigned long long *own = bits + i * words;
  unsigned long long read_count[2] = {0, 0}; // distinct, reads
  long long len = 0, start = 0;
  if (p < a.n) {
    const long long t = perm ? perm[p] : p;
    len = access_count(a, t, &start);
    len = len < kOrderSampleReads ? len : kOrderSampleReads;
  }
  for (long long j = blockIdx.y; j < len; j += gridDim.y) {
    long long e = 0;
    if (access_elem(a, start, j, &e)) {
      e = renumbered(a, renumber, e);
      const unsigned long long sector = static_cast<unsigned long long>(e - a.lo) / static_cast<unsigned>(per_sector);
      const unsigned long long bit = 1ULL << (sector & 63);
      read_count[0] += (atomicOr(&own[sector >> 6], bit) & bit) == 0;
      ++read_count[1];
    }
  }
  using Reduce = cub::BlockReduce<unsigned long long, kThreads>;
  __shared__ typename Reduce::TempStorage temp;
  for (int c = 0; c < 2; ++c) {
    const unsigned long long sum = Reduce(temp).Sum(read_count[c]);
    if (threadIdx.x == 0)
      atomicAdd(&counts[c], sum);
    __syncthreads(); // the storage is used again
  }
}

} // namespace

bool sector_marks_fit(const AccessList &a, int per_sector, std::size_t *bytes) {
  if (per_sector < 1 || a.n <= 0)
    return false;
  const long long blocks = sample_blocks(a.n), words = bitmap_words(a, per_sector);
  if (words > kSampleBitmapBytes / 8 / blocks)
    return false;
  *bytes = static_cast<std::size_t>(blocks * words) * 8;
  return true;
}

cudaError_t load_sector_marks() {
  cudaFuncAttributes attributes;
  return cudaFuncGetAttributes(&attributes, mark_kernel);
}

cudaError_t mark_sectors(const AccessList &a, const int *perm, const int *renumber, int per_sector, void *bits,
                         std::size_t bytes, unsigned long long *counts, cudaStream_t stream) {
  std::size_t need = 0;
  if (!sector_marks_fit(a, per_sector, &need) || !bits || bytes < need)
    return cudaErrorInvalidValue;
  cudaError_t e = cudaMemsetAsync(bits, 0, need, stream);
  if (e != cudaSuccess)
    return e;
  const long long blocks = sample_blocks(a.n);
  const dim3 grid(static_cast<unsigned>(blocks), kSlices);
  mark_kernel<<<grid, kThreads, 0, stream>>>(a, perm, renumber, per_sector, (a.n + kOrderBlock - 1) / kOrderBlock, blocks,
                                             bitmap_words(a, per_sector), static_cast<unsigned long long *>(bits),
                                             counts);
  return cudaPeekAtLastError();
}

} // namespace detail
} // namespace irregfix
