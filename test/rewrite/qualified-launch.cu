// A launch that names its kernel through a qualifier calls the launcher the
// same way; one that names it through a using-declaration (which brings the
// kernel, not its launcher) calls it fully qualified; so do they with the
// kernel's name in parentheses.
// RUN: %irregfix --quiet %s -- %stub | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines
#include <cuda_runtime.h>
namespace ns {
__global__ void k(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) y[t] = A[B[t]];
}
}
namespace other { using ns::k; }
namespace alias = ns;
void run(int n, const int *B, const float *a, float *y) {
  ns::k<<<1, 32>>>(n, B, a, y);
  alias::k<<<1, 32>>>(n, B, a, y);
  other::k<<<1, 32>>>(n, B, a, y);
  { using ns::k; k<<<1, 32>>>(n, B, a, y); }
  { using namespace ns; k<<<1, 32>>>(n, B, a, y); }
  { using ns::k; (k)<<<1, 32>>>(n, B, a, y); }
  (ns::k)<<<1, 32>>>(n, B, a, y);
}
// CHECK-LABEL: void run(int n, const int *B, const float *a, float *y) {
// CHECK:         ns::k_irregfix_launch(1, 32, 0, 0, n, B, a, y);
// CHECK:         alias::k_irregfix_launch(1, 32, 0, 0, n, B, a, y);
// CHECK:         ::ns::k_irregfix_launch(1, 32, 0, 0, n, B, a, y);
// CHECK:         ::ns::k_irregfix_launch(1, 32, 0, 0, n, B, a, y); }
// CHECK:         k_irregfix_launch(1, 32, 0, 0, n, B, a, y); }
// CHECK:         ::ns::k_irregfix_launch(1, 32, 0, 0, n, B, a, y); }
// CHECK:         ns::k_irregfix_launch(1, 32, 0, 0, n, B, a, y);
