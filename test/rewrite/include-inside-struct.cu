// The runtime include goes after the last #include at file scope: not after
// one inside a struct's body, where it would not compile.
// RUN: %irregfix --quiet %s -- %stub -I %S/Inputs | FileCheck %s --match-full-lines
#include <cuda_runtime.h>
struct Mesh {
#include "mesh-fields.h"
};
__global__ void gather(int n, const int *idx, const float *a, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[t] = a[idx[t]];
}
void run(int n, const int *idx, const float *a, float *out) { gather<<<n / 64 + 1, 64>>>(n, idx, a, out); }
// CHECK:      #include <cuda_runtime.h>
// CHECK-NEXT: #include <irregfix/irregfix.cuh>
// CHECK-NEXT: struct Mesh {
// CHECK-NEXT: #include "mesh-fields.h"
// CHECK-NEXT: };
