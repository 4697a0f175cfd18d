// irregfix runtime: SELL-32-sigma's sort (its own module: only sigma builds load
// it). See remap.cuh.
#include "remap.cuh"

#include <cub/cub.cuh>

#include <climits>

namespace irregfix {
namespace detail {
namespace {

// SELL-32-sigma's sort, one kernel: each block sorts a tile of kSigmaTile
// threads (several whole windows, sigma dividing the tile) in registers and
// shared memory with CUB's block radix sort. The key puts the window inside the
// tile in the high half and the length, descending, in the low half; the sort
// is stable, so equal lengths keep thread order. In place: a block reads its
// tile's lengths before it writes them back permuted.
constexpr int kSigmaThreads = 256, kSigmaItems = 16;
static_assert(kSigmaThreads * kSigmaItems == kSigmaTile, "tile");

__global__ void __launch_bounds__(kSigmaThreads)
    sigma_sort_kernel(int *__restrict__ len, long long n, int sigma, int end_bit,
                      int *__restrict__ perm) {
  using Sort = cub::BlockRadixSort<unsigned long long, kSigmaThreads, kSigmaItems, int>;
  __shared__ typename Sort::TempStorage temp;
  const long long base = static_cast<long long>(blockIdx.x) * kSigmaTile;
  unsigned long long keys[kSigmaItems];
  int ids[kSigmaItems];
  for (int i = 0; i < kSigmaItems; ++i) {
    const int at = threadIdx.x * kSigmaItems + i;
    const long long t = base + at;
    if (t < n) {
      keys[i] = (static_cast<unsigned long long>(at / sigma) << 32) |
                static_cast<unsigned>(INT_MAX - len[t]);
      ids[i] = static_cast<int>(t);
    } else {
      keys[i] = ~0ULL; // after every real thread of the tile
      ids[i] = -1;
    }
  }
  Sort(temp).Sort(keys, ids, 0, end_bit);
  for (int i = 0; i < kSigmaItems; ++i) {
    const long long p = base + threadIdx.x * kSigmaItems + i;
    if (p < n) {
      perm[p] = ids[i];
      len[p] = INT_MAX - static_cast<int>(keys[i] & 0xffffffffu);
    }
  }
}

} // namespace

cudaError_t sigma_sort(int *len, long long n, int sigma, int *perm, cudaStream_t stream) {
  if (n <= 0 || n > INT_MAX || sigma < 32 || sigma > kSigmaTile || kSigmaTile % sigma != 0)
    return cudaErrorInvalidValue;
  // Window indices inside a tile take log2(kSigmaTile / sigma) bits; all padding
  // keys are ~0, so sorting one more bit than the real keys need keeps them last.
  int end_bit = 33;
  for (int w = kSigmaTile / sigma; w > 1; w >>= 1)
    ++end_bit;
  const unsigned blocks = static_cast<unsigned>((n + kSigmaTile - 1) / kSigmaTile);
  sigma_sort_kernel<<<blocks, kSigmaThreads, 0, stream>>>(len, n, sigma, end_bit, perm);
  return cudaPeekAtLastError();
}

} // namespace detail
} // namespace irregfix
