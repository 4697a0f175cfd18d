// The kernels of the in-order lanes GPU tests (lanes_in_order_kernels.cu,
// rewritten by irregfix without --reassociate): floating-point reductions whose
// lanes variant loads the row's elements together and runs the loop over them
// in the original's order, each launch through its generated launcher.
#pragma once

#include <cuda_runtime.h>

namespace lanes_in_order {

// y[t] = the sum of val[k] * x[col[k]] over row t (float, in the row's order).
void row_dots(int n, const int *B, const int *col, const float *val, const float *x, float *y, unsigned block);
// y[t] = the least A[k] of row t, from 1e30 (`if (A[k] < m) m = A[k]`).
void row_mins(int n, const int *B, const double *A, double *y, unsigned block);
// y[t] from a sum, a max and a count over row t, A[k] read twice (loaded once).
void row_mix(int n, const int *B, const float *A, float *y, unsigned block);
// y[t] = the sum of A[k] over the entries of row t whose col[k] is not negative
// (a `continue` before the read: it stays in place).
void row_sums_skipping(int n, const int *B, const int *col, const float *A, float *y, unsigned block);

} // namespace lanes_in_order
