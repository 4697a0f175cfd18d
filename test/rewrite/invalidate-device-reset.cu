// A device reset destroys the runtime's copies, streams and events with the
// program's: the call is bracketed so that the runtime frees what it holds
// before it runs (IRREGFIX_CAUSE_DEVICE_RESET), also inside a checking macro
// and in a condition.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err

#include <cuda_runtime.h>
#include <stdlib.h>

#define CK(x) do { if ((x) != cudaSuccess) abort(); } while (0)

__global__ void spmv(int n, const int *rp, const float *val, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = rp[t]; k < rp[t + 1]; ++k) s += val[k];
    y[t] = s;
  }
}

int run(int n, const int *rp, const float *val, float *y) {
  spmv<<<n / 128 + 1, 128>>>(n, rp, val, y);
  CK(cudaDeviceReset());
  cudaThreadExit();
  if (cudaDeviceReset() != cudaSuccess)
    return 1;
  return 0;
}
// CHECK-LABEL: int run(int n, const int *rp, const float *val, float *y) {
// CHECK:         spmv_irregfix_launch(n / 128 + 1, 128, 0, 0, n, rp, val, y);
// CHECK-NEXT:    CK((irregfix::UnseenCall(IRREGFIX_CAUSE_DEVICE_RESET, "invalidate-device-reset.cu:24"), cudaDeviceReset()));
// CHECK-NEXT:    (irregfix::UnseenCall(IRREGFIX_CAUSE_DEVICE_RESET, "invalidate-device-reset.cu:25"), cudaThreadExit());
// CHECK-NEXT:    if ((irregfix::UnseenCall(IRREGFIX_CAUSE_DEVICE_RESET, "invalidate-device-reset.cu:26"), cudaDeviceReset()) != cudaSuccess)
// WHY: 24:6: remark: cached copies are dropped here: it resets the device ('cudaDeviceReset'): the runtime frees its copies first
// WHY: 25:3: remark: cached copies are dropped here: it resets the device ('cudaThreadExit'): the runtime frees its copies first
// WHY: 26:7: remark: cached copies are dropped here: it resets the device ('cudaDeviceReset'): the runtime frees its copies first
