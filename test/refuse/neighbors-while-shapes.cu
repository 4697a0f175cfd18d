// While loops over a neighbour list that do not count iterations from 0 in
// steps of one: the increment comes first, a continue skips it, j starts elsewhere.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err -implicit-check-not="{{remark|warning|error}}:"
// RUN: diff %s %t.out

#include <cuda_runtime.h>

__global__ void first(int n, const int *nb, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0.f;
    int j = 0;
    while (j < 8) {
      j++;
      s += A[nb[j * n + t]];
    }
    y[t] = s;
  }
}
// CHECK: remark: neighbors site in 'first' not transformed: the last statement of the loop body is not ++j

__global__ void skips(int n, const int *nb, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0.f;
    int j = 0;
    while (j < 8) {
      if (s > 4.f)
        continue;
      s += A[nb[j * n + t]];
      ++j;
    }
    y[t] = s;
  }
}
// CHECK: remark: neighbors site in 'skips' not transformed: a 'continue' would skip the increment of 'j'

__global__ void offset(int n, int first, const int *nb, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0.f;
    int j = first;
    while (j < 8) {
      s += A[nb[j * n + t]];
      ++j;
    }
    y[t] = s;
  }
}
// CHECK: remark: neighbors site in 'offset' not transformed: the loop variable 'j' does not start at 0 right before the loop
