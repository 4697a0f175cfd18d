// irregfix runtime: the locality order's kernels (its own module: only
// programs that order threads load it). See order.h.
#include "order.h"

#include "access_list.cuh"
#include "remap_dispatch.cuh"
#include "sector_marks.h"

#include <cub/block/block_reduce.cuh>
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <climits>
#include <cstdint>

namespace irregfix {
namespace detail {
namespace {

constexpr int kThreads = 256;
// Propagation keys: hops (high 8 bits), seed (low kOrderSeedBits), so that
// the least is the nearest seed, ties to the lower; 4 bytes, so that the
// keys of 8 million threads fit the L2 the sweeps read them through at
// random (see KeyLayout for the sort's keys).
constexpr unsigned kNoKey = ~0u;
constexpr unsigned kHop = 1u << kOrderSeedBits;
constexpr unsigned kSeedMask = kHop - 1;
constexpr unsigned kNoSector = ~0u;

// ---- the sampled measure ----------------------------------------------------

struct SampleLayout {
  long long blocks = 0; // sampled blocks
  long long items() const { return blocks * kOrderBlock * kOrderSampleReads; }
};

SampleLayout sample_layout(long long n) {
  SampleLayout s;
  s.blocks = sample_blocks(n);
  return s;
}

// Block i of the sample: physical block i * nblocks / blocks. Each thread
// writes its kOrderSampleReads slots: (sample block << 32) | sector, or the
// block's "no sector" key, and counts its reads.
__global__ void __launch_bounds__(kThreads)
    sample_kernel(AccessList a, const int *__restrict__ perm, const int *__restrict__ renumber, int per_sector,
                  long long nblocks, long long blocks, unsigned long long *__restrict__ keys, unsigned long long *__restrict__ counts) {
  const long long i = blockIdx.x;
  const long long pb = i * nblocks / blocks;
  const long long p = pb * kOrderBlock + threadIdx.x;
  unsigned long long *slots = keys + (i * kOrderBlock + threadIdx.x) * kOrderSampleReads;
  const unsigned long long high = static_cast<unsigned long long>(i) << 32;
  long long reads = 0, len = 0, start = 0;
  if (p < a.n) {
    const long long t = perm ? perm[p] : p;
    len = access_count(a, t, &start);
    len = len < kOrderSampleReads ? len : kOrderSampleReads;
  }
  for (long long j = 0; j < kOrderSampleReads; ++j) {
    unsigned long long key = high | kNoSector;
    long long e = 0;
    if (j < len && access_elem(a, start, j, &e)) {
      e = renumbered(a, renumber, e);
      const unsigned long long sector = static_cast<unsigned long long>(e - a.lo) / static_cast<unsigned>(per_sector);
      key = high | (sector < kNoSector ? sector : kNoSector - 1);
      ++reads;
    }
    slots[j] = key;
  }
  using Reduce = cub::BlockReduce<unsigned long long, kThreads>;
  __shared__ typename Reduce::TempStorage temp;
  const unsigned long long sum = Reduce(temp).Sum(static_cast<unsigned long long>(reads));
  if (threadIdx.x == 0)
    atomicAdd(&counts[1], sum);
}

// Distinct keys among the sorted ones (a sector once per sample block).
__global__ void __launch_bounds__(kThreads)
    distinct_kernel(const unsigned long long *__restrict__ sorted, long long items,
                    unsigned long long *__restrict__ counts) {
  unsigned long long distinct = 0;
  const long long stride = static_cast<long long>(gridDim.x) * kThreads;
  for (long long i = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x; i < items; i += stride) {
    const unsigned long long v = sorted[i];
    distinct += (v & 0xffffffffULL) != kNoSector && (i == 0 || sorted[i - 1] != v);
  }
  using Reduce = cub::BlockReduce<unsigned long long, kThreads>;
  __shared__ typename Reduce::TempStorage temp;
  const unsigned long long sum = Reduce(temp).Sum(distinct);
  if (threadIdx.x == 0)
    atomicAdd(&counts[0], sum);
}

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
  for (long long i = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x; i < size; i += stride) {
    const long long t = frontier[i];
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
        next[atomicAdd(next_size, 1)] = static_cast<int>(e);
    }
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

__global__ void __launch_bounds__(kThreads)
    permute_neighbors_kernel(AccessList a, const int *__restrict__ perm, long long first, long long last,
                             int *__restrict__ out) {
  const long long stride = static_cast<long long>(gridDim.x) * kThreads;
  for (long long p = first + static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x; p < last; p += stride) {
    long long start = 0;
    const long long len = access_count(a, perm[p], &start);
    for (long long j = 0; j < len; ++j) {
      long long e = 0;
      if (access_elem(a, start, j, &e))
        out[j * a.n + p] = static_cast<int>(e);
    }
  }
}

// Tile transposes: 32 x 32 ints through shared memory, 32 x 8 threads.
constexpr int kTile = 32, kTileRows = 8;

// rows[inv[t] * jmax + j] = NB[j * sj + t]: read along t, written along j.
__global__ void __launch_bounds__(kTile * kTileRows)
    stage_rows_kernel(const int *__restrict__ nb, long long sj, long long n, long long jmax,
                      const int *__restrict__ inv, int *__restrict__ rows) {
  __shared__ int tile[kTile][kTile + 1];
  const long long t0 = static_cast<long long>(blockIdx.x) * kTile, j0 = static_cast<long long>(blockIdx.y) * kTile;
  for (int r = threadIdx.y; r < kTile; r += kTileRows) {
    const long long t = t0 + threadIdx.x, j = j0 + r;
    if (t < n && j < jmax)
      tile[r][threadIdx.x] = nb[j * sj + t];
  }
  __syncthreads();
  for (int r = threadIdx.y; r < kTile; r += kTileRows) {
    const long long t = t0 + r, j = j0 + threadIdx.x;
    if (t < n && j < jmax)
      rows[static_cast<long long>(inv[t]) * jmax + j] = tile[threadIdx.x][r];
  }
}

// out[j * n + p] = rows[p * jmax + j] for p in [first, last): read along j, written along p.
__global__ void __launch_bounds__(kTile * kTileRows)
    rows_to_columns_kernel(const int *__restrict__ rows, long long n, long long jmax, long long first,
                           long long last, int *__restrict__ out) {
  __shared__ int tile[kTile][kTile + 1];
  const long long p0 = first + static_cast<long long>(blockIdx.x) * kTile, j0 = static_cast<long long>(blockIdx.y) * kTile;
  for (int r = threadIdx.y; r < kTile; r += kTileRows) {
    const long long p = p0 + r, j = j0 + threadIdx.x;
    if (p < last && j < jmax)
      tile[r][threadIdx.x] = rows[p * jmax + j];
  }
  __syncthreads();
  for (int r = threadIdx.y; r < kTile; r += kTileRows) {
    const long long p = p0 + threadIdx.x, j = j0 + r;
    if (p < last && j < jmax)
      out[j * n + p] = tile[threadIdx.x][r];
  }
}

__global__ void __launch_bounds__(kThreads) invert_kernel(const int *__restrict__ perm, long long n, int *__restrict__ inv) {
  const long long stride = static_cast<long long>(gridDim.x) * kThreads;
  for (long long p = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x; p < n; p += stride)
    inv[perm[p]] = static_cast<int>(p);
}

__global__ void __launch_bounds__(kThreads)
    permute_ints_kernel(const int *__restrict__ in, const int *__restrict__ perm, long long n, int *__restrict__ out) {
  const long long stride = static_cast<long long>(gridDim.x) * kThreads;
  for (long long p = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x; p < n; p += stride)
    out[p] = in[perm[p]];
}

__global__ void __launch_bounds__(kThreads)
    count_kernel(const void *arr, int kind, long long first, long long last, long long n,
                 unsigned long long *__restrict__ count) {
  unsigned long long c = 0;
  const long long stride = static_cast<long long>(gridDim.x) * kThreads;
  for (long long k = first + static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x; k < last; k += stride) {
    long long v = 0;
    c += load_index(arr, kind, k, &v) && v >= 0 && v < n;
  }
  using Reduce = cub::BlockReduce<unsigned long long, kThreads>;
  __shared__ typename Reduce::TempStorage temp;
  const unsigned long long sum = Reduce(temp).Sum(c);
  if (threadIdx.x == 0)
    atomicAdd(count, sum);
}

// ---- renumbered gathers -----------------------------------------------------

__global__ void extent_init_kernel(long long *out) {
  out[0] = 0;
  out[1] = LLONG_MAX;
  out[2] = LLONG_MIN;
  out[3] = 0;
}

struct LeastOf {
  __device__ long long operator()(long long a, long long b) const { return b < a ? b : a; }
};
struct GreatestOf {
  __device__ long long operator()(long long a, long long b) const { return b > a ? b : a; }
};

// A block's values seen: how many outside [0, n), the least and greatest, and
// how many near their row (rows_extent_kernel; 0 elsewhere).
struct ExtentSeen {
  long long outside = 0, lo = LLONG_MAX, hi = LLONG_MIN, near = 0;
  __device__ void see(long long v, long long n) {
    outside += v < 0 || v >= n;
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
  }
};

// The block's sums into out[0..3] (see extent_init_kernel).
__device__ void add_extent(const ExtentSeen &seen, long long *out) {
  using Reduce = cub::BlockReduce<long long, kThreads>;
  __shared__ typename Reduce::TempStorage temp;
  const long long o = Reduce(temp).Sum(seen.outside);
  __syncthreads();
  const long long l = Reduce(temp).Reduce(seen.lo, LeastOf());
  __syncthreads();
  const long long h = Reduce(temp).Reduce(seen.hi, GreatestOf());
  __syncthreads();
  const long long near = Reduce(temp).Sum(seen.near);
  if (threadIdx.x == 0) {
    atomicAdd(reinterpret_cast<unsigned long long *>(&out[0]), static_cast<unsigned long long>(o));
    atomicMin(&out[1], l);
    atomicMax(&out[2], h);
    atomicAdd(reinterpret_cast<unsigned long long *>(&out[3]), static_cast<unsigned long long>(near));
  }
}

// out[0] += values outside [0, n); out[1], out[2]: least and greatest value.
__global__ void __launch_bounds__(kThreads)
    extent_kernel(const int *__restrict__ arr, long long first, long long last, long long n,
                  long long *__restrict__ out) {
  ExtentSeen seen;
  const long long stride = static_cast<long long>(gridDim.x) * kThreads;
  for (long long k = first + static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x; k < last; k += stride)
    seen.see(arr[k], n);
  add_extent(seen, out);
}

// The same over a range graph's rows, one thread a row, and out[3] += the
// columns within `band` of their own row.
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

// A SELL-32 copy's values v in [0, n) become renumber[v], one thread a row.
__global__ void __launch_bounds__(kThreads)
    renumber_sell_kernel(long long first, long long last, int ib, int ie, const int *__restrict__ len,
                         const long long *__restrict__ slice_start, const int *__restrict__ renumber,
                         long long n, int *__restrict__ copy) {
  const long long stride = static_cast<long long>(gridDim.x) * kThreads;
  for (long long t = first + static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x; t < last; t += stride) {
    const int L = len[t];
    const int to = L < ie ? L : ie;
    int *at = copy + slice_start[t >> 5] + (t & 31);
    for (int it = ib; it < to; ++it) {
      const int v = at[static_cast<long long>(it) * 32];
      if (v >= 0 && v < n)
        at[static_cast<long long>(it) * 32] = renumber[v];
    }
  }
}

// out[p] = x[perm[p]] for perm[p] in [lo, hi], elements of k words W: writes
// in order, reads scattered (measured cheaper than the reverse, whose
// scattered 4-byte stores cost 2.2x as much on an H100).
template <class W>
__global__ void __launch_bounds__(kThreads)
    gather_order_kernel(const int *__restrict__ perm, long long n, long long lo, long long hi,
                        const W *__restrict__ x, int k, W *__restrict__ out) {
  const long long stride = static_cast<long long>(gridDim.x) * kThreads;
  for (long long p = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x; p < n; p += stride) {
    const long long e = perm[p];
    if (e < lo || e > hi)
      continue;
    for (int j = 0; j < k; ++j)
      out[p * k + j] = x[e * k + j];
  }
}

template <class W>
cudaError_t launch_gather_order(const int *perm, long long n, long long lo, long long hi, const void *x, int k,
                                void *out, cudaStream_t stream) {
  gather_order_kernel<W><<<grid_for(n, kThreads), kThreads, 0, stream>>>(
      perm, n, lo, hi, static_cast<const W *>(x), k, static_cast<W *>(out));
  return cudaPeekAtLastError();
}

// Scratch pieces, each aligned to 256 bytes.
std::size_t aligned(std::size_t b) { return (b + 255) / 256 * 256; }

// The sampled measure's scratch: keys, sorted keys, CUB's temporaries.
cudaError_t sample_parts(std::size_t *keys, std::size_t *temp) {
  const long long items = static_cast<long long>(kOrderSampleBlocks) * kOrderBlock * kOrderSampleReads;
  *keys = aligned(static_cast<std::size_t>(items) * sizeof(unsigned long long));
  *temp = 0;
  return cub::DeviceRadixSort::SortKeys(nullptr, *temp, static_cast<const unsigned long long *>(nullptr),
                                        static_cast<unsigned long long *>(nullptr), items);
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

cudaError_t sample_scratch_bytes(const AccessList &a, int per_sector, std::size_t *bytes) {
  if (per_sector < 1 || a.n <= 0)
    return cudaErrorInvalidValue;
  if (sector_marks_fit(a, per_sector, bytes))
    return cudaSuccess;
  std::size_t keys = 0, temp = 0;
  const cudaError_t e = sample_parts(&keys, &temp);
  *bytes = 2 * keys + aligned(temp);
  return e;
}

cudaError_t sample_sectors(const AccessList &a, const int *perm, const int *renumber, int per_sector, void *scratch,
                           std::size_t scratch_bytes, unsigned long long *counts, cudaStream_t stream) {
  if (renumber && (a.lo > 0 || a.hi < a.n)) // renumbered elements must lie where the measure counts them
    return cudaErrorInvalidValue;
  if (per_sector < 1 || a.n <= 0 || !scratch)
    return cudaErrorInvalidValue;
  cudaError_t e = cudaMemsetAsync(counts, 0, 2 * sizeof(unsigned long long), stream);
  if (e != cudaSuccess)
    return e;
  std::size_t bits = 0;
  if (sector_marks_fit(a, per_sector, &bits)) // mark_sectors checks the scratch holds them
    return mark_sectors(a, perm, renumber, per_sector, scratch, scratch_bytes, counts, stream);
  std::size_t keys_bytes = 0, temp = 0;
  if ((e = sample_parts(&keys_bytes, &temp)) != cudaSuccess)
    return e;
  if (scratch_bytes < 2 * keys_bytes + aligned(temp))
    return cudaErrorInvalidValue;
  const SampleLayout s = sample_layout(a.n);
  auto *keys = static_cast<unsigned long long *>(scratch);
  auto *sorted = reinterpret_cast<unsigned long long *>(static_cast<char *>(scratch) + keys_bytes);
  void *cub_temp = static_cast<char *>(scratch) + 2 * keys_bytes;
  const long long nblocks = (a.n + kOrderBlock - 1) / kOrderBlock;
  sample_kernel<<<static_cast<unsigned>(s.blocks), kOrderBlock, 0, stream>>>(a, perm, renumber, per_sector, nblocks,
                                                                             s.blocks, keys, counts);
  if ((e = cudaPeekAtLastError()) != cudaSuccess)
    return e;
  // The sample block is the key's high half: one sort of all blocks' sectors.
  int end_bit = 32; // sectors in the low half, the sample block above
  for (long long b = s.blocks - 1; b > 0; b >>= 1)
    ++end_bit;
  if ((e = cub::DeviceRadixSort::SortKeys(cub_temp, temp, keys, sorted, s.items(), 0, end_bit, stream)) !=
      cudaSuccess)
    return e;
  distinct_kernel<<<grid_for(s.items(), kThreads), kThreads, 0, stream>>>(sorted, s.items(), counts);
  return cudaPeekAtLastError();
}

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
  }
  const KeyLayout layout = key_layout(n, regions_of);
  key_kernel<<<grid_for(n, kThreads), kThreads, 0, stream>>>(a, s.prop, layout, s.keys, s.ids);
  if ((e = cudaPeekAtLastError()) != cudaSuccess)
    return e;
  return cub::DeviceRadixSort::SortPairs(s.cub_temp, s.temp, s.keys, s.sorted, s.ids, perm, static_cast<int>(n), 0,
                                         layout.end_bit(), stream);
}

cudaError_t permute_neighbors(const AccessList &a, const int *perm, Rows rows, int *out, cudaStream_t stream) {
  if (rows.first < 0 || rows.last > a.n || !perm || !out)
    return cudaErrorInvalidValue;
  if (rows.count() == 0)
    return cudaSuccess;
  permute_neighbors_kernel<<<grid_for(rows.count(), kThreads), kThreads, 0, stream>>>(a, perm, rows.first,
                                                                                    rows.last, out);
  return cudaPeekAtLastError();
}

bool stageable(const AccessList &a) {
  return a.kind == AccessList::kNeighbors && a.idx_kind == kIndexI32 && a.st == 1 && a.sj >= a.n && a.jmax > 0 &&
         a.n > 0;
}

cudaError_t stage_rows(const AccessList &a, const int *inv, int *rows, cudaStream_t stream) {
  if (!stageable(a) || !inv || !rows)
    return cudaErrorInvalidValue;
  const long long tiles_t = (a.n + kTile - 1) / kTile, tiles_j = (a.jmax + kTile - 1) / kTile;
  if (tiles_t > INT_MAX || tiles_j > 65535)
    return cudaErrorInvalidValue;
  stage_rows_kernel<<<dim3(static_cast<unsigned>(tiles_t), static_cast<unsigned>(tiles_j)), dim3(kTile, kTileRows), 0,
                      stream>>>(static_cast<const int *>(a.idx), a.sj, a.n, a.jmax, inv, rows);
  return cudaPeekAtLastError();
}

cudaError_t rows_to_columns(const int *rows, long long n, long long jmax, Rows part, int *out, cudaStream_t stream) {
  if (part.first < 0 || part.last > n || !rows || !out)
    return cudaErrorInvalidValue;
  if (part.count() == 0 || jmax <= 0)
    return cudaSuccess;
  const long long tiles_p = (part.count() + kTile - 1) / kTile, tiles_j = (jmax + kTile - 1) / kTile;
  if (tiles_p > INT_MAX || tiles_j > 65535)
    return cudaErrorInvalidValue;
  rows_to_columns_kernel<<<dim3(static_cast<unsigned>(tiles_p), static_cast<unsigned>(tiles_j)), dim3(kTile, kTileRows),
                           0, stream>>>(rows, n, jmax, part.first, part.last, out);
  return cudaPeekAtLastError();
}

cudaError_t invert_order(const int *perm, long long n, int *inv, cudaStream_t stream) {
  if (n <= 0)
    return cudaSuccess;
  invert_kernel<<<grid_for(n, kThreads), kThreads, 0, stream>>>(perm, n, inv);
  return cudaPeekAtLastError();
}

cudaError_t permute_ints(const int *in, const int *perm, long long n, int *out, cudaStream_t stream) {
  if (n <= 0)
    return cudaSuccess;
  permute_ints_kernel<<<grid_for(n, kThreads), kThreads, 0, stream>>>(in, perm, n, out);
  return cudaPeekAtLastError();
}

cudaError_t count_thread_indices(const void *arr, int kind, long long first, long long last, long long n,
                                 unsigned long long *count, cudaStream_t stream) {
  if (last <= first)
    return cudaSuccess;
  count_kernel<<<grid_for(last - first, kThreads), kThreads, 0, stream>>>(arr, kind, first, last, n, count);
  return cudaPeekAtLastError();
}

cudaError_t index_extent(const int *arr, long long first, long long last, long long n, long long *out,
                         cudaStream_t stream) {
  extent_init_kernel<<<1, 1, 0, stream>>>(out);
  cudaError_t e = cudaPeekAtLastError();
  if (e != cudaSuccess || last <= first)
    return e;
  extent_kernel<<<grid_for(last - first, kThreads), kThreads, 0, stream>>>(arr, first, last, n, out);
  return cudaPeekAtLastError();
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

cudaError_t renumber_sell(Rows rows, const int *len, const long long *slice_start, const int *renumber, long long n,
                          int *copy, cudaStream_t stream) {
  if (rows.count() == 0)
    return cudaSuccess;
  renumber_sell_kernel<<<grid_for(rows.count(), kThreads), kThreads, 0, stream>>>(
      rows.first, rows.last, iteration_int(rows.iter_first), iteration_int(rows.iter_last), len, slice_start,
      renumber, n, copy);
  return cudaPeekAtLastError();
}

cudaError_t gather_in_order(const int *perm, long long n, long long lo, long long hi, const void *x,
                            std::size_t elem_size, void *out, cudaStream_t stream) {
  if (n <= 0 || hi < lo)
    return cudaSuccess;
  int k = 1;
  switch (pick_word(x, elem_size, &k)) {
  case kW1: case kW1xK: return launch_gather_order<unsigned char>(perm, n, lo, hi, x, k, out, stream);
  case kW2: return launch_gather_order<unsigned short>(perm, n, lo, hi, x, k, out, stream);
  case kW4: case kW4xK: return launch_gather_order<unsigned>(perm, n, lo, hi, x, k, out, stream);
  case kW8: case kW8xK: return launch_gather_order<unsigned long long>(perm, n, lo, hi, x, k, out, stream);
  default: return launch_gather_order<uint4>(perm, n, lo, hi, x, k, out, stream);
  }
}

} // namespace detail
} // namespace irregfix
