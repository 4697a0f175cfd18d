// --diff of a kernel that gets a lanes variant: the variant is added after the
// in-kernel one, its loop stepping by the lanes from the lane's first element,
// and the launcher picks between them; the original kernel is untouched.
// RUN: cp %s %t.cu
// RUN: %irregfix --quiet --diff %t.cu -- %stub | sed 's,// CHECK.*,,' | FileCheck %s --strict-whitespace
// RUN: diff %s %t.cu

#include <cuda_runtime.h>

__global__ void degree_above(int n, const int *rp, const int *deg, const int *adj, int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  int c = 0;
  for (int k = rp[t]; k < rp[t + 1]; ++k)
    if (deg[adj[k]] > deg[t]) c++;
  out[t] = c;
}

void run(int n, const int *rp, const int *deg, const int *adj, int *out) {
  degree_above<<<(n + 127) / 128, 128>>>(n, rp, deg, adj, out);
}

// The original kernel's lines stay as they are.
// CHECK-NOT: {{^}}-__global__
// CHECK-NOT: {{^}}-  for (int k
// CHECK: {{^}}-void run(int n, const int *rp, const int *deg, const int *adj, int *out) {
// CHECK-NEXT: {{^}}-  degree_above<<<(n + 127) / 128, 128>>>(n, rp, deg, adj, out);
// CHECK-NEXT: {{^}}+// irregfix: 'degree_above' reading its indirect arrays through coalesced copies; the original above is the fallback.
// CHECK-NEXT: {{^}}+__global__ void degree_above_irregfix(
// CHECK: {{^}}+// irregfix: 'degree_above' with several lanes a row, combined by shuffles; the kernels above are its fallbacks.
// CHECK-NEXT: {{^}}+__global__ void degree_above_irregfix_lanes(int n, const int *rp, const int *deg, const int *adj, int *out, const irregfix::Lanes __irregfix_lanes) {
// CHECK: {{^}}+  if (t >= n) return;
// CHECK-NEXT: {{^}}+  int c = 0;
// CHECK-NEXT: {{^}}+  { // several lanes a row, each with its part of the row's result
// CHECK-NEXT: {{^}}+  int __irregfix_part0_c = 0;
// CHECK-NEXT: {{^}}+  for (int k = (rp[t]) + __irregfix_lane; k < rp[t + 1]; k += __irregfix_lanes.lanes)
// CHECK-NEXT: {{^}}+    if (deg[adj[k]] > deg[t]) __irregfix_part0_c++;
// CHECK-NEXT: {{^}}+  __irregfix_part0_c = irregfix::lanes_combine<irregfix::kLanesSum>(__irregfix_part0_c, __irregfix_lanes);
// CHECK-NEXT: {{^}}+  c += __irregfix_part0_c;
// CHECK-NEXT: {{^}}+  if (__irregfix_lane != 0) return; // lane 0 goes on
// CHECK-NEXT: {{^}}+  }
// CHECK-NEXT: {{^}}+  out[t] = c;
// CHECK: {{^}}+    if (irregfix::runs_lanes(__irregfix_v0)) {
// CHECK-NEXT: {{^}}+      const irregfix::LanesLaunch __irregfix_lanes_launch = irregfix::lanes_launch(__irregfix_v0, __irregfix_grid, __irregfix_block);
// CHECK: {{^}}+      degree_above_irregfix_lanes<<<__irregfix_lanes_launch.grid, __irregfix_lanes_launch.block, __irregfix_shmem, __irregfix_stream>>>(n, rp, deg, adj, out, __irregfix_lanes_launch.lanes);
// CHECK-NEXT: {{^}}+    } else {
// CHECK: {{^}}+void run(int n, const int *rp, const int *deg, const int *adj, int *out) {
// CHECK: {{^}}+  degree_above_irregfix_launch((n + 127) / 128, 128, 0, 0, n, rp, deg, adj, out);
