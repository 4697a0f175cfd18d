// --diff prints a unified diff of the rewrite and writes nothing.
// RUN: cp %s %t.cu
// RUN: %irregfix --quiet --diff %t.cu -- %stub | sed 's,// CHECK.*,,' | FileCheck %s --strict-whitespace
// RUN: diff %s %t.cu

#include <cuda_runtime.h>

__global__ void spmv(int n, const int *rp, const float *v, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) { float s = 0; for (int k = rp[t]; k < rp[t + 1]; ++k) s += v[k]; y[t] = s; }
}

void run(int n, const int *rp, const float *v, float *y) { spmv<<<n / 128 + 1, 128>>>(n, rp, v, y); }

// CHECK: {{^}}--- {{.*}}spmv-diff.cu.tmp.cu
// CHECK-NEXT: {{^}}+++ {{.*}}spmv-diff.cu.tmp.cu
// CHECK-NEXT: @@ -4,{{[0-9]+}} +4,{{[0-9]+}} @@
// CHECK-NEXT: {{^}} // RUN: diff %s %t.cu
// CHECK-NEXT: {{^ $}}
// CHECK-NEXT: {{^}} #include <cuda_runtime.h>
// CHECK-NEXT: {{^}}+#include <irregfix/irregfix.cuh>
// CHECK-NEXT: {{^ $}}
// CHECK-NEXT: {{^}} __global__ void spmv(int n, const int *rp, const float *v, float *y) {
// CHECK-NEXT: {{^}}   int t = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK: {{^}}-void run(int n, const int *rp, const float *v, float *y) { spmv<<<n / 128 + 1, 128>>>(n, rp, v, y); }
// CHECK-NEXT: {{^}}+// irregfix: 'spmv' reading its indirect arrays through coalesced copies; the original above is the fallback.
// CHECK-NEXT: {{^}}+__global__ void spmv_irregfix(int n, const int *rp, const float *v, float *y, irregfix::View __irregfix_v0, const float *__restrict__ __irregfix_v0_v, const unsigned __irregfix_block_offset) {
// CHECK: {{^}}+void run(int n, const int *rp, const float *v, float *y) { irregfix::EntryGuard __irregfix_entry("spmv-diff.cu.tmp.cu:13"); irregfix_invalidate(y);
// CHECK-NEXT: {{^}}+spmv_irregfix_launch(n / 128 + 1, 128, 0, 0, n, rp, v, y); }
