// irregfix runtime: the executor of scatter sites. See scatter.h.
#include "scatter.h"

#include <algorithm>

namespace irregfix {
namespace detail {
namespace {

constexpr int kThreads = 256;
constexpr int kWarp = 32;
constexpr std::size_t kAlign = 256;
static_assert(kChunk / 2 >= kThreads, "every thread of a chunk's block has an item");

std::size_t aligned(std::size_t bytes) { return (bytes + kAlign - 1) / kAlign * kAlign; }
std::size_t sums_offset(long long slots, int kind) {
  return aligned(static_cast<std::size_t>(slots) * scatter_elem_size(kind));
}
std::size_t list_offset(long long slots, long long chunks, int kind) {
  return sums_offset(slots, kind) + aligned(static_cast<std::size_t>(chunks) * scatter_elem_size(kind));
}
// Long segments, each at least kShortSegment + 1 slots of the region.
long long most_warp_segments(long long region) { return region / (kShortSegment + 1); }

// The parts of the contributions buffer after the slots: the chunks' sums,
// and the list of the segments a warp sums (a count, then the segments).
template <class T> T *chunk_sums(const ScatterPlan &p) {
  return reinterpret_cast<T *>(static_cast<unsigned char *>(p.contrib) + sums_offset(p.n + p.region, p.kind));
}
int *warp_list(const ScatterPlan &p) {
  auto *bytes = static_cast<unsigned char *>(p.contrib);
  return reinterpret_cast<int *>(bytes + list_offset(p.n + p.region, p.chunks, p.kind));
}

// One thread per short segment: the sum of its contributions (in their own
// slots, gathered in item order) from the first (not from zero, which would
// turn a lone -0.0 into +0.0), added to the element once. A long segment goes
// to a list (count first) for a warp, or, past kBlockSegment, is left to the
// chunks: the hot elements of a power law would leave one thread summing tens
// of thousands of terms. Each element gets one add a launch: the same bits as
// a plain add; atomic because launches on other streams may update A at the
// same time, as the original kernel's atomics allow.
template <class T>
__global__ void __launch_bounds__(kThreads)
    execute_segments(const unsigned *targets, const int *first, const int *threads, long long segments,
                     unsigned long long extent, const T *contrib, T *base, int *list) {
  const long long s = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x;
  if (s >= segments)
    return;
  const unsigned target = targets[s];
  if (target >= extent) // indices outside A: the kernel's sentinels
    return;
  int i = first[s];
  const int end = first[s + 1];
  if (end - i > kShortSegment) {
    if (end - i <= kBlockSegment)
      list[1 + atomicAdd(list, 1)] = static_cast<int>(s); // (each is summed alone: any order)
    return;
  }
  T sum = contrib[threads[i]];
  // Unrolled, a long run keeps several loads in flight; the sum stays in order.
#pragma unroll 8
  for (++i; i < end; ++i)
    sum += contrib[threads[i]];
  atomicAdd(&base[target], sum);
}

// A warp per listed segment, the warps striding over the list: lane j sums
// slots j, j + 32, ... of the segment's region (it has at least one), then
// the lanes' sums meet in a fixed tree. The order depends only on the
// segment's length, never on scheduling.
template <class T>
__global__ void __launch_bounds__(kThreads)
    execute_warp_segments(const unsigned *targets, const int *first, const int *region_first, long long items,
                          const T *contrib, T *base, const int *list) {
  const int lane = threadIdx.x % kWarp;
  const long long warps = static_cast<long long>(gridDim.x) * (kThreads / kWarp);
  const int count = list[0];
  for (long long k = (static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x) / kWarp; k < count; k += warps) {
    const int s = list[1 + k];
    const int length = first[s + 1] - first[s];
    const T *c = contrib + items + region_first[s];
    T mine = c[lane];
    // Unrolled, each lane keeps several loads in flight; its sum stays in order.
#pragma unroll 16
    for (int i = lane + kWarp; i < length; i += kWarp)
      mine += c[i];
    for (int width = kWarp / 2; width > 0; width /= 2)
      mine += __shfl_down_sync(0xffffffffu, mine, width);
    if (lane == 0)
      atomicAdd(&base[targets[s]], mine);
  }
}

// A block per chunk of the segments cut in chunks, the blocks striding over
// the chunks: thread i sums slots i, i + kThreads, ... of the chunk, then the
// partial sums meet in a fixed tree; the chunk's sum goes to sums[c]. (The
// chunks of indices outside A are skipped, as their sums would be.)
template <class T>
__global__ void __launch_bounds__(kThreads)
    sum_chunks(const unsigned *targets, const int *first, const int *region_first, const int *chunk_first,
               const int *chunk_segment, long long chunks, unsigned long long extent, long long items,
               const T *contrib, T *sums) {
  __shared__ T partial[kThreads];
  for (long long c = blockIdx.x; c < chunks; c += gridDim.x) {
    // The segment cut evenly: each of its chunks has kChunk / 2 items or more.
    const int s = chunk_segment[c];
    if (targets[s] >= extent) // the same for the whole block
      continue;
    const long long j = c - chunk_first[s], cuts = chunk_first[s + 1] - chunk_first[s];
    const long long total = first[s + 1] - first[s];
    const int begin = static_cast<int>(j * total / cuts), length = static_cast<int>((j + 1) * total / cuts) - begin;
    const T *in = contrib + items + region_first[s] + begin;
    T mine = in[threadIdx.x];
#pragma unroll 16
    for (int i = threadIdx.x + kThreads; i < length; i += kThreads)
      mine += in[i];
    partial[threadIdx.x] = mine;
    __syncthreads();
    for (int width = kThreads / 2; width > 0; width /= 2) {
      if (threadIdx.x < width)
        partial[threadIdx.x] += partial[threadIdx.x + width];
      __syncthreads();
    }
    if (threadIdx.x == 0)
      sums[c] = partial[0];
    __syncthreads(); // partial is the next chunk's
  }
}

// A thread per segment cut in chunks (at its first chunk): its chunks' sums in
// chunk order, added to the element once.
template <class T>
__global__ void __launch_bounds__(kThreads)
    add_chunk_sums(const unsigned *targets, const int *chunk_first, const int *chunk_segment, long long chunks,
                   unsigned long long extent, const T *sums, T *base) {
  const long long c = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x;
  if (c >= chunks)
    return;
  const int s = chunk_segment[c];
  if (chunk_first[s] != c || targets[s] >= extent)
    return;
  T sum = sums[c];
  for (int k = static_cast<int>(c) + 1; k < chunk_first[s + 1]; ++k)
    sum += sums[k];
  atomicAdd(&base[targets[s]], sum);
}

// Assignments: one thread a segment, from its highest item down to the first
// that was written (usually the highest: every thread that reached its store).
template <class T>
__global__ void __launch_bounds__(kThreads)
    execute_assignments(const unsigned *targets, const int *first, const int *threads, const int *region_first,
                        long long segments, unsigned long long extent, long long items, const T *contrib,
                        const unsigned char *written, T *base) {
  const long long s = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x;
  if (s >= segments)
    return;
  const unsigned target = targets[s];
  if (target >= extent)
    return;
  const int begin = first[s], end = first[s + 1];
  const bool in_region = end - begin > kShortSegment;
  for (int i = end - 1; i >= begin; --i) {
    const long long slot = in_region ? items + region_first[s] + (i - begin) : threads[i];
    if (written[slot]) {
      base[target] = contrib[slot];
      return;
    }
  }
}

unsigned blocks_for(long long threads) { return static_cast<unsigned>((threads + kThreads - 1) / kThreads); }

template <class T> cudaError_t launch_typed(const ScatterPlan &p, cudaStream_t stream) {
  T *base = static_cast<T *>(p.target) + p.target_first;
  const T *contrib = static_cast<const T *>(p.contrib);
  if (p.written) {
    execute_assignments<T><<<blocks_for(p.segments), kThreads, 0, stream>>>(
        p.targets, p.first, p.threads, p.region_first, p.segments, p.extent, p.n, contrib, p.written, base);
    return cudaPeekAtLastError();
  }
  int *list = warp_list(p);
  execute_segments<T><<<blocks_for(p.segments), kThreads, 0, stream>>>(p.targets, p.first, p.threads, p.segments,
                                                                       p.extent, contrib, base, list);
  if (const cudaError_t e = cudaPeekAtLastError(); e != cudaSuccess)
    return e;
  // Enough warps and blocks to fill the GPU; those beyond the list's count return at once.
  const long long fill = 8LL * std::max(p.sms, 1);
  if (const long long most = most_warp_segments(p.region); most > 0) {
    const unsigned blocks = static_cast<unsigned>(std::min<long long>(blocks_for(most * kWarp), fill));
    execute_warp_segments<T><<<blocks, kThreads, 0, stream>>>(p.targets, p.first, p.region_first, p.n, contrib, base,
                                                              list);
    if (const cudaError_t e = cudaPeekAtLastError(); e != cudaSuccess)
      return e;
  }
  if (p.chunks > 0) {
    T *sums = chunk_sums<T>(p);
    sum_chunks<T><<<static_cast<unsigned>(std::min(p.chunks, fill)), kThreads, 0, stream>>>(
        p.targets, p.first, p.region_first, p.chunk_first, p.chunk_segment, p.chunks, p.extent, p.n, contrib, sums);
    if (const cudaError_t e = cudaPeekAtLastError(); e != cudaSuccess)
      return e;
    add_chunk_sums<T><<<blocks_for(p.chunks), kThreads, 0, stream>>>(p.targets, p.chunk_first, p.chunk_segment,
                                                                     p.chunks, p.extent, sums, base);
    return cudaPeekAtLastError();
  }
  return cudaSuccess;
}

} // namespace

std::size_t contributions_bytes(long long items, long long region, long long chunks, int kind, bool assign) {
  const long long slots = items + region;
  if (assign)
    return written_offset(items, region, kind) + static_cast<std::size_t>(slots);
  const long long listed = 1 + most_warp_segments(region);
  return list_offset(slots, chunks, kind) + static_cast<std::size_t>(listed) * sizeof(int);
}

std::size_t written_offset(long long items, long long region, int kind) { return sums_offset(items + region, kind); }

cudaError_t launch_executor(const ScatterPlan &plan, cudaStream_t stream) {
  if (plan.segments <= 0)
    return cudaSuccess;
  switch (plan.kind) {
  case kScatterF32:
    return launch_typed<float>(plan, stream);
  case kScatterF64:
    return launch_typed<double>(plan, stream);
  case kScatterI32:
    return launch_typed<int>(plan, stream);
  default:
    return cudaErrorInvalidValue;
  }
}

} // namespace detail
} // namespace irregfix
