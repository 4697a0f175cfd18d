// A ragged nest: an inner loop whose bounds follow the variable of the loop
// right around it, which runs it at every iteration. The site copies over the
// inner loop's iterations, one after the other across the outer loop's: the
// kernel counts them (a base, advanced by the inner loop's trip count each
// time the inner loop starts), the lengths kernel sums the trip counts, the
// indices kernel walks the nest as the kernel does.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err

#include <cuda_runtime.h>

// Two rows a thread, scaled between them.
__global__ void two_rows(int n, const int *rp, const int *col, const float *x, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int r = 2 * t; r < 2 * t + 2; ++r) {
      s *= 0.5f;
      for (int k = rp[r]; k < rp[r + 1]; ++k)
        s += x[col[k]];
    }
    y[t] = s;
  }
}
// WHY: remark: indexed site in 'two_rows' transformed: 'x' at 'col[k]' read through coalesced copies over the iterations of its nest of 2 loops
// CHECK-LABEL: __global__ void two_rows_irregfix(
// CHECK: { long long __irregfix_base0 = 0; for (int r = 2 * t; r < 2 * t + 2; ++r) {
// CHECK-NEXT: s *= 0.5f;
// CHECK-NEXT: { const long long __irregfix_first0_1 = (long long)(rp[r]); const long long __irregfix_end0_1 = (long long)(rp[r + 1]); const long long __irregfix_trips0_1 = __irregfix_end0_1 > __irregfix_first0_1 ? __irregfix_end0_1 - __irregfix_first0_1 : 0; __irregfix_base0 += __irregfix_trips0_1; for (int k = rp[r]; k < rp[r + 1]; ++k)
// CHECK-NEXT: s += __irregfix_v0_x_0[irregfix::slot(__irregfix_v0, t, (__irregfix_base0 - __irregfix_trips0_1 + (k - __irregfix_first0_1)))]; }
// CHECK-NEXT: } }
// CHECK: static __global__ void two_rows_irregfix_lengths0(
// CHECK: long long __irregfix_count = 0;
// CHECK: for (long long __irregfix_at0 = 0; __irregfix_at0 < __irregfix_trips && __irregfix_count < 0x7fffffffLL; ++__irregfix_at0) {
// CHECK-NEXT: const long long __irregfix_first1 = (long long)(irregfix::checked_load(rp, (long long)(((int)(__irregfix_first + __irregfix_at0))), __irregfix_x, 1, __irregfix_ok));
// CHECK: __irregfix_count = __irregfix_count > 0x7fffffffLL - __irregfix_trips1 ? 0x7fffffffLL : __irregfix_count + __irregfix_trips1;
// CHECK: static __global__ void two_rows_irregfix_indices0(
// CHECK: const long long __irregfix_len = irregfix::length(__irregfix_v, __irregfix_t);
// CHECK: for (long long __irregfix_at1 = 0; __irregfix_at1 < __irregfix_trips1 && __irregfix_iter < __irregfix_len; ++__irregfix_at1, ++__irregfix_iter) {
// CHECK: irregfix::checked_load(col, (long long)(((int)(__irregfix_first1 + __irregfix_at1))), __irregfix_x, 0, __irregfix_ok)

// Rows of a sparse matrix in a grid-stride loop in z, each row's entries
// across the y lanes of the grid: both loops stride by the launch's
// dimensions, the inner one's bounds follow the row.
__global__ void pair_weights(int n, const int *ptr, const int *ind, const float *work, float *w) {
  for (int row = threadIdx.z + blockIdx.z * blockDim.z; row < n; row += gridDim.z * blockDim.z)
    for (int j = ptr[row] + threadIdx.y + blockIdx.y * blockDim.y; j < ptr[row + 1]; j += gridDim.y * blockDim.y) {
      int col = ind[j];
      int shorter = ptr[row + 1] - ptr[row] < ptr[col + 1] - ptr[col] ? row : col;
      w[j] = work[row] + work[col] + ptr[shorter];
    }
}
// WHY: remark: indexed site in 'pair_weights' transformed: 'ind' at 'j', 'ptr' at 'col + 1', 'ptr' at 'col', 'work' at 'col', 'ptr' at 'shorter' read through coalesced copies over the iterations of its nest of 2 loops
// CHECK-LABEL: __global__ void pair_weights_irregfix(
// CHECK: { long long __irregfix_base0 = 0; for (int row = threadIdx.z + blockIdx.z * blockDim.z; row < n; row += gridDim.z * blockDim.z)
// CHECK-NEXT: { const long long __irregfix_first0_1 = (long long)(ptr[row] + threadIdx.y + blockIdx.y * blockDim.y); const long long __irregfix_step0_1 = (long long)(gridDim.y * blockDim.y); const long long __irregfix_end0_1 = (long long)(ptr[row + 1]); const long long __irregfix_trips0_1 = __irregfix_end0_1 > __irregfix_first0_1 ? (__irregfix_end0_1 - __irregfix_first0_1 + __irregfix_step0_1 - 1) / __irregfix_step0_1 : 0; __irregfix_base0 += __irregfix_trips0_1; for (int j = ptr[row] + threadIdx.y + blockIdx.y * blockDim.y; j < ptr[row + 1]; j += gridDim.y * blockDim.y) {
// CHECK-NEXT: int col = __irregfix_v0_ind_0[irregfix::slot(__irregfix_v0, irregfix::launch_thread(), (__irregfix_base0 - __irregfix_trips0_1 + ((j - __irregfix_first0_1) / __irregfix_step0_1)))];
// CHECK: } } }
// CHECK: static __global__ void pair_weights_irregfix_lengths0(
// CHECK-NEXT: const long long __irregfix_t = irregfix::launch_thread();
// CHECK: const long long __irregfix_step = (long long)(gridDim.z * blockDim.z);

void run(int n, const int *ptr, const int *ind, const float *work, float *w) {
  two_rows<<<n / 256, 128>>>(n, ptr, ind, work, w);
  pair_weights<<<dim3(1, 1, n / 8), dim3(4, 8, 8)>>>(n, ptr, ind, work, w);
}
