// irregfix runtime: passes over index arrays that check them before an order
// is worth computing: values within [0, n), their extent, the columns near
// their row. See order.h.
#include "order.h"

#include "access_list.cuh"
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

__global__ void extent_init_kernel(long long *out) {
  out[0] = 0;
  out[1] = LLONG_MAX;
  out[2] = LLONG_MIN;
  out[3] = 0;
}

struct LeastOf {
  __device__ long long operator()(long long a, long long b) const { return b < a ? b : a; }
};
struct GreatestOf {
  __device__ long long operator()(long long a, long long b) const { return b > a ? b : a; }
};

// A block's values seen: how many outside [0, n), the least and greatest, and
// how many near their row (rows_extent_kernel; 0 elsewhere).
struct ExtentSeen {
  long long outside = 0, lo = LLONG_MAX, hi = LLONG_MIN, near = 0;
  __device__ void see(long long v, long long n) {
    outside += v < 0 || v >= n;
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
  }
};

// The block's sums into out[0..3] (see extent_init_kernel).
__device__ void add_extent(const ExtentSeen &seen, long long *out) {
  using Reduce = cub::BlockReduce<long long, kThreads>;
  __shared__ typename Reduce::TempStorage temp;
  const long long o = Reduce(temp).Sum(seen.outside);
  __syncthreads();
  const long long l = Reduce(temp).Reduce(seen.lo, LeastOf());
  __syncthreads();
  const long long h = Reduce(temp).Reduce(seen.hi, GreatestOf());
  __syncthreads();
  const long long near = Reduce(temp).Sum(seen.near);
  if (threadIdx.x == 0) {
    atomicAdd(reinterpret_cast<unsigned long long *>(&out[0]), static_cast<unsigned long long>(o));
    atomicMin(&out[1], l);
    atomicMax(&out[2], h);
    atomicAdd(reinterpret_cast<unsigned long long *>(&out[3]), static_cast<unsigned long long>(near));
  }
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

// The same over a range graph's rows, one thread a row, and out[3] += the
// columns within `band` of their own row.
__global__ void __launch_bounds__(kThreads) rows_extent_kernel(AccessList a, long long band, long long *out) {
  ExtentSeen seen;
  const long long stride = static_cast<long long>(gridDim.x) * kThreads;
  for (long long t = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x; t < a.n; t += stride) {
    long long start = 0;
    const long long len = access_count(a, t, &start);
    for (long long j = 0; j < len; ++j) {
      long long v = 0;
      if (!load_index(a.idx, a.idx_kind, start + j, &v))
        continue;
      seen.see(v, a.n);
      seen.near += v >= t - band && v <= t + band;
    }
  }
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

cudaError_t rows_extent(const AccessList &a, long long band, long long *out, cudaStream_t stream) {
  if (a.kind != AccessList::kRange)
    return cudaErrorInvalidValue;
  extent_init_kernel<<<1, 1, 0, stream>>>(out);
  cudaError_t e = cudaPeekAtLastError();
  if (e != cudaSuccess || a.n <= 0)
    return e;
  rows_extent_kernel<<<grid_for(a.n, kThreads), kThreads, 0, stream>>>(a, band, out);
  return cudaPeekAtLastError();
}

} // namespace detail
} // namespace irregfix
