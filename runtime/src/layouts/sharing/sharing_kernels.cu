// irregfix runtime: kernels of the sharing layout of neighbour lists (per
// thread block, the distinct elements its threads read). See sharing_kernels.h.
#include "sharing_kernels.h"

#include "remap_dispatch.cuh"

#include <cub/block/block_scan.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include <algorithm>

namespace irregfix {
namespace detail {
namespace {

// The key of an invalid (t, j) (beyond count(t), or a sentinel index): sorts last.
constexpr unsigned kNoKey = 0xFFFFFFFFu;
constexpr int kThreads = 256;

// The build's temporaries in one scratch buffer: the keys of every (t, j) and
// the sort's second buffer, the segment offsets and per-segment counts, then CUB's.
struct SharingScratch {
  unsigned *keys[2] = {};
  int *off = nullptr;    // [blocks + 1]: block b's keys start at off[b] = b*block*jmax
  int *counts = nullptr; // [blocks + 1]: distinct indices of block b; counts[blocks] = 0
  void *temp = nullptr;
  std::size_t temp_bytes = 0;
};

std::size_t align_up(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

// CUB's temporary bytes for the sort, the scan and the max.
cudaError_t cub_temp_bytes(const SharedList &l, std::size_t *bytes) {
  const long long cells = l.n * l.jmax, blocks = l.blocks();
  std::size_t sort = 0, scan = 0, max = 0;
  cub::DoubleBuffer<unsigned> keys(nullptr, nullptr);
  const int *in = nullptr;
  int *out = nullptr;
  cudaError_t e = cub::DeviceSegmentedSort::SortKeys(nullptr, sort, keys, cells, blocks, in, in);
  if (e == cudaSuccess)
    e = cub::DeviceScan::ExclusiveSum(nullptr, scan, in, out, blocks + 1);
  if (e == cudaSuccess)
    e = cub::DeviceReduce::Max(nullptr, max, in, out, blocks);
  *bytes = std::max(sort, std::max(scan, max));
  return e;
}

// Carves the scratch at base (null: only its size, into *need).
cudaError_t carve(const SharedList &l, void *base, std::size_t have, SharingScratch *s,
                  std::size_t *need) {
  const std::size_t keys = align_up(static_cast<std::size_t>(l.n * l.jmax) * sizeof(unsigned));
  const std::size_t ints = align_up(static_cast<std::size_t>(l.blocks() + 1) * sizeof(int));
  std::size_t temp = 0;
  const cudaError_t e = cub_temp_bytes(l, &temp);
  if (e != cudaSuccess)
    return e;
  *need = 2 * keys + 2 * ints + temp;
  if (!base)
    return cudaSuccess;
  if (have < *need)
    return cudaErrorInvalidValue;
  char *p = static_cast<char *>(base);
  s->keys[0] = reinterpret_cast<unsigned *>(p);
  s->keys[1] = reinterpret_cast<unsigned *>(p + keys);
  s->off = reinterpret_cast<int *>(p + 2 * keys);
  s->counts = reinterpret_cast<int *>(p + 2 * keys + ints);
  s->temp = p + 2 * keys + 2 * ints;
  s->temp_bytes = temp;
  return cudaSuccess;
}

// Physical thread p's j-th index less lo, or kNoKey when j >= count or the index is not in [lo, hi).
__device__ __forceinline__ unsigned neighbor_key(const SharedList &l, long long p, long long j) {
  const long long t = l.perm ? l.perm[p] : p;
  long long count = l.jmax;
  if (l.counts) {
    long long c;
    if (!load_index(l.counts, l.counts_kind, t, &c))
      c = l.jmax;
    count = c < 0 ? 0 : c < l.jmax ? c : l.jmax;
  }
  long long idx;
  if (j >= count || !load_index(l.NB, l.nb_kind, j * l.sj + t * l.st, &idx) || idx < l.lo ||
      idx >= l.hi)
    return kNoKey;
  return static_cast<unsigned>(idx - l.lo);
}

// keys[p*jmax + j] for every (p, j): each block's keys are one segment. And the
// segments' offsets, and zero counts.
__global__ void sharing_keys_kernel(SharedList l, unsigned *__restrict__ keys, int *__restrict__ off,
                                    int *__restrict__ counts) {
  const long long cells = l.n * l.jmax, blocks = l.blocks();
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  const long long first = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (long long i = first; i < cells; i += stride) {
    const long long p = i / l.jmax;
    keys[i] = neighbor_key(l, p, i - p * l.jmax);
  }
  for (long long b = first; b <= blocks; b += stride) {
    const long long t = b * l.block;
    off[b] = static_cast<int>((t < l.n ? t : l.n) * l.jmax);
    counts[b] = 0;
  }
}

// One CUDA block per segment of sorted keys: its distinct valid keys, compacted
// to the segment's start in `sets`, and their count.
__global__ void __launch_bounds__(kThreads)
    sharing_unique_kernel(const unsigned *__restrict__ sorted, const int *__restrict__ off,
                          long long blocks, unsigned *__restrict__ sets, int *__restrict__ counts) {
  using Scan = cub::BlockScan<int, kThreads>;
  __shared__ typename Scan::TempStorage scan;
  for (long long b = blockIdx.x; b < blocks; b += gridDim.x) {
    const long long begin = off[b], end = off[b + 1];
    int found = 0;
    for (long long tile = begin; tile < end; tile += kThreads) {
      if (sorted[tile] == kNoKey) // the same for every thread: the rest are invalid too
        break;
      const long long i = tile + threadIdx.x;
      const unsigned key = i < end ? sorted[i] : kNoKey;
      const int is_new = key != kNoKey && (i == begin || sorted[i - 1] != key);
      int at = 0, added = 0;
      Scan(scan).ExclusiveSum(is_new, at, added);
      if (is_new)
        sets[begin + found + at] = key;
      found += added;
      __syncthreads(); // the scan's storage serves the next tile
    }
    if (threadIdx.x == 0)
      counts[b] = found;
  }
}

// One CUDA block per thread block's set: from the scratch into uniq.
__global__ void sharing_uniq_kernel(SharedList l, const unsigned *__restrict__ sets,
                                    const int *__restrict__ block_first, unsigned *__restrict__ uniq) {
  for (long long b = blockIdx.x; b < l.blocks(); b += gridDim.x) {
    const int first = block_first[b], count = block_first[b + 1] - first;
    const unsigned *set = sets + b * l.block * l.jmax;
    for (int i = threadIdx.x; i < count; i += blockDim.x)
      uniq[first + i] = set[i];
  }
}

// local[j*n + p]: (p, j)'s position in its block's set (a binary search), p
// fastest so that the writes are coalesced.
__global__ void sharing_local_kernel(SharedList l, const unsigned *__restrict__ sets,
                                     const int *__restrict__ block_first, int *__restrict__ local) {
  const long long cells = l.n * l.jmax;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < cells;
       i += stride) {
    const long long j = i / l.n, p = i - j * l.n;
    const unsigned key = neighbor_key(l, p, j);
    if (key == kNoKey)
      continue;
    const long long b = p / l.block;
    const unsigned *set = sets + b * l.block * l.jmax;
    int lo = 0, hi = block_first[b + 1] - block_first[b];
    while (lo < hi) { // the first element not below key: key itself
      const int mid = (lo + hi) / 2;
      if (set[mid] < key)
        lo = mid + 1;
      else
        hi = mid;
    }
    local[i] = lo;
  }
}

// out[i] = A[lo + uniq[i]] for i in [block_first[b0], block_first[b1]).
template <class W, int K>
__global__ void sharing_copy_kernel(const unsigned *__restrict__ uniq,
                                    const int *__restrict__ block_first, long long b0, long long b1,
                                    const W *__restrict__ A, int k_rt, long long lo,
                                    W *__restrict__ out) {
  const int k = K ? K : k_rt;
  const long long first = block_first[b0], last = block_first[b1];
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = first + static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
       i < last; i += stride) {
    const long long from = (lo + static_cast<long long>(uniq[i])) * k;
    for (int w = 0; w < k; ++w)
      out[i * k + w] = A[from + w];
  }
}

unsigned set_grid(long long blocks) {
  return static_cast<unsigned>(blocks < (1 << 20) ? (blocks > 0 ? blocks : 1) : (1 << 20));
}

} // namespace

cudaError_t sharing_scratch_bytes(const SharedList &l, std::size_t *bytes) {
  return carve(l, nullptr, 0, nullptr, bytes);
}

cudaError_t sharing_sets(const SharedList &l, void *scratch, std::size_t scratch_bytes,
                         int *block_first, int *summary, const unsigned **sets,
                         cudaStream_t stream) {
  SharingScratch s;
  std::size_t need = 0;
  cudaError_t e = carve(l, scratch, scratch_bytes, &s, &need);
  if (e != cudaSuccess)
    return e;
  const long long cells = l.n * l.jmax, blocks = l.blocks();
  sharing_keys_kernel<<<grid_for(std::max(cells, blocks + 1), kThreads), kThreads, 0, stream>>>(
      l, s.keys[0], s.off, s.counts);
  if ((e = cudaPeekAtLastError()) != cudaSuccess)
    return e;
  cub::DoubleBuffer<unsigned> keys(s.keys[0], s.keys[1]);
  if (cells > 0) {
    std::size_t bytes = s.temp_bytes;
    const int *off = s.off; // the iterator types of the size query: one instantiation
    e = cub::DeviceSegmentedSort::SortKeys(s.temp, bytes, keys, cells, blocks, off, off + 1, stream);
    if (e != cudaSuccess)
      return e;
  }
  // The sorted keys are in keys.Current(); the sets go to the other buffer.
  unsigned *out = keys.Alternate();
  sharing_unique_kernel<<<set_grid(blocks), kThreads, 0, stream>>>(keys.Current(), s.off, blocks,
                                                                   out, s.counts);
  if ((e = cudaPeekAtLastError()) != cudaSuccess)
    return e;
  std::size_t bytes = s.temp_bytes;
  const int *counts = s.counts;
  e = cub::DeviceScan::ExclusiveSum(s.temp, bytes, counts, block_first, blocks + 1, stream);
  if (e != cudaSuccess)
    return e;
  bytes = s.temp_bytes;
  e = cub::DeviceReduce::Max(s.temp, bytes, counts, summary, blocks, stream);
  if (e != cudaSuccess)
    return e;
  e = cudaMemcpyAsync(summary + 1, block_first + blocks, sizeof(int), cudaMemcpyDeviceToDevice,
                      stream);
  *sets = out;
  return e;
}

cudaError_t sharing_layout(const SharedList &l, const unsigned *sets, const int *block_first,
                           unsigned *uniq, int *local, cudaStream_t stream) {
  sharing_uniq_kernel<<<set_grid(l.blocks()), kThreads, 0, stream>>>(l, sets, block_first, uniq);
  cudaError_t e = cudaPeekAtLastError();
  const long long cells = l.n * l.jmax;
  if (e == cudaSuccess && cells > 0) {
    sharing_local_kernel<<<grid_for(cells, kThreads), kThreads, 0, stream>>>(l, sets, block_first,
                                                                             local);
    e = cudaPeekAtLastError();
  }
  return e;
}

cudaError_t remap_sharing(const unsigned *uniq, const int *block_first, int block, long long n,
                          long long total, Rows rows, const void *A, std::size_t elem_size,
                          long long lo, void *out, cudaStream_t stream) {
  if (block <= 0 || rows.first < 0 || rows.last > n)
    return cudaErrorInvalidValue;
  if (rows.count() == 0 || !rows.has_first_iteration() || total <= 0)
    return cudaSuccess;
  const long long blocks = (n + block - 1) / block;
  const long long b0 = rows.first / block, b1 = std::min(blocks, (rows.last + block - 1) / block);
  // About the part of the total these blocks hold: the grid's size only.
  const long long estimate = total * (b1 - b0) / blocks + 1;
  int k = 1;
  const WordKind w = pick_word(A, elem_size, &k);
  return with_word(w, [&](auto wtag, auto ktag) -> cudaError_t {
    using W = TagType<decltype(wtag)>;
    sharing_copy_kernel<W, decltype(ktag)::value><<<grid_for(estimate, kThreads), kThreads, 0, stream>>>(
        uniq, block_first, b0, b1, static_cast<const W *>(A), k, lo, static_cast<W *>(out));
    return cudaPeekAtLastError();
  });
}

} // namespace detail
} // namespace irregfix
