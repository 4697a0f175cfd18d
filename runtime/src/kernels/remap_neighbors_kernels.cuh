// irregfix runtime: the copy kernel of neighbour-list gathers and its typed
// launch, NeighborsModule (see remap_dispatch.cuh): each instantiation is one
// generated module, neighbors_<index>[_composite].cu (remap_module.cu.in).
#pragma once

#include "remap_dispatch.cuh"

namespace irregfix {
namespace detail {
namespace {

// Thread per t, its slots in batches (for_each_neighbor); the writes of a
// warp at one j are contiguous.
template <class Idx, class W, int K>
__global__ void __launch_bounds__(256)
    neighbors_kernel(const Idx *__restrict__ NB, long long sj, long long st, long long jmax,
                     const void *__restrict__ counts, int c_kind,
                     long long first, long long last, long long jb, long long je,
                     const W *__restrict__ A, int k_rt,
                     long long lo, long long hi, W *__restrict__ out) {
  const int k = K ? K : k_rt;
  const long long col = 32LL * k; // ell_slot's step from one column to the next (jmax wide)
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long t = first + static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
       t < last; t += stride) {
    W *dst = out + ell_slot(t, 0, jmax) * k;
    for_each_neighbor<4>(NB, sj, st, jmax, counts, c_kind, t, jb, je, lo, hi, [&](long long j, long long i) {
      for (int w = 0; w < k; ++w)
        dst[j * col + w] = A[i * k + w];
    });
  }
}

} // namespace

template <class Idx, WordClass C>
cudaError_t NeighborsModule<Idx, C>::neighbors(const Idx *NB, long long sj, long long st,
                                               long long jmax, const void *counts, int counts_kind,
                                               Rows rows, const void *A, WordKind w,
                                               int k, long long lo, long long hi, void *out,
                                               cudaStream_t stream) {
  return with_word_of_class<C>(w, [&](auto wtag, auto ktag) -> cudaError_t {
    using W = TagType<decltype(wtag)>;
    neighbors_kernel<Idx, W, decltype(ktag)::value><<<grid_for(rows.count(), 256), 256, 0, stream>>>(
        NB, sj, st, jmax, counts, counts_kind, rows.first, rows.last, rows.iter_first,
        rows.iter_last, static_cast<const W *>(A), k, lo, hi, static_cast<W *>(out));
    return cudaPeekAtLastError();
  });
}

} // namespace detail
} // namespace irregfix
