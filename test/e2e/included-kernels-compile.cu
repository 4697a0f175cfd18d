// A main file whose kernels are in an included file in another directory:
// the single output (-o) compiles with nvcc without a warning, and so do the
// files rewritten in place (-i): the main file, and the kernel file alone.
// REQUIRES: nvcc
// RUN: %irregfix_real --quiet %s -o %t.cu -- -I %S/Inputs
// RUN: grep -q "__global__ void spmv_irregfix" %t.cu
// RUN: %nvcc -Werror all-warnings -c %t.cu -o %t.o
// RUN: rm -rf %t.dir && mkdir -p %t.dir && cp %s %t.dir/main.cu && cp -r %S/Inputs/kernels %t.dir/kernels
// RUN: %irregfix_real --quiet -i %t.dir/main.cu -- -I %t.dir
// RUN: grep -q "__global__ void spmv_irregfix" %t.dir/kernels/spmv-kernels.cuh
// RUN: %nvcc -Werror all-warnings -I %t.dir -c %t.dir/main.cu -o %t.main.o
// RUN: echo '#include "kernels/spmv-kernels.cuh"' > %t.dir/kernels-alone.cu
// RUN: %nvcc -Werror all-warnings -I %t.dir -c %t.dir/kernels-alone.cu -o %t.kernels.o
#include <cuda_runtime.h>
#include "kernels/spmv-kernels.cuh"

void run(int n, const int *rp, const int *col, const float *val, const float *x, float *y) {
  cudaMemset(y, 0, n * sizeof(float));
  spmv<<<(n + 127) / 128, 128>>>(n, rp, col, val, x, y);
  spmv_host(n, rp, col, val, x, y);
}
