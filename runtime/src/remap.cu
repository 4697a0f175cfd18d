// irregfix runtime: GPU remap kernels. See remap.cuh.
#include "remap.cuh"

#include <irregfix/irregfix.cuh>

#include <cub/cub.cuh>

#include <climits>
#include <cstdint>
#include <cstring>

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
// One block handles kRemapRows consecutive rows. When the block's contiguous
// source segment fits in shared memory it is staged with coalesced reads and
// written out transposed (coalesced across t); otherwise short rows are copied
// thread-per-row and long rows block-cooperatively, straight from global memory.
template <class Idx, class W, int K>
__global__ void __launch_bounds__(kRemapRows)
    range_kernel(const Idx *__restrict__ B, long long n, const W *__restrict__ A, int k_rt,
                 W *__restrict__ out, long long smem_words) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  __shared__ long long off[kRemapRows + 1];
  const int k = K ? K : k_rt;
  const long long t0 = static_cast<long long>(blockIdx.x) * kRemapRows;
  const long long left = n - t0;
  const int rows = left < kRemapRows ? static_cast<int>(left) : kRemapRows;
  for (int i = threadIdx.x; i <= rows; i += blockDim.x)
    off[i] = static_cast<long long>(B[t0 + i]);
  __syncthreads();
  const long long seg0 = off[0];
  const long long seg_words = (off[rows] - seg0) * k;
  const int r = threadIdx.x;
  W *s = reinterpret_cast<W *>(smem_raw);
  if (seg_words >= 0 && seg_words <= smem_words) {
    const W *src = A + seg0 * k;
    for (long long i = threadIdx.x; i < seg_words; i += blockDim.x)
      s[i] = src[i];
    __syncthreads();
    if (r < rows) {
      const long long beg = (off[r] - seg0) * k;
      const long long L = off[r + 1] - off[r];
      W *dst = out + (t0 + r) * k;
      const long long col = n * k;
      for (long long it = 0; it < L; ++it)
        for (int j = 0; j < k; ++j)
          dst[it * col + j] = s[beg + it * k + j];
    }
    return;
  }
  constexpr long long kShort = 32;
  const long long col = n * k;
  if (r < rows) {
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
                              int k_rt, W *__restrict__ out) {
  const int k = K ? K : k_rt;
  long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; t < n;
       t += stride) {
    const long long b = static_cast<long long>(B[t]);
    for (int j = 0; j < k; ++j)
      out[t * k + j] = A[b * k + j];
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
enum WordKind { kW1, kW2, kW4, kW8, kW16, kW4xK, kW1xK };

WordKind pick_word(const void *A, std::size_t esz, int *k) {
  const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(A);
  *k = 1;
  if ((esz == 1 || esz == 2 || esz == 4 || esz == 8 || esz == 16) && a % esz == 0)
    return esz == 1 ? kW1 : esz == 2 ? kW2 : esz == 4 ? kW4 : esz == 8 ? kW8 : kW16;
  if (esz % 4 == 0 && a % 4 == 0) {
    *k = static_cast<int>(esz / 4);
    return kW4xK;
  }
  *k = static_cast<int>(esz);
  return kW1xK;
}

std::size_t word_size(WordKind w) {
  switch (w) {
  case kW1: case kW1xK: return 1;
  case kW2: return 2;
  case kW4: case kW4xK: return 4;
  case kW8: return 8;
  default: return 16;
  }
}

template <class Idx, class W, int K>
cudaError_t launch_range(const Idx *B, long long n, const void *A, int k, void *out,
                         std::size_t smem_bytes, cudaStream_t stream) {
  unsigned blocks = static_cast<unsigned>((n + kRemapRows - 1) / kRemapRows);
  long long smem_words = static_cast<long long>(smem_bytes / sizeof(W));
  range_kernel<Idx, W, K><<<blocks, kRemapRows, smem_bytes, stream>>>(
      B, n, static_cast<const W *>(A), k, static_cast<W *>(out), smem_words);
  return cudaPeekAtLastError();
}

template <class Idx, class W, int K>
cudaError_t launch_gather(const Idx *B, long long n, const void *A, int k, void *out,
                          cudaStream_t stream) {
  gather_kernel<Idx, W, K><<<grid_for(n, 256), 256, 0, stream>>>(B, n, static_cast<const W *>(A),
                                                                 k, static_cast<W *>(out));
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

std::size_t range_smem_bytes(long long nnz, long long n, std::size_t elem_size) {
  // Room for about twice a block's average segment, between 4 KiB and 48 KiB.
  const std::size_t lo = 4096, hi = 48 * 1024;
  if (n <= 0 || nnz <= 0)
    return lo;
  double avg = static_cast<double>(nnz) / static_cast<double>(n) * kRemapRows *
               static_cast<double>(elem_size);
  double want = 2.0 * avg + 1024.0;
  if (want >= static_cast<double>(hi))
    return hi;
  std::size_t b = static_cast<std::size_t>(want);
  b = (b + 255) / 256 * 256;
  return b < lo ? lo : b;
}

cudaError_t remap_range(const void *B, int b_kind, long long n, const void *A,
                        std::size_t elem_size, void *out, std::size_t smem_bytes,
                        cudaStream_t stream) {
  if (n <= 0)
    return cudaSuccess;
  int k = 1;
  WordKind w = pick_word(A, elem_size, &k);
  smem_bytes = smem_bytes / word_size(w) * word_size(w);
  return with_index_type(b_kind, [&](auto tag) -> cudaError_t {
    using Idx = std::remove_const_t<std::remove_pointer_t<decltype(tag)>>;
    const Idx *b = static_cast<const Idx *>(B);
    switch (w) {
    case kW1: return launch_range<Idx, unsigned char, 1>(b, n, A, k, out, smem_bytes, stream);
    case kW2: return launch_range<Idx, unsigned short, 1>(b, n, A, k, out, smem_bytes, stream);
    case kW4: return launch_range<Idx, unsigned, 1>(b, n, A, k, out, smem_bytes, stream);
    case kW8: return launch_range<Idx, unsigned long long, 1>(b, n, A, k, out, smem_bytes, stream);
    case kW16: return launch_range<Idx, uint4, 1>(b, n, A, k, out, smem_bytes, stream);
    case kW4xK: return launch_range<Idx, unsigned, 0>(b, n, A, k, out, smem_bytes, stream);
    default: return launch_range<Idx, unsigned char, 0>(b, n, A, k, out, smem_bytes, stream);
    }
  });
}

cudaError_t remap_gather(const void *B, int b_kind, long long n, const void *A,
                         std::size_t elem_size, void *out, cudaStream_t stream) {
  if (n <= 0)
    return cudaSuccess;
  int k = 1;
  WordKind w = pick_word(A, elem_size, &k);
  return with_index_type(b_kind, [&](auto tag) -> cudaError_t {
    using Idx = std::remove_const_t<std::remove_pointer_t<decltype(tag)>>;
    const Idx *b = static_cast<const Idx *>(B);
    switch (w) {
    case kW1: return launch_gather<Idx, unsigned char, 1>(b, n, A, k, out, stream);
    case kW2: return launch_gather<Idx, unsigned short, 1>(b, n, A, k, out, stream);
    case kW4: return launch_gather<Idx, unsigned, 1>(b, n, A, k, out, stream);
    case kW8: return launch_gather<Idx, unsigned long long, 1>(b, n, A, k, out, stream);
    case kW16: return launch_gather<Idx, uint4, 1>(b, n, A, k, out, stream);
    case kW4xK: return launch_gather<Idx, unsigned, 0>(b, n, A, k, out, stream);
    default: return launch_gather<Idx, unsigned char, 0>(b, n, A, k, out, stream);
    }
  });
}

} // namespace detail
} // namespace irregfix
