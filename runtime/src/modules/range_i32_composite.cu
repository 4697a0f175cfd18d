// irregfix runtime module: range sites, int indices, composite words.
#include "remap_range_kernels.cuh"

namespace irregfix::detail {
template struct RangeModule<int, kCompositeWords>;
} // namespace irregfix::detail
