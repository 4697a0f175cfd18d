// A kernel without a site whose indirect reads irregfix cannot copy (a
// cell-list traversal) runs in the locality order another kernel's site
// computes: a verdict on the file as a whole, which the check shows as the
// tool decides it. Without that site the kernel keeps its launch.
// REQUIRES: clang-tidy-plugin
// RUN: %clang_tidy --checks='-*,irregfix-indirect-read' --quiet %s -- %tidy_cuda 2>&1 \
// RUN:   | FileCheck %s -implicit-check-not="{{warning|error}}:"
// RUN: %clang_tidy --checks='-*,irregfix-indirect-read' --quiet %s -- %tidy_cuda -DNO_SITE 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOSITE -implicit-check-not="{{warning|error}}:"
// RUN: %clang_tidy --checks='-*,irregfix-indirect-read' --quiet %s -- %tidy_cuda 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TOOL-AGREES
// RUN: %irregfix --report %s -- %stub | FileCheck %s --check-prefix=TOOL-AGREES

#include <cuda_runtime.h>

#ifndef NO_SITE
// The site whose locality order the other kernel shares.
__global__ void forces(int n, const int *cnt, const int *nb, const float4 *pos, float4 *f) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0.f;
    for (int j = 0; j < cnt[t]; ++j)
      s += pos[nb[j * n + t]].x;
    // CHECK: ordered-launch.cu:[[@LINE-1]]:12: warning: indirect read of 'pos' in kernel 'forces': irregfix can rewrite it into a coalesced copy (pattern neighbors) [irregfix-indirect-read]
    f[t].x = s;
  }
}
#endif

__global__ void scan_cells(int n, const float4 *pos, const int *cell_start, const int *cell_atoms, float scale,
                           int cells, int *nb_count, int *nb_list) {
  // CHECK: ordered-launch.cu:[[@LINE-2]]:17: warning: kernel 'scan_cells': irregfix can run its threads in a locality order that a site over as many threads computes, so that its indirect reads fall near each other's (pattern order) [irregfix-indirect-read]
  // TOOL-AGREES: ordered-launch.cu:[[@LINE-3]]:17: {{.*}}scan_cells{{.*}}pattern{{[ =]}}order
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    const float4 p = pos[t];
    const int c = static_cast<int>(p.x * scale) % cells;
    int found = 0;
    for (int k = cell_start[c]; k < cell_start[c + 1]; ++k) {
      // CHECK-COUNT-2: ordered-launch.cu:[[@LINE-1]]:{{[0-9]+}}: warning: indirect read of 'cell_start' in kernel 'scan_cells': irregfix cannot rewrite it
      // NOSITE-COUNT-2: ordered-launch.cu:[[@LINE-2]]:{{[0-9]+}}: warning: indirect read of 'cell_start' in kernel 'scan_cells': irregfix cannot rewrite it
      const int q = cell_atoms[k];
      // CHECK: ordered-launch.cu:[[@LINE-1]]:21: warning: indirect read of 'cell_atoms' in kernel 'scan_cells': irregfix cannot rewrite it
      // NOSITE: ordered-launch.cu:[[@LINE-2]]:21: warning: indirect read of 'cell_atoms' in kernel 'scan_cells': irregfix cannot rewrite it
      if (q != t && pos[q].z < p.z && found < 8)
        nb_list[found++ * n + t] = q;
      // CHECK: ordered-launch.cu:[[@LINE-2]]:21: warning: indirect read of 'pos' in kernel 'scan_cells': irregfix cannot rewrite it
      // NOSITE: ordered-launch.cu:[[@LINE-3]]:21: warning: indirect read of 'pos' in kernel 'scan_cells': irregfix cannot rewrite it
    }
    nb_count[t] = found;
  }
}
