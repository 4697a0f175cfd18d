// A file none of whose kernels is rewritten keeps its host code (the rewritten
// files' entry guards drop the copies when control returns to them), except
// its device resets: a manager's destructor that resets the device at the end
// of main, in a file of its own, would otherwise destroy the runtime's copies,
// streams and events behind its back. Only the reset is bracketed; the copy
// and the launch stay as they were.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err

#include <cuda_runtime.h>

__global__ void count_fanouts(int n, const int *fanin, int *fanouts) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    fanouts[t] = fanin[t] > 0;
}

struct Manager {
  int n = 0;
  int *fanin = nullptr, *fanouts = nullptr;
  void count(const int *host) {
    cudaMemcpy(fanin, host, n * sizeof(int), cudaMemcpyHostToDevice);
    count_fanouts<<<(n + 255) / 256, 256>>>(n, fanin, fanouts);
  }
  ~Manager() {
    cudaFree(fanin);
    cudaFree(fanouts);
    cudaDeviceReset();
  }
};

void use(const int *host) {
  Manager m;
  m.count(host);
}
// CHECK:        cudaMemcpy(fanin, host, n * sizeof(int), cudaMemcpyHostToDevice);
// CHECK-NEXT:   count_fanouts<<<(n + 255) / 256, 256>>>(n, fanin, fanouts);
// CHECK:        cudaFree(fanin);
// CHECK-NEXT:   cudaFree(fanouts);
// CHECK-NEXT:   (irregfix::UnseenCall(IRREGFIX_CAUSE_DEVICE_RESET, "invalidate-device-reset-host-file.cu:28"), cudaDeviceReset());
// WHY: 28:5: remark: cached copies are dropped here: it resets the device ('cudaDeviceReset'): the runtime frees its copies first
