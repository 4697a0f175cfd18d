// Linear thread indices irregfix must leave alone, each with its reason: an
// index no guard bounds, a stride that is not the bound before it (two cells
// would share an index), an x index that does not step by 1, a 3-D stride
// over the wrong bounds, and a 2-D kernel with no guard at all (the launch's
// thread count covers only a 1-D index).
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err -implicit-check-not="{{remark|warning|error}}:"
// RUN: diff %s %t.out

#include <cuda_runtime.h>

#define INDICES                                    \
  int i = blockIdx.x * blockDim.x + threadIdx.x;   \
  int j = blockIdx.y * blockDim.y + threadIdx.y;   \
  int k = blockIdx.z * blockDim.z + threadIdx.z;

__global__ void y_unguarded(int nx, int ny, const int *B, const float *A, float *out) {
  INDICES
  if (i < nx) {
    int c = i + nx * j;
    out[c] = A[B[c]];
  }
}
// CHECK: thread-index-2d-reasons.cu:[[@LINE-3]]:14: remark: gather site in 'y_unguarded' not transformed: no guard bounds 'j', the y index of the linear thread index (each index needs one: if (i < nx && j < ny))

__global__ void stride_not_bound(int nx, int ny, const int *B, const float *A, float *out) {
  INDICES
  if (i < nx && j < ny) {
    int c = i + ny * j;
    out[c] = A[B[c]];
  }
}
// CHECK: thread-index-2d-reasons.cu:[[@LINE-3]]:14: remark: gather site in 'stride_not_bound' not transformed: the linear thread index is not one-to-one: 'j' is multiplied by 'ny', not by 'nx', the bound of its x index

__global__ void x_strided(int nx, int ny, const int *B, const float *A, float *out) {
  INDICES
  if (i < nx && j < ny) {
    int c = 2 * i + nx * j;
    out[c] = A[B[c]];
  }
}
// CHECK: thread-index-2d-reasons.cu:[[@LINE-3]]:14: remark: gather site in 'x_strided' not transformed: the linear thread index multiplies 'i' by '2'; its x index must step by 1

__global__ void z_stride_not_plane(int nx, int ny, int nz, const int *B, const float *A, float *out) {
  INDICES
  if (i >= nx || j >= ny || k >= nz)
    return;
  int c = i + nx * j + nx * nz * k;
  out[c] = A[B[c]];
}
// CHECK: thread-index-2d-reasons.cu:[[@LINE-2]]:12: remark: gather site in 'z_stride_not_plane' not transformed: the linear thread index is not one-to-one: 'k' is multiplied by 'nx * nz', not by 'nx * ny', the bounds of its x and y indices

__global__ void no_guard_2d(int nx, const int *B, const float *A, float *out) {
  INDICES
  int c = i + nx * j;
  out[c] = A[B[c]];
}
// CHECK: thread-index-2d-reasons.cu:[[@LINE-2]]:12: remark: gather site in 'no_guard_2d' not transformed: no guard bounds 'i', the x index of the linear thread index (each index needs one: if (i < nx && j < ny))
