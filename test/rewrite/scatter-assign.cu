// An assignment through an index array, `label[f[t]] = v[t]` under a condition:
// the variant writes each thread's value and sets its flag, and the runtime's
// executor stores in each element the value of the highest thread that wrote
// it (the store a loop over the threads would make last); elements no thread
// wrote keep their value.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: sed 's,// CHECK.*,,' %t.out | FileCheck %s --match-full-lines
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err -implicit-check-not="{{remark|warning|error}}:"

#include <cuda_runtime.h>

__global__ void relabel(int n, const int *f, const int *v, int *label) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n && v[t] >= 0)
    label[f[t]] = v[t];
}
// CHECK-LABEL: __global__ void relabel_irregfix(int n, const int *f, const int *v, int *label, int *__restrict__ __irregfix_contrib, const int *__restrict__ __irregfix_slots, unsigned char *__restrict__ __irregfix_written) {
// CHECK-NEXT:    int t = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-NEXT:    if (t < n && v[t] >= 0)
// CHECK-NEXT:      __irregfix_contrib[__irregfix_slots[t]] = (v[t]), __irregfix_written[__irregfix_slots[t]] = 1;
// CHECK-NEXT:  }
// CHECK:       static const irregfix::SiteInfo __irregfix_site_relabel_0 = {"scatter-assign.cu:15:5", "relabel", "scatter", 0, nullptr, "label,f"};
// CHECK:       static void relabel_irregfix_launch(dim3 __irregfix_grid, dim3 __irregfix_block, size_t __irregfix_shmem, cudaStream_t __irregfix_stream, int n, const int *f, const int *v, int *label) {
// CHECK-NEXT:    irregfix::ScatterPlan __irregfix_plan;
// CHECK-NEXT:    if (irregfix::begin_launch(__irregfix_site_relabel_0, __irregfix_stream, __irregfix_grid, __irregfix_block) &&
// CHECK-NEXT:        irregfix::disjoint(__irregfix_site_relabel_0, label, f) &&
// CHECK-NEXT:        irregfix::disjoint(__irregfix_site_relabel_0, label, v) &&
// CHECK-NEXT:        irregfix::prepare_scatter_assign(__irregfix_site_relabel_0, irregfix::scatter_indices(f), (long long)(n), label, irregfix::scatter_kind(label), &__irregfix_plan, __irregfix_stream)) {
// CHECK-NEXT:      relabel_irregfix<<<__irregfix_grid, __irregfix_block, __irregfix_shmem, __irregfix_stream>>>(n, f, v, label, static_cast<int *>(__irregfix_plan.contrib), __irregfix_plan.slots, __irregfix_plan.written);
// CHECK-NEXT:      if (irregfix::execute_scatter(__irregfix_site_relabel_0, __irregfix_plan, __irregfix_stream)) {
// CHECK-NEXT:        irregfix::end_transformed_launch(__irregfix_site_relabel_0, __irregfix_stream);
// CHECK-NEXT:        return;
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    relabel<<<__irregfix_grid, __irregfix_block, __irregfix_shmem, __irregfix_stream>>>(n, f, v, label);
// CHECK-NEXT:    irregfix::end_original_launch(__irregfix_site_relabel_0, __irregfix_stream);
// CHECK-NEXT:  }

void run(int n, const int *f, const int *v, int *label) {
  relabel<<<(n + 255) / 256, 256>>>(n, f, v, label);
}
// CHECK-LABEL: void run(int n, const int *f, const int *v, int *label) {
// CHECK:         relabel_irregfix_launch((n + 255) / 256, 256, 0, 0, n, f, v, label);

// REMARK: scatter-assign.cu:15:5: remark: gather site in 'relabel' not transformed: it is the update of 'label', which the scatter strategy rewrites
// REMARK: scatter-assign.cu:15:5: remark: scatter site in 'relabel' transformed: assignments of 'label' through 'f' run as an inspector-executor (each thread's value written to a buffer, the highest thread's kept per element, as a loop over the threads would)
// REMARK: scatter-assign.cu:39:6: remark: cached copies are dropped whenever 'run' is entered from another file: code there may have written their sources
