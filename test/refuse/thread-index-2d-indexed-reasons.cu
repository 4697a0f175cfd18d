// Reads whose index comes from a value loaded at a 2-D cell's index, which
// irregfix must leave alone because that index does not number the guarded
// threads one to one. Each remark says why: a row pitch that is not the
// x guard's bound, nor certainly at least it (nx + 1 under stride nx; nx - 1
// in unsigned arithmetic; nx less a parameter), no guard on j, an x index
// that steps by 2. (j or i on its own beside the cell is another numbering of
// the threads: the launch's own numbering takes both, see
// rewrite/indexed-launch-numbered.cu.)
// Nothing is rewritten; the output is the input.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err -implicit-check-not="{{remark|warning|error}}:"
// RUN: diff %s %t.out

#include <cuda_runtime.h>

#define CELL_INDICES                             \
  int i = blockIdx.x * blockDim.x + threadIdx.x; \
  int j = blockIdx.y * blockDim.y + threadIdx.y;

__global__ void pitched_rows(int nx, int ny, int pitch, const int *kind, const float *table, float *out) {
  CELL_INDICES
  if (i < nx && j < ny)
    out[i + pitch * j] = table[kind[i + pitch * j] - 1];
}
// CHECK: thread-index-2d-indexed-reasons.cu:[[@LINE-2]]:26: remark: indirect read of 'table' in 'pitched_rows' not rewritten: the linear thread index is not one-to-one: 'j' is multiplied by 'pitch', not by 'nx', the bound of its x index

// A row pitch that may be below the x bound: two threads of one column
// number the same cell.
__global__ void rows_wider_than_pitch(int nx, int ny, const int *kind, const float *table, float *out) {
  CELL_INDICES
  if (i < nx + 1 && j < ny)
    out[i + nx * j] = table[kind[i + nx * j] - 1];
}
// CHECK: thread-index-2d-indexed-reasons.cu:[[@LINE-2]]:23: remark: indirect read of 'table' in 'rows_wider_than_pitch' not rewritten: the linear thread index is not one-to-one: 'j' is multiplied by 'nx', not by 'nx + 1', the bound of its x index

// nx - 1 in unsigned arithmetic is no bound below nx: at nx = 0 it wraps.
__global__ void unsigned_interior(unsigned nx, unsigned ny, const int *kind, const float *table, float *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < nx - 1 && j < ny)
    out[i + nx * j] = table[kind[i + nx * j] - 1];
}
// CHECK: thread-index-2d-indexed-reasons.cu:[[@LINE-2]]:23: remark: indirect read of 'table' in 'unsigned_interior' not rewritten: the linear thread index is not one-to-one: 'j' is multiplied by 'nx', not by 'nx - 1', the bound of its x index

// The pitch less a value not known to be non-negative.
__global__ void pitch_less_parameter(int nx, int ny, int halo, const int *kind, const float *table, float *out) {
  CELL_INDICES
  if (i < nx - halo && j < ny)
    out[i + nx * j] = table[kind[i + nx * j] - 1];
}
// CHECK: thread-index-2d-indexed-reasons.cu:[[@LINE-2]]:23: remark: indirect read of 'table' in 'pitch_less_parameter' not rewritten: the linear thread index is not one-to-one: 'j' is multiplied by 'nx', not by 'nx - halo', the bound of its x index

__global__ void no_row_guard(int nx, const int *kind, const float *table, float *out) {
  CELL_INDICES
  if (i >= nx)
    return;
  out[i + nx * j] = table[kind[i + nx * j] - 1];
}
// CHECK: thread-index-2d-indexed-reasons.cu:[[@LINE-2]]:21: remark: indirect read of 'table' in 'no_row_guard' not rewritten: no guard bounds 'j', the y index of the linear thread index (each index needs one: if (i < nx && j < ny))

__global__ void every_other_column(int nx, int ny, const int *kind, const float *table, float *out) {
  CELL_INDICES
  if (i < nx && j < ny)
    out[i + nx * j] = table[kind[2 * i + nx * j] - 1];
}
// CHECK: thread-index-2d-indexed-reasons.cu:[[@LINE-2]]:23: remark: indirect read of 'table' in 'every_other_column' not rewritten: the linear thread index multiplies 'i' by '2'; its x index must step by 1
