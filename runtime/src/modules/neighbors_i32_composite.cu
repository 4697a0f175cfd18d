// irregfix runtime module: neighbour lists, int indices, composite words.
#include "remap_neighbors_kernels.cuh"

namespace irregfix::detail {
template struct NeighborsModule<int, kCompositeWords>;
} // namespace irregfix::detail
