// A kernel (or anything) named `irregfix` at global scope would clash with the
// runtime's namespace in the rewritten file: the tool says so, exits non-zero
// and writes nothing.
// RUN: not %irregfix %s -o %t.cu -- %stub 2>&1 | FileCheck %s
// RUN: not test -e %t.cu
#include <cuda_runtime.h>

__global__ void irregfix(int n, const int *b, const float *a, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = a[b[t]];
}
// CHECK: global-name-irregfix.cu:[[@LINE-5]]:17: error: cannot rewrite this file: it declares 'irregfix' at global scope, the name of the irregfix runtime's namespace, which the rewritten code uses; rename it

void run(int n, const int *b, const float *a, float *out) { irregfix<<<(n + 255) / 256, 256>>>(n, b, a, out); }
