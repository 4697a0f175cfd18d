// Kernels without a guard (the grid sized to the data, as MD codes do): every
// launched thread is active, and n is the launch's grid.x * block.x, read in
// the launcher from its own dim3 parameters whatever the launch wrote (a dim3
// variable, numbers, an expression). The pattern sites take them: a gather,
// an MD neighbour list and a CSR row.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: sed 's,// CHECK.*,,' %t.out | FileCheck %s --match-full-lines
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err

#include <cuda_runtime.h>

__global__ void pull(const int *idx, const float *pos, float *f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  f[i] = 2.0f * pos[idx[i]];
}
// WHY: remark: gather site in 'pull' transformed
// CHECK:             irregfix::prepare_gather(__irregfix_site_pull_0, idx, irregfix::index_kind(idx), (long long)__irregfix_grid.x * __irregfix_block.x, pos, sizeof(*pos), &__irregfix_v0, __irregfix_v0_out, __irregfix_stream) &&

__global__ void forces(int n, const int *count, const int *list, const float4 *pos, float *f) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int q = 0; q < count[t]; ++q) {
    float4 p = pos[list[q * n + t]];
    s += p.x * p.w;
  }
  f[t] = s;
}
// WHY: remark: neighbors site in 'forces' transformed
// WHY: remark: threads of 'forces' may be permuted (SELL-32-sigma regroups rows by length)
// CHECK:             irregfix::prepare_neighbors(__irregfix_site_forces_0, list, irregfix::index_kind(list), (long long)(n), 1, 0, count, irregfix::index_kind(count), (long long)__irregfix_grid.x * __irregfix_block.x, pos, sizeof(*pos), &__irregfix_v0, __irregfix_v0_out, __irregfix_stream) &&

__global__ void rows(const int *rp, const float *val, float *out) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int k = rp[r]; k < rp[r + 1]; ++k)
    s += val[k];
  out[r] = s;
}
// WHY: remark: range site in 'rows' transformed
// CHECK:             irregfix::prepare_range(__irregfix_site_rows_0, rp, irregfix::index_kind(rp), (long long)__irregfix_grid.x * __irregfix_block.x, 1, __irregfix_v0_src, __irregfix_v0_size, &__irregfix_v0, __irregfix_v0_out, __irregfix_stream) &&

void step(int n, const int *idx, const int *count, const int *list, const float4 *pos4, const float *pos, float *f,
          const int *rp, const float *val) {
  dim3 grid(n / 128);
  pull<<<grid, 128>>>(idx, pos, f);
  forces<<<n / 64, 64>>>(n, count, list, pos4, f);
  rows<<<dim3(n / 256), dim3(256), 0>>>(rp, val, f);
}
// CHECK: pull_irregfix_launch(grid, 128, 0, 0, idx, pos, f);
// CHECK: forces_irregfix_launch(n / 64, 64, 0, 0, n, count, list, pos4, f);
// CHECK: rows_irregfix_launch(dim3(n / 256), dim3(256), 0, 0, rp, val, f);
