// A grid-stride loop whose start and stride are locals holding the thread index
// and the grid's size: its variable is the thread index of the gathers in it,
// a `continue` included.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err

#include <cuda_runtime.h>

__global__ void edges(int m, const int *src, const int *done, const float *val, float *out) {
  int id = threadIdx.x + blockIdx.x * blockDim.x;
  int threads = blockDim.x * gridDim.x;
  for (int e = id; e < m; e += threads) {
    int a = src[e];
    if (done[a])
      continue;
    out[e] = val[a];
  }
}

void run(int m, const int *src, const int *done, const float *val, float *out) {
  edges<<<64, 256>>>(m, src, done, val, out);
}
// WHY: remark: {{.*}} in 'edges' transformed
// CHECK: if (__irregfix_v{{[0-9]}}_done_0[
// CHECK: out[e] = __irregfix_v{{[0-9]}}_val_{{[0-9]}}[
