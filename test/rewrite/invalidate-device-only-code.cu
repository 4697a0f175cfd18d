// Code only the device compilation sees (__CUDA_ARCH__): irregfix reads the
// host compilation, so a kernel whose device-only code may store — through
// memory, by a call of the program's, to a __device__ variable, through a
// macro defined differently for the device, or under a condition on such a
// macro — drops every copy at its launch,
// and a kernel whose own body has such code is not transformed. Reads only
// the device sees (an __ldg branch of a helper) change nothing; a remark says
// they are not analysed.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err

#include <cuda_runtime.h>

#ifdef __CUDA_ARCH__
#define RECORD(p, v) (*(p) = (v))
#else
#define RECORD(p, v) ((void)0)
#endif

__device__ int counter;
__device__ void bump(float *p) { p[0] += 1.0f; }

__device__ float fetch(const float *a, int i) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 350
  float v = __ldg(a + i);
#else
  float v = a[i];
#endif
  return v;
}

__global__ void spmv(int n, const int *rp, const float *val, const float *x, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = rp[t]; k < rp[t + 1]; ++k) s += val[k] * fetch(x, t);
    y[t] = s;
  }
}

__global__ void halve(int nnz, float *val) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef __CUDA_ARCH__
  if (i < nnz) val[i] *= 0.5f;
#endif
}

__global__ void through_macro(int nnz, float *val) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nnz) RECORD(val + i, 2.0f);
}

__global__ void device_call(float *val) {
#if __CUDA_ARCH__ >= 700
  bump(val);
#endif
}

__global__ void device_variable(int n) {
#ifdef __CUDA_ARCH__
  counter = n;
#endif
}

__global__ void own_branch(int n, const int *rp, const float *val, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
#ifndef __CUDA_ARCH__
    s = 1;
#endif
    for (int k = rp[t]; k < rp[t + 1]; ++k) s += val[k];
    y[t] = s;
  }
}

#ifdef __CUDA_ARCH__
#define ON_DEVICE 1
#else
#define ON_DEVICE 0
#endif

__global__ void through_flag(int nnz, float *val) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#if ON_DEVICE
  if (i < nnz) val[i] += 1.0f;
#endif
}

void run(int n, int nnz, const int *rp, float *val, const float *x, float *y) {
  spmv<<<n / 128 + 1, 128>>>(n, rp, val, x, y);
  halve<<<nnz / 128 + 1, 128>>>(nnz, val);
  through_macro<<<nnz / 128 + 1, 128>>>(nnz, val);
  device_call<<<1, 1>>>(val);
  device_variable<<<1, 1>>>(n);
  own_branch<<<n / 128 + 1, 128>>>(n, rp, val, y);
  through_flag<<<nnz / 128 + 1, 128>>>(nnz, val);
}
// CHECK-LABEL: void run(
// CHECK:         spmv_irregfix_launch(n / 128 + 1, 128, 0, 0, n, rp, val, x, y);
// CHECK-NEXT:    irregfix_invalidate_all(IRREGFIX_CAUSE_UNTRACED_KERNEL, "invalidate-device-only-code.cu:92");
// CHECK-NEXT:    halve<<<nnz / 128 + 1, 128>>>(nnz, val);
// CHECK-NEXT:    irregfix_invalidate_all(IRREGFIX_CAUSE_UNTRACED_KERNEL, "invalidate-device-only-code.cu:93");
// CHECK-NEXT:    through_macro<<<nnz / 128 + 1, 128>>>(nnz, val);
// CHECK-NEXT:    irregfix_invalidate_all(IRREGFIX_CAUSE_UNTRACED_KERNEL, "invalidate-device-only-code.cu:94");
// CHECK-NEXT:    device_call<<<1, 1>>>(val);
// CHECK-NEXT:    irregfix_invalidate_all(IRREGFIX_CAUSE_UNTRACED_KERNEL, "invalidate-device-only-code.cu:95");
// CHECK-NEXT:    device_variable<<<1, 1>>>(n);
// CHECK-NEXT:    irregfix_invalidate(y);
// CHECK-NEXT:    own_branch<<<n / 128 + 1, 128>>>(n, rp, val, y);
// CHECK-NEXT:    irregfix_invalidate_all(IRREGFIX_CAUSE_UNTRACED_KERNEL, "invalidate-device-only-code.cu:97");
// CHECK-NEXT:    through_flag<<<nnz / 128 + 1, 128>>>(nnz, val);
// WHY: remark: range site in 'spmv' transformed: 'val' read through a coalesced copy indexed by 'rp'
// WHY: 24:2: remark: the code of 'fetch' that only the device compilation sees (__CUDA_ARCH__) is not analysed, its reads not reported: irregfix reads the host compilation's
// WHY: remark: range site in 'own_branch' not transformed: its body has code only the device compilation sees (__CUDA_ARCH__ at line 69)
// WHY: 92:3: remark: cached copies are dropped here: kernel 'halve' has a store through memory ('*=') in code at line 43 that only the device compilation sees (__CUDA_ARCH__)
// WHY: 93:3: remark: cached copies are dropped here: kernel 'through_macro' has a store ('=') whose target it cannot read in code at line 50 that only the device compilation sees (__CUDA_ARCH__)
// WHY: 94:3: remark: cached copies are dropped here: kernel 'device_call' calls 'bump' in code at line 54 that only the device compilation sees (__CUDA_ARCH__)
// WHY: 95:3: remark: cached copies are dropped here: kernel 'device_variable' assigns 'counter' in code at line 60 that only the device compilation sees (__CUDA_ARCH__)
// WHY: 97:3: remark: cached copies are dropped here: kernel 'through_flag' has a store through memory ('+=') in code at line 85 that only the device compilation sees (__CUDA_ARCH__)
