// irregfix runtime module: gathers, int indices, composite words.
#include "remap_gather_kernels.cuh"

namespace irregfix::detail {
template struct GatherModule<int, kCompositeWords>;
} // namespace irregfix::detail
