// irregfix runtime module: neighbour lists, unsigned long long indices, plain words.
#include "remap_neighbors_kernels.cuh"

namespace irregfix::detail {
template struct NeighborsModule<unsigned long long, kPlainWords>;
} // namespace irregfix::detail
