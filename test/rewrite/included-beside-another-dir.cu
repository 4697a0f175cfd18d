// A kernel file in another directory is written into the output; an #include
// it resolves beside itself then names the header by its path, since the
// output is elsewhere.
// RUN: %irregfix --quiet %s -- %stub -I %S/Inputs | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines
#include <cuda_runtime.h>
#include "sub/beside-kernel.cuh"

void run(int n, const int *idx, const float *a, float *out) { beside<<<n / 64 + 1, 64>>>(n, idx, a, out); }

// CHECK:      #line 1 "{{.*}}Inputs/sub/beside-kernel.cuh"
// CHECK-NEXT: // A kernel file in another directory, which includes a header beside it.
// CHECK-NEXT: #include "{{/.*}}/Inputs/sub/beside-helper.cuh"
// CHECK-NEXT: #include <irregfix/irregfix.cuh>
// CHECK:      __global__ void beside_irregfix({{.*}}
