// irregfix runtime: gather_in_order's kernels (order.h), defined in every unit
// that includes this header: a unit is a module of its own, loaded at the
// first launch of one of its kernels with the device idle (0.2 ms and more
// each on an H100), so the domain's moves carry their own copy rather than
// load the layouts' gathers beside them.
#pragma once

#include "order_kernels.cuh"
#include "remap_dispatch.cuh"

#include <cstddef>
#include <cuda_runtime.h>
#include <vector_types.h>

namespace irregfix {
namespace detail {
namespace {

// out[p] = x[perm[p]] for perm[p] in [lo, hi], elements of k words W: writes
// in order, reads scattered (measured cheaper than the reverse, whose
// scattered 4-byte stores cost 2.2x as much on an H100).
template <class W>
__global__ void __launch_bounds__(order_kernels::kThreads)
    gather_order_kernel(const int *__restrict__ perm, long long n, long long lo, long long hi,
                        const W *__restrict__ x, int k, W *__restrict__ out) {
  const long long stride = static_cast<long long>(gridDim.x) * order_kernels::kThreads;
  for (long long p = static_cast<long long>(blockIdx.x) * order_kernels::kThreads + threadIdx.x; p < n;
       p += stride) {
    const long long e = perm[p];
    if (e < lo || e > hi)
      continue;
    for (int j = 0; j < k; ++j)
      out[p * k + j] = x[e * k + j];
  }
}

template <class W>
cudaError_t launch_gather_order(const int *perm, long long n, long long lo, long long hi, const void *x, int k,
                                void *out, cudaStream_t stream) {
  gather_order_kernel<W><<<grid_for(n, order_kernels::kThreads), order_kernels::kThreads, 0, stream>>>(
      perm, n, lo, hi, static_cast<const W *>(x), k, static_cast<W *>(out));
  return cudaPeekAtLastError();
}

// gather_in_order with this unit's kernels.
inline cudaError_t gather_in_order_here(const int *perm, long long n, long long lo, long long hi, const void *x,
                                        std::size_t elem_size, void *out, cudaStream_t stream) {
  if (n <= 0 || hi < lo)
    return cudaSuccess;
  int k = 1;
  switch (pick_word(x, elem_size, &k)) {
  case kW1: case kW1xK: return launch_gather_order<unsigned char>(perm, n, lo, hi, x, k, out, stream);
  case kW2: return launch_gather_order<unsigned short>(perm, n, lo, hi, x, k, out, stream);
  case kW4: case kW4xK: return launch_gather_order<unsigned>(perm, n, lo, hi, x, k, out, stream);
  case kW8: case kW8xK: return launch_gather_order<unsigned long long>(perm, n, lo, hi, x, k, out, stream);
  default: return launch_gather_order<uint4>(perm, n, lo, hi, x, k, out, stream);
  }
}

} // namespace
} // namespace detail
} // namespace irregfix
