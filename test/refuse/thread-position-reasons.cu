// Indexed sites number threads by the 1-D global index or by a linear index
// of 2-D or 3-D ones; an index that uses another part of the thread's
// position cannot be laid out by them, and the remark names the part: a
// grid's global index in y on its own, the block's index in y, the thread's
// index in its block. Nothing is rewritten; the output is the input.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err
// RUN: diff %s %t.out

#include <cuda_runtime.h>

// A 2-D grid over cells; each cell reads its material's density in its row
// (j alone, beside the cell's linear index).
__global__ void density(const int *material, const float *per_material, float *out, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= nx || j >= ny)
    return;
  int m = material[i + nx * j];
  out[i + nx * j] = per_material[m * ny + j];
}
// CHECK-DAG: remark: indirect read of 'per_material' in 'density' not rewritten: its index cannot be computed outside the kernel: the thread's position other than its global index: 'j', its global index in y (indexed sites number the threads by the 1-D global index or by a linear index i + nx * j of the x and y indices)

// Each row of blocks copies one segment.
__global__ void segments(const int *start, const float *in, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int seg = blockIdx.y;
  if (t < n)
    out[seg * n + t] = in[start[seg] + t];
}
// CHECK-DAG: remark: indirect read of 'in' in 'segments' not rewritten: its index cannot be computed outside the kernel: the thread's position other than its global index ('blockIdx.y')

// Every block reads the same rows by lane.
__global__ void lanes(const int *rows, const float *v, float *out) {
  int lane = threadIdx.x;
  out[blockIdx.x * blockDim.x + lane] = v[rows[lane] + 1];
}
// CHECK-DAG: remark: indirect read of 'v' in 'lanes' not rewritten: its index cannot be computed outside the kernel: the thread's position other than its global index ('threadIdx.x')
// CHECK-NOT: transformed

void run(const int *material, const float *per_material, const int *start, const float *in, float *out, int nx,
         int ny) {
  density<<<dim3(nx / 16, ny / 16), dim3(16, 16)>>>(material, per_material, out, nx, ny);
  segments<<<dim3(nx / 128, 4), 128>>>(start, in, out, nx);
  lanes<<<4, 32>>>(start, in, out);
}
