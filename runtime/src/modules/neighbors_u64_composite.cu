// irregfix runtime module: neighbour lists, unsigned long long indices, composite words.
#include "remap_neighbors_kernels.cuh"

namespace irregfix::detail {
template struct NeighborsModule<unsigned long long, kCompositeWords>;
} // namespace irregfix::detail
