// irregfix runtime module: range sites, long long indices, plain words.
#include "remap_range_kernels.cuh"

namespace irregfix::detail {
template struct RangeModule<long long, kPlainWords>;
template struct LengthsModule<long long>;
} // namespace irregfix::detail
