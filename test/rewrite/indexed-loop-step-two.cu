// A row walked two elements at a time: the range pattern wants a step of one;
// an indexed loop site counts the loop's iterations in steps, (k - first) / 2,
// and its index kernels give the loop variable first + iteration * 2 for
// ceil((end - first) / 2) iterations.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err

#include <cuda_runtime.h>

__global__ void k(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; k += 2) s += A[k];
    y[t] = s;
  }
}
// WHY: remark: indexed site in 'k' transformed: 'A' at 'k' read through coalesced copies over the loop's iterations
// CHECK: { const long long __irregfix_first0 = (long long)(B[t]); const long long __irregfix_step0 = (long long)(2); for (int k = B[t]; k < B[t + 1]; k += 2) s += __irregfix_v0_A_0[irregfix::slot(__irregfix_v0, t, ((k - __irregfix_first0) / __irregfix_step0))]; }
// CHECK: static __global__ void k_irregfix_lengths0(
// CHECK: const long long __irregfix_step = (long long)(2);
// CHECK-NEXT: const long long __irregfix_trips = __irregfix_end > __irregfix_first ? (__irregfix_end - __irregfix_first + __irregfix_step - 1) / __irregfix_step : 0;
// CHECK: __irregfix_len[__irregfix_t] = __irregfix_ok ? (int)__irregfix_count : 0;
// CHECK: static __global__ void k_irregfix_indices0(
// CHECK: const long long __irregfix_at0 = __irregfix_rest;
// CHECK-NEXT: {
// CHECK-NEXT: bool __irregfix_ok = true;
// CHECK-NEXT: const long long __irregfix_i = (long long)(((int)(__irregfix_first + __irregfix_at0 * __irregfix_step)));
