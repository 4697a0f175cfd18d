// A neighbour loop written as `int j = 0; while (j < count) { ...; ++j; }`.
// RUN: %irregfix --quiet %s -- %stub | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines

#include <cuda_runtime.h>

__global__ void density(int n, const int *count, const int *nb, const float *mass, float *rho) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float r = 0.f;
    int c = count[t];
    int j = 0;
    while (j < c) {
      r += mass[nb[j * n + t]];
      j++;
    }
    rho[t] = r;
  }
}
// CHECK-LABEL: __global__ void density_irregfix(int n, const int *count, const int *nb, const float *mass, float *rho, irregfix::View __irregfix_v0, const float *__restrict__ __irregfix_v0_mass, const unsigned __irregfix_block_offset) {
// CHECK-NEXT:      extern __shared__ __align__(16) unsigned char __irregfix_stage[];
// CHECK-NEXT:      irregfix::stage_shared(__irregfix_v0, __irregfix_v0_mass, __irregfix_stage, (blockIdx.x + __irregfix_block_offset));
// CHECK:           while (j < c) {
// CHECK-NEXT:        r += irregfix::read_shared(__irregfix_v0, __irregfix_v0_mass, __irregfix_stage, __irregfix_p, j);
// CHECK-NEXT:        j++;
// CHECK:         irregfix::prepare_neighbors(__irregfix_site_density_0, nb, irregfix::index_kind(nb), (long long)(n), 1, 0, count, irregfix::index_kind(count), (long long)(n), mass, sizeof(*mass), &__irregfix_v0, __irregfix_v0_out, __irregfix_stream) &&
// CHECK-NEXT:        irregfix::start_chunks(__irregfix_site_density_0, __irregfix_stream, &__irregfix_chunks)) {
