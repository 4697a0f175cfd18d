// irregfix runtime module: gathers, long long indices, composite words.
#include "remap_gather_kernels.cuh"

namespace irregfix::detail {
template struct GatherModule<long long, kCompositeWords>;
} // namespace irregfix::detail
