// A kernel file in another directory, which includes a header beside it.
#include "beside-helper.cuh"
__global__ void beside(int n, const int *idx, const float *a, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = scale(a[idx[t]]);
}
