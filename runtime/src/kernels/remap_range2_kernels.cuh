// irregfix runtime: the copy kernel of two-level range sites and its typed
// launch, Range2Module (see remap_dispatch.cuh): each instantiation is one
// generated module, range2[_composite].cu (remap_module.cu.in).
#pragma once

#include "remap_dispatch.cuh"

namespace irregfix {
namespace detail {
namespace {

// Thread per row: the reads of a row are contiguous (and L1-cached across
// iterations), the writes of a warp at one iter are contiguous.
template <class W, int K>
__global__ void __launch_bounds__(256)
    range2_kernel(const long long *__restrict__ start, const int *__restrict__ len, long long width,
                  long long first, long long last, int ib, int ie, const W *__restrict__ A,
                  int k_rt, W *__restrict__ out) {
  const int k = K ? K : k_rt;
  const long long col = 32LL * k; // ell_slot's step from one iteration to the next
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long t = first + static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
       t < last; t += stride) {
    const int L = len[t];
    const int to = L < ie ? L : ie;
    const W *src = A + start[t] * k;
    W *dst = out + ell_slot(t, 0, width) * k;
#pragma unroll 4
    for (int it = ib; it < to; ++it)
      for (int j = 0; j < k; ++j)
        dst[it * col + j] = src[static_cast<long long>(it) * k + j];
  }
}

} // namespace

template <WordClass C>
cudaError_t Range2Module<C>::copy(const long long *start, const int *len, long long width, Rows rows,
                                  const void *A, WordKind w, int k, void *out, cudaStream_t stream) {
  return with_word_of_class<C>(w, [&](auto wtag, auto ktag) -> cudaError_t {
    using W = std::remove_pointer_t<decltype(wtag)>;
    range2_kernel<W, decltype(ktag)::value><<<grid_for(rows.count(), 256), 256, 0, stream>>>(
        start, len, width, rows.first, rows.last, iteration_int(rows.iter_first),
        iteration_int(rows.iter_last), static_cast<const W *>(A), k, static_cast<W *>(out));
    return cudaPeekAtLastError();
  });
}

} // namespace detail
} // namespace irregfix
