// Stores through the parameters of functions declared inside a kernel — a
// local class's method, a lambda — go to memory the kernel's launch cannot
// name: the kernel's writes are untraced, its sites refused, and the launch
// drops every copy (a fuzzer finding: the alias checks named the method's
// parameter, which the launcher does not have).
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err

#include <cuda_runtime.h>

__global__ void gather(int n, const int *idx, const float *a, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = a[idx[t]];
}

__global__ void with_local_class(int n, const int *idx, const float *a, float *out) {
  struct Helper {
    static __device__ void clear(float *y, int i) { y[i] = 0; }
  };
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = a[idx[t]];
}
// WHY: remark: gather site in 'with_local_class' not transformed: the kernel may write memory the analysis cannot name: it stores through 'y', a parameter of a function declared inside it

__global__ void with_lambda(int n, const int *idx, const float *a, float *out) {
  auto zero = [](float *q) { q[0] = 0; };
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = a[idx[t]];
  (void)zero;
}
// WHY: remark: gather site in 'with_lambda' not transformed: the kernel may write memory the analysis cannot name: it stores through 'q', a parameter of a function declared inside it

void run(int n, const int *idx, const float *a, float *out) {
  gather<<<n / 64 + 1, 64>>>(n, idx, a, out);
  with_local_class<<<n / 64 + 1, 64>>>(n, idx, a, out);
  with_lambda<<<n / 64 + 1, 64>>>(n, idx, a, out);
}
// CHECK-LABEL: void run(
// CHECK:       irregfix_invalidate_all(IRREGFIX_CAUSE_UNTRACED_KERNEL, "stores-in-nested-functions.cu:38");
// CHECK-NEXT:  with_local_class<<<n / 64 + 1, 64>>>(n, idx, a, out);
// CHECK-NEXT:  irregfix_invalidate_all(IRREGFIX_CAUSE_UNTRACED_KERNEL, "stores-in-nested-functions.cu:39");
// CHECK-NEXT:  with_lambda<<<n / 64 + 1, 64>>>(n, idx, a, out);
