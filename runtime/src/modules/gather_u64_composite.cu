// irregfix runtime module: gathers, unsigned long long indices, composite words.
#include "remap_gather_kernels.cuh"

namespace irregfix::detail {
template struct GatherModule<unsigned long long, kCompositeWords>;
} // namespace irregfix::detail
