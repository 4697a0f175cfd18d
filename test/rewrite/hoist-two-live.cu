// --hoist with two live variables of different types, one modified by ++, a
// local the loop only reads (not carried), and code after the 'if' holding the
// loop: threads that skip the loop run it only in the epilogue launch.
// RUN: %irregfix --hoist %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err
#include <cuda_runtime.h>

__global__ void row_stats(int n, const int *B, const double *A, double *sum, int *count, int *touched) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  double scale = 2.0;
  if (t < n) {
    double s = 0;
    int c = 0;
    for (int k = B[t]; k < B[t + 1]; ++k) {
      s += scale * A[k];
      c++;
    }
    sum[t] = s;
    count[t] = c;
  }
  if (t == 0)
    touched[0] = 1;
}
// WHY: remark: loop of 'row_stats' hoisted: run from the host, a slice of iterations a launch; 's', 'c' carried between launches
// CHECK-LABEL: __global__ void row_stats_irregfix_hoisted({{.*}}, irregfix::HoistStep __irregfix_step, double *__restrict__ __irregfix_live_s, int *__restrict__ __irregfix_live_c) {
// CHECK:               s = __irregfix_live_s[t];
// CHECK-NEXT:          c = __irregfix_live_c[t];
// CHECK:             __irregfix_live_s[t] = s;
// CHECK-NEXT:        __irregfix_live_c[t] = c;
// CHECK-NEXT:        return;
// CHECK-NEXT:      }
// CHECK-NEXT:      if (__irregfix_step.carried) {
// CHECK-NEXT:        s = __irregfix_live_s[t];
// CHECK-NEXT:        c = __irregfix_live_c[t];
// CHECK-NEXT:      }
// CHECK-NEXT:      sum[t] = s;
// CHECK-NEXT:      count[t] = c;
// CHECK-NEXT:    } if (!__irregfix_step.epilogue) return;
// CHECK-NEXT:    if (t == 0)
// CHECK-NEXT:      touched[0] = 1;
// CHECK:         const size_t __irregfix_live_size[2] = {sizeof(double), sizeof(int)};
// CHECK-NEXT:    void *__irregfix_live[2];
// CHECK:         row_stats_irregfix_hoisted<<<{{.*}}irregfix::hoist_epilogue(__irregfix_plan), static_cast<double *>(__irregfix_live[0]), static_cast<int *>(__irregfix_live[1]));
