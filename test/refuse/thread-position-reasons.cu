// Indexed sites whose index uses the thread's position other than its global
// index number every thread of the launch as the launch does; what that
// numbering cannot serve is left alone, and the remark names the part: an
// index of the thread in its block alone (every block would read the same
// elements), a position beside a grid-stride loop's variable (one index per
// iteration, not per thread), a position in a function the kernel calls.
// Nothing is rewritten; the output is the input.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err
// RUN: diff %s %t.out

#include <cuda_runtime.h>

// Every block reads the same rows by lane.
__global__ void lanes(const int *rows, const float *v, float *out) {
  int lane = threadIdx.x;
  out[blockIdx.x * blockDim.x + lane] = v[rows[lane] + 1];
}
// CHECK-DAG: remark: indirect read of 'v' in 'lanes' not rewritten: its index uses the thread's index in its block ('threadIdx.x') and nothing that tells the blocks apart: every block reads the same elements

// Rows of blocks over a grid-stride loop of elements.
__global__ void strided_parts(const int *start, const float *in, float *out, int n) {
  for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < n; e += gridDim.x * blockDim.x)
    out[blockIdx.y * n + e] = in[start[blockIdx.y] + e];
}
// CHECK-DAG: remark: indirect read of 'in' in 'strided_parts' not rewritten: its index uses the thread's position other than its global index ('blockIdx.y') beside the variable of a grid-stride loop, 'e' (a copy for each thread of the launch holds one iteration's element)

// The block's row read in a function the kernel calls.
__device__ float of_part(const int *start, const float *in, int t) { return in[start[blockIdx.y] + t]; }
__global__ void called_parts(const int *start, const float *in, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[blockIdx.y * n + t] = of_part(start, in, t);
}
// CHECK-DAG: remark: indirect read of 'in' in 'called_parts' (in 'of_part') not rewritten: its index uses the thread's position other than its global index ('blockIdx.y') in a function the kernel calls (such indices are numbered in the kernel only)
// CHECK-NOT: transformed

void run(const int *start, const float *in, float *out, int n) {
  lanes<<<4, 32>>>(start, in, out);
  strided_parts<<<dim3(8, 4), 128>>>(start, in, out, n);
  called_parts<<<dim3(n / 128, 4), 128>>>(start, in, out, n);
}
