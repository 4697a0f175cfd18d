// irregfix runtime: the inspector of scatter sites. See scatter.h.
#include "scatter.h"

#include <cub/cub.cuh>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <type_traits>

namespace irregfix {
namespace detail {
namespace {

constexpr int kThreads = 256;
constexpr std::size_t kAlign = 256;

std::size_t aligned(std::size_t bytes) { return (bytes + kAlign - 1) / kAlign * kAlign; }

// The temporary storage, carved in this order: unsorted keys (items + 1: the
// second pass reuses them for the segments' weights), sorted keys, item
// ids in order (the third pass reuses them for each position's segment), run
// counts (items + 1), then CUB's own storage.
struct InspectTemp {
  unsigned *keys = nullptr, *sorted = nullptr;
  int *ids = nullptr, *counts = nullptr;
  void *cub = nullptr;
  std::size_t cub_bytes = 0;
};

std::size_t arrays_bytes(long long n) {
  const std::size_t items = static_cast<std::size_t>(n);
  return aligned((items + 1) * sizeof(unsigned)) + 2 * aligned(items * sizeof(unsigned)) +
         aligned((items + 1) * sizeof(int));
}

InspectTemp carve(long long n, void *temp, std::size_t temp_bytes) {
  const std::size_t items = static_cast<std::size_t>(n);
  auto *p = static_cast<unsigned char *>(temp);
  InspectTemp t;
  t.keys = reinterpret_cast<unsigned *>(p);
  p += aligned((items + 1) * sizeof(unsigned));
  t.sorted = reinterpret_cast<unsigned *>(p);
  p += aligned(items * sizeof(unsigned));
  t.ids = reinterpret_cast<int *>(p);
  p += aligned(items * sizeof(int));
  t.counts = reinterpret_cast<int *>(p);
  p += aligned((items + 1) * sizeof(int));
  t.cub = p;
  t.cub_bytes = temp_bytes - arrays_bytes(n);
  return t;
}

// Bits the keys span: 0..extent (extent itself marks indices outside A).
int key_bits(unsigned extent) {
  int bits = 1;
  while (bits < 32 && (1ull << bits) <= extent)
    ++bits;
  return bits;
}

// The keys of update k of every thread: items t * updates + k.
template <class I>
__global__ void __launch_bounds__(kThreads) make_keys(const I *f, long long n, int updates, int k, long long lo,
                                                      unsigned extent, unsigned *keys, int *ids) {
  const long long t = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x;
  if (t >= n)
    return;
  const long long p = t * updates + k;
  const I raw = f[t];
  bool inside = true;
  long long i = 0;
  if constexpr (sizeof(I) == 8 && !std::is_signed<I>::value) {
    inside = raw <= static_cast<unsigned long long>(LLONG_MAX);
    i = static_cast<long long>(raw);
  } else {
    i = static_cast<long long>(raw);
  }
  const bool target = inside && i >= lo && i - lo < static_cast<long long>(extent);
  keys[p] = target ? static_cast<unsigned>(i - lo) : extent;
  ids[p] = static_cast<int>(p);
}

cudaError_t launch_make_keys(const ScatterIndex &x, unsigned *keys, int *ids, cudaStream_t stream) {
  const unsigned blocks = static_cast<unsigned>((x.n + kThreads - 1) / kThreads);
  const int u = x.f.count;
  for (int k = 0; k < u; ++k) {
    const void *f = x.f.f[k];
    switch (x.f.kind[k]) {
    case kIndexI32:
      make_keys<<<blocks, kThreads, 0, stream>>>(static_cast<const int *>(f), x.n, u, k, x.lo, x.extent, keys, ids);
      break;
    case kIndexU32:
      make_keys<<<blocks, kThreads, 0, stream>>>(static_cast<const unsigned *>(f), x.n, u, k, x.lo, x.extent, keys,
                                                 ids);
      break;
    case kIndexI64:
      make_keys<<<blocks, kThreads, 0, stream>>>(static_cast<const long long *>(f), x.n, u, k, x.lo, x.extent, keys,
                                                 ids);
      break;
    case kIndexU64:
      make_keys<<<blocks, kThreads, 0, stream>>>(static_cast<const unsigned long long *>(f), x.n, u, k, x.lo,
                                                 x.extent, keys, ids);
      break;
    default:
      return cudaErrorInvalidValue;
    }
    if (const cudaError_t e = cudaPeekAtLastError(); e != cudaSuccess)
      return e;
  }
  return cudaSuccess;
}

unsigned grid(long long threads) { return static_cast<unsigned>((threads + kThreads - 1) / kThreads); }

// weights[s] = counts[s] / unit, rounded up, for a segment of more than
// `above` items, 0 for the others; 0 at runs (for the exclusive sum's total).
__global__ void __launch_bounds__(kThreads) segment_weights(const int *counts, int runs, int above, int unit,
                                                            int *weights) {
  const long long s = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x;
  if (s < runs)
    weights[s] = counts[s] > above ? (counts[s] + unit - 1) / unit : 0;
  else if (s == runs)
    weights[s] = 0;
}

// chunk_segment[c] = the segment chunk c belongs to.
__global__ void __launch_bounds__(kThreads) chunk_segments(int runs, const int *chunk_first, int *chunk_segment) {
  const long long s = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x;
  if (s >= runs)
    return;
  for (int c = chunk_first[s]; c < chunk_first[s + 1]; ++c)
    chunk_segment[c] = static_cast<int>(s);
}

// heads[p] = 1 where position p of the segment order starts a segment (p > 0).
__global__ void __launch_bounds__(kThreads) segment_heads(const unsigned *sorted, long long items, int *heads) {
  const long long p = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x;
  if (p < items)
    heads[p] = p > 0 && sorted[p] != sorted[p - 1];
}

// A thread a position p of the segment order (segment[p]: its segment): item
// threads[p] keeps its own slot in a short segment; in a long one it takes the
// region's slot of its place in the segment (a thread a position, not a
// segment, so that a hot segment of tens of thousands of items spreads over
// the grid).
__global__ void __launch_bounds__(kThreads) place_slots(long long items, const int *segment, const int *first,
                                                        const int *threads, const int *region_first, int *slots) {
  const long long p = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x;
  if (p >= items)
    return;
  const int s = segment[p], begin = first[s], item = threads[p];
  slots[item] = first[s + 1] - begin > kShortSegment ? static_cast<int>(items + region_first[s] + (p - begin)) : item;
}

// firsts[s] = the weights of the segments before s (segment_weights), their
// total at firsts[runs] and copied to *total (device memory). The unsorted
// keys' storage holds the weights (free by the second pass).
cudaError_t sum_weights(const InspectTemp &t, int runs, int above, int unit, int *firsts, int *total,
                        cudaStream_t stream) {
  int *weights = reinterpret_cast<int *>(t.keys);
  segment_weights<<<grid(runs + 1LL), kThreads, 0, stream>>>(t.counts, runs, above, unit, weights);
  cudaError_t e = cudaPeekAtLastError();
  std::size_t bytes = t.cub_bytes;
  if (e == cudaSuccess)
    e = cub::DeviceScan::ExclusiveSum(t.cub, bytes, weights, firsts, runs + 1, stream);
  if (e == cudaSuccess)
    e = cudaMemcpyAsync(total, firsts + runs, sizeof(int), cudaMemcpyDeviceToDevice, stream);
  return e;
}

} // namespace

cudaError_t inspect_temp_bytes(const ScatterIndex &x, std::size_t *bytes) {
  const int n = static_cast<int>(x.items());
  std::size_t sort = 0, encode = 0, scan = 0;
  cudaError_t e = cub::DeviceRadixSort::SortPairs(nullptr, sort, static_cast<const unsigned *>(nullptr),
                                                  static_cast<unsigned *>(nullptr), static_cast<const int *>(nullptr),
                                                  static_cast<int *>(nullptr), n, 0, key_bits(x.extent));
  if (e == cudaSuccess)
    e = cub::DeviceRunLengthEncode::Encode(nullptr, encode, static_cast<const unsigned *>(nullptr),
                                           static_cast<unsigned *>(nullptr), static_cast<int *>(nullptr),
                                           static_cast<int *>(nullptr), n);
  std::size_t inclusive = 0;
  if (e == cudaSuccess)
    e = cub::DeviceScan::InclusiveSum(nullptr, inclusive, static_cast<const int *>(nullptr),
                                      static_cast<int *>(nullptr), n);
  if (e == cudaSuccess)
    e = cub::DeviceScan::ExclusiveSum(nullptr, scan, static_cast<const int *>(nullptr), static_cast<int *>(nullptr),
                                      n + 1);
  *bytes = arrays_bytes(x.items()) + std::max({sort, encode, scan, inclusive});
  return e;
}

cudaError_t inspect_segments(const ScatterIndex &x, void *temp, std::size_t temp_bytes, unsigned *targets,
                             int *threads, int *runs, cudaStream_t stream) {
  const InspectTemp t = carve(x.items(), temp, temp_bytes);
  cudaError_t e = launch_make_keys(x, t.keys, t.ids, stream);
  std::size_t bytes = t.cub_bytes;
  // LSD radix sort is stable: a target's threads stay in thread order.
  if (e == cudaSuccess)
    e = cub::DeviceRadixSort::SortPairs(t.cub, bytes, t.keys, t.sorted, t.ids, threads, static_cast<int>(x.items()), 0,
                                        key_bits(x.extent), stream);
  bytes = t.cub_bytes;
  if (e == cudaSuccess)
    e = cub::DeviceRunLengthEncode::Encode(t.cub, bytes, t.sorted, targets, t.counts, runs,
                                           static_cast<int>(x.items()), stream);
  return e;
}

cudaError_t segment_firsts(const ScatterIndex &x, void *temp, std::size_t temp_bytes, int runs, int *first,
                           int *region_first, int *chunk_first, int *sizes, cudaStream_t stream) {
  const InspectTemp t = carve(x.items(), temp, temp_bytes);
  // counts[runs] = 0, so that the exclusive sum ends with first[runs] = items.
  cudaError_t e = cudaMemsetAsync(t.counts + runs, 0, sizeof(int), stream);
  std::size_t bytes = t.cub_bytes;
  if (e == cudaSuccess)
    e = cub::DeviceScan::ExclusiveSum(t.cub, bytes, t.counts, first, runs + 1, stream);
  // The long segments' lengths, summed into their first slots in the region;
  // the chunks of the segments a block sums, numbered in segment order.
  if (e == cudaSuccess)
    e = sum_weights(t, runs, kShortSegment, 1, region_first, sizes, stream);
  if (e == cudaSuccess)
    e = sum_weights(t, runs, kBlockSegment, kChunk, chunk_first, sizes + 1, stream);
  return e;
}

cudaError_t assign_slots(const ScatterIndex &x, void *temp, std::size_t temp_bytes, int runs, const int *first,
                         const int *threads, const int *region_first, const int *chunk_first, int *slots,
                         int *chunk_segment, cudaStream_t stream) {
  const long long items = x.items();
  if (runs <= 0)
    return cudaSuccess;
  // Each position's segment: a running count of the segments' heads, over the
  // sorted keys the first pass left (into the item ids' storage, free since).
  const InspectTemp t = carve(items, temp, temp_bytes);
  segment_heads<<<grid(items), kThreads, 0, stream>>>(t.sorted, items, t.ids);
  cudaError_t e = cudaPeekAtLastError();
  std::size_t bytes = t.cub_bytes;
  if (e == cudaSuccess)
    e = cub::DeviceScan::InclusiveSum(t.cub, bytes, t.ids, t.ids, static_cast<int>(items), stream);
  if (e == cudaSuccess) {
    place_slots<<<grid(items), kThreads, 0, stream>>>(items, t.ids, first, threads, region_first, slots);
    e = cudaPeekAtLastError();
  }
  if (e == cudaSuccess) {
    chunk_segments<<<grid(runs), kThreads, 0, stream>>>(runs, chunk_first, chunk_segment);
    e = cudaPeekAtLastError();
  }
  return e;
}

} // namespace detail
} // namespace irregfix
