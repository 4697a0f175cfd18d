// Sites reached through calls: a gather two calls deep (each function on the
// way gets a copy that passes the view and copy on; the deepest copy comes
// first), a CSR loop over the fields of a struct passed by value from a
// grid-stride loop, a two-level range, and one function called by two kernels
// (a copy for each).
// RUN: %irregfix --quiet %s -- %stub | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines
// RUN: %irregfix --report %s -- %stub 2>/dev/null | FileCheck %s --check-prefix=REPORT

#include <cuda_runtime.h>

__device__ float fetch(const float *a, const int *idx, int i) { return a[idx[i]]; }
__device__ float scaled(const float *a, const int *idx, int i, float s) { return s * fetch(a, idx, i); }

__global__ void deep(int n, const float *a, const int *idx, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  out[t] = scaled(a, idx, t, 2.0f);
}
// CHECK-LABEL: __device__ float fetch_irregfix_deep(const float *a, const int *idx, int i, irregfix::View __irregfix_v0, const float *__restrict__ __irregfix_v0_a) { return __irregfix_v0_a[irregfix::gather_slot(__irregfix_v0, i)]; }
// CHECK:       __device__ float scaled_irregfix_deep(const float *a, const int *idx, int i, float s, irregfix::View __irregfix_v0, const float *__restrict__ __irregfix_v0_a) { return s * fetch_irregfix_deep(a, idx, i, __irregfix_v0, __irregfix_v0_a); }
// CHECK:         out[t] = scaled_irregfix_deep(a, idx, t, 2.0f, __irregfix_v0, __irregfix_v0_a);

__global__ void shallow(int n, const float *a, const int *idx, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = fetch(a, idx, t);
}
// CHECK-LABEL: __device__ float fetch_irregfix_shallow(const float *a, const int *idx, int i, irregfix::View __irregfix_v0, const float *__restrict__ __irregfix_v0_a) { return __irregfix_v0_a[irregfix::gather_slot(__irregfix_v0, i)]; }
// CHECK:           out[t] = fetch_irregfix_shallow(a, idx, t, __irregfix_v0, __irregfix_v0_a);

struct Csr {
  const int *rowptr;
  const int *col;
  const double *val;
};

__device__ double row_sum(Csr m, int row) {
  double s = 0.0;
  for (int k = m.rowptr[row]; k < m.rowptr[row + 1]; ++k)
    s += m.val[k];
  return s;
}

__global__ void sums(int n, Csr m, double *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = row_sum(m, i);
}
// CHECK-LABEL: __device__ double row_sum_irregfix_sums(Csr m, int row, irregfix::View __irregfix_v0, const double *__restrict__ __irregfix_v0_m_val) {
// CHECK:         for (int __irregfix_iter0 = 0, __irregfix_len0 = irregfix::length(__irregfix_v0, row); __irregfix_iter0 < __irregfix_len0; ++__irregfix_iter0)
// CHECK-NEXT:      s += __irregfix_v0_m_val[irregfix::slot(__irregfix_v0, row, __irregfix_iter0)];
// CHECK:           y[i] = row_sum_irregfix_sums(m, i, __irregfix_v0, __irregfix_v0_m_val);
// CHECK:         irregfix::prepare_range(__irregfix_site_sums_0, m.rowptr, irregfix::index_kind(m.rowptr), (long long)(n), 1, __irregfix_v0_src, __irregfix_v0_size, &__irregfix_v0, __irregfix_v0_out, __irregfix_stream)) {

__device__ float picked_row(const int *rowptr, const int *rows, const float *val, int r) {
  int v = rows[r];
  float s = 0.0f;
  for (int k = rowptr[v]; k < rowptr[v + 1]; ++k)
    s += val[k];
  return s;
}

__global__ void subset(int n, const int *rowptr, const int *rows, const float *val, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    y[t] = picked_row(rowptr, rows, val, t);
}
// CHECK-LABEL: __device__ float picked_row_irregfix_subset(const int *rowptr, const int *rows, const float *val, int r, irregfix::View __irregfix_v0, const float *__restrict__ __irregfix_v0_val) {
// CHECK-NEXT:    {{\[\[}}maybe_unused{{\]\]}} int v = rows[r];
// CHECK:           s += __irregfix_v0_val[irregfix::slot(__irregfix_v0, r, __irregfix_iter0)];
// CHECK:         irregfix::prepare_range2(__irregfix_site_subset_0, rowptr, irregfix::index_kind(rowptr), rows, irregfix::index_kind(rows), (long long)(n), 1, __irregfix_v0_src, __irregfix_v0_size, &__irregfix_v0, __irregfix_v0_out, __irregfix_stream) &&

// REPORT: :11:72: kernel=deep pattern=gather offsets=idx arrays=a verdict=transformed
// REPORT: :11:72: kernel=shallow pattern=gather offsets=idx arrays=a verdict=transformed
// REPORT: :40:3: kernel=sums pattern=range offsets=m.rowptr arrays=m.val verdict=transformed threads=in-order launch=whole
// REPORT: :58:3: kernel=subset pattern=range2 offsets=rowptr arrays=val verdict=transformed
// REPORT: :11:72: read kernel=deep function=fetch array=a index="idx[i]" pattern=gather verdict=rewritten
// REPORT: :11:72: read kernel=shallow function=fetch array=a index="idx[i]" pattern=gather verdict=rewritten
// REPORT: :41:10: read kernel=sums function=row_sum array=m.val index="k" pattern=range verdict=rewritten
// REPORT: :58:16: read kernel=subset function=picked_row array=rowptr index="v" pattern=range2 verdict=rewritten reason="the range2 site's own row bounds, read by its remap"
// REPORT: :59:10: read kernel=subset function=picked_row array=val index="k" pattern=range2 verdict=rewritten

void run(int n, const float *a, const int *idx, float *out, Csr m, double *y, const int *rows, float *z) {
  deep<<<n / 128 + 1, 128>>>(n, a, idx, out);
  shallow<<<n / 128 + 1, 128>>>(n, a, idx, out);
  sums<<<n / 128 + 1, 128>>>(n, m, y);
  subset<<<n / 128 + 1, 128>>>(n, m.rowptr, rows, a, z);
}
