// --hoist on a loop whose body is one statement that also uses the loop
// variable: the rebound variable's braces close where the hoisted loop's
// save-and-return begins, and both go there, the braces first.
// RUN: %irregfix --quiet --hoist %s -- %stub | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines
#include <cuda_runtime.h>

__global__ void weighted(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k)
      s += A[k] * k;
    y[t] = s;
  }
}
void run(int n, const int *B, const float *A, float *y) { weighted<<<n / 128 + 1, 128>>>(n, B, A, y); }

// CHECK-LABEL: __global__ void weighted_irregfix_hoisted({{.*}}
// CHECK:           for (int __irregfix_iter0 = __irregfix_step.begin, __irregfix_len0 = irregfix::length(__irregfix_v0, t); __irregfix_iter0 < __irregfix_len0 && __irregfix_iter0 < __irregfix_step.end; ++__irregfix_iter0)
// CHECK-NEXT:      { const int k = static_cast<int>(B[t] + __irregfix_iter0); s += __irregfix_v0_A[irregfix::slot(__irregfix_v0, t, __irregfix_iter0)] * k; }
// CHECK-NEXT:      __irregfix_live_s[t] = s;
// CHECK-NEXT:      return;
// CHECK-NEXT:    }
