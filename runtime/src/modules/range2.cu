// irregfix runtime module: two-level range sites, plain words.
#include "remap_range2_kernels.cuh"

namespace irregfix::detail {
template struct Range2Module<kPlainWords>;
} // namespace irregfix::detail
