// irregfix runtime module: neighbour lists, int indices, plain words.
#include "remap_neighbors_kernels.cuh"

namespace irregfix::detail {
template struct NeighborsModule<int, kPlainWords>;
} // namespace irregfix::detail
