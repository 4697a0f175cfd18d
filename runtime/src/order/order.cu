// irregfix runtime: the locality order (seeds, breadth-first sweeps, the
// sort) and its inverse. See order.h.
#include "order.h"

#include "access_list.cuh"
#include "extent.cuh"
#include "order_kernels.cuh"
#include "remap_dispatch.cuh"

#include <cooperative_groups.h>
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <climits>

namespace irregfix {
namespace detail {
namespace {

namespace cg = cooperative_groups;
using order_kernels::aligned;
using order_kernels::kThreads;

// Propagation keys: hops (high 8 bits), seed (low kOrderSeedBits), so that
// the least is the nearest seed, ties to the lower; 4 bytes, so that the
// keys of 8 million threads fit the L2 the sweeps read them through at
// random (see KeyLayout for the sort's keys).
constexpr unsigned kNoKey = ~0u;
constexpr unsigned kHop = 1u << kOrderSeedBits;
constexpr unsigned kSeedMask = kHop - 1;

// ---- the order --------------------------------------------------------------

// Seeds every `region` threads: (0 hops, their seed number); the others none
// yet. The seeds are the first frontier (frontier[i] = seed i, sizes[0] of
// them; sizes[1], the next frontier's, starts at 0).
__global__ void __launch_bounds__(kThreads)
    seed_kernel(long long n, int region, unsigned *__restrict__ prop, int *__restrict__ frontier,
                int *__restrict__ sizes) {
  const long long stride = static_cast<long long>(gridDim.x) * kThreads;
  for (long long t = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x; t < n; t += stride) {
    const bool seed = t % region == 0;
    prop[t] = seed ? static_cast<unsigned>(t / region) : kNoKey;
    if (seed)
      frontier[t / region] = static_cast<int>(t);
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    sizes[0] = static_cast<int>((n + region - 1) / region);
    sizes[1] = 0;
  }
}

// next[size++] = e, one atomic for the lanes of a warp that append together
// (every thread of a sweep counts into the same word: the sweeps took 3.3 ms
// against 3.5 with an atomic a thread, a shuffled grid of 8 million on an
// H100). Where in the frontier an element lands does not matter: a sweep's
// keys are the least offers, in any order.
__device__ void append(int *next, int *size, int e) {
  const cg::coalesced_group g = cg::coalesced_threads();
  int base = 0;
  if (g.thread_rank() == 0)
    base = atomicAdd(size, static_cast<int>(g.size()));
  next[g.shfl(base, 0) + static_cast<int>(g.thread_rank())] = e;
}

// What thread t of the frontier does in a sweep (sweep_kernel, tail_kernel).
__device__ __forceinline__ void offer_from(const AccessList &a, unsigned *prop, long long t, int *next,
                                           int *next_size) {
  const unsigned offer = prop[t] + kHop;
  long long start = 0;
  const long long len = access_count(a, t, &start);
  for (long long j = 0; j < len; ++j) {
    long long e = 0;
    if (!access_elem(a, start, j, &e) || e < 0 || e >= a.n || e == t)
      continue;
    if (prop[e] <= offer) // reached before, or offered as little in this sweep
      continue;
    if (atomicMin(&prop[e], offer) == kNoKey)
      append(next, next_size, static_cast<int>(e));
  }
}

// Sweep s (0, 1, ...): each thread of the frontier, those the search reached
// at the sweep before, offers its key, one hop further, to every element it
// reads that nothing has reached yet (the least offer holds); the offer that
// finds an element unreached puts it in the next frontier. A breadth-first
// search from every seed at once, ties to the lower seed, whatever order the
// threads run in: a key written in this sweep is one level further and
// offers nothing until the next. Each thread reads its list once over all
// sweeps, and a sweep runs over its frontier alone (not over every thread:
// 36 passes over 8 million on a shuffled grid took 5 ms of an H100). Along
// what threads read: where t reads e, e joins t's region; the same regions as
// "t joins the region of what it reads" where reads go both ways (a symmetric
// matrix, a full neighbour list). Frontier sizes rotate through sizes[3]:
// sweep s reads sizes[s % 3], counts into sizes[(s + 1) % 3], and clears
// sizes[(s + 2) % 3] for the sweep after (read by the sweep before).
__global__ void __launch_bounds__(kThreads)
    sweep_kernel(AccessList a, unsigned *prop, const int *__restrict__ frontier, int *__restrict__ next,
                 int *sizes, int s) {
  const int size = sizes[s % 3];
  int *next_size = &sizes[(s + 1) % 3];
  if (blockIdx.x == 0 && threadIdx.x == 0)
    sizes[(s + 2) % 3] = 0;
  const long long stride = static_cast<long long>(gridDim.x) * kThreads;
  for (long long i = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x; i < size; i += stride)
    offer_from(a, prop, frontier[i], next, next_size);
}

// The sweeps' tail, where few threads are left in the frontier: one block
// runs sweep after sweep (a barrier between two) until the frontier empties
// or kMaxSweeps ran, instead of a grid launched for each (a sweep of a few
// hundred threads took 11-13 us so, most of it the launch and its blocks).
// The same level by level as the grid's sweeps, so the same keys. Leaves
// the sweeps run in sizes[kTailSweeps] and the frontier left in
// sizes[kTailLeft].
constexpr int kTailThreads = 1024;
constexpr int kTailFrontier = 2 * kTailThreads; // the frontier from which the tail runs so
constexpr int kTailSweeps = 4, kTailLeft = 5;
__global__ void __launch_bounds__(kTailThreads)
    tail_kernel(AccessList a, unsigned *prop, int *frontier, int *next, int *sizes, int s) {
  int size = 0;
  for (;; ++s) {
    size = sizes[s % 3];
    if (size == 0 || s >= kMaxSweeps)
      break;
    if (threadIdx.x == 0)
      sizes[(s + 2) % 3] = 0;
    for (int i = threadIdx.x; i < size; i += kTailThreads)
      offer_from(a, prop, frontier[i], next, &sizes[(s + 1) % 3]);
    int *const read = frontier;
    frontier = next;
    next = read;
    __syncthreads(); // the next frontier whole, and its size, before any thread reads them
  }
  if (threadIdx.x == 0) {
    sizes[kTailSweeps] = s;
    sizes[kTailLeft] = size;
  }
}

// Bits to hold the values 0..v.
int bits_for(unsigned long long v) {
  int b = 1;
  while (b < 64 && (v >> b) != 0)
    ++b;
  return b;
}

// How the sort key packs (region, hops, least element read), low to high
// bits: least in `least_bits`, hops in 8, the region above; no bit more than
// they need, so that the radix sort runs as few passes as the numbers allow.
struct KeyLayout {
  int least_bits = 0, region_bits = 0;
  unsigned long long no_region = 0; // the region of threads no seed reached: after every seed's
  int end_bit() const { return least_bits + 8 + region_bits; }
};

KeyLayout key_layout(long long n, int region) {
  KeyLayout k;
  k.least_bits = bits_for(static_cast<unsigned long long>(n)); // least element read, n when none
  k.no_region = static_cast<unsigned long long>((n + region - 1) / region);
  k.region_bits = bits_for(k.no_region);
  return k;
}

// The sort key of each thread and the thread itself.
__global__ void __launch_bounds__(kThreads)
    key_kernel(AccessList a, const unsigned *__restrict__ prop, KeyLayout layout,
               unsigned long long *__restrict__ keys, int *__restrict__ ids) {
  const long long stride = static_cast<long long>(gridDim.x) * kThreads;
  for (long long t = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x; t < a.n; t += stride) {
    const unsigned k = prop[t];
    const unsigned long long seed = k == kNoKey ? layout.no_region : k & kSeedMask;
    const unsigned long long hops = k == kNoKey ? 255 : k >> kOrderSeedBits;
    long long start = 0;
    const long long len = access_count(a, t, &start);
    unsigned long long least = static_cast<unsigned long long>(a.n);
    for (long long j = 0; j < len; ++j) {
      long long e = 0;
      if (access_elem(a, start, j, &e) && e >= 0 && e < a.n && static_cast<unsigned long long>(e) < least)
        least = static_cast<unsigned long long>(e);
    }
    keys[t] = (((seed << 8) | hops) << layout.least_bits) | least;
    ids[t] = static_cast<int>(t);
  }
}

// The extent of a range graph's columns (extent.cuh), one thread a row, and
// out[3] += the columns within `band` of their own row: the pass over a
// matrix's rows before a domain forms, in the order's module, which is
// loaded then anyway.
__global__ void __launch_bounds__(kThreads) rows_extent_kernel(AccessList a, long long band, long long *out) {
  ExtentSeen seen;
  const long long stride = static_cast<long long>(gridDim.x) * kThreads;
  for (long long t = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x; t < a.n; t += stride) {
    long long start = 0;
    const long long len = access_count(a, t, &start);
    for (long long j = 0; j < len; ++j) {
      long long v = 0;
      if (!load_index(a.idx, a.idx_kind, start + j, &v))
        continue;
      seen.see(v, a.n);
      seen.near += v >= t - band && v <= t + band;
    }
  }
  add_extent(seen, out);
}

__global__ void __launch_bounds__(kThreads) invert_kernel(const int *__restrict__ perm, long long n, int *__restrict__ inv) {
  const long long stride = static_cast<long long>(gridDim.x) * kThreads;
  for (long long p = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x; p < n; p += stride)
    inv[perm[p]] = static_cast<int>(p);
}

// compute_order's scratch, one layout for its size and its pieces: the
// propagation keys, the sort keys in and out, the ids, the frontiers' three
// rotating sizes (256 bytes), CUB's temporaries. While the sweeps run, the
// sort keys' room holds the two frontiers (n ints each).
struct OrderScratch {
  std::size_t keys_bytes = 0, ids_bytes = 0, temp = 0; // the pieces' sizes
  std::size_t bytes() const { return 3 * keys_bytes + ids_bytes + 256 + aligned(temp); }
  unsigned *prop = nullptr;
  unsigned long long *keys = nullptr, *sorted = nullptr;
  int *ids = nullptr, *sizes = nullptr;
  int *frontier[2] = {nullptr, nullptr};
  void *cub_temp = nullptr;
};

// The layout for n threads; its pointers into `base` when given.
cudaError_t order_scratch(long long n, char *base, OrderScratch *s) {
  s->keys_bytes = aligned(static_cast<std::size_t>(n) * sizeof(unsigned long long));
  s->ids_bytes = aligned(static_cast<std::size_t>(n) * sizeof(int));
  s->temp = 0;
  const cudaError_t e = cub::DeviceRadixSort::SortPairs(
      nullptr, s->temp, static_cast<const unsigned long long *>(nullptr), static_cast<unsigned long long *>(nullptr),
      static_cast<const int *>(nullptr), static_cast<int *>(nullptr), static_cast<int>(n));
  if (!base)
    return e;
  s->prop = reinterpret_cast<unsigned *>(base);
  s->keys = reinterpret_cast<unsigned long long *>(base + s->keys_bytes);
  s->frontier[0] = reinterpret_cast<int *>(s->keys);
  s->frontier[1] = s->frontier[0] + n;
  s->sorted = reinterpret_cast<unsigned long long *>(base + 2 * s->keys_bytes);
  s->ids = reinterpret_cast<int *>(base + 3 * s->keys_bytes);
  s->sizes = reinterpret_cast<int *>(base + 3 * s->keys_bytes + s->ids_bytes);
  s->cub_temp = base + 3 * s->keys_bytes + s->ids_bytes + 256;
  return e;
}

} // namespace

cudaError_t order_scratch_bytes(long long n, std::size_t *bytes) {
  OrderScratch s;
  const cudaError_t e = order_scratch(n, nullptr, &s);
  *bytes = s.bytes();
  return e;
}

namespace {

// A sweep's blocks: enough to fill the device, whatever its frontier (the
// host does not know its size), fewer for a small graph.
constexpr unsigned kSweepBlocks = 1024;

} // namespace

cudaError_t compute_order(const AccessList &a, int region, int *perm, void *scratch, std::size_t scratch_bytes,
                          int *sweeps, bool *converged, cudaStream_t stream) {
  *sweeps = 0;
  *converged = false;
  const long long n = a.n;
  if (n <= 0 || n > INT_MAX || !perm)
    return cudaErrorInvalidValue;
  OrderScratch s;
  cudaError_t e = order_scratch(n, static_cast<char *>(scratch), &s);
  if (e != cudaSuccess)
    return e;
  if (!scratch || scratch_bytes < s.bytes())
    return cudaErrorInvalidValue;
  const int regions_of = order_region(n, region);
  seed_kernel<<<grid_for(n, kThreads), kThreads, 0, stream>>>(n, regions_of, s.prop, s.frontier[0], s.sizes);
  if ((e = cudaPeekAtLastError()) != cudaSuccess)
    return e;
  const unsigned blocks = std::min(grid_for(n, kThreads), kSweepBlocks);
  while (*sweeps < kMaxSweeps) {
    for (int i = 0; i < kSweepBatch; ++i, ++*sweeps) {
      sweep_kernel<<<blocks, kThreads, 0, stream>>>(a, s.prop, s.frontier[*sweeps % 2], s.frontier[(*sweeps + 1) % 2],
                                                    s.sizes, *sweeps);
      if ((e = cudaPeekAtLastError()) != cudaSuccess)
        return e;
    }
    int left = 0; // the frontier the batch's last sweep leaves
    if ((e = cudaMemcpyAsync(&left, &s.sizes[*sweeps % 3], sizeof left, cudaMemcpyDeviceToHost, stream)) !=
            cudaSuccess ||
        (e = cudaStreamSynchronize(stream)) != cudaSuccess)
      return e;
    if (left == 0) { // nothing more to reach: the keys are final
      *converged = true;
      break;
    }
    if (left <= kTailFrontier && *sweeps < kMaxSweeps) { // the rest in one block
      int ran[2] = {0, 0};
      tail_kernel<<<1, kTailThreads, 0, stream>>>(a, s.prop, s.frontier[*sweeps % 2],
                                                  s.frontier[(*sweeps + 1) % 2], s.sizes, *sweeps);
      if ((e = cudaPeekAtLastError()) != cudaSuccess ||
          (e = cudaMemcpyAsync(ran, &s.sizes[kTailSweeps], sizeof ran, cudaMemcpyDeviceToHost, stream)) !=
              cudaSuccess ||
          (e = cudaStreamSynchronize(stream)) != cudaSuccess)
        return e;
      *sweeps = ran[0];
      *converged = ran[1] == 0;
      break;
    }
  }
  const KeyLayout layout = key_layout(n, regions_of);
  key_kernel<<<grid_for(n, kThreads), kThreads, 0, stream>>>(a, s.prop, layout, s.keys, s.ids);
  if ((e = cudaPeekAtLastError()) != cudaSuccess)
    return e;
  return cub::DeviceRadixSort::SortPairs(s.cub_temp, s.temp, s.keys, s.sorted, s.ids, perm, static_cast<int>(n), 0,
                                         layout.end_bit(), stream);
}

cudaError_t rows_extent(const AccessList &a, long long band, long long *out, cudaStream_t stream) {
  if (a.kind != AccessList::kRange)
    return cudaErrorInvalidValue;
  extent_init_kernel<<<1, 1, 0, stream>>>(out);
  cudaError_t e = cudaPeekAtLastError();
  if (e != cudaSuccess || a.n <= 0)
    return e;
  rows_extent_kernel<<<grid_for(a.n, kThreads), kThreads, 0, stream>>>(a, band, out);
  return cudaPeekAtLastError();
}

cudaError_t invert_order(const int *perm, long long n, int *inv, cudaStream_t stream) {
  if (n <= 0)
    return cudaSuccess;
  invert_kernel<<<grid_for(n, kThreads), kThreads, 0, stream>>>(perm, n, inv);
  return cudaPeekAtLastError();
}

} // namespace detail
} // namespace irregfix
