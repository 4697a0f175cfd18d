// irregfix runtime module: min and max of unsigned long long index arrays.
#include "remap_reduce_kernels.cuh"

namespace irregfix::detail {
template struct MinmaxModule<unsigned long long>;
} // namespace irregfix::detail
