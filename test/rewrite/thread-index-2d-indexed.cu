// Reads whose index comes from a value loaded at a 2-D cell's linear index
// c = i + nx * j: a material's entry (a gather computed from kind[c]) and a
// mixed cell's list (a CSR loop whose row is -kind[c]). They go to indexed
// sites laid out in c over nx * ny threads: the kernel reads its copies at
// slot(v, c, iteration), the generated index kernels number the same threads
// 0 .. nx*ny-1 in one dimension and read kind at that number, and the
// launcher computes n from the guard bounds. The cell is written in the
// subscript, commuted (nx * j + i, j * nx + i) or held in a local; a 3-D cell
// is one index of nx * ny * nz threads alike.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: sed 's,// CHECK.*,,' %t.out | FileCheck %s --match-full-lines
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err
// RUN: cp %s %t.cu
// RUN: %irregfix --quiet --diff %t.cu -- %stub | FileCheck %s --check-prefix=DIFF

#include <cuda_runtime.h>

__global__ void material_entry(int nx, int ny, const int *kind, const float *table, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < nx && j < ny)
    out[nx * j + i] = table[2 * kind[nx * j + i] + 1];
}
// WHY: thread-index-2d-indexed.cu:[[@LINE-2]]:23: remark: indexed site in 'material_entry' transformed: 'table' at '2 * kind[nx * j + i] + 1' read through coalesced copies, their indices computed by generated kernels
// WHY: remark: threads of 'material_entry' keep their order (no SELL-32-sigma): it has an indexed site (its copies are built whole, in thread order)
// CHECK-LABEL: __global__ void material_entry_irregfix(int nx, int ny, const int *kind, const float *table, float *out, irregfix::View __irregfix_v0, const float *__restrict__ __irregfix_v0_table_0) {
// CHECK:           out[nx * j + i] = __irregfix_v0_table_0[irregfix::slot(__irregfix_v0, (nx * j + i), 0)];
// CHECK-LABEL: static __global__ void material_entry_irregfix_indices0({{.*}}) {
// CHECK-NEXT:    const long long __irregfix_t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-NEXT:    if (__irregfix_t >= __irregfix_v.n)
// CHECK:           const long long __irregfix_i = (long long)(2 * irregfix::checked_load(kind, (long long)(((int)__irregfix_t)), __irregfix_x, 0, __irregfix_ok) + 1);
// CHECK:         __irregfix_s.n = (long long)(nx) * (long long)(ny);

__global__ void mixed_cells(int nx, int ny, const int *kind, const int *start, const double *frac, double *out) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  int j = threadIdx.y + blockIdx.y * blockDim.y;
  if (i >= nx || j >= ny)
    return;
  int c = j * nx + i;
  int m = kind[c];
  double s = 0.0;
  if (m <= 0)
    for (int e = start[-m]; e < start[-m + 1]; ++e)
      s += frac[e];
  out[c] = s;
}
// WHY: thread-index-2d-indexed.cu:[[@LINE-4]]:18: remark: indexed site in 'mixed_cells' transformed: 'start' at '-m', 'start' at '-m + 1' read through coalesced copies, their indices computed by generated kernels
// WHY: thread-index-2d-indexed.cu:[[@LINE-5]]:5: remark: indexed site in 'mixed_cells' transformed: 'frac' at 'e' read through coalesced copies over the loop's iterations, their indices computed by generated kernels
// CHECK-LABEL: __global__ void mixed_cells_irregfix(int nx, int ny, const int *kind, const int *start, const double *frac, double *out, irregfix::View __irregfix_v0, const int *__restrict__ __irregfix_v0_start_0, const int *__restrict__ __irregfix_v0_start_1, irregfix::View __irregfix_v1, const double *__restrict__ __irregfix_v1_frac_0) {
// CHECK:           { const long long __irregfix_first1 = (long long)(start[-m]); for (int e = __irregfix_v0_start_0[irregfix::slot(__irregfix_v0, c, 0)]; e < __irregfix_v0_start_1[irregfix::slot(__irregfix_v0, c, 0)]; ++e)
// CHECK-NEXT:        s += __irregfix_v1_frac_0[irregfix::slot(__irregfix_v1, c, (e - __irregfix_first1))]; }
// CHECK-LABEL: static __global__ void mixed_cells_irregfix_lengths1({{.*}}) {
// CHECK:         const long long __irregfix_first = (long long)(irregfix::checked_load(start, (long long)(-(irregfix::checked_load(kind, (long long)(((int)__irregfix_t)), __irregfix_x, 1, __irregfix_ok))), __irregfix_x, 0, __irregfix_ok));
// CHECK:         __irregfix_s.n = (long long)(nx) * (long long)(ny);

// Three dimensions, the cell nested as (k * ny + j) * nx + i: n = nx * ny * nz.
__global__ void layered(int nx, int ny, int nz, const int *kind, const float *table, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  int k = blockIdx.z * blockDim.z + threadIdx.z;
  if (i >= nx || j >= ny || k >= nz)
    return;
  int c = (k * ny + j) * nx + i;
  out[c] = table[kind[c] - 1];
}
// WHY: thread-index-2d-indexed.cu:[[@LINE-2]]:12: remark: indexed site in 'layered' transformed: 'table' at 'kind[c] - 1' read through coalesced copies, their indices computed by generated kernels
// CHECK-LABEL: __global__ void layered_irregfix(int nx, int ny, int nz, const int *kind, const float *table, float *out, irregfix::View __irregfix_v0, const float *__restrict__ __irregfix_v0_table_0) {
// CHECK:         out[c] = __irregfix_v0_table_0[irregfix::slot(__irregfix_v0, c, 0)];
// CHECK-LABEL: static __global__ void layered_irregfix_indices0({{.*}}) {
// CHECK:           const long long __irregfix_i = (long long)(irregfix::checked_load(kind, (long long)(((int)__irregfix_t)), __irregfix_x, 0, __irregfix_ok) - 1);
// CHECK:         __irregfix_s.n = (long long)(nx) * (long long)(ny) * (long long)(nz);

void run(int nx, int ny, int nz, const int *kind, const int *start, const float *table, const double *frac,
         float *f, double *d) {
  dim3 block(32, 8), grid((nx + 31) / 32, (ny + 7) / 8);
  material_entry<<<grid, block>>>(nx, ny, kind, table, f);
  mixed_cells<<<grid, block>>>(nx, ny, kind, start, frac, d);
  layered<<<dim3((nx + 7) / 8, (ny + 7) / 8, (nz + 3) / 4), dim3(8, 8, 4)>>>(nx, ny, nz, kind, table, f);
}
// CHECK: material_entry_irregfix_launch(grid, block, 0, 0, nx, ny, kind, table, f);
// CHECK: mixed_cells_irregfix_launch(grid, block, 0, 0, nx, ny, kind, start, frac, d);
// CHECK: layered_irregfix_launch(dim3((nx + 7) / 8, (ny + 7) / 8, (nz + 3) / 4), dim3(8, 8, 4), 0, 0, nx, ny, nz, kind, table, f);

// As a diff: the originals stay (the fallback); each gets a transformed copy
// beside it, and the launches call the launchers.
// DIFF:      +__global__ void material_entry_irregfix(
// DIFF:      +    out[nx * j + i] = __irregfix_v0_table_0[irregfix::slot(__irregfix_v0, (nx * j + i), 0)];
// DIFF:      +__global__ void mixed_cells_irregfix(
// DIFF:      +    { const long long __irregfix_first1 = (long long)(start[-m]); for (int e = __irregfix_v0_start_0[irregfix::slot(__irregfix_v0, c, 0)]; e < __irregfix_v0_start_1[irregfix::slot(__irregfix_v0, c, 0)]; ++e)
// DIFF-NEXT: +      s += __irregfix_v1_frac_0[irregfix::slot(__irregfix_v1, c, (e - __irregfix_first1))]; }
// DIFF:      -  material_entry<<<grid, block>>>(nx, ny, kind, table, f);
// DIFF-NEXT: -  mixed_cells<<<grid, block>>>(nx, ny, kind, start, frac, d);
// DIFF:      +  material_entry_irregfix_launch(grid, block, 0, 0, nx, ny, kind, table, f);
// DIFF:      +  mixed_cells_irregfix_launch(grid, block, 0, 0, nx, ny, kind, start, frac, d);
