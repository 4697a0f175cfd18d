// irregfix runtime: remap kernels of range sites (lengths, ELL, SELL-32). See remap.cuh.
#include "remap_dispatch.cuh"

#include <cub/cub.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

namespace irregfix {
namespace detail {
namespace {

template <class Idx>
__global__ void lengths_kernel(const Idx *__restrict__ B, long long n, int *__restrict__ len,
                               long long *__restrict__ bounds) {
  long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; t < n;
       t += stride) {
    Idx lo = B[t], hi = B[t + 1];
    int l;
    if (hi < lo) {
      l = -1;
    } else {
      unsigned long long d = static_cast<unsigned long long>(hi) - static_cast<unsigned long long>(lo);
      l = d > static_cast<unsigned long long>(INT_MAX) ? -1 : static_cast<int>(d);
    }
    len[t] = l;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    bounds[0] = as_ll(B[0]);
    bounds[1] = as_ll(B[n]);
  }
}

// Column-major ELL remap of words W, K words per element (K == 0: k at run time).
// One block of kRemapRows threads handles `rpb` consecutive rows (a multiple of
// kRemapRows, so that a block moves enough bytes per round trip to memory). When
// the block's contiguous source segment fits in shared memory it is staged with
// coalesced reads and written out transposed (coalesced across t); otherwise
// short rows are copied thread-per-row and long rows block-cooperatively,
// straight from global memory. A window of iterations [ib, ie) (a hoisted
// launch's slice) takes the second way: staging would read the whole segment
// for every slice. Dynamic shared memory: rpb+1 offsets, then the segment.
template <class Idx, class W, int K>
__global__ void __launch_bounds__(kRemapRows)
    range_kernel(const Idx *__restrict__ B, long long n, long long first, long long last,
                 long long ib, long long ie, const W *__restrict__ A, int k_rt,
                 W *__restrict__ out, int rpb, long long seg_words_cap) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  long long *off = reinterpret_cast<long long *>(smem_raw);
  W *s = reinterpret_cast<W *>(smem_raw + ((static_cast<std::size_t>(rpb) + 1) * 8 + 15) / 16 * 16);
  const int k = K ? K : k_rt;
  const long long t0 = first + static_cast<long long>(blockIdx.x) * rpb;
  const long long left = last - t0;
  const int rows = left < rpb ? static_cast<int>(left) : rpb;
  for (int i = threadIdx.x; i <= rows; i += blockDim.x)
    off[i] = static_cast<long long>(B[t0 + i]);
  __syncthreads();
  const long long seg0 = off[0];
  const long long seg_words = (off[rows] - seg0) * k;
  const long long col = n * k;
  constexpr int V = sizeof(W) < 16 ? static_cast<int>(16 / sizeof(W)) : 1; // words per 16 bytes
  const bool whole = ib <= 0 && ie == LLONG_MAX;
  if (whole && seg_words >= 0 && seg_words + V <= seg_words_cap) {
    const W *src = A + seg0 * k;
    // Stage with 16-byte loads: place the segment so that sb[i] and src[i] share
    // their alignment modulo 16 (s itself is 16-byte aligned).
    const int shift = static_cast<int>((reinterpret_cast<std::uintptr_t>(src) / sizeof(W)) % V);
    W *sb = s + shift;
    long long head = (V - shift) % V;
    if (head > seg_words)
      head = seg_words;
    for (long long i = threadIdx.x; i < head; i += blockDim.x)
      sb[i] = src[i];
    const long long vecs = (seg_words - head) / V;
    const uint4 *vsrc = reinterpret_cast<const uint4 *>(src + head);
    uint4 *vdst = reinterpret_cast<uint4 *>(sb + head);
    for (long long i = threadIdx.x; i < vecs; i += blockDim.x)
      vdst[i] = vsrc[i];
    for (long long i = head + vecs * V + threadIdx.x; i < seg_words; i += blockDim.x)
      sb[i] = src[i];
    __syncthreads();
    s = sb;
    for (int r = threadIdx.x; r < rows; r += blockDim.x) {
      const long long beg = (off[r] - seg0) * k;
      const long long L = off[r + 1] - off[r];
      W *dst = out + (t0 + r) * k;
      for (long long it = 0; it < L; ++it)
        for (int j = 0; j < k; ++j)
          dst[it * col + j] = s[beg + it * k + j];
    }
    return;
  }
  constexpr long long kShort = 32;
  const long long from = ib > 0 ? ib : 0;
  for (int r = threadIdx.x; r < rows; r += blockDim.x) {
    const long long L = off[r + 1] - off[r];
    if (L <= kShort) {
      const W *src = A + off[r] * k;
      W *dst = out + (t0 + r) * k;
      const long long to = L < ie ? L : ie;
      for (long long it = from; it < to; ++it)
        for (int j = 0; j < k; ++j)
          dst[it * col + j] = src[it * k + j];
    }
  }
  for (int q = 0; q < rows; ++q) {
    const long long L = off[q + 1] - off[q];
    if (L <= kShort)
      continue;
    const W *src = A + off[q] * k;
    W *dst = out + (t0 + q) * k;
    const long long to = L < ie ? L : ie;
    for (long long e = threadIdx.x + from * k; e < to * k; e += blockDim.x) {
      const long long it = e / k, j = e - it * k;
      dst[it * col + j] = src[e];
    }
  }
}


// Width of SELL-32 slice s in cells: 32 * the longest row of the slice; 0 for
// s == nslices (so that the exclusive scan's last element is the total).
struct SliceCells {
  const int *len;
  long long n;
  __host__ __device__ long long operator()(long long s) const {
    const long long t0 = s * 32;
    int m = 0;
    for (long long t = t0; t < t0 + 32 && t < n; ++t) {
      const int l = len[t];
      m = l > m ? l : m;
    }
    return 32LL * m;
  }
};

// SELL-32 copy, thread per row: the writes of a warp at one iter are 32
// consecutive elements of the slice; the reads of a row are contiguous.
template <class Idx, class W, int K>
__global__ void __launch_bounds__(256)
    sell_kernel(const Idx *__restrict__ B, long long first, long long last, int ib, int ie,
                const int *__restrict__ len, const long long *__restrict__ slice_start,
                const int *__restrict__ perm, const W *__restrict__ A, int k_rt,
                W *__restrict__ out) {
  const int k = K ? K : k_rt;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long t = first + static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
       t < last; t += stride) {
    const int L = len[t]; // physical order
    const int to = L < ie ? L : ie;
    if (ib >= to)
      continue;
    const long long row = perm ? perm[t] : t;
    const W *src = A + static_cast<long long>(B[row]) * k;
    W *dst = out + (slice_start[t >> 5] + (t & 31)) * k;
#pragma unroll 4
    for (int it = ib; it < to; ++it)
      for (int j = 0; j < k; ++j)
        dst[static_cast<long long>(it) * 32 * k + j] = src[static_cast<long long>(it) * k + j];
  }
}


template <class Idx, class W, int K>
cudaError_t launch_range(const Idx *B, long long n, Rows rows, const void *A, int k, void *out,
                         const RangePlan &plan, cudaStream_t stream) {
  const long long rpb = plan.rows_per_block;
  unsigned blocks = static_cast<unsigned>((rows.count() + rpb - 1) / rpb);
  const std::size_t off_bytes = (static_cast<std::size_t>(rpb) + 1) * 8;
  const std::size_t head = (off_bytes + 15) / 16 * 16;
  const long long words = static_cast<long long>(plan.segment_bytes / sizeof(W));
  range_kernel<Idx, W, K><<<blocks, kRemapRows, head + plan.segment_bytes, stream>>>(
      B, n, rows.first, rows.last, rows.iter_first, rows.iter_last, static_cast<const W *>(A), k,
      static_cast<W *>(out), plan.rows_per_block, words);
  return cudaPeekAtLastError();
}


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

cudaError_t range_lengths(const void *B, int b_kind, long long n, int *len, long long *bounds,
                          cudaStream_t stream) {
  return with_index_type(b_kind, [&](auto tag) -> cudaError_t {
    using Idx = std::remove_const_t<std::remove_pointer_t<decltype(tag)>>;
    lengths_kernel<Idx><<<grid_for(n, 256), 256, 0, stream>>>(static_cast<const Idx *>(B), n, len,
                                                              bounds);
    return cudaPeekAtLastError();
  });
}

RangePlan plan_range(long long nnz, long long n, std::size_t elem_size, int rows_per_block) {
  RangePlan p;
  p.rows_per_block = kRemapRows;
  p.segment_bytes = 4096;
  if (n <= 0 || nnz <= 0 || elem_size == 0)
    return p;
  const double row_bytes = static_cast<double>(nnz) / static_cast<double>(n) *
                           static_cast<double>(elem_size);
  // Enough rows that a block's average segment is >= 8 KiB (bytes in flight per
  // block), up to kMaxRowsPerBlock.
  if (rows_per_block > 0)
    p.rows_per_block = rows_per_block;
  else
    while (p.rows_per_block < kMaxRowsPerBlock && row_bytes * p.rows_per_block < 8192.0)
      p.rows_per_block *= 2;
  // Room for about twice the average segment, within the 48 KiB a block may use
  // without opting in (the offsets take (rows + 1) * 8 bytes of it).
  const std::size_t offsets = (static_cast<std::size_t>(p.rows_per_block) + 1) * 8 + 16;
  const std::size_t hi = 48 * 1024 - offsets;
  const double want = 2.0 * row_bytes * p.rows_per_block + 1024.0;
  std::size_t b = want >= static_cast<double>(hi) ? hi : static_cast<std::size_t>(want);
  b = b / 16 * 16;
  p.segment_bytes = b < 4096 ? 4096 : b;
  return p;
}

cudaError_t remap_range(const void *B, int b_kind, long long n, Rows rows, const void *A,
                        std::size_t elem_size, void *out, const RangePlan &plan,
                        cudaStream_t stream) {
  if (rows.first < 0 || rows.last > n)
    return cudaErrorInvalidValue;
  if (rows.count() == 0)
    return cudaSuccess;
  if (plan.rows_per_block < kRemapRows || plan.rows_per_block > kMaxRowsPerBlock ||
      plan.rows_per_block % kRemapRows != 0)
    return cudaErrorInvalidValue;
  return with_index_and_word(b_kind, A, elem_size, [&](auto tag, auto wtag, auto ktag, int k) {
    using Idx = TagType<decltype(tag)>;
    return launch_range<Idx, TagType<decltype(wtag)>, decltype(ktag)::value>(
        static_cast<const Idx *>(B), n, rows, A, k, out, plan, stream);
  });
}

cudaError_t sell_slices(const int *len, long long n, long long *slice_start, void *temp,
                        std::size_t *temp_bytes, cudaStream_t stream) {
  const long long items = (n + 31) / 32 + 1;
  auto in = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0),
                                            SliceCells{len, n});
  return cub::DeviceScan::ExclusiveSum(temp, *temp_bytes, in, slice_start, items, stream);
}

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

cudaError_t remap_sell(const void *B, int b_kind, Rows rows, const int *len,
                       const long long *slice_start, const int *perm, const void *A,
                       std::size_t elem_size, void *out, cudaStream_t stream) {
  if (rows.count() == 0)
    return cudaSuccess;
  return with_index_and_word(b_kind, A, elem_size, [&](auto tag, auto wtag, auto ktag, int k) {
    using Idx = TagType<decltype(tag)>;
    using W = TagType<decltype(wtag)>;
    sell_kernel<Idx, W, decltype(ktag)::value><<<grid_for(rows.count(), 256), 256, 0, stream>>>(
        static_cast<const Idx *>(B), rows.first, rows.last, iteration_int(rows.iter_first),
        iteration_int(rows.iter_last), len, slice_start, perm, static_cast<const W *>(A), k,
        static_cast<W *>(out));
    return cudaPeekAtLastError();
  });
}

} // namespace detail
} // namespace irregfix
