// An edge of an unstructured mesh adds its flux to both its end cells,
// `atomicAdd(&r[a[e]], -flux); atomicAdd(&r[b[e]], flux);`: the two updates are
// rewritten together. Update k of edge e writes contribution e * 2 + k, and the
// launcher hands the runtime both index arrays (scatter_indices), so that a
// cell's contributions are added in the order a loop over the edges would add them.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: sed 's,// CHECK.*,,' %t.out | FileCheck %s --match-full-lines
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err -implicit-check-not="{{remark|warning|error}}:"

#include <cuda_runtime.h>

__global__ void edge_flux(int edges, const int *a, const int *b, const float *u, const float *k, float *r) {
  for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < edges; e += gridDim.x * blockDim.x) {
    const float flux = k[e] * (u[b[e]] - u[a[e]]);
    atomicAdd(&r[a[e]], flux);
    atomicAdd(&r[b[e]], -flux);
  }
}
// CHECK-LABEL: __global__ void edge_flux_irregfix(int edges, const int *a, const int *b, const float *u, const float *k, float *r, float *__restrict__ __irregfix_contrib, const int *__restrict__ __irregfix_slots) {
// CHECK-NEXT:    for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < edges; e += gridDim.x * blockDim.x) {
// CHECK-NEXT:      const float flux = k[e] * (u[b[e]] - u[a[e]]);
// CHECK-NEXT:      __irregfix_contrib[__irregfix_slots[(e) * 2 + 0]] = (flux);
// CHECK-NEXT:      __irregfix_contrib[__irregfix_slots[(e) * 2 + 1]] = (-flux);
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK:       static const irregfix::SiteInfo __irregfix_site_edge_flux_0 = {"scatter-two-updates.cu:15:5", "edge_flux", "scatter", 0, nullptr, "r,a,b"};
// CHECK:       static void edge_flux_irregfix_launch(dim3 __irregfix_grid, dim3 __irregfix_block, size_t __irregfix_shmem, cudaStream_t __irregfix_stream, int edges, const int *a, const int *b, const float *u, const float *k, float *r) {
// CHECK-NEXT:    irregfix::ScatterPlan __irregfix_plan;
// CHECK-NEXT:    if (irregfix::begin_launch(__irregfix_site_edge_flux_0, __irregfix_stream, __irregfix_grid, __irregfix_block) &&
// CHECK-NEXT:        irregfix::disjoint(__irregfix_site_edge_flux_0, r, a) &&
// CHECK-NEXT:        irregfix::disjoint(__irregfix_site_edge_flux_0, r, b) &&
// CHECK-NEXT:        irregfix::disjoint(__irregfix_site_edge_flux_0, r, u) &&
// CHECK-NEXT:        irregfix::disjoint(__irregfix_site_edge_flux_0, r, k) &&
// CHECK-NEXT:        irregfix::prepare_scatter(__irregfix_site_edge_flux_0, irregfix::scatter_indices(a, b), (long long)(edges), r, irregfix::scatter_kind(r), &__irregfix_plan, __irregfix_stream)) {
// CHECK-NEXT:      edge_flux_irregfix<<<__irregfix_grid, __irregfix_block, __irregfix_shmem, __irregfix_stream>>>(edges, a, b, u, k, r, static_cast<float *>(__irregfix_plan.contrib), __irregfix_plan.slots);
// CHECK-NEXT:      if (irregfix::execute_scatter(__irregfix_site_edge_flux_0, __irregfix_plan, __irregfix_stream)) {

void residual(int edges, const int *a, const int *b, const float *u, const float *k, float *r) {
  edge_flux<<<(edges + 255) / 256, 256>>>(edges, a, b, u, k, r);
}
// CHECK-LABEL: void residual(int edges, const int *a, const int *b, const float *u, const float *k, float *r) {
// CHECK:         edge_flux_irregfix_launch((edges + 255) / 256, 256, 0, 0, edges, a, b, u, k, r);

// REMARK-DAG: scatter-two-updates.cu:15:16: remark: gather site in 'edge_flux' not transformed: it is the update of 'r', which the scatter strategy rewrites
// REMARK-DAG: scatter-two-updates.cu:16:16: remark: gather site in 'edge_flux' not transformed: it is the update of 'r', which the scatter strategy rewrites
// REMARK-DAG: scatter-two-updates.cu:14:{{[0-9]+}}: remark: {{.*}} site in 'edge_flux' not transformed: the kernel's update of 'r' is rewritten instead (scatter: an inspector-executor), which reads its arrays in place
// REMARK-DAG: scatter-two-updates.cu:15:5: remark: scatter site in 'edge_flux' transformed: updates of 'r' through 'a' run as an inspector-executor (each thread's contribution written to a buffer, added per element in thread order, without atomics)
// REMARK-DAG: scatter-two-updates.cu:16:5: remark: scatter site in 'edge_flux' transformed: updates of 'r' through 'b' run as an inspector-executor (each thread's contribution written to a buffer, added per element in thread order, without atomics)
