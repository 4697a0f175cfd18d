// irregfix runtime: the inspector-executor of scatter sites (irregular
// reductions, `A[f[t]] += e`). The inspector (scatter_inspect.cu) turns the
// index array f into segments: per distinct target element of A, the threads
// that update it, in thread order. The executor (scatter_execute.cu) sums each
// segment's contributions in that order and adds the sum to its element once.
// The API (prepare_scatter, execute_scatter) and the cache entry are scatter.cu's.
#pragma once

#include <irregfix/irregfix.cuh>

#include <cuda_runtime.h>

#include <cstddef>

namespace irregfix {
namespace detail {

// What the inspector reads: f[0..n) of kind f_kind; an index i is a target
// when lo <= i < lo + extent (A's allocation), and is then key i - lo.
struct ScatterIndex {
  const void *f = nullptr;
  int f_kind = kIndexI32;
  long long n = 0;        // at most INT_MAX (thread ids are ints)
  long long lo = 0;
  unsigned extent = 0;    // below UINT_MAX: the key `extent` marks indices outside A
};

// Temporary bytes the inspector needs for `index` (keys, their sorted copy,
// thread ids, run lengths, CUB's storage).
cudaError_t inspect_temp_bytes(const ScatterIndex &index, std::size_t *bytes);

// First pass, on `stream`: sorts (key(f[t]), t) by key, stably (CUB radix
// sort), into threads[0..n); the distinct keys in order into targets; the
// number of distinct keys into *runs (device memory); each key's count into
// the temporary storage, for segment_firsts.
cudaError_t inspect_segments(const ScatterIndex &index, void *temp, std::size_t temp_bytes, unsigned *targets,
                             int *threads, int *runs, cudaStream_t stream);

// Second pass, once the host knows `runs`: first[s] = the position of segment
// s's first thread, first[runs] = n (an exclusive sum of the counts).
cudaError_t segment_firsts(const ScatterIndex &index, void *temp, std::size_t temp_bytes, int runs, int *first,
                           cudaStream_t stream);

// The executor, one thread per segment: A[target_first + targets[s]] += the
// sum, in thread order, of its threads' contributions. Segments whose target
// is `extent` (indices outside A) are skipped.
cudaError_t launch_executor(const ScatterPlan &plan, cudaStream_t stream);

} // namespace detail
} // namespace irregfix
