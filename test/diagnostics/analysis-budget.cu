// A kernel whose analysis runs past its budget (here none at all) is left as it
// is, with a remark that says so; the file is still written, unchanged, and the
// tool exits 0: it never holds a build up.
// RUN: %irregfix --analysis-budget=0 --analysis-budget-floor=0 %s -o %t.cu -- %stub 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BUDGET --implicit-check-not="remark:"
// RUN: diff %s %t.cu
// With the default budget the same kernel is rewritten.
// RUN: %irregfix %s -- %stub 2>&1 >/dev/null | FileCheck %s --check-prefix=DEFAULT
// RUN: not %irregfix --analysis-budget=x %s -- %stub 2>&1 | FileCheck %s --check-prefix=BAD
#include <cuda_runtime.h>

__global__ void lookup(int n, const int *slot, const float *table, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = table[slot[t]];
}
// BUDGET: analysis-budget.cu:[[@LINE-5]]:17: remark: kernel 'lookup' left as it is: its analysis ran past its budget (0.0 s: 0x the file's parse of {{[0-9.]+}} s, at least 0 s)
// DEFAULT: remark: gather site in 'lookup' transformed

void run(int n, const int *slot, const float *table, float *out) {
  lookup<<<(n + 127) / 128, 128>>>(n, slot, table, out);
}
// BAD: 'x' value invalid for floating point argument
