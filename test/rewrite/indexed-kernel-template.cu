// An indexed site in a kernel template whose index reads a struct's field and a
// template argument: the index kernels and the step function are templates of the
// kernel's parameters, called with its arguments.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err

#include <cuda_runtime.h>

struct Mesh {
  const int *nb;
  int cells;
};

template <int Stride, class T>
__global__ void k(Mesh m, const T *A, T *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < m.cells) y[t] = A[m.nb[t * Stride + 1]];
}

void run(Mesh m, const float *a, float *y, const double *d, double *z) {
  k<2><<<4, 32>>>(m, a, y);
  k<3, double><<<4, 32>>>(m, d, z);
}
// WHY: remark: indexed site in 'k' transformed: 'A' at 'm.nb[t * Stride + 1]' read through coalesced copies
// CHECK: // irregfix: the element indices of the reads of 'k'
// CHECK-NEXT: template <int Stride, class T>
// CHECK-NEXT: static __global__ void k_irregfix_indices0(Mesh m, const T *A, T *y, irregfix::IndexExtents __irregfix_x, irregfix::View __irregfix_v, long long *__irregfix_idx0) {
// CHECK: irregfix::checked_load(m.nb, (long long)(((int)__irregfix_t) * Stride + 1), __irregfix_x, 0, __irregfix_ok)
// CHECK: template <int Stride, class T>
// CHECK-NEXT: static bool k_irregfix_indexed0(cudaStream_t __irregfix_stream, {{.*}}, Mesh m, const T *A, T *y, irregfix::View *__irregfix_view, const void **__irregfix_out) {
// CHECK: k_irregfix_indices0<Stride, T><<<__irregfix_blocks, 256, 0, __irregfix_stream>>>(m, A, y, __irregfix_x, __irregfix_w.view, __irregfix_w.idx[0]);
// CHECK: k_irregfix_indexed0<Stride, T>(__irregfix_stream, __irregfix_grid, __irregfix_block, m, A, y, &__irregfix_v0, __irregfix_v0_out)
// CHECK: k_irregfix_launch<2>(4, 32, 0, 0, m, a, y);
// CHECK: k_irregfix_launch<3, double>(4, 32, 0, 0, m, d, z);
