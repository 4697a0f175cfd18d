// A kernel template is analysed through its instantiations in the file and
// rewritten once: the transformed kernel and its launcher are templates too, and
// launches keep their explicit template arguments (or deduce them).
// RUN: %irregfix --quiet %s -- %stub | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines
#include <cuda_runtime.h>
template <class T, int BLOCK>
__global__ void __launch_bounds__(BLOCK) spmv(int n, const int *rp, const int *col, const T *val, const T *x, T *y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;

  if (row < n) {
    T sum = 0;
    for (int k = rp[row]; k < rp[row + 1]; ++k)
      sum += val[k] * x[col[k]];
    y[row] = sum;
  }
}
template <class T>
__global__ void gather(int n, const int *B, const T *A, T *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) y[t] = A[B[t]];
}
void run(int n, const int *rp, const int *col, const float *v, const float *x, float *y, const double *vd, const double *xd, double *yd) {
  spmv<float, 256><<<n / 256 + 1, 256>>>(n, rp, col, v, x, y);
  spmv<double, 256><<<n / 256 + 1, 256>>>(n, rp, col, vd, xd, yd);
  gather<<<n / 256 + 1, 256>>>(n, rp, v, y);
}

// CHECK:      // irregfix: 'spmv' reading its indirect arrays through coalesced copies; the original above is the fallback.
// CHECK-NEXT: template <class T, int BLOCK>
// CHECK-NEXT: __global__ void __launch_bounds__(BLOCK) spmv_irregfix(int n, const int *rp, const int *col, const T *val, const T *x, T *y, irregfix::View __irregfix_v0, const T *__restrict__ __irregfix_v0_val, const int *__restrict__ __irregfix_v0_col, const unsigned __irregfix_block_offset) {
// CHECK:      template <class T, int BLOCK>
// CHECK-NEXT: static void spmv_irregfix_launch(dim3 __irregfix_grid, dim3 __irregfix_block, size_t __irregfix_shmem, cudaStream_t __irregfix_stream, int n, const int *rp, const int *col, const T *val, const T *x, T *y) {
// CHECK:      for (int __irregfix_c = 0; __irregfix_c < __irregfix_chunks; ++__irregfix_c) {
// CHECK-NEXT:        const irregfix::Chunk __irregfix_chunk = irregfix::launch_chunk(__irregfix_site_spmv_0, __irregfix_c, __irregfix_grid, __irregfix_stream);
// CHECK-NEXT:          spmv_irregfix<T, BLOCK><<<__irregfix_chunk.grid, __irregfix_block, __irregfix_shmem, __irregfix_stream>>>(n, rp, col, val, x, y, __irregfix_v0, static_cast<const T *>(__irregfix_v0_out[0]), static_cast<const int *>(__irregfix_v0_out[1]), __irregfix_chunk.block_offset);
// CHECK:        spmv<T, BLOCK><<<__irregfix_grid, __irregfix_block, __irregfix_shmem, __irregfix_stream>>>(n, rp, col, val, x, y);
// CHECK:      // irregfix: launches gather_irregfix on remapped copies, or the original kernel when the runtime declines or times it faster.
// CHECK-NEXT: template <class T>
// CHECK-NEXT: static void gather_irregfix_launch(dim3 __irregfix_grid, dim3 __irregfix_block, size_t __irregfix_shmem, cudaStream_t __irregfix_stream, int n, const int *B, const T *A, T *y) {
// CHECK:        spmv_irregfix_launch<float, 256>(n / 256 + 1, 256, 0, 0, n, rp, col, v, x, y);
// CHECK:        spmv_irregfix_launch<double, 256>(n / 256 + 1, 256, 0, 0, n, rp, col, vd, xd, yd);
// CHECK:        gather_irregfix_launch(n / 256 + 1, 256, 0, 0, n, rp, v, y);
