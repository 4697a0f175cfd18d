// irregfix runtime: the executor of scatter sites. See scatter.h.
#include "scatter.h"

#include <algorithm>

namespace irregfix {
namespace detail {
namespace {

constexpr int kThreads = 256;
constexpr std::size_t kAlign = 256;

std::size_t list_offset(long long n, int kind) {
  return (static_cast<std::size_t>(n) * scatter_elem_size(kind) + kAlign - 1) / kAlign * kAlign;
}
// A long segment has more than kThreads contributions: at most n / (kThreads + 1) of them.
long long max_long_segments(long long n) { return n / (kThreads + 1); }

// One thread per segment of at most kThreads contributions: their sum from the
// first (not from zero, which would turn a lone -0.0 into +0.0), in thread
// order, added to the element once. A longer segment goes to the list (count
// first) for execute_long_segments: the hot elements of a power law would
// leave one thread summing tens of thousands of terms. Each element gets one
// add a launch: the same bits as a plain add; atomic because launches on other
// streams may update A at the same time, as the original kernel's atomics allow.
template <class T>
__global__ void __launch_bounds__(kThreads)
    execute_segments(const unsigned *targets, const int *first, const int *threads, long long segments,
                     unsigned long long extent, const T *contrib, T *base, int *long_list) {
  const long long s = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x;
  if (s >= segments)
    return;
  const unsigned target = targets[s];
  if (target >= extent) // indices outside A: the kernel's sentinels
    return;
  int i = first[s];
  const int end = first[s + 1];
  if (end - i > kThreads) {
    long_list[1 + atomicAdd(long_list, 1)] = static_cast<int>(s); // (each is summed alone: any order)
    return;
  }
  T sum = contrib[threads[i]];
  // Unrolled, a long run keeps several loads in flight; the sum stays in order.
#pragma unroll 8
  for (++i; i < end; ++i)
    sum += contrib[threads[i]];
  atomicAdd(&base[target], sum);
}

// A block per listed segment, the blocks striding over the list: thread j sums
// contributions j, j + kThreads, ... of the segment (it has at least one),
// then the partial sums meet in a fixed tree. The order depends only on the
// segment's length, never on scheduling.
template <class T>
__global__ void __launch_bounds__(kThreads)
    execute_long_segments(const unsigned *targets, const int *first, const int *threads, const T *contrib, T *base,
                          const int *long_list) {
  __shared__ T partial[kThreads];
  const int count = long_list[0];
  for (int k = blockIdx.x; k < count; k += gridDim.x) {
    const int s = long_list[1 + k];
    const int begin = first[s], end = first[s + 1];
    T mine = contrib[threads[begin + threadIdx.x]];
#pragma unroll 4
    for (int i = begin + threadIdx.x + kThreads; i < end; i += kThreads)
      mine += contrib[threads[i]];
    partial[threadIdx.x] = mine;
    __syncthreads();
    for (int width = kThreads / 2; width > 0; width /= 2) {
      if (threadIdx.x < width)
        partial[threadIdx.x] += partial[threadIdx.x + width];
      __syncthreads();
    }
    if (threadIdx.x == 0)
      atomicAdd(&base[targets[s]], partial[0]);
    __syncthreads(); // partial is the next segment's
  }
}

// Assignments: one thread a segment, from its highest item down to the first
// that was written (usually the highest: every thread that reached its store).
template <class T>
__global__ void __launch_bounds__(kThreads)
    execute_assignments(const unsigned *targets, const int *first, const int *threads, long long segments,
                        unsigned long long extent, const T *contrib, const unsigned char *written, T *base) {
  const long long s = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x;
  if (s >= segments)
    return;
  const unsigned target = targets[s];
  if (target >= extent)
    return;
  for (int i = first[s + 1] - 1; i >= first[s]; --i) {
    const int item = threads[i];
    if (written[item]) {
      base[target] = contrib[item];
      return;
    }
  }
}

template <class T> cudaError_t launch_typed(const ScatterPlan &p, cudaStream_t stream) {
  const unsigned blocks = static_cast<unsigned>((p.segments + kThreads - 1) / kThreads);
  T *base = static_cast<T *>(p.target) + p.target_first;
  const T *contrib = static_cast<const T *>(p.contrib);
  if (p.written) {
    execute_assignments<T><<<blocks, kThreads, 0, stream>>>(p.targets, p.first, p.threads, p.segments, p.extent,
                                                            contrib, p.written, base);
    return cudaPeekAtLastError();
  }
  int *long_list = reinterpret_cast<int *>(static_cast<unsigned char *>(p.contrib) + list_offset(p.n, p.kind));
  execute_segments<T><<<blocks, kThreads, 0, stream>>>(p.targets, p.first, p.threads, p.segments, p.extent, contrib,
                                                       base, long_list);
  if (const cudaError_t e = cudaPeekAtLastError(); e != cudaSuccess)
    return e;
  // Enough blocks to fill the GPU; those beyond the list's count return at once.
  const long long most = max_long_segments(p.n);
  if (most == 0)
    return cudaSuccess;
  const unsigned long_blocks = static_cast<unsigned>(std::min<long long>(most, 4LL * std::max(p.sms, 1)));
  execute_long_segments<T><<<long_blocks, kThreads, 0, stream>>>(p.targets, p.first, p.threads, contrib, base,
                                                                 long_list);
  return cudaPeekAtLastError();
}

} // namespace

std::size_t contributions_bytes(long long n, int kind, bool assign) {
  if (assign)
    return written_offset(n, kind) + static_cast<std::size_t>(n);
  return list_offset(n, kind) + static_cast<std::size_t>(1 + max_long_segments(n)) * sizeof(int);
}

std::size_t written_offset(long long n, int kind) { return list_offset(n, kind); }

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
