// irregfix runtime: builders of the locality layout (kLayoutLocality) and the
// orders they share (State::orders). See build.h and order.h.
#include "build.h"
#include "order.h"
#include "verify_logic.h"

#include <climits>
#include <cstdio>
#include <string>

namespace irregfix {
namespace detail {
namespace {

// A range site's data is read through the array that holds thread indices;
// its element size is unknown: sectors are counted for 4-byte elements.
constexpr int kRangeSectorElements = 8;

int sector_elements(std::size_t esz) {
  return esz >= 32 ? 1 : static_cast<int>(32 / (esz ? esz : 1));
}

OrderKey order_key(const AccessList &a, int dev, int region) {
  OrderKey k;
  k.device = dev;
  k.n = a.n;
  k.kind = a.kind;
  k.idx = a.idx;
  k.idx_kind = a.idx_kind;
  k.sj = a.sj;
  k.st = a.st;
  k.counts = a.counts;
  k.B = a.B;
  k.region = order_region(a.n, region);
  return k;
}

// The order of the access graph a (its buffers made, not computed yet).
std::string order_record(State &st, const SiteInfo &site, int dev, const AccessList &a, Order **out) {
  Order &o = st.orders[order_key(a, dev, st.cfg.order_region)];
  if (!o.sample) {
    std::size_t bytes = 0;
    IRREGFIX_TRY(sample_scratch_bytes(&bytes));
    std::string why = ensure_buffer(st, site, &o.sample, &o.sample_bytes, bytes);
    if (why.empty()) {
      std::size_t have = 0;
      void *counts = nullptr;
      why = ensure_buffer(st, site, &counts, &have, 2 * sizeof(unsigned long long));
      o.counts = static_cast<unsigned long long *>(counts);
    }
    if (!why.empty())
      return why;
  }
  *out = &o;
  return "";
}

// The sampled measure of order perm (null: the threads' own) over a, read back.
std::string measure(const SiteInfo &site, const AccessList &a, const int *perm, int per_sector, Order &o,
                    cudaStream_t stream, double *sectors) {
  unsigned long long h[2] = {0, 0};
  IRREGFIX_TRY(sample_sectors(a, perm, per_sector, o.sample, o.sample_bytes, o.counts, stream));
  IRREGFIX_TRY(cudaMemcpyAsync(h, o.counts, sizeof h, cudaMemcpyDeviceToHost, stream));
  IRREGFIX_TRY(cudaStreamSynchronize(stream));
  *sectors = h[1] ? static_cast<double>(h[0]) / static_cast<double>(h[1]) : 1.0;
  return "";
}

std::string describe(const Order &o) {
  char line[400];
  std::snprintf(line, sizeof line,
                "sampled sectors per read %.3f in thread order, %.3f in this order when computed, %.3f at "
                "its latest check; computed %lld times (latest %.3f ms, %d sweeps%s, regions of %d threads), "
                "kept %lld times when its lists changed",
                o.identity, o.fresh, o.last, o.computed, o.build_ms, o.sweeps,
                o.converged ? "" : ", stopped before converging", o.region, o.kept);
  return line;
}

// The order for graph a, for an entry being built (new, or its lists
// changed): computed when there is none, or when it decayed on the lists as
// they are now; else kept. Its computation's GPU time is one-time work of the
// open launch (launch_setup).
std::string locality_order(State &st, SiteStats &ss, const SiteInfo &site, int dev, const AccessList &a,
                           int per_sector, cudaStream_t stream, Order **out) {
  Order *o = nullptr;
  std::string why = order_record(st, site, dev, a, &o);
  if (!why.empty())
    return why;
  bool compute = !o->ready;
  if (o->identity < 0 && (why = measure(site, a, nullptr, per_sector, *o, stream, &o->identity)) != "")
    return why;
  if (!compute) {
    if ((why = measure(site, a, static_cast<const int *>(o->perm), per_sector, *o, stream, &o->last)) != "")
      return why;
    compute = order_decayed(o->fresh, o->last);
    o->kept += !compute;
  }
  if (compute) {
    if ((why = ensure_buffer(st, site, &o->perm, &o->perm_bytes, static_cast<std::size_t>(a.n) * sizeof(int))) != "" ||
        (why = ensure_buffer(st, site, &o->inv, &o->inv_bytes, static_cast<std::size_t>(a.n) * sizeof(int))) != "")
      return why;
    o->ready = false;
    std::size_t bytes = 0;
    IRREGFIX_TRY(order_scratch_bytes(a.n, &bytes));
    void *scratch = nullptr;
    if (const cudaError_t e = dev_alloc(st, &scratch, bytes); e != cudaSuccess) {
      std::fprintf(stderr, "irregfix: cudaMalloc(%zu bytes) failed at %s: %s\n", bytes, site.id ? site.id : "?",
                   cudaGetErrorString(e));
      cudaGetLastError();
      return "allocation failed";
    }
    cudaEvent_t t0 = nullptr, t1 = nullptr;
    const bool timed = cudaEventCreate(&t0) == cudaSuccess && cudaEventCreate(&t1) == cudaSuccess &&
                       cudaEventRecord(t0, stream) == cudaSuccess;
    cudaGetLastError();
    cudaError_t e = compute_order(a, st.cfg.order_region, static_cast<int *>(o->perm), scratch, bytes, &o->sweeps,
                                  &o->converged, stream);
    if (e == cudaSuccess)
      e = invert_order(static_cast<const int *>(o->perm), a.n, static_cast<int *>(o->inv), stream);
    const cudaError_t f = cudaFree(scratch); // synchronises: compute_order's last work is done
    if (e != cudaSuccess || f != cudaSuccess) {
      for (cudaEvent_t ev : {t0, t1})
        if (ev)
          cudaEventDestroy(ev);
      return cuda_failure(e != cudaSuccess ? "compute_order" : "cudaFree", site, e != cudaSuccess ? e : f);
    }
    float ms = 0;
    if (timed && cudaEventRecord(t1, stream) == cudaSuccess && cudaEventSynchronize(t1) == cudaSuccess &&
        cudaEventElapsedTime(&ms, t0, t1) == cudaSuccess) {
      o->build_ms = ms;
      launch_setup(this_thread_launch(st), ms);
    }
    for (cudaEvent_t ev : {t0, t1})
      if (ev)
        cudaEventDestroy(ev);
    cudaGetLastError();
    o->ready = true;
    o->region = order_region(a.n, st.cfg.order_region);
    ++o->computed;
    if ((why = measure(site, a, static_cast<const int *>(o->perm), per_sector, *o, stream, &o->fresh)) != "")
      return why;
    o->last = o->fresh;
  }
  ss.order = describe(*o);
  *out = o;
  return "";
}

// The entry's own copy of order o over n threads, in e.perm (it frees its
// buffers itself; a later recomputation of o does not touch it).
std::string keep_order(State &st, const SiteInfo &site, Entry &e, const Order &o, long long n, cudaStream_t stream) {
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(int);
  if (std::string why = ensure_buffer(st, site, &e.perm, &e.perm_bytes, bytes); !why.empty())
    return why;
  IRREGFIX_TRY(cudaMemcpyAsync(e.perm, o.perm, bytes, cudaMemcpyDeviceToDevice, stream));
  return "";
}

AccessList neighbor_access(const NeighborArgs &a, long long n, long long jmax, long long lo, long long hi) {
  AccessList l;
  l.kind = AccessList::kNeighbors;
  l.n = n;
  l.idx = a.NB;
  l.idx_kind = a.nb_kind;
  l.sj = a.sj;
  l.st = a.st;
  l.jmax = jmax;
  l.counts = a.counts;
  l.counts_kind = a.counts_kind;
  l.lo = lo;
  l.hi = hi;
  return l;
}

AccessList range_access(const void *B, int b_kind, long long n, const void *arr, std::size_t esz) {
  AccessList l;
  l.kind = AccessList::kRange;
  l.n = n;
  l.idx = arr;
  l.idx_kind = esz == 8 ? kIndexI64 : kIndexI32;
  l.B = B;
  l.b_kind = b_kind;
  l.lo = 0; // sentinels (negative) are no elements; the data's extent is unknown
  l.hi = LLONG_MAX;
  return l;
}

} // namespace

std::string range_graph_array(State &st, const SiteInfo &site, int dev, long long n, int count,
                              const void *const *arrays, const std::size_t *elem_sizes, long long lo,
                              long long hi, cudaStream_t stream, int *chosen) {
  *chosen = -1;
  if (hi <= lo)
    return "";
  Scratch *sc = nullptr;
  std::string why = ensure_scratch(st, site, dev, 0, &sc);
  if (!why.empty())
    return why;
  // Up to 8 arrays counted at once in the summary's 64 bytes.
  auto *counts = static_cast<unsigned long long *>(sc->summary);
  const int counted = count < 8 ? count : 8;
  IRREGFIX_TRY(cudaMemsetAsync(counts, 0, 8 * sizeof(unsigned long long), stream));
  for (int i = 0; i < counted; ++i)
    if (elem_sizes[i] == 4 || elem_sizes[i] == 8)
      IRREGFIX_TRY(count_thread_indices(arrays[i], elem_sizes[i] == 8 ? kIndexI64 : kIndexI32, lo, hi, n,
                                        counts + i, stream));
  unsigned long long h[8] = {};
  IRREGFIX_TRY(cudaMemcpyAsync(h, counts, sizeof h, cudaMemcpyDeviceToHost, stream));
  IRREGFIX_TRY(cudaStreamSynchronize(stream));
  unsigned long long best = 0;
  for (int i = 0; i < counted; ++i)
    if (h[i] > best) {
      best = h[i];
      *chosen = i;
    }
  // Most of its values must be thread indices: else the access graph is no graph.
  if (best * 2 < static_cast<unsigned long long>(hi - lo))
    *chosen = -1;
  return "";
}

bool order_in_cache(State &st, SiteStats &ss, int dev, long long n, std::size_t esz) {
  int l2 = 0;
  if (device_l2_bytes(st, dev, &l2) != cudaSuccess) {
    cudaGetLastError();
    l2 = 0;
  }
  if (order_fits_cache(n, esz, l2))
    return true;
  ss.order = "not timed: " + std::to_string(n) + " elements of " + std::to_string(esz) +
             " bytes fill more than half the L2 (" + std::to_string(l2 >> 20) +
             " MiB), where the order's scattered direct accesses cost more than it saves";
  return false;
}

std::string range_order_sectors(State &st, const SiteInfo &site, int dev, const void *B, int b_kind, long long n,
                                const void *arr, std::size_t esz, cudaStream_t stream, double *sectors) {
  *sectors = 0;
  const AccessList a = range_access(B, b_kind, n, arr, esz);
  Order *o = nullptr;
  std::string why = order_record(st, site, dev, a, &o);
  if (why.empty() && o->identity < 0)
    why = measure(site, a, nullptr, kRangeSectorElements, *o, stream, &o->identity);
  if (why.empty())
    *sectors = o->identity;
  return why;
}

std::string neighbor_order_sectors(State &st, const SiteInfo &site, int dev, const NeighborArgs &args,
                                   long long n, long long jmax, long long lo, long long hi, std::size_t esz,
                                   cudaStream_t stream, double *sectors) {
  *sectors = 0;
  const AccessList a = neighbor_access(args, n, jmax, lo, hi);
  Order *o = nullptr;
  std::string why = order_record(st, site, dev, a, &o);
  if (why.empty() && o->identity < 0)
    why = measure(site, a, nullptr, sector_elements(esz), *o, stream, &o->identity);
  if (why.empty())
    *sectors = o->identity;
  return why;
}

std::string locality_range_shape(State &st, SiteStats &ss, const SiteInfo &site, Entry &e, int dev,
                                 const void *B, int b_kind, long long n, int count, const void *const *arrays,
                                 const std::size_t *elem_sizes, long long lo, long long hi, cudaStream_t stream,
                                 unsigned long long *cells) {
  if (n > INT_MAX)
    return "locality order: more than INT_MAX threads";
  int g = -1;
  std::string why = range_graph_array(st, site, dev, n, count, arrays, elem_sizes, lo, hi, stream, &g);
  if (!why.empty())
    return why;
  if (g < 0)
    return "locality order: no array of the site holds thread indices";
  const AccessList a = range_access(B, b_kind, n, arrays[g], elem_sizes[g]);
  Order *o = nullptr;
  why = locality_order(st, ss, site, dev, a, kRangeSectorElements, stream, &o);
  if (!why.empty())
    return why;
  // The entry keeps its own copy of the order (it frees its buffers itself),
  // and the lengths in physical order; then SELL-32's slices over them.
  const std::size_t len_bytes = static_cast<std::size_t>(n) * sizeof(int);
  const long long nslices = (n + 31) / 32;
  const std::size_t slice_bytes = static_cast<std::size_t>(nslices + 1) * sizeof(long long);
  if ((why = keep_order(st, site, e, *o, n, stream)) != "" ||
      (why = ensure_buffer(st, site, &e.aux, &e.aux_bytes, slice_bytes)) != "")
    return why;
  std::size_t scan_bytes = 0;
  IRREGFIX_TRY(sell_slices(static_cast<int *>(e.len), n, nullptr, nullptr, &scan_bytes, stream));
  Scratch *sc = nullptr;
  why = ensure_scratch(st, site, dev, scan_bytes > len_bytes ? scan_bytes : len_bytes, &sc);
  if (!why.empty())
    return why;
  IRREGFIX_TRY(permute_ints(static_cast<const int *>(e.len), static_cast<const int *>(e.perm), n,
                            static_cast<int *>(sc->temp), stream));
  IRREGFIX_TRY(cudaMemcpyAsync(e.len, sc->temp, len_bytes, cudaMemcpyDeviceToDevice, stream));
  long long *slice_start = static_cast<long long *>(e.aux);
  scan_bytes = sc->temp_bytes;
  IRREGFIX_TRY(sell_slices(static_cast<int *>(e.len), n, slice_start, sc->temp, &scan_bytes, stream));
  long long total = 0;
  IRREGFIX_TRY(cudaMemcpyAsync(&total, slice_start + nslices, sizeof total, cudaMemcpyDeviceToHost, stream));
  IRREGFIX_TRY(cudaStreamSynchronize(stream));
  *cells = static_cast<unsigned long long>(total > 0 ? total : 0);
  return "";
}

std::string renumber_range(State &st, SiteStats &ss, const SiteInfo &site, Entry &e, int dev, long long n,
                           int count, const void *const *arrays, const std::size_t *elem_sizes, long long first,
                           long long last, cudaStream_t stream) {
  e.renumbered = false;
  const int r = site.renumbered;
  if (r < 0 || e.layout != kLayoutLocality || !e.perm)
    return "";
  const std::string name = source_name(site.sources, r);
  e.renumber_first = first;
  e.renumber_last = last;
  if (r >= count || elem_sizes[r] != sizeof(int) || n > INT_MAX) {
    ss.renumbered = "no: '" + name + "' is not an array of 4-byte indices";
    return "";
  }
  unsigned long long copy_bytes = 0;
  for (int i = 0; i < count; ++i)
    copy_bytes += static_cast<unsigned long long>(e.nnz > 0 ? e.nnz : 0) * elem_sizes[i];
  int l2 = 0;
  if (device_l2_bytes(st, dev, &l2) != cudaSuccess) {
    cudaGetLastError();
    l2 = 0;
  }
  if (!renumber_pays(st.cfg.renumber, copy_bytes, l2)) {
    ss.renumbered = st.cfg.renumber == kRenumberNever
                        ? "no: IRREGFIX_RENUMBER=0"
                        : "no: the copies (" + std::to_string(copy_bytes >> 20) + " MiB) fit the L2 (" +
                              std::to_string(l2 >> 20) + " MiB), which keeps what '" + name +
                              "' points to between its reads";
    return "";
  }
  Scratch *sc = nullptr;
  std::string why = ensure_scratch(st, site, dev, 0, &sc);
  if (!why.empty())
    return why;
  auto *extent = static_cast<long long *>(sc->summary);
  long long h[3] = {};
  IRREGFIX_TRY(index_extent(static_cast<const int *>(arrays[r]), first, last, n, extent, stream));
  IRREGFIX_TRY(cudaMemcpyAsync(h, extent, sizeof h, cudaMemcpyDeviceToHost, stream));
  IRREGFIX_TRY(cudaStreamSynchronize(stream));
  if (h[0] > 0) {
    ss.renumbered = "no: " + std::to_string(h[0]) + " of the values of '" + name + "' lie outside [0, " +
                    std::to_string(n) + "), so are not thread indices";
    return "";
  }
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(int);
  if (!Cache::fits(st.cache.total_bytes(), e.renumber_bytes, bytes, st.cfg.max_bytes)) {
    ss.renumbered = "no: its table would pass IRREGFIX_MAX_BYTES";
    return "";
  }
  if ((why = ensure_buffer(st, site, &e.renumber, &e.renumber_bytes, bytes)) != "")
    return why;
  IRREGFIX_TRY(invert_order(static_cast<const int *>(e.perm), n, static_cast<int *>(e.renumber), stream));
  e.renumber_lo = h[1];
  e.renumber_hi = h[2];
  e.renumbered = true;
  ss.renumbered = "'" + name + "' holds positions in the locality order; the arrays read at them are copied " +
                  "in that order at each launch (elements " + std::to_string(h[1]) + " to " + std::to_string(h[2]) +
                  ")";
  return "";
}

std::string pick_order(const State &st, int dev, const LaunchShape &shape, const void **perm, long long *n,
                       long long *computed) {
  if (st.cfg.layout > 0 && st.cfg.layout != kLayoutLocality)
    return "IRREGFIX_LAYOUT names a layout of copies, and this kernel reads none: only auto and locality run it "
           "in the locality order";
  if (!shape.open || shape.grid.x == 0 || shape.block.x == 0 || shape.grid.y != 1 || shape.grid.z != 1 ||
      shape.block.y != 1 || shape.block.z != 1)
    return "locality order: the launch is not one-dimensional, or its configuration is not known";
  const long long block = shape.block.x, threads = static_cast<long long>(shape.grid.x) * block;
  const OrderKey *best = nullptr;
  const Order *chosen = nullptr;
  for (const auto &[k, o] : st.orders)
    if (k.device == dev && o.ready && k.n <= threads && k.n > threads - block && (!best || k.n > best->n)) {
      best = &k;
      chosen = &o;
    }
  if (!chosen)
    return "locality order: none over " + std::to_string(threads) + " threads yet (a site in the locality order " +
           "over as many threads computes one)";
  *perm = chosen->perm;
  *n = best->n;
  *computed = chosen->computed;
  return "";
}

std::string build_order(State &st, SiteStats &ss, const SiteInfo &site, Entry &e, const void *order_perm,
                        long long n, Built *built) {
  const Order *o = nullptr;
  for (const auto &[k, candidate] : st.orders)
    if (candidate.perm == order_perm && candidate.ready && k.n == n)
      o = &candidate;
  if (!o)
    return "locality order: the order is gone (its lists were freed)";
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(int);
  if (bytes > e.perm_bytes && !Cache::fits(st.cache.total_bytes(), e.bytes(), bytes, st.cfg.max_bytes))
    return "over IRREGFIX_MAX_BYTES";
  if (std::string why = ensure_buffer(st, site, &e.perm, &e.perm_bytes, bytes); !why.empty())
    return why;
  e.layout = kLayoutLocality;
  e.shape_valid = true;
  ss.order = "that of a site over as many threads: " + describe(*o);
  // The copy runs before the builder's caller lets go of the state: the order is still there.
  return plan_copy(
      ss, site, e, 1, n, "order_copy",
      [to = static_cast<int *>(e.perm), from = static_cast<const int *>(o->perm)](int, Rows rows, cudaStream_t s) {
        return cudaMemcpyAsync(to + rows.first, from + rows.first, static_cast<std::size_t>(rows.count()) * sizeof(int),
                               cudaMemcpyDeviceToDevice, s);
      },
      [bytes](int) { return bytes; }, built);
}

std::string neighbor_order_into(State &st, SiteStats &ss, const SiteInfo &site, Entry &e, int dev,
                                const NeighborArgs &a, long long n, long long jmax, long long lo, long long hi,
                                std::size_t esz, cudaStream_t stream) {
  if (n > INT_MAX)
    return "locality order: more than INT_MAX threads";
  Order *o = nullptr;
  std::string why = locality_order(st, ss, site, dev, neighbor_access(a, n, jmax, lo, hi), sector_elements(esz),
                                   stream, &o);
  if (!why.empty())
    return why;
  const std::size_t perm_bytes = static_cast<std::size_t>(n) * sizeof(int);
  if (perm_bytes > e.perm_bytes && !Cache::fits(st.cache.total_bytes(), e.bytes(), perm_bytes, st.cfg.max_bytes))
    return "over IRREGFIX_MAX_BYTES";
  return keep_order(st, site, e, *o, n, stream);
}

std::string build_locality_neighbors(State &st, SiteStats &ss, const SiteInfo &site, Entry &e, int dev,
                                     const NeighborArgs &a, long long n, const void *A, std::size_t esz,
                                     cudaStream_t stream, Built *built) {
  if (n > INT_MAX)
    return "locality order: more than INT_MAX threads";
  NeighborShape shape;
  std::string why = neighbor_shape(st, ss, site, dev, a, n, A, esz, stream, &shape);
  if (!why.empty())
    return why;
  // The kernel reads A[index[j*n + p]]: the indices it may read must fit an int.
  if (shape.lo < INT_MIN || shape.hi > static_cast<long long>(INT_MAX) + 1)
    return "locality order: the data array's element indices do not fit an int";
  const AccessList list = neighbor_access(a, n, shape.jmax, shape.lo, shape.hi);
  Order *o = nullptr;
  why = locality_order(st, ss, site, dev, list, sector_elements(esz), stream, &o);
  if (!why.empty())
    return why;
  unsigned long long cells = 0;
  std::size_t need = 0;
  if (__builtin_mul_overflow(static_cast<unsigned long long>(shape.jmax), static_cast<unsigned long long>(n), &cells))
    return "locality order: the neighbour list is too large";
  why = copy_bytes(cells, sizeof(int), &need);
  if (!why.empty())
    return why;
  const std::size_t perm_bytes = static_cast<std::size_t>(n) * sizeof(int);
  // An int list stored column by column moves in two coalesced passes
  // through a row-major stage (kept in the entry's aux); any other list, one
  // thread a row.
  const bool staged = stageable(list);
  const std::size_t stage_bytes = staged ? need : 0;
  if (!Cache::fits(st.cache.total_bytes(), e.bytes(), need + perm_bytes + stage_bytes, st.cfg.max_bytes))
    return "over IRREGFIX_MAX_BYTES";
  if ((why = ensure_buffer(st, site, &e.order_index, &e.order_index_bytes, need)) != "" ||
      (why = keep_order(st, site, e, *o, n, stream)) != "" ||
      (staged && (why = ensure_buffer(st, site, &e.aux, &e.aux_bytes, stage_bytes)) != ""))
    return why;
  if (staged) // the first pass, whole: it reads the list by logical thread
    IRREGFIX_TRY(stage_rows(list, static_cast<const int *>(o->inv), static_cast<int *>(e.aux), stream));
  set_neighbor_shape(e, std::move(shape));
  // The data array is read in place: no copy of it, so a write to it leaves
  // this entry valid (its source is kept in place, matching no write; the
  // kernel reads whatever the array holds, as the original does).
  e.sources[0] = SourceRange{};
  e.sources[0].memory = cudaMemoryTypeDevice;
  e.layout = kLayoutLocality;
  if (staged)
    return plan_copy(
        ss, site, e, 1, n, "rows_to_columns",
        [list, &e](int, Rows rows, cudaStream_t s) {
          return rows_to_columns(static_cast<const int *>(e.aux), list.n, list.jmax, rows,
                                 static_cast<int *>(e.order_index), s);
        },
        [cells](int) { return 2 * cells * sizeof(int); }, built);
  return plan_copy(
      ss, site, e, 1, n, "permute_neighbors",
      [list, &e](int, Rows rows, cudaStream_t s) {
        return permute_neighbors(list, static_cast<const int *>(e.perm), rows, static_cast<int *>(e.order_index), s);
      },
      [cells](int) { return cells * sizeof(int); }, built);
}

void forget_orders(State &st, const void *p) {
  int dev = 0;
  const bool have_dev = cudaGetDevice(&dev) == cudaSuccess;
  for (auto it = st.orders.begin(); it != st.orders.end();) {
    if (p && !it->first.reads(p)) {
      ++it;
      continue;
    }
    if (have_dev)
      cudaSetDevice(it->first.device);
    Order &o = it->second;
    for (void *b : {o.perm, o.inv, o.sample, static_cast<void *>(o.counts)})
      if (b)
        cudaFree(b);
    it = st.orders.erase(it);
  }
  if (have_dev)
    cudaSetDevice(dev);
  cudaGetLastError();
}

} // namespace detail
} // namespace irregfix
