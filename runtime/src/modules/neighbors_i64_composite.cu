// irregfix runtime module: neighbour lists, long long indices, composite words.
#include "remap_neighbors_kernels.cuh"

namespace irregfix::detail {
template struct NeighborsModule<long long, kCompositeWords>;
} // namespace irregfix::detail
