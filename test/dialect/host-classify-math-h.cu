// A file that includes C's <math.h> after the tool's own declarations has
// `using std::isfinite;` and friends in the global namespace: they must not
// clash with what the tool gives host code for nvcc's sake.
// REQUIRES: nvcc
// RUN: %irregfix_real --quiet %s -o %t.cu -- -std=c++17
// RUN: FileCheck %s --input-file=%t.cu
#include <cuda_runtime.h>
#include <math.h>

__global__ void lookup(int n, const int *slot, const float *table, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n && isfinite(table[slot[t]]))
    out[t] = table[slot[t]];
}

bool any_nan(const double *v, int n) {
  for (int i = 0; i < n; i++)
    if (isnan(v[i]) || std::isinf(v[i]))
      return true;
  return false;
}

void run(int n, const int *slot, const float *table, float *out) {
  lookup<<<(n + 127) / 128, 128>>>(n, slot, table, out);
}
// CHECK: lookup_irregfix_launch(
