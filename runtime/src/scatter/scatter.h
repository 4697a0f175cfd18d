// irregfix runtime: the inspector-executor of scatter sites (irregular
// reductions, `A[f[t]] += e`). The inspector (scatter_inspect.cu) turns the
// index arrays into segments: per distinct target element of A, the items
// (updates) that update it, in item order, and gives every item its slot in
// the contributions buffer, where the variant writes it. A short segment's
// items keep their own slots (the variant's stores stay coalesced; the
// executor gathers them back); a long segment's items get consecutive slots
// in a region after the items (the hot elements of a power law: the executor
// reads them contiguously). The executor (scatter_execute.cu) sums each
// segment's contributions and adds the sum to its element once.
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

// Segments of more than kShortSegment items are long: their items' slots lie
// in the region, in item order, and a warp sums them; those of more than
// kBlockSegment are cut evenly into chunks of at most kChunk (and at least
// kChunk / 2), a block summing each, and the
// chunks' sums are added in chunk order (a hot element of a power law spreads
// over the GPU; the order depends only on its length).
constexpr int kShortSegment = 32;
constexpr int kBlockSegment = 4096;
constexpr int kChunk = 4096;
// Chunks of `items` at most: a segment cut has more than kChunk items, so
// fewer than twice its length over kChunk chunks (ceil(length / kChunk)).
inline long long most_chunks(long long items) { return 2 * items / kChunk + 1; }

// Temporary bytes the inspector needs for `index` (keys, their sorted copy,
// item ids, run lengths, CUB's storage).
cudaError_t inspect_temp_bytes(const ScatterIndex &index, std::size_t *bytes);

// First pass, on `stream`: sorts (key of item p, p) by key, stably (CUB radix
// sort): the item ids in that order into threads[0..items); the distinct keys
// in order into targets; the number of distinct keys into *runs (device
// memory); each key's count into the temporary storage, for the second pass.
cudaError_t inspect_segments(const ScatterIndex &index, void *temp, std::size_t temp_bytes, unsigned *targets,
                             int *threads, int *runs, cudaStream_t stream);

// Second pass, once the host knows `runs`: first[s] = the position of segment
// s's first item, first[runs] = items (an exclusive sum of the counts);
// region_first[s] = segment s's first slot in the region (less `items`), the
// region's size at region_first[runs]; chunk_first[s] = segment s's first
// chunk, the chunks' count at chunk_first[runs]. sizes[0..1] (device memory)
// = the region's size and the chunks' count.
cudaError_t segment_firsts(const ScatterIndex &index, void *temp, std::size_t temp_bytes, int runs, int *first,
                           int *region_first, int *chunk_first, int *sizes, cudaStream_t stream);

// Third pass: slots[i] = i for the items of short segments; items + region
// position for those of long ones; chunk_segment[c] = chunk c's segment.
cudaError_t assign_slots(const ScatterIndex &index, void *temp, std::size_t temp_bytes, int runs, const int *first,
                         const int *threads, const int *region_first, const int *chunk_first, int *slots,
                         int *chunk_segment, cudaStream_t stream);

// Bytes of an element of A of the kind (a ScatterKind).
inline std::size_t scatter_elem_size(int kind) { return kind == kScatterF64 ? sizeof(double) : sizeof(float); }

// Bytes of one launch's contributions buffer (zeroed before the variant runs):
// items + region elements of the kind (the slots), then, at 256-byte
// boundaries, the chunks' sums (chunks elements) and the executor's list of
// the segments a warp sums (a count and at most region / (kShortSegment + 1)
// segment numbers); for assignments, a flag a slot instead (written_offset).
std::size_t contributions_bytes(long long items, long long region, long long chunks, int kind, bool assign);
std::size_t written_offset(long long items, long long region, int kind);

// The executor: A[target_first + targets[s]] += the sum of segment s's
// contributions: in item order for a short segment (one thread); for a long
// one, each lane of a warp summing a fixed stride of it, then a fixed tree;
// past kBlockSegment, the same in a block for each chunk, then the chunks'
// sums in order: the same order at every run. Segments whose target is `extent` (indices outside A) are skipped. For
// assignments (plan.written), one thread a segment stores the value of its
// highest written item, if any.
cudaError_t launch_executor(const ScatterPlan &plan, cudaStream_t stream);

} // namespace detail
} // namespace irregfix
