// Every function of the file that reaches a transformed launch starts with an
// entry guard: entered from code the tool cannot see (its count of frames is
// zero), it drops every copy, as that code may have written their sources.
// Functions that reach no such launch get none; main gets one, so functions it
// calls count as entered from inside. With a main() here, no remark.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err --implicit-check-not="whenever"

#include <cuda_runtime.h>

__global__ void gather(int n, const int *idx, const float *a, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[t] = a[idx[t]];
}

__global__ void scale(int n, float *a) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) a[t] *= 2;
}

static void step(int n, const int *idx, const float *a, float *out) {
  gather<<<n / 64 + 1, 64>>>(n, idx, a, out);
}

void twice(int n, const int *idx, const float *a, float *out) {
  auto once = [&]() { step(n, idx, a, out); };
  once();
  once();
}

void unrelated(int n, float *a) {
  scale<<<n / 64 + 1, 64>>>(n, a);
}

int main() {
  twice(0, nullptr, nullptr, nullptr);
  unrelated(0, nullptr);
  return 0;
}
// WHY: remark: gather site in 'gather' transformed
// CHECK-LABEL: static void step(int n, const int *idx, const float *a, float *out) {
// CHECK-NEXT:     irregfix::EntryGuard __irregfix_entry("entry-guards.cu:21");
// CHECK-NEXT:     irregfix_invalidate(out);
// CHECK-NEXT:     gather_irregfix_launch(n / 64 + 1, 64, 0, 0, n, idx, a, out);
// CHECK-NEXT:   }
// CHECK-LABEL: void twice(int n, const int *idx, const float *a, float *out) {
// CHECK-NEXT:     irregfix::EntryGuard __irregfix_entry("entry-guards.cu:25");
// CHECK-NEXT:     auto once = [&]() { irregfix::EntryGuard __irregfix_entry("entry-guards.cu:26"); step(n, idx, a, out); };
// CHECK-NEXT:     once();
// CHECK-NEXT:     once();
// CHECK-NEXT:   }
// CHECK-LABEL: void unrelated(int n, float *a) {
// CHECK-NEXT:     irregfix_invalidate(a);
// CHECK-NEXT:     scale<<<n / 64 + 1, 64>>>(n, a);
// CHECK-NEXT:   }
// CHECK-LABEL: int main() {
// CHECK-NEXT:     irregfix::EntryGuard __irregfix_entry("entry-guards.cu:35");
// CHECK-NEXT:     twice(0, nullptr, nullptr, nullptr);
// CHECK-NEXT:     unrelated(0, nullptr);
// CHECK-NEXT:     return 0;
// CHECK-NEXT:   }
