// --quiet drops the remarks (and their notes) but keeps warnings.
// RUN: %irregfix --quiet %s -- %stub 2>&1 >/dev/null | FileCheck %s -implicit-check-not="{{remark|note}}:"
#include <cuda_runtime.h>
__global__ void g(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) y[t] = A[B[t]];
}
void run(int n, const int *B, float *A, float *y) {
  while (cudaMemset(A, 0, n) != 0) {}
  g<<<1, 1>>>(n, B, A, y);
}
// CHECK: quiet.cu:9:10: warning: cannot insert cache invalidation for this write (the write is in a loop condition); call irregfix_invalidate() on the pointer after it
