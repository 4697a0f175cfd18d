// The scalar CSR SpMV as a user writes it: one thread per row.
//
// The benchmark compiles this file twice: as-is (-DSPMV_NS=original) and
// rewritten by irregfix (-DSPMV_NS=irregfixed), so both versions link into one
// driver under different names. Nothing here mentions irregfix.
#include <cuda_runtime.h>

#ifndef SPMV_NS
#define SPMV_NS original
#endif

namespace SPMV_NS {

__global__ void spmv_csr(int n, const int *row_ptr, const int *col, const float *val, const float *x, float *y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n) {
    float sum = 0.0f;
    for (int k = row_ptr[row]; k < row_ptr[row + 1]; ++k)
      sum += val[k] * x[col[k]];
    y[row] = sum;
  }
}

// y = A x on `stream`; launch errors are left for the caller's cudaGetLastError.
void spmv_scalar(int n, const int *row_ptr, const int *col, const float *val, const float *x, float *y,
                 cudaStream_t stream) {
  const int block = 256;
  const int grid = (n + block - 1) / block;
  spmv_csr<<<grid, block, 0, stream>>>(n, row_ptr, col, val, x, y);
}

} // namespace SPMV_NS
