// irregfix runtime: range sites' SELL-32 slice offsets and launch shape, and
// the dispatch of their lengths and copies to the modules of
// remap_range_kernels.cuh. This file's kernels are CUB's scan's: its module is
// loaded by builds that count SELL-32 slices. See remap.cuh.
#include "remap_dispatch.cuh"

#include <cub/cub.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

namespace irregfix {
namespace detail {
namespace {

// Width of SELL-32 slice s in cells: 32 * the longest row of the slice; 0 for
// s == nslices (so that the exclusive scan's last element is the total).
struct SliceCells {
  const int *len;
  long long n;
  __host__ __device__ long long operator()(long long s) const {
    const long long t0 = s * 32;
    int m = 0;
    for (long long t = t0; t < t0 + 32 && t < n; ++t) {
      const int l = len[t];
      m = l > m ? l : m;
    }
    return 32LL * m;
  }
};

} // namespace

cudaError_t range_lengths(const void *B, int b_kind, long long n, int *len, int *minmax,
                          long long *bounds, cudaStream_t stream) {
  return with_index_type(b_kind, [&](auto tag) -> cudaError_t {
    using Idx = TagType<decltype(tag)>;
    return LengthsModule<Idx>::lengths(static_cast<const Idx *>(B), n, len, minmax, bounds, stream);
  });
}

RangePlan plan_range(long long nnz, long long n, std::size_t elem_size, int rows_per_block) {
  RangePlan p;
  p.rows_per_block = kRemapRows;
  p.segment_bytes = 4096;
  if (n <= 0 || nnz <= 0 || elem_size == 0)
    return p;
  const double row_bytes = static_cast<double>(nnz) / static_cast<double>(n) *
                           static_cast<double>(elem_size);
  // Enough rows that a block's average segment is >= 8 KiB (bytes in flight per
  // block), up to kMaxRowsPerBlock.
  if (rows_per_block > 0)
    p.rows_per_block = rows_per_block;
  else
    while (p.rows_per_block < kMaxRowsPerBlock && row_bytes * p.rows_per_block < 8192.0)
      p.rows_per_block *= 2;
  // Room for about twice the average segment, within the 48 KiB a block may use
  // without opting in (the offsets take (rows + 1) * 8 bytes of it).
  const std::size_t offsets = (static_cast<std::size_t>(p.rows_per_block) + 1) * 8 + 16;
  const std::size_t hi = 48 * 1024 - offsets;
  const double want = 2.0 * row_bytes * p.rows_per_block + 1024.0;
  std::size_t b = want >= static_cast<double>(hi) ? hi : static_cast<std::size_t>(want);
  b = b / 16 * 16;
  p.segment_bytes = b < 4096 ? 4096 : b;
  return p;
}

cudaError_t remap_range(const void *B, int b_kind, long long n, long long width, Rows rows, const void *A,
                        std::size_t elem_size, void *out, const RangePlan &plan,
                        cudaStream_t stream) {
  if (rows.first < 0 || rows.last > n)
    return cudaErrorInvalidValue;
  if (rows.count() == 0)
    return cudaSuccess;
  if (plan.rows_per_block < kRemapRows || plan.rows_per_block > kMaxRowsPerBlock ||
      plan.rows_per_block % kRemapRows != 0)
    return cudaErrorInvalidValue;
  return with_index_and_word_class(b_kind, A, elem_size, [&](auto tag, auto cls, WordKind w,
                                                             int k) {
    using Idx = TagType<decltype(tag)>;
    return RangeModule<Idx, decltype(cls)::value>::range(static_cast<const Idx *>(B), width, rows, A, w,
                                                         k, out, plan, stream);
  });
}

cudaError_t sell_slices(const int *len, long long n, long long *slice_start, void *temp,
                        std::size_t *temp_bytes, cudaStream_t stream) {
  const long long items = (n + 31) / 32 + 1;
  auto in = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0),
                                            SliceCells{len, n});
  return cub::DeviceScan::ExclusiveSum(temp, *temp_bytes, in, slice_start, items, stream);
}

cudaError_t remap_sell(const void *B, int b_kind, Rows rows, const int *len,
                       const long long *slice_start, const int *perm, const void *A,
                       std::size_t elem_size, void *out, cudaStream_t stream) {
  if (rows.count() == 0)
    return cudaSuccess;
  return with_index_and_word_class(b_kind, A, elem_size, [&](auto tag, auto cls, WordKind w,
                                                             int k) {
    using Idx = TagType<decltype(tag)>;
    return RangeModule<Idx, decltype(cls)::value>::sell(static_cast<const Idx *>(B), rows, len,
                                                        slice_start, perm, A, w, k, out, stream);
  });
}

} // namespace detail
} // namespace irregfix
