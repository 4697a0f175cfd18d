// An index that uses the variables of two or three nested loops: the site
// copies over the iterations of the whole nest, the innermost loop's
// numbered fastest. Each inner loop gets its first value and trip count in
// the kernel, where it starts; the index kernels split an iteration into
// each loop's.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY --input-file=%t.err

#include <cuda_runtime.h>

// Channels of a gathered row, four at a time.
__global__ void channels(int n, int c, const int *rows, const float *a, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  int r = rows[t];
  int quads = c / 4;
  float s = 0;
  for (int q = 0; q < quads; ++q) {
    #pragma unroll
    for (int i = 0; i < 4; ++i)
      s += a[r * c + q * 4 + i];
  }
  out[t] = s;
}
// WHY: remark: indexed site in 'channels' transformed: 'a' at 'r * c + q * 4 + i' read through coalesced copies over the iterations of its nest of 2 loops
// CHECK-LABEL: __global__ void channels_irregfix(
// CHECK: { const long long __irregfix_first0 = (long long)(0); for (int q = 0; q < quads; ++q) {
// CHECK-NEXT: { const long long __irregfix_first0_1 = (long long)(0); const long long __irregfix_trips0_1 = (long long)(4) - __irregfix_first0_1;
// CHECK-NEXT: #pragma unroll
// CHECK-NEXT: for (int i = 0; i < 4; ++i)
// CHECK-NEXT: s += __irregfix_v0_a_0[irregfix::slot(__irregfix_v0, t, ((q - __irregfix_first0) * __irregfix_trips0_1 + (i - __irregfix_first0_1)))]; }
// CHECK-NEXT: } }
// The lengths: the product of the loops' trip counts.
// CHECK: static __global__ void channels_irregfix_lengths0(
// CHECK: long long __irregfix_count = 1;
// CHECK: const long long __irregfix_end = (long long)((c / 4));
// CHECK: __irregfix_count = __irregfix_trips == 0 ? 0 : __irregfix_count > 0x7fffffffLL / __irregfix_trips ? 0x7fffffffLL : __irregfix_count * __irregfix_trips;
// CHECK: const long long __irregfix_end1 = (long long)(4);
// CHECK: __irregfix_len[__irregfix_t] = __irregfix_ok ? (int)__irregfix_count : 0;
// CHECK: static __global__ void channels_irregfix_indices0(
// CHECK: for (int __irregfix_iter = 0, __irregfix_len = (__irregfix_trips > 0 && __irregfix_trips1 > 0) ? irregfix::length(__irregfix_v, __irregfix_t) : 0; __irregfix_iter < __irregfix_len; ++__irregfix_iter) {
// CHECK-NEXT: long long __irregfix_rest = __irregfix_iter;
// CHECK-NEXT: const long long __irregfix_at1 = __irregfix_rest % __irregfix_trips1;
// CHECK-NEXT: __irregfix_rest /= __irregfix_trips1;
// CHECK-NEXT: const long long __irregfix_at0 = __irregfix_rest;
// CHECK: * c + ((int)(__irregfix_first + __irregfix_at0)) * 4 + ((int)(__irregfix_first1 + __irregfix_at1)));

// A 3 x 3 x 2 block of a volume around each point's cell, the inclusive
// bounds of the inner loops given by a parameter; the index uses the
// outermost and innermost loops only (the middle one's iterations read the
// same elements again).
__global__ void block(int n, int nx, int h, const int *cell, const float *v, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int dz = 0; dz < 2; dz++)
      for (int rep = 0; rep < 3; rep++)
        for (int dx = -h; dx <= h; dx++)
          s += v[cell[t] + dz * nx + dx];
    out[t] = s;
  }
}
// WHY: remark: indexed site in 'block' transformed: 'v' at 'cell[t] + dz * nx + dx' read through coalesced copies over the iterations of its nest of 2 loops
// CHECK-LABEL: __global__ void block_irregfix(
// CHECK: { const long long __irregfix_first0 = (long long)(0); for (int dz = 0; dz < 2; dz++)
// CHECK-NEXT: for (int rep = 0; rep < 3; rep++)
// CHECK-NEXT: { const long long __irregfix_first0_1 = (long long)(-h); const long long __irregfix_trips0_1 = (long long)(h) + 1 - __irregfix_first0_1; for (int dx = -h; dx <= h; dx++)
// CHECK-NEXT: s += __irregfix_v0_v_0[irregfix::slot(__irregfix_v0, t, ((dz - __irregfix_first0) * __irregfix_trips0_1 + (dx - __irregfix_first0_1)))]; } }
// CHECK: static __global__ void block_irregfix_lengths0(
// CHECK: const long long __irregfix_end1 = (long long)((h) + 1);
