// Before a launch, the copies its kernel may write are invalidated: by name
// where the launch can name what the kernel writes (a pointer argument, a
// pointer field of a struct argument, a __device__ variable), all of them where
// it cannot (pointers loaded from memory, callees it cannot see, kernels in
// another file, launches through a pointer).
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err

#include <cuda_runtime.h>

struct Mat { int n; float *val; };
struct Bufs { float *data; const float *scale; };

__device__ int overflow;
__device__ float *g_out;

__global__ void spmv(int n, const int *rp, const float *val, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = rp[t]; k < rp[t + 1]; ++k) s += val[k];
    y[t] = s;
  }
}

__device__ void put(float *p, int i) { p[i] = 0; }
__device__ void ext_update(float *p, int i);

__global__ void through_struct_pointer(Mat *m) { m->val[threadIdx.x] *= 0.5f; }
__global__ void through_pointer_array(float **vals) { vals[0][threadIdx.x] *= 0.5f; }
__global__ void through_device_pointer() { g_out[threadIdx.x] = 1; }
__global__ void through_unseen_callee(float *v) { ext_update(v, threadIdx.x); }
__global__ void through_callee(float *v, float *w) { put(w, threadIdx.x); }
__global__ void struct_field(Bufs b) { b.data[threadIdx.x] = b.scale[0]; }
__global__ void counts_overflow(int n) { if (n > 4) atomicAdd(&overflow, 1); }
__global__ void defined_elsewhere(float *v);

void step(int n, const int *rp, float *val, float *y, Mat *dm, float **dvals, Bufs b, void (*k)(float *)) {
  spmv<<<n / 128 + 1, 128>>>(n, rp, val, y);
  through_struct_pointer<<<1, 32>>>(dm);
  through_pointer_array<<<1, 32>>>(dvals);
  through_device_pointer<<<1, 32>>>();
  through_unseen_callee<<<1, 32>>>(val);
  through_callee<<<1, 32>>>(val, y);
  struct_field<<<1, 32>>>(b);
  counts_overflow<<<1, 32>>>(n);
  defined_elsewhere<<<1, 32>>>(val);
  k<<<1, 32>>>(val);
}
// CHECK-LABEL: void step(int n, const int *rp, float *val, float *y, Mat *dm, float **dvals, Bufs b, void (*k)(float *)) {
// CHECK-NEXT:    irregfix::EntryGuard __irregfix_entry("invalidate-kernel-writes.cu:38");
// CHECK-NEXT:    irregfix_invalidate(y);
// CHECK-NEXT:    spmv_irregfix_launch(n / 128 + 1, 128, 0, 0, n, rp, val, y);
// CHECK-NEXT:    irregfix_invalidate_all(IRREGFIX_CAUSE_UNTRACED_KERNEL, "invalidate-kernel-writes.cu:40");
// CHECK-NEXT:    through_struct_pointer<<<1, 32>>>(dm);
// CHECK-NEXT:    irregfix_invalidate_all(IRREGFIX_CAUSE_UNTRACED_KERNEL, "invalidate-kernel-writes.cu:41");
// CHECK-NEXT:    through_pointer_array<<<1, 32>>>(dvals);
// CHECK-NEXT:    irregfix_invalidate_all(IRREGFIX_CAUSE_UNTRACED_KERNEL, "invalidate-kernel-writes.cu:42");
// CHECK-NEXT:    through_device_pointer<<<1, 32>>>();
// CHECK-NEXT:    irregfix_invalidate_all(IRREGFIX_CAUSE_UNTRACED_KERNEL, "invalidate-kernel-writes.cu:43");
// CHECK-NEXT:    through_unseen_callee<<<1, 32>>>(val);
// CHECK-NEXT:    irregfix_invalidate(y);
// CHECK-NEXT:    through_callee<<<1, 32>>>(val, y);
// CHECK-NEXT:    irregfix_invalidate(b.data);
// CHECK-NEXT:    struct_field<<<1, 32>>>(b);
// CHECK-NEXT:    irregfix_invalidate_symbol(&::overflow);
// CHECK-NEXT:    counts_overflow<<<1, 32>>>(n);
// CHECK-NEXT:    irregfix_invalidate_all(IRREGFIX_CAUSE_UNTRACED_KERNEL, "invalidate-kernel-writes.cu:47");
// CHECK-NEXT:    defined_elsewhere<<<1, 32>>>(val);
// CHECK-NEXT:    irregfix_invalidate_all(IRREGFIX_CAUSE_LAUNCH_API, "invalidate-kernel-writes.cu:48");
// CHECK-NEXT:    k<<<1, 32>>>(val);
// CHECK-NEXT:  }
// WHY: 38:6: remark: cached copies are dropped whenever 'step' is entered from another file: code there may have written their sources
// WHY: 40:3: remark: cached copies are dropped here: kernel 'through_struct_pointer' stores through 'm->val', a pointer loaded from memory
// WHY: 41:3: remark: cached copies are dropped here: kernel 'through_pointer_array' stores through 'vals[0]', a pointer loaded from memory
// WHY: 42:3: remark: cached copies are dropped here: kernel 'through_device_pointer' stores through 'g_out', a pointer loaded from a __device__ variable
// WHY: 43:3: remark: cached copies are dropped here: kernel 'through_unseen_callee' calls 'ext_update', whose body the analysis cannot see
// WHY: 47:3: remark: cached copies are dropped here: kernel 'defined_elsewhere' is defined in another file
// WHY: 48:3: remark: cached copies are dropped here: it launches a kernel through a pointer
