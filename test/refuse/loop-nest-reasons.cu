// Loop nests and strided loops an indexed site cannot copy over: their
// iterations must be counted outside the kernel as the kernel runs them. An
// inner loop whose bounds change with the loop around it (a ragged nest)
// where it does not run at every iteration of that loop, or whose bounds
// change with two loops around it, a step whose sign the launch decides, a strided loop that stops at '!=' (it
// may step past its end), an inner loop whose variable its body changes.
// Nothing is rewritten; the output is the input.
// RUN: %irregfix %s -- %stub > %t.out 2> /dev/null
// RUN: diff %s %t.out
// RUN: %irregfix --report=text %s -- %stub 2> /dev/null | FileCheck %s

#include <cuda_runtime.h>

// Four windows of a thread's row, each a window further on, some skipped:
// the inner bounds follow w, and the inner loop does not run at every
// iteration of w's (the kernel could not count its iterations as the index
// kernels lay them out).
__global__ void ragged(int n, const int *rows, const float *a, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int w = 0; w < 4; ++w) {
      if (s > 8.0f)
        continue;
      for (int k = 3 * w; k < 3 * w + 4; ++k)
        s += a[rows[t] + k];
    }
    out[t] = s;
  }
}
// CHECK-DAG: read kernel=ragged array=a index="rows[t] + k" pattern=gather in a loop verdict=not-rewritten reason="the bounds of its loop depend on 'w', the variable of a loop around it (a loop is copied where its bounds are the same at every iteration of the loops around it, or follow the variable of the one loop right around it, which runs it at its every iteration)"

// Two levels of windows around the inner loop's: its bounds follow both.
__global__ void ragged_twice(int n, const int *rows, const float *a, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int v = 0; v < 2; ++v)
      for (int w = 0; w < 2; ++w)
        for (int k = 4 * v + 2 * w; k < 4 * v + 2 * w + 3; ++k)
          s += a[rows[t] + k];
    out[t] = s;
  }
}
// CHECK-DAG: read kernel=ragged_twice array=a index="rows[t] + k" pattern=gather in a loop verdict=not-rewritten reason="the bounds of its loop depend on 'v', the variable of a loop around it

// A step the caller passes: zero or negative would not end the loop.
__global__ void any_step(int n, int step, const int *start, const float *a, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = start[t]; k < start[t + 1]; k += step)
      s += a[k];
    out[t] = s;
  }
}
// CHECK-DAG: read kernel=any_step array=a index="k" pattern=range verdict=not-rewritten reason="its index depends on the variable of a loop it cannot copy: its loop steps 'k' by 'step', which is not known to be positive (strided loops are copied when they step by a positive constant or by the launch's dimensions)"

// Two at a time up to an end it may step over.
__global__ void past_end(int n, const int *start, const float *a, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = start[t]; k != start[t + 1]; k += 2)
      s += a[k];
    out[t] = s;
  }
}
// CHECK-DAG: read kernel=past_end array=a index="k" pattern=range verdict=not-rewritten reason="its index depends on the variable of a loop it cannot copy: its loop does not step 'k' by one"

// The inner loop skips ahead inside its body.
__global__ void skipping(int n, const int *rows, const float *a, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int q = 0; q < 4; ++q)
      for (int i = 0; i < 8; ++i) {
        s += a[rows[t] + 8 * q + i];
        if (s > 1.0f)
          ++i;
      }
    out[t] = s;
  }
}
// CHECK-DAG: read kernel=skipping array=a index="rows[t] + 8 * q + i" pattern=gather in a loop verdict=not-rewritten reason="its index depends on the variable of a loop it cannot copy: its loop variable 'i' is written in the loop body"
// CHECK-NOT: verdict=rewritten
