// irregfix runtime: the executor of scatter sites. See scatter.h.
#include "scatter.h"

namespace irregfix {
namespace detail {
namespace {

constexpr int kThreads = 256;

// One thread per segment. The sum starts from the first contribution (not
// from zero, which would turn a lone -0.0 into +0.0) and follows thread order,
// so the result does not depend on how threads or blocks are scheduled.
template <class T>
__global__ void __launch_bounds__(kThreads)
    execute_segments(const unsigned *targets, const int *first, const int *threads, long long segments,
                     unsigned long long extent, const T *contrib, T *base) {
  const long long s = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x;
  if (s >= segments)
    return;
  const unsigned target = targets[s];
  if (target >= extent) // indices outside A: the kernel's sentinels
    return;
  const int end = first[s + 1];
  int i = first[s];
  T sum = contrib[threads[i]];
  // Unrolled, a long segment keeps several loads in flight; the sum itself stays in thread order.
#pragma unroll 8
  for (++i; i < end; ++i)
    sum += contrib[threads[i]];
  // Each element is added to once in a launch: the same bits as a plain add.
  // Atomic because launches on other streams may update A at the same time,
  // as the original kernel's atomics allow.
  atomicAdd(&base[target], sum);
}

template <class T> cudaError_t launch_typed(const ScatterPlan &p, cudaStream_t stream) {
  const unsigned blocks = static_cast<unsigned>((p.segments + kThreads - 1) / kThreads);
  T *base = static_cast<T *>(p.target) + p.target_first;
  execute_segments<T><<<blocks, kThreads, 0, stream>>>(p.targets, p.first, p.threads, p.segments, p.extent,
                                                       static_cast<const T *>(p.contrib), base);
  return cudaPeekAtLastError();
}

} // namespace

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
