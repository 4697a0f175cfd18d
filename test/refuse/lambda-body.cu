// Sites irregfix must leave alone: reads inside a lambda. The lambda's 'A' is
// its own parameter (here given another array), and a rewritten read would
// need views the lambda does not capture.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err -implicit-check-not="{{remark|warning|error}}:"
// RUN: diff %s %t.out

#include <cuda_runtime.h>

__global__ void shadowed(int n, const int *B, const float *A, const float *other, float *y) {
  auto f = [&](const float *A) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n) y[t] = A[B[t]];
  };
  f(other);
}
// CHECK: lambda-body.cu:[[@LINE-4]]:23: remark: gather site in 'shadowed' not transformed: the read is inside a lambda

__global__ void uncaptured(int n, const int *B, const float *A, float *y) {
  auto f = [](int n, const int *B, const float *A, float *y) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n) y[t] = A[B[t]];
  };
  f(n, B, A, y);
}
// CHECK: lambda-body.cu:[[@LINE-4]]:23: remark: gather site in 'uncaptured' not transformed: the read is inside a lambda
