// irregfix runtime: program-wide renumbering. See domain.h.
#include "domain.h"

#include "gather_order.cuh"

#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstdio>

namespace irregfix {
namespace detail {

namespace {

unsigned grid_for(long long count) {
  return static_cast<unsigned>(std::max<long long>(1, std::min<long long>((count + 255) / 256, 65535LL * 4)));
}

// a[k] in [0, n) becomes map[a[k]]; other values (sentinels, slots a kernel
// never wrote) stay: both directions are the same bijection's two halves.
template <class T> __global__ void translate_numbers(T *a, long long count, const int *map, long long n) {
  for (long long k = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; k < count;
       k += static_cast<long long>(gridDim.x) * blockDim.x) {
    const T v = a[k];
    if (v >= 0 && static_cast<long long>(v) < n)
      a[k] = static_cast<T>(map[v]);
  }
}

cudaError_t translate(DomainArray &arr, const int *map, long long n, cudaStream_t stream) {
  const long long count = static_cast<long long>(arr.range.size / arr.elem);
  const unsigned blocks = grid_for(count);
  if (count <= 0)
    return cudaSuccess;
  void *p = reinterpret_cast<void *>(arr.range.base);
  if (arr.elem == 8)
    translate_numbers<<<blocks, 256, 0, stream>>>(static_cast<long long *>(p), count, map, n);
  else
    translate_numbers<<<blocks, 256, 0, stream>>>(static_cast<int *>(p), count, map, n);
  return cudaGetLastError();
}

// Row starts of one integer type into another (as numbered, widened to long
// long; back into the program's array, narrowed).
template <class From, class To> __global__ void convert_starts(const From *b, long long count, To *out) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    out[i] = static_cast<To>(b[i]);
}
// len[p] = the length of row perm[p]; len[n] = 0 (the exclusive scan's
// total); sources[p] = where row perm[p] starts as numbered.
__global__ void lengths_in_order(const long long *starts, const int *perm, long long n, long long *len,
                                 long long *sources) {
  for (long long p = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; p <= n;
       p += static_cast<long long>(gridDim.x) * blockDim.x) {
    if (p == n) {
      len[n] = 0;
      continue;
    }
    const long long from = starts[perm[p]];
    len[p] = starts[perm[p] + 1] - from;
    sources[p] = from;
  }
}

// Row p of the destination takes row map[p] of the source, whole and in its
// order; it starts at sources[p] where given (into the order: read in order,
// not a sector a row at random), else at src_starts[map[p]]. A warp moves 32
// adjacent destination rows together: its lanes step through their entries,
// adjacent in the destination, so that the writes are whole sectors and each
// lane finds its entry's row among the warp's 32 by a search over the lanes'
// starts. Values that number elements are translated through `numbers`.
template <class V, bool Numbers>
__global__ void move_rows(const V *src, V *dst, const long long *src_starts, const long long *sources,
                          const long long *dst_starts, const int *map, long long n, const int *numbers) {
  constexpr unsigned kAll = 0xffffffffu;
  const int lane = threadIdx.x & 31;
  const long long warps = static_cast<long long>(gridDim.x) * blockDim.x / 32;
  for (long long first = (blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x) / 32 * 32; first < n;
       first += warps * 32) {
    const long long p = first + lane;
    const int rows = static_cast<int>(n - first < 32 ? n - first : 32);
    const long long to = p < n ? dst_starts[p] : 0;
    const long long from = p >= n ? 0 : sources ? sources[p] : src_starts[map[p]];
    const long long begin = __shfl_sync(kAll, to, 0), end = dst_starts[first + rows];
    for (long long base = begin; base < end; base += 32) {
      const long long k = base + lane;
      int r = 0; // the last of the warp's rows starting at or before k
      for (int step = 16; step > 0; step >>= 1) {
        const long long s = __shfl_sync(kAll, to, r + step < rows ? r + step : r);
        if (r + step < rows && s <= k)
          r += step;
      }
      const long long row_to = __shfl_sync(kAll, to, r), row_from = __shfl_sync(kAll, from, r);
      if (k < end) {
        V v = src[row_from + (k - row_to)];
        if (Numbers && v >= 0 && static_cast<long long>(v) < n)
          v = static_cast<V>(numbers[v]);
        dst[k] = v;
      }
    }
  }
}
// Values of any other size, byte by byte.
__global__ void move_row_bytes(const char *src, char *dst, std::size_t elem, const long long *src_starts,
                               const long long *dst_starts, const int *map, long long n) {
  for (long long p = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; p < n;
       p += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long from = src_starts[map[p]] * elem, to = dst_starts[p] * elem;
    const long long bytes = (dst_starts[p + 1] - dst_starts[p]) * elem;
    for (long long b = 0; b < bytes; ++b)
      dst[to + b] = src[from + b];
  }
}

// The row starts: as the order numbers them (renumbering), or as numbered.
cudaError_t move_starts(Domain &d, DomainArray &arr, bool into_order, cudaStream_t stream) {
  const long long *from = into_order ? d.starts_in_order : d.starts;
  void *p = reinterpret_cast<void *>(arr.range.base);
  if (arr.elem == 8)
    convert_starts<<<grid_for(d.n + 1), 256, 0, stream>>>(from, d.n + 1, static_cast<long long *>(p));
  else
    convert_starts<<<grid_for(d.n + 1), 256, 0, stream>>>(from, d.n + 1, static_cast<int *>(p));
  return cudaGetLastError();
}

// A segment array: through the scratch, each row's segment to its row's place.
cudaError_t move_segments(Domain &d, DomainArray &arr, bool into_order, cudaStream_t stream) {
  const std::size_t bytes = static_cast<std::size_t>(d.nnz) * arr.elem;
  cudaError_t e = domain_scratch(d, bytes);
  void *p = reinterpret_cast<void *>(arr.range.base);
  if (e != cudaSuccess || d.nnz == 0 || (e = cudaMemcpyAsync(d.scratch, p, bytes, cudaMemcpyDeviceToDevice, stream)) != cudaSuccess)
    return e;
  const long long *src = into_order ? d.starts : d.starts_in_order;
  const long long *dst = into_order ? d.starts_in_order : d.starts;
  const int *map = into_order ? d.perm : d.inv;
  const int *numbers = into_order ? d.inv : d.perm;
  const long long *sources = into_order ? d.sources_in_order : nullptr;
  const unsigned grid = grid_for(d.n);
  const bool translate = arr.role & kDomainNumbers;
  const void *from = d.scratch;
  if (arr.elem == 4 && translate)
    move_rows<int, true><<<grid, 256, 0, stream>>>(static_cast<const int *>(from), static_cast<int *>(p), src, sources, dst, map, d.n, numbers);
  else if (arr.elem == 8 && translate)
    move_rows<long long, true><<<grid, 256, 0, stream>>>(static_cast<const long long *>(from), static_cast<long long *>(p), src, sources, dst, map, d.n, numbers);
  else if (arr.elem == 4)
    move_rows<unsigned, false><<<grid, 256, 0, stream>>>(static_cast<const unsigned *>(from), static_cast<unsigned *>(p), src, sources, dst, map, d.n, nullptr);
  else if (arr.elem == 8)
    move_rows<unsigned long long, false><<<grid, 256, 0, stream>>>(static_cast<const unsigned long long *>(from), static_cast<unsigned long long *>(p), src, sources, dst, map, d.n, nullptr);
  else
    move_row_bytes<<<grid, 256, 0, stream>>>(static_cast<const char *>(from), static_cast<char *>(p), arr.elem, src, dst, map, d.n);
  return cudaGetLastError();
}

// Each column of n elements goes through `order` (out[p] = in[order[p]]).
cudaError_t permute_columns(Domain &d, DomainArray &arr, const int *order, cudaStream_t stream) {
  const std::size_t column = static_cast<std::size_t>(d.n) * arr.elem;
  cudaError_t e = domain_scratch(d, column);
  for (long long c = 0; e == cudaSuccess && c < arr.columns; ++c) {
    char *col = reinterpret_cast<char *>(arr.range.base) + c * column;
    if ((e = gather_in_order_here(order, d.n, 0, d.n - 1, col, arr.elem, d.scratch, stream)) == cudaSuccess)
      e = cudaMemcpyAsync(col, d.scratch, column, cudaMemcpyDeviceToDevice, stream);
  }
  return e;
}

// The positions of an array of elements, the values of an array of numbers.
cudaError_t move(Domain &d, DomainArray &arr, const int *positions, const int *values, cudaStream_t stream,
                 bool sync) {
  // Whatever the program queued on its streams comes first: on the legacy
  // default stream by its own ordering, else by waiting for the device.
  cudaError_t e = sync ? cudaDeviceSynchronize() : cudaSuccess;
  std::pair<cudaEvent_t, cudaEvent_t> timed{nullptr, nullptr};
  if (e == cudaSuccess && d.move_events.size() < 4096 && cudaEventCreate(&timed.first) == cudaSuccess &&
      cudaEventCreate(&timed.second) == cudaSuccess && cudaEventRecord(timed.first, stream) == cudaSuccess)
    d.move_events.push_back(timed);
  else
    cudaGetLastError(); // untimed
  const bool into_order = positions == d.perm;
  if (e == cudaSuccess && (arr.role & (kDomainRows | kDomainSegments)) && d.nnz < 0)
    e = cudaErrorInvalidValue; // the row starts are not known: the caller computes them first
  if (e == cudaSuccess && (arr.role & kDomainRows))
    e = move_starts(d, arr, into_order, stream);
  else if (e == cudaSuccess && (arr.role & kDomainSegments))
    e = move_segments(d, arr, into_order, stream);
  else {
    if (e == cudaSuccess && (arr.role & kDomainElements))
      e = permute_columns(d, arr, positions, stream);
    if (e == cudaSuccess && (arr.role & kDomainNumbers))
      e = translate(arr, values, d.n, stream);
  }
  if (!d.move_events.empty() && d.move_events.back().first == timed.first && timed.second)
    cudaEventRecord(timed.second, stream);
  if (e == cudaSuccess && sync)
    e = cudaDeviceSynchronize();
  double bytes = (arr.role & kDomainElements ? 3.0 * arr.columns * d.n * arr.elem : 0.0) +
                 (arr.role & kDomainNumbers ? 2.0 * arr.range.size : 0.0);
  if (arr.role & kDomainRows)
    bytes = (d.n + 1.0) * (8.0 + arr.elem);
  else if (arr.role & kDomainSegments)
    bytes = 3.0 * static_cast<double>(d.nnz) * arr.elem;
  d.stats.moved_mb += bytes / 1e6;
  return e;
}

template <class T> cudaError_t domain_malloc(Domain &d, T **p, std::size_t bytes) {
  HostClock c(d.stats.alloc_ms);
  return cudaMalloc(p, bytes);
}

void domain_dealloc(Domain &d, void *p) {
  HostClock c(d.stats.alloc_ms);
  cudaFree(p);
}

// The order's arrays and the rows' starts, freed by `release` and forgotten.
// Each group is one allocation (perm holds inv, starts the other two): an
// allocation takes 55-170 us on an H100 whatever its size.
void free_order_arrays(Domain &d, void (*release)(Domain &, void *)) {
  for (void *p : {static_cast<void *>(d.perm), static_cast<void *>(d.starts)})
    if (p)
      release(d, p);
  d.perm = d.inv = nullptr;
  d.starts = d.starts_in_order = d.sources_in_order = nullptr;
  d.nnz = -1;
}

} // namespace

cudaError_t domain_scratch(Domain &d, std::size_t bytes) {
  if (d.scratch_bytes >= bytes)
    return cudaSuccess;
  if (d.scratch)
    domain_dealloc(d, d.scratch);
  d.scratch = nullptr;
  d.scratch_bytes = 0;
  const cudaError_t e = domain_malloc(d, &d.scratch, bytes);
  if (e == cudaSuccess)
    d.scratch_bytes = bytes;
  return e;
}

cudaError_t domain_counts(Domain &d) {
  return d.counts ? cudaSuccess : domain_malloc(d, &d.counts, kDomainCounts * sizeof(unsigned long long));
}

cudaError_t domain_measure(Domain &d, const AccessList &a, bool in_order, int per_sector, double *sectors) {
  HostClock c(d.stats.measure_ms);
  std::size_t need = 0;
  cudaError_t e = sample_scratch_bytes(a, per_sector, &need);
  if (e == cudaSuccess)
    e = domain_scratch(d, need);
  if (e == cudaSuccess)
    e = domain_counts(d);
  if (e == cudaSuccess)
    e = sample_sectors(a, in_order ? d.perm : nullptr, in_order ? d.inv : nullptr, per_sector, d.scratch,
                       d.scratch_bytes, d.counts, 0);
  unsigned long long h[2] = {0, 0};
  if (e == cudaSuccess)
    e = cudaMemcpy(h, d.counts, sizeof(h), cudaMemcpyDeviceToHost);
  *sectors = h[1] ? static_cast<double>(h[0]) / static_cast<double>(h[1]) : 0.0;
  return e;
}

cudaError_t domain_order(Domain &d, const AccessList &a, int region, int per_sector) {
  cudaError_t e = cudaSuccess;
  d.nnz = -1; // the rows' starts in the order are the old order's
  if (d.n != a.n || !d.perm) {
    free_order_arrays(d, domain_dealloc);
    d.n = a.n;
    if ((e = domain_malloc(d, &d.perm, 2 * a.n * sizeof(int))) != cudaSuccess)
      return e;
    d.inv = d.perm + a.n;
  }
  std::size_t need = 0;
  if ((e = order_scratch_bytes(a.n, &need)) != cudaSuccess || (e = domain_scratch(d, need)) != cudaSuccess)
    return e;
  int sweeps = 0;
  bool converged = false;
  {
    HostClock c(d.stats.order_ms);
    if ((e = cudaDeviceSynchronize()) != cudaSuccess ||
        (e = compute_order(a, region, d.perm, d.scratch, d.scratch_bytes, &sweeps, &converged, 0)) != cudaSuccess ||
        (e = invert_order(d.perm, a.n, d.inv, 0)) != cudaSuccess || (e = cudaDeviceSynchronize()) != cudaSuccess)
      return e;
  }
  d.stats.sweeps += sweeps;
  ++d.stats.orders;
  e = domain_measure(d, a, true, per_sector, &d.fresh);
  d.last = d.fresh;
  d.checks.restart();
  return e;
}

cudaError_t domain_starts(Domain &d, const void *rows, std::size_t elem) {
  cudaError_t e = cudaSuccess;
  d.nnz = -1;
  const long long n1 = d.n + 1;
  if (!d.starts) {
    if ((e = domain_malloc(d, &d.starts, (2 * n1 + d.n) * sizeof(long long))) != cudaSuccess)
      return e;
    d.starts_in_order = d.starts + n1;
    d.sources_in_order = d.starts + 2 * n1;
  }
  if (elem == 8)
    convert_starts<<<grid_for(n1), 256>>>(static_cast<const long long *>(rows), n1, d.starts);
  else
    convert_starts<<<grid_for(n1), 256>>>(static_cast<const int *>(rows), n1, d.starts);
  std::size_t temp = 0;
  const std::size_t lengths_bytes = (n1 * sizeof(long long) + 255) / 256 * 256; // the scan's storage after them
  if ((e = cudaGetLastError()) != cudaSuccess ||
      (e = cub::DeviceScan::ExclusiveSum(nullptr, temp, d.starts_in_order, d.starts_in_order, n1)) != cudaSuccess ||
      (e = domain_scratch(d, lengths_bytes + temp)) != cudaSuccess)
    return e;
  auto *len = static_cast<long long *>(d.scratch);
  lengths_in_order<<<grid_for(n1), 256>>>(d.starts, d.perm, d.n, len, d.sources_in_order);
  long long nnz = 0;
  if ((e = cudaGetLastError()) != cudaSuccess ||
      (e = cub::DeviceScan::ExclusiveSum(static_cast<char *>(d.scratch) + lengths_bytes, temp, len, d.starts_in_order, n1)) != cudaSuccess ||
      (e = cudaMemcpy(&nnz, d.starts + d.n, sizeof nnz, cudaMemcpyDeviceToHost)) != cudaSuccess)
    return e;
  d.nnz = nnz;
  return cudaSuccess;
}

cudaError_t domain_renumber(Domain &d, DomainArray &arr, cudaStream_t stream, bool sync) {
  if (arr.renumbered)
    return cudaSuccess;
  const cudaError_t e = move(d, arr, d.perm, d.inv, stream, sync);
  if (e == cudaSuccess) {
    arr.renumbered = true;
    ++d.stats.renumbers;
  }
  return e;
}

cudaError_t domain_restore(Domain &d, DomainArray &arr, cudaStream_t stream, bool sync) {
  if (!arr.renumbered)
    return cudaSuccess;
  const cudaError_t e = move(d, arr, d.inv, d.perm, stream, sync);
  if (e == cudaSuccess) {
    arr.renumbered = false;
    ++d.stats.restores;
  }
  return e;
}

double declined_graph_sectors(const Domain &d, const void *graph) {
  return d.status == Domain::kDeclined && d.identity >= 0 && d.graph == reinterpret_cast<std::uintptr_t>(graph)
             ? d.identity
             : -1;
}

DomainArray *domain_array_at(Domain &d, const void *p) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  auto it = d.arrays.upper_bound(a);
  if (it == d.arrays.begin())
    return nullptr;
  --it;
  return it->second.range.contains(a) ? &it->second : nullptr;
}

void collect_move_times(Domain &d) {
  for (auto &ev : d.move_events) {
    float ms = 0.f;
    if (cudaEventSynchronize(ev.second) == cudaSuccess && cudaEventElapsedTime(&ms, ev.first, ev.second) == cudaSuccess)
      d.stats.move_ms += ms;
    cudaGetLastError();
    cudaEventDestroy(ev.first);
    cudaEventDestroy(ev.second);
  }
  d.move_events.clear();
}

void domain_free(Domain &d) {
  collect_move_times(d);
  // Untimed: a device reset's frees are not the domain's allocations.
  free_order_arrays(d, [](Domain &, void *p) { cudaFree(p); });
  for (void *p : {d.scratch, static_cast<void *>(d.counts)})
    if (p)
      cudaFree(p);
  d.rows = 0;
  d.scratch = nullptr;
  d.scratch_bytes = 0;
  d.counts = nullptr;
  d.arrays.clear();
  d.allocations.clear();
  d.n = 0;
}

std::string format_domain(const Domain &d) {
  if (d.stats.launches == 0)
    return "";
  char line[640];
  std::string out = "irregfix: program-wide renumbering: ";
  switch (d.status) {
  case Domain::kUndecided: out += "no order yet"; break;
  case Domain::kObserving: out += "not formed: watching the rounds between its graph's launches"; break;
  case Domain::kDeclined: out += "not formed: " + d.why; break;
  case Domain::kOff: out += "off: " + d.why; break;
  case Domain::kFormed:
    std::snprintf(line, sizeof line, "%lld elements in a locality order (sectors a read %.3f as numbered, %.3f in the order, %.3f at the latest check)",
                  d.n, d.identity, d.fresh, d.last);
    out += line;
    break;
  }
  std::snprintf(line, sizeof line,
                "\nirregfix:   %lld of %lld launches over it ran renumbered; %lld arrays renumbered, %lld restored "
                "(%.1f MB moved in %.2f ms); %lld orders computed (%.2f ms, %lld sweeps), checked at %lld of %lld "
                "changes of the graph; %.2f ms of host time in these launches' hooks (waits for the device "
                "included): %.2f ms in the longest, %.2f us a launch in the others\n",
                d.stats.renumbered_launches, d.stats.launches, d.stats.renumbers, d.stats.restores, d.stats.moved_mb,
                d.stats.move_ms, d.stats.orders, d.stats.order_ms, d.stats.sweeps, d.checks.checks, d.checks.changes,
                d.stats.launch_ms, d.stats.longest_ms,
                d.stats.launches > 1 ? 1e3 * (d.stats.launch_ms - d.stats.longest_ms) / (d.stats.launches - 1) : 0.0);
  out += line;
  std::snprintf(line, sizeof line,
                "irregfix:   of that host time: %.2f ms deciding and forming (checks %.2f ms, the order %.2f ms), %.2f ms "
                "for the rows' starts, %.2f ms queueing moves; %.2f ms allocating and freeing, %.2f ms measuring\n",
                d.stats.decide_ms, d.stats.check_ms, d.stats.order_ms, d.stats.starts_ms, d.stats.queue_ms,
                d.stats.alloc_ms, d.stats.measure_ms);
  out += line;
  for (const auto &kv : d.stats.boundaries)
    out += "irregfix:   restored for " + kv.first + ": " + std::to_string(kv.second) + "\n";
  return out;
}

} // namespace detail
} // namespace irregfix
