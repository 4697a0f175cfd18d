// nvcc's cache-hinted loads and stores (__ldcs, __stcs, __ldcg ...) on plain
// types, which Clang's CUDA headers do not declare: a kernel that streams its
// results out with them parses, and its indirect read is rewritten; the store
// itself stays as written.
// REQUIRES: nvcc
// RUN: %irregfix_real %s -o %t.cu -- -std=c++17 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --input-file=%t.cu
#include <cuda_runtime.h>

__global__ void stream_out(int n, const int *slot, const float *table, float *out, const float *bias) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    __stcs(out + t, table[slot[t]] + __ldcg(bias));
// REMARK: cache-hints.cu:[[@LINE-1]]:21: remark: gather site in 'stream_out' transformed
}

void run(int n, const int *slot, const float *table, float *out, const float *bias) {
  stream_out<<<(n + 127) / 128, 128>>>(n, slot, table, out, bias);
}
// CHECK: stream_out_irregfix_launch(
