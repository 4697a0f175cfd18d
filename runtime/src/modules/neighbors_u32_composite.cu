// irregfix runtime module: neighbour lists, unsigned indices, composite words.
#include "remap_neighbors_kernels.cuh"

namespace irregfix::detail {
template struct NeighborsModule<unsigned, kCompositeWords>;
} // namespace irregfix::detail
