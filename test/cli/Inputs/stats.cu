#include <cuda_runtime.h>
__global__ void good(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) { float s = 0; for (int k = B[t]; k < B[t + 1]; ++k) s += A[k]; y[t] = s; }
}
__global__ void bad(int n, const int *B, float *A) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) A[t] = A[B[t]];
}
__global__ void bad2(int n, const int *B, float *A) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) A[t] += A[B[t]];
}
void run(int n, const int *B, const float *A, float *y, float *W) {
  cudaMemset(y, 0, n * sizeof(float));
  good<<<n / 128 + 1, 128>>>(n, B, A, y);
  bad<<<n / 128 + 1, 128>>>(n, B, W);
}
