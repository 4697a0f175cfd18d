// A scatter update through an index array of shorts: the runtime reads 32- and
// 64-bit indices only, so the kernel is left alone (its output would not compile).
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err
// RUN: diff %s %t.out

#include <cuda_runtime.h>

__global__ void deposit(int n, const short *cell, const double *charge, double *rho) {
  int t = threadIdx.x + blockIdx.x * blockDim.x;
  if (t >= n)
    return;
  rho[cell[t]] += charge[t];
}
// CHECK: remark: scatter site in 'deposit' not transformed: the index array's elements are 'const short'; the runtime reads 32- and 64-bit integer indices

void step(int n, const short *cell, const double *charge, double *rho) {
  deposit<<<(n + 127) / 128, 128>>>(n, cell, charge, rho);
}
