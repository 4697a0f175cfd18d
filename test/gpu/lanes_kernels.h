// The kernels of the lanes GPU tests (lanes_kernels.cu, rewritten by irregfix
// --reassociate when the tests are built): each launch through its generated
// launcher, so that the runtime's layout decides which kernel runs: the
// original (IRREGFIX_LAYOUT=none), the lanes variant (lanes), a copy layout.
#pragma once

#include <cuda_runtime.h>

namespace lanes_kernels {

// out[t] = the sum of A over row t (int).
void row_sums(int n, const int *B, const int *A, int *out, unsigned block, cudaStream_t stream = 0);
// The same, launched on a grid of two rows of blocks (not one-dimensional).
void row_sums_2d(int n, const int *B, const int *A, int *out, unsigned block);
// out[t] = min(label[t], the least label[col[k]] over row t).
void row_mins(int n, const int *B, const int *col, const int *label, int *out, unsigned block);
// out[t] = the greatest A[k] over row t (INT_MIN for an empty row; `if (A[k] > most) most = A[k]`).
void row_maxes(int n, const int *B, const int *A, int *out, unsigned block);
// out[t] = 1 when some level[col[k]] of row t is cur, else 0 (a pull BFS step's test).
void row_flags(int n, const int *B, const int *col, const int *level, int cur, int *out, unsigned block);
// Narrow and wide accumulators: a short sum, an unsigned long long xor, a
// bool or, an unsigned and (starting from all ones), a count.
void row_mix(int n, const int *B, const int *A, short *sum16, unsigned long long *xor64, bool *any_odd,
             unsigned *and_bits, int *positives, unsigned block);
// y[t] = the sum of val[k] * x[col[k]] over row t (float; reassociated in lanes).
void row_dots(int n, const int *B, const int *col, const float *val, const float *x, float *y, unsigned block);

} // namespace lanes_kernels
