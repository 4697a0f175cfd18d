// irregfix runtime: the fingerprint of a byte range for IRREGFIX_VERIFY (see
// verify.h): the sum, modulo 2^64, of a mix of each 8-byte word with its
// position, so that a changed, moved or swapped word changes it. A range need
// not be aligned: words are counted from the 8-byte boundary at or below its
// start, and the bytes of the first and last words outside it count as zero
// (they are not read), so a write just outside an extent is not a change.
#include "verify.h"

#include <cub/block/block_reduce.cuh>

#include <cstdint>

namespace irregfix {
namespace detail {
namespace {

constexpr int kThreads = 256;
constexpr long long kMaxBlocks = 1024;

// splitmix64's finaliser: every input bit reaches every output bit.
__device__ __forceinline__ unsigned long long mix64(unsigned long long x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Word i from `aligned`, the range starting `head` bytes after it and `bytes` long.
__device__ __forceinline__ unsigned long long word_at(const unsigned char *aligned, long long head,
                                                      long long bytes, long long i) {
  const long long first = i * 8 - head; // the word's first byte, relative to the range
  if (first >= 0 && first + 8 <= bytes)
    return reinterpret_cast<const unsigned long long *>(aligned)[i];
  unsigned long long w = 0; // a partial word: its bytes inside the range only
  for (int b = 0; b < 8; ++b)
    if (first + b >= 0 && first + b < bytes)
      w |= static_cast<unsigned long long>(aligned[i * 8 + b]) << (8 * b);
  return w;
}

__global__ void __launch_bounds__(kThreads)
    fingerprint_kernel(const unsigned char *aligned, long long head, long long bytes, long long words,
                       unsigned long long *out) {
  unsigned long long sum = 0;
  const long long stride = static_cast<long long>(gridDim.x) * kThreads;
  for (long long i = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x; i < words; i += stride)
    sum += mix64(word_at(aligned, head, bytes, i) ^ mix64(static_cast<unsigned long long>(i)));
  using Reduce = cub::BlockReduce<unsigned long long, kThreads>;
  __shared__ typename Reduce::TempStorage temp;
  const unsigned long long block = Reduce(temp).Sum(sum);
  if (threadIdx.x == 0)
    atomicAdd(out, block); // addition modulo 2^64 commutes: the order of blocks does not matter
}

} // namespace

cudaError_t add_fingerprint(const void *p, std::size_t bytes, unsigned long long *out,
                            cudaStream_t stream) {
  if (bytes == 0)
    return cudaSuccess;
  const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(p);
  const long long head = static_cast<long long>(at % 8);
  const long long words = (head + static_cast<long long>(bytes) + 7) / 8;
  const long long blocks = (words + kThreads - 1) / kThreads;
  fingerprint_kernel<<<static_cast<unsigned>(blocks < kMaxBlocks ? blocks : kMaxBlocks), kThreads, 0,
                       stream>>>(reinterpret_cast<const unsigned char *>(at - head), head,
                                 static_cast<long long>(bytes), words, out);
  return cudaPeekAtLastError();
}

} // namespace detail
} // namespace irregfix
