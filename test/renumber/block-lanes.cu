// Vector CSR kernels (a group of lanes a row) join the program-wide
// renumbering as a thread-per-row product does. A group is a block's row of
// threads in x (`row = blockIdx.x * blockDim.y + threadIdx.y`, the lane
// threadIdx.x, launched with blocks of exactly the group's lanes in x) or G
// consecutive threads of a 1-D grid (`row = tid / 32`, `lane = tid % 32`).
// The lanes stride the row's segment, which a renumbering moves whole, and
// reduce within their group: another row number hands the row to another
// group, read by the same lanes in the same order, so its sum keeps its bits.
// Their reads are then reported as renumbered, not as refused.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// [A-Z0-9-]*:.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err
// RUN: %irregfix --report=text %s -- %stub 2>/dev/null | FileCheck %s --check-prefix=REPORT
// RUN: %irregfix --report=json --quiet %s -- %stub | FileCheck %s --check-prefix=JSON
// RUN: %irregfix %s -- %stub -DLANE_LOCAL 2>&1 >/dev/null | FileCheck %s --check-prefix=LANE-LOCAL
// RUN: %irregfix %s -- %stub -DEVERY_LANE 2>&1 >/dev/null | FileCheck %s --check-prefix=EVERY-LANE
// RUN: %irregfix %s -- %stub -DLANE_ELEMENT 2>&1 >/dev/null | FileCheck %s --check-prefix=LANE-ELEMENT
// RUN: %irregfix %s -- %stub -DMIXED_ROWS 2>&1 >/dev/null | FileCheck %s --check-prefix=MIXED-ROWS
// RUN: %irregfix %s -- %stub -DBLOCKDIM_STRIDE 2>&1 >/dev/null | FileCheck %s --check-prefix=BLOCKDIM-STRIDE
// RUN: %irregfix %s -- %stub -DMASKED_LANE 2>&1 >/dev/null | FileCheck %s --check-prefix=MASKED-LANE
// RUN: %irregfix %s -- %stub -DROW_IN_Y 2>&1 >/dev/null | FileCheck %s --check-prefix=ROW-IN-Y
// RUN: %irregfix %s -- %stub -DWIDE_BLOCKS 2>&1 >/dev/null | FileCheck %s --check-prefix=WIDE-BLOCKS
// RUN: %irregfix %s -- %stub -DRUNTIME_BLOCKS 2>&1 >/dev/null | FileCheck %s --check-prefix=RUNTIME-BLOCKS
// RUN: %irregfix --report=text %s -- %stub -DEVERY_LANE 2>/dev/null | FileCheck %s --check-prefix=EVERY-LANE-REPORT
#include <cuda_runtime.h>

#define GROUP 4

// Four lanes a row across x, sixteen rows a block in y; the row's sum goes
// down the group to lane 0, which stores it.
__global__ void block_rows(size_t rows, const size_t *first, const size_t *cols, const double *vals, const double *x,
                           double *y) {
  size_t m = blockIdx.x * blockDim.y + threadIdx.y;
  if (m < rows) {
    size_t begin = first[m];
    size_t end = first[m + 1];
    double part = 0;
    for (size_t n = begin + threadIdx.x; n < end; n += GROUP)
      part += vals[n] * x[cols[n]];
#pragma unroll
    for (int i = GROUP >> 1; i > 0; i >>= 1)
      part += __shfl_down_sync(0xFFFFFFFF, part, i, GROUP);
    if (threadIdx.x == 0)
      y[m] = part;
  }
}

// A warp a row over a 1-D grid: the row is the warp's index, the lane its place in it.
__global__ void warp_rows(size_t rows, const size_t *first, const size_t *cols, const double *vals, const double *x,
                          double *y) {
  const size_t tid = threadIdx.x + blockIdx.x * blockDim.x;
  const size_t row = tid / 32, lane = tid % 32;
  if (row < rows) {
    double part = 0;
    for (size_t k = first[row] + lane; k < first[row + 1]; k += 32)
      part += vals[k] * x[cols[k]];
    for (int o = 16; o > 0; o >>= 1)
      part += __shfl_down_sync(0xffffffff, part, o);
    if (lane == 0)
      y[row] = part;
  }
}

#ifdef LANE_LOCAL
// The lane kept in a local, a butterfly leaving every lane the row's sum, every lane storing it.
__global__ void butterfly(size_t rows, const size_t *first, const double *vals, double *y) {
  const unsigned lane = threadIdx.x;
  const size_t m = threadIdx.y + blockDim.y * blockIdx.x;
  if (m < rows) {
    double part = 0;
    for (size_t n = first[m] + lane; n < first[m + 1]; n += GROUP)
      part += vals[n];
    part += __shfl_xor_sync(0xffffffff, part, 2);
    part += __shfl_xor_sync(0xffffffff, part, 1);
    y[m] = part;
  }
}
#endif

#ifdef EVERY_LANE
// The store unguarded after a down reduction: every lane stores a different
// partial into y[m] and the hardware keeps one of them.
__global__ void every_lane(size_t rows, const size_t *first, const size_t *cols, const double *vals, const double *x,
                           double *y) {
  size_t m = blockIdx.x * blockDim.y + threadIdx.y;
  if (m < rows) {
    double part = 0;
    for (size_t n = first[m] + threadIdx.x; n < first[m + 1]; n += GROUP)
      part += vals[n] * x[cols[n]];
    for (int i = GROUP >> 1; i > 0; i >>= 1)
      part += __shfl_down_sync(0xFFFFFFFF, part, i, GROUP);
    y[m] = part;
  }
}
#endif

#ifdef LANE_ELEMENT
// Each lane writes an element of its own: the lane picks which.
__global__ void lane_element(size_t rows, const size_t *first, const double *vals, double *y) {
  size_t m = blockIdx.x * blockDim.y + threadIdx.y;
  if (m < rows) {
    double part = 0;
    for (size_t n = first[m] + threadIdx.x; n < first[m + 1]; n += GROUP)
      part += vals[n];
    y[m * GROUP + threadIdx.x] = part;
  }
}
#endif

#ifdef MIXED_ROWS
// Offsets from 4 in groups of 4: lane 0 adds the next row's lanes.
__global__ void mixed_rows(size_t rows, const size_t *first, const double *vals, double *y) {
  size_t m = blockIdx.x * blockDim.y + threadIdx.y;
  if (m < rows) {
    double part = 0;
    for (size_t n = first[m] + threadIdx.x; n < first[m + 1]; n += GROUP)
      part += vals[n];
    for (int i = GROUP; i > 0; i >>= 1)
      part += __shfl_down_sync(0xFFFFFFFF, part, i);
    if (threadIdx.x == 0)
      y[m] = part;
  }
}
#endif

#ifdef BLOCKDIM_STRIDE
// The stride read from the launch: no group size to check the exchanges against.
__global__ void blockdim_stride(size_t rows, const size_t *first, const double *vals, double *y) {
  size_t m = blockIdx.x * blockDim.y + threadIdx.y;
  if (m < rows) {
    double part = 0;
    for (size_t n = first[m] + threadIdx.x; n < first[m + 1]; n += blockDim.x)
      part += vals[n];
    if (threadIdx.x == 0)
      y[m] = part;
  }
}
#endif

#ifdef MASKED_LANE
// A lane of eight over a loop striding by four: two lanes read each entry.
__global__ void masked_lane(size_t rows, const size_t *first, const double *vals, double *y) {
  const unsigned lane = threadIdx.x % 8;
  size_t m = blockIdx.x * blockDim.y + threadIdx.y;
  if (m < rows) {
    double part = 0;
    for (size_t n = first[m] + lane; n < first[m + 1]; n += GROUP)
      part += vals[n];
    if (lane == 0)
      y[m] = part;
  }
}
#endif

#ifdef ROW_IN_Y
// threadIdx.y also weighs the sum: the row's place in its block shows.
__global__ void row_in_y(size_t rows, const size_t *first, const double *vals, double *y) {
  size_t m = blockIdx.x * blockDim.y + threadIdx.y;
  if (m < rows) {
    double part = threadIdx.y;
    for (size_t n = first[m] + threadIdx.x; n < first[m + 1]; n += GROUP)
      part += vals[n];
    if (threadIdx.x == 0)
      y[m] = part;
  }
}
#endif

// A thread a row over the same matrix and vectors.
__global__ void thread_rows(size_t rows, const size_t *first, const size_t *cols, const double *vals, const double *x,
                            double *y) {
  size_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    double sum = 0;
    for (size_t k = first[i]; k < first[i + 1]; k++)
      sum += vals[k] * x[cols[k]];
    y[i] = sum;
  }
}

__global__ void blend(size_t rows, double a, const double *y, double *x) {
  size_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows)
    x[i] = y[i] + a * x[i];
}

int main(int argc, char **argv) {
  const size_t rows = 1 << 18, nnz = 12 * rows;
  size_t *d_first = nullptr, *d_cols = nullptr;
  double *d_vals = nullptr, *d_x = nullptr, *d_y = nullptr;
  cudaMalloc(&d_first, (rows + 1) * sizeof(size_t));
  cudaMalloc(&d_cols, nnz * sizeof(size_t));
  cudaMalloc(&d_vals, nnz * sizeof(double));
  cudaMalloc(&d_x, rows * sizeof(double));
  cudaMalloc(&d_y, rows * sizeof(double));
  dim3 grid((rows + 15) / 16);
#ifdef WIDE_BLOCKS
  // Eight threads in x for a group of four: two groups a row, each striding it.
  dim3 block(2 * GROUP, 16);
#else
  dim3 block(GROUP, 16);
#endif
#ifdef RUNTIME_BLOCKS
  const int lanes = argc > 1 ? 2 : GROUP;
#endif
  for (int round = 0; round < 8; ++round) {
#ifdef RUNTIME_BLOCKS
    block_rows<<<grid, dim3(lanes, 16)>>>(rows, d_first, d_cols, d_vals, d_x, d_y);
#else
    block_rows<<<grid, block>>>(rows, d_first, d_cols, d_vals, d_x, d_y);
#endif
    blend<<<(rows + 255) / 256, 256>>>(rows, 0.5, d_y, d_x);
    warp_rows<<<(rows * 32 + 255) / 256, 256>>>(rows, d_first, d_cols, d_vals, d_x, d_y);
    blend<<<(rows + 255) / 256, 256>>>(rows, 0.5, d_y, d_x);
    thread_rows<<<(rows + 255) / 256, 256>>>(rows, d_first, d_cols, d_vals, d_x, d_y);
    blend<<<(rows + 255) / 256, 256>>>(rows, 0.5, d_y, d_x);
#ifdef LANE_LOCAL
    butterfly<<<grid, block>>>(rows, d_first, d_vals, d_y);
#endif
#ifdef EVERY_LANE
    every_lane<<<grid, block>>>(rows, d_first, d_cols, d_vals, d_x, d_y);
#endif
#ifdef LANE_ELEMENT
    lane_element<<<grid, block>>>(rows, d_first, d_vals, d_y);
#endif
#ifdef MIXED_ROWS
    mixed_rows<<<grid, block>>>(rows, d_first, d_vals, d_y);
#endif
#ifdef BLOCKDIM_STRIDE
    blockdim_stride<<<grid, block>>>(rows, d_first, d_vals, d_y);
#endif
#ifdef MASKED_LANE
    masked_lane<<<grid, block>>>(rows, d_first, d_vals, d_y);
#endif
#ifdef ROW_IN_Y
    row_in_y<<<grid, block>>>(rows, d_first, d_vals, d_y);
#endif
  }
  double h = 0;
  cudaMemcpy(&h, d_x, sizeof h, cudaMemcpyDeviceToHost);
  return h > 0;
}

// The two lane kernels keep their text; their tables give 4 and 32 lanes,
// and each launch's count is the rows.
// CHECK:      size_t m = blockIdx.x * blockDim.y + threadIdx.y;
// CHECK:      for (size_t n = begin + threadIdx.x; n < end; n += GROUP)
// CHECK:      __irregfix_numbering_[[BLOCK:[0-9]+]] = {"block_rows", nullptr, __irregfix_roles_[[BLOCK]], __irregfix_sizes_[[BLOCK]], 1, -1, 0, 4, 0};
// CHECK:      __irregfix_numbering_[[WARP:[0-9]+]] = {"warp_rows", nullptr, __irregfix_roles_[[WARP]], __irregfix_sizes_[[WARP]], 1, -1, 0, 32, 0};
// CHECK:      irregfix::numbered_launch(__irregfix_numbering_[[BLOCK]], (long long)(rows), 0, {d_first, d_cols, d_vals, d_x, d_y});
// CHECK-NEXT: block_rows<<<grid, block>>>(rows, d_first, d_cols, d_vals, d_x, d_y);
// CHECK:      irregfix::numbered_launch(__irregfix_numbering_[[WARP]], (long long)(rows), 0, {d_first, d_cols, d_vals, d_x, d_y});
// CHECK-NEXT: warp_rows<<<(rows * 32 + 255) / 256, 256>>>(rows, d_first, d_cols, d_vals, d_x, d_y);

// The lane kernels' reads are renumbered; the thread-per-row kernel's site is rewritten.
// REPORT:      read kernel=block_rows array=vals index="n" pattern=range verdict=renumbered reason="read as written,
// REPORT-SAME: in the locality order of 'block_rows''s rows while the runtime keeps 'vals' there
// REPORT:      read kernel=block_rows array=x index="cols[n]" pattern=gather in a loop verdict=renumbered
// REPORT:      read kernel=block_rows array=cols index="n" pattern=range verdict=renumbered
// REPORT:      read kernel=warp_rows array=vals index="k" pattern=range verdict=renumbered
// REPORT:      read kernel=warp_rows array=x index="cols[k]" pattern=gather in a loop verdict=renumbered
// REPORT:      read kernel=warp_rows array=cols index="k" pattern=range verdict=renumbered
// REPORT:      read kernel=thread_rows array=vals index="k" pattern=range verdict=rewritten

// REMARK-NOT: indirect read of 'vals' in 'block_rows' not rewritten
// REMARK:     remark: program-wide renumbering: the runtime may keep 'd_first', 'd_cols', 'd_vals', 'd_x', 'd_y' in the locality order
// REMARK-NOT: get them back
// JSON: "kernel": "block_rows",
// JSON: "verdict": "renumbered",

// LANE-LOCAL: remark: program-wide renumbering
// LANE-LOCAL-NOT: get them back
// EVERY-LANE: every_lane (its lanes each store their own 'part' into 'y[m]' after exchanging it down: only lane 0's is the row's sum, and which lane's store lands is not defined ('y[m] = part'))
// Not renumbered, its strided loop goes to an indexed site (each lane reads
// what it read; which lane's store lands stays as undefined as it was).
// EVERY-LANE-REPORT: read kernel=every_lane array=vals index="n" pattern=indexed verdict=rewritten
// LANE-ELEMENT: lane_element (it uses its lane 'threadIdx.x' in 'm * GROUP + threadIdx.x', not to start its row's strided loop or to pick lane 0)
// MIXED-ROWS: mixed_rows (its lanes exchange 'part' across groups of 4 ('__shfl_down_sync(0xFFFFFFFF, part, i)'))
// BLOCKDIM-STRIDE: blockdim_stride (its lanes (threadIdx.x) stride their loop ('n += blockDim.x') by other than a constant power of two up to 32)
// MASKED-LANE: masked_lane (its lane 'lane' is of groups of 8 threads, its lanes' loop strides by 4)
// ROW-IN-Y: row_in_y (it reads threadIdx or blockIdx besides its thread index)
// WIDE-BLOCKS: remark: no program-wide renumbering by 'block_rows''s rows: 'block_rows' runs 4 lanes a row, and this launch's blocks are not a constant 4 threads in x (its lanes are threadIdx.x, a row each threadIdx.y)
// RUNTIME-BLOCKS: remark: no program-wide renumbering by 'block_rows''s rows: 'block_rows' runs 4 lanes a row, and this launch's blocks are not a constant 4 threads in x
