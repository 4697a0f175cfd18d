// irregfix runtime module: neighbour lists, unsigned indices, plain words.
#include "remap_neighbors_kernels.cuh"

namespace irregfix::detail {
template struct NeighborsModule<unsigned, kPlainWords>;
} // namespace irregfix::detail
