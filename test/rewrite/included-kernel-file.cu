// A kernel defined in a file the main file includes is transformed and its
// launch in the main file rewritten. On stdout the changed file is written in
// place of its #include, between #line markers naming the original files; the
// runtime include comes before it.
// RUN: %irregfix %s -- %stub -I %S/Inputs 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines
// RUN: FileCheck %s --check-prefix=MSG --input-file=%t.err
#include <cuda_runtime.h>
#include "gather-kernel.cuh"

void run(int n, const int *idx, const float *a, float *out) { gather<<<n / 64 + 1, 64>>>(n, idx, a, out); }

// CHECK:      #include <cuda_runtime.h>
// CHECK-NEXT: #include <irregfix/irregfix.cuh>
// CHECK-NEXT: #line 1 "{{.*}}Inputs/gather-kernel.cuh"
// CHECK-NEXT: #include <irregfix/irregfix.cuh>
// CHECK-NEXT: // A kernel in a file of its own, which the main file includes.
// CHECK-NEXT: __global__ void gather(int n, const int *idx, const float *a, float *out) {
// CHECK:      __global__ void gather_irregfix({{.*}}
// CHECK:      static void gather_irregfix_launch({{.*}}
// CHECK:      #line 9 "{{.*}}included-kernel-file.cu"
// CHECK-EMPTY:
// CHECK-NEXT: void run(int n, const int *idx, const float *a, float *out) { irregfix::EntryGuard __irregfix_entry("included-kernel-file.cu:10"); irregfix_invalidate(out);
// CHECK-NEXT: gather_irregfix_launch(n / 64 + 1, 64, 0, 0, n, idx, a, out); }

// MSG: In file included from {{.*}}included-kernel-file.cu:8:
// MSG-NEXT: Inputs/gather-kernel.cuh:5:14: remark: gather site in 'gather' transformed: 'a' read through a coalesced copy indexed by 'idx'
// MSG: Inputs/gather-kernel.cuh:2:17: remark: threads of 'gather' keep their order
