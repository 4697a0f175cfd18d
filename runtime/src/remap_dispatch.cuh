// irregfix runtime: what the remap kernels' files share: run-time dispatch on
// index and word types, index conversions, grid sizing. Each pattern's kernels
// live in their own file (remap_range.cu, remap_gather.cu, remap_range2.cu,
// remap_neighbors.cu; CUB reductions in remap_reduce.cu), so that each is its
// own module: a program loads, on its first transformed launch, only the
// kernels of the patterns it uses (module loading is lazy).
#pragma once

#include "remap.cuh"

#include <irregfix/irregfix.cuh>

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


// An iteration bound of Rows for kernels that count iterations in ints (row
// lengths are ints): LLONG_MAX (all) and anything larger than INT_MAX clamp.
inline int iteration_int(long long it) {
  return it < 0 ? 0 : it > INT_MAX ? INT_MAX : static_cast<int>(it);
}

inline unsigned grid_for(long long n, int block) {
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

inline WordKind pick_word(const void *A, std::size_t esz, int *k) {
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

} // namespace
} // namespace detail
} // namespace irregfix
