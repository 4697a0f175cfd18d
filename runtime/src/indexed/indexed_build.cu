// irregfix runtime: the steps of an indexed build. See indexed_build.h.
#include "indexed_build.h"

#include "indexed_kernels.h"

#include <algorithm>
#include <string>
#include <vector>

namespace irregfix {
namespace detail {
namespace {

// The work of the indices step: the view the launcher's kernel writes through.
void ask_indices(const Entry &e, const IndexedPayload &p, IndexedWork *work) {
  std::vector<const void *> copies(e.bufs.size());
  fill_view(e, &work->view, copies.data());
  work->idx = p.index_ptrs.data();
  work->step = kIndexedIndices;
}

// The copies: copy[a][slot] = arrays[a][idx[a][slot]] for every slot whose
// index lies in the array's allocation (others, sentinels and slots the
// launcher's kernel left unfilled, are skipped).
std::string gather_copies(const SiteInfo &site, Entry &e, const IndexedPayload &p, cudaStream_t stream) {
  for (std::size_t a = 0; a < e.key.sources.size(); ++a) {
    const SourceRange &src = e.sources[a];
    long long lo = 0, hi = 0;
    element_bounds(src.allocation.base, src.allocation.size, src.ptr, e.key.elem_sizes[a], &lo, &hi);
    IRREGFIX_TRY(remap_gather(p.index_ptrs[a], kIndexI64, Rows{0, p.cells}, e.key.sources[a],
                              e.key.elem_sizes[a], lo, hi, e.bufs[a], stream));
  }
  return "";
}

} // namespace

std::string shape_sources(const IndexedSite &s, std::vector<SourceRange> *out) {
  out->assign(static_cast<std::size_t>(s.count + s.index_count), SourceRange{});
  for (int a = 0; a < s.count; ++a) {
    long long lo = 0, hi = 0;
    if (std::string why = gather_source(s.arrays[a], s.elem_sizes[a], &(*out)[a], &lo, &hi); !why.empty())
      return why;
  }
  for (int i = 0; i < s.index_count; ++i) {
    SourceRange &src = (*out)[s.count + i];
    src.ptr = reinterpret_cast<std::uintptr_t>(s.index_arrays[i]);
    if (!s.index_arrays[i])
      src.memory = cudaMemoryTypeDevice;
    else if (allocation_of(s.index_arrays[i], &src.allocation, &src.memory))
      src.extent = src.allocation;
    else
      src = SourceRange{src.ptr, Range{}, Range{}, cudaMemoryTypeUnregistered};
  }
  return "";
}

std::string ask_lengths(BuildContext &cx, const SiteInfo &site, Entry &e, long long n, IndexedWork *work) {
  IndexedPayload &p = payload<IndexedPayload>(e);
  const std::size_t len_bytes = static_cast<std::size_t>(n) * sizeof(int);
  std::string why;
  if (!cx.fits(p.len.bytes, len_bytes))
    why = "over IRREGFIX_MAX_BYTES";
  else
    why = ensure_buffer(cx.cfg, site, p.len, len_bytes);
  work->len = p.len.as<int>();
  work->step = kIndexedLengths;
  return why;
}

std::string shape_indices(BuildContext &cx, const SiteInfo &site, Entry &e, int layout, long long max_len,
                          long long elements, unsigned long long cells, cudaStream_t stream,
                          IndexedWork *work) {
  IndexedPayload &p = payload<IndexedPayload>(e);
  const std::size_t count = e.key.sources.size();
  std::size_t index_bytes = 0;
  std::vector<std::size_t> need;
  std::string why = indexed_bytes(cells, e.key.elem_sizes, &index_bytes, &need);
  if (!why.empty())
    return why;
  std::size_t total = p.len.bytes + p.slices.bytes + index_bytes;
  for (std::size_t b : need)
    total += b;
  if (!cx.fits(e.bytes(), total))
    return "over IRREGFIX_MAX_BYTES";
  why = ensure_buffer(cx.cfg, site, p.indices, index_bytes);
  if (why.empty())
    why = ensure_copies(cx, site, e, need);
  if (!why.empty())
    return why;
  IRREGFIX_TRY(cudaMemsetAsync(p.indices.ptr, kUnfilledIndexByte, index_bytes, stream));
  p.index_ptrs.resize(count);
  for (std::size_t a = 0; a < count; ++a)
    p.index_ptrs[a] = p.indices.as<long long>() + a * cells;
  e.layout = layout;
  e.max_len = static_cast<int>(max_len);
  e.nnz = elements;
  p.cells = static_cast<long long>(cells);
  if (cells > 0)
    ask_indices(e, p, work);
  return "";
}

std::string after_lengths(BuildContext &cx, SiteStats &ss, const SiteInfo &site, Entry &e, int dev,
                          int request, bool report_padding, cudaStream_t stream, IndexedWork *work) {
  IndexedPayload &p = payload<IndexedPayload>(e);
  const long long n = e.key.n;
  const bool slices = counts_slices(request);
  const long long nslices = (n + 31) / 32;
  if (slices) {
    const std::size_t slice_bytes = static_cast<std::size_t>(nslices + 1) * sizeof(long long);
    if (!cx.fits(p.slices.bytes, slice_bytes))
      return "over IRREGFIX_MAX_BYTES";
    if (std::string why = ensure_buffer(cx.cfg, site, p.slices, slice_bytes); !why.empty())
      return why;
  }
  const int *len = p.len.as<const int>();
  std::size_t reduce_bytes = 0, scan_bytes = 0;
  IRREGFIX_TRY(summarize_lengths(len, n, nullptr, nullptr, &reduce_bytes, stream));
  if (slices)
    IRREGFIX_TRY(sell_slices(len, n, nullptr, nullptr, &scan_bytes, stream));
  Scratch *sc = nullptr;
  if (std::string why = ensure_scratch(cx.cfg, cx.devices, site, dev, std::max(reduce_bytes, scan_bytes), &sc);
      !why.empty())
    return why;
  struct {
    LengthSummary lengths;
    long long sell_cells;
  } h{};
  static_assert(sizeof(h) <= 64, "the summary holds it");
  char *summary = static_cast<char *>(sc->summary);
  IRREGFIX_TRY(summarize_lengths(len, n, reinterpret_cast<LengthSummary *>(summary), sc->temp,
                                 &reduce_bytes, stream));
  if (slices) {
    long long *slice_start = p.slices.as<long long>();
    IRREGFIX_TRY(sell_slices(len, n, slice_start, sc->temp, &scan_bytes, stream));
    IRREGFIX_TRY(cudaMemcpyAsync(summary + sizeof(LengthSummary), slice_start + nslices, sizeof(long long),
                                 cudaMemcpyDeviceToDevice, stream));
  }
  IRREGFIX_TRY(cudaMemcpyAsync(&h, summary, sizeof h, cudaMemcpyDeviceToHost, stream));
  IRREGFIX_TRY(cudaStreamSynchronize(stream));
  resolve_timings(ss, false);

  LayoutCells cells;
  cells.nnz = static_cast<unsigned long long>(h.lengths.sum);
  if (!ell_cells_of(n, h.lengths.max, &cells.ell))
    return "remapped copy too large";
  cells.sell = slices ? static_cast<unsigned long long>(h.sell_cells) : 0;
  if (report_padding) {
    ss.ell_padding = cells.nnz ? static_cast<double>(cells.ell) / static_cast<double>(cells.nnz) : 1.0;
    ss.sell_padding = slices && cells.nnz ? static_cast<double>(cells.sell) / static_cast<double>(cells.nnz) : 0.0;
  }
  const int layout = indexed_layout(request, true, cells);
  if (p.slices.ptr && !layout_has(layout, kViewSlices)) { // no slice offsets to keep
    IRREGFIX_TRY(cudaFree(p.slices.ptr));
    p.slices = DeviceBuffer{};
  }
  return shape_indices(cx, site, e, layout, h.lengths.max, h.lengths.sum, layout_cells(cells, layout),
                       stream, work);
}

std::string after_indices(BuildContext &cx, SiteStats &ss, const SiteInfo &site, Entry &e, int dev,
                          cudaStream_t stream) {
  const IndexedPayload &p = payload<IndexedPayload>(e);
  const std::size_t count = e.key.sources.size();
  if (p.cells == 0) { // every loop empty: nothing read
    for (std::size_t a = 0; a < count; ++a)
      e.sources[a].extent = Range{e.sources[a].ptr, 0};
    return "";
  }
  std::size_t temp_bytes = 0;
  IRREGFIX_TRY(valid_index_bounds(nullptr, p.cells, 0, 0, nullptr, nullptr, &temp_bytes, stream));
  // The bounds at the scratch's start, CUB's temporary storage after them.
  const std::size_t out_bytes = (count * 2 * sizeof(long long) + 255) / 256 * 256;
  Scratch *sc = nullptr;
  if (std::string why = ensure_scratch(cx.cfg, cx.devices, site, dev, out_bytes + temp_bytes, &sc); !why.empty())
    return why;
  long long *bounds = static_cast<long long *>(sc->temp);
  for (std::size_t a = 0; a < count; ++a) {
    const SourceRange &src = e.sources[a];
    long long lo = 0, hi = 0;
    element_bounds(src.allocation.base, src.allocation.size, src.ptr, e.key.elem_sizes[a], &lo, &hi);
    std::size_t bytes = temp_bytes;
    IRREGFIX_TRY(valid_index_bounds(p.index_ptrs[a], p.cells, lo, hi, bounds + 2 * a,
                                    static_cast<char *>(sc->temp) + out_bytes, &bytes, stream));
  }
  std::vector<long long> h(count * 2);
  IRREGFIX_TRY(cudaMemcpyAsync(h.data(), bounds, h.size() * sizeof(long long), cudaMemcpyDeviceToHost, stream));
  IRREGFIX_TRY(cudaStreamSynchronize(stream));
  resolve_timings(ss, false);
  for (std::size_t a = 0; a < count; ++a)
    e.sources[a].extent = index_extent_range(e.sources[a].ptr, e.key.elem_sizes[a], h[2 * a], h[2 * a + 1]);
  return "";
}

std::string gather_indexed(SiteStats &ss, const SiteInfo &site, Entry &e, cudaStream_t stream) {
  std::string why = gather_copies(site, e, payload<IndexedPayload>(e), stream);
  if (why.empty() && !e.ready) {
    const cudaError_t ce = cudaEventCreateWithFlags(&e.ready, cudaEventDisableTiming);
    if (ce != cudaSuccess)
      why = cuda_failure("cudaEventCreateWithFlags", site, ce);
  }
  const bool loop = indexed_loop(e.key);
  if (why.empty())
    why = copies_enqueued(ss, site, e, indexed_moved(static_cast<unsigned long long>(loop ? e.nnz : e.key.n),
                                                     e.key.elem_sizes), stream);
  if (why.empty())
    e.shape_valid = true;
  return why;
}

} // namespace detail
} // namespace irregfix
