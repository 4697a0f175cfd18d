// Host code calls isfinite and isnan on floats without std::, which nvcc's math
// headers declare in the global namespace for the host; Clang's declare them
// for the device only. The tool parses such a check and rewrites the file.
// REQUIRES: nvcc
// RUN: %irregfix_real --quiet %s -o %t.cu -- -std=c++17
// RUN: FileCheck %s --input-file=%t.cu
#include <cmath>
#include <cuda_runtime.h>

__global__ void lookup(int n, const int *slot, const float *table, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = table[slot[t]];
}

template <class T> int bad_values(const T *v, int n) {
  int bad = 0;
  for (int i = 0; i < n; i++)
    if (!isfinite(v[i]) || isnan(v[i]))
      bad++;
  return bad;
}

int run(int n, const int *slot, const float *table, float *out, const float *host) {
  lookup<<<(n + 127) / 128, 128>>>(n, slot, table, out);
  return bad_values(host, n);
}
// CHECK: if (!isfinite(v[i]) || isnan(v[i]))
// CHECK: lookup_irregfix_launch(
