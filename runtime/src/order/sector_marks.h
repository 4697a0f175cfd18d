// irregfix runtime: the sampled measure (order.h) counted without a sort,
// where every sample block's bitmap of the sectors it reads fits
// kSampleBitmapBytes. Its one kernel is a module of its own: a program that
// only measures (its data well numbered, no order computed) loads neither the
// sort's kernels nor the order's (MD numbered by cell on an H200: 1.3 ms less
// of a 270 ms run; the measure itself takes 32 us).
#pragma once

#include "order.h"

#include <cuda_runtime.h>

#include <cstddef>

namespace irregfix {
namespace detail {

constexpr long long kSampleBitmapBytes = 32LL << 20;

// The sampled blocks of n threads.
inline long long sample_blocks(long long n) {
  const long long nblocks = (n + kOrderBlock - 1) / kOrderBlock;
  return nblocks < kOrderSampleBlocks ? nblocks : kOrderSampleBlocks;
}

// Whether a's sample is counted by bitmaps at per_sector, and their bytes.
bool sector_marks_fit(const AccessList &a, int per_sector, std::size_t *bytes);

// Enqueues the measure of order perm (null: the threads' own), elements
// renumbered by `renumber` (null: as read), into counts[0] (distinct sectors)
// and counts[1] (reads), which the caller has zeroed; `bits`:
// sector_marks_fit's bytes of device scratch.
cudaError_t mark_sectors(const AccessList &a, const int *perm, const int *renumber, int per_sector, void *bits,
                         std::size_t bytes, unsigned long long *counts, cudaStream_t stream);

// Loads the measure's kernel now (CUDA loads a module at its first use), so
// that a measure expected a few launches later does not wait for the load.
cudaError_t load_sector_marks();

} // namespace detail
} // namespace irregfix
