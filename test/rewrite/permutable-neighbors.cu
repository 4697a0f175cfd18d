// Neighbour-list kernels may have their threads permuted (the locality order:
// the list copied in the new order, the data read in place), and so may kernels
// whose atomics only count: integer atomics whose result is dropped, on a
// variable nothing else in the kernel reads. Any other atomic keeps the order.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err --implicit-check-not="threads of"
#include <cuda_runtime.h>

__global__ void forces(int n, const int *cnt, const int *nb, const float *x, float *f, int max_nb, int *overflow) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int j = 0; j < cnt[t]; ++j) {
      int q = nb[j * n + t];
      s += x[q] - x[t];
    }
    f[t] = s;
    if (cnt[t] > max_nb)
      atomicAdd(overflow, 1);
  }
}
// CHECK-LABEL: __global__ void forces_irregfix(
// CHECK:         const long long __irregfix_p = (blockIdx.x + __irregfix_block_offset) * blockDim.x + threadIdx.x;
// CHECK-NEXT:    int t = static_cast<int>(irregfix::logical_thread(__irregfix_v0, __irregfix_p));
// CHECK:         s += irregfix::read_shared(__irregfix_v0, __irregfix_v0_x, __irregfix_stage, __irregfix_p, j) - x[t];
// CHECK:         atomicAdd(overflow, 1);
// CHECK:       static const irregfix::SiteInfo __irregfix_site_forces_0 = {"permutable-neighbors.cu:15:12", "forces", "neighbors", irregfix::kSitePermutable | irregfix::kSiteChunkable | irregfix::kSiteShareable, (const void *)forces_irregfix, "x,nb,cnt"};
// WHY: permutable-neighbors.cu:[[@LINE-19]]:17: remark: threads of 'forces' may be permuted

// The counter is read back: a thread could see what others before it did.
__global__ void counted(int n, const int *nb, const float *x, float *f, int *seen) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int j = 0; j < 4; ++j)
      s += x[nb[j * n + t]];
    atomicAdd(&seen[0], 1);
    f[t] = s + seen[1];
  }
}
// WHY: remark: threads of 'counted' keep their order (no SELL-32-sigma): it uses 'seen', which an atomic updates, other than in that atomic

// A float sum depends on the order of its additions.
__global__ void summed(int n, const int *nb, const float *x, float *f, float *total) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int j = 0; j < 4; ++j)
      s += x[nb[j * n + t]];
    f[t] = s;
    atomicAdd(total, s);
  }
}
// WHY: remark: threads of 'summed' keep their order (no SELL-32-sigma): it calls 'atomicAdd'

// The atomic's result is used: a slot handed out in launch order.
__global__ void appended(int n, const int *nb, const float *x, float *f, int *cursor) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int j = 0; j < 4; ++j)
      s += x[nb[j * n + t]];
    int at = atomicAdd(cursor, 1);
    f[at] = s;
  }
}
// WHY: remark: threads of 'appended' keep their order (no SELL-32-sigma): it calls 'atomicAdd'
