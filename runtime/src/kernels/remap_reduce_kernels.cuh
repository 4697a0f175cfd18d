// irregfix runtime: CUB min and max of an index array, MinmaxModule (see
// remap_dispatch.cuh): each instantiation is one generated
// module, minmax_<index>.cu (remap_module.cu.in).
#pragma once

#include "remap_dispatch.cuh"

#include <cub/cub.cuh>

namespace irregfix {
namespace detail {

template <class Idx>
cudaError_t MinmaxModule<Idx>::minmax(const Idx *in, long long n, Idx *lo, Idx *hi, void *temp,
                                      std::size_t *temp_bytes, cudaStream_t stream) {
  if (!temp) {
    std::size_t a = 0, b = 0;
    cudaError_t e = cub::DeviceReduce::Min(nullptr, a, in, lo, n, stream);
    if (e != cudaSuccess)
      return e;
    e = cub::DeviceReduce::Max(nullptr, b, in, hi, n, stream);
    *temp_bytes = a > b ? a : b;
    return e;
  }
  std::size_t bytes = *temp_bytes;
  cudaError_t e = cub::DeviceReduce::Min(temp, bytes, in, lo, n, stream);
  if (e != cudaSuccess)
    return e;
  bytes = *temp_bytes;
  return cub::DeviceReduce::Max(temp, bytes, in, hi, n, stream);
}

} // namespace detail
} // namespace irregfix
