#include <cuda_runtime.h>
#ifndef IRREGFIX_TEST_DEFINE
#error "compile with -DIRREGFIX_TEST_DEFINE (it comes from compile_commands.json)"
#endif
__global__ void g(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) y[t] = A[B[t]];
}
