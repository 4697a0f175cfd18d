// A 2-D cell index c = i + nx * j whose x guard stops short of the row pitch:
// interior cells (1 <= i < nx - 1) of rows nx wide, or i < nx - 2 beside a
// range. The pitch is at least the bound (nx less a non-negative constant, in
// int), so c still numbers the guarded threads one to one; the indexed site
// lays its copies out over nx positions per row, n = nx * (rows), and the
// positions past the bound (and before i = 1) are computed by the index
// kernels (every load checked) but read by no thread. A 3-D cell with the
// same x guard counts nx * ny * nz. A range site proper refuses the pitch (it
// would read the row bounds at every position below n, unchecked): the
// range's reads go to an indexed site instead.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: sed 's,// CHECK.*,,' %t.out | FileCheck %s --match-full-lines
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err

#include <cuda_runtime.h>

__global__ void interior_cells(int nx, int ny, const int *kind, const float *table, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= nx - 1 || j >= ny - 1 || i < 1 || j < 1)
    return;
  out[i + nx * j] = table[kind[i + nx * j] - 1];
}
// WHY: thread-index-2d-pitch.cu:[[@LINE-2]]:21: remark: indexed site in 'interior_cells' transformed: 'table' at 'kind[i + nx * j] - 1' read through coalesced copies, their indices computed by generated kernels
// CHECK-LABEL: __global__ void interior_cells_irregfix(int nx, int ny, const int *kind, const float *table, float *out, irregfix::View __irregfix_v0, const float *__restrict__ __irregfix_v0_table_0) {
// CHECK:         out[i + nx * j] = __irregfix_v0_table_0[irregfix::slot(__irregfix_v0, (i + nx * j), 0)];
// CHECK-LABEL: static __global__ void interior_cells_irregfix_indices0({{.*}}) {
// CHECK:           const long long __irregfix_i = (long long)(irregfix::checked_load(kind, (long long)(((int)__irregfix_t)), __irregfix_x, 0, __irregfix_ok) - 1);
// CHECK:         __irregfix_s.n = (long long)(nx) * (long long)(ny - 1);

__global__ void row_sums(int nx, int ny, const int *rowptr, const float *val, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < nx - 2 && j < ny) {
    float s = 0.0f;
    for (int k = rowptr[i + nx * j]; k < rowptr[i + nx * j + 1]; ++k)
      s += val[k];
    out[i + nx * j] = s;
  }
}
// WHY: thread-index-2d-pitch.cu:[[@LINE-5]]:5: remark: indexed site in 'row_sums' transformed: 'val' at 'k' read through coalesced copies over the loop's iterations, their indices computed by generated kernels
// CHECK-LABEL: static __global__ void row_sums_irregfix_lengths0({{.*}}) {
// CHECK:         const long long __irregfix_first = (long long)(irregfix::checked_load(rowptr, (long long)(((int)__irregfix_t)), __irregfix_x, 0, __irregfix_ok));
// CHECK:         __irregfix_s.n = (long long)(nx) * (long long)(ny);

__global__ void layered_interior(int nx, int ny, int nz, const int *kind, const float *table, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  int k = blockIdx.z * blockDim.z + threadIdx.z;
  if (i < nx - 1 && j < ny && k < nz) {
    int c = i + nx * j + nx * ny * k;
    out[c] = table[kind[c] - 1];
  }
}
// WHY: thread-index-2d-pitch.cu:[[@LINE-3]]:14: remark: indexed site in 'layered_interior' transformed: 'table' at 'kind[c] - 1' read through coalesced copies, their indices computed by generated kernels
// CHECK:         __irregfix_s.n = (long long)(nx) * (long long)(ny) * (long long)(nz);

void run(int nx, int ny, int nz, const int *kind, const int *rowptr, const float *table, const float *val, float *f) {
  dim3 block(32, 8), grid((nx + 31) / 32, (ny + 7) / 8);
  interior_cells<<<grid, block>>>(nx, ny, kind, table, f);
  row_sums<<<grid, block>>>(nx, ny, rowptr, val, f);
  layered_interior<<<dim3((nx + 7) / 8, (ny + 7) / 8, (nz + 3) / 4), dim3(8, 8, 4)>>>(nx, ny, nz, kind, table, f);
}
// CHECK: interior_cells_irregfix_launch(grid, block, 0, 0, nx, ny, kind, table, f);
// CHECK: row_sums_irregfix_launch(grid, block, 0, 0, nx, ny, rowptr, val, f);
// CHECK: layered_interior_irregfix_launch(dim3((nx + 7) / 8, (ny + 7) / 8, (nz + 3) / 4), dim3(8, 8, 4), 0, 0, nx, ny, nz, kind, table, f);
