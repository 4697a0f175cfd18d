// irregfix runtime: index lists and data gathered into a locality order for
// the layouts' copies (neighbour lists permuted and transposed, SELL-32
// copies renumbered, renumbered gathers). See order.h.
#include "order.h"

#include "access_list.cuh"
#include "gather_order.cuh"
#include "order_kernels.cuh"
#include "remap_dispatch.cuh"

#include <climits>
#include <cstdint>

namespace irregfix {
namespace detail {
namespace {

using order_kernels::kThreads;

__global__ void __launch_bounds__(kThreads)
    permute_neighbors_kernel(AccessList a, const int *__restrict__ perm, long long first, long long last,
                             int *__restrict__ out) {
  const long long stride = static_cast<long long>(gridDim.x) * kThreads;
  for (long long p = first + static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x; p < last; p += stride) {
    long long start = 0;
    const long long len = access_count(a, perm[p], &start);
    for (long long j = 0; j < len; ++j) {
      long long e = 0;
      if (access_elem(a, start, j, &e))
        out[j * a.n + p] = static_cast<int>(e);
    }
  }
}

// Tile transposes: 32 x 32 ints through shared memory, 32 x 8 threads.
constexpr int kTile = 32, kTileRows = 8;

// rows[inv[t] * jmax + j] = NB[j * sj + t]: read along t, written along j.
__global__ void __launch_bounds__(kTile * kTileRows)
    stage_rows_kernel(const int *__restrict__ nb, long long sj, long long n, long long jmax,
                      const int *__restrict__ inv, int *__restrict__ rows) {
  __shared__ int tile[kTile][kTile + 1];
  const long long t0 = static_cast<long long>(blockIdx.x) * kTile, j0 = static_cast<long long>(blockIdx.y) * kTile;
  for (int r = threadIdx.y; r < kTile; r += kTileRows) {
    const long long t = t0 + threadIdx.x, j = j0 + r;
    if (t < n && j < jmax)
      tile[r][threadIdx.x] = nb[j * sj + t];
  }
  __syncthreads();
  for (int r = threadIdx.y; r < kTile; r += kTileRows) {
    const long long t = t0 + r, j = j0 + threadIdx.x;
    if (t < n && j < jmax)
      rows[static_cast<long long>(inv[t]) * jmax + j] = tile[threadIdx.x][r];
  }
}

// out[j * n + p] = rows[p * jmax + j] for p in [first, last): read along j, written along p.
__global__ void __launch_bounds__(kTile * kTileRows)
    rows_to_columns_kernel(const int *__restrict__ rows, long long n, long long jmax, long long first,
                           long long last, int *__restrict__ out) {
  __shared__ int tile[kTile][kTile + 1];
  const long long p0 = first + static_cast<long long>(blockIdx.x) * kTile, j0 = static_cast<long long>(blockIdx.y) * kTile;
  for (int r = threadIdx.y; r < kTile; r += kTileRows) {
    const long long p = p0 + r, j = j0 + threadIdx.x;
    if (p < last && j < jmax)
      tile[r][threadIdx.x] = rows[p * jmax + j];
  }
  __syncthreads();
  for (int r = threadIdx.y; r < kTile; r += kTileRows) {
    const long long p = p0 + threadIdx.x, j = j0 + r;
    if (p < last && j < jmax)
      out[j * n + p] = tile[threadIdx.x][r];
  }
}

__global__ void __launch_bounds__(kThreads)
    permute_ints_kernel(const int *__restrict__ in, const int *__restrict__ perm, long long n, int *__restrict__ out) {
  const long long stride = static_cast<long long>(gridDim.x) * kThreads;
  for (long long p = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x; p < n; p += stride)
    out[p] = in[perm[p]];
}

// A SELL-32 copy's values v in [0, n) become renumber[v], one thread a row.
__global__ void __launch_bounds__(kThreads)
    renumber_sell_kernel(long long first, long long last, int ib, int ie, const int *__restrict__ len,
                         const long long *__restrict__ slice_start, const int *__restrict__ renumber,
                         long long n, int *__restrict__ copy) {
  const long long stride = static_cast<long long>(gridDim.x) * kThreads;
  for (long long t = first + static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x; t < last; t += stride) {
    const int L = len[t];
    const int to = L < ie ? L : ie;
    int *at = copy + slice_start[t >> 5] + (t & 31);
    for (int it = ib; it < to; ++it) {
      const int v = at[static_cast<long long>(it) * 32];
      if (v >= 0 && v < n)
        at[static_cast<long long>(it) * 32] = renumber[v];
    }
  }
}

} // namespace

cudaError_t permute_neighbors(const AccessList &a, const int *perm, Rows rows, int *out, cudaStream_t stream) {
  if (rows.first < 0 || rows.last > a.n || !perm || !out)
    return cudaErrorInvalidValue;
  if (rows.count() == 0)
    return cudaSuccess;
  permute_neighbors_kernel<<<grid_for(rows.count(), kThreads), kThreads, 0, stream>>>(a, perm, rows.first,
                                                                                    rows.last, out);
  return cudaPeekAtLastError();
}

bool stageable(const AccessList &a) {
  return a.kind == AccessList::kNeighbors && a.idx_kind == kIndexI32 && a.st == 1 && a.sj >= a.n && a.jmax > 0 &&
         a.n > 0;
}

cudaError_t stage_rows(const AccessList &a, const int *inv, int *rows, cudaStream_t stream) {
  if (!stageable(a) || !inv || !rows)
    return cudaErrorInvalidValue;
  const long long tiles_t = (a.n + kTile - 1) / kTile, tiles_j = (a.jmax + kTile - 1) / kTile;
  if (tiles_t > INT_MAX || tiles_j > 65535)
    return cudaErrorInvalidValue;
  stage_rows_kernel<<<dim3(static_cast<unsigned>(tiles_t), static_cast<unsigned>(tiles_j)), dim3(kTile, kTileRows), 0,
                      stream>>>(static_cast<const int *>(a.idx), a.sj, a.n, a.jmax, inv, rows);
  return cudaPeekAtLastError();
}

cudaError_t rows_to_columns(const int *rows, long long n, long long jmax, Rows part, int *out, cudaStream_t stream) {
  if (part.first < 0 || part.last > n || !rows || !out)
    return cudaErrorInvalidValue;
  if (part.count() == 0 || jmax <= 0)
    return cudaSuccess;
  const long long tiles_p = (part.count() + kTile - 1) / kTile, tiles_j = (jmax + kTile - 1) / kTile;
  if (tiles_p > INT_MAX || tiles_j > 65535)
    return cudaErrorInvalidValue;
  rows_to_columns_kernel<<<dim3(static_cast<unsigned>(tiles_p), static_cast<unsigned>(tiles_j)), dim3(kTile, kTileRows),
                           0, stream>>>(rows, n, jmax, part.first, part.last, out);
  return cudaPeekAtLastError();
}

cudaError_t permute_ints(const int *in, const int *perm, long long n, int *out, cudaStream_t stream) {
  if (n <= 0)
    return cudaSuccess;
  permute_ints_kernel<<<grid_for(n, kThreads), kThreads, 0, stream>>>(in, perm, n, out);
  return cudaPeekAtLastError();
}

cudaError_t renumber_sell(Rows rows, const int *len, const long long *slice_start, const int *renumber, long long n,
                          int *copy, cudaStream_t stream) {
  if (rows.count() == 0)
    return cudaSuccess;
  renumber_sell_kernel<<<grid_for(rows.count(), kThreads), kThreads, 0, stream>>>(
      rows.first, rows.last, iteration_int(rows.iter_first), iteration_int(rows.iter_last), len, slice_start,
      renumber, n, copy);
  return cudaPeekAtLastError();
}

cudaError_t gather_in_order(const int *perm, long long n, long long lo, long long hi, const void *x,
                            std::size_t elem_size, void *out, cudaStream_t stream) {
  return gather_in_order_here(perm, n, lo, hi, x, elem_size, out, stream);
}

} // namespace detail
} // namespace irregfix
