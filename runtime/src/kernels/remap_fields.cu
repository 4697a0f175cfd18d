// irregfix runtime: copies split into field pieces (field_plan.h): gathers and
// neighbour lists whose copy holds only the fields the kernel reads. One
// module for every index type: a program loads it only when it has such a site.
#include "field_plan.h"
#include "remap_dispatch.cuh"

namespace irregfix {
namespace detail {
namespace {

// The pieces of the element at `elem` into slot `slot` of each piece's copy:
// a vector load where the plan allows it, else word by word; one store a piece.
__device__ __forceinline__ void copy_pieces(const FieldPlan &plan, const unsigned *__restrict__ elem,
                                            const FieldOut &out, long long slot) {
  for (int q = 0; q < plan.pieces; ++q) {
    const int words = plan.words[q];
    unsigned w[4] = {0u, 0u, 0u, 0u};
    if (plan.vector[q] && words == 4) {
      const uint4 v = *reinterpret_cast<const uint4 *>(elem + plan.src[q][0]);
      w[0] = v.x, w[1] = v.y, w[2] = v.z, w[3] = v.w;
    } else if (plan.vector[q] && words == 2) {
      const uint2 v = *reinterpret_cast<const uint2 *>(elem + plan.src[q][0]);
      w[0] = v.x, w[1] = v.y;
    } else {
#pragma unroll
      for (int i = 0; i < 4; ++i)
        if (i < words && plan.src[q][i] != kPadWord)
          w[i] = elem[plan.src[q][i]];
    }
    if (words == 4)
      static_cast<uint4 *>(out.p[q])[slot] = make_uint4(w[0], w[1], w[2], w[3]);
    else if (words == 2)
      static_cast<uint2 *>(out.p[q])[slot] = make_uint2(w[0], w[1]);
    else
      static_cast<unsigned *>(out.p[q])[slot] = w[0];
  }
}

template <class Idx>
__global__ void __launch_bounds__(256)
    gather_fields_kernel(const Idx *__restrict__ B, long long first, long long last,
                         const unsigned *__restrict__ A, long long lo, long long hi, FieldPlan plan,
                         FieldOut out) {
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long t = first + static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; t < last;
       t += stride) {
    long long i;
    if (idx_to_ll(B[t], &i) && i >= lo && i < hi)
      copy_pieces(plan, A + i * plan.elem_words, out, t);
  }
}

// As neighbors_kernel: thread per t, its slots in batches (for_each_neighbor);
// a warp's stores at one j are contiguous in each piece's copy.
template <class Idx>
__global__ void __launch_bounds__(256)
    neighbors_fields_kernel(const Idx *__restrict__ NB, long long sj, long long st, long long jmax,
                            const void *__restrict__ counts, int c_kind, long long first,
                            long long last, long long jb, long long je, const unsigned *__restrict__ A,
                            long long lo, long long hi, FieldPlan plan, FieldOut out) {
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long t = first + static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; t < last;
       t += stride)
    for_each_neighbor<4>(NB, sj, st, jmax, counts, c_kind, t, jb, je, lo, hi, [&](long long j, long long i) {
      copy_pieces(plan, A + i * plan.elem_words, out, ell_slot(t, j, jmax));
    });
}

} // namespace

cudaError_t remap_gather_fields(const void *B, int b_kind, Rows rows, const void *A, long long lo,
                                long long hi, const FieldPlan &plan, const FieldOut &out,
                                cudaStream_t stream) {
  if (rows.count() == 0 || !rows.has_first_iteration())
    return cudaSuccess;
  const FieldPlan p = aligned_for(plan, reinterpret_cast<std::uintptr_t>(A));
  return with_index_type(b_kind, [&](auto tag) -> cudaError_t {
    using Idx = std::remove_const_t<std::remove_pointer_t<decltype(tag)>>;
    gather_fields_kernel<Idx><<<grid_for(rows.count(), 256), 256, 0, stream>>>(
        static_cast<const Idx *>(B), rows.first, rows.last, static_cast<const unsigned *>(A), lo, hi, p, out);
    return cudaPeekAtLastError();
  });
}

cudaError_t remap_neighbors_fields(const void *NB, int nb_kind, long long sj, long long st,
                                   long long jmax, const void *counts, int counts_kind, long long n,
                                   Rows rows, const void *A, long long lo, long long hi,
                                   const FieldPlan &plan, const FieldOut &out, cudaStream_t stream) {
  bool nothing = false;
  if (const cudaError_t e = check_neighbor_copy(rows, n, jmax, counts, counts_kind, &nothing);
      e != cudaSuccess || nothing)
    return e;
  const FieldPlan p = aligned_for(plan, reinterpret_cast<std::uintptr_t>(A));
  return with_index_type(nb_kind, [&](auto tag) -> cudaError_t {
    using Idx = std::remove_const_t<std::remove_pointer_t<decltype(tag)>>;
    neighbors_fields_kernel<Idx><<<grid_for(rows.count(), 256), 256, 0, stream>>>(
        static_cast<const Idx *>(NB), sj, st, jmax, counts, counts_kind, rows.first, rows.last,
        rows.iter_first, rows.iter_last, static_cast<const unsigned *>(A), lo, hi, p, out);
    return cudaPeekAtLastError();
  });
}

} // namespace detail
} // namespace irregfix
