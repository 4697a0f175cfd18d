// Arrays inside the struct a pointer parameter points to (`tab->weight`, a
// one-dimensional array of scalars in `*tab`) are read like pointer
// parameters: a gather through a member, a range loop over members (offsets
// and values), a two-level gather whose index array is a member, and a range
// loop in a called function, given the struct or the members. The kernels
// read the copies; a launcher names each member once, as the pointer plus the
// member's offset (never loading from `*tab` on the host), and checks it apart
// from what the kernel writes.
// RUN: %irregfix --quiet %s -- %stub | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines

#include <cuda_runtime.h>

struct Table {
  int count;
  int perm[256];
  float weight[1024];
  int start[65];
  float vals[4096];
};

__global__ void pick(const Table *tab, const int *keys, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = tab->weight[keys[t]];
}
// CHECK-LABEL: __global__ void pick_irregfix(const Table *tab, const int *keys, float *out, int n, irregfix::View __irregfix_v0, const float *__restrict__ __irregfix_v0_tab_weight, const unsigned __irregfix_block_offset) {
// CHECK:           out[t] = __irregfix_v0_tab_weight[irregfix::gather_slot(__irregfix_v0, t)];
// CHECK:       static const irregfix::SiteInfo __irregfix_site_pick_0 = {"pointee-member-arrays.cu:24:14", "pick", "gather", irregfix::kSiteChunkable, nullptr, "tab->weight,keys"};
// CHECK:       static void pick_irregfix_launch(dim3 __irregfix_grid, dim3 __irregfix_block, size_t __irregfix_shmem, cudaStream_t __irregfix_stream, const Table *tab, const int *keys, float *out, int n) {
// CHECK-NEXT:    const auto *const __irregfix_tab_weight = reinterpret_cast<const float *>(reinterpret_cast<const char *>(tab) + __builtin_offsetof(Table, weight));
// CHECK:             irregfix::disjoint(__irregfix_site_pick_0, out, __irregfix_tab_weight) &&
// CHECK-NEXT:        irregfix::prepare_gather(__irregfix_site_pick_0, keys, irregfix::index_kind(keys), (long long)(n), __irregfix_tab_weight, sizeof(*__irregfix_tab_weight), &__irregfix_v0, __irregfix_v0_out, __irregfix_stream) &&

__global__ void row_sums(const Table *tab, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < 64) {
    float s = 0.f;
    for (int e = tab->start[t]; e < tab->start[t + 1]; ++e)
      s += tab->vals[e];
    out[t] = s;
  }
}
// CHECK-LABEL: __global__ void row_sums_irregfix(const Table *tab, float *out, irregfix::View __irregfix_v0, const float *__restrict__ __irregfix_v0_tab_vals, const unsigned __irregfix_block_offset) {
// CHECK:             for (int __irregfix_iter0 = 0, __irregfix_len0 = irregfix::length(__irregfix_v0, __irregfix_p); __irregfix_iter0 < __irregfix_len0; ++__irregfix_iter0)
// CHECK-NEXT:          s += __irregfix_v0_tab_vals[irregfix::slot(__irregfix_v0, __irregfix_p, __irregfix_iter0)];
// CHECK:       static void row_sums_irregfix_launch(dim3 __irregfix_grid, dim3 __irregfix_block, size_t __irregfix_shmem, cudaStream_t __irregfix_stream, const Table *tab, float *out) {
// CHECK-NEXT:    const auto *const __irregfix_tab_start = reinterpret_cast<const int *>(reinterpret_cast<const char *>(tab) + __builtin_offsetof(Table, start));
// CHECK-NEXT:    const auto *const __irregfix_tab_vals = reinterpret_cast<const float *>(reinterpret_cast<const char *>(tab) + __builtin_offsetof(Table, vals));
// CHECK:         const void *const __irregfix_v0_src[1] = {__irregfix_tab_vals};
// CHECK-NEXT:    const size_t __irregfix_v0_size[1] = {sizeof(*__irregfix_tab_vals)};
// CHECK:             irregfix::prepare_range(__irregfix_site_row_sums_0, __irregfix_tab_start, irregfix::index_kind(__irregfix_tab_start), (long long)(64), 1, __irregfix_v0_src, __irregfix_v0_size, &__irregfix_v0, __irregfix_v0_out, __irregfix_stream) &&

// A non-const pointer: the member's address keeps the struct's qualifiers.
__global__ void permuted(Table *tab, const int *keys, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = tab->weight[tab->perm[keys[t]]];
}
// CHECK-LABEL: __global__ void permuted_irregfix(Table *tab, const int *keys, float *out, int n, irregfix::View __irregfix_v0, const float *__restrict__ __irregfix_v0_tab_weight, const unsigned __irregfix_block_offset) {
// CHECK:           out[t] = __irregfix_v0_tab_weight[irregfix::gather_slot(__irregfix_v0, t)];
// CHECK:       static const irregfix::SiteInfo __irregfix_site_permuted_0 = {"pointee-member-arrays.cu:57:14", "permuted", "gather2", irregfix::kSiteChunkable, nullptr, "tab->weight,tab->perm,keys"};
// CHECK-NEXT:  // irregfix: launches permuted_irregfix on remapped copies, or the original kernel when the runtime declines or times it faster.
// CHECK-NEXT:  static void permuted_irregfix_launch(dim3 __irregfix_grid, dim3 __irregfix_block, size_t __irregfix_shmem, cudaStream_t __irregfix_stream, Table *tab, const int *keys, float *out, int n) {
// CHECK-NEXT:    const auto *const __irregfix_tab_perm = reinterpret_cast<int *>(reinterpret_cast<char *>(tab) + __builtin_offsetof(Table, perm));
// CHECK-NEXT:    const auto *const __irregfix_tab_weight = reinterpret_cast<float *>(reinterpret_cast<char *>(tab) + __builtin_offsetof(Table, weight));
// CHECK:             irregfix::prepare_gather2(__irregfix_site_permuted_0, __irregfix_tab_perm, irregfix::index_kind(__irregfix_tab_perm), keys, irregfix::index_kind(keys), (long long)(n), __irregfix_tab_weight, sizeof(*__irregfix_tab_weight), &__irregfix_v0, __irregfix_v0_out, __irregfix_stream) &&

__device__ float sum_of_row(const Table *x, int t) {
  float s = 0.f;
  for (int e = x->start[t]; e < x->start[t + 1]; ++e)
    s += x->vals[e];
  return s;
}

__device__ float sum_between(const int *start, const float *vals, int t) {
  float s = 0.f;
  for (int e = start[t]; e < start[t + 1]; ++e)
    s += vals[e];
  return s;
}

__global__ void called(const Table *tab, float *out, float *out2) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < 64) {
    out[t] = sum_of_row(tab, t);
    out2[t] = sum_between(tab->start, tab->vals, t);
  }
}
// CHECK:       static const irregfix::SiteInfo __irregfix_site_called_0 = {"pointee-member-arrays.cu:70:3", "called", "range", irregfix::kSiteChunkable, nullptr, "tab->vals,tab->start"};
// CHECK-NEXT:  static const irregfix::SiteInfo __irregfix_site_called_1 = {"pointee-member-arrays.cu:77:3", "called", "range", irregfix::kSiteChunkable, nullptr, "tab->vals,tab->start"};
// CHECK:             irregfix::prepare_range(__irregfix_site_called_0, __irregfix_tab_start, irregfix::index_kind(__irregfix_tab_start), (long long)(64), 1, __irregfix_v0_src, __irregfix_v0_size, &__irregfix_v0, __irregfix_v0_out, __irregfix_stream) &&

void run(Table *tab, const int *keys, float *out, float *out2, int n) {
  pick<<<(n + 127) / 128, 128>>>(tab, keys, out, n);
  row_sums<<<1, 64>>>(tab, out);
  permuted<<<(n + 127) / 128, 128>>>(tab, keys, out, n);
  called<<<1, 64>>>(tab, out, out2);
}
// CHECK-LABEL: void run(Table *tab, const int *keys, float *out, float *out2, int n) {
// CHECK:         pick_irregfix_launch((n + 127) / 128, 128, 0, 0, tab, keys, out, n);
