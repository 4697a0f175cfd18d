// A scatter update in a kernel template: analysed through its instantiations
// (float and double here, which agree), rewritten as a template variant and a
// template launcher; the contributions buffer has the template's element
// type. A template whose instantiations disagree (one updates `unsigned`
// elements, which the runtime does not sum) is left as written, with the reason.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: sed 's,// CHECK.*,,' %t.out | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

#include <cuda_runtime.h>

template <class T>
__global__ void scatter_add(int n, const int *f, const T *w, T *A) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    atomicAdd(&A[f[t]], w[t]);
}
// CHECK-LABEL: // irregfix: 'scatter_add' writing each thread's contribution to a buffer
// CHECK-NEXT:  template <class T>
// CHECK-NEXT:  __global__ void scatter_add_irregfix(int n, const int *f, const T *w, T *A, T *__restrict__ __irregfix_contrib, const int *__restrict__ __irregfix_slots) {
// CHECK:           __irregfix_contrib[__irregfix_slots[t]] = (w[t]);
// CHECK:       template <class T>
// CHECK-NEXT:  static void scatter_add_irregfix_launch(dim3 __irregfix_grid, dim3 __irregfix_block, size_t __irregfix_shmem, cudaStream_t __irregfix_stream, int n, const int *f, const T *w, T *A) {
// CHECK:           scatter_add_irregfix<T><<<__irregfix_grid, __irregfix_block, __irregfix_shmem, __irregfix_stream>>>(n, f, w, A, static_cast<T *>(__irregfix_plan.contrib), __irregfix_plan.slots);
// CHECK:         scatter_add<T><<<__irregfix_grid, __irregfix_block, __irregfix_shmem, __irregfix_stream>>>(n, f, w, A);

template <class T>
__global__ void count_into(int n, const int *f, const T *w, T *A) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    A[f[t]] += w[t];
}

void run(int n, const int *f, const float *wf, float *af, const double *wd, double *ad, const int *wi, int *ai,
         const unsigned *wu, unsigned *au) {
  scatter_add<<<(n + 255) / 256, 256>>>(n, f, wf, af);
  scatter_add<double><<<(n + 255) / 256, 256>>>(n, f, wd, ad);
  count_into<<<(n + 255) / 256, 256>>>(n, f, wi, ai);
  count_into<<<(n + 255) / 256, 256>>>(n, f, wu, au);
}
// CHECK-LABEL: void run(
// CHECK:         scatter_add_irregfix_launch((n + 255) / 256, 256, 0, 0, n, f, wf, af);
// CHECK:         scatter_add_irregfix_launch<double>((n + 255) / 256, 256, 0, 0, n, f, wd, ad);
// CHECK:         count_into<<<(n + 255) / 256, 256>>>(n, f, wi, ai);
// CHECK:         count_into<<<(n + 255) / 256, 256>>>(n, f, wu, au);

// REMARK-DAG: scatter-kernel-template.cu:16:5: remark: scatter site in 'scatter_add' transformed: updates of 'A' through 'f'
// REMARK-DAG: scatter-kernel-template.cu:31:5: remark: scatter site in 'count_into' not transformed: the kernel template's instantiations differ in what the scatter strategy can do
