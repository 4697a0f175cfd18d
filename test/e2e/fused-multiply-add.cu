// nvcc fuses a * b + c into one fused multiply-add only when the multiply and
// the add sit in one basic block. A rewritten read must not split the block
// the original kernel computed in (a branch on the copy's layout would): the
// transformed kernel then rounds as the original does, under every layout.
// Each kernel below fuses in the original; its transformed kernel, in every
// version the compiler makes of it, must fuse too and keep no separate
// double-precision multiply.
// REQUIRES: nvcc
// RUN: %irregfix_real --quiet %s -o %t.cu
// RUN: %nvcc -ptx %t.cu -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx

#include <cuda_runtime.h>

// A strided inner loop whose step is known only at run time, inside a
// grid-stride loop over rows: the copies' slots are computed in the loop.
__global__ void weights(int n, const int *start, const int *col, const double *x, double *w) {
  for (int row = threadIdx.z + blockIdx.z * blockDim.z; row < n; row += gridDim.z * blockDim.z)
    for (int k = start[row] + threadIdx.y + blockIdx.y * blockDim.y; k < start[row + 1];
         k += gridDim.y * blockDim.y) {
      int c = col[k];
      w[k] = x[row] * x[c] + (start[c + 1] - start[c]);
    }
}

// A running value scaled and added to a read through a map in a loop nest.
__global__ void blend(int nx, int ny, const int *map, const double *v, double *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= nx - 1 || y >= ny - 1)
    return;
  double s = 0;
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++)
      s = s * 0.5 + v[map[(x + dx) + nx * (y + dy)]];
  out[x + nx * y] = s;
}

// A CSR row: the product of two reads added to the sum.
__global__ void rows(int n, const int *start, const int *col, const double *val, const double *x, double *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    double s = 0;
    for (int k = start[t]; k < start[t + 1]; ++k)
      s += val[k] * x[col[k]];
    y[t] = s;
  }
}

// A neighbour list in columns, read through shared memory under the sharing layout.
__global__ void neighbours(int n, const int *count, const int *list, const double *pos, double *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    double s = pos[t];
    for (int j = 0; j < count[t]; ++j)
      s = s * 0.5 + pos[list[j * n + t]];
    out[t] = s;
  }
}

// CHECK-LABEL: .entry _Z7weightsiPKiS0_PKdPd(
// CHECK: fma.rn.f64
// CHECK-LABEL: .entry _Z16weights_irregfix
// CHECK-NOT: mul.f64
// CHECK: fma.rn.f64
// CHECK-NOT: mul.f64
// CHECK-LABEL: .entry
// CHECK-LABEL: .entry _Z5blendiiPKiPKdPd(
// CHECK: fma.rn.f64
// CHECK-LABEL: .entry _Z14blend_irregfix
// CHECK-NOT: mul.f64
// CHECK: fma.rn.f64
// CHECK-NOT: mul.f64
// CHECK-LABEL: .entry
// CHECK-LABEL: .entry _Z4rowsiPKiS0_PKdS2_Pd(
// CHECK: fma.rn.f64
// CHECK-LABEL: .entry _Z13rows_irregfix
// CHECK-NOT: mul.f64
// CHECK: fma.rn.f64
// CHECK-NOT: mul.f64
// CHECK-LABEL: .entry
// CHECK-LABEL: .entry _Z10neighboursiPKiS0_PKdPd(
// CHECK: fma.rn.f64
// CHECK-LABEL: .entry _Z19neighbours_irregfix
// CHECK-NOT: mul.f64
// CHECK: fma.rn.f64
// CHECK-NOT: mul.f64
