// With the real CUDA headers, Clang includes its CUDA wrapper from the
// predefines buffer; that #include is not the main file's, and its offset must
// not place the runtime's include: it goes after the file's own includes even
// when the first kernel is far into the file.
// REQUIRES: nvcc
// RUN: %python %inputs/pad_after_includes.py 2000 %s > %t.cu
// RUN: %irregfix_real --quiet %t.cu -o %t.out.cu
// RUN: FileCheck %s --input-file=%t.out.cu
// RUN: %nvcc -c %t.out.cu -o %t.o
#include <cuda_runtime.h>

__global__ void gather(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) y[t] = A[B[t]];
}
// CHECK:      #include <cuda_runtime.h>
// CHECK-NEXT: #include <irregfix/irregfix.cuh>
// CHECK-NEXT: // padding
