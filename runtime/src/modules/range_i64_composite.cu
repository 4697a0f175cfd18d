// irregfix runtime module: range sites, long long indices, composite words.
#include "remap_range_kernels.cuh"

namespace irregfix::detail {
template struct RangeModule<long long, kCompositeWords>;
} // namespace irregfix::detail
