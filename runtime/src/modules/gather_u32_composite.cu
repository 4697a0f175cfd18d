// irregfix runtime module: gathers, unsigned indices, composite words.
#include "remap_gather_kernels.cuh"

namespace irregfix::detail {
template struct GatherModule<unsigned, kCompositeWords>;
} // namespace irregfix::detail
