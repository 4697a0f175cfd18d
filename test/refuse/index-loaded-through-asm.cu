// An index loaded by inline PTX (a cache-bypassing load in a small device
// function) is a loaded value like any subscript: the read it indexes is an
// indirect read, reported with the reason it stays as written.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err -implicit-check-not="{{remark|warning|error}}:"
// RUN: diff %s %t.out
// RUN: %irregfix --quiet --report %s -- %stub | FileCheck %s --check-prefix=REPORT

#include <cuda_runtime.h>

__device__ int load_bypassing_l1(const int *p) {
  int v;
  asm volatile("ld.global.cv.s32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}

__global__ void ell_product(int rows, int width, int pitch, const int *cols, const float *vals, const float *x,
                            float *y) {
  for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += blockDim.x * gridDim.x) {
    float sum = 0;
    for (int j = 0; j < width; ++j) {
      int c = load_bypassing_l1(cols + r + j * pitch);
      if (c >= 0)
        sum += vals[r + j * pitch] * x[c];
    }
    y[r] = sum;
  }
}
// CHECK: index-loaded-through-asm.cu:24:38: remark: indirect read of 'x' in 'ell_product' not rewritten: its index cannot be computed outside the kernel: it calls 'load_bypassing_l1', which may read memory
// REPORT: index-loaded-through-asm.cu:24:38: read kernel=ell_product array=x index="c" pattern=gather verdict=not-rewritten
