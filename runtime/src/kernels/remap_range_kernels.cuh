// irregfix runtime: the kernels of range sites, the lengths and the copies
// (column-major ELL and SELL-32), and their typed launches, LengthsModule and
// RangeModule (see remap_dispatch.cuh): instantiated in the generated modules
// range_<index>.cu (the lengths and the plain words' copies) and
// range_<index>_composite.cu (remap_module.cu.in).
#pragma once

#include "remap_dispatch.cuh"

#include <cuda/std/limits>

namespace irregfix {
namespace detail {
namespace {

constexpr int kLengthsBlock = 256;

// Sets a min/max pair to its reductions' identities (a template: only the
// modules that launch it hold it).
template <class T> __global__ void init_minmax(T *minmax) {
  minmax[0] = cuda::std::numeric_limits<T>::max();
  minmax[1] = cuda::std::numeric_limits<T>::lowest();
}

// The lengths, and their min and max: per warp, per block (shared memory), then
// one atomic each a block into minmax (set by init_minmax before).
template <class Idx>
__global__ void __launch_bounds__(kLengthsBlock)
    lengths_kernel(const Idx *__restrict__ B, long long n, int *__restrict__ len,
                   int *__restrict__ minmax, long long *__restrict__ bounds) {
  __shared__ int red[2];
  if (threadIdx.x == 0) {
    red[0] = INT_MAX;
    red[1] = INT_MIN;
  }
  __syncthreads();
  int mn = INT_MAX, mx = INT_MIN;
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
    mn = l < mn ? l : mn;
    mx = l > mx ? l : mx;
  }
  mn = warp_min(mn);
  mx = warp_max(mx);
  if ((threadIdx.x & 31) == 0) {
    atomicMin(&red[0], mn);
    atomicMax(&red[1], mx);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicMin(&minmax[0], red[0]);
    atomicMax(&minmax[1], red[1]);
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    bounds[0] = as_ll(B[0]);
    bounds[1] = as_ll(B[n]);
  }
}

// ELL remap (ell_slot: blocks of 32 threads, `width` cells a thread) of words
// W, K words per element (K == 0: k at run time).
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
    range_kernel(const Idx *__restrict__ B, long long width, long long first, long long last,
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
  const long long col = 32LL * k; // from one iteration to the next
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
      W *dst = out + ell_slot(t0 + r, 0, width) * k;
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
      W *dst = out + ell_slot(t0 + r, 0, width) * k;
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
    W *dst = out + ell_slot(t0 + q, 0, width) * k;
    const long long to = L < ie ? L : ie;
    for (long long e = threadIdx.x + from * k; e < to * k; e += blockDim.x) {
      const long long it = e / k, j = e - it * k;
      dst[it * col + j] = src[e];
    }
  }
}


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
cudaError_t launch_range(const Idx *B, long long width, Rows rows, const void *A, int k, void *out,
                         const RangePlan &plan, cudaStream_t stream) {
  const long long rpb = plan.rows_per_block;
  unsigned blocks = static_cast<unsigned>((rows.count() + rpb - 1) / rpb);
  const std::size_t off_bytes = (static_cast<std::size_t>(rpb) + 1) * 8;
  const std::size_t head = (off_bytes + 15) / 16 * 16;
  const long long words = static_cast<long long>(plan.segment_bytes / sizeof(W));
  range_kernel<Idx, W, K><<<blocks, kRemapRows, head + plan.segment_bytes, stream>>>(
      B, width, rows.first, rows.last, rows.iter_first, rows.iter_last, static_cast<const W *>(A), k,
      static_cast<W *>(out), plan.rows_per_block, words);
  return cudaPeekAtLastError();
}

} // namespace

template <class Idx>
cudaError_t LengthsModule<Idx>::lengths(const Idx *B, long long n, int *len, int *minmax,
                                        long long *bounds, cudaStream_t stream) {
  init_minmax<int><<<1, 1, 0, stream>>>(minmax);
  const cudaError_t e = cudaPeekAtLastError();
  if (e != cudaSuccess)
    return e;
  lengths_kernel<Idx><<<grid_for(n, kLengthsBlock), kLengthsBlock, 0, stream>>>(B, n, len, minmax,
                                                                                bounds);
  return cudaPeekAtLastError();
}

template <class Idx, WordClass C>
cudaError_t RangeModule<Idx, C>::range(const Idx *B, long long width, Rows rows, const void *A,
                                       WordKind w, int k, void *out, const RangePlan &plan,
                                       cudaStream_t stream) {
  return with_word_of_class<C>(w, [&](auto wtag, auto ktag) -> cudaError_t {
    return launch_range<Idx, TagType<decltype(wtag)>, decltype(ktag)::value>(B, width, rows, A, k, out,
                                                                              plan, stream);
  });
}

template <class Idx, WordClass C>
cudaError_t RangeModule<Idx, C>::sell(const Idx *B, Rows rows, const int *len,
                                      const long long *slice_start, const int *perm, const void *A,
                                      WordKind w, int k, void *out, cudaStream_t stream) {
  return with_word_of_class<C>(w, [&](auto wtag, auto ktag) -> cudaError_t {
    using W = TagType<decltype(wtag)>;
    sell_kernel<Idx, W, decltype(ktag)::value><<<grid_for(rows.count(), 256), 256, 0, stream>>>(
        B, rows.first, rows.last, iteration_int(rows.iter_first), iteration_int(rows.iter_last),
        len, slice_start, perm, static_cast<const W *>(A), k, static_cast<W *>(out));
    return cudaPeekAtLastError();
  });
}

} // namespace detail
} // namespace irregfix
