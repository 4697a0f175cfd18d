// irregfix runtime module: min and max of long long index arrays.
#include "remap_reduce_kernels.cuh"

namespace irregfix::detail {
template struct MinmaxModule<long long>;
} // namespace irregfix::detail
