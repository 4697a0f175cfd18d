// A kernel file behind #pragma once, included again by a header with nothing
// to rewrite: that header is written into the output too, so that the #include
// the preprocessor skipped can be left out; the #pragma once of a file written
// into the output is commented out (it would be in the main file).
// RUN: %irregfix --quiet %s -- %stub -I %S/Inputs | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines
#include <cuda_runtime.h>
#include "once-kernel.cuh"
#include "once-wrapper.cuh"

void run(int n, const int *idx, const float *a, float *out) { once<<<n / 64 + 1, 64>>>(n, idx, a, out); }

// CHECK:      #line 1 "{{.*}}Inputs/once-kernel.cuh"
// CHECK-NEXT: // A kernel file behind #pragma once.
// CHECK-NEXT: // #pragma once (irregfix: inlined)
// CHECK-NEXT: #include <irregfix/irregfix.cuh>
// CHECK:      __global__ void once_irregfix({{.*}}
// CHECK:      #line 8 "{{.*}}included-twice-pragma-once.cu"
// CHECK-NEXT: #line 1 "{{.*}}Inputs/once-wrapper.cuh"
// CHECK-NEXT: // A header with nothing to rewrite that includes a kernel file again.
// CHECK-NEXT: // irregfix: #include "once-kernel.cuh" (inlined above)
// CHECK-NEXT: inline int wrapped() { return 1; }
// CHECK-NEXT: #line 9 "{{.*}}included-twice-pragma-once.cu"
