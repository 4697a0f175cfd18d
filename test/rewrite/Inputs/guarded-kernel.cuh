// A kernel file behind an include guard.
#ifndef GUARDED_KERNEL_CUH
#define GUARDED_KERNEL_CUH

__global__ void guarded(int n, const int *idx, const float *a, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = a[idx[t]];
}

#endif
