// Declarations of the two builds of spmv_kernel.cu.
#pragma once

#include <cuda_runtime.h>

namespace original {
void spmv_scalar(int n, const int *row_ptr, const int *col, const float *val, const float *x, float *y,
                 cudaStream_t stream);
}

namespace irregfixed {
void spmv_scalar(int n, const int *row_ptr, const int *col, const float *val, const float *x, float *y,
                 cudaStream_t stream);
}
