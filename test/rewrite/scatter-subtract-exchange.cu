// Updates through an index array spelt as subtractions (`-=`, atomicSub): the
// variant writes the negated value, and the executor adds it as the other
// contributions; an atomicExch whose old value is not used is an assignment.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: sed 's,// CHECK.*,,' %t.out | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

#include <cuda_runtime.h>

__global__ void outflow(int edges, const int *from, const int *to, const float *q, float *mass) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < edges) {
    mass[from[e]] -= q[e];
    mass[to[e]] += q[e];
  }
}
// CHECK-LABEL: __global__ void outflow_irregfix(
// CHECK:           __irregfix_contrib[__irregfix_slots[(e) * 2 + 0]] = -(q[e]);
// CHECK-NEXT:      __irregfix_contrib[__irregfix_slots[(e) * 2 + 1]] = (q[e]);
// CHECK:         irregfix::prepare_scatter(__irregfix_site_outflow_0, irregfix::scatter_indices(from, to), (long long)(edges), mass,

__global__ void release(int n, const int *owner, const int *held, int *count) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    atomicSub(&count[owner[t]], held[t]);
}
// CHECK-LABEL: __global__ void release_irregfix(
// CHECK:           __irregfix_contrib[__irregfix_slots[t]] = -(held[t]);
// CHECK:         irregfix::prepare_scatter(__irregfix_site_release_0, owner, irregfix::index_kind(owner), (long long)(n), count,

__global__ void claim(int n, const int *slot, const int *id, int *owner) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    atomicExch(&owner[slot[t]], id[t]);
}
// CHECK-LABEL: __global__ void claim_irregfix(
// CHECK:           __irregfix_contrib[__irregfix_slots[t]] = (id[t]), __irregfix_written[__irregfix_slots[t]] = 1;
// CHECK:         irregfix::prepare_scatter_assign(__irregfix_site_claim_0, irregfix::scatter_indices(slot), (long long)(n), owner,

__global__ void claim_and_tell(int n, const int *slot, const int *id, int *owner, int *previous) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    previous[t] = atomicExch(&owner[slot[t]], id[t]);
}

void step(int n, const int *a, const int *b, const float *q, float *mass, const int *held, int *count,
          const int *id, int *owner, int *previous) {
  outflow<<<(n + 255) / 256, 256>>>(n, a, b, q, mass);
  release<<<(n + 255) / 256, 256>>>(n, a, held, count);
  claim<<<(n + 255) / 256, 256>>>(n, a, id, owner);
  claim_and_tell<<<(n + 255) / 256, 256>>>(n, a, id, owner, previous);
}
// REMARK-DAG: scatter-subtract-exchange.cu:13:5: remark: scatter site in 'outflow' transformed: updates of 'mass' through 'from'
// REMARK-DAG: scatter-subtract-exchange.cu:25:5: remark: scatter site in 'release' transformed: updates of 'count' through 'owner'
// REMARK-DAG: scatter-subtract-exchange.cu:34:5: remark: scatter site in 'claim' transformed: assignments of 'owner' through 'slot'
// REMARK-DAG: scatter-subtract-exchange.cu:43:19: remark: scatter site in 'claim_and_tell' not transformed: the update's value is used
