// Accumulators other than a sum, each exact in any order: a conditional min
// (connected components), a flag set under a condition (a pull-style BFS
// step), a count, a bitwise or and a logical flag. Idempotent operators start
// each lane from the value itself; a flag's lanes only say whether one of them
// set it. Also: `k != end` (every lane steps past the end, so `<`), a loop
// under #pragma unroll, and code after the statement holding the loop, which
// lanes other than 0 leave before.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

#include <cuda_runtime.h>

__global__ void components(int n, const int *B, const int *col, const int *label, int *next) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  int m = label[t];
  const int start = B[t], end = B[t + 1];
  for (int k = start; k != end; k++) {
    const int c = col[k];
    if (label[c] < m)
      m = label[c];
  }
  next[t] = m;
}
// CHECK-LABEL: __global__ void components_irregfix_lanes(
// CHECK:         int __irregfix_part0_m = m;
// CHECK-NEXT:    for (int k = (start) + __irregfix_lane; k < end; k += __irregfix_lanes.lanes) {
// CHECK-NEXT:      const int c = col[k];
// CHECK-NEXT:      if (label[c] < __irregfix_part0_m)
// CHECK-NEXT:        __irregfix_part0_m = label[c];
// CHECK-NEXT:    }
// CHECK-NEXT:    __irregfix_part0_m = irregfix::lanes_combine<irregfix::kLanesMin>(__irregfix_part0_m, __irregfix_lanes);
// CHECK-NEXT:    m = __irregfix_part0_m;
// REMARK: remark: rows of 'components' may run with several lanes each (warp-cooperative rows: min of 'm' combined by shuffles; exact in any order)

__global__ void bfs_pull(int n, const int *B, const int *col, const int *level, int cur, int *next) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n && level[t] < 0) {
    int found = 0;
    for (int k = B[t]; k < B[t + 1]; ++k)
      if (level[col[k]] == cur)
        found = 1;
    next[t] = found ? cur + 1 : -1;
  }
}
// CHECK-LABEL: __global__ void bfs_pull_irregfix_lanes(
// CHECK:         bool __irregfix_part0_found = false;
// CHECK-NEXT:    for (int k = (B[t]) + __irregfix_lane; k < B[t + 1]; k += __irregfix_lanes.lanes)
// CHECK-NEXT:      if (level[col[k]] == cur)
// CHECK-NEXT:        __irregfix_part0_found = true;
// CHECK-NEXT:    __irregfix_part0_found = irregfix::lanes_combine<irregfix::kLanesAny>(__irregfix_part0_found, __irregfix_lanes);
// CHECK-NEXT:    if (__irregfix_part0_found)
// CHECK-NEXT:      found = 1;
// CHECK-NEXT:    if (__irregfix_lane != 0) return; // lane 0 goes on
// REMARK: remark: rows of 'bfs_pull' may run with several lanes each (warp-cooperative rows: flag of 'found' combined by shuffles; exact in any order)

__global__ void count_and_mask(int n, const int *B, const int *A, int *count, unsigned *mask, bool *seven) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int c = 0;
  unsigned bits = 0;
  bool any = false;
  if (t < n)
#pragma unroll 4
    for (int k = B[t]; k < B[t + 1]; ++k) {
      if (A[k] > 0)
        c++;
      bits |= 1u << (A[k] & 31);
      any = any || A[k] == 7;
    }
  if (t < n) {
    count[t] = c;
    mask[t] = bits;
    seven[t] = any;
  }
}
// CHECK-LABEL: __global__ void count_and_mask_irregfix_lanes(
// CHECK:         if (t < n)
// CHECK-NEXT:    { // several lanes a row, each with its part of the row's result
// CHECK-NEXT:    int __irregfix_part0_c = 0;
// CHECK-NEXT:    unsigned int __irregfix_part1_bits = bits;
// CHECK-NEXT:    bool __irregfix_part2_any = any;
// CHECK-NEXT:  #pragma unroll 4
// CHECK-NEXT:      for (int k = (B[t]) + __irregfix_lane; k < B[t + 1]; k += __irregfix_lanes.lanes) {
// CHECK-NEXT:        if (A[k] > 0)
// CHECK-NEXT:          __irregfix_part0_c++;
// CHECK-NEXT:        __irregfix_part1_bits |= 1u << (A[k] & 31);
// CHECK-NEXT:        __irregfix_part2_any = __irregfix_part2_any || A[k] == 7;
// CHECK-NEXT:      }
// CHECK:         c += __irregfix_part0_c;
// CHECK:         bits = __irregfix_part1_bits;
// CHECK:         any = __irregfix_part2_any;
// CHECK-NEXT:    if (__irregfix_lane != 0) return; // lane 0 goes on
// CHECK-NEXT:    }
// CHECK-NEXT:    if (__irregfix_lane != 0) return; // lanes other than 0 leave
// CHECK-NEXT:    if (t < n) {
// REMARK: remark: rows of 'count_and_mask' may run with several lanes each (warp-cooperative rows: sum of 'c', or of 'bits', logical or of 'any' combined by shuffles; exact in any order)

void run(int n, const int *B, const int *col, const int *label, int *next, unsigned *mask, bool *seven) {
  components<<<(n + 255) / 256, 256>>>(n, B, col, label, next);
  bfs_pull<<<(n + 255) / 256, 256>>>(n, B, col, label, 3, next);
  count_and_mask<<<(n + 255) / 256, 256>>>(n, B, col, next, mask, seven);
}
