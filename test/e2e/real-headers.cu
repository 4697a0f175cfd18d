// Files that include the CUDA 13 feature headers (cooperative groups, half and
// fp8 types, libcu++, CUB, Thrust, cuSPARSE, cuRAND, WMMA) parse and are rewritten.
// REQUIRES: nvcc
// RUN: %irregfix_real %s -o %t.cu 2>&1 | FileCheck %s
// RUN: grep -q "g_irregfix_launch(" %t.cu
#include <cooperative_groups.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda/atomic>
#include <cuda/barrier>
#include <cub/cub.cuh>
#include <thrust/device_vector.h>
#include <cusparse.h>
#include <curand_kernel.h>
#include <mma.h>

__global__ void g(int n, const int *B, const __half *A, __half *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    y[t] = A[B[t]];
}
void run(int n, const int *B, const __half *A, __half *y) { g<<<n / 256 + 1, 256>>>(n, B, A, y); }
// CHECK: remark: gather site in 'g' transformed: 'A' read through a coalesced copy indexed by 'B'
