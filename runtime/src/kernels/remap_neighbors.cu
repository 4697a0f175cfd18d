// irregfix runtime: neighbour-list gathers: the dispatch of the copies to the
// modules of remap_neighbors_kernels.cuh. See remap.cuh.
#include "remap_dispatch.cuh"

namespace irregfix {
namespace detail {

cudaError_t remap_neighbors(const void *NB, int nb_kind, long long sj, long long st,
                            long long jmax, const void *counts, int counts_kind, long long n,
                            Rows rows, const void *A, std::size_t elem_size, long long lo,
                            long long hi, void *out, cudaStream_t stream) {
  bool nothing = false;
  if (const cudaError_t e = check_neighbor_copy(rows, n, jmax, counts, counts_kind, &nothing);
      e != cudaSuccess || nothing)
    return e;
  return with_index_and_word_class(nb_kind, A, elem_size, [&](auto tag, auto cls, WordKind w,
                                                              int k) {
    using Idx = TagType<decltype(tag)>;
    return NeighborsModule<Idx, decltype(cls)::value>::neighbors(
        static_cast<const Idx *>(NB), sj, st, jmax, counts, counts_kind, rows, A, w, k, lo, hi,
        out, stream);
  });
}

} // namespace detail
} // namespace irregfix
