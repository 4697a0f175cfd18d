// Updates through index arrays the scatter strategy leaves alone, each with
// its reason; the file is not changed.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err
// RUN: diff %s %t.out

#include <cuda_runtime.h>

#define TID (blockIdx.x * blockDim.x + threadIdx.x)

__global__ void two_arrays(int n, const int *a, const int *b, const float *x, float *r, float *q) {
  int t = TID;
  if (t < n) {
    atomicAdd(&r[a[t]], x[t]);
    atomicAdd(&q[b[t]], -x[t]);
  }
}
// CHECK-DAG: scatter-reasons.cu:[[@LINE-4]]:5: remark: scatter site in 'two_arrays' not transformed: the kernel updates both 'r' and 'q' through index arrays (one updated array is supported)
// CHECK-DAG: scatter-reasons.cu:[[@LINE-4]]:5: remark: scatter site in 'two_arrays' not transformed: the kernel updates both 'r' and 'q' through index arrays (one updated array is supported)

__global__ void five_updates(int n, const int *f, const float *x, float *r) {
  int t = TID;
  if (t < n) {
    r[f[t]] += x[t];
    r[f[t]] += x[t];
    r[f[t]] += x[t];
    r[f[t]] += x[t];
    r[f[t]] += x[t];
  }
}
// CHECK-DAG: scatter-reasons.cu:[[@LINE-3]]:5: remark: scatter site in 'five_updates' not transformed: the kernel has 5 updates through index arrays (at most 4 are supported)

__global__ void two_guards(int n, int m, const int *a, const int *b, const float *x, float *r) {
  int t = TID;
  if (t < n)
    atomicAdd(&r[a[t]], x[t]);
  if (t < m)
    atomicAdd(&r[b[t]], -x[t]);
}
// CHECK-DAG: scatter-reasons.cu:[[@LINE-4]]:5: remark: scatter site in 'two_guards' not transformed: the kernel's updates are under different guards

__global__ void one_update_refused(int n, int m, const int *a, const int *b, const float *w, float *r) {
  int t = TID;
  if (t < n) {
    atomicAdd(&r[a[t]], w[t]);
    for (int j = 0; j < m; ++j)
      atomicAdd(&r[b[t]], w[t]);
  }
}
// CHECK-DAG: scatter-reasons.cu:[[@LINE-5]]:5: remark: scatter site in 'one_update_refused' not transformed: another update of the kernel (line [[@LINE-3]]) is not transformed
// CHECK-DAG: scatter-reasons.cu:[[@LINE-4]]:7: remark: scatter site in 'one_update_refused' not transformed: the update is inside a loop (a fixed number of updates a thread is supported)

__global__ void add_and_assign(int n, const int *a, const int *b, const float *x, float *r) {
  int t = TID;
  if (t < n) {
    r[a[t]] += x[t];
    r[b[t]] = x[t];
  }
}
// CHECK-DAG: scatter-reasons.cu:[[@LINE-4]]:5: remark: scatter site in 'add_and_assign' not transformed: the kernel both adds to and assigns elements chosen through index arrays

__global__ void in_loop(int n, int m, const int *f, const float *w, float *A) {
  int t = TID;
  if (t < n)
    for (int j = 0; j < m; ++j)
      A[f[t]] += w[j];
}
// CHECK-DAG: scatter-reasons.cu:[[@LINE-2]]:7: remark: scatter site in 'in_loop' not transformed: the update is inside a loop (a fixed number of updates a thread is supported)

__global__ void next_thread(int n, const int *f, const float *w, float *A) {
  int t = TID;
  if (t + 1 < n)
    A[f[t + 1]] += w[t];
}
// CHECK-DAG: scatter-reasons.cu:[[@LINE-2]]:5: remark: scatter site in 'next_thread' not transformed: the index array is not read at the thread index

__global__ void target_read(int n, const int *f, const float *w, float *A, float *out) {
  int t = TID;
  if (t < n) {
    A[f[t]] += w[t];
    out[t] = A[t];
  }
}
// CHECK-DAG: scatter-reasons.cu:[[@LINE-4]]:5: remark: scatter site in 'target_read' not transformed: 'A' is also read or written elsewhere in the kernel

__global__ void index_written(int n, int *f, const float *w, float *A) {
  int t = TID;
  if (t < n) {
    A[f[t]] += w[t];
    f[t] = 0;
  }
}
// CHECK-DAG: scatter-reasons.cu:[[@LINE-4]]:5: remark: scatter site in 'index_written' not transformed: 'f' is written in the kernel

__global__ void contribution_written(int n, const int *f, float *w, float *A) {
  int t = TID;
  if (t < n) {
    A[f[t]] += w[t];
    w[t] = 0.0f;
  }
}
// CHECK-DAG: scatter-reasons.cu:[[@LINE-4]]:5: remark: scatter site in 'contribution_written' not transformed: the contribution reads 'w', which the kernel writes

__global__ void neighbour_written(int n, const int *f, const float *w, float *A, float *out) {
  int t = TID;
  if (t < n) {
    A[f[t]] += w[t];
    out[t + 1] = 1.0f;
  }
}
// CHECK-DAG: scatter-reasons.cu:[[@LINE-4]]:5: remark: scatter site in 'neighbour_written' not transformed: the kernel also writes 'out' other than as 'out[t] = ...' (the original kernel, the fallback, must be able to write it again)

__global__ void wide_elements(int n, const int *f, long long *A) {
  int t = TID;
  if (t < n)
    A[f[t]] += 1;
}
// CHECK-DAG: scatter-reasons.cu:[[@LINE-2]]:5: remark: scatter site in 'wide_elements' not transformed: the updated array's elements are 'long long' (float, double and int are supported)

__global__ void unguarded(const int *f, const float *w, float *A) {
  int t = TID;
  A[f[t]] += w[t];
}
// CHECK-DAG: scatter-reasons.cu:[[@LINE-2]]:3: remark: scatter site in 'unguarded' not transformed: no guard bounds the thread index

__global__ void value_used(int n, const int *f, const float *w, float *A, float *old) {
  int t = TID;
  if (t < n)
    old[t] = atomicAdd(&A[f[t]], w[t]);
}
// CHECK-DAG: scatter-reasons.cu:[[@LINE-2]]:14: remark: scatter site in 'value_used' not transformed: the update's value is used
