// A histogram in a grid-stride loop: each value of the loop variable is one
// thread's update, so the variant writes contrib[i] inside the loop; n comes
// from the loop's condition.
// RUN: %irregfix --quiet %s -- %stub | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines

#include <cuda_runtime.h>

__global__ void histogram(int n, const int *bin, int *counts) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&counts[bin[i]], 1);
}
// CHECK-LABEL: __global__ void histogram_irregfix(int n, const int *bin, int *counts, int *__restrict__ __irregfix_contrib, const int *__restrict__ __irregfix_slots) {
// CHECK-NEXT:    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
// CHECK-NEXT:      __irregfix_contrib[__irregfix_slots[i]] = (1);
// CHECK-NEXT:  }
// CHECK:             irregfix::prepare_scatter(__irregfix_site_histogram_0, bin, irregfix::index_kind(bin), (long long)(n), counts, irregfix::scatter_kind(counts), &__irregfix_plan, __irregfix_stream)) {
// CHECK-NEXT:      histogram_irregfix<<<__irregfix_grid, __irregfix_block, __irregfix_shmem, __irregfix_stream>>>(n, bin, counts, static_cast<int *>(__irregfix_plan.contrib), __irregfix_plan.slots);

void count(int n, const int *bin, int *counts) { histogram<<<64, 256>>>(n, bin, counts); }
// CHECK: histogram_irregfix_launch(64, 256, 0, 0, n, bin, counts); }
