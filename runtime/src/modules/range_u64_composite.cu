// irregfix runtime module: range sites, unsigned long long indices, composite words.
#include "remap_range_kernels.cuh"

namespace irregfix::detail {
template struct RangeModule<unsigned long long, kCompositeWords>;
} // namespace irregfix::detail
