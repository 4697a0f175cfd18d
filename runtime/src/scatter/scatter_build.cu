// irregfix runtime: the scatter builder: the inspector's segments as a cache
// entry. See scatter_build.h.
#include "scatter_build.h"

#include "scatter.h"

#include <algorithm>
#include <climits>
#include <vector>

namespace irregfix {
namespace detail {
CacheKey scatter_key(const SiteInfo &site, const ScatterIndices &f, long long n, void *A, int kind, bool assign,
                     int dev) {
  CacheKey key;
  key.device = dev;
  key.site = site.id ? site.id : "?";
  key.pattern = kPatternScatter;
  key.B = f.f[0];
  key.b_kind = f.kind[0];
  key.index_arrays.assign(f.f + 1, f.f + f.count); // a thread's other updates
  key.n = n;
  key.sources = {A};
  key.elem_sizes = {scatter_elem_size(kind)};
  key.params = {kind, f.count, assign ? 1 : 0};
  for (int k = 1; k < f.count; ++k)
    key.params.push_back(f.kind[k]);
  key.layout = kLayoutNone; // the contributions are written in thread order: no layout to choose
  return key;
}

std::string build_scatter(BuildContext &cx, SiteStats &ss, const SiteInfo &site, Entry &e, int dev,
                          const ScatterIndices &f, long long n, void *A, int kind, cudaStream_t stream,
                          bool *inspected) {
  *inspected = false;
  ScatterPayload &p = payload<ScatterPayload>(e);
  if (!e.ready)
    IRREGFIX_TRY(cudaEventCreateWithFlags(&e.ready, cudaEventDisableTiming));
  if (e.shape_valid &&
      std::all_of(p.tables, p.tables + kScatterTables, [](const DeviceBuffer &t) { return t.ptr != nullptr; }))
    return copies_enqueued(ss, site, e, 0, stream);
  const long long updates = n * f.count; // the contributions
  if (updates > INT_MAX / 2) // (slots are ints, and up to twice the items)
    return "scatter: more than INT_MAX / 2 updates";
  const std::size_t esz = scatter_elem_size(kind);
  std::vector<SourceRange> sources(1 + f.count); // A (by its allocation), then the index arrays
  long long lo = 0, hi = 0;
  std::string why = gather_source(A, esz, &sources[0], &lo, &hi);
  if (!why.empty())
    return "scatter: the updated array is not device memory";
  sources[0].extent = Range{sources[0].ptr, 0};
  sources[0].values_read = false;
  for (int k = 0; k < f.count; ++k) {
    why = whole_index_source(f.f[k], f.kind[k], n, "f", &sources[1 + k]);
    if (!why.empty())
      return why;
  }
  if (hi - lo >= static_cast<long long>(UINT_MAX))
    return "scatter: the updated array has 2^32 - 1 elements or more";

  const std::size_t items = static_cast<std::size_t>(updates);
  const std::size_t ids = items * sizeof(int), firsts = (items + 1) * sizeof(int);
  const std::size_t need[kScatterTables] = {
      items * sizeof(unsigned), firsts, ids, ids, firsts, firsts,
      static_cast<std::size_t>(most_chunks(updates)) * sizeof(int)}; // in ScatterTable's order
  std::size_t kept = 0;
  for (std::size_t b : need)
    kept += b;
  // (The contributions are the launch's own, allocated by prepare_scatter: the
  // cap counts them too.)
  if (!cx.fits(e.bytes(), kept + items * esz))
    return "over IRREGFIX_MAX_BYTES";
  for (int k = 0; k < kScatterTables && why.empty(); ++k)
    why = ensure_buffer(cx.cfg, site, p.tables[k], need[k]);
  if (!why.empty())
    return why;

  const ScatterIndex index{f, n, lo, static_cast<unsigned>(hi - lo)};
  std::size_t temp_bytes = 0;
  IRREGFIX_TRY(inspect_temp_bytes(index, &temp_bytes));
  Scratch *sc = nullptr;
  why = ensure_scratch(cx.cfg, cx.devices, site, dev, temp_bytes, &sc);
  if (!why.empty())
    return why;
  cudaEvent_t t0 = nullptr, t1 = nullptr;
  start_timing(stream, &t0, &t1);
  int *on_device = static_cast<int *>(sc->summary); // runs, then the region's size and the chunks'
  int *threads = p.table<int>(kScatterThreads), *first = p.table<int>(kScatterFirst),
      *region_first = p.table<int>(kScatterRegionFirst), *chunk_first = p.table<int>(kScatterChunkFirst);
  IRREGFIX_TRY(inspect_segments(index, sc->temp, sc->temp_bytes, p.table<unsigned>(kScatterTargets), threads,
                                on_device, stream));
  // The executor's grid is one thread per segment, and the launches' buffers
  // hold the region and the chunks' sums: two round trips, once per contents of f.
  int runs = 0, sizes[2] = {};
  IRREGFIX_TRY(cudaMemcpyAsync(&runs, on_device, sizeof runs, cudaMemcpyDeviceToHost, stream));
  IRREGFIX_TRY(cudaStreamSynchronize(stream));
  IRREGFIX_TRY(
      segment_firsts(index, sc->temp, sc->temp_bytes, runs, first, region_first, chunk_first, on_device + 1, stream));
  IRREGFIX_TRY(assign_slots(index, sc->temp, sc->temp_bytes, runs, first, threads, region_first, chunk_first,
                            p.table<int>(kScatterSlots), p.table<int>(kScatterChunkSegment), stream));
  IRREGFIX_TRY(cudaMemcpyAsync(sizes, on_device + 1, sizeof sizes, cudaMemcpyDeviceToHost, stream));
  IRREGFIX_TRY(cudaStreamSynchronize(stream));
  stop_timing(ss, stream, t0, t1);
  e.sources = std::move(sources);
  e.index_sources = f.count;
  p.lo = lo;
  p.hi = hi;
  p.segments = runs;
  p.region = sizes[0];
  p.chunks = sizes[1];
  ss.inspector = describe_segments(runs, updates, sizes[0], sizes[1]);
  e.nnz = updates;
  e.max_len = 1;
  e.shape_valid = true;
  *inspected = true;
  return copies_enqueued(ss, site, e, kept, stream);
}

void fill_scatter_plan(const Entry &e, int kind, ScatterPlan *plan) {
  const ScatterPayload &p = *payload_of<ScatterPayload>(e);
  plan->target = const_cast<void *>(e.key.sources[0]);
  plan->kind = kind;
  plan->n = e.nnz; // contributions
  plan->targets = p.table<const unsigned>(kScatterTargets);
  plan->first = p.table<const int>(kScatterFirst);
  plan->threads = p.table<const int>(kScatterThreads);
  plan->slots = p.table<const int>(kScatterSlots);
  plan->region_first = p.table<const int>(kScatterRegionFirst);
  plan->chunk_first = p.table<const int>(kScatterChunkFirst);
  plan->chunk_segment = p.table<const int>(kScatterChunkSegment);
  plan->segments = p.segments;
  plan->region = p.region;
  plan->chunks = p.chunks;
  plan->target_first = p.lo;
  plan->extent = static_cast<unsigned long long>(p.hi - p.lo);
}

std::size_t launch_contributions_bytes(const Entry &e, int kind, bool assign) {
  const ScatterPayload &p = *payload_of<ScatterPayload>(e);
  return contributions_bytes(e.nnz, p.region, p.chunks, kind, assign);
}

std::size_t launch_written_offset(const Entry &e, int kind) {
  return written_offset(e.nnz, payload_of<ScatterPayload>(e)->region, kind);
}

bool read_segments(const Entry &e, testing::ScatterSegments *out) {
  const ScatterPayload *p = payload_of<ScatterPayload>(e);
  if (e.key.pattern != kPatternScatter || !e.shape_valid || !p)
    return false;
  const std::size_t segments = static_cast<std::size_t>(p->segments), n = static_cast<std::size_t>(e.nnz);
  out->targets.resize(segments);
  out->first.resize(segments + 1);
  out->threads.resize(n);
  out->slots.resize(n);
  auto fetch = [&](void *to, ScatterTable k, std::size_t bytes) {
    return cudaMemcpy(to, p->tables[k].ptr, bytes, cudaMemcpyDeviceToHost) == cudaSuccess;
  };
  if (!fetch(out->targets.data(), kScatterTargets, segments * sizeof(unsigned)) ||
      !fetch(out->first.data(), kScatterFirst, (segments + 1) * sizeof(int)) ||
      !fetch(out->threads.data(), kScatterThreads, n * sizeof(int)) ||
      !fetch(out->slots.data(), kScatterSlots, n * sizeof(int))) {
    cudaGetLastError();
    *out = testing::ScatterSegments{};
    return true;
  }
  out->target_first = p->lo;
  out->extent = static_cast<unsigned long long>(p->hi - p->lo);
  return true;
}

} // namespace detail
} // namespace irregfix
