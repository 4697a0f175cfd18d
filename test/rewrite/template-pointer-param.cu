// A kernel template whose array parameters have a template parameter as their
// type (`P A`, P deduced as `const float *`): the element type exists only per
// instantiation, so the copy's type is named through P in the transformed
// kernel and in its launcher.
// RUN: %irregfix --quiet %s -- %stub | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines
#include <cuda_runtime.h>
template <class P, class I>
__global__ void k(int n, I B, P A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k) s += A[k];
    y[t] = s;
  }
}
template <class P>
__global__ void g(int n, const int *B, const P A, P x, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) y[t] = A[B[t]] + x[B[t]];
}
void run(int n, const int *B, const float *a, const double *d, float *y) {
  k<<<1, 32>>>(n, B, a, y);
  k<<<1, 32>>>(n, B, d, y);
  g<<<1, 32>>>(n, B, a, a, y);
}

// CHECK:      // irregfix: 'k' reading its indirect arrays through coalesced copies; the original above is the fallback.
// CHECK-NEXT: template <class P, class I>
// CHECK-NEXT: __global__ void k_irregfix(int n, I B, P A, float *y, irregfix::View __irregfix_v0, const std::remove_pointer_t<P> *__restrict__ __irregfix_v0_A, const unsigned __irregfix_block_offset) {
// CHECK:      static void k_irregfix_launch(dim3 __irregfix_grid, dim3 __irregfix_block, size_t __irregfix_shmem, cudaStream_t __irregfix_stream, int n, I B, P A, float *y) {
// CHECK:      k_irregfix<P, I><<<__irregfix_chunk.grid, __irregfix_block, __irregfix_shmem, __irregfix_stream>>>(n, B, A, y, __irregfix_v0, static_cast<const std::remove_pointer_t<P> *>(__irregfix_v0_out[0]), __irregfix_chunk.block_offset);
// CHECK:      __global__ void g_irregfix(int n, const int *B, const P A, P x, float *y, irregfix::View __irregfix_v0, const std::remove_pointer_t<P> *__restrict__ __irregfix_v0_A, irregfix::View __irregfix_v1, const std::remove_pointer_t<P> *__restrict__ __irregfix_v1_x, const unsigned __irregfix_block_offset) {
// CHECK-NEXT:   int t = (blockIdx.x + __irregfix_block_offset) * blockDim.x + threadIdx.x;
// CHECK-NEXT:   if (t < n) y[t] = __irregfix_v0_A[irregfix::gather_slot(__irregfix_v0, t)] + __irregfix_v1_x[irregfix::gather_slot(__irregfix_v1, t)];
// CHECK:        k_irregfix_launch(1, 32, 0, 0, n, B, a, y);
// CHECK:        k_irregfix_launch(1, 32, 0, 0, n, B, d, y);
// CHECK:        g_irregfix_launch(1, 32, 0, 0, n, B, a, a, y);
