// irregfix runtime: the API that code rewritten by the irregfix tool calls.
//
// A transformed launch asks the runtime for reordered, coalesced copies of the
// arrays a kernel reads indirectly (prepare_range / prepare_gather). The runtime
// builds them on the GPU, on the launch's own stream, caches them keyed by
// (site, sources, n, element size, layout), and returns a View that tells the
// transformed kernel where thread t's iter-th element lives. A cached copy is
// served only until a write to one of its sources is reported (irregfix_invalidate*
// at the end of this file); a copy built from managed or host memory, which
// host code may write unreported, is rebuilt at every launch. When it declines
// (disabled, byte cap, allocation failure, CUDA error, possible aliasing) the
// generated launcher runs the original kernel instead.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <initializer_list>
#include <type_traits>

namespace irregfix {

// Layout of a remapped copy. The kernel never branches on it at compile time:
// slot() reads it, so the runtime may change layout without re-running the tool.
enum Layout : int {
  kLayoutNone = 0,        // not remapped: the original kernel runs
  kLayoutEllColMajor = 1, // the paper's layout, column-major, in blocks of 32 threads each
                          // padded to the longest row (width): element (t, iter) at
                          // (t - t % 32) * width + iter * 32 + t % 32 (ell_slot)
  kLayoutSell32 = 2,      // slices of 32 consecutive threads, each padded to its longest
                          // row, column-major inside the slice: element (t, iter) at
                          // slice_start[t / 32] + iter * 32 + t % 32 (range sites)
  kLayoutSell32Sigma = 3, // SELL-32-sigma: SELL-32 over the threads permuted so that
                          // each window of sigma threads runs longest row first; thread
                          // p (physical) works for logical thread perm[p] (range sites
                          // of kernels whose SiteInfo says kSitePermutable)
  kLayoutSharing = 4,     // per thread block, the distinct elements its threads read,
                          // stored contiguously (block b's at [block_first[b],
                          // block_first[b+1])): the kernel stages them in shared
                          // memory (stage_shared) and reads element (t, iter) at
                          // local[iter * n + t] there (neighbour sites of kernels
                          // whose SiteInfo says kSiteShareable; see read_shared)
  kLayoutLocality = 5,    // the threads run in a locality order (threads that read the
                          // same elements next to each other; perm as for SELL-32-sigma)
                          // computed from the index arrays. Range sites: SELL-32 over
                          // the threads in that order. Neighbour sites: the data array
                          // is read in place (no copy of data that changes every
                          // launch) through the neighbour list copied in that order,
                          // index[iter * n + p] (kernels whose SiteInfo says kSitePermutable)
  kLayoutLanes = 6,       // warp-cooperative rows: no copy. A range site whose kernel has a
                          // lanes variant (kSiteLanes) runs each row with View::lanes lanes,
                          // reading the original arrays in place (see lanes_launch)
};

// Passed by value to a transformed kernel, one per site group.
struct View {
  const int *len; // per-thread trip count, len[t] (range sites); null for gathers
  long long n;    // threads covered: t in [0, n); column stride of the ELL layout
  int layout;     // a Layout
  // Where thread t's block of 32 starts in the copy (slot): slice_start[(t >> 5) & slice_mask]
  // + (t - t % 32) * block_width. The SELL layouts and the locality order: their slice
  // offsets, slice_mask all ones, block_width 0; ELL and the others: a device cell
  // holding 0, slice_mask 0, block_width the width. Data, not a test of the layout,
  // so that the address is one load and arithmetic.
  const long long *slice_start;
  const int *perm;              // kLayoutSell32Sigma: perm[p] = logical thread of physical p
  long long width;              // iterations of the longest thread: max length (range),
                                // columns (neighbour lists), 1 (gathers)
  long long slice_mask;
  long long block_width;
  // kLayoutSharing (null, 0 otherwise): element (t, iter) is staged element
  // local[iter * n + t] of t's block; block b's distinct elements are copy
  // elements [block_first[b], block_first[b+1]); shared_bytes is what the
  // launch gives the kernel in dynamic shared memory to stage them.
  const int *local;
  const int *block_first;
  unsigned shared_bytes;
  // kLayoutLocality of a neighbour site (null otherwise): the element of the
  // data array that physical thread p reads at iteration iter is
  // index[iter * n + p] (neighbor_slot); the "copy" the kernel reads is the data array itself.
  const int *index;
  // kLayoutLanes: the lanes each row runs with (2 to 32, a power of two); 0 otherwise.
  int lanes;
};

// A load only where `pred` holds (0 elsewhere, p not touched), with no branch.
// nvcc contracts a * b + c into one fused multiply-add only within a basic
// block: a branch inside a rewritten expression would split the original's
// block and round the transformed kernel's result differently. The data it
// reads (permutations, lists in the order) is read-only while a
// kernel runs, so the load may be hoisted and shared like any other.
#if defined(__CUDA_ARCH__)
__device__ __forceinline__ int load_if(bool pred, const int *p) {
  int v;
  asm("{\n\t.reg .pred q;\n\t.reg .u64 g;\n\tsetp.ne.b32 q, %2, 0;\n\tmov.b32 %0, 0;\n\t"
      "cvta.to.global.u64 g, %1;\n\t@q ld.global.nc.b32 %0, [g];\n\t}"
      : "=r"(v)
      : "l"(p), "r"(static_cast<int>(pred)));
  return v;
}
#else
template <class T> __host__ __device__ __forceinline__ T load_if(bool pred, const T *p) { return pred ? *p : T(0); }
#endif

// Where ELL keeps thread t's iter-th element, in a copy `width` elements wide:
// its block of 32 threads starts at (t - t % 32) * width. The runtime's remaps
// write there; ell_cells is the copy's size in elements.
__host__ __device__ __forceinline__ long long ell_slot(long long t, long long iter, long long width) {
  return (t & ~31LL) * width + iter * 32 + (t & 31);
}
__host__ __device__ __forceinline__ long long ell_cells(long long n, long long width) {
  return (n + 31) / 32 * 32 * width;
}

// The one device-side addressing helper: index of thread t's iter-th element in
// a remapped copy described by v. The thread's part of the address (its block's
// or slice's start) does not depend on iter, and every layout steps 32 between
// iterations, so that nvcc addresses an unrolled loop by constant offsets from one
// pointer. The start is one unconditional load and arithmetic on the View's data
// (see View::slice_start): no branch (see load_if) and no choice by layout. A
// choice, even by selection, made the SpMV keep both loops and 40 registers
// instead of 32, and ran it 20% slower under SELL-32-sigma.
// Under SELL-32-sigma and the locality order, t is the physical thread (see logical_thread).
__host__ __device__ __forceinline__ long long slot(const View &v, long long t, long long iter) {
#if defined(__CUDA_ARCH__)
  const long long first = v.slice_start[(t >> 5) & v.slice_mask];
#else // host code (tests) may hold a View whose cell lies on the device: read only slice offsets
  const long long first = v.slice_mask ? v.slice_start[(t >> 5) & v.slice_mask] : 0;
#endif
  return first + (t & ~31LL) * v.block_width + iter * 32 + (t & 31);
}

// A gather's slot (gather and gather2 sites, their field pieces too): thread t's
// one element is at t itself. Their copies are always ELL, one element wide
// (layout_request), where slot(v, t, 0) is t: the tool emits this instead, and
// the read needs no load of the View's data (3-6% of a gather's time).
__host__ __device__ __forceinline__ long long gather_slot(const View &, long long t) { return t; }

// A neighbour list's slot: as slot(), except that in the locality order the list
// itself, copied in that order, says which element of the data array (read in
// place) thread t reads at iteration iter. Only neighbour-list sites pay this test.
__host__ __device__ __forceinline__ long long neighbor_slot(const View &v, long long t, long long iter) {
  const bool listed = v.index != nullptr;
  const int element = load_if(listed, v.index + (listed ? iter * v.n + t : 0));
  return listed ? element : slot(v, t, iter);
}

#ifdef __CUDACC__
// The thread's number in its launch, every dimension counted: blocks in grid
// order, threads in block order, x fastest (a warp's threads have consecutive
// numbers). Sites whose indices use the thread's position other than its
// global index (threadIdx.y, blockIdx.y, ...) number their copies by it; their
// index kernels run with the kernel's grid and blocks.
__device__ __forceinline__ long long launch_thread() {
  const long long block = ((long long)blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  const long long in_block = ((long long)threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  return block * ((long long)blockDim.x * blockDim.y * blockDim.z) + in_block;
}
#endif

// Sharing (kLayoutSharing), kernel side. The transformed kernel of a
// shareable site declares `extern __shared__ unsigned char stage[]`, calls
// stage_shared at its very start (every thread of the block, before any early
// return), and reads the copy through read_shared. Under any other layout
// stage_shared does nothing and read_shared reads copy[neighbor_slot(v, t, iter)].
// `block` is the block's index in the whole grid (blockIdx.x plus a chunk's offset).
// (Device code only: host compilers that include this header never see them.)
#ifdef __CUDACC__
template <class T>
__device__ __forceinline__ void stage_shared(const View &v, const T *__restrict__ copy,
                                             unsigned char *stage, long long block) {
  if (v.layout != kLayoutSharing)
    return;
  // The layout is the same for every thread of the launch: the barrier is uniform.
  const long long blocks = (v.n + blockDim.x - 1) / blockDim.x;
  if (block < blocks) {
    const long long first = v.block_first[block], count = v.block_first[block + 1] - first;
    // Whole elements in 16-, 8-, 4- or 1-byte words: one coalesced pass.
    using Word = typename std::conditional<
        sizeof(T) % 16 == 0 && alignof(T) >= 16, uint4,
        typename std::conditional<sizeof(T) % 8 == 0 && alignof(T) >= 8, unsigned long long,
                                  typename std::conditional<sizeof(T) % 4 == 0 && alignof(T) >= 4,
                                                            unsigned, unsigned char>::type>::type>::type;
    constexpr long long kWords = sizeof(T) / sizeof(Word);
    const Word *from = reinterpret_cast<const Word *>(copy + first);
    Word *to = reinterpret_cast<Word *>(stage);
    for (long long w = threadIdx.x; w < count * kWords; w += blockDim.x)
      to[w] = from[w];
  }
  __syncthreads();
}

// Thread t's iter-th element of a shareable site's copy, by value: from shared
// memory under kLayoutSharing, from the copy in global memory otherwise.
template <class T>
__device__ __forceinline__ T read_shared(const View &v, const T *__restrict__ copy,
                                         const unsigned char *stage, long long t, long long iter) {
  if (v.layout == kLayoutSharing)
    return reinterpret_cast<const T *>(stage)[v.local[iter * v.n + t]];
  return copy[neighbor_slot(v, t, iter)];
}
#endif

// Dynamic shared memory a shareable site's launch adds to its own (zero).
__host__ __device__ __forceinline__ size_t shared_bytes(const View &v) {
  return v.layout == kLayoutSharing ? v.shared_bytes : 0;
}

// Trip count of thread t's range loop (B[t+1] - B[t] of the original; t physical).
__device__ __forceinline__ int length(const View &v, long long t) { return v.len[t]; }

// The logical thread that physical thread p works for: perm[p] under
// SELL-32-sigma and the locality order (p < n), p itself otherwise. A permutable kernel computes its
// thread index p as usual, reads its copies at slot(v, p, iter), and uses
// logical_thread(v, p) wherever the original used the thread index.
__device__ __forceinline__ long long logical_thread(const View &v, long long p) {
  const bool mapped = v.perm && p >= 0 && p < v.n;
  const int logical = load_if(mapped, v.perm + (mapped ? p : 0));
  return mapped ? logical : p;
}

// Element type of an index array (B, C).
enum IndexKind : int { kIndexI32 = 0, kIndexU32 = 1, kIndexI64 = 2, kIndexU64 = 3 };

template <class T> struct IndexKindOf;
template <> struct IndexKindOf<int> { static constexpr IndexKind value = kIndexI32; };
template <> struct IndexKindOf<unsigned> { static constexpr IndexKind value = kIndexU32; };
template <> struct IndexKindOf<long> {
  static constexpr IndexKind value = sizeof(long) == 8 ? kIndexI64 : kIndexI32;
};
template <> struct IndexKindOf<unsigned long> {
  static constexpr IndexKind value = sizeof(long) == 8 ? kIndexU64 : kIndexU32;
};
template <> struct IndexKindOf<long long> { static constexpr IndexKind value = kIndexI64; };
template <> struct IndexKindOf<unsigned long long> { static constexpr IndexKind value = kIndexU64; };
template <class T> struct IndexKindOf<const T> : IndexKindOf<T> {};

// index_kind(B) for any pointer to an integer index type.
template <class T> constexpr IndexKind index_kind(const T *) { return IndexKindOf<T>::value; }

// Static description of one site, emitted by the tool next to the launcher.
struct SiteInfo {
  const char *id;     // "file.cu:LINE:COL", unique per site in a program
  const char *kernel; // kernel name
  const char *pattern; // its name in irregfix/pattern.h: "range", "range2", "gather", "gather2", "neighbors", "indexed"
  int flags = 0;       // SiteFlags
  // The transformed kernel (its host-side handle), for kSiteShareable sites:
  // the runtime reads its static shared memory and raises its dynamic limit.
  const void *transformed = nullptr;
  // The source arrays as the kernel names them, comma-separated, in the order
  // the runtime knows them: the data arrays (as passed to prepare_*), then the
  // index arrays (B, then C or the neighbour counts): "val,col,row_ptr".
  // Messages (IRREGFIX_VERIFY) name arrays with it; null: by position.
  const char *sources = nullptr;
  // A range site whose kernel uses the values of its copy arrays[renumbered]
  // only as subscripts of other arrays, each read nowhere else (`x[col[k]]`;
  // prepare_renumbered): in the locality order that copy may hold renumbered
  // values, read through copies of those arrays in the same order. -1: none.
  int renumbered = -1;
};

enum SiteFlags : int {
  // The kernel reads its copies at physical slots and maps its thread index
  // through logical_thread(), and its threads do not cooperate (no shared
  // memory, barriers or warp intrinsics): the runtime may permute threads.
  kSitePermutable = 1,
  // The kernel's launcher runs it chunk by chunk (start_chunks / launch_chunk):
  // the transformed kernel takes a block offset and its blocks do not depend on
  // the grid's size, so a launch may be split into launches of fewer blocks.
  kSiteChunkable = 2,
  // The kernel's launcher runs a hoisted loop (begin_hoisted): a launch that
  // must remap copies in slices of iterations, each step waiting for its own.
  kSiteHoisted = 4,
  // The kernel may stage the site's copy in shared memory (kLayoutSharing): it
  // calls stage_shared first thing, reads through read_shared, uses no dynamic
  // shared memory of its own, and its thread index is the 1-D global index
  // (no grid-stride loop), so thread t belongs to block t / blockDim.x.
  kSiteShareable = 8,
  // The kernel has a variant running each row of its range site with several
  // lanes (<kernel>_irregfix_lanes, kLayoutLanes): its loop reduces by operators
  // whose order does not matter, and its launcher runs it when the view is in
  // the lanes layout (runs_lanes).
  kSiteLanes = 16,
  // ... and that variant reorders a floating-point sum, min or max
  // (--reassociate): its results may differ from the original's in the last bits.
  kSiteReassociates = 32,
  // ... or that variant keeps the original's order: the lanes load the row's
  // elements together and each runs the loop over them one by one (a float
  // sum without --reassociate). Every lane does the row's work, so it pays only
  // with one row a warp over long rows.
  kSiteLanesInOrder = 64,
};

// One chunk of a pipelined launch: the transformed kernel runs with this grid
// and adds block_offset to blockIdx.x.
struct Chunk {
  dim3 grid;
  unsigned block_offset;
};

// ---- warp-cooperative rows (kLayoutLanes) -------------------------------------
// A range site whose kernel reduces its row may run each row with L lanes (L a
// power of two from 2 to 32, View::lanes): the launcher launches
// `<kernel>_irregfix_lanes` with lanes_launch's configuration, whose thread g
// works for row g / L as lane g % L (a row's lanes are L consecutive threads of
// one warp), takes the iterations k = start + lane, start + lane + L, ... of the
// row in the original arrays, and combines the lanes' parts with
// lanes_combine; lane 0 then runs the code after the loop.

// Passed by value to a lanes variant.
struct Lanes {
  int lanes;         // L
  int shift;         // log2(L): a thread's row is g >> shift
  long long threads; // the original launch's threads (grid.x * block.x): rows 0 .. threads - 1
};

// A lanes variant's launch: grid and block, and its argument.
struct LanesLaunch {
  dim3 grid;
  dim3 block;
  Lanes lanes;
};

// Whether the launcher runs the lanes variant for a view prepare_range returned.
inline bool runs_lanes(const View &v) { return v.layout == kLayoutLanes && v.lanes >= 2; }

// The variant's configuration for a launch of grid x block threads (one-
// dimensional: the runtime chooses the lanes layout for no other): L threads
// for each of the launch's, in blocks of the launch's size when it is a
// multiple of 32 (so that a row's lanes share a warp), else of 256.
inline LanesLaunch lanes_launch(const View &v, dim3 grid, dim3 block) {
  LanesLaunch l;
  l.lanes.lanes = v.lanes;
  l.lanes.shift = 0;
  while ((2 << l.lanes.shift) <= v.lanes)
    ++l.lanes.shift;
  l.lanes.threads = static_cast<long long>(grid.x) * block.x;
  const unsigned threads = block.x > 0 && block.x <= 1024 && block.x % 32 == 0 ? block.x : 256;
  const long long total = l.lanes.threads * v.lanes;
  l.block = dim3(threads, 1, 1);
  l.grid = dim3(static_cast<unsigned>((total + threads - 1) / threads), 1, 1);
  return l;
}

// The rows a launch computes: those below the kernel's guard n among its threads.
inline long long lanes_rows(const LanesLaunch &l, long long n) { return n < l.lanes.threads ? n : l.lanes.threads; }

#ifdef __CUDACC__
// The variant's thread: its global index g, the threads that work (L a row of
// the original's), its lane and its row.
__device__ __forceinline__ long long lanes_global_thread() {
  return static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ long long lanes_threads(const Lanes &l) { return l.threads * l.lanes; }
__device__ __forceinline__ int lane_of(const Lanes &l, long long g) { return static_cast<int>(g & (l.lanes - 1)); }
__device__ __forceinline__ long long row_of(const Lanes &l, long long g) { return g >> l.shift; }

// The row's lanes in their warp: L aligned lanes (the block is a multiple of 32).
__device__ __forceinline__ unsigned lanes_mask(const Lanes &l) {
  if (l.lanes >= 32)
    return 0xffffffffu;
  const unsigned first = (threadIdx.x & 31u) & ~static_cast<unsigned>(l.lanes - 1);
  return ((1u << l.lanes) - 1u) << first;
}

// How an accumulator's parts combine.
enum LanesOp : int { kLanesSum, kLanesProduct, kLanesMin, kLanesMax, kLanesAnd, kLanesOr, kLanesXor, kLanesAll, kLanesAny };

template <int Op> struct LanesOperator;
template <> struct LanesOperator<kLanesSum> {
  template <class T> __device__ static T apply(T a, T b) { return static_cast<T>(a + b); }
};
template <> struct LanesOperator<kLanesProduct> {
  template <class T> __device__ static T apply(T a, T b) { return static_cast<T>(a * b); }
};
template <> struct LanesOperator<kLanesMin> {
  template <class T> __device__ static T apply(T a, T b) { return b < a ? b : a; }
};
template <> struct LanesOperator<kLanesMax> {
  template <class T> __device__ static T apply(T a, T b) { return a < b ? b : a; }
};
template <> struct LanesOperator<kLanesAnd> {
  template <class T> __device__ static T apply(T a, T b) { return static_cast<T>(a & b); }
};
template <> struct LanesOperator<kLanesOr> {
  template <class T> __device__ static T apply(T a, T b) { return static_cast<T>(a | b); }
};
template <> struct LanesOperator<kLanesXor> {
  template <class T> __device__ static T apply(T a, T b) { return static_cast<T>(a ^ b); }
};
template <> struct LanesOperator<kLanesAll> {
  template <class T> __device__ static T apply(T a, T b) { return static_cast<T>(a && b); }
};
template <> struct LanesOperator<kLanesAny> {
  template <class T> __device__ static T apply(T a, T b) { return static_cast<T>(a || b); }
};

// The word a value crosses lanes as: types narrower than 32 bits widen.
template <class T> struct LaneWord { using type = T; };
template <> struct LaneWord<bool> { using type = int; };
template <> struct LaneWord<char> { using type = int; };
template <> struct LaneWord<signed char> { using type = int; };
template <> struct LaneWord<unsigned char> { using type = unsigned; };
template <> struct LaneWord<short> { using type = int; };
template <> struct LaneWord<unsigned short> { using type = unsigned; };

// The row's lanes' parts combined by Op, in a fixed tree of shuffles: every
// lane gets a result (lane 0's is the one the variant keeps), and the same
// bits at every run.
template <int Op, class T> __device__ __forceinline__ T lanes_combine(T v, const Lanes &l) {
  using Word = typename LaneWord<T>::type;
  const unsigned mask = lanes_mask(l);
  for (int offset = l.lanes >> 1; offset > 0; offset >>= 1)
    v = LanesOperator<Op>::apply(v, static_cast<T>(__shfl_xor_sync(mask, static_cast<Word>(v), offset, l.lanes)));
  return v;
}

// In order (a variant that keeps the original's sums): lane `from`'s value of
// v, for every lane of the row (the element the lane loaded for the others).
template <class T> __device__ __forceinline__ T lanes_get(T v, long long from, const Lanes &l) {
  using Word = typename LaneWord<T>::type;
  return static_cast<T>(__shfl_sync(lanes_mask(l), static_cast<Word>(v), static_cast<int>(from), l.lanes));
}
#endif

// How IRREGFIX_VERIFY compares what a lanes variant stored with what the
// original stores: floats and doubles by their relative difference, anything
// else bit for bit.
enum ValueKind : int { kValueBits = 0, kValueF32 = 1, kValueF64 = 2 };
template <class T> constexpr int value_kind(const T *) {
  return std::is_same<typename std::remove_cv<T>::type, float>::value    ? kValueF32
         : std::is_same<typename std::remove_cv<T>::type, double>::value ? kValueF64
                                                                         : kValueBits;
}

// Range site: arrays[i][k] is read for k in [B[t], B[t+1]), t in [0, n).
// On true, *view and remapped[i] describe copies with
//   remapped[i][slot(*view, t, iter)] == arrays[i][B[t] + iter],  iter < length(*view, t).
// Padding slots are never written nor read. On false, launch the original kernel.
bool prepare_range(const SiteInfo &site, const void *B, IndexKind b_kind, long long n,
                   int count, const void *const *arrays, const size_t *elem_sizes,
                   View *view, const void **remapped, cudaStream_t stream);

// After prepare_range of a site with SiteInfo::renumbered = r, for each array
// the kernel reads at the values of arrays[r] (`x` of `x[col[k]]`), numbered
// from 0 by `which`: on true, *renumbered is what the transformed kernel reads
// in its place, so that
//   renumbered[remapped[r][slot]] == gathered[arrays[r][B[t] + iter]].
// That is `gathered` itself, except in the locality order when every value of
// arrays[r] is a thread index: there the copy of arrays[r] holds each value's
// position in the order, and *renumbered is gathered copied in that order at
// this launch (neighbouring threads then read neighbouring elements). Only
// elements between the least and the greatest value are read. On false (the
// copy could not be allocated), launch the original kernel.
bool prepare_renumbered(const SiteInfo &site, int which, const void *gathered, size_t elem_size,
                        const void **renumbered, cudaStream_t stream);

// A permutable kernel without a site (pattern "order"): on true, *view holds
// a locality order that a site computed over as many threads as this launch
// runs (grid.x blocks of block.x: the one whose n needs that many blocks), in
// the runtime's own copy; the kernel computes its thread index p as usual and
// works for logical_thread(*view, p). False (none yet, a launch that is not
// one-dimensional, IRREGFIX_LAYOUT naming a copy layout): launch the original.
bool prepare_order(const SiteInfo &site, View *view, cudaStream_t stream);

// Gather site: on true, remapped[slot(*view, t, 0)] == A[B[t]] for t in [0, n)
// whose index lies inside A's allocation; other slots (sentinels the kernel
// guards, such as B[t] == -1) are skipped, never written and never read.
bool prepare_gather(const SiteInfo &site, const void *B, IndexKind b_kind, long long n,
                    const void *A, size_t elem_size, View *view, const void **remapped,
                    cudaStream_t stream);

// Two-level range (survey propagation's calc_pi_values): thread t's row is
// r = C[t], and it reads arrays[i][B[r] + iter] for iter < B[r+1] - B[r].
// On true: remapped[i][slot(*view, t, iter)] == arrays[i][B[C[t]] + iter] and
// length(*view, t) == B[C[t]+1] - B[C[t]].
bool prepare_range2(const SiteInfo &site, const void *B, IndexKind b_kind, const void *C,
                    IndexKind c_kind, long long n, int count, const void *const *arrays,
                    const size_t *elem_sizes, View *view, const void **remapped,
                    cudaStream_t stream);

// Two-level gather: on true, remapped[slot(*view, t, 0)] == A[B[C[t]]] for t in [0, n).
bool prepare_gather2(const SiteInfo &site, const void *B, IndexKind b_kind, const void *C,
                     IndexKind c_kind, long long n, const void *A, size_t elem_size, View *view,
                     const void **remapped, cudaStream_t stream);

// Neighbour-list gather (molecular dynamics): thread t reads A[NB[j*stride_j + t*stride_t]]
// for j in [0, count(t)), count(t) = counts ? counts[t] : m.
// On true: remapped[slot(*view, t, j)] == A[NB[j*stride_j + t*stride_t]] for every such
// (t, j) whose index lies inside A's allocation. Indices outside it (sentinels such as
// -1, which the kernel guards) are skipped: their slots are never written, and the
// kernel never reads them. view->len is null: the kernel keeps its own loop.
bool prepare_neighbors(const SiteInfo &site, const void *NB, IndexKind nb_kind,
                       long long stride_j, long long stride_t, long long m, const void *counts,
                       IndexKind counts_kind, long long n, const void *A, size_t elem_size,
                       View *view, const void **remapped, cudaStream_t stream);

// ---- field pieces: copies of the fields a kernel reads ----------------------
// A gather or neighbour-list site that reads only some fields of a structure
// element has its copy split into pieces, each an aligned element of 4, 8 or
// 16 bytes holding some of those fields; piece p's copy is remapped[p], in the
// site's layout (ELL: element (t, iter) at slot(view, t, iter), as the whole
// copy would be). Only the copy changes: the site's sources, cache entry,
// invalidation and IRREGFIX_VERIFY are those of the whole copy (A and the
// index arrays).

// One field: bytes [from, from + size) of the source element go to
// [to, to + size) of the piece's element. size is 4 or 8, offsets multiples of it.
struct FieldCopy {
  unsigned from;
  unsigned to;
  unsigned size;
};

constexpr int kMaxPieceFields = 4; // 16 bytes of 4-byte fields
constexpr int kMaxFieldPieces = 8;

// One piece: its element's size (4, 8 or 16, also its alignment) and fields.
struct FieldPiece {
  unsigned size;
  int count;
  FieldCopy fields[kMaxPieceFields];
};

// prepare_gather, the copy split into pieces: on true,
// piece p of remapped[p][slot(*view, t, 0)] holds the fields of A[B[t]] that
// pieces[p] names (bytes a piece's fields leave free are zero).
bool prepare_gather_fields(const SiteInfo &site, const void *B, IndexKind b_kind, long long n,
                           const void *A, size_t elem_size, int piece_count,
                           const FieldPiece *pieces, View *view, const void **remapped,
                           cudaStream_t stream);

// prepare_neighbors, the copy split into pieces: on true, remapped[p][slot(*view, t, j)]
// holds pieces[p]'s fields of A[NB[j*stride_j + t*stride_t]]. Always ELL.
bool prepare_neighbors_fields(const SiteInfo &site, const void *NB, IndexKind nb_kind,
                              long long stride_j, long long stride_t, long long m,
                              const void *counts, IndexKind counts_kind, long long n,
                              const void *A, size_t elem_size, int piece_count,
                              const FieldPiece *pieces, View *view, const void **remapped,
                              cudaStream_t stream);

// ---- indexed copies: any index the tool can compute --------------------------
// A site whose element indices fit none of the patterns above (a chain of
// loads, struct fields, a member function, a loop with any bounds...): the tool
// generates kernels that compute them, and the runtime asks the launcher, step
// by step, for what only the program can compute. Either a gather, A[f(t)]
// (no loop), or a loop site: the reads A[f(t, k)] of a loop
// k = first(t), ..., first(t) + len(t) - 1 that thread t runs. The copies hold
//   remapped[a][slot(view, t, iter)] == arrays[a][idx_a(t, iter)],  iter < len(t)
// (gathers: iter 0), idx_a being the a-th array's element index at
// k = first(t) + iter. Indices outside the array's allocation (sentinels the
// kernel guards, such as -1) are skipped: those slots are never written, and
// the kernel never reads them.
struct IndexedSite {
  long long n = 0;                           // threads t in [0, n)
  int loop = 0;                              // nonzero: a loop site (its lengths come first)
  int count = 0;                             // data arrays read through copies
  const void *const *arrays = nullptr;       // arrays[a]: what the kernel indexes
  const size_t *elem_sizes = nullptr;
  // Arrays the index kernels read: a write to one makes the indices stale too
  // (a write to a data array only makes its copy stale).
  int index_count = 0;
  const void *const *index_arrays = nullptr;
  // Scalars the index kernels read (the cache key holds them).
  int scalar_count = 0;
  const long long *scalars = nullptr;
};

enum IndexedStep : int {
  kIndexedReady = 0,   // the copies are ready: launch the transformed kernel
  kIndexedLengths = 1, // run the lengths kernel: len[t] = the trip count of t's loop, t < n
  kIndexedIndices = 2, // run the indices kernel: idx[a][slot(view, t, iter)] = idx_a(t, iter)
                       // for t < n and iter < length(view, t) (gathers: iter 0 only)
};

// What the launcher must compute next (prepare_indexed, continue_indexed).
struct IndexedWork {
  int step = kIndexedReady;
  int *len = nullptr;              // kIndexedLengths: int[n] to fill
  View view = {};                  // kIndexedIndices: where thread t's iter-th index goes
  long long *const *idx = nullptr; // kIndexedIndices: one array of element indices a data array
};

// The launcher of a kernel with an indexed site (with `site` and `s`):
//   IndexedWork w;
//   bool ok = prepare_indexed(site, s, &w, &view, remapped, stream);
//   while (ok && w.step != kIndexedReady) {
//     if (w.step == kIndexedLengths) <lengths kernel><<<..., stream>>>(..., s.n, w.len);
//     else <indices kernel><<<..., stream>>>(..., w.view, w.idx[0], w.idx[1], ...);
//     ok = continue_indexed(site, &w, &view, remapped, stream);
//   }
// On a cache hit the first step is kIndexedReady; after a write to a data array
// only, the indices are kept and the copies gathered again. False at any step:
// launch the original kernel (the reason is in the statistics).
bool prepare_indexed(const SiteInfo &site, const IndexedSite &s, IndexedWork *work, View *view,
                     const void **remapped, cudaStream_t stream);
bool continue_indexed(const SiteInfo &site, IndexedWork *work, View *view, const void **remapped,
                      cudaStream_t stream);

// ---- irregular reductions: the inspector-executor -----------------------------
// A scatter site: each thread t < n adds one contribution e(t) to A[f[t]]
// (`A[f[t]] += e`, `atomicAdd(&A[f[t]], e)`). The tool generates a variant of
// the kernel that writes e(t) to contrib[slots[t]] instead of updating A. The
// runtime's inspector sorts the pairs (f[t], t) (a stable CUB radix sort: per
// element of A, the threads that update it, in thread order), gives each
// thread its slot (its own, t, or, when its element has more than 32 updates,
// one of consecutive slots after the n that the element's updates share), and
// keeps the result while f is unchanged, with the invalidation and
// IRREGFIX_VERIFY checks of the copies; its executor sums each updated
// element's contributions (a thread an element in thread order; a warp or a
// block a chunk for more than 32, in a fixed strided-then-tree order) and adds the sum
// to A once: no contention, the same bits at every run. Indices outside A's allocation
// (sentinels the kernel guards, such as -1) are left out.
// The launcher:
//   ScatterPlan plan;
//   if (begin_launch(site, stream, grid, block) &&
//       prepare_scatter(site, f, index_kind(f), n, A, scatter_kind(A), &plan, stream)) {
//     <variant><<<grid, block, shmem, stream>>>(..., (T *)plan.contrib, plan.slots);
//     if (execute_scatter(site, plan, stream)) { end_transformed_launch(site, stream); return; }
//   }
//   <original kernel><<<...>>>(...); end_original_launch(site, stream);
// Under auto the selector times the variant and executor against the original
// (atomic) kernel and keeps the faster; IRREGFIX_DETERMINISTIC=1 always takes
// the executor (IRREGFIX_DISABLE still wins). A failure at any step (the byte
// cap, an allocation, a CUDA error) runs the original kernel, which repeats
// the variant's other writes (the tool allows only stores of a thread's own
// elements, which rewriting leaves as they were).
// A thread may make up to four updates of A (an edge adding to both its ends,
// `atomicAdd(&r[a[t]], x); atomicAdd(&r[b[t]], -x);`): the launcher passes
// scatter_indices(a, b), and update k of thread t is item t * count + k, so
// that an element's contributions are summed in the order a sequential loop
// over the threads would add them.

// Element type of the array A a scatter site adds to.
enum ScatterKind : int { kScatterF32 = 0, kScatterF64 = 1, kScatterI32 = 2 };

template <class T> struct ScatterKindOf;
template <> struct ScatterKindOf<float> { static constexpr ScatterKind value = kScatterF32; };
template <> struct ScatterKindOf<double> { static constexpr ScatterKind value = kScatterF64; };
template <> struct ScatterKindOf<int> { static constexpr ScatterKind value = kScatterI32; };

// scatter_kind(A) for a float, double or int array.
template <class T> constexpr ScatterKind scatter_kind(const T *) { return ScatterKindOf<T>::value; }

// What prepare_scatter hands the launcher and execute_scatter.
struct ScatterPlan {
  void *contrib = nullptr;         // n + region elements of A's type, zeroed, this launch's own
  void *target = nullptr;          // A
  int kind = kScatterF32;          // a ScatterKind
  long long n = 0;                 // contributions (items): threads * updates a thread
  // The inspector's result: segment s updates A[target_first + targets[s]]
  // (targets[s] == extent: indices outside A's allocation, skipped) with the
  // contributions of items threads[first[s]], ..., threads[first[s+1] - 1];
  // item i's contribution goes to contrib[slots[i]], which is contrib[i] but
  // for the items of a segment of more than 32: theirs are consecutive, from
  // contrib[n + region_first[s]] (n + region slots in all). A segment of
  // more than 4096 is summed in chunks: chunk_first[s] is its first,
  // chunk_segment[c] the segment of chunk c (chunks in all).
  const unsigned *targets = nullptr;
  const int *first = nullptr;
  const int *threads = nullptr;
  const int *slots = nullptr;
  const int *region_first = nullptr;
  const int *chunk_first = nullptr;
  const int *chunk_segment = nullptr;
  long long segments = 0, region = 0, chunks = 0;
  long long target_first = 0;      // A's allocation's first element, as an index of A (<= 0)
  unsigned long long extent = 0;   // elements of A's allocation: targets[s] < extent
  int sms = 0;                     // the device's multiprocessors: the executor's grid for long segments
  // Assignments: a flag a slot, zeroed, the variant setting written[slots[i]] = 1
  // beside item i's contribution; null for adds.
  unsigned char *written = nullptr;
};

// The index arrays of a scatter site's updates, in the order of its updates.
struct ScatterIndices {
  static constexpr int kMax = 4;
  const void *f[kMax] = {};
  IndexKind kind[kMax] = {};
  int count = 0;
};

template <class... I> ScatterIndices scatter_indices(const I *...f) {
  static_assert(sizeof...(I) >= 1 && sizeof...(I) <= ScatterIndices::kMax, "one to four index arrays");
  ScatterIndices out;
  ((out.f[out.count] = f, out.kind[out.count] = index_kind(f), ++out.count), ...);
  return out;
}

// On true, *plan holds a zeroed contrib buffer (n * indices.count elements)
// and the segments of the index arrays' current contents (cached, or computed
// now). On false, launch the original kernel.
bool prepare_scatter(const SiteInfo &site, const ScatterIndices &indices, long long n, void *A, ScatterKind kind,
                     ScatterPlan *plan, cudaStream_t stream);

// Assignments, `A[f[t]] = e`: as prepare_scatter, with plan->written. The
// executor stores in each element the value of the highest contribution that
// wrote it (item t * count + k: the last store a loop over the threads would
// make) and leaves the elements no thread wrote as they were.
bool prepare_scatter_assign(const SiteInfo &site, const ScatterIndices &indices, long long n, void *A,
                            ScatterKind kind, ScatterPlan *plan, cudaStream_t stream);

// One update a thread, through f.
inline bool prepare_scatter(const SiteInfo &site, const void *f, IndexKind f_kind, long long n, void *A,
                            ScatterKind kind, ScatterPlan *plan, cudaStream_t stream) {
  ScatterIndices one;
  one.f[0] = f;
  one.kind[0] = f_kind;
  one.count = 1;
  return prepare_scatter(site, one, n, A, kind, plan, stream);
}

// After the variant's launch: the executor, on `stream`. False (the variant's
// launch failed, or the executor's; the error cleared and counted): launch the
// original kernel.
bool execute_scatter(const SiteInfo &site, const ScatterPlan &plan, cudaStream_t stream);

// Where each array an index kernel reads lies: the device allocation holding
// it. The generated kernels read index arrays with checked_load, so that an
// index the kernel itself would never compute (the tool computes every thread's,
// past the kernel's own guards) cannot read outside an allocation.
struct IndexExtents {
  static constexpr int kMax = 16;
  unsigned long long lo[kMax];  // [lo, hi): the allocation's bytes
  unsigned long long hi[kMax];
};

// The allocations of arrays[0, count): true, or false (with the reason in the
// statistics) when one is not device memory the runtime can find or count > kMax.
bool index_extents(const SiteInfo &site, const void *const *arrays, int count, IndexExtents *out);

#ifdef __CUDACC__
// p[i] when the element lies inside extent k; otherwise a value-initialised T
// and ok cleared (then the index computed from it is not used).
template <class T>
__device__ __forceinline__ T checked_load(const T *p, long long i, const IndexExtents &x, int k, bool &ok) {
  const unsigned long long a = reinterpret_cast<unsigned long long>(p) + static_cast<unsigned long long>(i) * sizeof(T);
  if (!ok || a < x.lo[k] || a + sizeof(T) > x.hi[k] || a + sizeof(T) < a) {
    ok = false;
    return T();
  }
  return p[i];
}
#endif

// The index an indices kernel writes where it computed none (a checked load
// failed): outside every allocation, so the runtime skips the slot.
constexpr long long kNoIndex = -0x7fffffffffffffffLL - 1;

// Run-time alias check for a pointer the kernel writes against one it reads
// through a site: true when they lie in different device allocations.
// When it returns false the launcher runs the original kernel.
bool disjoint(const SiteInfo &site, const void *written, const void *read);

// As disjoint, for a __device__ variable the kernel writes (`symbol` is its
// host-side address, &var): true when it lies in another allocation than
// `read`; false also when its device address cannot be found.
bool disjoint_symbol(const SiteInfo &site, const void *symbol, const void *read);

// A kernel whose thread index is written with a literal block size
// (`blockIdx.x * 256 + threadIdx.x`): true when the launch's blocks have that
// many threads (one-dimensional); otherwise the launch runs the original
// kernel, and the statistics say why.
bool block_size_is(const SiteInfo &site, dim3 block, unsigned threads);

// IRREGFIX_VERIFY with a lanes variant, in its launcher. Before the variant
// runs: *reference is a device copy of stored[0, m) (elem_size bytes each,
// compared as value_kind says; m the larger of count, the rows, and the
// launch's threads, cut at the end of stored's allocation, since the original
// may store at any of its threads), which the original kernel, launched after
// end_transformed_launch with the reference in place of `stored` (`which`
// numbers the arrays it stores at its thread index), writes as it would write
// `stored`; null when not verifying or the copy could not be made (then the
// launcher runs nothing more). Returns whether *reference was set.
bool lanes_reference(const SiteInfo &site, int which, const void *stored, size_t elem_size, int value_kind,
                     long long count, void **reference, cudaStream_t stream);
// After that original launch: compares each reference with what the variant
// stored. A site whose variant reassociates (kSiteReassociates) records the
// largest relative difference (IRREGFIX_STATS; on stderr the first time);
// any other difference is an error, reported on stderr and counted.
void lanes_compare(const SiteInfo &site, cudaStream_t stream);

// Counts one launch of the site's kernel that ran the original instead, and why.
void note_fallback(const SiteInfo &site, const char *why);

// The launch protocol of a generated launcher, `site` being the kernel's first site:
//   if (begin_launch(site, stream, grid, block) && <alias checks> && <prepare_* of each site>) {
//     <transformed kernel><<<..., stream>>>(...);  end_transformed_launch(site, stream);
//   } else {
//     <original kernel><<<..., stream>>>(...);     end_original_launch(site, stream);
//   }
// begin_launch says whether to try the transformed kernel: false when disabled,
// under IRREGFIX_LAYOUT=none, or when the selector's timings favour the
// original (then no copy is built). It may ask for this launch to be timed:
// events on `stream`, read back at later launches, never by waiting.
// grid and block are the launch's configuration (zero: unknown): a permutable
// kernel's threads are permuted (SELL-32-sigma) only when grid.x * block.x
// covers every thread its sites name, as permuting would otherwise change which
// rows the launched threads compute.
// shmem is the launch's own dynamic shared memory: the sharing layout is used
// only by launches without any (and with one-dimensional blocks and grid).
bool begin_launch(const SiteInfo &site, cudaStream_t stream, dim3 grid = dim3(0, 0, 0),
                  dim3 block = dim3(0, 0, 0), size_t shmem = 0);
// After the transformed kernel's launch: counts it and checks it was accepted
// (cudaPeekAtLastError, so the program's own error checks still see an error).
void end_transformed_launch(const SiteInfo &site, cudaStream_t stream);
// After the original kernel's launch (chosen, or a fallback).
void end_original_launch(const SiteInfo &site, cudaStream_t stream);

// The launcher of a chunkable kernel (kSiteChunkable), after its prepare_* calls:
//   int chunks;
//   if (... && start_chunks(site, stream, &chunks)) // false: run the original kernel
//     for (int c = 0; c < chunks; ++c) {
//     Chunk k = launch_chunk(site, c, grid, stream);
//     <transformed kernel><<<k.grid, block, shmem, stream>>>(..., k.block_offset);
//   }
// When the prepares remapped (a miss or a refresh) and the grid is one-
// dimensional, the copies are cut into chunks of thread blocks (IRREGFIX_CHUNKS,
// or a model of remap vs kernel time): chunk c+1's copy runs on a remap stream
// while chunk c computes on `stream`, ordered by events (work queued on `stream`
// before the launch happens before the copies; work after it sees the results).
// A cached launch is one chunk: the whole grid, offset 0.
bool start_chunks(const SiteInfo &site, cudaStream_t stream, int *chunks);
// Chunk c's configuration (the launch's grid when there is one chunk); `stream`
// waits for that chunk's copies.
Chunk launch_chunk(const SiteInfo &site, int chunk, dim3 grid, cudaStream_t stream);

// ---- hoisted loops (--hoist) --------------------------------------------------
// A hoisted kernel runs its loop from the host: one launch per step, each the
// iterations [begin, end) of every thread's loop, then one epilogue launch that
// runs the code after the loop. The locals the loop modifies are carried per
// thread in device buffers between launches. What the steps buy is overlap: a
// launch that must remap copies slice s+1 of the iterations while step s
// computes. A launch whose copies are cached has nothing to overlap and runs the
// in-kernel loop (one launch, no live values to carry), unless
// IRREGFIX_HOIST_ALWAYS=1.
// The launcher (its site infos say kSiteHoisted):
//   HoistPlan plan;
//   if (begin_launch(...) && <prepare_* of each site> &&
//       begin_hoisted(site, view, live_count, live_sizes, live_buffers, &plan, stream)) {
//     if (plan.hoisted) {
//       for (int s = 0; s < plan.steps; ++s) {
//         hoisted_step(site, s, stream);
//         <hoisted kernel><<<grid, block, shmem, stream>>>(..., hoist_step(plan, s), live...);
//       }
//       <hoisted kernel><<<...>>>(..., hoist_epilogue(plan), live...);
//     } else {
//       <in-kernel transformed kernel><<<...>>>(...);
//     }
//     end_transformed_launch(...);
//   } else { <original kernel>; end_original_launch(...); }

// Passed by value to a hoisted kernel.
struct HoistStep {
  int begin, end; // the iterations this launch runs
  int epilogue;   // nonzero: skip the loop and run the code after it
  int carried;    // nonzero (epilogue): the buffers hold the live values (some step ran)
};

// The steps of one hoisted launch, from begin_hoisted.
struct HoistPlan {
  int steps = 0;        // launches before the epilogue: ceil(width / group)
  int group = 1;        // iterations a step
  long long width = 0;  // iterations of the longest thread (View::width)
  int hoisted = 0;      // nonzero: run the steps; zero: the in-kernel loop
};

// Step s of a plan (0 <= s < plan.steps), and its epilogue.
__host__ __device__ inline HoistStep hoist_step(const HoistPlan &plan, int s) {
  long long begin = static_cast<long long>(s) * plan.group;
  long long end = begin + plan.group < plan.width ? begin + plan.group : plan.width;
  return HoistStep{static_cast<int>(begin), static_cast<int>(end), 0, 0};
}
__host__ __device__ inline HoistStep hoist_epilogue(const HoistPlan &plan) {
  return HoistStep{0, 0, 1, plan.steps > 0 ? 1 : 0};
}

// Called by a generated launcher after its prepare_* succeeded, with the hoisted
// loop's site and view. Plans the steps: IRREGFIX_HOIST_GROUP iterations a step
// (1 is the paper's one launch per iteration), by default ceil(width / 4), four
// steps. Hoists (plan->hoisted) when the launch remaps and has two steps or
// more, or under IRREGFIX_HOIST_ALWAYS=1: provides live_count buffers of view.n
// elements of live_sizes[i] bytes in live_buffers[i] (kept per site, device and
// stream, grown when too small) and enqueues the copies in slices on a remap
// stream. Otherwise (cached copies, one step, or the live buffers could not be
// allocated) the copies are enqueued whole on `stream` and the launcher runs the
// in-kernel loop. False when a copy could not be enqueued (the reason is
// reported): launch the original kernel.
bool begin_hoisted(const SiteInfo &site, const View &view, int live_count, const size_t *live_sizes,
                   void **live_buffers, HoistPlan *plan, cudaStream_t stream);

// Called before each step's launch: step s waits for the copy of its slice of
// iterations (nothing to wait for when the copies were cached or whole).
void hoisted_step(const SiteInfo &site, int step, cudaStream_t stream);

} // namespace irregfix

// Marks every cached copy built from memory at `ptr` stale; the next launch
// that needs it refreshes it in place. The tool inserts this before host writes
// it can see (cudaMemcpy*/cudaMemset* destinations, launches of kernels that
// write the pointer); call it for writes it cannot see.
extern "C" void irregfix_invalidate(const void *ptr);

// Why every cached copy was dropped at once (irregfix_invalidate_all); the
// IRREGFIX_STATS report counts invalidations by cause.
enum irregfix_cause {
  // A launch of a kernel that stores through a pointer the tool cannot trace
  // (loaded from memory: struct pointers, pointer arrays, __device__ pointers),
  // calls code it cannot see, or whose body is in another file.
  IRREGFIX_CAUSE_UNTRACED_KERNEL = 1,
  // A launch the tool cannot follow: cudaLaunchKernel, cudaLaunchCooperativeKernel,
  // cudaLaunchKernelEx, cudaGraphLaunch, the driver API, a kernel pointer.
  IRREGFIX_CAUSE_LAUNCH_API = 2,
  // A call of a host function whose body the tool cannot see (another file, a
  // library) that may write device memory.
  IRREGFIX_CAUSE_UNSEEN_CALL = 3,
  // Entry into a function that code the tool cannot see may call: that code may
  // have written any source since the copies were built.
  IRREGFIX_CAUSE_ENTRY = 4,
  // A copy or set whose destination the tool cannot name (cudaMemcpy3D,
  // cudaMemset3D, batched copies, the driver API's device addresses).
  IRREGFIX_CAUSE_UNNAMED_COPY = 5,
  // A device reset (cudaDeviceReset, cudaThreadExit, cuDevicePrimaryCtxReset,
  // cuCtxDestroy): the runtime frees what it holds on the GPU before it runs
  // (irregfix_forget_device).
  IRREGFIX_CAUSE_DEVICE_RESET = 6,
};

// Marks every cached copy stale, on every device, as a write to each of its
// sources would (index arrays included: shapes are rebuilt); see irregfix_cause.
// `where` is the "file:line" of the point in the program, for the statistics.
// With nothing cached it only counts the call.
extern "C" void irregfix_invalidate_all(int cause, const char *where);

// A write to a __device__ variable (a kernel stores to it, cudaMemcpyToSymbol):
// copies built from its memory go stale. `symbol` is the variable's host-side
// address (&var), as cudaGetSymbolAddress takes it. Its range on the current
// device is asked once (not at all while nothing is cached); when it cannot be
// found, every copy goes stale (counted as IRREGFIX_CAUSE_UNNAMED_COPY).
extern "C" void irregfix_invalidate_symbol(const void *symbol);

namespace irregfix {

// Where code the tool cannot see runs (generated code; see irregfix_cause).
// The runtime counts, per host thread, the frames of functions of rewritten
// files that reach a transformed launch (irregfix::EntryGuard at their top): one
// entered while the count is zero was called from code the tool cannot see,
// which may have written any source, so every copy is dropped. A call of code
// the tool cannot see (irregfix::UnseenCall, a temporary bracketing the call:
// `(irregfix::UnseenCall(cause, where), f(...))`) drops every copy before and
// after the call, and sets the count to zero while it runs, so that functions
// it calls back count as entered from outside.
void enter_seen_code(const char *where);
void leave_seen_code();
int begin_unseen_code(int cause, const char *where);
void end_unseen_code(int saved, int cause, const char *where);

class EntryGuard {
public:
  explicit EntryGuard(const char *where) { enter_seen_code(where); }
  ~EntryGuard() { leave_seen_code(); }
  EntryGuard(const EntryGuard &) = delete;
  EntryGuard &operator=(const EntryGuard &) = delete;
};

class UnseenCall {
public:
  UnseenCall(int cause, const char *where) : cause_(cause), where_(where), saved_(begin_unseen_code(cause, where)) {}
  ~UnseenCall() { end_unseen_code(saved_, cause_, where_); }
  UnseenCall(const UnseenCall &) = delete;
  UnseenCall &operator=(const UnseenCall &) = delete;

private:
  int cause_;
  const char *where_;
  int saved_;
};

} // namespace irregfix

// The device is about to be reset, destroying every allocation, stream and
// event on it: the runtime frees every copy and buffer it holds, on every
// device, and forgets the allocations it looked up (the addresses may come back
// as other allocations). `where` as for irregfix_invalidate_all. The tool calls
// it through irregfix::UnseenCall(IRREGFIX_CAUSE_DEVICE_RESET, ...).
extern "C" void irregfix_forget_device(const char *where);

// The memory at `ptr` is about to be freed: as irregfix_invalidate, and the
// runtime forgets what it knew of that allocation. The tool inserts it before
// cudaFree/cudaFreeAsync; call it before frees it cannot see.
extern "C" void irregfix_release(const void *ptr);

namespace irregfix {

// Program-wide renumbering (docs/DESIGN.md). Before every launch of a file
// whose kernels may keep a domain — n elements whose arrays kernels index by
// the thread index, and the arrays whose values number them — in a locality
// order, the tool calls numbered_launch with what the kernel does with each of
// its pointer arguments. A kernel the tool finds indifferent to how its
// elements are numbered runs unchanged on arrays the runtime keeps renumbered;
// any other use of one of them (a kernel that is not, a copy or memset,
// unseen code) gets it back in the original numbering first.
enum NumberingRole : unsigned char {
  kNumberingNone = 0,           // not dereferenced
  kNumberingElements = 1,       // a[t], a[j*n + t] (t the thread index, n its bound)
  kNumberingNumbers = 2,        // holds element numbers
  kNumberingElementNumbers = 3, // both (a neighbour list NB[j*n + t])
  kNumberingOther = 4,          // indexed by other values: kept in the program's numbering
  kNumberingRows = 8,           // a sparse matrix's row starts, read at [t] and [t + 1] (CSR row pointers)
  kNumberingSegments = 16,      // stored along those rows (CSR values; columns: or-ed with kNumberingNumbers)
  kNumberingWritten = 0x80,     // or-ed in: the kernel writes it
};

struct NumberingKernel {
  const char *kernel;
  // Null: the kernel runs unchanged in any numbering of its elements. Else why
  // not: its launch first restores every array of the domain it gets.
  const char *not_because;
  const unsigned char *roles;  // a NumberingRole a pointer argument
  const unsigned short *sizes; // bytes an element, or a number
  // The graph among the pointer arguments that an order may be computed
  // from (-1: none): a neighbour list NB[j*n + t] and its counts (-1: none),
  // or the columns of a sparse matrix's rows and their row starts (-1: the
  // graph is a neighbour list).
  int graph;
  int graph_counts;
  int graph_rows;
  // Threads an element: a group of `lanes` consecutive threads shares each
  // row (a warp-per-row kernel); 1: a thread an element.
  int lanes;
  // A reduction that reads its elements through the order (the tool launches
  // a variant given numbered_positions()): renumbered arrays cost it a gather
  // of each element, which the runtime takes only where they fit the L2.
  int through_order;
};

// `n`: the launch's elements (the bound of its thread index); `pointers`: its
// pointer arguments, in order.
void numbered_launch(const NumberingKernel &kernel, long long n, cudaStream_t stream,
                     std::initializer_list<const void *> pointers);

// After numbered_launch on this host thread: where each element of the
// domain is kept (the element the program numbers i is at position
// positions[i], on the device) when that launch runs on renumbered arrays,
// else null (its arrays are as the program numbers them). A reduction whose
// sums another numbering would regroup reads its elements through them
// (element_at), and so sums them in the original's order.
const int *numbered_positions();

// Where element i is: positions[i], or i itself without positions.
__device__ __forceinline__ long long element_at(const int *__restrict__ positions, long long i) {
  return positions ? positions[i] : i;
}

} // namespace irregfix

// The host is about to read or write the device memory at `ptr` (a copy or a
// memset): an array of a renumbered domain holding it is restored to the
// program's numbering first; null: every array of the domain (a library call
// that may keep the pointers it is given). The tool inserts it in files that
// call irregfix::numbered_launch.
extern "C" void irregfix_host_access(const void *ptr);
