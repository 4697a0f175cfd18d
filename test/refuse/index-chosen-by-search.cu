// Reads whose index a search picks: the index is a loop position, but which
// position depends on values loaded from memory (the first bin whose cumulative
// weight reaches a sample, the last key below a bound). They are indirect reads
// and are reported with the reason they stay as written.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err -implicit-check-not="{{remark|warning|error}}:"
// RUN: diff %s %t.out
// RUN: %irregfix --quiet --report %s -- %stub | FileCheck %s --check-prefix=REPORT

#include <cuda_runtime.h>

__global__ void pick_bins(int n, int bins, const float *cumulative, const float *samples, const float *centre,
                          float *picked) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  int bin = bins - 1;
  for (int b = 0; b < bins; ++b) {
    if (cumulative[b] >= samples[t]) {
      bin = b;
      break;
    }
  }
  picked[t] = centre[bin];
}
// CHECK: index-chosen-by-search.cu:24:15: remark: indirect read of 'centre' in 'pick_bins' not rewritten: its index cannot be computed outside the kernel: local 'bin' is set under a condition on values loaded from memory
// REPORT: index-chosen-by-search.cu:24:15: read kernel=pick_bins array=centre index="bin" pattern=gather verdict=not-rewritten reason="its index cannot be computed outside the kernel: local 'bin' is set under a condition on values loaded from memory"

// The loop stops on a loaded value; the position it stops at is the index.
__global__ void last_below(int n, int m, const int *keys, const int *bound, const float *payload, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    int k = 0;
    int at = 0;
    while (k < m) {
      at = k;
      if (keys[k] > bound[t])
        break;
      ++k;
    }
    out[t] = payload[at];
  }
}
// CHECK: index-chosen-by-search.cu:41:14: remark: indirect read of 'payload' in 'last_below' not rewritten: its index cannot be computed outside the kernel: local 'at' is set under a condition on values loaded from memory
// REPORT-NEXT: index-chosen-by-search.cu:41:14: read kernel=last_below array=payload index="at" pattern=gather verdict=not-rewritten

// Iterations skipped on a loaded value choose the position as a break does.
__global__ void last_kept(int n, int m, const int *mask, const float *payload, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    int at = 0;
    for (int k = 0; k < m; ++k) {
      if (mask[k * n + t] == 0)
        continue;
      at = k;
    }
    out[t] = payload[at];
  }
}
// CHECK: index-chosen-by-search.cu:[[@LINE-3]]:14: remark: indirect read of 'payload' in 'last_kept' not rewritten: its index cannot be computed outside the kernel: local 'at' is set under a condition on values loaded from memory
// REPORT-NEXT: index-chosen-by-search.cu:[[@LINE-4]]:14: read kernel=last_kept array=payload index="at" pattern=gather verdict=not-rewritten

// A position counted without looking at memory is not a search: payload[k]
// below is a plain read, reported nowhere.
// REPORT-NOT: kernel=last_slot
__global__ void last_slot(int n, int m, const float *payload, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    int at = 0;
    for (int k = 0; k < m; ++k)
      if (k % 4 == 0)
        at = k;
    out[t] = payload[at];
  }
}
