// irregfix runtime module: min and max of unsigned index arrays.
#include "remap_reduce_kernels.cuh"

namespace irregfix::detail {
template struct MinmaxModule<unsigned>;
} // namespace irregfix::detail
