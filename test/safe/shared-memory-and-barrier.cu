// Looks like something irregfix must refuse, but is safe and is rewritten: the kernel stages other data in shared memory with __syncthreads(); the in-kernel loop moves no thread.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=MSG --input-file=%t.err
#include <cuda_runtime.h>
__global__ void k(int n, const int *B, const float *A, const float *w, float *y) {
  __shared__ float tile[256];
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = t < n ? w[t] : 0.f;
  __syncthreads();
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k) s += A[k] * tile[(threadIdx.x + 1) % 256];
    y[t] = s;
  }
}
// CHECK: s += __irregfix_v0_A[irregfix::slot(__irregfix_v0, t, __irregfix_iter0)] * tile[(threadIdx.x + 1) % 256];
// MSG: remark: range site in 'k' transformed
