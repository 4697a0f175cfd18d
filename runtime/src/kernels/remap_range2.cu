// irregfix runtime: two-level range sites' rows kernel, and the dispatch of
// their copies to the modules of remap_range2_kernels.cuh. See remap.cuh.
#include "remap_dispatch.cuh"

namespace irregfix {
namespace detail {
namespace {

constexpr int kRowsBlock = 256;

__global__ void init_summary(long long *summary) {
  summary[kR2MinLen] = LLONG_MAX;
  summary[kR2MaxLen] = LLONG_MIN;
  summary[kR2MinStart] = LLONG_MAX;
  summary[kR2MaxEnd] = LLONG_MIN;
  summary[kR2SumLen] = 0;
}

template <class Idx>
__global__ void __launch_bounds__(kRowsBlock)
    range2_rows_kernel(const Idx *__restrict__ B, const void *__restrict__ C, int c_kind,
                       long long n, long long rlo, long long rhi, long long *__restrict__ start,
                       int *__restrict__ len, long long *__restrict__ summary) {
  __shared__ long long red[kR2Slots];
  if (threadIdx.x < kR2Slots)
    red[threadIdx.x] = threadIdx.x == kR2SumLen ? 0
                       : (threadIdx.x == kR2MinLen || threadIdx.x == kR2MinStart) ? LLONG_MAX
                                                                                   : LLONG_MIN;
  __syncthreads();
  long long mn_len = LLONG_MAX, mx_len = LLONG_MIN, mn_s = LLONG_MAX, mx_e = LLONG_MIN;
  unsigned long long sum = 0;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; t < n;
       t += stride) {
    long long r = 0, lo = 0, hi = 0;
    int l;
    if (!load_index(C, c_kind, t, &r) || r < rlo || r >= rhi - 1) {
      l = -2; // C[t] does not index B: B is not read
    } else if (!idx_to_ll(B[r], &lo) || !idx_to_ll(B[r + 1], &hi) || hi < lo ||
               static_cast<unsigned long long>(hi) - static_cast<unsigned long long>(lo) >
                   static_cast<unsigned long long>(INT_MAX)) {
      l = -1;
    } else {
      l = static_cast<int>(hi - lo);
    }
    start[t] = l >= 0 ? lo : 0;
    len[t] = l;
    mn_len = l < mn_len ? l : mn_len;
    mx_len = l > mx_len ? l : mx_len;
    if (l > 0) {
      sum += static_cast<unsigned long long>(l);
      mn_s = lo < mn_s ? lo : mn_s;
      mx_e = hi > mx_e ? hi : mx_e;
    }
  }
  mn_len = warp_min(mn_len);
  mx_len = warp_max(mx_len);
  mn_s = warp_min(mn_s);
  mx_e = warp_max(mx_e);
  for (int o = 16; o > 0; o >>= 1)
    sum += __shfl_down_sync(0xffffffffu, sum, o);
  if ((threadIdx.x & 31) == 0) {
    atomicAdd(reinterpret_cast<unsigned long long *>(&red[kR2SumLen]), sum);
    atomicMin(&red[kR2MinLen], mn_len);
    atomicMax(&red[kR2MaxLen], mx_len);
    atomicMin(&red[kR2MinStart], mn_s);
    atomicMax(&red[kR2MaxEnd], mx_e);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicMin(&summary[kR2MinLen], red[kR2MinLen]);
    atomicMax(&summary[kR2MaxLen], red[kR2MaxLen]);
    atomicMin(&summary[kR2MinStart], red[kR2MinStart]);
    atomicMax(&summary[kR2MaxEnd], red[kR2MaxEnd]);
    atomicAdd(reinterpret_cast<unsigned long long *>(&summary[kR2SumLen]),
              static_cast<unsigned long long>(red[kR2SumLen]));
  }
}

} // namespace

cudaError_t range2_rows(const void *B, int b_kind, const void *C, int c_kind, long long n,
                        long long rlo, long long rhi, long long *start, int *len,
                        long long *summary, cudaStream_t stream) {
  if (c_kind < kIndexI32 || c_kind > kIndexU64)
    return cudaErrorInvalidValue;
  init_summary<<<1, 1, 0, stream>>>(summary);
  cudaError_t e = cudaPeekAtLastError();
  if (e != cudaSuccess || n <= 0)
    return e;
  return with_index_type(b_kind, [&](auto tag) -> cudaError_t {
    using Idx = std::remove_const_t<std::remove_pointer_t<decltype(tag)>>;
    range2_rows_kernel<Idx><<<grid_for(n, kRowsBlock), kRowsBlock, 0, stream>>>(
        static_cast<const Idx *>(B), C, c_kind, n, rlo, rhi, start, len, summary);
    return cudaPeekAtLastError();
  });
}

cudaError_t remap_range2(const long long *start, const int *len, long long n, long long width, Rows rows,
                         const void *A, std::size_t elem_size, void *out, cudaStream_t stream) {
  if (rows.first < 0 || rows.last > n)
    return cudaErrorInvalidValue;
  if (rows.count() == 0)
    return cudaSuccess;
  int k = 1;
  const WordKind w = pick_word(A, elem_size, &k);
  if (word_class(w) == kPlainWords)
    return Range2Module<kPlainWords>::copy(start, len, width, rows, A, w, k, out, stream);
  return Range2Module<kCompositeWords>::copy(start, len, width, rows, A, w, k, out, stream);
}

} // namespace detail
} // namespace irregfix
