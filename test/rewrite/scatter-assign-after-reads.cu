// A kernel whose indirect read is rewritten and which also stores through an
// index array (`out[perm[t]] = x[col[t]]`): the read's copy is what pays, and
// the store stays as written, with the reason; the kernel is rewritten once.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err
// RUN: FileCheck %s --check-prefix=OUT --input-file=%t.out

#include <cuda_runtime.h>

__global__ void permute(int n, const int *perm, const int *col, const float *x, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[perm[t]] = x[col[t]];
}
// CHECK-DAG: scatter-assign-after-reads.cu:[[@LINE-2]]:20: remark: gather site in 'permute' transformed
// CHECK-DAG: scatter-assign-after-reads.cu:[[@LINE-3]]:5: remark: scatter site in 'permute' not transformed: the kernel's indirect reads are rewritten instead (an assignment through an index array is rewritten only in a kernel with nothing else to rewrite)
// OUT: __global__ void permute_irregfix(
// OUT-NOT: prepare_scatter
// OUT: irregfix::prepare_gather(

void run(int n, const int *perm, const int *col, const float *x, float *out) {
  permute<<<(n + 255) / 256, 256>>>(n, perm, col, x, out);
}
