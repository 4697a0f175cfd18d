#include <cuda_runtime.h>
#include "kernels.cuh"

void run(int n, const int *rp, const float *v, float *y) { spmv<<<n / 128 + 1, 128>>>(n, rp, v, y); }
