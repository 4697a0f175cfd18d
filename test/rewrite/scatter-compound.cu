// A scatter update written `A[f[t]] += e` on doubles, under a condition inside
// the guard, beside a store of the thread's own element: the variant writes
// the contribution instead and keeps the store.
// RUN: %irregfix --quiet %s -- %stub | sed 's,// CHECK.*,,' | FileCheck %s --match-full-lines

#include <cuda_runtime.h>

__global__ void deposit(int n, const int *cell, const double *charge, double *rho, int *seen) {
  int t = threadIdx.x + blockIdx.x * blockDim.x;
  if (t >= n)
    return;
  double q = charge[t] * 0.5;
  if (q != 0.0)
    rho[cell[t]] += q * q;
  seen[t] = 1;
}
// CHECK-LABEL: __global__ void deposit_irregfix(int n, const int *cell, const double *charge, double *rho, int *seen, double *__restrict__ __irregfix_contrib, const int *__restrict__ __irregfix_slots) {
// CHECK:         if (q != 0.0)
// CHECK-NEXT:      __irregfix_contrib[__irregfix_slots[t]] = (q * q);
// CHECK-NEXT:    seen[t] = 1;
// CHECK:         irregfix::ScatterPlan __irregfix_plan;
// CHECK-NEXT:    if (irregfix::begin_launch(__irregfix_site_deposit_0, __irregfix_stream, __irregfix_grid, __irregfix_block) &&
// CHECK-NEXT:        irregfix::disjoint(__irregfix_site_deposit_0, rho, cell) &&
// CHECK-NEXT:        irregfix::disjoint(__irregfix_site_deposit_0, rho, charge) &&
// CHECK-NEXT:        irregfix::disjoint(__irregfix_site_deposit_0, rho, seen) &&
// CHECK-NEXT:        irregfix::prepare_scatter(__irregfix_site_deposit_0, cell, irregfix::index_kind(cell), (long long)(n), rho, irregfix::scatter_kind(rho), &__irregfix_plan, __irregfix_stream)) {
// CHECK-NEXT:      deposit_irregfix<<<__irregfix_grid, __irregfix_block, __irregfix_shmem, __irregfix_stream>>>(n, cell, charge, rho, seen, static_cast<double *>(__irregfix_plan.contrib), __irregfix_plan.slots);

void step(int n, const int *cell, const double *charge, double *rho, int *seen) {
  deposit<<<(n + 127) / 128, 128>>>(n, cell, charge, rho, seen);
}
// CHECK-LABEL: void step(int n, const int *cell, const double *charge, double *rho, int *seen) {
// CHECK-NEXT:    irregfix::EntryGuard __irregfix_entry("scatter-compound.cu:29");
// CHECK-NEXT:    irregfix_invalidate(rho); irregfix_invalidate(seen);
// CHECK-NEXT:    deposit_irregfix_launch((n + 127) / 128, 128, 0, 0, n, cell, charge, rho, seen);
