// Locals given their values by a sequence of statements (`row = e; if (c) row = f;`)
// and a thread index through locals holding blockIdx.x and threadIdx.x: the index
// kernel computes each local's value where it is read (`c ? f : e`).
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err

#include <cuda_runtime.h>

__global__ void stencil(int rows, long cells, const int *north, const float *img, float *out) {
  int bx = blockIdx.x;
  int tx = threadIdx.x;
  int e = bx * 256 + tx;
  int row;
  int col;
  row = (e + 1) % rows - 1;
  col = (e + 1) / rows;
  if ((e + 1) % rows == 0) {
    row = rows - 1;
    col = col - 1;
  }
  if (e < cells)
    out[e] = img[north[row] + rows * col];
}

void run(int rows, long cells, const int *north, const float *img, float *out) {
  stencil<<<(cells + 255) / 256, 256>>>(rows, cells, north, img, out);
}
// WHY: remark: indexed site in 'stencil' transformed: 'img' at 'north[row] + rows * col'
// The else value of col is its value before the if; the then value reads it too.
// CHECK: irregfix::checked_load(north, (long long)((((((int)__irregfix_t) + 1) % rows == 0) ? (rows - 1) : (((((int)__irregfix_t) + 1) % rows - 1)))), __irregfix_x, 0, __irregfix_ok) + rows * (((((int)__irregfix_t) + 1) % rows == 0) ? (((((int)__irregfix_t) + 1) / rows) - 1) : (((((int)__irregfix_t) + 1) / rows))))
// The kernel assumes blocks of 256 threads: its launches check it.
// CHECK: irregfix::block_size_is(__irregfix_site_stencil_0, __irregfix_block, 256)
