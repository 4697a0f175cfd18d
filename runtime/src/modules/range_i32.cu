// irregfix runtime module: range sites, int indices, plain words.
#include "remap_range_kernels.cuh"

namespace irregfix::detail {
template struct RangeModule<int, kPlainWords>;
template struct LengthsModule<int>;
} // namespace irregfix::detail
