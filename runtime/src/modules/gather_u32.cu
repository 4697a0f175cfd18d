// irregfix runtime module: gathers, unsigned indices, plain words.
#include "remap_gather_kernels.cuh"

namespace irregfix::detail {
template struct GatherModule<unsigned, kPlainWords>;
} // namespace irregfix::detail
