// A kernel file included through a macro (`#include KERNELS`) is written in
// place of that #include's line, not of the macro's definition.
// RUN: %irregfix --quiet %s -- %stub -I %S/Inputs | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines
#include <cuda_runtime.h>
#define KERNELS "gather-kernel.cuh"
#include KERNELS

void run(int n, const int *idx, const float *a, float *out) { gather<<<n / 64 + 1, 64>>>(n, idx, a, out); }

// CHECK:      #include <cuda_runtime.h>
// CHECK-NEXT: #include <irregfix/irregfix.cuh>
// CHECK-NEXT: #define KERNELS "gather-kernel.cuh"
// CHECK-NEXT: #line 1 "{{.*}}Inputs/gather-kernel.cuh"
// CHECK:      #line 7 "{{.*}}included-by-macro-name.cu"
