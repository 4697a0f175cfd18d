// irregfix runtime: builders of range and two-level range entries in the
// padded layouts. See padded.h.
#include "padded.h"

#include <algorithm>
#include <climits>
#include <cstring>

namespace irregfix {
namespace detail {
namespace {

// The remap itself, into buffers sized for the entry, in the layout the entry
// was built with (SELL-32: from its len and slice_start).
// (arrays and elem_sizes are the launcher's, alive until its launch ends.)
std::string copy_range(SiteStats &ss, const SiteInfo &site, Entry &e, const RangePayload &p, const void *B,
                       int b_kind, long long n, int count, const void *const *arrays,
                       const std::size_t *elem_sizes, Built *built) {
  auto bytes = [&](int i) { return static_cast<unsigned long long>(e.nnz) * elem_sizes[i]; };
  if (layout_has(e.layout, kViewSlices))
    return plan_copy(
        ss, site, e, count, n, "remap_sell",
        [=, &e, &p](int i, Rows rows, cudaStream_t s) {
          return copy_sell(p, B, b_kind, rows, arrays[i], elem_sizes[i], e.bufs[i], s);
        },
        bytes, built);
  return plan_copy(
      ss, site, e, count, n, "remap_range",
      [=, &e](int i, Rows rows, cudaStream_t s) {
        return remap_range(B, b_kind, n, e.max_len, rows, arrays[i], elem_sizes[i], e.bufs[i],
                           plan_range(e.nnz, n, elem_sizes[i]), s);
      },
      bytes, built);
}

// The range2 copy: from the row starts and lengths kept in the entry.
std::string copy_range2(SiteStats &ss, const SiteInfo &site, Entry &e, const Range2Payload &p, long long n,
                        int count, const void *const *arrays, const std::size_t *elem_sizes, Built *built) {
  return plan_copy(
      ss, site, e, count, n, "remap_range2",
      [=, &e, &p](int i, Rows rows, cudaStream_t s) {
        return remap_range2(p.starts.as<const long long>(), p.len.as<const int>(), n, e.max_len, rows, arrays[i],
                            elem_sizes[i], e.bufs[i], s);
      },
      [&](int i) { return static_cast<unsigned long long>(e.nnz) * elem_sizes[i]; }, built);
}

// Cells over the non-zeros: the padding a layout of `cells` cells would have.
double padding(const LayoutCells &c, unsigned long long cells) {
  return c.nnz ? static_cast<double>(cells) / static_cast<double>(c.nnz) : 1.0;
}

} // namespace

cudaError_t copy_sell(const RangePayload &p, const void *B, int b_kind, Rows rows, const void *A, std::size_t esz,
                      void *out, cudaStream_t stream) {
  return remap_sell(B, b_kind, rows, p.len.as<const int>(), p.slices.as<const long long>(), p.perm.as<const int>(),
                    A, esz, out, stream);
}

std::string range_survey(BuildContext &cx, SiteStats &ss, const SiteInfo &site, Entry &e, RangePayload &p,
                         int dev, const LayoutRequest &request, const void *B, int b_kind, long long n,
                         cudaStream_t stream, RangeSurvey *out) {
  RangeSurvey &s = *out;
  Range b_alloc;
  if (!allocation_of(B, &b_alloc))
    return "the index array is not device memory";
  // Row lengths with their min/max, B[0], B[n] and (unless ELL is forced) the
  // SELL-32 slice offsets and total (CUB scan): one copy back and one sync.
  // SELL-32-sigma then sorts the threads and counts the slices again: a second sync.
  s.slices = range_counts_slices(request);
  if (request.key == kLayoutSell32Sigma && n > INT_MAX)
    return "SELL-32-sigma: more than INT_MAX threads";
  s.len_bytes = static_cast<std::size_t>(n) * sizeof(int);
  const long long nslices = (n + 31) / 32;
  const std::size_t slice_bytes =
      s.slices ? static_cast<std::size_t>(nslices + 1) * sizeof(long long) : 0;
  s.old_bytes = e.bytes();
  if (!cx.fits(p.len.bytes + p.slices.bytes, s.len_bytes + slice_bytes))
    return "over IRREGFIX_MAX_BYTES";
  std::string why = ensure_buffer(cx.cfg, site, p.len, s.len_bytes);
  if (!why.empty())
    return why;
  if (s.slices) {
    why = ensure_buffer(cx.cfg, site, p.slices, slice_bytes);
    if (!why.empty())
      return why;
  }
  if (s.slices)
    IRREGFIX_TRY(sell_slices(p.len.as<int>(), n, nullptr, nullptr, &s.temp_bytes, stream));
  why = ensure_scratch(cx.cfg, cx.devices, site, dev, s.temp_bytes, &s.scratch);
  if (!why.empty())
    return why;
  char *summary = static_cast<char *>(s.scratch->summary);
  IRREGFIX_TRY(range_lengths(B, b_kind, n, p.len.as<int>(),
                             reinterpret_cast<int *>(summary),
                             reinterpret_cast<long long *>(summary + 8), stream));
  struct {
    int min_len, max_len;
    long long lo, hi;
    long long sell_cells;
  } h{};
  static_assert(sizeof(h) == 32, "summary layout");
  if (s.slices) {
    long long *slice_start = p.slices.as<long long>();
    std::size_t scan_bytes = s.temp_bytes;
    IRREGFIX_TRY(sell_slices(p.len.as<int>(), n, slice_start, s.scratch->temp, &scan_bytes,
                             stream));
    IRREGFIX_TRY(cudaMemcpyAsync(summary + 24, slice_start + nslices, sizeof(long long),
                                 cudaMemcpyDeviceToDevice, stream));
  }
  IRREGFIX_TRY(cudaMemcpyAsync(&h, summary, s.slices ? sizeof h : 24, cudaMemcpyDeviceToHost, stream));
  IRREGFIX_TRY(cudaStreamSynchronize(stream));
  resolve_timings(ss, false);
  if (h.min_len < 0)
    return "bad index data: B is not monotone or a row is longer than INT_MAX";
  if (h.hi < h.lo)
    return "bad index data: B[n] < B[0]";
  s.min_len = h.min_len;
  s.max_len = h.max_len;
  s.lo = h.lo;
  s.hi = h.hi;

  // The cells of each layout counted so far.
  s.cells.rows = n;
  s.cells.nnz = static_cast<unsigned long long>(h.hi - h.lo);
  if (!ell_cells_of(n, h.max_len, &s.cells.ell))
    return "remapped copy too large";
  s.cells.sell = s.slices ? static_cast<unsigned long long>(h.sell_cells) : 0;
  if (request.report_padding) {
    ss.ell_padding = padding(s.cells, s.cells.ell);
    ss.sell_padding = s.slices ? padding(s.cells, s.cells.sell) : 0.0;
    ss.sigma_padding = 0.0;
    ss.sigma = 0;
  }
  return "";
}

std::string range_sources(const RangePayload &p, const RangeSurvey &s, const void *B, int b_kind, long long n,
                          int count, const void *const *arrays, const std::size_t *elem_sizes,
                          unsigned long long cells, RangeSources *out) {
  // Validate extents, size the buffers.
  out->sources.assign(static_cast<std::size_t>(count) + 1, SourceRange{});
  out->need.assign(static_cast<std::size_t>(count), 0);
  out->total_need = s.len_bytes + p.slices.bytes + p.perm.bytes;
  for (int i = 0; i < count; ++i) {
    std::string why = check_extent(arrays[i], elem_sizes[i], s.lo, s.hi, &out->sources[i]);
    if (!why.empty())
      return why;
    why = copy_bytes(cells, elem_sizes[i], &out->need[i]);
    if (!why.empty())
      return why;
    out->total_need += out->need[i];
  }
  SourceRange &b = out->sources[count];
  b.ptr = reinterpret_cast<std::uintptr_t>(B);
  allocation_of(B, &b.allocation, &b.memory);
  b.extent = Range{b.ptr, static_cast<std::size_t>(n + 1) * index_size(b_kind)};
  return "";
}

std::string keep_range(BuildContext &cx, const SiteInfo &site, Entry &e, const RangeSurvey &s, int layout,
                       RangeSources &&sources) {
  if (!cx.fits(s.old_bytes, sources.total_need))
    return "over IRREGFIX_MAX_BYTES";
  const std::string why = ensure_copies(cx, site, e, sources.need);
  if (!why.empty())
    return why;
  e.sources = std::move(sources.sources);
  e.layout = layout;
  e.max_len = s.max_len;
  e.nnz = s.hi - s.lo;
  e.shape_valid = true;
  return "";
}

std::string build_range(BuildContext &cx, Orders &orders, SiteStats &ss, const SiteInfo &site, Entry &e, int dev,
                        const LayoutRequest &request, const void *B, int b_kind, long long n, int count,
                        const void *const *arrays, const std::size_t *elem_sizes, cudaStream_t stream,
                        Built *built) {
  RangePayload &p = payload<RangePayload>(e);
  // Only the arrays were written since the last build: B, and so the layout, hold.
  if (e.shape_valid && static_cast<int>(e.bufs.size()) == count)
    return copy_range(ss, site, e, p, B, b_kind, n, count, arrays, elem_sizes, built);
  RangeSurvey s;
  std::string why = range_survey(cx, ss, site, e, p, dev, request, B, b_kind, n, stream, &s);
  if (!why.empty())
    return why;
  LayoutCells &cells = s.cells;
  // SELL-32-sigma: sort the threads (never more padding than SELL-32) and
  // count the cells again.
  if (range_sorts(request, cells, n)) {
    why = ensure_buffer(cx.cfg, site, p.perm, s.len_bytes);
    if (!why.empty())
      return why;
    long long *slice_start = p.slices.as<long long>();
    const long long nslices = (n + 31) / 32;
    std::size_t scan_bytes = s.temp_bytes;
    long long total = 0;
    IRREGFIX_TRY(sigma_sort(p.len.as<int>(), n, request.sigma, p.perm.as<int>(), stream));
    IRREGFIX_TRY(sell_slices(p.len.as<int>(), n, slice_start, s.scratch->temp, &scan_bytes, stream));
    IRREGFIX_TRY(cudaMemcpyAsync(&total, slice_start + nslices, sizeof total, cudaMemcpyDeviceToHost,
                                 stream));
    IRREGFIX_TRY(cudaStreamSynchronize(stream));
    cells.sigma = static_cast<unsigned long long>(total);
    if (request.report_padding) {
      ss.sigma_padding = padding(cells, cells.sigma);
      ss.sigma = request.sigma;
    }
  }
  // The layout: forced, the selector's candidate, or (auto's own key) the
  // cost model's favourite, and under auto the others worth timing (for the selector).
  const int layout = range_layout(request, cells, built->proposed, &built->proposals);
  if (p.perm.ptr && !layout_has(layout, kViewPerm)) { // an earlier build ordered the threads
    IRREGFIX_TRY(cudaFree(p.perm.ptr));
    p.perm = DeviceBuffer{};
  }
  if (p.slices.ptr && !layout_has(layout, kViewSlices)) { // ELL: the slice offsets are not needed
    IRREGFIX_TRY(cudaFree(p.slices.ptr));
    p.slices = DeviceBuffer{};
  }
  RangeSources sources;
  why = range_sources(p, s, B, b_kind, n, count, arrays, elem_sizes, layout_cells(cells, layout), &sources);
  if (!why.empty())
    return why;
  // Under auto, a launch being profiled that may permute its threads also
  // times the locality order when they, as numbered, read far-apart elements
  // (the array holding thread indices measured in their order).
  // (Not where its scattered direct accesses would leave the L2: order_fits_cache.)
  if (range_measures_order(request, built->proposals, n)) {
    int g = -1;
    double sectors = 0;
    why = range_graph_array(cx, site, dev, n, count, arrays, elem_sizes, s.lo, s.hi, stream, &g);
    bool fits = true;
    if (why.empty() && g >= 0) {
      // A thread's direct accesses: its row's bounds in B, and its output,
      // taken as wide as the widest array the site reads.
      const std::size_t direct = index_size(b_kind) + *std::max_element(elem_sizes, elem_sizes + count);
      fits = order_in_cache(cx, ss, dev, n, direct);
      if (fits)
        why = range_order_sectors(cx, orders, site, dev, B, b_kind, n, arrays[g], elem_sizes[g], stream, &sectors);
    }
    if (!why.empty())
      return why;
    if (fits)
      propose_locality(request, n, sectors, built->proposed, &built->proposals);
  }
  why = keep_range(cx, site, e, s, layout, std::move(sources));
  if (!why.empty())
    return why;
  return copy_range(ss, site, e, p, B, b_kind, n, count, arrays, elem_sizes, built);
}

std::string build_range2(BuildContext &cx, SiteStats &ss, const SiteInfo &site, Entry &e, int dev,
                         const void *B, int b_kind, const void *C, int c_kind, long long n,
                         int count, const void *const *arrays, const std::size_t *elem_sizes,
                         cudaStream_t stream, Built *built) {
  Range2Payload &p = payload<Range2Payload>(e);
  if (e.shape_valid && static_cast<int>(e.bufs.size()) == count && p.starts.ptr && p.len.ptr)
    return copy_range2(ss, site, e, p, n, count, arrays, elem_sizes, built);
  std::vector<SourceRange> sources(static_cast<std::size_t>(count) + 2);
  SourceRange &bsrc = sources[count], &csrc = sources[count + 1];
  long long rlo = 0, rhi = 0;
  std::string why = whole_index_source(C, c_kind, n, "C", &csrc);
  if (!why.empty())
    return why;
  why = index_source(B, b_kind, 0, 0, &bsrc, &rlo, &rhi);
  if (!why.empty())
    return why;
  const std::size_t len_bytes = static_cast<std::size_t>(n) * sizeof(int);
  const std::size_t start_bytes = static_cast<std::size_t>(n) * sizeof(long long);
  const std::size_t old_bytes = e.bytes();
  if (!cx.fits(p.len.bytes + p.starts.bytes, len_bytes + start_bytes))
    return "over IRREGFIX_MAX_BYTES";
  why = ensure_buffer(cx.cfg, site, p.len, len_bytes);
  if (!why.empty())
    return why;
  why = ensure_buffer(cx.cfg, site, p.starts, start_bytes);
  if (!why.empty())
    return why;
  Scratch *sc = nullptr;
  why = minmax_to_summary(cx, site, dev, C, c_kind, n, stream, &sc);
  if (!why.empty())
    return why;
  char *summary = static_cast<char *>(sc->summary);
  IRREGFIX_TRY(range2_rows(B, b_kind, C, c_kind, n, rlo, rhi, p.starts.as<long long>(), p.len.as<int>(),
                           reinterpret_cast<long long *>(summary + 16), stream));
  unsigned char h[16 + 8 * kR2Slots];
  static_assert(sizeof(h) <= 64, "summary size");
  IRREGFIX_TRY(cudaMemcpyAsync(h, summary, sizeof h, cudaMemcpyDeviceToHost, stream));
  IRREGFIX_TRY(cudaStreamSynchronize(stream));
  resolve_timings(ss, false);
  long long cmin = 0, cmax = 0, r2[kR2Slots];
  std::memcpy(r2, h + 16, sizeof r2);
  if (!index_to_ll(h, c_kind, &cmin) || !index_to_ll(h + 8, c_kind, &cmax) || cmin < rlo ||
      cmax >= rhi - 1 || r2[kR2MinLen] == -2)
    return "bad index data: C indexes outside B's allocation";
  if (r2[kR2MinLen] < 0)
    return "bad index data: B is not monotone or a row is longer than INT_MAX";
  bsrc.extent = Range{bsrc.ptr + static_cast<std::uintptr_t>(cmin * static_cast<long long>(index_size(b_kind))),
                      static_cast<std::size_t>(cmax + 2 - cmin) * index_size(b_kind)};
  const long long lo = r2[kR2MaxEnd] > r2[kR2MinStart] ? r2[kR2MinStart] : 0;
  const long long hi = r2[kR2MaxEnd] > r2[kR2MinStart] ? r2[kR2MaxEnd] : 0;
  const long long max_len = r2[kR2MaxLen] > 0 ? r2[kR2MaxLen] : 0;
  std::vector<std::size_t> need(static_cast<std::size_t>(count));
  std::size_t total_need = len_bytes + start_bytes;
  for (int i = 0; i < count; ++i) {
    why = check_extent(arrays[i], elem_sizes[i], lo, hi, &sources[i]);
    if (!why.empty())
      return why;
    unsigned long long cells = 0;
    if (!ell_cells_of(n, max_len, &cells))
      return "remapped copy too large";
    why = copy_bytes(cells, elem_sizes[i], &need[i]);
    if (!why.empty())
      return why;
    total_need += need[i];
  }
  if (!cx.fits(old_bytes, total_need))
    return "over IRREGFIX_MAX_BYTES";
  why = ensure_copies(cx, site, e, need);
  if (!why.empty())
    return why;
  e.sources = std::move(sources);
  e.index_sources = 2;
  e.max_len = static_cast<int>(max_len);
  e.nnz = r2[kR2SumLen];
  e.shape_valid = true;
  return copy_range2(ss, site, e, p, n, count, arrays, elem_sizes, built);
}

} // namespace detail
} // namespace irregfix
