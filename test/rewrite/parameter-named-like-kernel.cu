// A parameter named like its kernel hides the kernel inside the launcher,
// whose parameters mirror the kernel's: the launcher then names the kernels it
// launches with their namespace.
// RUN: %irregfix --quiet %s -- %stub | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines
#include <cuda_runtime.h>
namespace ns {
__global__ void n(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) y[t] = A[B[t]];
}
}
void run(int n, const int *B, const float *a, float *y) { ns::n<<<1, 32>>>(n, B, a, y); }
// CHECK:          ::ns::n_irregfix<<<__irregfix_chunk.grid, __irregfix_block, __irregfix_shmem, __irregfix_stream>>>(n, B, A, y, __irregfix_v0, static_cast<const float *>(__irregfix_v0_out[0]), __irregfix_chunk.block_offset);
// CHECK:      ::ns::n<<<__irregfix_grid, __irregfix_block, __irregfix_shmem, __irregfix_stream>>>(n, B, A, y);
// CHECK:  ns::n_irregfix_launch(1, 32, 0, 0, n, B, a, y); }
