// Indices that use the thread's position other than its global index — the
// block's index in y, the global index in y, the thread's index in x of a
// block of rows — or two numberings of the threads at once: the indexed site
// numbers every thread of the launch as the launch does
// (irregfix::launch_thread(): blocks in grid order, threads in block order, x
// fastest), and its index kernels run with the kernel's grid and blocks,
// where every builtin index means what it means in the kernel.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err

#include <cuda_runtime.h>

// Each row of blocks gathers one segment.
__global__ void segments(const int *first, const float *in, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int part = blockIdx.y;
  if (t < n)
    out[part * n + t] = in[first[part] + t];
}
// WHY: remark: indexed site in 'segments' transformed: 'in' at 'first[part] + t' read through coalesced copies, their indices
// CHECK-LABEL: __global__ void segments_irregfix(
// CHECK: out[part * n + t] = __irregfix_v0_in_0[irregfix::slot(__irregfix_v0, irregfix::launch_thread(), 0)];
// CHECK: static __global__ void segments_irregfix_indices0(
// CHECK: const long long __irregfix_i = (long long)(irregfix::checked_load(first, (long long)((blockIdx.y)), __irregfix_x, 0, __irregfix_ok) + (blockIdx.x * blockDim.x + threadIdx.x));

// The eight cells around each inner cell of a grid, each through a map of
// cells (its neighbour's offsets from loops of constant bounds).
__global__ void around(int nx, int ny, const int *map, const float *v, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= nx - 1 || y >= ny - 1)
    return;
  float s = 0;
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++) {
      if (dx == 0 && dy == 0)
        continue;
      int c = (x + dx) + nx * (y + dy);
      s += v[map[c]];
    }
  out[x + nx * y] = s;
}
// WHY: remark: indexed site in 'around' transformed: 'v' at 'map[c]' read through coalesced copies over the iterations of its nest of 2 loops
// CHECK-LABEL: __global__ void around_irregfix(
// CHECK: s += __irregfix_v0_v_0[irregfix::slot(__irregfix_v0, irregfix::launch_thread(), ((dy - __irregfix_first0) * __irregfix_trips0_1 + (dx - __irregfix_first0_1)))];
// CHECK: static __global__ void around_irregfix_indices0(
// CHECK: irregfix::checked_load(map, (long long)((((blockIdx.x * blockDim.x + threadIdx.x) + ((int)(__irregfix_first1 + __irregfix_at1))) + nx * ((blockIdx.y * blockDim.y + threadIdx.y) + ((int)(__irregfix_first + __irregfix_at0))))), __irregfix_x, 0, __irregfix_ok)

// A row a group of lanes in x, rows in y; each lane walks the row in steps
// of the group (a template: program-wide renumbering does not take it).
template <int Lanes>
__global__ void lane_rows(int rows, const int *start, const int *col, const float *val, const float *x, float *y) {
  int r = blockIdx.x * blockDim.y + threadIdx.y;
  if (r < rows) {
    float s = 0;
    for (int k = start[r] + threadIdx.x; k < start[r + 1]; k += Lanes)
      s += val[k] * x[col[k]];
    for (int o = Lanes / 2; o > 0; o /= 2)
      s += __shfl_down_sync(0xffffffff, s, o, Lanes);
    if (threadIdx.x == 0)
      y[r] = s;
  }
}
// WHY: remark: indexed site in 'lane_rows' transformed: 'val' at 'k', 'x' at 'col[k]' read through coalesced copies over the loop's iterations
// CHECK-LABEL: __global__ void lane_rows_irregfix(
// CHECK: { const long long __irregfix_first0 = (long long)(start[r] + threadIdx.x); const long long __irregfix_step0 = (long long)(Lanes); for (int k = start[r] + threadIdx.x; k < start[r + 1]; k += Lanes)
// CHECK-NEXT: s += __irregfix_v0_val_0[irregfix::slot(__irregfix_v0, irregfix::launch_thread(), ((k - __irregfix_first0) / __irregfix_step0))] * __irregfix_v0_x_1[irregfix::slot(__irregfix_v0, irregfix::launch_thread(), ((k - __irregfix_first0) / __irregfix_step0))]; }
// CHECK: static __global__ void lane_rows_irregfix_lengths0(
// CHECK: const long long __irregfix_first = (long long)(irregfix::checked_load(start, (long long)((blockIdx.x * blockDim.y + threadIdx.y)), __irregfix_x, 0, __irregfix_ok) + threadIdx.x);
// CHECK: const long long __irregfix_step = (long long)(Lanes);

// A cell's value offset by its column: the x index beside the cell's linear
// index, two numberings of the threads that the launch's numbers both.
__global__ void by_column(int nx, int ny, const int *kind, const float *table, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < nx && j < ny) {
    int c = nx * j + i;
    out[c] = table[kind[c] + i];
  }
}
// WHY: remark: indexed site in 'by_column' transformed: 'table' at 'kind[c] + i' read through coalesced copies, their indices
// CHECK-LABEL: __global__ void by_column_irregfix(
// CHECK: out[c] = __irregfix_v0_table_0[irregfix::slot(__irregfix_v0, irregfix::launch_thread(), 0)];

void run(int n, const int *first, const float *in, float *out, const int *start, const int *col) {
  segments<<<dim3(n / 128, 4), 128>>>(first, in, out, n);
  around<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(n, n, first, in, out);
  lane_rows<8><<<n / 8, dim3(8, 8)>>>(n, start, col, in, in, out);
  by_column<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(n, n, first, in, out);
}
