// irregfix runtime module: gathers, unsigned long long indices, plain words.
#include "remap_gather_kernels.cuh"

namespace irregfix::detail {
template struct GatherModule<unsigned long long, kPlainWords>;
} // namespace irregfix::detail
