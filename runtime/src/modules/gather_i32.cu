// irregfix runtime module: gathers, int indices, plain words.
#include "remap_gather_kernels.cuh"

namespace irregfix::detail {
template struct GatherModule<int, kPlainWords>;
} // namespace irregfix::detail
