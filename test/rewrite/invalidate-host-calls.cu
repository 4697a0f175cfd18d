// Host calls and what they do to cached copies: copies and sets of every shape
// named by their destination; symbols by address; 3-D copies, launch APIs,
// graphs and cuSPARSE's descriptors drop every copy; cuBLAS writes its output
// pointer; code the tool cannot see (another file, a pointer, std::function)
// is bracketed: copies are dropped before and after it (helpers.h's too).
// RUN: %irregfix %s -- %stub -I %S/Inputs 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err

#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <cusparse.h>
#include <stdlib.h>
#include <functional>
#include "helpers.h"

__device__ float table[256];

__global__ void spmv(int n, const int *rp, const float *val, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = rp[t]; k < rp[t + 1]; ++k) s += val[k];
    y[t] = s;
  }
}

struct Timer { Timer(); };
void external_update(float *v, int n);
void log_line(const char *s);

void step(int n, const int *rp, float *val, float *y, float *h, cudaGraphExec_t g, cublasHandle_t cb,
          cusparseHandle_t cs, cusparseConstSpMatDescr_t a, cusparseConstDnVecDescr_t x, cusparseDnVecDescr_t dy,
          std::function<void()> hook, void (*fp)(float *)) {
  spmv<<<n / 128 + 1, 128>>>(n, rp, val, y);
  cudaMemcpy2D(val, 64, h, 64, 64, 4, cudaMemcpyHostToDevice);
  cudaMemcpy2DAsync(val, 64, h, 64, 64, 4, cudaMemcpyHostToDevice);
  cudaMemcpyPeer(val, 1, h, 0, 256);
  cudaMemset2D(val, 64, 0, 64, 4);
  cudaMemcpy(h, val, 256, cudaMemcpyDeviceToHost);
  cudaMemcpyToSymbol(table, h, 256);
  cudaMemcpyToSymbol((const void *)&table, h, 256);
  cudaMemcpyFromSymbol(val, table, 256);
  cudaMemcpy3DParms p = {};
  cudaMemcpy3D(&p);
  cudaMemset3D(p.dstPtr, 0, p.extent);
  cudaLaunchKernel((const void *)spmv, 1, 32, nullptr);
  cudaLaunchCooperativeKernel((const void *)spmv, 1, 32, nullptr);
  cudaGraphLaunch(g, 0);
  float one = 1;
  cublasSaxpy(cb, n, &one, y, 1, val, 1);
  cusparseSpMV(cs, 0, &one, a, x, &one, dy, 0, 0, nullptr);
  upload(val, h, n);
  refill(val, n);
  report("step", log_line);
  external_update(val, n);
  if (external_update(y, n), n > 2)
    hook();
  fp(val);
  Timer timer;
  spmv<<<n / 128 + 1, 128>>>(n, rp, val, y);
}
// CHECK-LABEL: inline void upload(float *dst, const float *src, int n) {
// CHECK-NEXT:   irregfix_invalidate(dst);
// CHECK-NEXT:   cudaMemcpy(dst, src, n * sizeof(float), cudaMemcpyHostToDevice);
// CHECK-NEXT: }
// CHECK-NEXT: inline void refill(float *p, int n) { (irregfix::UnseenCall(IRREGFIX_CAUSE_UNSEEN_CALL, "helpers.h:11"), external_fill(p, n)); }
// CHECK-NEXT: inline void report(const char *what, void (*log)(const char *)) { (irregfix::UnseenCall(IRREGFIX_CAUSE_UNSEEN_CALL, "helpers.h:12"), log(what)); }
// CHECK-LABEL: void step(int n, const int *rp, float *val, float *y, float *h, cudaGraphExec_t g, cublasHandle_t cb,
// CHECK-NEXT:             cusparseHandle_t cs, cusparseConstSpMatDescr_t a, cusparseConstDnVecDescr_t x, cusparseDnVecDescr_t dy,
// CHECK-NEXT:             std::function<void()> hook, void (*fp)(float *)) {
// CHECK-NEXT:     irregfix::EntryGuard __irregfix_entry("invalidate-host-calls.cu:33");
// CHECK-NEXT:     irregfix_invalidate(y);
// CHECK-NEXT:     spmv_irregfix_launch(n / 128 + 1, 128, 0, 0, n, rp, val, y);
// CHECK-NEXT:     irregfix_invalidate(val);
// CHECK-NEXT:     cudaMemcpy2D(val, 64, h, 64, 64, 4, cudaMemcpyHostToDevice);
// CHECK-NEXT:     irregfix_invalidate(val);
// CHECK-NEXT:     cudaMemcpy2DAsync(val, 64, h, 64, 64, 4, cudaMemcpyHostToDevice);
// CHECK-NEXT:     irregfix_invalidate(val);
// CHECK-NEXT:     cudaMemcpyPeer(val, 1, h, 0, 256);
// CHECK-NEXT:     irregfix_invalidate(val);
// CHECK-NEXT:     cudaMemset2D(val, 64, 0, 64, 4);
// CHECK-NEXT:     cudaMemcpy(h, val, 256, cudaMemcpyDeviceToHost);
// CHECK-NEXT:     irregfix_invalidate_symbol(&(table));
// CHECK-NEXT:     cudaMemcpyToSymbol(table, h, 256);
// CHECK-NEXT:     irregfix_invalidate_symbol((const void *)&table);
// CHECK-NEXT:     cudaMemcpyToSymbol((const void *)&table, h, 256);
// CHECK-NEXT:     irregfix_invalidate(val);
// CHECK-NEXT:     cudaMemcpyFromSymbol(val, table, 256);
// CHECK-NEXT:     cudaMemcpy3DParms p = {};
// CHECK-NEXT:     irregfix_invalidate_all(IRREGFIX_CAUSE_UNNAMED_COPY, "invalidate-host-calls.cu:44");
// CHECK-NEXT:     cudaMemcpy3D(&p);
// CHECK-NEXT:     irregfix_invalidate_all(IRREGFIX_CAUSE_UNNAMED_COPY, "invalidate-host-calls.cu:45");
// CHECK-NEXT:     cudaMemset3D(p.dstPtr, 0, p.extent);
// CHECK-NEXT:     irregfix_invalidate_all(IRREGFIX_CAUSE_LAUNCH_API, "invalidate-host-calls.cu:46");
// CHECK-NEXT:     cudaLaunchKernel((const void *)spmv, 1, 32, nullptr);
// CHECK-NEXT:     irregfix_invalidate_all(IRREGFIX_CAUSE_LAUNCH_API, "invalidate-host-calls.cu:47");
// CHECK-NEXT:     cudaLaunchCooperativeKernel((const void *)spmv, 1, 32, nullptr);
// CHECK-NEXT:     irregfix_invalidate_all(IRREGFIX_CAUSE_LAUNCH_API, "invalidate-host-calls.cu:48");
// CHECK-NEXT:     cudaGraphLaunch(g, 0);
// CHECK-NEXT:     float one = 1;
// CHECK-NEXT:     irregfix_invalidate(val);
// CHECK-NEXT:     cublasSaxpy(cb, n, &one, y, 1, val, 1);
// CHECK-NEXT:     irregfix_invalidate_all(IRREGFIX_CAUSE_UNSEEN_CALL, "invalidate-host-calls.cu:51");
// CHECK-NEXT:     cusparseSpMV(cs, 0, &one, a, x, &one, dy, 0, 0, nullptr);
// CHECK-NEXT:     upload(val, h, n);
// CHECK-NEXT:     refill(val, n);
// CHECK-NEXT:     report("step", log_line);
// CHECK-NEXT:     (irregfix::UnseenCall(IRREGFIX_CAUSE_UNSEEN_CALL, "invalidate-host-calls.cu:55"), external_update(val, n));
// CHECK-NEXT:     if ((irregfix::UnseenCall(IRREGFIX_CAUSE_UNSEEN_CALL, "invalidate-host-calls.cu:56"), external_update(y, n)), n > 2)
// CHECK-NEXT:       (irregfix::UnseenCall(IRREGFIX_CAUSE_UNSEEN_CALL, "invalidate-host-calls.cu:57"), hook());
// CHECK-NEXT:     (irregfix::UnseenCall(IRREGFIX_CAUSE_UNSEEN_CALL, "invalidate-host-calls.cu:58"), fp(val));
// CHECK-NEXT:     irregfix::UnseenCall __irregfix_unseen1(IRREGFIX_CAUSE_UNSEEN_CALL, "invalidate-host-calls.cu:59");
// CHECK-NEXT:     Timer timer;
// CHECK-NEXT:     irregfix_invalidate_all(IRREGFIX_CAUSE_UNSEEN_CALL, "invalidate-host-calls.cu:59");
// CHECK-NEXT:     irregfix_invalidate(y);
// CHECK-NEXT:     spmv_irregfix_launch(n / 128 + 1, 128, 0, 0, n, rp, val, y);
// CHECK-NEXT:   }
// WHY: 31:6: remark: cached copies are dropped whenever 'step' is entered from another file: code there may have written their sources
// WHY: helpers.h:11:39: remark: cached copies are dropped here: it calls 'external_fill', whose body is not in this file
// WHY: helpers.h:12:67: remark: cached copies are dropped here: it calls a function through a pointer
// WHY: 44:3: remark: cached copies are dropped here: it writes device memory the tool cannot name ('cudaMemcpy3D')
// WHY: 45:3: remark: cached copies are dropped here: it writes device memory the tool cannot name ('cudaMemset3D')
// WHY: 46:3: remark: cached copies are dropped here: it launches work the tool cannot follow ('cudaLaunchKernel')
// WHY: 47:3: remark: cached copies are dropped here: it launches work the tool cannot follow ('cudaLaunchCooperativeKernel')
// WHY: 48:3: remark: cached copies are dropped here: it launches work the tool cannot follow ('cudaGraphLaunch')
// WHY: 51:3: remark: cached copies are dropped here: it passes memory holding pointers to 'cusparseSpMV', which may write through them
// WHY: 55:3: remark: cached copies are dropped here: it calls 'external_update', whose body is not in this file
// WHY: 56:7: remark: cached copies are dropped here: it calls 'external_update', whose body is not in this file
// WHY: 57:5: remark: cached copies are dropped here: it calls 'std::function<void ()>::operator()', a callable the tool cannot see into
// WHY: 58:3: remark: cached copies are dropped here: it calls a function through a pointer
// WHY: 59:9: remark: cached copies are dropped here: it calls 'Timer::Timer', whose body is not in this file
