// A range site's gather through one of its copies, `x[col[k]]`, whose values
// the kernel uses for nothing else, of an array it reads nowhere else: the
// kernel reads x through what prepare_renumbered gives (x itself, or x copied
// in the locality order, col's copy then holding positions in that order), and
// the SiteInfo names col's copy. Any other use of col's values or of x, or
// threads that may not be permuted, keeps x read in place.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=NOTE --input-file=%t.err
// RUN: %irregfix --report %s -- %stub | FileCheck %s --check-prefix=REPORT
// REPORT: kernel=spmv {{.*}} alias-checks=y/row,y/val,y/col,y/x renumbered=x/col
// REPORT-NEXT: kernel=through_local {{.*}} renumbered=x/col
// REPORT-NEXT: kernel=pull {{.*}} renumbered=rank/src,degree/src
// REPORT-NOT: renumbered=
#include <cuda_runtime.h>

__global__ void spmv(int n, const int *row, const int *col, const float *val, const float *x, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = row[t]; k < row[t + 1]; ++k)
      s += val[k] * x[col[k]];
    y[t] = s;
  }
}
// CHECK-LABEL: __global__ void spmv_irregfix(
// CHECK-SAME:    const int *__restrict__ __irregfix_v0_col, const float *__restrict__ __irregfix_v0_x_renumbered, const unsigned __irregfix_block_offset) {
// CHECK:         s += __irregfix_v0_val[irregfix::slot(__irregfix_v0, __irregfix_p, __irregfix_iter0)] * __irregfix_v0_x_renumbered[__irregfix_v0_col[irregfix::slot(__irregfix_v0, __irregfix_p, __irregfix_iter0)]];
// CHECK:       static const irregfix::SiteInfo __irregfix_site_spmv_0 = {{.*}}, "val,col,row", 1};
// CHECK:         const void *__irregfix_v0_x_renumbered = nullptr;
// CHECK:         irregfix::disjoint(__irregfix_site_spmv_0, y, x) &&
// CHECK-NEXT:    irregfix::prepare_range(__irregfix_site_spmv_0,
// CHECK-NEXT:    irregfix::prepare_renumbered(__irregfix_site_spmv_0, 0, x, sizeof(*x), &__irregfix_v0_x_renumbered, __irregfix_stream) &&
// CHECK:         spmv_irregfix<<<{{.*}}, static_cast<const float *>(__irregfix_v0_x_renumbered), __irregfix_chunk.block_offset);
// NOTE: renumbered-gather.cu:[[@LINE-13]]:21: note: 'x' is read only at the values of 'col': in the locality order, through a copy of it in that order (renumbered)
// NOTE-NOT: note: 'x' is read only
// NOTE: renumbered-gather.cu:{{.*}}: note: 'x' is read only at the values of 'col'
// NOTE: renumbered-gather.cu:{{.*}}: note: 'rank' is read only at the values of 'src'
// NOTE: renumbered-gather.cu:{{.*}}: note: 'degree' is read only at the values of 'src'
// NOTE-NOT: note: '{{.*}}' is read only

// The column through a local, doubles: the same.
__global__ void through_local(int n, const int *row, const int *col, const double *val, const double *x, double *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  double s = 0;
  for (int k = row[t]; k < row[t + 1]; ++k) {
    const int c = col[k];
    s += val[k] * x[c];
  }
  y[t] = s;
}
// CHECK-LABEL: __global__ void through_local_irregfix(
// CHECK-SAME:    const double *__restrict__ __irregfix_v0_x_renumbered,
// CHECK:         const int c = __irregfix_v0_col[irregfix::slot(__irregfix_v0, __irregfix_p, __irregfix_iter0)];
// CHECK-NEXT:    s += __irregfix_v0_val[irregfix::slot(__irregfix_v0, __irregfix_p, __irregfix_iter0)] * __irregfix_v0_x_renumbered[c];
// CHECK:       __irregfix_site_through_local_0 = {{.*}}, "col,val,row", 0};

// Two arrays read at the same values (a pull-style PageRank): a copy of each.
__global__ void pull(int n, const int *row, const int *src, const float *rank, const int *degree, float *next) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = row[t]; k < row[t + 1]; ++k) {
      int c = src[k];
      s += rank[c] / degree[c];
    }
    next[t] = s;
  }
}
// CHECK-LABEL: __global__ void pull_irregfix(
// CHECK-SAME:    const float *__restrict__ __irregfix_v0_rank_renumbered, const int *__restrict__ __irregfix_v0_degree_renumbered,
// CHECK:         s += __irregfix_v0_rank_renumbered[c] / __irregfix_v0_degree_renumbered[c];
// CHECK:       __irregfix_site_pull_0 = {{.*}}, "src,row", 0};
// CHECK:         irregfix::disjoint(__irregfix_site_pull_0, next, rank) &&
// CHECK-NEXT:    irregfix::disjoint(__irregfix_site_pull_0, next, degree) &&
// CHECK-NEXT:    irregfix::prepare_range(__irregfix_site_pull_0,
// CHECK-NEXT:    irregfix::prepare_renumbered(__irregfix_site_pull_0, 0, rank, sizeof(*rank), &__irregfix_v0_rank_renumbered, __irregfix_stream) &&
// CHECK-NEXT:    irregfix::prepare_renumbered(__irregfix_site_pull_0, 1, degree, sizeof(*degree), &__irregfix_v0_degree_renumbered, __irregfix_stream) &&

// x is also read at the thread's own row: x stays in place.
__global__ void diagonal_too(int n, const int *row, const int *col, const float *val, const float *x, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = x[t];
    for (int k = row[t]; k < row[t + 1]; ++k)
      s += val[k] * x[col[k]];
    y[t] = s;
  }
}
// CHECK-LABEL: __global__ void diagonal_too_irregfix(
// CHECK-NOT:     renumbered
// CHECK:         * x[__irregfix_v0_col[
// CHECK:       __irregfix_site_diagonal_too_0 = {{.*}}, "val,col,row"};

// col's value is compared with the row (a triangular part): col's copy keeps its values.
__global__ void lower(int n, const int *row, const int *col, const float *val, const float *x, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = row[t]; k < row[t + 1]; ++k)
      if (col[k] < t)
        s += val[k] * x[col[k]];
    y[t] = s;
  }
}
// CHECK-LABEL: __global__ void lower_irregfix(
// CHECK-NOT:     renumbered
// CHECK:       __irregfix_site_lower_0 = {{.*}}, "col,val,row"};

// The local holding the column is also stored: the same.
__global__ void column_stored(int n, const int *row, const int *col, const float *val, const float *x, float *y,
                              int *last) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    int c = 0;
    for (int k = row[t]; k < row[t + 1]; ++k) {
      c = col[k];
      s += val[k] * x[c];
    }
    y[t] = s;
    last[t] = c;
  }
}
// CHECK-LABEL: __global__ void column_stored_irregfix(
// CHECK-NOT:     renumbered
// CHECK:       __irregfix_site_column_stored_0 = {{.*}}, "col,val,row"};

// Read through its address (__ldg): x stays in place.
__global__ void through_ldg(int n, const int *row, const int *col, const float *val, const float *x, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = row[t]; k < row[t + 1]; ++k)
      s += val[k] * __ldg(&x[col[k]]);
    y[t] = s;
  }
}
// CHECK-LABEL: __global__ void through_ldg_irregfix(
// CHECK-NOT:     renumbered
// CHECK:       __irregfix_site_through_ldg_0 = {{.*}}, "val,col,row"};

// Threads that share memory keep their order: no locality order, no renumbering.
__global__ void block_shared(int n, const int *row, const int *col, const float *val, const float *x, float *y) {
  __shared__ float part[256];
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  if (t < n)
    for (int k = row[t]; k < row[t + 1]; ++k)
      s += val[k] * x[col[k]];
  part[threadIdx.x] = s;
  if (t < n)
    y[t] = part[threadIdx.x];
}
// CHECK-LABEL: __global__ void block_shared_irregfix(
// CHECK-NOT:     renumbered
// CHECK:       __irregfix_site_block_shared_0 = {{.*}}, "val,col,row"};

void run(int n, const int *row, const int *col, const float *val, const float *x, float *y, const double *vd,
         const double *xd, double *yd, int *last) {
  spmv<<<(n + 255) / 256, 256>>>(n, row, col, val, x, y);
  through_local<<<(n + 255) / 256, 256>>>(n, row, col, vd, xd, yd);
  pull<<<(n + 255) / 256, 256>>>(n, row, col, x, last, y);
  diagonal_too<<<(n + 255) / 256, 256>>>(n, row, col, val, x, y);
  lower<<<(n + 255) / 256, 256>>>(n, row, col, val, x, y);
  column_stored<<<(n + 255) / 256, 256>>>(n, row, col, val, x, y, last);
  through_ldg<<<(n + 255) / 256, 256>>>(n, row, col, val, x, y);
  block_shared<<<(n + 255) / 256, 256>>>(n, row, col, val, x, y);
}
