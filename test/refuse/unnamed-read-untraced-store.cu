// Reads of memory the analysis cannot name (a called function's parameter
// bound to no kernel array, a row of an array inside a struct) in kernels
// that also store where the analysis cannot name: the store may land in what
// the read reads, so the read is not known to be safe, whatever its shape.
// The reason names the store. Where nothing is stored out of sight, the
// shape is the reason.
// RUN: %irregfix --report=text %s -- %stub 2> /dev/null | FileCheck %s

#include <cuda_runtime.h>

// Sums the marked entries of a list of slots.
__device__ int count_marked(const int *marks, const int *slots, int t, int n) {
  int c = 0;
  for (int i = 0; i < n; ++i)
    c += marks[slots[t] + i];
  return c;
}

// Folds a row of marks in halves, each fold written to scratch the thread
// takes from a pool it advances; the last fold is counted. The marks
// 'count_marked' reads are the kernel's at the first level and the scratch
// below it.
__device__ int fold(const int *marks, const int *slots, int t, int n, int **pool) {
  if (n <= 2)
    return count_marked(marks, slots, t, n);
  int *half = *pool;
  *pool += n / 2;
  for (int i = 0; i < n / 2; ++i)
    half[i] = marks[i] | marks[i + n / 2];
  return fold(half, slots, t, n / 2, pool);
}

__global__ void fold_rows(const int *marks, const int *slots, int *scratch, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    int *pool = scratch + t * 16;
    out[t] = fold(marks, slots, t, 16, &pool);
  }
}
// CHECK-DAG: read kernel=fold_rows function=count_marked array=marks index="slots[t] + i" pattern=gather in a loop verdict=not-rewritten reason="the kernel may write memory the analysis cannot name:

// The same count over a kernel array and over the thread's own array, with
// no store out of sight: the binding is the reason.
__device__ int from_own(const int *slots, int t, int n) {
  int own[4] = {1, 0, 1, 0};
  return count_marked(own, slots, t, n);
}
__global__ void count_both(const int *marks, const int *slots, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = count_marked(marks, slots, t, 4) + from_own(slots, t, 4);
}
// CHECK-DAG: read kernel=count_both function=count_marked array=marks index="slots[t] + i" pattern=gather in a loop verdict=not-rewritten reason="'count_marked' is called at 2 places

// A table of rows inside a struct the kernel is given a pointer to, read
// through a row another table picks, in a kernel that stores through a
// pointer it loads from memory.
struct Tables {
  int pick[16];
  int rows[16][4];
};
__global__ void row_lookup(const Tables *tables, int **sinks, const int *keys, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    const int *row = tables->rows[tables->pick[keys[t]]];
    out[t] = row[1];
    sinks[t][0] = t;
  }
}
// CHECK-DAG: read kernel=row_lookup array=tables->rows[tables->pick[keys[t]]] index="" pattern=chain of 3 loads verdict=not-rewritten reason="the kernel may write memory the analysis cannot name: stores through 'sinks[t]', a pointer loaded from memory"

// The same lookup with no store out of sight: the row's shape is the reason.
__global__ void row_lookup_only(const Tables *tables, const int *keys, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    const int *row = tables->rows[tables->pick[keys[t]]];
    out[t] = row[1];
  }
}
// CHECK-DAG: read kernel=row_lookup_only array=tables->rows[tables->pick[keys[t]]] index="" pattern=chain of 3 loads verdict=not-rewritten reason="it reads through 'tables->rows[tables->pick[keys[t]]]', a row of the two-dimensional array
