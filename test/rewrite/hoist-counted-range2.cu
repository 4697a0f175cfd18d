// --hoist on the counted two-level range (the SP sample's calc_pi_values): the
// counted loop becomes the iteration loop bounded by the step, 'i' is rebound
// to the iteration, and 'prod' is carried.
// RUN: %irregfix --hoist %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err
#include <cuda_runtime.h>

__global__ void calc_pi_values(int ne, const int *edge_var, const int *off, const int *edges, const float *eta, float *pi) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < ne) {
    int v = edge_var[e];
    int start = off[v];
    int len = off[v + 1] - start;
    float prod = 1.0f;
    for (int i = 0; i < len; i++) {
      int other = edges[start + i];
      if (other != e && i >= 0)
        prod *= 1.0f - eta[other];
    }
    pi[e] = prod;
  }
}
// WHY: remark: loop of 'calc_pi_values' hoisted: run from the host, a slice of iterations a launch; 'prod' carried between launches
// CHECK-LABEL: __global__ void calc_pi_values_irregfix_hoisted(int ne, const int *edge_var, const int *off, const int *edges, const float *eta, float *pi, irregfix::View __irregfix_v0, const int *__restrict__ __irregfix_v0_edges, irregfix::HoistStep __irregfix_step, float *__restrict__ __irregfix_live_prod) {
// CHECK:           float prod = 1.0f;
// CHECK-NEXT:      if (!__irregfix_step.epilogue) {
// CHECK-NEXT:        if (__irregfix_step.begin > 0) {
// CHECK-NEXT:          if (__irregfix_step.begin >= irregfix::length(__irregfix_v0, e))
// CHECK-NEXT:            return;
// CHECK-NEXT:          prod = __irregfix_live_prod[e];
// CHECK-NEXT:        }
// CHECK-NEXT:        for (int __irregfix_iter0 = __irregfix_step.begin, __irregfix_len0 = irregfix::length(__irregfix_v0, e); __irregfix_iter0 < __irregfix_len0 && __irregfix_iter0 < __irregfix_step.end; ++__irregfix_iter0) { const int i = static_cast<int>(__irregfix_iter0);
// CHECK-NEXT:        int other = __irregfix_v0_edges[irregfix::slot(__irregfix_v0, e, __irregfix_iter0)];
// CHECK:             __irregfix_live_prod[e] = prod;
// CHECK-NEXT:        return;
// CHECK-NEXT:      }
// CHECK-NEXT:      if (__irregfix_step.carried) {
// CHECK-NEXT:        prod = __irregfix_live_prod[e];
// CHECK-NEXT:      }
// CHECK-NEXT:      pi[e] = prod;
// CHECK:         calc_pi_values_irregfix_hoisted<<<{{.*}}irregfix::hoist_step(__irregfix_plan, __irregfix_s), static_cast<float *>(__irregfix_live[0]));
