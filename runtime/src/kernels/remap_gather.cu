// irregfix runtime: gathers, one and two levels: the composition of two index
// arrays, and the dispatch of the copies to the modules of
// remap_gather_kernels.cuh. See remap.cuh.
#include "remap_dispatch.cuh"

namespace irregfix {
namespace detail {
namespace {

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
  return with_index_and_word_class(b_kind, A, elem_size, [&](auto tag, auto cls, WordKind w,
                                                             int k) {
    using Idx = TagType<decltype(tag)>;
    return GatherModule<Idx, decltype(cls)::value>::gather(static_cast<const Idx *>(B), rows, A, w,
                                                           k, lo, hi, out, stream);
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
