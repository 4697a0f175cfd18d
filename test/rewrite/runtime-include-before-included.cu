// The runtime include goes before the #include of the first file the rewrite
// changes, at file scope: not inside the namespace that includes it.
// RUN: %irregfix --quiet %s -- %stub -I %S/Inputs | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines
#include <cuda_runtime.h>
#include "plain-device.cuh"
namespace lib {
#include "gather-kernel.cuh"
}
#include <cuda.h>

void run(int n, const int *idx, const float *a, float *out) { lib::gather<<<n / 64 + 1, 64>>>(n, idx, a, out); }

// CHECK:      #include <cuda_runtime.h>
// CHECK-NEXT: #include "plain-device.cuh"
// CHECK-NEXT: #include <irregfix/irregfix.cuh>
// CHECK-NEXT: namespace lib {
// CHECK-NEXT: #line 1 "{{.*}}Inputs/gather-kernel.cuh"
// CHECK:      #line 8 "{{.*}}runtime-include-before-included.cu"
// CHECK-NEXT: }
// CHECK-NEXT: #include <cuda.h>
// CHECK-EMPTY:
// CHECK-NEXT: void run({{.*}}
// CHECK-NEXT: lib::gather_irregfix_launch({{.*}}
