// irregfix runtime module: two-level range sites, composite words.
#include "remap_range2_kernels.cuh"

namespace irregfix::detail {
template struct Range2Module<kCompositeWords>;
} // namespace irregfix::detail
