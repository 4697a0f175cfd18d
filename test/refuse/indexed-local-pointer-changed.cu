// A local pointer into an index array is followed only while it keeps the
// value it was declared with, points at elements of the array's own type, and
// the kernel does not write the array through it. Otherwise its reads are not
// computed outside the kernel, and the remark says which of these it is.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err
// RUN: diff %s %t.out

#include <cuda_runtime.h>

__device__ void skip(const int **p) { *p += 2; }

// Reassigned: which element it reads depends on the branch taken.
__global__ void flipped(const int *quads, const float *w, float *out, int n, int mirror) {
  int q = blockIdx.x * blockDim.x + threadIdx.x;
  if (q >= n)
    return;
  const int *corner = quads + 4 * q;
  if (mirror)
    corner = quads + 4 * (n - 1 - q);
  out[q] = w[corner[0]] + w[corner[2]];
}
// CHECK: remark: indirect read of 'w' in 'flipped' not rewritten: its index reads memory through 'corner', a local pointer that is assigned again

// Stepped from one element to the next.
__global__ void walked(const int *items, const float *w, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  const int *item = items + 2 * t;
  float s = w[*item];
  ++item;
  out[t] = s + w[*item];
}
// CHECK: remark: indirect read of 'w' in 'walked' not rewritten: its index reads memory through 'item', a local pointer that is stepped, or its address or a reference to it is taken

// Its address given to a function that moves it.
__global__ void moved(const int *quads, const float *w, float *out, int n) {
  int q = blockIdx.x * blockDim.x + threadIdx.x;
  if (q >= n)
    return;
  const int *corner = quads + 4 * q;
  skip(&corner);
  out[q] = w[corner[1]];
}
// CHECK: remark: indirect read of 'w' in 'moved' not rewritten: its index reads memory through 'corner', a local pointer that is stepped, or its address or a reference to it is taken

// Pairs of shorts read through a pointer to ints: an offset there counts other elements.
__global__ void retyped(const short *pairs, const float *w, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  const int *both = (const int *)pairs + t;
  out[t] = w[both[0] & 0xffff];
}
// CHECK: remark: indirect read of 'w' in 'retyped' not rewritten: its index reads memory through 'both', a local pointer whose elements' type is not that of 'pairs'

// Written through the pointer: the array is one the kernel writes.
__global__ void relinked(int *cells, const float *w, float *out, int n) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= n)
    return;
  int *link = cells + 3 * c;
  out[c] = w[link[0]] + w[link[1]];
  link[2] = link[0];
}
// CHECK: remark: indirect read of 'w' in 'relinked' not rewritten: its index reads 'cells', which the kernel writes

// Written through a second pointer into the first, and by a function given it.
__device__ void unlink(int *p) { p[1] = -1; }
__global__ void unlinked(int *cells, const float *w, float *out, int n) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= n)
    return;
  int *link = cells + 3 * c;
  int *last = link + 2;
  out[c] = w[link[0]];
  *last = 0;
  unlink(link);
}
// CHECK: remark: indirect read of 'w' in 'unlinked' not rewritten: its index reads 'cells', which the kernel writes

// A gathered array written through a pointer into it.
__global__ void cleared(const int *idx, float *w, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  float *mine = &w[t];
  out[t] = w[idx[t]];
  *mine = 0;
}
// CHECK: remark: gather site in 'cleared' not transformed: 'w' is written in the kernel

void run(const int *quads, const int *items, const short *pairs, int *cells, const float *w,
         float *wc, float *out, int n, int mirror) {
  flipped<<<(n + 127) / 128, 128>>>(quads, w, out, n, mirror);
  walked<<<(n + 127) / 128, 128>>>(items, w, out, n);
  moved<<<(n + 127) / 128, 128>>>(quads, w, out, n);
  retyped<<<(n + 127) / 128, 128>>>(pairs, w, out, n);
  relinked<<<(n + 127) / 128, 128>>>(cells, w, out, n);
  unlinked<<<(n + 127) / 128, 128>>>(cells, w, out, n);
  cleared<<<(n + 127) / 128, 128>>>(items, wc, out, n);
}
