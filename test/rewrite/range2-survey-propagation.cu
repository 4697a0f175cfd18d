// Survey propagation's calc_pi_values: a two-level range (row = var_offsets[edge_var[e]])
// in the counted form. The loop runs to irregfix::length, the reads go through the
// copy, and the locals left unused by the rewrite are marked [[maybe_unused]].
// RUN: %irregfix --quiet %s -- %stub | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines

#include <cuda_runtime.h>

__global__ void calc_pi_values(int num_edges, const int *edge_var, const int *var_offsets,
                               const int *var_edges, const float *eta, float *pi) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < num_edges) {
    int v = edge_var[e];
    int start = var_offsets[v];
    int len = var_offsets[v + 1] - start;
    float prod = 1.0f;
    for (int i = 0; i < len; i++) {
      int other = var_edges[start + i];
      if (other != e)
        prod *= 1.0f - eta[other];
    }
    pi[e] = prod;
  }
}
// CHECK-LABEL: __global__ void calc_pi_values_irregfix(int num_edges, const int *edge_var, const int *var_offsets,
// CHECK-NEXT:                                 const int *var_edges, const float *eta, float *pi, irregfix::View __irregfix_v0, const int *__restrict__ __irregfix_v0_var_edges, const unsigned __irregfix_block_offset) {
// CHECK-NEXT:    int e = (blockIdx.x + __irregfix_block_offset) * blockDim.x + threadIdx.x;
// CHECK-NEXT:    if (e < num_edges) {
// CHECK-NEXT:      int v = edge_var[e];
// CHECK-NEXT:      int start = var_offsets[v];
// CHECK-NEXT:      {{\[\[}}maybe_unused{{\]\]}} int len = var_offsets[v + 1] - start;
// CHECK-NEXT:      float prod = 1.0f;
// CHECK-NEXT:      for (int __irregfix_iter0 = 0, __irregfix_len0 = irregfix::length(__irregfix_v0, e); __irregfix_iter0 < __irregfix_len0; ++__irregfix_iter0) {
// CHECK-NEXT:        int other = __irregfix_v0_var_edges[irregfix::slot(__irregfix_v0, e, __irregfix_iter0)];
// CHECK:       static const irregfix::SiteInfo __irregfix_site_calc_pi_values_0 = {"range2-survey-propagation.cu:16:5", "calc_pi_values", "range2", irregfix::kSiteChunkable, nullptr, "var_edges,var_offsets,edge_var"};
// CHECK:         irregfix::prepare_range2(__irregfix_site_calc_pi_values_0, var_offsets, irregfix::index_kind(var_offsets), edge_var, irregfix::index_kind(edge_var), (long long)(num_edges), 1, __irregfix_v0_src, __irregfix_v0_size, &__irregfix_v0, __irregfix_v0_out, __irregfix_stream) &&
// CHECK-NEXT:        irregfix::start_chunks(__irregfix_site_calc_pi_values_0, __irregfix_stream, &__irregfix_chunks)) {

void step(int ne, const int *ev, const int *vo, const int *ve, const float *eta, float *pi) {
  calc_pi_values<<<(ne + 255) / 256, 256>>>(ne, ev, vo, ve, eta, pi);
}
// CHECK: calc_pi_values_irregfix_launch((ne + 255) / 256, 256, 0, 0, ne, ev, vo, ve, eta, pi);
