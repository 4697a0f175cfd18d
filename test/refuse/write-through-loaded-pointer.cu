// Sites irregfix must leave alone: the kernel stores through a pointer it loads
// from memory (a struct's field through a pointer, an array of pointers, a
// __device__ pointer), which may be the array the site reads.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err -implicit-check-not="{{remark|warning|error}}:"
// RUN: diff %s %t.out

#include <cuda_runtime.h>

struct Mat { const int *rp; float *val; };
__device__ float *g_val;

__global__ void through_struct(int n, const int *rp, const float *val, float *y, Mat *m) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = rp[t]; k < rp[t + 1]; ++k) s += val[k];
    y[t] = s;
    m->val[t] = 0;
  }
}
// CHECK: remark: range site in 'through_struct' not transformed: the kernel may write memory the analysis cannot name: stores through 'm->val', a pointer loaded from memory

__global__ void through_array(int n, const int *rp, const float *val, float *y, float **vals) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = rp[t]; k < rp[t + 1]; ++k) s += val[k];
    y[t] = s;
    vals[0][t] = 0;
  }
}
// CHECK: remark: range site in 'through_array' not transformed: the kernel may write memory the analysis cannot name: stores through 'vals[0]', a pointer loaded from memory

__global__ void through_global(int n, const int *rp, const float *val, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = rp[t]; k < rp[t + 1]; ++k) s += val[k];
    y[t] = s;
    g_val[t] = s;
  }
}
// CHECK: remark: range site in 'through_global' not transformed: the kernel may write memory the analysis cannot name: stores through 'g_val', a pointer loaded from a __device__ variable
