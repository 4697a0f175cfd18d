// A 2-D thread space numbered c = i + nx * j is one space of nx * ny threads:
// the gather's copy is laid out in c, and the launcher computes n from the
// guard's two bounds. The index may be a local or written in the subscript
// (j * nx + i), the guard an if on both indices or an early return and a
// reversed comparison. Such kernels keep their threads in order and run whole.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: sed 's,// CHECK.*,,' %t.out | FileCheck %s --match-full-lines
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err

#include <cuda_runtime.h>

__global__ void smooth(int nx, int ny, const int *nb, const float *a, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < nx && j < ny) {
    int c = i + nx * j;
    out[c] = a[nb[c]];
  }
}
// WHY: thread-index-2d.cu:17:14: remark: gather site in 'smooth' transformed: 'a' read through a coalesced copy indexed by 'nb'
// WHY: remark: launches of 'smooth' run whole (no remap overlapping the kernel): its threads are numbered from 2-D or 3-D indices (i + nx * j): a chunk of blocks is not a range of them
// CHECK-LABEL: __global__ void smooth_irregfix(int nx, int ny, const int *nb, const float *a, float *out, irregfix::View __irregfix_v0, const float *__restrict__ __irregfix_v0_a) {
// CHECK:           out[c] = __irregfix_v0_a[irregfix::gather_slot(__irregfix_v0, c)];
// CHECK:       static const irregfix::SiteInfo __irregfix_site_smooth_0 = {"thread-index-2d.cu:17:14", "smooth", "gather", 0, nullptr, "a,nb"};
// CHECK:             irregfix::prepare_gather(__irregfix_site_smooth_0, nb, irregfix::index_kind(nb), (long long)(nx) * (long long)(ny), a, sizeof(*a), &__irregfix_v0, __irregfix_v0_out, __irregfix_stream)) {
// CHECK-NEXT:      smooth_irregfix<<<__irregfix_grid, __irregfix_block, __irregfix_shmem, __irregfix_stream>>>(nx, ny, nb, a, out, __irregfix_v0, static_cast<const float *>(__irregfix_v0_out[0]));

__global__ void rowmajor(int nx, int ny, const int *nb, const float *a, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (j >= ny)
    return;
  if (nx > i)
    out[j * nx + i] = a[nb[j * nx + i]];
}
// WHY: thread-index-2d.cu:34:23: remark: gather site in 'rowmajor' transformed: 'a' read through a coalesced copy indexed by 'nb'
// CHECK-LABEL: __global__ void rowmajor_irregfix(int nx, int ny, const int *nb, const float *a, float *out, irregfix::View __irregfix_v0, const float *__restrict__ __irregfix_v0_a) {
// CHECK:           out[j * nx + i] = __irregfix_v0_a[irregfix::gather_slot(__irregfix_v0, (j * nx + i))];
// CHECK:             irregfix::prepare_gather(__irregfix_site_rowmajor_0, nb, irregfix::index_kind(nb), (long long)(nx) * (long long)(ny), a, sizeof(*a), &__irregfix_v0, __irregfix_v0_out, __irregfix_stream)) {

void run(int nx, int ny, const int *nb, const float *a, float *out) {
  dim3 block(32, 8), grid((nx + 31) / 32, (ny + 7) / 8);
  smooth<<<grid, block>>>(nx, ny, nb, a, out);
  rowmajor<<<grid, block>>>(nx, ny, nb, a, out);
}
// CHECK: smooth_irregfix_launch(grid, block, 0, 0, nx, ny, nb, a, out);
// CHECK: rowmajor_irregfix_launch(grid, block, 0, 0, nx, ny, nb, a, out);
