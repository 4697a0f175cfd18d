// irregfix runtime: remap kernels of gathers, one and two levels. See remap.cuh.
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


template <class Idx>
__global__ void compose_kernel(const Idx *__restrict__ B, const void *__restrict__ C, int c_kind,
                               long long n, long long rlo, long long rhi, long long *__restrict__ D) {
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; t < n;
       t += stride) {
    long long r = 0, d = LLONG_MIN;
    if (load_index(C, c_kind, t, &r) && r >= rlo && r < rhi && !idx_to_ll(B[r], &d))
      d = LLONG_MIN;
    D[t] = d;
  }
}

} // namespace

cudaError_t remap_gather(const void *B, int b_kind, Rows rows, const void *A,
                         std::size_t elem_size, long long lo, long long hi, void *out,
                         cudaStream_t stream) {
  if (rows.count() == 0 || !rows.has_first_iteration())
    return cudaSuccess;
  return with_index_and_word(b_kind, A, elem_size, [&](auto tag, auto wtag, auto ktag, int k) {
    using Idx = TagType<decltype(tag)>;
    using W = TagType<decltype(wtag)>;
    gather_kernel<Idx, W, decltype(ktag)::value><<<grid_for(rows.count(), 256), 256, 0, stream>>>(
        static_cast<const Idx *>(B), rows.first, rows.last, static_cast<const W *>(A), k, lo, hi,
        static_cast<W *>(out));
    return cudaPeekAtLastError();
  });
}

cudaError_t compose_indices(const void *B, int b_kind, const void *C, int c_kind, long long n,
                            long long rlo, long long rhi, long long *D, cudaStream_t stream) {
  if (n <= 0)
    return cudaSuccess;
  if (c_kind < kIndexI32 || c_kind > kIndexU64)
    return cudaErrorInvalidValue;
  return with_index_type(b_kind, [&](auto tag) -> cudaError_t {
    using Idx = std::remove_const_t<std::remove_pointer_t<decltype(tag)>>;
    compose_kernel<Idx><<<grid_for(n, 256), 256, 0, stream>>>(static_cast<const Idx *>(B), C,
                                                               c_kind, n, rlo, rhi, D);
    return cudaPeekAtLastError();
  });
}

} // namespace detail
} // namespace irregfix
