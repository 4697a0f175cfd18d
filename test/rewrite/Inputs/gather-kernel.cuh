// A kernel in a file of its own, which the main file includes.
__global__ void gather(int n, const int *idx, const float *a, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = a[idx[t]];
}
