// A blockIdx read in a lambda or a local class of a kernel cannot take a chunk's
// block offset (the kernel's parameter, which they do not capture): such a
// kernel's launches run whole and its text keeps every blockIdx.x as written.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err
#include <cuda_runtime.h>

__global__ void local_class(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  struct Local {
    __device__ static unsigned block() { return blockIdx.x; }
  };
  if (t < n) y[t] = A[B[t]] + Local::block();
}
// WHY: block-index-in-lambda.cu:[[@LINE-7]]:17: remark: launches of 'local_class' run whole (no remap overlapping the kernel): it reads 'blockIdx' in a lambda or a local class

__global__ void lambda(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  auto block = [] { return blockIdx.x; };
  if (t < n) y[t] = A[B[t]] + block();
}
// WHY: block-index-in-lambda.cu:[[@LINE-5]]:17: remark: launches of 'lambda' run whole (no remap overlapping the kernel): it reads 'blockIdx' in a lambda or a local class

// CHECK-LABEL: __global__ void local_class_irregfix(int n, const int *B, const float *A, float *y, irregfix::View __irregfix_v0, const float *__restrict__ __irregfix_v0_A) {
// CHECK-NEXT:    int t = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-NEXT:    struct Local {
// CHECK-NEXT:      __device__ static unsigned block() { return blockIdx.x; }
// CHECK-LABEL: __global__ void lambda_irregfix(int n, const int *B, const float *A, float *y, irregfix::View __irregfix_v0, const float *__restrict__ __irregfix_v0_A) {
// CHECK-NEXT:    int t = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-NEXT:    auto block = [] { return blockIdx.x; };
