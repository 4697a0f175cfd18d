// irregfix runtime: GPU remap kernels (column-major ELL for range sites, dense
// copies for gathers) and the CUB reductions that size and validate them.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace irregfix {
namespace detail {

// Rows (threads of the original kernel) handled by one remap block.
constexpr int kRemapRows = 256;

// len[t] = B[t+1] - B[t] for t in [0, n), or -1 where that is negative or does
// not fit an int. bounds[0] = B[0], bounds[1] = B[n] (device, as long long).
cudaError_t range_lengths(const void *B, int b_kind, long long n, int *len, long long *bounds,
                          cudaStream_t stream);

// CUB min and max of len[0..n) into out[0], out[1] (device). With temp null,
// only sets *temp_bytes to the scratch size needed.
cudaError_t minmax_lengths(const int *len, long long n, int *out, void *temp,
                           std::size_t *temp_bytes, cudaStream_t stream);

// CUB min and max of the index array B[0..n) (of kind b_kind) into out[0], out[1],
// each stored in 8 bytes as the index type itself (read back with index_to_ll).
cudaError_t minmax_indices(const void *B, int b_kind, long long n, void *out, void *temp,
                           std::size_t *temp_bytes, cudaStream_t stream);
// Decodes one 8-byte slot written by minmax_indices; false if it does not fit
// a long long.
bool index_to_ll(const void *slot, int b_kind, long long *value);

// Shared-memory staging capacity used for a remap of nnz elements over n rows.
std::size_t range_smem_bytes(long long nnz, long long n, std::size_t elem_size);

// out[iter*n + t] = A[B[t] + iter] for iter < B[t+1]-B[t]; padding is not written.
// Lengths must have been validated (non-negative) before.
cudaError_t remap_range(const void *B, int b_kind, long long n, const void *A,
                        std::size_t elem_size, void *out, std::size_t smem_bytes,
                        cudaStream_t stream);

// out[t] = A[B[t]] for t in [0, n).
cudaError_t remap_gather(const void *B, int b_kind, long long n, const void *A,
                         std::size_t elem_size, void *out, cudaStream_t stream);

} // namespace detail
} // namespace irregfix
