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

// What the inspector reads: the index arrays of the updates, f_k[0..n) each;
// update k of thread t is item t * updates + k. An index i is a target when
// lo <= i < lo + extent (A's allocation), and is then key i - lo.
struct ScatterIndex {
  ScatterIndices f;
  long long n = 0;        // threads
  long long lo = 0;
  unsigned extent = 0;    // below UINT_MAX: the key `extent` marks indices outside A
  // Items (updates of all threads): at most INT_MAX (item ids are ints).
  long long items() const { return n * f.count; }
};

// Temporary bytes the inspector needs for `index` (keys, their sorted copy,
// item ids, run lengths, CUB's storage).
cudaError_t inspect_temp_bytes(const ScatterIndex &index, std::size_t *bytes);

// First pass, on `stream`: sorts (key of item p, p) by key, stably (CUB radix
// sort), into threads[0..items); the distinct keys in order into targets; the
// number of distinct keys into *runs (device memory); each key's count into
// the temporary storage, for segment_firsts.
cudaError_t inspect_segments(const ScatterIndex &index, void *temp, std::size_t temp_bytes, unsigned *targets,
                             int *threads, int *runs, cudaStream_t stream);

// Second pass, once the host knows `runs`: first[s] = the position of segment
// s's first item, first[runs] = items (an exclusive sum of the counts).
cudaError_t segment_firsts(const ScatterIndex &index, void *temp, std::size_t temp_bytes, int runs, int *first,
                           cudaStream_t stream);

// Bytes of an element of A of the kind (a ScatterKind).
inline std::size_t scatter_elem_size(int kind) { return kind == kScatterF64 ? sizeof(double) : sizeof(float); }

// Bytes of one launch's contributions buffer (zeroed before the variant runs):
// n elements of the kind, then, at a 256-byte boundary, the executor's list of
// long segments (a count, then at most n / 257 segment numbers); for
// assignments, n flags instead (written_offset).
std::size_t contributions_bytes(long long n, int kind, bool assign);
std::size_t written_offset(long long n, int kind);

// The executor: A[target_first + targets[s]] += the sum of segment s's threads'
// contributions, in thread order for a segment of at most 256 (one thread),
// in a fixed strided-then-tree order for a longer one (a block): the same
// order at every run. Segments whose target is `extent` (indices outside A)
// are skipped. For assignments (plan.written), one thread a segment stores the
// value of its highest written item, if any.
cudaError_t launch_executor(const ScatterPlan &plan, cudaStream_t stream);

} // namespace detail
} // namespace irregfix
