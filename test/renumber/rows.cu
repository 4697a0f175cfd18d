// Program-wide renumbering by a sparse matrix's rows: a conjugate-gradient
// style solver whose matrix-vector product reads its rows through row starts
// (CSR). The row starts get role 8, the arrays stored along the rows role 16
// (the columns, which number the vector's elements, 16 + 2 = 18), the vectors
// indexed by thread or by column role 1: the runtime may keep all of them in
// the rows' locality order, moving each row's segment whole. A dot product
// sums its elements in a grid-stride loop: another numbering would regroup
// its floating-point sum, so by default a variant of it reads each element
// where the order keeps it (the same sums in the same order); under
// --reassociate it runs unchanged in the order.
// RUN: %irregfix %s -- %stub 2> %t.err | sed 's,// CHECK.*,,' | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err
// RUN: %irregfix --reassociate %s -- %stub 2> %t.re.err | sed 's,// CHECK.*,,' | FileCheck %s --check-prefix=REASSOCIATE
// RUN: FileCheck %s --check-prefix=REASSOCIATE-REMARK --input-file=%t.re.err
// RUN: %irregfix %s -- %stub -DRECTANGLE 2>&1 >/dev/null | FileCheck %s --check-prefix=RECTANGLE
// RUN: %irregfix %s -- %stub -DOFFSET 2>&1 >/dev/null | FileCheck %s --check-prefix=OFFSET
// RUN: %irregfix %s -- %stub -DEARLY 2>&1 >/dev/null | FileCheck %s --check-prefix=EARLY
#include <cuda_runtime.h>

#ifdef EARLY
// A launch of the dot product before its definition: the variant, written
// after the definition, would not be declared there.
__global__ void dot(int n, const float *u, const float *v, double *partial);
void dot_twice(int n, const float *p, const float *ap, double *partial) {
  dot<<<256, 256>>>(n, p, ap, partial);
}
#endif

__global__ void product(int n, const int *starts, const int *columns, const float *values, const float *x,
                        float *y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n) {
    float sum = 0.0f;
    const int first = starts[row], last = starts[row + 1];
    for (int k = first; k < last; k++)
      sum += values[k] * x[columns[k]];
    y[row] = sum;
  }
}

#ifdef OFFSET
// The position in the row as a value (k - starts[row]): another place of the row's segment
// would change what it computes.
__global__ void weighted(int n, const int *starts, const float *values, float *y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n) {
    float sum = 0.0f;
    for (int k = starts[row]; k < starts[row + 1]; ++k)
      sum += values[k] * (k - starts[row]);
    y[row] = sum;
  }
}
#endif

__global__ void update(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += a * x[i];
}

// A grid-stride dot product, its blocks' partial sums combined in shared memory.
__global__ void dot(int n, const float *u, const float *v, double *partial) {
  __shared__ double s[256];
  double acc = 0.0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    acc += static_cast<double>(u[i]) * v[i];
  s[threadIdx.x] = acc;
  __syncthreads();
  for (int w = 128; w > 0; w /= 2) {
    if (threadIdx.x < w)
      s[threadIdx.x] += s[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    partial[blockIdx.x] = s[0];
}

// An integer count of the non-zero entries, each thread's share added by an
// atomic: exact in any numbering.
__global__ void nonzero(int n, const float *u, int *total) {
  int mine = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    mine += u[i] != 0.0f;
  atomicAdd(total, mine);
}

int main() {
  const int n = 1 << 20, nnz = 5 * n;
  int *d_starts = nullptr, *d_columns = nullptr;
  float *d_values = nullptr, *d_p = nullptr, *d_ap = nullptr, *d_x = nullptr;
  double *d_partial = nullptr;
  int *d_total = nullptr;
  cudaMalloc(&d_starts, (n + 1) * sizeof(int));
  cudaMalloc(&d_columns, nnz * sizeof(int));
  cudaMalloc(&d_values, nnz * sizeof(float));
  cudaMalloc(&d_p, n * sizeof(float));
  cudaMalloc(&d_ap, n * sizeof(float));
  cudaMalloc(&d_x, n * sizeof(float));
  cudaMalloc(&d_partial, 256 * sizeof(double));
  cudaMalloc(&d_total, sizeof(int));
  for (int it = 0; it < 100; ++it) {
    product<<<(n + 255) / 256, 256>>>(n, d_starts, d_columns, d_values, d_p, d_ap);
#ifdef RECTANGLE
    // The same rows over a vector of another length.
    product<<<(n / 2 + 255) / 256, 256>>>(n / 2, d_starts, d_columns, d_values, d_p, d_x);
#endif
#ifdef OFFSET
    weighted<<<(n + 255) / 256, 256>>>(n, d_starts, d_values, d_ap);
#endif
    dot<<<256, 256>>>(n, d_p, d_ap, d_partial);
    nonzero<<<256, 256>>>(n, d_ap, d_total);
    update<<<(n + 255) / 256, 256>>>(n, 0.5f, d_ap, d_x);
  }
  float h = 0.0f;
  cudaMemcpy(&h, d_x, sizeof h, cudaMemcpyDeviceToHost);
  return h > 0.0f;
}

// CHECK:      // irregfix: 'dot' reading each element where the program-wide renumbering keeps it: the same sums, in the same order.
// CHECK-NEXT: __global__ void dot_irregfix_at(int n, const float *u, const float *v, double *partial, const int *__restrict__ __irregfix_at) {
// CHECK:      acc += static_cast<double>(u[irregfix::element_at(__irregfix_at, i)]) * v[irregfix::element_at(__irregfix_at, i)];
// CHECK:      static const unsigned char __irregfix_roles_0[] = {8, 18, 16, 1, 129};
// CHECK-NEXT: static const unsigned short __irregfix_sizes_0[] = {4, 4, 4, 4, 4};
// CHECK-NEXT: __irregfix_numbering_0 = {"product", nullptr, __irregfix_roles_0, __irregfix_sizes_0, 1, -1, 0, 1, 0};
// CHECK:      static const unsigned char __irregfix_roles_1[] = {1, 1, 4};
// CHECK-NEXT: static const unsigned short __irregfix_sizes_1[] = {4, 4, 8};
// CHECK-NEXT: __irregfix_numbering_1 = {"dot", nullptr, __irregfix_roles_1, __irregfix_sizes_1, -1, -1, -1, 1, 1};
// CHECK:      static const unsigned char __irregfix_roles_2[] = {1, 4};
// CHECK-NEXT: static const unsigned short __irregfix_sizes_2[] = {4, 4};
// CHECK-NEXT: __irregfix_numbering_2 = {"nonzero", nullptr,
// CHECK:      irregfix::numbered_launch(__irregfix_numbering_0, (long long)(n), 0, {d_starts, d_columns, d_values, d_p, d_ap});
// CHECK:      irregfix::numbered_launch(__irregfix_numbering_1, (long long)(n), 0, {d_p, d_ap, d_partial});
// CHECK-NEXT: (irregfix::numbered_positions() ? dot_irregfix_at<<<256, 256>>>(n, d_p, d_ap, d_partial, irregfix::numbered_positions()) : dot<<<256, 256>>>(n, d_p, d_ap, d_partial));
// CHECK:      nonzero<<<256, 256>>>(n, d_ap, d_total);
// CHECK:      irregfix_host_access(d_x);
// CHECK-NEXT: cudaMemcpy(&h, d_x, sizeof h, cudaMemcpyDeviceToHost);
// REMARK: remark: program-wide renumbering: the runtime may keep 'd_starts', 'd_columns', 'd_values', 'd_p', 'd_ap', 'd_x' in the locality order of 'product''s rows
// REMARK-SAME: 'dot' reads each element where the order keeps it, its sums grouped as the original's
// REMARK-NOT: get them back

// REASSOCIATE:      static const unsigned char __irregfix_roles_1[] = {1, 1, 4};
// REASSOCIATE-NEXT: static const unsigned short __irregfix_sizes_1[] = {4, 4, 8};
// REASSOCIATE-NEXT: __irregfix_numbering_1 = {"dot", nullptr,
// REASSOCIATE-NOT:  irregfix_at
// REASSOCIATE:      dot<<<256, 256>>>(n, d_p, d_ap, d_partial);
// REASSOCIATE-REMARK: --reassociate: the sums of 'dot' then group the elements otherwise, and may differ from the original's in the last bits
// REASSOCIATE-REMARK-NOT: get them back

// The runtime checks that the columns number the rows' own elements (a square
// matrix): the tool only sees that both launches renumber the same arrays.
// RECTANGLE: remark: program-wide renumbering: the runtime may keep
// OFFSET: remark: program-wide renumbering
// OFFSET-SAME: weighted (it uses row start 'starts[row]' other than to bound a loop over the row)

// EARLY: remark: program-wide renumbering
// EARLY-SAME: these launches get them back as numbered: dot (its floating-point sum over the elements would be regrouped by another numbering (--reassociate allows it); no variant reads it through the order: it is launched before its definition)
