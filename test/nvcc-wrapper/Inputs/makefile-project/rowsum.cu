#include "rowsum.h"
#include <cuda_runtime.h>

__global__ void row_sums_kernel(int rows, const int *offsets, const float *values, float *sums) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    float s = 0;
    for (int k = offsets[row]; k < offsets[row + 1]; ++k)
      s += values[k];
    sums[row] = s;
  }
}

void row_sums(int rows, const int *offsets, const float *values, float *sums) {
  row_sums_kernel<<<(rows + 127) / 128, 128>>>(rows, offsets, values, sums);
}
