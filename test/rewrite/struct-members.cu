// Arrays reached through the fields of a by-value struct parameter: reads are
// redirected, the guard bound g.n comes from the struct, a written field is
// alias-checked and invalidated at the launch under its own name.
// RUN: %irregfix --quiet %s -- %stub | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines

#include <cuda_runtime.h>

struct Csr {
  int n;
  const int *offsets;
  const float *weights;
};
struct Graph {
  Csr csr;
  const int *dst;
  float *out;
};

__global__ void relax(Graph g, const float *dist) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < g.csr.n) {
    float best = dist[v];
    for (int e = g.csr.offsets[v]; e < g.csr.offsets[v + 1]; ++e)
      best = best < g.csr.weights[e] ? best : g.csr.weights[e];
    g.out[v] = best + dist[g.dst[v]];
  }
}
// CHECK-LABEL: __global__ void relax_irregfix(Graph g, const float *dist, irregfix::View __irregfix_v0, const float *__restrict__ __irregfix_v0_g_csr_weights, irregfix::View __irregfix_v1, const float *__restrict__ __irregfix_v1_dist, const unsigned __irregfix_block_offset) {
// CHECK:           best = best < __irregfix_v0_g_csr_weights[irregfix::slot(__irregfix_v0, v, __irregfix_iter0)] ? best : __irregfix_v0_g_csr_weights[irregfix::slot(__irregfix_v0, v, __irregfix_iter0)];
// CHECK-NEXT:      g.out[v] = best + __irregfix_v1_dist[irregfix::gather_slot(__irregfix_v1, v)];
// CHECK:         const void *const __irregfix_v0_src[1] = {g.csr.weights};
// CHECK:         if (irregfix::begin_launch(__irregfix_site_relax_0, __irregfix_stream, __irregfix_grid, __irregfix_block) &&
// CHECK-NEXT:             irregfix::disjoint(__irregfix_site_relax_0, g.out, g.csr.offsets) &&
// CHECK-NEXT:        irregfix::disjoint(__irregfix_site_relax_0, g.out, g.csr.weights) &&
// CHECK:             irregfix::prepare_range(__irregfix_site_relax_0, g.csr.offsets, irregfix::index_kind(g.csr.offsets), (long long)(g.csr.n), 1, __irregfix_v0_src, __irregfix_v0_size, &__irregfix_v0, __irregfix_v0_out, __irregfix_stream) &&
// CHECK:             irregfix::prepare_gather(__irregfix_site_relax_1, g.dst, irregfix::index_kind(g.dst), (long long)(g.csr.n), dist, sizeof(*dist), &__irregfix_v1, __irregfix_v1_out, __irregfix_stream) &&
// CHECK-NEXT:        irregfix::start_chunks(__irregfix_site_relax_0, __irregfix_stream, &__irregfix_chunks)) {

void run(const Graph &graph, const float *dist) {
  relax<<<graph.csr.n / 256 + 1, 256>>>(graph, dist);
}
// CHECK-LABEL: void run(const Graph &graph, const float *dist) {
// CHECK-NEXT:    irregfix::EntryGuard __irregfix_entry("struct-members.cu:39");
// CHECK-NEXT:    irregfix_invalidate(graph.out);
// CHECK-NEXT:    relax_irregfix_launch(graph.csr.n / 256 + 1, 256, 0, 0, graph, dist);
