// irregfix runtime: the extent of index values (how many outside [0, n), the
// least and greatest, how many near their row), counted by a block and
// summed into four long longs; shared by the units whose passes count it
// (each its own module: order_kernels.cuh).
#pragma once

#include "order_kernels.cuh"

#include <cub/block/block_reduce.cuh>

#include <climits>

namespace irregfix {
namespace detail {
namespace {

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
  using Reduce = cub::BlockReduce<long long, order_kernels::kThreads>;
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

} // namespace
} // namespace detail
} // namespace irregfix
