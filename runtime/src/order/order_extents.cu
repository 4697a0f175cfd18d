// irregfix runtime: passes over index arrays that check them before an order
// is worth computing: values within [0, n), their extent (the pass over a
// matrix's rows is the order's, in order.cu). See order.h.
#include "order.h"

#include "access_list.cuh"
#include "extent.cuh"
#include "order_kernels.cuh"
#include "remap_dispatch.cuh"

#include <cub/block/block_reduce.cuh>

#include <climits>

namespace irregfix {
namespace detail {
namespace {

using order_kernels::kThreads;

__global__ void __launch_bounds__(kThreads)
    count_kernel(const void *arr, int kind, long long first, long long last, long long n,
                 unsigned long long *__restrict__ count) {
  unsigned long long c = 0;
  const long long stride = static_cast<long long>(gridDim.x) * kThreads;
  for (long long k = first + static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x; k < last; k += stride) {
    long long v = 0;
    c += load_index(arr, kind, k, &v) && v >= 0 && v < n;
  }
  using Reduce = cub::BlockReduce<unsigned long long, kThreads>;
  __shared__ typename Reduce::TempStorage temp;
  const unsigned long long sum = Reduce(temp).Sum(c);
  if (threadIdx.x == 0)
    atomicAdd(count, sum);
}

// out[0] += values outside [0, n); out[1], out[2]: least and greatest value.
__global__ void __launch_bounds__(kThreads)
    extent_kernel(const int *__restrict__ arr, long long first, long long last, long long n,
                  long long *__restrict__ out) {
  ExtentSeen seen;
  const long long stride = static_cast<long long>(gridDim.x) * kThreads;
  for (long long k = first + static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x; k < last; k += stride)
    seen.see(arr[k], n);
  add_extent(seen, out);
}

} // namespace

cudaError_t count_thread_indices(const void *arr, int kind, long long first, long long last, long long n,
                                 unsigned long long *count, cudaStream_t stream) {
  if (last <= first)
    return cudaSuccess;
  count_kernel<<<grid_for(last - first, kThreads), kThreads, 0, stream>>>(arr, kind, first, last, n, count);
  return cudaPeekAtLastError();
}

cudaError_t index_extent(const int *arr, long long first, long long last, long long n, long long *out,
                         cudaStream_t stream) {
  extent_init_kernel<<<1, 1, 0, stream>>>(out);
  cudaError_t e = cudaPeekAtLastError();
  if (e != cudaSuccess || last <= first)
    return e;
  extent_kernel<<<grid_for(last - first, kThreads), kThreads, 0, stream>>>(arr, first, last, n, out);
  return cudaPeekAtLastError();
}

} // namespace detail
} // namespace irregfix
