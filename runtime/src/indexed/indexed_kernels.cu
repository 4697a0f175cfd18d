// irregfix runtime: the reductions of indexed copies. See indexed_kernels.h.
#include "indexed_kernels.h"

#include <cub/cub.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <climits>

namespace irregfix {
namespace detail {
namespace {

struct LengthOf {
  const int *len;
  __host__ __device__ LengthSummary operator()(long long t) const {
    const long long l = len[t] > 0 ? len[t] : 0;
    return LengthSummary{l, l > 0 ? 1 : 0, l};
  }
};

struct AddLengths {
  __host__ __device__ LengthSummary operator()(const LengthSummary &a, const LengthSummary &b) const {
    return LengthSummary{a.sum + b.sum, a.rows + b.rows, a.max > b.max ? a.max : b.max};
  }
};

struct Bounds {
  long long lo, hi;
};

// An index as its own bounds; outside [lo, hi) (a sentinel, or a slot never
// filled) the reduction's identity.
struct BoundsOf {
  const long long *idx;
  long long lo, hi;
  __host__ __device__ Bounds operator()(long long i) const {
    const long long v = idx[i];
    return v >= lo && v < hi ? Bounds{v, v} : Bounds{LLONG_MAX, LLONG_MIN};
  }
};

struct JoinBounds {
  __host__ __device__ Bounds operator()(const Bounds &a, const Bounds &b) const {
    return Bounds{a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi};
  }
};

} // namespace

cudaError_t summarize_lengths(const int *len, long long n, LengthSummary *out, void *temp,
                              std::size_t *temp_bytes, cudaStream_t stream) {
  auto in = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), LengthOf{len});
  return cub::DeviceReduce::Reduce(temp, *temp_bytes, in, out, n, AddLengths{}, LengthSummary{0, 0, 0},
                                   stream);
}

cudaError_t valid_index_bounds(const long long *idx, long long cells, long long lo, long long hi,
                               long long *out, void *temp, std::size_t *temp_bytes,
                               cudaStream_t stream) {
  static_assert(sizeof(Bounds) == 2 * sizeof(long long), "out holds a Bounds");
  auto in = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), BoundsOf{idx, lo, hi});
  return cub::DeviceReduce::Reduce(temp, *temp_bytes, in, reinterpret_cast<Bounds *>(out), cells,
                                   JoinBounds{}, Bounds{LLONG_MAX, LLONG_MIN}, stream);
}

} // namespace detail
} // namespace irregfix
