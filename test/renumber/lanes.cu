// Program-wide renumbering by a sparse matrix's rows read a warp (or a group
// of G lanes) a row: the group's index t / G is the element, its lanes start
// at P[row] + lane and stride the row's segment by G, and a shuffle reduction
// within the group hands the sum to lane 0, which stores y[row]. Another
// numbering of the rows hands each group another row, read by the same lanes
// in the same order: the row starts get role 8, the segments 16 (18 for the
// columns), the vectors 1, and the launch's count is the rows, n.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err
// RUN: %irregfix %s -- %stub -DGROUPS 2> %t.groups.err | sed 's,// [A-Z-]*: .*,,' | FileCheck %s --check-prefix=GROUPS-OUT
// RUN: FileCheck %s --check-prefix=GROUPS --input-file=%t.groups.err
// RUN: %irregfix %s -- %stub -DIN_LOOP 2>&1 >/dev/null | FileCheck %s --check-prefix=IN-LOOP
// RUN: %irregfix %s -- %stub -DSTRIDE 2>&1 >/dev/null | FileCheck %s --check-prefix=STRIDE
// RUN: %irregfix %s -- %stub -DLANE_VALUE 2>&1 >/dev/null | FileCheck %s --check-prefix=LANE-VALUE
// RUN: %irregfix %s -- %stub -DWIDE_SHUFFLE 2>&1 >/dev/null | FileCheck %s --check-prefix=WIDE-SHUFFLE
// RUN: %irregfix %s -- %stub -DEVERY_LANE 2>&1 >/dev/null | FileCheck %s --check-prefix=EVERY-LANE
// RUN: %irregfix %s -- %stub -DSHARED 2>&1 >/dev/null | FileCheck %s --check-prefix=SHARED
// RUN: %irregfix %s -- %stub -DPOSITION 2>&1 >/dev/null | FileCheck %s --check-prefix=POSITION
// RUN: %irregfix %s -- %stub -DTHREAD 2>&1 >/dev/null | FileCheck %s --check-prefix=THREAD
// RUN: %irregfix %s -- %stub -DBLOCKS 2>&1 >/dev/null | FileCheck %s --check-prefix=BLOCKS
#include <cuda_runtime.h>

__global__ void warp_product(int n, const int *starts, const int *columns, const float *values, const float *x,
                             float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int row = t / 32;
  int lane = t & 31;
  if (row < n) {
    float s = 0.0f;
    for (int k = starts[row] + lane; k < starts[row + 1]; k += 32)
      s += values[k] * x[columns[k]];
    for (int o = 16; o > 0; o >>= 1)
      s += __shfl_down_sync(0xffffffff, s, o);
    if (lane == 0)
      y[row] = s;
  }
}

// Four lanes a row, the lane from threadIdx.x (the same as t % 4 in blocks
// of a multiple of 4 threads), a butterfly that leaves every lane the sum.
__global__ void quad_product(int n, const int *starts, const int *columns, const float *values, const float *x,
                             float *y) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = t >> 2, lane = threadIdx.x % 4;
  if (row < n) {
    const int first = starts[row], last = starts[row + 1];
    float s = 0.0f;
    for (int k = first + lane; k < last; k += 4)
      s += values[k] * x[columns[k]];
    s += __shfl_xor_sync(0xffffffff, s, 2);
    s += __shfl_xor_sync(0xffffffff, s, 1);
    y[row] = s;
  }
}

#ifdef GROUPS
// A warp a row as vector kernels often write it: the row by a shift, the lane
// from threadIdx.x, an early return, the reduction unrolled by hand.
#define WARP_SIZE 32
__global__ void shifted_product(int n, const int *starts, const int *columns, const float *values, const float *x,
                                float *y) {
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const int lane = threadIdx.x & (WARP_SIZE - 1);
  if (warp >= n)
    return;
  float s = 0.0f;
  for (int k = lane + starts[warp]; k < starts[warp + 1]; k += WARP_SIZE)
    s += values[k] * x[columns[k]];
  s += __shfl_down_sync(0xffffffff, s, 16);
  s += __shfl_down_sync(0xffffffff, s, 8);
  s += __shfl_down_sync(0xffffffff, s, 4);
  s += __shfl_down_sync(0xffffffff, s, 2);
  s += __shfl_down_sync(0xffffffff, s, 1);
  if (lane == 0)
    y[warp] = s;
}
#endif

#ifdef GROUPS
// The whole warp reduces, rows past n included (a full mask needs every lane),
// and the guard comes back with lane 0's store.
__global__ void guarded_store(int n, const int *starts, const int *columns, const float *values, const float *x,
                              float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int row = t / 32, lane = t % 32;
  float s = 0.0f;
  if (row < n)
    for (int k = starts[row] + lane; k < starts[row + 1]; k += 32)
      s += values[k] * x[columns[k]];
  for (int o = 16; o > 0; o >>= 1)
    s += __shfl_down_sync(0xffffffff, s, o);
  if (row < n && lane == 0)
    y[row] = s;
}
#endif

#ifdef GROUPS
// Eight lanes a row; lane 0's sum handed to the group's every lane, which all store it.
__global__ void broadcast_sum(int n, const int *starts, const int *columns, const float *values, const float *x,
                              float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int row = t / 8, lane = t % 8;
  if (row < n) {
    float s = 0.0f;
    for (int k = starts[row] + lane; k < starts[row + 1]; k += 8)
      s += values[k] * x[columns[k]];
    for (int o = 4; o > 0; o /= 2)
      s += __shfl_down_sync(0xffffffff, s, o);
    s = __shfl_sync(0xffffffff, s, 0, 8);
    y[row] = s;
  }
}
#endif

#ifdef IN_LOOP
// A shuffle inside the row's loop runs as often as the longest row of the
// warp's lanes has entries left: it would reach past the group.
__global__ void in_loop(int n, const int *starts, const float *values, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int row = t / 32, lane = t % 32;
  if (row < n) {
    float s = 0.0f;
    for (int k = starts[row] + lane; k < starts[row + 1]; k += 32) {
      s += values[k];
      s += __shfl_down_sync(0xffffffff, s, 1);
    }
    if (lane == 0)
      y[row] = s;
  }
}
#endif

#ifdef STRIDE
// Lanes of a warp striding by 16: two lanes read each entry.
__global__ void half_stride(int n, const int *starts, const float *values, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int row = t / 32, lane = t % 32;
  if (row < n) {
    float s = 0.0f;
    for (int k = starts[row] + lane; k < starts[row + 1]; k += 16)
      s += values[k];
    if (lane == 0)
      y[row] = s;
  }
}
#endif

#ifdef LANE_VALUE
// The lane weighs the entries: which lane reads an entry is fixed by the
// row's segment, but the kernel would also compute with it.
__global__ void lane_weighted(int n, const int *starts, const float *values, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int row = t / 32, lane = t % 32;
  if (row < n) {
    float s = 0.0f;
    for (int k = starts[row] + lane; k < starts[row + 1]; k += 32)
      s += values[k] * lane;
    for (int o = 16; o > 0; o >>= 1)
      s += __shfl_down_sync(0xffffffff, s, o);
    if (lane == 0)
      y[row] = s;
  }
}
#endif

#ifdef WIDE_SHUFFLE
// Groups of 8 lanes reduced with offsets from 16: lane 0 adds the next rows' sums.
__global__ void wide_shuffle(int n, const int *starts, const float *values, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int row = t / 8, lane = t % 8;
  if (row < n) {
    float s = 0.0f;
    for (int k = starts[row] + lane; k < starts[row + 1]; k += 8)
      s += values[k];
    for (int o = 16; o > 0; o >>= 1)
      s += __shfl_down_sync(0xffffffff, s, o);
    if (lane == 0)
      y[row] = s;
  }
}
#endif

#ifdef EVERY_LANE
// Every lane stores its sum after a down reduction: only lane 0's is the row's own.
__global__ void every_lane(int n, const int *starts, const float *values, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int row = t / 32, lane = t % 32;
  if (row < n) {
    float s = 0.0f;
    for (int k = starts[row] + lane; k < starts[row + 1]; k += 32)
      s += values[k];
    for (int o = 16; o > 0; o >>= 1)
      s += __shfl_down_sync(0xffffffff, s, o);
    y[row] = s;
  }
}
#endif

#ifdef SHARED
// The lanes' sums combined in shared memory, a block's rows side by side.
__global__ void shared_sum(int n, const int *starts, const float *values, float *y) {
  __shared__ float sums[256];
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int row = t / 32, lane = t % 32;
  float s = 0.0f;
  if (row < n)
    for (int k = starts[row] + lane; k < starts[row + 1]; k += 32)
      s += values[k];
  sums[threadIdx.x] = s;
  __syncthreads();
  if (row < n && lane == 0)
    y[row] = sums[threadIdx.x] + sums[threadIdx.x + 1];
}
#endif

#ifdef POSITION
// k as a value: the entry's place in the matrix, not in the row.
__global__ void position(int n, const int *starts, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int row = t / 32, lane = t % 32;
  if (row < n) {
    float s = 0.0f;
    for (int k = starts[row] + lane; k < starts[row + 1]; k += 32)
      s += k;
    for (int o = 16; o > 0; o >>= 1)
      s += __shfl_down_sync(0xffffffff, s, o);
    if (lane == 0)
      y[row] = s;
  }
}
#endif

#ifdef THREAD
// The global index also picks a vector entry: that thread reads it whichever row it takes.
__global__ void by_thread(int n, const int *starts, const float *values, const float *w, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int row = t / 32, lane = t % 32;
  if (row < n) {
    float s = w[t];
    for (int k = starts[row] + lane; k < starts[row + 1]; k += 32)
      s += values[k];
    for (int o = 16; o > 0; o >>= 1)
      s += __shfl_down_sync(0xffffffff, s, o);
    if (lane == 0)
      y[row] = s;
  }
}
#endif

__global__ void axpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += a * x[i];
}

int main(int argc, char **argv) {
  const int n = 1 << 20, nnz = 40 * n;
  int *d_starts = nullptr, *d_columns = nullptr;
  float *d_values = nullptr, *d_p = nullptr, *d_q = nullptr;
  cudaMalloc(&d_starts, (n + 1) * sizeof(int));
  cudaMalloc(&d_columns, nnz * sizeof(int));
  cudaMalloc(&d_values, nnz * sizeof(float));
  cudaMalloc(&d_p, n * sizeof(float));
  cudaMalloc(&d_q, n * sizeof(float));
  dim3 block(256);
#ifdef BLOCKS
  // A block size read at run time: a group of lanes may straddle two warps.
  block.x = argc > 1 ? 96 : 100;
#endif
  for (int it = 0; it < 10; ++it) {
    warp_product<<<(n * 32 + 255) / 256, block>>>(n, d_starts, d_columns, d_values, d_p, d_q);
    axpy<<<(n + 255) / 256, 256>>>(n, 0.5f, d_q, d_p);
#ifdef GROUPS
    quad_product<<<(n * 4 + 127) / 128, 128>>>(n, d_starts, d_columns, d_values, d_p, d_q);
    axpy<<<(n + 255) / 256, 256>>>(n, 0.5f, d_q, d_p);
    shifted_product<<<(n * 32 + 511) / 512, 512>>>(n, d_starts, d_columns, d_values, d_p, d_q);
    guarded_store<<<(n * 32 + 255) / 256, 256>>>(n, d_starts, d_columns, d_values, d_p, d_q);
    broadcast_sum<<<(n * 8 + 255) / 256, 256>>>(n, d_starts, d_columns, d_values, d_p, d_q);
#endif
#ifdef IN_LOOP
    in_loop<<<(n * 32 + 255) / 256, 256>>>(n, d_starts, d_values, d_q);
#endif
#ifdef STRIDE
    half_stride<<<(n * 32 + 255) / 256, 256>>>(n, d_starts, d_values, d_q);
#endif
#ifdef LANE_VALUE
    lane_weighted<<<(n * 32 + 255) / 256, 256>>>(n, d_starts, d_values, d_q);
#endif
#ifdef WIDE_SHUFFLE
    wide_shuffle<<<(n * 8 + 255) / 256, 256>>>(n, d_starts, d_values, d_q);
#endif
#ifdef EVERY_LANE
    every_lane<<<(n * 32 + 255) / 256, 256>>>(n, d_starts, d_values, d_q);
#endif
#ifdef SHARED
    shared_sum<<<(n * 32 + 255) / 256, 256>>>(n, d_starts, d_values, d_q);
#endif
#ifdef POSITION
    position<<<(n * 32 + 255) / 256, 256>>>(n, d_starts, d_q);
#endif
#ifdef THREAD
    by_thread<<<(n * 32 + 255) / 256, 256>>>(n, d_starts, d_values, d_p, d_q);
#endif
  }
  float h = 0.0f;
  cudaMemcpy(&h, d_p, sizeof h, cudaMemcpyDeviceToHost);
  return h > 0.0f;
}

// The kernels stay as written (no site of theirs is rewritten): only the
// tables and the hooks are added, and the launch's count is the rows.
// CHECK:      #include <irregfix/irregfix.cuh>
// CHECK:      static const unsigned char __irregfix_roles_0[] = {8, 18, 16, 1, 129};
// CHECK-NEXT: static const unsigned short __irregfix_sizes_0[] = {4, 4, 4, 4, 4};
// CHECK-NEXT: __irregfix_numbering_0 = {"warp_product", nullptr, __irregfix_roles_0, __irregfix_sizes_0, 1, -1, 0, 32, 0};
// CHECK:      __irregfix_numbering_1 = {"axpy", nullptr, __irregfix_roles_1, __irregfix_sizes_1, -1, -1, -1, 1, 0};
// CHECK:      irregfix::numbered_launch(__irregfix_numbering_0, (long long)(n), 0, {d_starts, d_columns, d_values, d_p, d_q});
// CHECK-NEXT: warp_product<<<(n * 32 + 255) / 256, block>>>(n, d_starts, d_columns, d_values, d_p, d_q);
// CHECK:      irregfix::numbered_launch(__irregfix_numbering_1, (long long)(n), 0, {d_q, d_p});
// CHECK:      irregfix_host_access(d_p);
// CHECK-NEXT: cudaMemcpy(&h, d_p, sizeof h, cudaMemcpyDeviceToHost);
// REMARK: remark: program-wide renumbering: the runtime may keep 'd_starts', 'd_columns', 'd_values', 'd_p', 'd_q' in the locality order of 'warp_product''s rows
// REMARK-NOT: get them back

// GROUPS: remark: program-wide renumbering
// GROUPS-NOT: get them back
// LANE-VALUE: lane_weighted (it uses its lane 'lane' in 'values[k] * lane', not to start its row's strided loop or to pick lane 0)
// WIDE-SHUFFLE: wide_shuffle (its lanes exchange 's' across groups of 8 ('__shfl_down_sync(0xffffffff, s, o)'))
// EVERY-LANE: every_lane (its lanes each store their own 's' into 'y[row]' after exchanging it down: only lane 0's is the row's sum, and which lane's store lands is not defined ('y[row] = s'))
// SHARED: shared_sum (it uses shared memory)
// POSITION: position (it computes with 'k', a position in a row ('s += k'))
// THREAD: by_thread (it uses its thread index 't' besides its row 'row' and lane ('w[t]'))
// BLOCKS: remark: no program-wide renumbering by 'warp_product''s rows: 'warp_product' runs 32 lanes a row, and this launch's blocks are not a constant multiple of 32 threads in x
// GROUPS-OUT: __irregfix_numbering_2 = {"quad_product", nullptr, __irregfix_roles_2, __irregfix_sizes_2, 1, -1, 0, 4, 0};
// GROUPS-OUT: __irregfix_numbering_3 = {"shifted_product", nullptr, __irregfix_roles_3, __irregfix_sizes_3, 1, -1, 0, 32, 0};
// GROUPS-OUT: __irregfix_numbering_4 = {"guarded_store", nullptr, __irregfix_roles_4, __irregfix_sizes_4, 1, -1, 0, 32, 0};
// GROUPS-OUT: __irregfix_numbering_5 = {"broadcast_sum", nullptr, __irregfix_roles_5, __irregfix_sizes_5, 1, -1, 0, 8, 0};
// GROUPS-OUT: irregfix::numbered_launch(__irregfix_numbering_2, (long long)(n), 0, {d_starts, d_columns, d_values, d_p, d_q});
// STRIDE: half_stride (it uses row start 'starts[row]' other than to bound a loop over the row (its lanes' loop is `for (k = P[row] + lane; k < P[row + 1]; k += 32)` in groups of 32))
// IN-LOOP: in_loop (it exchanges 's' between lanes inside a loop ('__shfl_down_sync(0xffffffff, s, 1)'))
