// The kernels of the lanes GPU tests. The test program compiles this file as
// irregfix --reassociate rewrites it: every kernel here reduces its row, so
// each gets a lanes variant (row_dots's float sum through --reassociate).
#include "lanes_kernels.h"

#include <climits>

__global__ void row_sums_kernel(int n, const int *B, const int *A, int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    int s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k)
      s += A[k];
    out[t] = s;
  }
}

__global__ void row_mins_kernel(int n, const int *B, const int *col, const int *label, int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  int m = label[t];
  for (int k = B[t]; k < B[t + 1]; ++k)
    m = min(m, label[col[k]]);
  out[t] = m;
}

__global__ void row_maxes_kernel(int n, const int *B, const int *A, int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    int most = INT_MIN;
    for (int k = B[t]; k < B[t + 1]; ++k)
      if (A[k] > most)
        most = A[k];
    out[t] = most;
  }
}

__global__ void row_flags_kernel(int n, const int *B, const int *col, const int *level, int cur, int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    int found = 0;
    for (int k = B[t]; k < B[t + 1]; ++k)
      if (level[col[k]] == cur)
        found = 1;
    out[t] = found;
  }
}

__global__ void row_mix_kernel(int n, const int *B, const int *A, short *sum16, unsigned long long *xor64,
                               bool *any_odd, unsigned *and_bits, int *positives) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    short s = 0;
    unsigned long long x = 0;
    bool odd = false;
    unsigned bits = ~0u;
    int count = 0;
    for (int k = B[t]; k < B[t + 1]; ++k) {
      s += static_cast<short>(A[k]);
      x ^= static_cast<unsigned long long>(A[k]) * 0x9e3779b97f4a7c15ULL;
      odd = odd || (A[k] & 1) != 0;
      bits &= static_cast<unsigned>(A[k]) | 0xff00ff00u;
      if (A[k] > 0)
        count++;
    }
    sum16[t] = s;
    xor64[t] = x;
    any_odd[t] = odd;
    and_bits[t] = bits;
    positives[t] = count;
  }
}

__global__ void row_dots_kernel(int n, const int *B, const int *col, const float *val, const float *x, float *y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n) {
    float sum = 0.0f;
    for (int k = B[row]; k < B[row + 1]; ++k)
      sum += val[k] * x[col[k]];
    y[row] = sum;
  }
}

namespace lanes_kernels {

static unsigned blocks(int n, unsigned block) { return (static_cast<unsigned>(n) + block - 1) / block; }

void row_sums(int n, const int *B, const int *A, int *out, unsigned block, cudaStream_t stream) {
  row_sums_kernel<<<blocks(n, block), block, 0, stream>>>(n, B, A, out);
}

void row_sums_2d(int n, const int *B, const int *A, int *out, unsigned block) {
  row_sums_kernel<<<dim3(blocks(n, block), 2), block>>>(n, B, A, out);
}

void row_mins(int n, const int *B, const int *col, const int *label, int *out, unsigned block) {
  row_mins_kernel<<<blocks(n, block), block>>>(n, B, col, label, out);
}

void row_maxes(int n, const int *B, const int *A, int *out, unsigned block) {
  row_maxes_kernel<<<blocks(n, block), block>>>(n, B, A, out);
}

void row_flags(int n, const int *B, const int *col, const int *level, int cur, int *out, unsigned block) {
  row_flags_kernel<<<blocks(n, block), block>>>(n, B, col, level, cur, out);
}

void row_mix(int n, const int *B, const int *A, short *sum16, unsigned long long *xor64, bool *any_odd,
             unsigned *and_bits, int *positives, unsigned block) {
  row_mix_kernel<<<blocks(n, block), block>>>(n, B, A, sum16, xor64, any_odd, and_bits, positives);
}

void row_dots(int n, const int *B, const int *col, const float *val, const float *x, float *y, unsigned block) {
  row_dots_kernel<<<blocks(n, block), block>>>(n, B, col, val, x, y);
}

} // namespace lanes_kernels
