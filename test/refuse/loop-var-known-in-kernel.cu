// Loops of no canonical shape whose variable takes values only the kernel
// computes: a block pulls batches of work from a counter, its first thread
// keeping the batch's start in shared memory; a loop walks a chain whose
// next link the thread keeps in its own array; a loop steps through slots
// the kernel itself fills. The index of the reads inside follows those
// values, so no copy could be laid out before the launch, whatever the
// loop's shape: the reason says so. A `while` loop that only counts keeps
// the reason of its shape. Nothing is rewritten.
// RUN: %irregfix %s -- %stub > %t.out 2> /dev/null
// RUN: diff %s %t.out
// RUN: %irregfix --report=text %s -- %stub 2> /dev/null | FileCheck %s

#include <cuda_runtime.h>

__global__ void drain_batches(int total, int *next_batch, const int *items, const float *weight, float *out) {
  __shared__ int batch_start;
  if (threadIdx.x == 0)
    batch_start = atomicAdd(next_batch, blockDim.x);
  __syncthreads();
  int start = batch_start;
  while (start < total) {
    if (start + threadIdx.x < total) {
      int item = items[start + threadIdx.x];
      out[item] = weight[item] * 2.0f;
    }
    __syncthreads();
    if (threadIdx.x == 0)
      batch_start = atomicAdd(next_batch, blockDim.x);
    __syncthreads();
    start = batch_start;
  }
}
// CHECK-DAG: read kernel=drain_batches array=weight index="item" pattern=gather in a loop verdict=not-rewritten reason="its index cannot be computed outside the kernel: it uses 'start', the variable of a loop, which starts at 'batch_start', read from shared memory ('batch_start'), which only the kernel's own stores fill"

// The thread keeps the links of its chain in an array of its own.
__global__ void follow_chain(int n, const int *first, const float *value, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    int link[4] = {first[t], first[t] + 1, first[t] + 2, -1};
    float s = 0;
    int at = 0;
    while (at < 3) {
      s += value[first[at]];
      at = link[at] - first[t] + 1;
    }
    out[t] = s;
  }
}
// CHECK-DAG: read kernel=follow_chain array=value index="first[at]" pattern=gather in a loop verdict=not-rewritten reason="its index cannot be computed outside the kernel: it uses 'at', the variable of a loop, which the loop sets to 'link[at] - first[t] + 1', read from memory local to the thread ('link'), which only the kernel's own stores fill"

// The slots the loop steps through are the kernel's output.
__global__ void hop_slots(int n, int *slot, const int *rows, const float *value, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    slot[t] = (t + 1) % n;
    float s = 0;
    int at = t;
    while (at < n - 1) {
      s += value[rows[at]];
      at = slot[at] + n;
    }
    out[t] = s;
  }
}
// CHECK-DAG: read kernel=hop_slots array=value index="rows[at]" pattern=gather in a loop verdict=not-rewritten reason="its index cannot be computed outside the kernel: it uses 'at', the variable of a loop, which the loop sets to 'slot[at] + n', read from 'slot', which the kernel writes"

// A loop that only counts: its shape is the obstacle.
__global__ void count_up(int n, int m, const int *rows, const float *value, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    int k = 0;
    while (k < m) {
      s += value[rows[t] + k];
      k += 2;
    }
    out[t] = s;
  }
}
// CHECK-DAG: read kernel=count_up array=value index="rows[t] + k" pattern=gather in a loop verdict=not-rewritten reason="its index depends on the variable of a loop it cannot copy: its loop is a 'while' loop"
