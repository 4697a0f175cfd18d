// An included header the rewrite does not change stays an #include; only the
// kernel file that changes is written into the output.
// RUN: %irregfix --quiet %s -- %stub -I %S/Inputs | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines
#include <cuda_runtime.h>
#include "plain-device.cuh"
#include "gather-kernel.cuh"

void run(int n, const int *idx, const float *a, float *out) { gather<<<n / 64 + 1, 64>>>(n, idx, a, out); }

// CHECK:      #include <cuda_runtime.h>
// CHECK-NEXT: #include "plain-device.cuh"
// CHECK-NEXT: #include <irregfix/irregfix.cuh>
// CHECK-NEXT: #line 1 "{{.*}}Inputs/gather-kernel.cuh"
