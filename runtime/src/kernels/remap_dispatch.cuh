// irregfix runtime: what the remap kernels' files share: run-time dispatch on
// index and word types, index conversions, grid sizing, and the typed entry
// points of the kernels' modules.
//
// CUDA loads modules lazily, on the first launch of one of their kernels, at a
// cost that grows with the module's size; so each pattern's kernels are split
// into modules by what a program's types select. A pattern's file
// (remap_range.cu, remap_gather.cu, remap_range2.cu, remap_neighbors.cu,
// remap_reduce.cu) checks its arguments and dispatches on the index kind and
// the word class (plain: K = 1; composite: K = 0) to a class template declared
// below; the pattern's kernels header (remap_<pattern>_kernels.cuh) defines its
// members, and each instantiation is its own translation unit, a
// module that CMake generates from remap_module.cu.in. A program with int
// indices and float values loads the int, plain-word modules of the patterns
// it uses, and nothing else.
#pragma once

#include "remap.cuh"

#include <irregfix/irregfix.cuh>

#include <climits>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace irregfix {
namespace detail {

// The word a copy moves: W1..W16 an element of 1..16 bytes (K = 1 word of the
// element's size); W16xK..W1xK an element of k words of 16, 8, 4 or 1 bytes (K
// = 0, k at run time).
enum WordKind { kW1, kW2, kW4, kW8, kW16, kW16xK, kW8xK, kW4xK, kW1xK };

// The two classes of word kinds, each its own module of a pattern's kernels.
enum WordClass { kPlainWords, kCompositeWords };

inline WordClass word_class(WordKind w) { return w <= kW16 ? kPlainWords : kCompositeWords; }

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


// Min and max over a warp (all 32 lanes active); lane 0 holds the result.
template <class T> __device__ __forceinline__ T warp_min(T v) {
  for (int o = 16; o > 0; o >>= 1) {
    T u = __shfl_down_sync(0xffffffffu, v, o);
    v = u < v ? u : v;
  }
  return v;
}
template <class T> __device__ __forceinline__ T warp_max(T v) {
  for (int o = 16; o > 0; o >>= 1) {
    T u = __shfl_down_sync(0xffffffffu, v, o);
    v = u > v ? u : v;
  }
  return v;
}

// Thread t's reads of a neighbour list (neighbors_kernel, and its field
// pieces' kernel): its slots j in [jb, min(count(t), je)), count(t) =
// min(counts ? counts[t] : jmax, jmax), in batches of U so that U index loads
// and then U gathers are in flight at once; copy(j, i) for each slot whose
// element index i lies in [lo, hi) (the others are sentinels, skipped).
template <int U, class Idx, class Copy>
__device__ __forceinline__ void for_each_neighbor(const Idx *__restrict__ NB, long long sj, long long st,
                                                  long long jmax, const void *__restrict__ counts, int c_kind,
                                                  long long t, long long jb, long long je, long long lo,
                                                  long long hi, Copy copy) {
  long long cnt = jmax;
  if (counts) {
    long long c;
    if (!load_index(counts, c_kind, t, &c))
      c = jmax;
    cnt = c < 0 ? 0 : c < jmax ? c : jmax;
  }
  cnt = cnt < je ? cnt : je;
  const Idx *nb = NB + t * st;
  long long j = jb > 0 ? jb : 0;
  for (; j + U <= cnt; j += U) {
    long long idx[U];
    bool ok[U];
#pragma unroll
    for (int u = 0; u < U; ++u)
      ok[u] = idx_to_ll(nb[(j + u) * sj], &idx[u]) && idx[u] >= lo && idx[u] < hi;
#pragma unroll
    for (int u = 0; u < U; ++u)
      if (ok[u])
        copy(j + u, idx[u]);
  }
  for (; j < cnt; ++j) {
    long long i;
    if (idx_to_ll(nb[j * sj], &i) && i >= lo && i < hi)
      copy(j, i);
  }
}

// An iteration bound of Rows for kernels that count iterations in ints (row
// lengths are ints): LLONG_MAX (all) and anything larger than INT_MAX clamp.
inline int iteration_int(long long it) {
  return it < 0 ? 0 : it > INT_MAX ? INT_MAX : static_cast<int>(it);
}

// The arguments of a neighbour-list copy: an error (rows outside [0, n), an
// unknown kind of counts), or cudaSuccess with *nothing set when no slot is
// copied (no rows, no columns).
inline cudaError_t check_neighbor_copy(Rows rows, long long n, long long jmax, const void *counts,
                                       int counts_kind, bool *nothing) {
  *nothing = false;
  if (rows.first < 0 || rows.last > n)
    return cudaErrorInvalidValue;
  if (rows.count() == 0 || jmax <= 0) {
    *nothing = true;
    return cudaSuccess;
  }
  if (counts && (counts_kind < kIndexI32 || counts_kind > kIndexU64))
    return cudaErrorInvalidValue;
  return cudaSuccess;
}

inline unsigned grid_for(long long n, int block) {
  long long g = (n + block - 1) / block;
  if (g < 1)
    g = 1;
  const long long cap = 65535LL * 32;
  return static_cast<unsigned>(g > cap ? cap : g);
}

// Word choice (see WordKind): the element size itself when it is 1, 2, 4, 8 or
// 16 bytes and the source is aligned to it; else 4-byte words when possible;
// else bytes. Larger elements: 16-byte words, else 8-, else 4-byte words, as
// alignment allows.
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

// Calls f(W*, integral_constant<K>) for word kind w of class C (a kind of the
// other class: cudaErrorInvalidValue).
template <WordClass C, class F> cudaError_t with_word_of_class(WordKind w, F f) {
  if constexpr (C == kPlainWords) {
    switch (w) {
    case kW1: return f(static_cast<unsigned char *>(nullptr), std::integral_constant<int, 1>());
    case kW2: return f(static_cast<unsigned short *>(nullptr), std::integral_constant<int, 1>());
    case kW4: return f(static_cast<unsigned *>(nullptr), std::integral_constant<int, 1>());
    case kW8:
      return f(static_cast<unsigned long long *>(nullptr), std::integral_constant<int, 1>());
    case kW16: return f(static_cast<uint4 *>(nullptr), std::integral_constant<int, 1>());
    default: return cudaErrorInvalidValue;
    }
  } else {
    switch (w) {
    case kW16xK: return f(static_cast<uint4 *>(nullptr), std::integral_constant<int, 0>());
    case kW8xK:
      return f(static_cast<unsigned long long *>(nullptr), std::integral_constant<int, 0>());
    case kW4xK: return f(static_cast<unsigned *>(nullptr), std::integral_constant<int, 0>());
    case kW1xK: return f(static_cast<unsigned char *>(nullptr), std::integral_constant<int, 0>());
    default: return cudaErrorInvalidValue;
    }
  }
}

// Calls f(W*, integral_constant<K>) for the word kind.
template <class F> cudaError_t with_word(WordKind w, F f) {
  return word_class(w) == kPlainWords ? with_word_of_class<kPlainWords>(w, f)
                                      : with_word_of_class<kCompositeWords>(w, f);
}

// The element type behind a dispatch tag (a null `const T *`).
template <class Tag> using TagType = std::remove_const_t<std::remove_pointer_t<Tag>>;

// Calls f(index tag, word class constant, w, k) for index kind `kind` and the
// copy word w that moves A's elements of `esz` bytes (k words each when w is
// composite): how a pattern's file picks the module of its kernels.
template <class F>
cudaError_t with_index_and_word_class(int kind, const void *A, std::size_t esz, F f) {
  int k = 1;
  const WordKind w = pick_word(A, esz, &k);
  return with_index_type(kind, [&](auto tag) -> cudaError_t {
    if (word_class(w) == kPlainWords)
      return f(tag, std::integral_constant<WordClass, kPlainWords>(), w, k);
    return f(tag, std::integral_constant<WordClass, kCompositeWords>(), w, k);
  });
}

} // namespace

// ---- The modules' entry points ---------------------------------------------
// The typed launches of each pattern, one class template instantiation a
// module: the members are defined in remap_<pattern>_kernels.cuh, instantiated
// for index type Idx and word class C in the generated module
// <pattern>_<index>[_composite].cu (remap_module.cu.in),
// and called from the pattern's file, which does not see the kernels. w is a
// word kind of class C; k the words an element when w is composite (K = 0).

template <class Idx> struct LengthsModule {
  // range_lengths for index type Idx (in the module of RangeModule<Idx, kPlainWords>).
  static cudaError_t lengths(const Idx *B, long long n, int *len, int *minmax, long long *bounds,
                             cudaStream_t stream);
};

template <class Idx, WordClass C> struct RangeModule {
  // remap_range's launch (plan validated).
  static cudaError_t range(const Idx *B, long long width, Rows rows, const void *A, WordKind w, int k,
                           void *out, const RangePlan &plan, cudaStream_t stream);
  // remap_sell's launch.
  static cudaError_t sell(const Idx *B, Rows rows, const int *len, const long long *slice_start,
                          const int *perm, const void *A, WordKind w, int k, void *out,
                          cudaStream_t stream);
};

template <class Idx, WordClass C> struct GatherModule {
  // remap_gather's launch.
  static cudaError_t gather(const Idx *B, Rows rows, const void *A, WordKind w, int k, long long lo,
                            long long hi, void *out, cudaStream_t stream);
};

template <class Idx, WordClass C> struct NeighborsModule {
  // remap_neighbors' launch (arguments checked).
  static cudaError_t neighbors(const Idx *NB, long long sj, long long st, long long jmax,
                               const void *counts, int counts_kind, Rows rows,
                               const void *A, WordKind w, int k, long long lo, long long hi,
                               void *out, cudaStream_t stream);
};

template <WordClass C> struct Range2Module {
  // remap_range2's launch (rows checked).
  static cudaError_t copy(const long long *start, const int *len, long long width, Rows rows,
                          const void *A, WordKind w, int k, void *out, cudaStream_t stream);
};

template <class Idx> struct MinmaxModule {
  // minmax_indices for index type Idx: CUB min and max of B[0..n) into *lo, *hi
  // (with temp null, only *temp_bytes).
  static cudaError_t minmax(const Idx *B, long long n, Idx *lo, Idx *hi, void *temp,
                            std::size_t *temp_bytes, cudaStream_t stream);
};

} // namespace detail
} // namespace irregfix
