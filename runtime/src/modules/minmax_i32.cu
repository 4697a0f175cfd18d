// irregfix runtime module: min and max of int index arrays.
#include "remap_reduce_kernels.cuh"

namespace irregfix::detail {
template struct MinmaxModule<int>;
} // namespace irregfix::detail
