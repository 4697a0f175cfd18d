// A called function given a kernel array at an offset that the launch can
// compute (`x + shift`, `&rowptr[first]`, of the kernel's by-value arguments)
// reads a view of that array: element i of the parameter is element
// first + i of the array in every thread. Its sites are rewritten as if the
// kernel passed the array, and the launcher hands the runtime the view's
// start, `(x + (shift))`, so that each copy holds exactly the elements the
// function reads; the alias checks stay on the whole array.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err
// RUN: %irregfix --report %s -- %stub 2>/dev/null | FileCheck %s --check-prefix=REPORT

#include <cuda_runtime.h>

__device__ float pick(const float *a, const int *idx, int i) { return a[idx[i]]; }

__global__ void shifted_gather(int n, int shift, const float *x, const int *idx, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = pick(x + shift, idx, t);
}

__device__ float row_sum(const int *rowptr, const float *val, int row) {
  float s = 0.0f;
  for (int k = rowptr[row]; k < rowptr[row + 1]; ++k)
    s += val[k];
  return s;
}

__global__ void later_rows(int n, int first, const int *rowptr, const float *val, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    y[t] = row_sum(&rowptr[first], val + 2 * first, t);
}

// The same array twice, once at an offset: each read is a gather site of its
// own, and each site's copy starts where its parameter points.
__device__ float both(const float *a, const float *b, const int *idx, int i) { return a[idx[i]] - b[idx[i]]; }
__global__ void difference(int n, int lag, const float *x, const int *idx, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = both(x, x + lag, idx, t);
}

// One range site reading the same array through two parameters, one a view:
// the site's copies name each kernel array from one start, so the view's read
// stays in place and only the other is copied.
__device__ float lagged(const int *rowptr, const float *now, const float *then, int row) {
  float s = 0.0f;
  for (int k = rowptr[row]; k < rowptr[row + 1]; ++k)
    s += now[k] - then[k];
  return s;
}
__global__ void change(int n, int lag, const int *rowptr, const float *x, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    y[t] = lagged(rowptr, x, x + lag, t);
}
// WHY-DAG: callee-offset-view.cu:[[@LINE-9]]:3: remark: range site in 'change' transformed: 'x' read through a coalesced copy indexed by 'rowptr'
// WHY-DAG: callee-offset-view.cu:[[@LINE-9]]:19: note: 'then' is left as is: 'then' and 'now' of 'lagged' point into 'x', one at an offset (a site reads each kernel array from one start)

// The function's copy reads the copy at the thread, as for an array passed unchanged.
// CHECK-LABEL: __device__ float pick_irregfix_shifted_gather(const float *a, const int *idx, int i, irregfix::View __irregfix_v0, const float *__restrict__ __irregfix_v0_x) { return __irregfix_v0_x[irregfix::gather_slot(__irregfix_v0, i)]; }
// CHECK:           out[t] = pick_irregfix_shifted_gather(x + shift, idx, t, __irregfix_v0, __irregfix_v0_x);
// The view's start goes to the runtime; the index array is the kernel's own.
// CHECK:         irregfix::prepare_gather(__irregfix_site_shifted_gather_0, idx, irregfix::index_kind(idx), (long long)(n), (x + (shift)), sizeof(*x), &__irregfix_v0, __irregfix_v0_out, __irregfix_stream) &&
// Both the row bounds and the values are views; each starts where the call says.
// CHECK:           y[t] = row_sum_irregfix_later_rows(&rowptr[first], val + 2 * first, t, __irregfix_v0, __irregfix_v0_val);
// CHECK:         const void *const __irregfix_v0_src[1] = {(val + (2 * first))};
// CHECK:         irregfix::prepare_range(__irregfix_site_later_rows_0, (rowptr + (first)), irregfix::index_kind(rowptr), (long long)(n), 1, __irregfix_v0_src, __irregfix_v0_size, &__irregfix_v0, __irregfix_v0_out, __irregfix_stream) &&
// CHECK:           out[t] = both_irregfix_difference(x, x + lag, idx, t, __irregfix_v0, __irregfix_v0_x, __irregfix_v1, __irregfix_v1_x);
// CHECK:         irregfix::prepare_gather(__irregfix_site_difference_0, idx, irregfix::index_kind(idx), (long long)(n), x, sizeof(*x), &__irregfix_v0, __irregfix_v0_out, __irregfix_stream) &&
// CHECK:         irregfix::prepare_gather(__irregfix_site_difference_1, idx, irregfix::index_kind(idx), (long long)(n), (x + (lag)), sizeof(*x), &__irregfix_v1, __irregfix_v1_out, __irregfix_stream) &&
// The view's read stays in place at the loop variable, which the rewritten loop binds again.
// CHECK:       __device__ float lagged_irregfix_change(
// CHECK-NEXT:    float s = 0.0f;
// CHECK-NEXT:    for (int __irregfix_iter0 = 0, __irregfix_len0 = irregfix::length(__irregfix_v0, row); __irregfix_iter0 < __irregfix_len0; ++__irregfix_iter0)
// CHECK-NEXT:      { const int k = static_cast<int>(rowptr[row] + __irregfix_iter0); s += __irregfix_v0_x[irregfix::slot(__irregfix_v0, row, __irregfix_iter0)] - then[k]; }

// WHY-DAG: callee-offset-view.cu:14:71: remark: gather site in 'shifted_gather' transformed: 'x' read through a coalesced copy indexed by 'idx'
// WHY-DAG: callee-offset-view.cu:24:3: remark: range site in 'later_rows' transformed: 'val' read through a coalesced copy indexed by 'rowptr'
// WHY-DAG: callee-offset-view.cu:37:87: remark: gather site in 'difference' transformed: 'x' read through a coalesced copy indexed by 'idx'
// WHY-DAG: callee-offset-view.cu:37:99: remark: gather site in 'difference' transformed: 'x' read through a coalesced copy indexed by 'idx'

// REPORT-DAG: read kernel=shifted_gather function=pick array=a index="idx[i]" pattern=gather verdict=rewritten
// REPORT-DAG: read kernel=later_rows function=row_sum array=val index="k" pattern=range verdict=rewritten
// REPORT-DAG: read kernel=difference function=both array=b index="idx[i]" pattern=gather verdict=rewritten

void run(int n, int shift, const float *x, const int *idx, float *out, const int *rowptr, const float *val,
         float *y) {
  shifted_gather<<<(n + 127) / 128, 128>>>(n, shift, x, idx, out);
  later_rows<<<(n + 127) / 128, 128>>>(n, 7, rowptr, val, y);
  difference<<<(n + 127) / 128, 128>>>(n, 5, x, idx, out);
  change<<<(n + 127) / 128, 128>>>(n, 3, rowptr, x, y);
}
