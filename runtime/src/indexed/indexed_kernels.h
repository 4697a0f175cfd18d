// irregfix runtime: the reductions of indexed copies (indexed_build.cu), with
// CUB: the summary of the lengths the launcher computed, and the extent of the
// element indices it computed. The copies themselves are gathers through
// those indices (remap_gather, long long indices). See remap.cuh.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace irregfix {
namespace detail {

// Every byte of an index slot the launcher's kernel does not fill: a long long
// of about -9.2e18, outside any allocation, so the gather skips the slot.
constexpr unsigned char kUnfilledIndexByte = 0x80;

// The lengths of a loop site, len[0..n), a negative one counting as 0: their
// sum (the elements a copy holds), the rows with a non-zero length, and the
// greatest (0 when none is positive).
struct LengthSummary {
  long long sum;
  long long rows;
  long long max;
};

// Writes the summary of len[0..n) to *out (device memory). With temp null,
// only sets *temp_bytes.
cudaError_t summarize_lengths(const int *len, long long n, LengthSummary *out, void *temp,
                              std::size_t *temp_bytes, cudaStream_t stream);

// The least and the greatest of the indices idx[0..cells) that lie in [lo, hi)
// into out[0] and out[1] (device memory); LLONG_MAX and LLONG_MIN when none
// does. With temp null, only sets *temp_bytes.
cudaError_t valid_index_bounds(const long long *idx, long long cells, long long lo, long long hi,
                               long long *out, void *temp, std::size_t *temp_bytes,
                               cudaStream_t stream);

} // namespace detail
} // namespace irregfix
