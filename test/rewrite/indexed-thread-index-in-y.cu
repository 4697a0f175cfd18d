// A CSR row numbered by the global index in y: the range pattern wants the
// 1-D global index, the indexed strategy numbers the launch's threads as the
// launch does (irregfix::launch_thread()) and runs its index kernels with the
// kernel's own grid and blocks, where 'blockIdx.y * blockDim.y + threadIdx.y'
// means what it means in the kernel.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err

#include <cuda_runtime.h>

__global__ void k(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.y * blockDim.y + threadIdx.y;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k) s += A[k];
    y[t] = s;
  }
}

void run(int n, const int *B, const float *A, float *y) { k<<<dim3(1, n / 8), dim3(32, 8)>>>(n, B, A, y); }
// WHY: remark: indexed site in 'k' transformed: 'A' at 'k' read through coalesced copies over the loop's iterations
// CHECK: s += __irregfix_v0_A_0[irregfix::slot(__irregfix_v0, irregfix::launch_thread(), (k - __irregfix_first0))]; }
// The index kernels: every launched thread, its row as the kernel computes it.
// CHECK: static __global__ void k_irregfix_lengths0(
// CHECK-NEXT: const long long __irregfix_t = irregfix::launch_thread();
// CHECK: irregfix::checked_load(B, (long long)((blockIdx.y * blockDim.y + threadIdx.y)), __irregfix_x, 0, __irregfix_ok)
// CHECK: static __global__ void k_irregfix_indices0(
// CHECK-NEXT: const long long __irregfix_t = irregfix::launch_thread();
// The launch's shape is part of the copy's key; the index kernels run with it.
// CHECK: const long long __irregfix_scalars[6] = {(long long)__irregfix_grid.x, (long long)__irregfix_grid.y, (long long)__irregfix_grid.z, (long long)__irregfix_block.x, (long long)__irregfix_block.y, (long long)__irregfix_block.z};
// CHECK: __irregfix_s.n = (long long)__irregfix_grid.x * __irregfix_grid.y * __irregfix_grid.z * __irregfix_block.x * __irregfix_block.y * __irregfix_block.z;
// CHECK-NOT: __irregfix_blocks
// CHECK: k_irregfix_lengths0<<<__irregfix_grid, __irregfix_block, 0, __irregfix_stream>>>(
// CHECK: k_irregfix_indices0<<<__irregfix_grid, __irregfix_block, 0, __irregfix_stream>>>(
