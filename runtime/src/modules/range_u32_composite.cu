// irregfix runtime module: range sites, unsigned indices, composite words.
#include "remap_range_kernels.cuh"

namespace irregfix::detail {
template struct RangeModule<unsigned, kCompositeWords>;
} // namespace irregfix::detail
