// --hoist on a neighbour-list loop (the MD sample's lj_forces): the kernel's
// own loop keeps its bound and starts at the step's first iteration; a float4
// accumulated through its members is carried.
// RUN: %irregfix --hoist %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err
#include <cuda_runtime.h>

__global__ void lj_forces(int n, const int *nb_count, const int *nb_list, const float4 *pos, float4 *force, float cutsq) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float4 pi = pos[t];
    float4 f = float4{0.f, 0.f, 0.f, 0.f};
    int cnt = nb_count[t];
    for (int j = 0; j < cnt; j++) {
      int q = nb_list[j * n + t];
      float4 pj = pos[q];
      float dx = pi.x - pj.x;
      if (dx * dx >= cutsq)
        continue;
      f.x += dx;
      f.w += 1.0f;
    }
    force[t] = f;
  }
}
// WHY: remark: loop of 'lj_forces' hoisted: run from the host, a slice of iterations a launch; 'f' carried between launches
// CHECK-LABEL: __global__ void lj_forces_irregfix_hoisted(int n, const int *nb_count, const int *nb_list, const float4 *pos, float4 *force, float cutsq, irregfix::View __irregfix_v0, const float4 *__restrict__ __irregfix_v0_pos, irregfix::HoistStep __irregfix_step, float4 *__restrict__ __irregfix_live_f) {
// CHECK:           int cnt = nb_count[t];
// CHECK-NEXT:      if (!__irregfix_step.epilogue) {
// CHECK-NEXT:        if (__irregfix_step.begin > 0) {
// CHECK-NEXT:          if (__irregfix_step.begin >= nb_count[t])
// CHECK-NEXT:            return;
// CHECK-NEXT:          f = __irregfix_live_f[t];
// CHECK-NEXT:        }
// CHECK-NEXT:        for (int j = __irregfix_step.begin; (j < cnt) && j < __irregfix_step.end; j++) {
// CHECK-NEXT:        {{\[\[}}maybe_unused{{\]\]}} int q = nb_list[j * n + t];
// CHECK-NEXT:        float4 pj = __irregfix_v0_pos[irregfix::neighbor_slot(__irregfix_v0, t, j)];
// CHECK:               continue;
// CHECK:             __irregfix_live_f[t] = f;
// CHECK-NEXT:        return;
// CHECK-NEXT:      }
// CHECK-NEXT:      if (__irregfix_step.carried) {
// CHECK-NEXT:        f = __irregfix_live_f[t];
// CHECK-NEXT:      }
// CHECK-NEXT:      force[t] = f;
// CHECK:         const size_t __irregfix_live_size[1] = {sizeof(float4)};
// CHECK:         lj_forces_irregfix_hoisted<<<{{.*}}irregfix::hoist_epilogue(__irregfix_plan), static_cast<float4 *>(__irregfix_live[0]));

// A fixed-width row-major list: the trip count is the kernel's bound.
__global__ void density(int n, int width, const int *nb, const float *w, float *rho) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  float r = 0;
  for (int j = 0; j < width; ++j) {
    int q = nb[t * width + j];
    if (q >= 0)
      r += w[q];
  }
  rho[t] = r;
}
// CHECK-LABEL: __global__ void density_irregfix_hoisted(
// CHECK:           if (__irregfix_step.begin >= (width))
// CHECK:           for (int j = __irregfix_step.begin; (j < width) && j < __irregfix_step.end; ++j) {
