// irregfix runtime: the sampled measure of how far apart a block's reads lie
// (by bitmaps where they fit, sector_marks.cu; else a sort of the sample's
// reads). See order.h.
#include "order.h"

#include "access_list.cuh"
#include "order_kernels.cuh"
#include "remap_dispatch.cuh"
#include "sector_marks.h"

#include <cub/block/block_reduce.cuh>
#include <cub/device/device_radix_sort.cuh>

namespace irregfix {
namespace detail {
namespace {

using order_kernels::aligned;
using order_kernels::kThreads;

constexpr unsigned kNoSector = ~0u;

struct SampleLayout {
  long long blocks = 0; // sampled blocks
  long long items() const { return blocks * kOrderBlock * kOrderSampleReads; }
};

SampleLayout sample_layout(long long n) {
  SampleLayout s;
  s.blocks = sample_blocks(n);
  return s;
}

// Block i of the sample: physical block i * nblocks / blocks. Each thread
// writes its kOrderSampleReads slots: (sample block << 32) | sector, or the
// block's "no sector" key, and counts its reads.
__global__ void __launch_bounds__(kThreads)
    sample_kernel(AccessList a, const int *__restrict__ perm, const int *__restrict__ renumber, int per_sector,
                  long long nblocks, long long blocks, unsigned long long *__restrict__ keys, unsigned long long *__restrict__ counts) {
  const long long i = blockIdx.x;
  const long long pb = i * nblocks / blocks;
  const long long p = pb * kOrderBlock + threadIdx.x;
  unsigned long long *slots = keys + (i * kOrderBlock + threadIdx.x) * kOrderSampleReads;
  const unsigned long long high = static_cast<unsigned long long>(i) << 32;
  long long reads = 0, len = 0, start = 0;
  if (p < a.n) {
    const long long t = perm ? perm[p] : p;
    len = access_count(a, t, &start);
    len = len < kOrderSampleReads ? len : kOrderSampleReads;
  }
  for (long long j = 0; j < kOrderSampleReads; ++j) {
    unsigned long long key = high | kNoSector;
    long long e = 0;
    if (j < len && access_elem(a, start, j, &e)) {
      e = renumbered(a, renumber, e);
      const unsigned long long sector = static_cast<unsigned long long>(e - a.lo) / static_cast<unsigned>(per_sector);
      key = high | (sector < kNoSector ? sector : kNoSector - 1);
      ++reads;
    }
    slots[j] = key;
  }
  using Reduce = cub::BlockReduce<unsigned long long, kThreads>;
  __shared__ typename Reduce::TempStorage temp;
  const unsigned long long sum = Reduce(temp).Sum(static_cast<unsigned long long>(reads));
  if (threadIdx.x == 0)
    atomicAdd(&counts[1], sum);
}

// Distinct keys among the sorted ones (a sector once per sample block).
__global__ void __launch_bounds__(kThreads)
    distinct_kernel(const unsigned long long *__restrict__ sorted, long long items,
                    unsigned long long *__restrict__ counts) {
  unsigned long long distinct = 0;
  const long long stride = static_cast<long long>(gridDim.x) * kThreads;
  for (long long i = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x; i < items; i += stride) {
    const unsigned long long v = sorted[i];
    distinct += (v & 0xffffffffULL) != kNoSector && (i == 0 || sorted[i - 1] != v);
  }
  using Reduce = cub::BlockReduce<unsigned long long, kThreads>;
  __shared__ typename Reduce::TempStorage temp;
  const unsigned long long sum = Reduce(temp).Sum(distinct);
  if (threadIdx.x == 0)
    atomicAdd(&counts[0], sum);
}

// The sampled measure's scratch: keys, sorted keys, CUB's temporaries.
cudaError_t sample_parts(std::size_t *keys, std::size_t *temp) {
  const long long items = static_cast<long long>(kOrderSampleBlocks) * kOrderBlock * kOrderSampleReads;
  *keys = aligned(static_cast<std::size_t>(items) * sizeof(unsigned long long));
  *temp = 0;
  return cub::DeviceRadixSort::SortKeys(nullptr, *temp, static_cast<const unsigned long long *>(nullptr),
                                        static_cast<unsigned long long *>(nullptr), items);
}

} // namespace

cudaError_t sample_scratch_bytes(const AccessList &a, int per_sector, std::size_t *bytes) {
  if (per_sector < 1 || a.n <= 0)
    return cudaErrorInvalidValue;
  if (sector_marks_fit(a, per_sector, bytes))
    return cudaSuccess;
  std::size_t keys = 0, temp = 0;
  const cudaError_t e = sample_parts(&keys, &temp);
  *bytes = 2 * keys + aligned(temp);
  return e;
}

cudaError_t sample_sectors(const AccessList &a, const int *perm, const int *renumber, int per_sector, void *scratch,
                           std::size_t scratch_bytes, unsigned long long *counts, cudaStream_t stream) {
  if (renumber && (a.lo > 0 || a.hi < a.n)) // renumbered elements must lie where the measure counts them
    return cudaErrorInvalidValue;
  if (per_sector < 1 || a.n <= 0 || !scratch)
    return cudaErrorInvalidValue;
  cudaError_t e = cudaMemsetAsync(counts, 0, 2 * sizeof(unsigned long long), stream);
  if (e != cudaSuccess)
    return e;
  std::size_t bits = 0;
  if (sector_marks_fit(a, per_sector, &bits)) // mark_sectors checks the scratch holds them
    return mark_sectors(a, perm, renumber, per_sector, scratch, scratch_bytes, counts, stream);
  std::size_t keys_bytes = 0, temp = 0;
  if ((e = sample_parts(&keys_bytes, &temp)) != cudaSuccess)
    return e;
  if (scratch_bytes < 2 * keys_bytes + aligned(temp))
    return cudaErrorInvalidValue;
  const SampleLayout s = sample_layout(a.n);
  auto *keys = static_cast<unsigned long long *>(scratch);
  auto *sorted = reinterpret_cast<unsigned long long *>(static_cast<char *>(scratch) + keys_bytes);
  void *cub_temp = static_cast<char *>(scratch) + 2 * keys_bytes;
  const long long nblocks = (a.n + kOrderBlock - 1) / kOrderBlock;
  sample_kernel<<<static_cast<unsigned>(s.blocks), kOrderBlock, 0, stream>>>(a, perm, renumber, per_sector, nblocks,
                                                                             s.blocks, keys, counts);
  if ((e = cudaPeekAtLastError()) != cudaSuccess)
    return e;
  // The sample block is the key's high half: one sort of all blocks' sectors.
  int end_bit = 32; // sectors in the low half, the sample block above
  for (long long b = s.blocks - 1; b > 0; b >>= 1)
    ++end_bit;
  if ((e = cub::DeviceRadixSort::SortKeys(cub_temp, temp, keys, sorted, s.items(), 0, end_bit, stream)) !=
      cudaSuccess)
    return e;
  distinct_kernel<<<grid_for(s.items(), kThreads), kThreads, 0, stream>>>(sorted, s.items(), counts);
  return cudaPeekAtLastError();
}

} // namespace detail
} // namespace irregfix
