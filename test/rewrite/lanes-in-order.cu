// Without --reassociate, a floating-point sum (the scalar CSR SpMV) or min
// still runs with several lanes a row, in order: at each step of L elements
// the row's lanes load one element each of every read the loop makes at its
// variable (val[k] and x[col[k]], not under a condition), and every lane then
// runs the loop's body over the step's elements one by one, taking each from
// the lane that loaded it (irregfix::lanes_get). Each lane computes the
// original's sum in the original's order: the same bits, no kSiteReassociates
// but kSiteLanesInOrder (the runtime proposes it a warp a row, on long rows),
// and IRREGFIX_VERIFY compares the variant's output bit for bit.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err
// RUN: %irregfix --quiet --report %s -- %stub | FileCheck %s --check-prefix=REPORT

#include <cuda_runtime.h>

__global__ void spmv(int n, const int *row_ptr, const int *col, const float *val, const float *x, float *y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n) {
    float sum = 0.0f;
    for (int k = row_ptr[row]; k < row_ptr[row + 1]; ++k)
      sum += val[k] * x[col[k]];
    y[row] = sum;
  }
}
// CHECK-LABEL: // irregfix: 'spmv' with several lanes a row, each running the loop over the row's elements in the original's order; the kernels above are its fallbacks.
// CHECK-NEXT:  __global__ void spmv_irregfix_lanes(int n, const int *row_ptr, const int *col, const float *val, const float *x, float *y, const irregfix::Lanes __irregfix_lanes) {
// CHECK:           float sum = 0.0f;
// CHECK-NEXT:      { // several lanes a row load its elements together; each lane runs the loop over them in the original's order
// CHECK-NEXT:      const int __irregfix_end = row_ptr[row + 1];
// CHECK-NEXT:      for (int __irregfix_base = row_ptr[row]; __irregfix_base < __irregfix_end; __irregfix_base += __irregfix_lanes.lanes) {
// CHECK-NEXT:        const int __irregfix_k = __irregfix_base + __irregfix_lane;
// CHECK-NEXT:        const bool __irregfix_in = __irregfix_k < __irregfix_end;
// CHECK-NEXT:        const float __irregfix_loaded0 = __irregfix_in ? static_cast<float>(val[__irregfix_k]) : float();
// CHECK-NEXT:        const float __irregfix_loaded1 = __irregfix_in ? static_cast<float>(x[col[__irregfix_k]]) : float();
// CHECK-NEXT:        const int __irregfix_stop = __irregfix_end - __irregfix_base < __irregfix_lanes.lanes ? __irregfix_end : __irregfix_base + __irregfix_lanes.lanes;
// CHECK-NEXT:        for (int k = __irregfix_base; k < __irregfix_stop; ++k)
// CHECK-NEXT:        sum += irregfix::lanes_get(__irregfix_loaded0, k - __irregfix_base, __irregfix_lanes) * irregfix::lanes_get(__irregfix_loaded1, k - __irregfix_base, __irregfix_lanes);
// CHECK-NEXT:      }
// CHECK-NEXT:      if (__irregfix_lane != 0) return; // lane 0 goes on
// CHECK-NEXT:      }
// CHECK-NEXT:      y[row] = sum;
// CHECK:       static const irregfix::SiteInfo __irregfix_site_spmv_0 = {"lanes-in-order.cu:{{[0-9]+}}:5", "spmv", "range", irregfix::kSitePermutable | irregfix::kSiteChunkable | irregfix::kSiteLanes | irregfix::kSiteLanesInOrder, nullptr, "val,col,row_ptr", 1};
// REMARK: remark: rows of 'spmv' may run with several lanes each (warp-cooperative rows: the lanes load the row's elements together, and each lane runs the loop over them in the original's order; exact)
// REPORT: kernel=spmv pattern=range {{.*}} lanes="in order"

// A float min: the comparison's read is loaded together; the assignment under
// the condition reads its element in place, as the original does.
__global__ void row_min(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float m = 1e30f;
    for (int k = B[t]; k < B[t + 1]; ++k)
      if (A[k] < m) m = A[k];
    y[t] = m;
  }
}
// CHECK-LABEL: __global__ void row_min_irregfix_lanes(int n, const int *B, const float *A, float *y, const irregfix::Lanes __irregfix_lanes) {
// CHECK:             const float __irregfix_loaded0 = __irregfix_in ? static_cast<float>(A[__irregfix_k]) : float();
// CHECK-NEXT:        const int __irregfix_stop = __irregfix_end - __irregfix_base < __irregfix_lanes.lanes ? __irregfix_end : __irregfix_base + __irregfix_lanes.lanes;
// CHECK-NEXT:        for (int k = __irregfix_base; k < __irregfix_stop; ++k)
// CHECK-NEXT:        if (irregfix::lanes_get(__irregfix_loaded0, k - __irregfix_base, __irregfix_lanes) < m) m = A[k];
// REPORT: kernel=row_min pattern=range {{.*}} lanes="in order"

// A read after a statement that may `continue` is made by some iterations
// only: it stays in place; the condition's read before it is loaded together.
__global__ void skip_empty(int n, const int *B, const int *col, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k) {
      if (col[k] < 0)
        continue;
      s += A[k];
    }
    y[t] = s;
  }
}
// CHECK-LABEL: __global__ void skip_empty_irregfix_lanes(int n, const int *B, const int *col, const float *A, float *y, const irregfix::Lanes __irregfix_lanes) {
// CHECK:             const int __irregfix_loaded0 = __irregfix_in ? static_cast<int>(col[__irregfix_k]) : int();
// CHECK-NOT:         __irregfix_loaded1
// CHECK:               if (irregfix::lanes_get(__irregfix_loaded0, k - __irregfix_base, __irregfix_lanes) < 0)
// CHECK-NEXT:            continue;
// CHECK-NEXT:          s += A[k];

// The same read written twice (the sum's and the comparison's A[k]) is loaded
// once; the count needs no read.
__global__ void sum_max_count(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0.f, m = -1e30f;
    int count = 0;
    for (int k = B[t]; k < B[t + 1]; ++k) {
      s += A[k];
      if (A[k] > m) m = A[k];
      count++;
    }
    y[t] = s + m + count;
  }
}
// CHECK-LABEL: __global__ void sum_max_count_irregfix_lanes(int n, const int *B, const float *A, float *y, const irregfix::Lanes __irregfix_lanes) {
// CHECK:             const float __irregfix_loaded0 = __irregfix_in ? static_cast<float>(A[__irregfix_k]) : float();
// CHECK-NOT:         __irregfix_loaded1
// CHECK:               s += irregfix::lanes_get(__irregfix_loaded0, k - __irregfix_base, __irregfix_lanes);
// CHECK-NEXT:          if (irregfix::lanes_get(__irregfix_loaded0, k - __irregfix_base, __irregfix_lanes) > m) m = A[k];
// CHECK-NEXT:          count++;

void multiply(int n, const int *rp, const int *c, const float *v, const float *x, float *y) {
  spmv<<<(n + 255) / 256, 256>>>(n, rp, c, v, x, y);
  row_min<<<(n + 255) / 256, 256>>>(n, rp, v, y);
  skip_empty<<<(n + 255) / 256, 256>>>(n, rp, c, v, y);
  sum_max_count<<<(n + 255) / 256, 256>>>(n, rp, v, y);
}
