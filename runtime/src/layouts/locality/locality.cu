// irregfix runtime: the locality layout (kLayoutLocality): range sites in
// SELL-32 over their threads in a locality order, renumbering the gather they
// read through; neighbour lists copied in the order, their data read in
// place; and the order's own copy for a kernel without a site. See locality.h.
#include "locality.h"

#include "verify_logic.h"

#include <climits>
#include <cstdio>
#include <string>

namespace irregfix {
namespace detail {
namespace {

// A range entry's shape in the locality order (its lengths in p.len and the
// arrays' extents [lo, hi) checked): the order of the graph of the array that
// holds thread indices (range_graph_array), the entry's own copy of it, the
// lengths in physical order and SELL-32's slices over them. *cells: the cells
// of the copy.
std::string locality_range_shape(BuildContext &cx, Orders &orders, SiteStats &ss, const SiteInfo &site,
                                 RangePayload &p, int dev, const void *B, int b_kind, long long n, int count, const void *const *arrays,
                                 const std::size_t *elem_sizes, long long lo, long long hi, cudaStream_t stream,
                                 unsigned long long *cells, double *setup_ms) {
  if (n > INT_MAX)
    return "locality order: more than INT_MAX threads";
  int g = -1;
  std::string why = range_graph_array(cx, site, dev, n, count, arrays, elem_sizes, lo, hi, stream, &g);
  if (!why.empty())
    return why;
  if (g < 0)
    return "locality order: no array of the site holds thread indices";
  const AccessList a = range_access(B, b_kind, n, arrays[g], elem_sizes[g]);
  Order *o = nullptr;
  why = locality_order(cx, orders, ss, site, dev, a, kRangeSectorElements, stream, &o, setup_ms);
  if (!why.empty())
    return why;
  // The entry keeps its own copy of the order (it frees its buffers itself),
  // and the lengths in physical order; then SELL-32's slices over them.
  const std::size_t len_bytes = static_cast<std::size_t>(n) * sizeof(int);
  const long long nslices = (n + 31) / 32;
  const std::size_t slice_bytes = static_cast<std::size_t>(nslices + 1) * sizeof(long long);
  if ((why = keep_order(cx, site, &p.perm.ptr, &p.perm.bytes, *o, n, stream)) != "" ||
      (why = ensure_buffer(cx.cfg, site, p.slices, slice_bytes)) != "")
    return why;
  std::size_t scan_bytes = 0;
  IRREGFIX_TRY(sell_slices(p.len.as<int>(), n, nullptr, nullptr, &scan_bytes, stream));
  Scratch *sc = nullptr;
  why = ensure_scratch(cx.cfg, cx.devices, site, dev, scan_bytes > len_bytes ? scan_bytes : len_bytes, &sc);
  if (!why.empty())
    return why;
  IRREGFIX_TRY(permute_ints(p.len.as<const int>(), p.perm.as<const int>(), n, static_cast<int *>(sc->temp), stream));
  IRREGFIX_TRY(cudaMemcpyAsync(p.len.ptr, sc->temp, len_bytes, cudaMemcpyDeviceToDevice, stream));
  long long *slice_start = p.slices.as<long long>();
  scan_bytes = sc->temp_bytes;
  IRREGFIX_TRY(sell_slices(p.len.as<int>(), n, slice_start, sc->temp, &scan_bytes, stream));
  long long total = 0;
  IRREGFIX_TRY(cudaMemcpyAsync(&total, slice_start + nslices, sizeof total, cudaMemcpyDeviceToHost, stream));
  IRREGFIX_TRY(cudaStreamSynchronize(stream));
  *cells = static_cast<unsigned long long>(total > 0 ? total : 0);
  return "";
}

// After a range entry's build or refresh, for a site that renumbers
// (SiteInfo::renumbered = r): when every value of arrays[r] over [first,
// last) is a thread index (4-byte elements), the entry's renumber table (each
// thread's position in the order) and the values' extent are set and
// p.renumbered is true; otherwise false, and the site's statistics say why.
// One round trip.
std::string renumber_range(BuildContext &cx, SiteStats &ss, const SiteInfo &site, const Entry &e,
                           LocalityRangePayload &p, int dev, long long n, int count, const void *const *arrays, const std::size_t *elem_sizes, long long first,
                           long long last, cudaStream_t stream) {
  p.renumbered = false;
  const int r = site.renumbered;
  if (r < 0 || e.layout != kLayoutLocality || !p.perm.ptr)
    return "";
  const std::string name = source_name(site.sources, r);
  p.renumber_first = first;
  p.renumber_last = last;
  if (r >= count || elem_sizes[r] != sizeof(int) || n > INT_MAX) {
    ss.renumbered = "no: '" + name + "' is not an array of 4-byte indices";
    return "";
  }
  unsigned long long copy_bytes = 0;
  for (int i = 0; i < count; ++i)
    copy_bytes += static_cast<unsigned long long>(e.nnz > 0 ? e.nnz : 0) * elem_sizes[i];
  int l2 = 0;
  if (device_l2_bytes(cx.devices, dev, &l2) != cudaSuccess) {
    cudaGetLastError();
    l2 = 0;
  }
  if (!renumber_pays(cx.cfg.renumber, copy_bytes, l2)) {
    ss.renumbered = cx.cfg.renumber == kRenumberNever
                        ? "no: IRREGFIX_RENUMBER=0"
                        : "no: the copies (" + std::to_string(copy_bytes >> 20) + " MiB) fit the L2 (" +
                              std::to_string(l2 >> 20) + " MiB), which keeps what '" + name +
                              "' points to between its reads";
    return "";
  }
  Scratch *sc = nullptr;
  std::string why = ensure_scratch(cx.cfg, cx.devices, site, dev, 0, &sc);
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
  if (!cx.fits(p.renumber.bytes, bytes)) {
    ss.renumbered = "no: its table would pass IRREGFIX_MAX_BYTES";
    return "";
  }
  if ((why = ensure_buffer(cx.cfg, site, p.renumber, bytes)) != "")
    return why;
  IRREGFIX_TRY(invert_order(p.perm.as<const int>(), n, p.renumber.as<int>(), stream));
  p.renumber_lo = h[1];
  p.renumber_hi = h[2];
  p.renumbered = true;
  ss.renumbered = "'" + name + "' holds positions in the locality order; the arrays read at them are copied " +
                  "in that order at each launch (elements " + std::to_string(h[1]) + " to " + std::to_string(h[2]) +
                  ")";
  return "";
}

// The copy: SELL-32 over the threads in the order; the array a renumbering
// site renumbers then holds positions in the order (renumber_range).
// (arrays and elem_sizes are the launcher's, alive until its launch ends.)
std::string copy_in_order(SiteStats &ss, const SiteInfo &site, Entry &e, const LocalityRangePayload &p,
                          const void *B, int b_kind, long long n, int count, const void *const *arrays,
                          const std::size_t *elem_sizes, Built *built) {
  const int *renumber = p.renumbered ? p.renumber.as<const int>() : nullptr;
  const int renumbered = site.renumbered;
  return plan_copy(
      ss, site, e, count, n, "remap_sell",
      [=, &e, &p](int i, Rows rows, cudaStream_t s) {
        const cudaError_t c = copy_sell(p, B, b_kind, rows, arrays[i], elem_sizes[i], e.bufs[i], s);
        if (c != cudaSuccess || !renumber || i != renumbered)
          return c;
        return renumber_sell(rows, p.len.as<const int>(), p.slices.as<const long long>(), renumber, n,
                             static_cast<int *>(e.bufs[i]), s);
      },
      [&](int i) { return static_cast<unsigned long long>(e.nnz) * elem_sizes[i]; }, built);
}

} // namespace

std::string build_locality_range(BuildContext &cx, Orders &orders, SiteStats &ss, const SiteInfo &site, Entry &e,
                                 int dev, const LayoutRequest &request, const void *B, int b_kind, long long n,
                                 int count, const void *const *arrays, const std::size_t *elem_sizes,
                                 cudaStream_t stream, Built *built) {
  LocalityRangePayload &p = payload<LocalityRangePayload>(e);
  // Only the arrays were written since the last build: B, and so the order, hold
  // (the values of the array it renumbers are checked again).
  if (e.shape_valid && static_cast<int>(e.bufs.size()) == count) {
    const std::string why = renumber_range(cx, ss, site, e, p, dev, n, count, arrays, elem_sizes, p.renumber_first,
                                           p.renumber_last, stream);
    if (!why.empty())
      return why;
    return copy_in_order(ss, site, e, p, B, b_kind, n, count, arrays, elem_sizes, built);
  }
  RangeSurvey s;
  std::string why = range_survey(cx, ss, site, e, p, dev, request, B, b_kind, n, stream, &s);
  if (!why.empty())
    return why;
  SourceRange checked;
  for (int i = 0; i < count; ++i) // the order reads the arrays before the copy does
    if ((why = check_extent(arrays[i], elem_sizes[i], s.lo, s.hi, &checked)) != "")
      return why;
  unsigned long long cells = 0;
  why = locality_range_shape(cx, orders, ss, site, p, dev, B, b_kind, n, count, arrays, elem_sizes, s.lo, s.hi,
                             stream, &cells, &built->setup_ms);
  if (!why.empty())
    return why;
  RangeSources sources;
  why = range_sources(p, s, B, b_kind, n, count, arrays, elem_sizes, cells, &sources);
  if (!why.empty())
    return why;
  why = keep_range(cx, site, e, s, kLayoutLocality, std::move(sources));
  if (!why.empty())
    return why;
  why = renumber_range(cx, ss, site, e, p, dev, n, count, arrays, elem_sizes, s.lo, s.hi, stream);
  if (!why.empty())
    return why;
  return copy_in_order(ss, site, e, p, B, b_kind, n, count, arrays, elem_sizes, built);
}

std::string build_locality_neighbors(BuildContext &cx, Orders &orders, SiteStats &ss, const SiteInfo &site,
                                     Entry &e, int dev, const NeighborArgs &a, long long n, const void *A,
                                     std::size_t esz, cudaStream_t stream, Built *built) {
  if (n > INT_MAX)
    return "locality order: more than INT_MAX threads";
  LocalityNeighborPayload &p = payload<LocalityNeighborPayload>(e);
  NeighborShape shape;
  std::string why = neighbor_shape(cx, ss, site, dev, a, n, A, esz, stream, &shape);
  if (!why.empty())
    return why;
  // The kernel reads A[index[j*n + p]]: the indices it may read must fit an int.
  if (shape.lo < INT_MIN || shape.hi > static_cast<long long>(INT_MAX) + 1)
    return "locality order: the data array's element indices do not fit an int";
  const AccessList list = neighbor_access(a, n, shape.jmax, shape.lo, shape.hi);
  Order *o = nullptr;
  why = locality_order(cx, orders, ss, site, dev, list, sector_elements(esz), stream, &o, &built->setup_ms);
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
  // through a row-major stage (kept in the payload); any other list, one
  // thread a row.
  const bool staged = stageable(list);
  const std::size_t stage_bytes = staged ? need : 0;
  if (!cx.fits(e.bytes(), need + perm_bytes + stage_bytes))
    return "over IRREGFIX_MAX_BYTES";
  if ((why = ensure_buffer(cx.cfg, site, p.order_index, need)) != "" ||
      (why = keep_order(cx, site, &p.perm.ptr, &p.perm.bytes, *o, n, stream)) != "" ||
      (staged && (why = ensure_buffer(cx.cfg, site, p.stage, stage_bytes)) != ""))
    return why;
  if (staged) // the first pass, whole: it reads the list by logical thread
    IRREGFIX_TRY(stage_rows(list, static_cast<const int *>(o->inv), p.stage.as<int>(), stream));
  set_neighbor_shape(e, p, std::move(shape));
  // The data array is read in place: no copy of it, so a write to it leaves
  // this entry valid (its source is kept in place, matching no write; the
  // kernel reads whatever the array holds, as the original does).
  e.sources[0] = SourceRange{};
  e.sources[0].memory = cudaMemoryTypeDevice;
  e.layout = kLayoutLocality;
  if (staged)
    return plan_copy(
        ss, site, e, 1, n, "rows_to_columns",
        [list, &p](int, Rows rows, cudaStream_t s) {
          return rows_to_columns(p.stage.as<const int>(), list.n, list.jmax, rows, p.order_index.as<int>(), s);
        },
        [cells](int) { return 2 * cells * sizeof(int); }, built);
  return plan_copy(
      ss, site, e, 1, n, "permute_neighbors",
      [list, &p](int, Rows rows, cudaStream_t s) {
        return permute_neighbors(list, p.perm.as<const int>(), rows, p.order_index.as<int>(), s);
      },
      [cells](int) { return cells * sizeof(int); }, built);
}

std::string pick_order(const Config &cfg, const Orders &orders, int dev, const LaunchShape &shape,
                       const void **perm, long long *n, long long *computed) {
  if (!order_allowed(cfg))
    return "IRREGFIX_LAYOUT names a layout of copies, and this kernel reads none: only auto and locality run it "
           "in the locality order";
  if (!shape.open || shape.grid.x == 0 || shape.block.x == 0 || shape.grid.y != 1 || shape.grid.z != 1 ||
      shape.block.y != 1 || shape.block.z != 1)
    return "locality order: the launch is not one-dimensional, or its configuration is not known";
  const long long block = shape.block.x, threads = static_cast<long long>(shape.grid.x) * block;
  const OrderKey *best = nullptr;
  const Order *chosen = nullptr;
  for (const auto &[k, o] : orders)
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

std::string build_order(BuildContext &cx, const Orders &orders, SiteStats &ss, const SiteInfo &site, Entry &e,
                        const void *order_perm, long long n, Built *built) {
  const Order *o = nullptr;
  for (const auto &[k, candidate] : orders)
    if (candidate.perm == order_perm && candidate.ready && k.n == n)
      o = &candidate;
  if (!o)
    return "locality order: the order is gone (its lists were freed)";
  OrderPayload &p = payload<OrderPayload>(e);
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(int);
  if (bytes > p.perm.bytes && !cx.fits(e.bytes(), bytes))
    return "over IRREGFIX_MAX_BYTES";
  if (std::string why = ensure_buffer(cx.cfg, site, p.perm, bytes); !why.empty())
    return why;
  e.layout = kLayoutLocality;
  e.shape_valid = true;
  ss.order = "that of a site over as many threads: " + describe_order(*o);
  // The copy runs before the builder's caller lets go of the state: the order is still there.
  return plan_copy(
      ss, site, e, 1, n, "order_copy",
      [to = p.perm.as<int>(), from = static_cast<const int *>(o->perm)](int, Rows rows, cudaStream_t s) {
        return cudaMemcpyAsync(to + rows.first, from + rows.first, static_cast<std::size_t>(rows.count()) * sizeof(int),
                               cudaMemcpyDeviceToDevice, s);
      },
      [bytes](int) { return bytes; }, built);
}

bool renumbers(const Entry &e) {
  const LocalityRangePayload *p = payload_of<LocalityRangePayload>(e);
  return p && p->renumbered && e.layout == kLayoutLocality;
}

std::string renumbered_copy(BuildContext &cx, const SiteInfo &site, Entry &e, int which, const void *gathered,
                            std::size_t elem_size, cudaStream_t stream, const void **out) {
  LocalityRangePayload &p = payload<LocalityRangePayload>(e);
  if (which < 0 || which >= LocalityRangePayload::kMaxRenumberedArrays)
    return "renumbered array out of range";
  DeviceBuffer &copy = p.renumbered_copies[which];
  std::size_t bytes = 0;
  std::string why = copy_bytes(static_cast<unsigned long long>(e.key.n), elem_size, &bytes);
  if (why.empty() && !gathered)
    why = "null source array";
  if (why.empty() && bytes > copy.bytes && !cx.fits(copy.bytes, bytes))
    why = "over IRREGFIX_MAX_BYTES";
  if (why.empty())
    why = ensure_buffer(cx.cfg, site, copy, bytes);
  if (why.empty() && !p.renumbered_read &&
      cudaEventCreateWithFlags(&p.renumbered_read, cudaEventDisableTiming) != cudaSuccess) {
    p.renumbered_read = nullptr;
    why = cuda_failure("cudaEventCreateWithFlags", site, cudaGetLastError());
  }
  // The copy a launch on another stream may still read is overwritten only
  // after it (an event never recorded waits for nothing).
  cudaError_t c = cudaSuccess;
  if (why.empty() && (c = cudaStreamWaitEvent(stream, p.renumbered_read, 0)) == cudaSuccess)
    c = gather_in_order(p.perm.as<const int>(), e.key.n, p.renumber_lo, p.renumber_hi, gathered, elem_size,
                        copy.ptr, stream);
  if (why.empty() && c != cudaSuccess)
    why = cuda_failure("gather_in_order", site, c);
  if (why.empty())
    *out = copy.ptr;
  return why;
}

void renumbered_read(Entry &e, cudaStream_t stream) {
  LocalityRangePayload *p = payload_of<LocalityRangePayload>(e);
  if (p && p->renumbered_read && cudaEventRecord(p->renumbered_read, stream) != cudaSuccess)
    cudaGetLastError();
}

} // namespace detail
} // namespace irregfix
