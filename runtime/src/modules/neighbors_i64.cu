// irregfix runtime module: neighbour lists, long long indices, plain words.
#include "remap_neighbors_kernels.cuh"

namespace irregfix::detail {
template struct NeighborsModule<long long, kPlainWords>;
} // namespace irregfix::detail
