// irregfix runtime: min and max of index arrays (the dispatch to the modules of
// remap_reduce_kernels.cuh), index conversion. See remap.cuh.
#include "remap_dispatch.cuh"

namespace irregfix {
namespace detail {

cudaError_t minmax_indices(const void *B, int b_kind, long long n, void *out, void *temp,
                           std::size_t *temp_bytes, cudaStream_t stream) {
  return with_index_type(b_kind, [&](auto tag) -> cudaError_t {
    using Idx = std::remove_const_t<std::remove_pointer_t<decltype(tag)>>;
    return MinmaxModule<Idx>::minmax(static_cast<const Idx *>(B), n,
                                     reinterpret_cast<Idx *>(static_cast<char *>(out)),
                                     reinterpret_cast<Idx *>(static_cast<char *>(out) + 8), temp,
                                     temp_bytes, stream);
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
