// irregfix runtime module: gathers, long long indices, plain words.
#include "remap_gather_kernels.cuh"

namespace irregfix::detail {
template struct GatherModule<long long, kPlainWords>;
} // namespace irregfix::detail
