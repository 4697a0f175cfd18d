// irregfix runtime module: range sites, unsigned indices, plain words.
#include "remap_range_kernels.cuh"

namespace irregfix::detail {
template struct RangeModule<unsigned, kPlainWords>;
template struct LengthsModule<unsigned>;
} // namespace irregfix::detail
