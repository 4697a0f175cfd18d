// Range loops that may not run with several lanes a row: one kernel per
// reason. Each keeps its in-kernel rewrite (no lanes variant), a note on the
// remark about its threads says why, and --report says it too.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err
// RUN: not grep '[_]irregfix_lanes(' %t.out
// RUN: %irregfix --quiet --report %s -- %stub | FileCheck %s --check-prefix=REPORT
#include <cuda_runtime.h>

// A float sum over elements of a struct type: several lanes would add in
// another order, and no element crosses lanes in one shuffle to keep it.
__global__ void float_sum(int n, const int *B, const float2 *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k)
      s += A[k].x * A[k].y;
    y[t] = s;
  }
}
// CHECK: note: rows of 'float_sum' run one thread each (no warp-cooperative rows): floating-point sum: several lanes would reorder it (--reassociate allows it); and the loop makes no read at its variable that the lanes could load together
// REPORT: kernel=float_sum pattern=range {{.*}} lanes="no: floating-point sum: several lanes would reorder it (--reassociate allows it); and the loop makes no read at its variable that the lanes could load together"

// A store in the loop.
__global__ void store_in_loop(int n, const int *B, const int *A, int *y, int *seen) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    int s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k) {
      s += A[k];
      seen[k] = 1;
    }
    y[t] = s;
  }
}
// CHECK: note: rows of 'store_in_loop' run one thread each (no warp-cooperative rows): the loop stores to memory ('seen[k]')

// A barrier: the threads cooperate (no permuted threads either).
__global__ void with_barrier(int n, const int *B, const int *A, int *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int s = 0;
  if (t < n)
    for (int k = B[t]; k < B[t + 1]; ++k)
      s += A[k];
  __syncthreads();
  if (t < n)
    y[t] = s;
}
// REPORT: kernel=with_barrier pattern=range {{.*}} lanes="no: its threads may depend on one another: it calls '__syncthreads'"

// A second variable the loop carries that is no accumulator: the previous column.
__global__ void carries_previous(int n, const int *B, const int *col, int *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    int runs = 0, prev = -1;
    for (int k = B[t]; k < B[t + 1]; ++k) {
      runs += col[k] != prev;
      prev = col[k];
    }
    y[t] = runs;
  }
}
// CHECK: note: rows of 'carries_previous' run one thread each (no warp-cooperative rows): 'prev' is carried from one iteration to the next and is not an accumulator

// An accumulator the loop also reads.
__global__ void reads_its_sum(int n, const int *B, const int *A, int *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    int s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k)
      if (s < 100) s += A[k];
    y[t] = s;
  }
}
// CHECK: note: rows of 'reads_its_sum' run one thread each (no warp-cooperative rows): 's' is read in the loop other than by its own updates

// Side effects before the loop: every lane would run them.
__global__ void store_before(int n, const int *B, const int *A, int *y, int *visits) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    visits[t] = 1;
    int s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k)
      s += A[k];
    y[t] = s;
  }
}
// CHECK: note: rows of 'store_before' run one thread each (no warp-cooperative rows): the code before the loop stores to memory ('visits[t]')

// A break ends the row early.
__global__ void with_break(int n, const int *B, const int *A, int *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    int s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k) {
      if (A[k] < 0)
        break;
      s += A[k];
    }
    y[t] = s;
  }
}
// CHECK: note: rows of 'with_break' run one thread each (no warp-cooperative rows): the loop contains 'break'

// A product of floats.
__global__ void float_product(int n, const int *B, const float *A, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float p = 1;
    for (int k = B[t]; k < B[t + 1]; ++k)
      p *= A[k];
    y[t] = p;
  }
}
// CHECK: note: rows of 'float_product' run one thread each (no warp-cooperative rows): 'p' is carried from one iteration to the next and is not an accumulator (only integer products are exact in any order)

// An atomic in the loop.
__global__ void atomic_in_loop(int n, const int *B, const int *A, int *y, int *hits) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    int s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k) {
      s += A[k];
      atomicAdd(hits, 1);
    }
    y[t] = s;
  }
}
// CHECK: note: rows of 'atomic_in_loop' run one thread each (no warp-cooperative rows): the loop calls 'atomicAdd', which has side effects

// blockDim read beside the thread index: the variant runs another grid.
__global__ void reads_block_size(int n, const int *B, const int *A, int *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    int s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k)
      s += A[k];
    y[t] = s + blockDim.x;
  }
}
// CHECK: note: rows of 'reads_block_size' run one thread each (no warp-cooperative rows): it reads 'blockDim' other than in its thread index

// The loop in an if with an else: rows that skip it would run the else in every lane.
__global__ void in_if_else(int n, const int *B, const int *A, int *y, int full) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    int s = 0;
    if (full) {
      for (int k = B[t]; k < B[t + 1]; ++k)
        s += A[k];
    } else {
      s = -1;
    }
    y[t] = s;
  }
}
// CHECK: note: rows of 'in_if_else' run one thread each (no warp-cooperative rows): the loop is in an 'if' with an 'else' branch

// printf in the loop.
__global__ void prints(int n, const int *B, const int *A, int *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    int s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k) {
      s += A[k];
      printf("%d\n", A[k]);
    }
    y[t] = s;
  }
}
// CHECK: note: rows of 'prints' run one thread each (no warp-cooperative rows): the loop calls 'printf', which has side effects

// A hash of the row: each step multiplies what came before, so the order matters.
__global__ void row_hash(int n, const int *B, const int *A, unsigned *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    unsigned h = 17;
    for (int k = B[t]; k < B[t + 1]; ++k)
      h = h * 31u + A[k];
    y[t] = h;
  }
}
// CHECK: note: rows of 'row_hash' run one thread each (no warp-cooperative rows): 'h' is carried from one iteration to the next and is not an accumulator
// REPORT: kernel=row_hash pattern=range {{.*}} lanes="no: 'h' is carried from one iteration to the next and is not an accumulator"

// An alternating sum: v = e - v changes the sign of what came before.
__global__ void alternating(int n, const int *B, const int *A, int *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    int s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k)
      s = A[k] - s;
    y[t] = s;
  }
}
// CHECK: note: rows of 'alternating' run one thread each (no warp-cooperative rows): 's' is carried from one iteration to the next and is not an accumulator (v = e - v changes sign every iteration)
