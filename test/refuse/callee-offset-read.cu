// A called function given a kernel array at an offset (`w + at`, `&w[8 * t]`)
// reads that array: its reads are judged as the array's, at the offset the
// call adds. The array written in the kernel is a hazard; an offset only the
// kernel's own computation gives is an index known in the kernel only; an
// offset known before the launch leaves a read that is in a called function,
// where only range and gather sites over arrays passed unchanged are
// rewritten. Nothing is rewritten.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err
// RUN: diff %s %t.out

#include <cuda_runtime.h>

__device__ float weigh(const float *w, const int *cols, int k) {
  float s = 0.f;
  for (int i = 0; i < k; ++i)
    s += w[cols[i]];
  return s;
}

__global__ void from_search(const float *w, const int *cols, const int *first, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  int at = first[t];
  while (at > 0 && cols[at - 1] == cols[at])
    --at;
  out[t] = weigh(w + at, cols, 4);
}
// CHECK-DAG: remark: indirect read of 'w' in 'from_search' (in 'weigh') not rewritten: its index cannot be computed outside the kernel: 'w' of 'weigh' is given 'w + at': local 'at' is modified in the kernel

__device__ float weigh_row(const float *w, const int *cols, int k) {
  float s = 0.f;
  for (int i = 0; i < k; ++i)
    s += w[cols[i]];
  return s;
}

__global__ void from_row(const float *w, const int *cols, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = weigh_row(&w[8 * t], cols, 4);
}
// CHECK-DAG: remark: indirect read of 'w' in 'from_row' (in 'weigh_row') not rewritten: it is in 'weigh_row', a function the kernel calls, where only range and gather sites are rewritten

__device__ int visit(int *seen, const int *nbr, int k) {
  int s = 0;
  for (int i = 0; i < k; ++i) {
    s += seen[nbr[i]];
    seen[i] = 1;
  }
  return s;
}

__global__ void into_written(int *seen, const int *nbr, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = visit(seen + 16 * t, nbr, 4);
}
// CHECK-DAG: remark: indirect read of 'seen' in 'into_written' (in 'visit') not rewritten: 'seen' is written in the kernel: 'seen' of 'visit' points into it (the call passes 'seen + 16 * t')
// CHECK-NOT: transformed

void run(const float *w, const int *cols, const int *first, float *out, int *seen, int *iout, int n) {
  from_search<<<(n + 127) / 128, 128>>>(w, cols, first, out, n);
  from_row<<<(n + 127) / 128, 128>>>(w, cols, out, n);
  into_written<<<(n + 127) / 128, 128>>>(seen, cols, iout, n);
}
