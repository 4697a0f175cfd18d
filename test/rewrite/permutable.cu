// Which kernels may have their threads permuted (SELL-32-sigma), both ways.
// A permutable kernel reads its copy at the physical thread and maps its own
// index through logical_thread(); its SiteInfo says kSitePermutable. Any other
// kernel keeps the plain form, and a remark says why.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err
#include <cuda_runtime.h>

__global__ void spmv(int n, const int *B, const int *col, const float *val, const float *x, float *y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n)
    return;
  float s = 0;
  for (int k = B[row]; k < B[row + 1]; ++k)
    s += val[k] * x[col[k]];
  y[row] = s;
}
// CHECK-LABEL: __global__ void spmv_irregfix(
// CHECK-NEXT:    const long long __irregfix_p = (blockIdx.x + __irregfix_block_offset) * blockDim.x + threadIdx.x;
// CHECK-NEXT:    int row = static_cast<int>(irregfix::logical_thread(__irregfix_v0, __irregfix_p));
// CHECK:         irregfix::length(__irregfix_v0, __irregfix_p)
// CHECK:         __irregfix_v0_val[irregfix::slot(__irregfix_v0, __irregfix_p, __irregfix_iter0)]
// CHECK:         y[row] = s;
// WHY: permutable.cu:[[@LINE-15]]:17: remark: threads of 'spmv' may be permuted (SELL-32-sigma regroups rows by length)

__device__ float scale(float v) { return 2.0f * v; }

// A device function with a body the analysis can see.
__global__ void helper(int n, const int *B, const float *A, float *y) {
  const int t = threadIdx.x + blockIdx.x * blockDim.x;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k)
      s += scale(A[k]);
    y[t] = s;
  }
}
// CHECK-LABEL: __global__ void helper_irregfix(
// CHECK-NEXT:    const long long __irregfix_p = threadIdx.x + (blockIdx.x + __irregfix_block_offset) * blockDim.x;
// CHECK-NEXT:    const int t = static_cast<int>(irregfix::logical_thread(__irregfix_v0, __irregfix_p));
// WHY: remark: threads of 'helper' may be permuted

__global__ void shared(int n, const int *B, const float *A, float *y) {
  __shared__ float tile[256];
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k)
      s += A[k];
    tile[threadIdx.x] = s;
    y[t] = tile[threadIdx.x];
  }
}
// WHY: remark: threads of 'shared' keep their order (no SELL-32-sigma): it uses shared memory ('tile')

__global__ void warp(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  if (t < n)
    for (int k = B[t]; k < B[t + 1]; ++k)
      s += A[k];
  s += __shfl_down_sync(0xffffffffu, s, 1);
  if (t < n)
    y[t] = s;
}
// WHY: remark: threads of 'warp' keep their order (no SELL-32-sigma): it calls '__shfl_down_sync'

__global__ void barrier(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k)
      s += A[k];
    y[t] = s;
  }
  __syncthreads();
}
// WHY: remark: threads of 'barrier' keep their order (no SELL-32-sigma): it calls '__syncthreads'

__global__ void atomics(int n, const int *B, const float *A, float *y, float *total) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k)
      s += A[k];
    atomicAdd(total, s);
    y[t] = s;
  }
}
// WHY: remark: threads of 'atomics' keep their order (no SELL-32-sigma): it calls 'atomicAdd'

__global__ void lane(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k)
      s += A[k];
    y[t] = s + (threadIdx.x & 31);
  }
}
// WHY: remark: threads of 'lane' keep their order (no SELL-32-sigma): it reads 'threadIdx' other than in its thread index

__device__ int my_lane() { return threadIdx.x % 32; }

__global__ void lane_in_callee(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k)
      s += A[k];
    y[t] = s * my_lane();
  }
}
// WHY: remark: threads of 'lane_in_callee' keep their order (no SELL-32-sigma): it reads 'threadIdx' other than in its thread index

__global__ void two_sites(int n, const int *B, const float *A, const int *C, const float *D, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k)
      s += A[k];
    for (int k = C[t]; k < C[t + 1]; ++k)
      s += D[k];
    y[t] = s;
  }
}
// WHY: remark: threads of 'two_sites' keep their order (no SELL-32-sigma): it has more than one transformed site

__device__ float opaque(float v);

__global__ void unseen_callee(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k)
      s += A[k];
    y[t] = opaque(s);
  }
}
// WHY: remark: range site in 'unseen_callee' not transformed: the kernel may write memory the analysis cannot name: it calls 'opaque', whose body the analysis cannot see

__global__ void gather_only(int n, const int *C, const float *D, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    y[t] = D[C[t]];
}
// WHY: remark: threads of 'gather_only' keep their order (no SELL-32-sigma): its site is a gather, not a one-level range

__global__ void inline_index(int n, const int *B, const float *A, float *y) {
  if (blockIdx.x * blockDim.x + threadIdx.x < n) {
    float s = 0;
    for (int k = B[blockIdx.x * blockDim.x + threadIdx.x]; k < B[blockIdx.x * blockDim.x + threadIdx.x + 1]; ++k)
      s += A[k];
    y[blockIdx.x * blockDim.x + threadIdx.x] = s;
  }
}
// WHY: remark: threads of 'inline_index' keep their order (no SELL-32-sigma): its thread index is not a local initialised with blockIdx.x * blockDim.x + threadIdx.x

__global__ void grid_stride(int n, const int *B, const float *A, float *y) {
  for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < n; t += blockDim.x * gridDim.x) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k)
      s += A[k];
    y[t] = s;
  }
}
// WHY: remark: threads of 'grid_stride' keep their order (no SELL-32-sigma): its thread index is not declared directly in a block

__global__ void unsigned_index(unsigned n, const int *B, const float *A, float *y) {
  unsigned t = blockDim.x * blockIdx.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k)
      s += A[k];
    y[t] = s;
  }
}
// WHY: remark: threads of 'unsigned_index' may be permuted

template <class T> __global__ void templ(int n, const int *B, const T *A, T *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    T s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k)
      s += A[k];
    y[t] = s;
  }
}
// WHY: remark: threads of 'templ' keep their order (no SELL-32-sigma): it is a template

// Every kernel but the permutable ones keeps the plain form.
// CHECK-LABEL: __global__ void shared_irregfix(
// CHECK-NEXT:    __shared__ float tile[256];
// CHECK-NEXT:    int t = (blockIdx.x + __irregfix_block_offset) * blockDim.x + threadIdx.x;

// The declared type stays as written; the cast is to the type it names.
// CHECK-LABEL: __global__ void unsigned_index_irregfix(
// CHECK-NEXT:    const long long __irregfix_p = blockDim.x * (blockIdx.x + __irregfix_block_offset) + threadIdx.x;
// CHECK-NEXT:    unsigned t = static_cast<unsigned int>(irregfix::logical_thread(__irregfix_v0, __irregfix_p));

void run(int n, const int *B, const int *col, const float *val, const float *x, float *y, float *total,
         const int *C, const float *D, const double *Ad, double *yd) {
  spmv<<<n / 256 + 1, 256>>>(n, B, col, val, x, y);
  helper<<<n / 256 + 1, 256>>>(n, B, val, y);
  shared<<<n / 256 + 1, 256>>>(n, B, val, y);
  warp<<<n / 256 + 1, 256>>>(n, B, val, y);
  barrier<<<n / 256 + 1, 256>>>(n, B, val, y);
  atomics<<<n / 256 + 1, 256>>>(n, B, val, y, total);
  lane<<<n / 256 + 1, 256>>>(n, B, val, y);
  lane_in_callee<<<n / 256 + 1, 256>>>(n, B, val, y);
  two_sites<<<n / 256 + 1, 256>>>(n, B, val, C, D, y);
  unseen_callee<<<n / 256 + 1, 256>>>(n, B, val, y);
  gather_only<<<n / 256 + 1, 256>>>(n, C, D, y);
  inline_index<<<n / 256 + 1, 256>>>(n, B, val, y);
  grid_stride<<<n / 256 + 1, 256>>>(n, B, val, y);
  unsigned_index<<<n / 256 + 1, 256>>>(n, B, val, y);
  templ<double><<<n / 256 + 1, 256>>>(n, B, Ad, yd);
}
