// irregfix runtime: the copy kernel of gathers and its typed launch,
// GatherModule (see remap_dispatch.cuh): each instantiation is one generated
// module, gather_<index>[_composite].cu (remap_module.cu.in).
#pragma once

#include "remap_dispatch.cuh"

namespace irregfix {
namespace detail {
namespace {

template <class Idx, class W, int K>
__global__ void gather_kernel(const Idx *__restrict__ B, long long first, long long last,
                              const W *__restrict__ A, int k_rt, long long lo, long long hi,
                              W *__restrict__ out) {
  const int k = K ? K : k_rt;
  long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long t = first + static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
       t < last; t += stride) {
    long long b;
    if (!idx_to_ll(B[t], &b) || b < lo || b >= hi)
      continue; // a sentinel the kernel guards: the slot is never read
    for (int j = 0; j < k; ++j)
      out[t * k + j] = A[b * k + j];
  }
}

} // namespace

template <class Idx, WordClass C>
cudaError_t GatherModule<Idx, C>::gather(const Idx *B, Rows rows, const void *A, WordKind w, int k,
                                         long long lo, long long hi, void *out,
                                         cudaStream_t stream) {
  return with_word_of_class<C>(w, [&](auto wtag, auto ktag) -> cudaError_t {
    using W = TagType<decltype(wtag)>;
    gather_kernel<Idx, W, decltype(ktag)::value><<<grid_for(rows.count(), 256), 256, 0, stream>>>(
        B, rows.first, rows.last, static_cast<const W *>(A), k, lo, hi, static_cast<W *>(out));
    return cudaPeekAtLastError();
  });
}

} // namespace detail
} // namespace irregfix
