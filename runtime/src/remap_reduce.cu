// irregfix runtime: reductions the misses read back (CUB min/max), index conversion. See remap.cuh.
#include "remap_dispatch.cuh"

#include <cub/cub.cuh>

namespace irregfix {
namespace detail {

cudaError_t minmax_lengths(const int *len, long long n, int *out, void *temp,
                           std::size_t *temp_bytes, cudaStream_t stream) {
  if (!temp) {
    std::size_t a = 0, b = 0;
    cudaError_t e = cub::DeviceReduce::Min(nullptr, a, len, out, n, stream);
    if (e != cudaSuccess)
      return e;
    e = cub::DeviceReduce::Max(nullptr, b, len, out + 1, n, stream);
    *temp_bytes = a > b ? a : b;
    return e;
  }
  std::size_t bytes = *temp_bytes;
  cudaError_t e = cub::DeviceReduce::Min(temp, bytes, len, out, n, stream);
  if (e != cudaSuccess)
    return e;
  bytes = *temp_bytes;
  return cub::DeviceReduce::Max(temp, bytes, len, out + 1, n, stream);
}

cudaError_t minmax_indices(const void *B, int b_kind, long long n, void *out, void *temp,
                           std::size_t *temp_bytes, cudaStream_t stream) {
  return with_index_type(b_kind, [&](auto tag) -> cudaError_t {
    using Idx = std::remove_const_t<std::remove_pointer_t<decltype(tag)>>;
    const Idx *in = static_cast<const Idx *>(B);
    Idx *lo = reinterpret_cast<Idx *>(static_cast<char *>(out));
    Idx *hi = reinterpret_cast<Idx *>(static_cast<char *>(out) + 8);
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
  });
}

bool index_to_ll(const void *slot, int b_kind, long long *value) {
  switch (b_kind) {
  case kIndexI32: { int v; std::memcpy(&v, slot, sizeof v); *value = v; return true; }
  case kIndexU32: { unsigned v; std::memcpy(&v, slot, sizeof v); *value = v; return true; }
  case kIndexI64: { long long v; std::memcpy(&v, slot, sizeof v); *value = v; return true; }
  case kIndexU64: {
    unsigned long long v;
    std::memcpy(&v, slot, sizeof v);
    if (v > static_cast<unsigned long long>(LLONG_MAX))
      return false;
    *value = static_cast<long long>(v);
    return true;
  }
  default: return false;
  }
}

} // namespace detail
} // namespace irregfix
