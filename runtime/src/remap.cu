// irregfix runtime: GPU remap kernels. See remap.cuh.
#include "remap.cuh"

#include <irregfix/irregfix.cuh>

#include <cub/cub.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <climits>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace irregfix {
namespace detail {
namespace {

template <class F> cudaError_t with_index_type(int kind, F f) {
  switch (kind) {
  case kIndexI32: return f(static_cast<const int *>(nullptr));
  case kIndexU32: return f(static_cast<const unsigned *>(nullptr));
  case kIndexI64: return f(static_cast<const long long *>(nullptr));
  case kIndexU64: return f(static_cast<const unsigned long long *>(nullptr));
  default: return cudaErrorInvalidValue;
  }
}

template <class Idx> __device__ __forceinline__ long long as_ll(Idx v) {
  return static_cast<long long>(v);
}

// An index value as a long long; false when it does not fit (huge unsigned 64-bit).
template <class Idx> __device__ __forceinline__ bool idx_to_ll(Idx v, long long *out) {
  if constexpr (sizeof(Idx) == 8 && std::is_unsigned<Idx>::value)
    if (v > static_cast<Idx>(LLONG_MAX))
      return false;
  *out = static_cast<long long>(v);
  return true;
}

// p[i] of an index array whose kind is known only at run time (C, counts).
__device__ __forceinline__ bool load_index(const void *p, int kind, long long i, long long *out) {
  switch (kind) {
  case kIndexI32: return idx_to_ll(static_cast<const int *>(p)[i], out);
  case kIndexU32: return idx_to_ll(static_cast<const unsigned *>(p)[i], out);
  case kIndexI64: return idx_to_ll(static_cast<const long long *>(p)[i], out);
  default: return idx_to_ll(static_cast<const unsigned long long *>(p)[i], out);
  }
}

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
// straight from global memory. Dynamic shared memory: rpb+1 offsets, then the segment.
template <class Idx, class W, int K>
__global__ void __launch_bounds__(kRemapRows)
    range_kernel(const Idx *__restrict__ B, long long n, const W *__restrict__ A, int k_rt,
                 W *__restrict__ out, int rpb, long long seg_words_cap) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  long long *off = reinterpret_cast<long long *>(smem_raw);
  W *s = reinterpret_cast<W *>(smem_raw + ((static_cast<std::size_t>(rpb) + 1) * 8 + 15) / 16 * 16);
  const int k = K ? K : k_rt;
  const long long t0 = static_cast<long long>(blockIdx.x) * rpb;
  const long long left = n - t0;
  const int rows = left < rpb ? static_cast<int>(left) : rpb;
  for (int i = threadIdx.x; i <= rows; i += blockDim.x)
    off[i] = static_cast<long long>(B[t0 + i]);
  __syncthreads();
  const long long seg0 = off[0];
  const long long seg_words = (off[rows] - seg0) * k;
  const long long col = n * k;
  constexpr int V = sizeof(W) < 16 ? static_cast<int>(16 / sizeof(W)) : 1; // words per 16 bytes
  if (seg_words >= 0 && seg_words + V <= seg_words_cap) {
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
  for (int r = threadIdx.x; r < rows; r += blockDim.x) {
    const long long L = off[r + 1] - off[r];
    if (L <= kShort) {
      const W *src = A + off[r] * k;
      W *dst = out + (t0 + r) * k;
      for (long long it = 0; it < L; ++it)
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
    for (long long e = threadIdx.x; e < L * k; e += blockDim.x) {
      const long long it = e / k, j = e - it * k;
      dst[it * col + j] = src[e];
    }
  }
}

template <class Idx, class W, int K>
__global__ void gather_kernel(const Idx *__restrict__ B, long long n, const W *__restrict__ A,
                              int k_rt, long long lo, long long hi, W *__restrict__ out) {
  const int k = K ? K : k_rt;
  long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; t < n;
       t += stride) {
    long long b;
    if (!idx_to_ll(B[t], &b) || b < lo || b >= hi)
      continue; // a sentinel the kernel guards: the slot is never read
    for (int j = 0; j < k; ++j)
      out[t * k + j] = A[b * k + j];
  }
}

__device__ __forceinline__ long long warp_min(long long v) {
  for (int o = 16; o > 0; o >>= 1) {
    long long u = __shfl_down_sync(0xffffffffu, v, o);
    v = u < v ? u : v;
  }
  return v;
}
__device__ __forceinline__ long long warp_max(long long v) {
  for (int o = 16; o > 0; o >>= 1) {
    long long u = __shfl_down_sync(0xffffffffu, v, o);
    v = u > v ? u : v;
  }
  return v;
}

constexpr int kRowsBlock = 256;

__global__ void init_summary(long long *summary) {
  summary[kR2MinLen] = LLONG_MAX;
  summary[kR2MaxLen] = LLONG_MIN;
  summary[kR2MinStart] = LLONG_MAX;
  summary[kR2MaxEnd] = LLONG_MIN;
  summary[kR2SumLen] = 0;
}

template <class Idx>
__global__ void __launch_bounds__(kRowsBlock)
    range2_rows_kernel(const Idx *__restrict__ B, const void *__restrict__ C, int c_kind,
                       long long n, long long rlo, long long rhi, long long *__restrict__ start,
                       int *__restrict__ len, long long *__restrict__ summary) {
  __shared__ long long red[kR2Slots];
  if (threadIdx.x < kR2Slots)
    red[threadIdx.x] = threadIdx.x == kR2SumLen ? 0
                       : (threadIdx.x == kR2MinLen || threadIdx.x == kR2MinStart) ? LLONG_MAX
                                                                                   : LLONG_MIN;
  __syncthreads();
  long long mn_len = LLONG_MAX, mx_len = LLONG_MIN, mn_s = LLONG_MAX, mx_e = LLONG_MIN;
  unsigned long long sum = 0;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; t < n;
       t += stride) {
    long long r = 0, lo = 0, hi = 0;
    int l;
    if (!load_index(C, c_kind, t, &r) || r < rlo || r >= rhi - 1) {
      l = -2; // C[t] does not index B: B is not read
    } else if (!idx_to_ll(B[r], &lo) || !idx_to_ll(B[r + 1], &hi) || hi < lo ||
               static_cast<unsigned long long>(hi) - static_cast<unsigned long long>(lo) >
                   static_cast<unsigned long long>(INT_MAX)) {
      l = -1;
    } else {
      l = static_cast<int>(hi - lo);
    }
    start[t] = l >= 0 ? lo : 0;
    len[t] = l;
    mn_len = l < mn_len ? l : mn_len;
    mx_len = l > mx_len ? l : mx_len;
    if (l > 0) {
      sum += static_cast<unsigned long long>(l);
      mn_s = lo < mn_s ? lo : mn_s;
      mx_e = hi > mx_e ? hi : mx_e;
    }
  }
  mn_len = warp_min(mn_len);
  mx_len = warp_max(mx_len);
  mn_s = warp_min(mn_s);
  mx_e = warp_max(mx_e);
  for (int o = 16; o > 0; o >>= 1)
    sum += __shfl_down_sync(0xffffffffu, sum, o);
  if ((threadIdx.x & 31) == 0) {
    atomicAdd(reinterpret_cast<unsigned long long *>(&red[kR2SumLen]), sum);
    atomicMin(&red[kR2MinLen], mn_len);
    atomicMax(&red[kR2MaxLen], mx_len);
    atomicMin(&red[kR2MinStart], mn_s);
    atomicMax(&red[kR2MaxEnd], mx_e);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicMin(&summary[kR2MinLen], red[kR2MinLen]);
    atomicMax(&summary[kR2MaxLen], red[kR2MaxLen]);
    atomicMin(&summary[kR2MinStart], red[kR2MinStart]);
    atomicMax(&summary[kR2MaxEnd], red[kR2MaxEnd]);
    atomicAdd(reinterpret_cast<unsigned long long *>(&summary[kR2SumLen]),
              static_cast<unsigned long long>(red[kR2SumLen]));
  }
}

// Thread per row: the reads of a row are contiguous (and L1-cached across
// iterations), the writes of a warp at one iter are contiguous.
template <class W, int K>
__global__ void __launch_bounds__(256)
    range2_kernel(const long long *__restrict__ start, const int *__restrict__ len, long long n,
                  const W *__restrict__ A, int k_rt, W *__restrict__ out) {
  const int k = K ? K : k_rt;
  const long long col = n * k;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; t < n;
       t += stride) {
    const int L = len[t];
    const W *src = A + start[t] * k;
    W *dst = out + t * k;
#pragma unroll 4
    for (int it = 0; it < L; ++it)
      for (int j = 0; j < k; ++j)
        dst[it * col + j] = src[static_cast<long long>(it) * k + j];
  }
}

template <class Idx>
__global__ void compose_kernel(const Idx *__restrict__ B, const void *__restrict__ C, int c_kind,
                               long long n, long long rlo, long long rhi, long long *__restrict__ D) {
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; t < n;
       t += stride) {
    long long r = 0, d = LLONG_MIN;
    if (load_index(C, c_kind, t, &r) && r >= rlo && r < rhi && !idx_to_ll(B[r], &d))
      d = LLONG_MIN;
    D[t] = d;
  }
}

// Thread per t, j in batches of U so that U index loads and then U gathers are
// in flight at once; the writes of a warp at one j are contiguous.
template <class Idx, class W, int K>
__global__ void __launch_bounds__(256)
    neighbors_kernel(const Idx *__restrict__ NB, long long sj, long long st, long long jmax,
                     const void *__restrict__ counts, int c_kind, long long n,
                     const W *__restrict__ A, int k_rt, long long lo, long long hi,
                     W *__restrict__ out) {
  constexpr int U = 4;
  const int k = K ? K : k_rt;
  const long long col = n * k;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; t < n;
       t += stride) {
    long long cnt = jmax;
    if (counts) {
      long long c;
      if (!load_index(counts, c_kind, t, &c))
        c = jmax;
      cnt = c < 0 ? 0 : c < jmax ? c : jmax;
    }
    const Idx *nb = NB + t * st;
    W *dst = out + t * k;
    long long j = 0;
    for (; j + U <= cnt; j += U) {
      long long idx[U];
      bool ok[U];
#pragma unroll
      for (int u = 0; u < U; ++u)
        ok[u] = idx_to_ll(nb[(j + u) * sj], &idx[u]) && idx[u] >= lo && idx[u] < hi;
#pragma unroll
      for (int u = 0; u < U; ++u)
        if (ok[u])
          for (int w = 0; w < k; ++w)
            dst[(j + u) * col + w] = A[idx[u] * k + w];
    }
    for (; j < cnt; ++j) {
      long long i;
      if (idx_to_ll(nb[j * sj], &i) && i >= lo && i < hi)
        for (int w = 0; w < k; ++w)
          dst[j * col + w] = A[i * k + w];
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
    sell_kernel(const Idx *__restrict__ B, long long n, const int *__restrict__ len,
                const long long *__restrict__ slice_start, const W *__restrict__ A, int k_rt,
                W *__restrict__ out) {
  const int k = K ? K : k_rt;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; t < n;
       t += stride) {
    const int L = len[t];
    const W *src = A + static_cast<long long>(B[t]) * k;
    W *dst = out + (slice_start[t >> 5] + (t & 31)) * k;
#pragma unroll 4
    for (int it = 0; it < L; ++it)
      for (int j = 0; j < k; ++j)
        dst[static_cast<long long>(it) * 32 * k + j] = src[static_cast<long long>(it) * k + j];
  }
}

unsigned grid_for(long long n, int block) {
  long long g = (n + block - 1) / block;
  if (g < 1)
    g = 1;
  const long long cap = 65535LL * 32;
  return static_cast<unsigned>(g > cap ? cap : g);
}

// Word choice: the element size itself when it is 1, 2, 4, 8 or 16 bytes and the
// source is aligned to it; else 4-byte words when possible; else bytes.
// Larger elements: 16-byte words, else 8-, else 4-byte words, as alignment allows.
enum WordKind { kW1, kW2, kW4, kW8, kW16, kW16xK, kW8xK, kW4xK, kW1xK };

WordKind pick_word(const void *A, std::size_t esz, int *k) {
  const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(A);
  *k = 1;
  if ((esz == 1 || esz == 2 || esz == 4 || esz == 8 || esz == 16) && a % esz == 0)
    return esz == 1 ? kW1 : esz == 2 ? kW2 : esz == 4 ? kW4 : esz == 8 ? kW8 : kW16;
  if (esz % 16 == 0 && a % 16 == 0) {
    *k = static_cast<int>(esz / 16);
    return kW16xK;
  }
  if (esz % 8 == 0 && a % 8 == 0) {
    *k = static_cast<int>(esz / 8);
    return kW8xK;
  }
  if (esz % 4 == 0 && a % 4 == 0) {
    *k = static_cast<int>(esz / 4);
    return kW4xK;
  }
  *k = static_cast<int>(esz);
  return kW1xK;
}

// Calls f(W*, integral_constant<K>) for the word kind.
template <class F> cudaError_t with_word(WordKind w, F f) {
  switch (w) {
  case kW1: return f(static_cast<unsigned char *>(nullptr), std::integral_constant<int, 1>());
  case kW2: return f(static_cast<unsigned short *>(nullptr), std::integral_constant<int, 1>());
  case kW4: return f(static_cast<unsigned *>(nullptr), std::integral_constant<int, 1>());
  case kW8: return f(static_cast<unsigned long long *>(nullptr), std::integral_constant<int, 1>());
  case kW16: return f(static_cast<uint4 *>(nullptr), std::integral_constant<int, 1>());
  case kW16xK: return f(static_cast<uint4 *>(nullptr), std::integral_constant<int, 0>());
  case kW8xK: return f(static_cast<unsigned long long *>(nullptr), std::integral_constant<int, 0>());
  case kW4xK: return f(static_cast<unsigned *>(nullptr), std::integral_constant<int, 0>());
  default: return f(static_cast<unsigned char *>(nullptr), std::integral_constant<int, 0>());
  }
}

// The element type behind a dispatch tag (a null `const T *`).
template <class Tag> using TagType = std::remove_const_t<std::remove_pointer_t<Tag>>;

// Calls f(index tag, word tag, K constant, k) for index kind `kind` and the
// copy word that moves A's elements of `esz` bytes (k words each when K == 0).
template <class F> cudaError_t with_index_and_word(int kind, const void *A, std::size_t esz, F f) {
  int k = 1;
  const WordKind w = pick_word(A, esz, &k);
  return with_index_type(kind, [&](auto tag) -> cudaError_t {
    return with_word(w, [&](auto wtag, auto ktag) -> cudaError_t { return f(tag, wtag, ktag, k); });
  });
}

template <class Idx, class W, int K>
cudaError_t launch_range(const Idx *B, long long n, const void *A, int k, void *out,
                         const RangePlan &plan, cudaStream_t stream) {
  const long long rpb = plan.rows_per_block;
  unsigned blocks = static_cast<unsigned>((n + rpb - 1) / rpb);
  const std::size_t off_bytes = (static_cast<std::size_t>(rpb) + 1) * 8;
  const std::size_t head = (off_bytes + 15) / 16 * 16;
  const long long words = static_cast<long long>(plan.segment_bytes / sizeof(W));
  range_kernel<Idx, W, K><<<blocks, kRemapRows, head + plan.segment_bytes, stream>>>(
      B, n, static_cast<const W *>(A), k, static_cast<W *>(out), plan.rows_per_block, words);
  return cudaPeekAtLastError();
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

cudaError_t minmax_lengths(const int *len, long long n, int *out, void *temp,
                           std::size_t *temp_bytes, cudaStream_t stream) {
  if (!temp) {
    std::size_t a = 0, b = 0;
    cudaError_t e = cub::DeviceReduce::Min(nullptr, a, len, out, n, stream);
    if (e != cudaSuccess)
      return e;
    e = cub::DeviceReduce::Max(nullptr, b, len, out + 1, n, stream);
    *temp_bytes = a > b ? a : b;
    return e;
  }
  std::size_t bytes = *temp_bytes;
  cudaError_t e = cub::DeviceReduce::Min(temp, bytes, len, out, n, stream);
  if (e != cudaSuccess)
    return e;
  bytes = *temp_bytes;
  return cub::DeviceReduce::Max(temp, bytes, len, out + 1, n, stream);
}

cudaError_t minmax_indices(const void *B, int b_kind, long long n, void *out, void *temp,
                           std::size_t *temp_bytes, cudaStream_t stream) {
  return with_index_type(b_kind, [&](auto tag) -> cudaError_t {
    using Idx = std::remove_const_t<std::remove_pointer_t<decltype(tag)>>;
    const Idx *in = static_cast<const Idx *>(B);
    Idx *lo = reinterpret_cast<Idx *>(static_cast<char *>(out));
    Idx *hi = reinterpret_cast<Idx *>(static_cast<char *>(out) + 8);
    if (!temp) {
      std::size_t a = 0, b = 0;
      cudaError_t e = cub::DeviceReduce::Min(nullptr, a, in, lo, n, stream);
      if (e != cudaSuccess)
        return e;
      e = cub::DeviceReduce::Max(nullptr, b, in, hi, n, stream);
      *temp_bytes = a > b ? a : b;
      return e;
    }
    std::size_t bytes = *temp_bytes;
    cudaError_t e = cub::DeviceReduce::Min(temp, bytes, in, lo, n, stream);
    if (e != cudaSuccess)
      return e;
    bytes = *temp_bytes;
    return cub::DeviceReduce::Max(temp, bytes, in, hi, n, stream);
  });
}

bool index_to_ll(const void *slot, int b_kind, long long *value) {
  switch (b_kind) {
  case kIndexI32: { int v; std::memcpy(&v, slot, sizeof v); *value = v; return true; }
  case kIndexU32: { unsigned v; std::memcpy(&v, slot, sizeof v); *value = v; return true; }
  case kIndexI64: { long long v; std::memcpy(&v, slot, sizeof v); *value = v; return true; }
  case kIndexU64: {
    unsigned long long v;
    std::memcpy(&v, slot, sizeof v);
    if (v > static_cast<unsigned long long>(LLONG_MAX))
      return false;
    *value = static_cast<long long>(v);
    return true;
  }
  default: return false;
  }
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

cudaError_t remap_range(const void *B, int b_kind, long long n, const void *A,
                        std::size_t elem_size, void *out, const RangePlan &plan,
                        cudaStream_t stream) {
  if (n <= 0)
    return cudaSuccess;
  if (plan.rows_per_block < kRemapRows || plan.rows_per_block > kMaxRowsPerBlock ||
      plan.rows_per_block % kRemapRows != 0)
    return cudaErrorInvalidValue;
  return with_index_and_word(b_kind, A, elem_size, [&](auto tag, auto wtag, auto ktag, int k) {
    using Idx = TagType<decltype(tag)>;
    return launch_range<Idx, TagType<decltype(wtag)>, decltype(ktag)::value>(
        static_cast<const Idx *>(B), n, A, k, out, plan, stream);
  });
}

cudaError_t sell_slices(const int *len, long long n, long long *slice_start, void *temp,
                        std::size_t *temp_bytes, cudaStream_t stream) {
  const long long items = (n + 31) / 32 + 1;
  auto in = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0),
                                            SliceCells{len, n});
  return cub::DeviceScan::ExclusiveSum(temp, *temp_bytes, in, slice_start, items, stream);
}

cudaError_t remap_sell(const void *B, int b_kind, long long n, const int *len,
                       const long long *slice_start, const void *A, std::size_t elem_size,
                       void *out, cudaStream_t stream) {
  if (n <= 0)
    return cudaSuccess;
  return with_index_and_word(b_kind, A, elem_size, [&](auto tag, auto wtag, auto ktag, int k) {
    using Idx = TagType<decltype(tag)>;
    using W = TagType<decltype(wtag)>;
    sell_kernel<Idx, W, decltype(ktag)::value><<<grid_for(n, 256), 256, 0, stream>>>(
        static_cast<const Idx *>(B), n, len, slice_start, static_cast<const W *>(A), k, static_cast<W *>(out));
    return cudaPeekAtLastError();
  });
}

cudaError_t remap_gather(const void *B, int b_kind, long long n, const void *A,
                         std::size_t elem_size, long long lo, long long hi, void *out,
                         cudaStream_t stream) {
  if (n <= 0)
    return cudaSuccess;
  return with_index_and_word(b_kind, A, elem_size, [&](auto tag, auto wtag, auto ktag, int k) {
    using Idx = TagType<decltype(tag)>;
    using W = TagType<decltype(wtag)>;
    gather_kernel<Idx, W, decltype(ktag)::value><<<grid_for(n, 256), 256, 0, stream>>>(
        static_cast<const Idx *>(B), n, static_cast<const W *>(A), k, lo, hi, static_cast<W *>(out));
    return cudaPeekAtLastError();
  });
}

cudaError_t range2_rows(const void *B, int b_kind, const void *C, int c_kind, long long n,
                        long long rlo, long long rhi, long long *start, int *len,
                        long long *summary, cudaStream_t stream) {
  if (c_kind < kIndexI32 || c_kind > kIndexU64)
    return cudaErrorInvalidValue;
  init_summary<<<1, 1, 0, stream>>>(summary);
  cudaError_t e = cudaPeekAtLastError();
  if (e != cudaSuccess || n <= 0)
    return e;
  return with_index_type(b_kind, [&](auto tag) -> cudaError_t {
    using Idx = std::remove_const_t<std::remove_pointer_t<decltype(tag)>>;
    range2_rows_kernel<Idx><<<grid_for(n, kRowsBlock), kRowsBlock, 0, stream>>>(
        static_cast<const Idx *>(B), C, c_kind, n, rlo, rhi, start, len, summary);
    return cudaPeekAtLastError();
  });
}

cudaError_t remap_range2(const long long *start, const int *len, long long n, const void *A,
                         std::size_t elem_size, void *out, cudaStream_t stream) {
  if (n <= 0)
    return cudaSuccess;
  int k = 1;
  WordKind w = pick_word(A, elem_size, &k);
  return with_word(w, [&](auto wtag, auto ktag) -> cudaError_t {
    using W = std::remove_pointer_t<decltype(wtag)>;
    range2_kernel<W, decltype(ktag)::value><<<grid_for(n, 256), 256, 0, stream>>>(
        start, len, n, static_cast<const W *>(A), k, static_cast<W *>(out));
    return cudaPeekAtLastError();
  });
}

cudaError_t compose_indices(const void *B, int b_kind, const void *C, int c_kind, long long n,
                            long long rlo, long long rhi, long long *D, cudaStream_t stream) {
  if (n <= 0)
    return cudaSuccess;
  if (c_kind < kIndexI32 || c_kind > kIndexU64)
    return cudaErrorInvalidValue;
  return with_index_type(b_kind, [&](auto tag) -> cudaError_t {
    using Idx = std::remove_const_t<std::remove_pointer_t<decltype(tag)>>;
    compose_kernel<Idx><<<grid_for(n, 256), 256, 0, stream>>>(static_cast<const Idx *>(B), C,
                                                               c_kind, n, rlo, rhi, D);
    return cudaPeekAtLastError();
  });
}

cudaError_t remap_neighbors(const void *NB, int nb_kind, long long sj, long long st,
                            long long jmax, const void *counts, int counts_kind, long long n,
                            const void *A, std::size_t elem_size, long long lo, long long hi,
                            void *out, cudaStream_t stream) {
  if (n <= 0 || jmax <= 0)
    return cudaSuccess;
  if (counts && (counts_kind < kIndexI32 || counts_kind > kIndexU64))
    return cudaErrorInvalidValue;
  return with_index_and_word(nb_kind, A, elem_size, [&](auto tag, auto wtag, auto ktag, int k) {
    using Idx = TagType<decltype(tag)>;
    using W = TagType<decltype(wtag)>;
    neighbors_kernel<Idx, W, decltype(ktag)::value><<<grid_for(n, 256), 256, 0, stream>>>(
        static_cast<const Idx *>(NB), sj, st, jmax, counts, counts_kind, n, static_cast<const W *>(A), k, lo, hi,
        static_cast<W *>(out));
    return cudaPeekAtLastError();
  });
}

} // namespace detail
} // namespace irregfix
