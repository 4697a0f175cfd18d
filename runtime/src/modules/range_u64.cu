// irregfix runtime module: range sites, unsigned long long indices, plain words.
#include "remap_range_kernels.cuh"

namespace irregfix::detail {
template struct RangeModule<unsigned long long, kPlainWords>;
template struct LengthsModule<unsigned long long>;
} // namespace irregfix::detail
