// A launch that comes before the kernel's definition gets the launcher declared
// after the kernel's prototype.
// RUN: %irregfix --quiet %s -- %stub | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines

#include <cuda_runtime.h>

__global__ void gather(int n, const long long *idx, const float *src, float *dst);
// CHECK: __global__ void gather(int n, const long long *idx, const float *src, float *dst);
// CHECK-NEXT: static void gather_irregfix_launch(dim3 __irregfix_grid, dim3 __irregfix_block, size_t __irregfix_shmem, cudaStream_t __irregfix_stream, int n, const long long *idx, const float *src, float *dst);

void run(int n, const long long *idx, const float *src, float *dst, cudaStream_t s) {
  gather<<<(n + 255) / 256, 256, 0, s>>>(n, idx, src, dst);
}
// CHECK: gather_irregfix_launch((n + 255) / 256, 256, 0, s, n, idx, src, dst);

__global__ void gather(int n, const long long *idx, const float *src, float *dst) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    dst[t] = src[idx[t]];
}
// CHECK: __global__ void gather_irregfix(int n, const long long *idx, const float *src, float *dst, irregfix::View __irregfix_v0, const float *__restrict__ __irregfix_v0_src, const unsigned __irregfix_block_offset) {
// CHECK: static void gather_irregfix_launch(dim3 __irregfix_grid, dim3 __irregfix_block, size_t __irregfix_shmem, cudaStream_t __irregfix_stream, int n, const long long *idx, const float *src, float *dst) {
