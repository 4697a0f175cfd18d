// A kernel file behind an include guard, included twice: written where the
// preprocessor entered it, guard included; the #include it skipped is left out.
// Its runtime include goes after the guard's #define.
// RUN: %irregfix --quiet %s -- %stub -I %S/Inputs | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines
#include <cuda_runtime.h>
#include "guarded-kernel.cuh"
#include "guarded-kernel.cuh"

void run(int n, const int *idx, const float *a, float *out) { guarded<<<n / 64 + 1, 64>>>(n, idx, a, out); }

// CHECK:      #include <irregfix/irregfix.cuh>
// CHECK-NEXT: #line 1 "{{.*}}Inputs/guarded-kernel.cuh"
// CHECK-NEXT: // A kernel file behind an include guard.
// CHECK-NEXT: #ifndef GUARDED_KERNEL_CUH
// CHECK-NEXT: #define GUARDED_KERNEL_CUH
// CHECK-NEXT: #include <irregfix/irregfix.cuh>
// CHECK-EMPTY:
// CHECK-NEXT: __global__ void guarded(int n, const int *idx, const float *a, float *out) {
// CHECK:      __global__ void guarded_irregfix({{.*}}
// CHECK:      #endif
// CHECK-NEXT: #line 7 "{{.*}}included-twice-guard.cu"
// CHECK-NEXT: // irregfix: #include "guarded-kernel.cuh" (inlined above)
// CHECK-EMPTY:
// CHECK-NEXT: void run({{.*}}
// CHECK-NEXT: guarded_irregfix_launch({{.*}}
