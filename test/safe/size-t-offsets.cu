// Looks like something irregfix must refuse, but is safe and is rewritten: 64-bit unsigned offsets and a size_t thread index.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=MSG --input-file=%t.err
#include <cuda_runtime.h>
__global__ void k(size_t n, const size_t *B, const double *A, double *y) {
  size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    double s = 0;
    for (size_t k = B[t]; k < B[t + 1]; ++k) s += A[k];
    y[t] = s;
  }
}
// CHECK: irregfix::prepare_range(__irregfix_site_k_0, B, irregfix::index_kind(B), (long long)(n), 1, __irregfix_v0_src, __irregfix_v0_size, &__irregfix_v0, __irregfix_v0_out, __irregfix_stream) &&
// CHECK-NEXT:        irregfix::start_chunks(__irregfix_site_k_0, __irregfix_stream, &__irregfix_chunks)) {
// MSG: remark: range site in 'k' transformed
