// A kernel that samples a texture object (`tex2D<float>(tex, x, y)`): CUDA 13
// dropped the header that declared those fetches for Clang, and the tool
// declares them again, so the file parses and its other kernel is rewritten.
// REQUIRES: nvcc
// RUN: %irregfix_real %s -o %t.cu -- -std=c++17 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --input-file=%t.cu
#include <cuda_runtime.h>

__global__ void sample(cudaTextureObject_t tex, cudaSurfaceObject_t surf, int w, float dx, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  float v = tex2D<float>(tex, x + 0.5f * dx, 0.5f) - tex1Dfetch<float>(tex, x);
  surf2Dwrite(v, surf, x * 4, 0);
  out[x] = v;
}

__global__ void lookup(int n, const int *slot, const float *table, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = table[slot[t]];
// REMARK: texture-objects.cu:[[@LINE-1]]:14: remark: gather site in 'lookup' transformed
}

void run(cudaTextureObject_t tex, cudaSurfaceObject_t surf, int n, const int *slot, const float *table,
         float *out) {
  sample<<<n / 128, 128>>>(tex, surf, n, 1.0f, out);
  lookup<<<(n + 127) / 128, 128>>>(n, slot, table, out);
}
// CHECK: float v = tex2D<float>(tex, x + 0.5f * dx, 0.5f) - tex1Dfetch<float>(tex, x);
// CHECK: lookup_irregfix_launch(
