// An array inside a struct the kernel takes by value is part of the kernel's
// arguments: the launch passes it with the call, and no device memory holds
// it. Read through an index array, in the kernel or in a function given the
// struct by reference, it is left as it is: a copy built from the launcher's
// own struct would read host memory.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err
// RUN: diff %s %t.out

#include <cuda_runtime.h>

struct Coefficients {
  float scale[8];
  int next[8];
  const float *bias; // a pointer field: device memory
};

__device__ float chained(int f, const Coefficients &c) { return c.scale[c.next[f]]; }

__global__ void apply(const int *family, float *out, Coefficients c, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = c.scale[family[t]] * chained(family[t], c);
}
// CHECK-NOT: transformed
// CHECK-DAG: remark: indirect read of 'c.scale' in 'apply' not rewritten: it reads kernel arguments ('c.scale', an array inside a struct the kernel takes by value), which the launch passes with the call: there is no device memory to copy
// CHECK-DAG: remark: indirect read of 'c.scale' in 'apply' (in 'chained') not rewritten: it reads kernel arguments ('c.scale', an array inside a struct the kernel takes by value), which the launch passes with the call: there is no device memory to copy
// CHECK-DAG: remark: indirect read of 'c.next' in 'apply' (in 'chained') not rewritten: it reads kernel arguments ('c.next', an array inside a struct the kernel takes by value), which the launch passes with the call: there is no device memory to copy

// A called function's by-value struct is its own copy: local to the thread.
__device__ float copied(int f, Coefficients c) { return c.scale[f]; }

__global__ void apply_copy(const int *family, float *out, Coefficients c, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = copied(family[t], c);
}
// CHECK-DAG: remark: indirect read of 'c.scale' in 'apply_copy' (in 'copied') not rewritten: it reads memory local to the thread ('c.scale'), an array of its own: no copy can be laid out for it before the launch

void run(const int *family, float *out, Coefficients c, int n) {
  apply<<<(n + 127) / 128, 128>>>(family, out, c, n);
  apply_copy<<<(n + 127) / 128, 128>>>(family, out, c, n);
}
