// irregfix runtime: the API of scatter sites (prepare_scatter, execute_scatter;
// irregfix.cuh). The inspector's segments are a cache entry like a copy: keyed
// by (site, f, n, A, element type), built from f (its index array) and from A's
// allocation, made stale by the same invalidations, checked by IRREGFIX_VERIFY
// at hits. Only f's bytes decide the segments: A is a source by its allocation
// alone (a write to A leaves the entry valid, Cache::invalidate; freeing A
// makes the inspector run again, as A's extent may have changed),
// and its bytes are never fingerprinted. Each launch's contributions are its
// own (prepare).
#include <irregfix/irregfix.cuh>
#include <irregfix/testing.h>

#include "build.h"
#include "launch.h"
#include "prepare.h"
#include "scatter.h"
#include "state.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <mutex>
#include <string>

namespace irregfix {
namespace detail {
namespace {

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

template <class T> T *table(const Entry &e, ScatterTable k) { return static_cast<T *>(e.scatter[k]); }

// Runs the inspector into e (a miss, or a refresh after f or A's allocation
// changed); a refresh after a write to A only marks e valid again. *inspected:
// whether it ran (what the selector counts as this launch's remap).
std::string build_scatter(State &st, SiteStats &ss, const SiteInfo &site, Entry &e, int dev, const ScatterIndices &f,
                          long long n, void *A, int kind, cudaStream_t stream, bool *inspected) {
  *inspected = false;
  if (!e.ready)
    IRREGFIX_TRY(cudaEventCreateWithFlags(&e.ready, cudaEventDisableTiming));
  if (e.shape_valid && std::all_of(e.scatter, e.scatter + kScatterTables, [](void *t) { return t != nullptr; }))
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
  if (!Cache::fits(st.cache.total_bytes(), e.bytes(), kept + items * esz, st.cfg.max_bytes))
    return "over IRREGFIX_MAX_BYTES";
  for (int k = 0; k < kScatterTables && why.empty(); ++k)
    why = ensure_buffer(st, site, &e.scatter[k], &e.scatter_bytes[k], need[k]);
  if (!why.empty())
    return why;

  const ScatterIndex index{f, n, lo, static_cast<unsigned>(hi - lo)};
  std::size_t temp_bytes = 0;
  IRREGFIX_TRY(inspect_temp_bytes(index, &temp_bytes));
  Scratch *sc = nullptr;
  why = ensure_scratch(st, site, dev, temp_bytes, &sc);
  if (!why.empty())
    return why;
  cudaEvent_t t0 = nullptr, t1 = nullptr;
  start_timing(ss, stream, &t0, &t1);
  int *on_device = static_cast<int *>(sc->summary); // runs, then the region's size and the chunks'
  int *threads = table<int>(e, kScatterThreads), *first = table<int>(e, kScatterFirst),
      *region_first = table<int>(e, kScatterRegionFirst), *chunk_first = table<int>(e, kScatterChunkFirst);
  IRREGFIX_TRY(inspect_segments(index, sc->temp, sc->temp_bytes, table<unsigned>(e, kScatterTargets), threads,
                                on_device, stream));
  // The executor's grid is one thread per segment, and the launches' buffers
  // hold the region and the chunks' sums: two round trips, once per contents of f.
  int runs = 0, sizes[2] = {};
  IRREGFIX_TRY(cudaMemcpyAsync(&runs, on_device, sizeof runs, cudaMemcpyDeviceToHost, stream));
  IRREGFIX_TRY(cudaStreamSynchronize(stream));
  IRREGFIX_TRY(
      segment_firsts(index, sc->temp, sc->temp_bytes, runs, first, region_first, chunk_first, on_device + 1, stream));
  IRREGFIX_TRY(assign_slots(index, sc->temp, sc->temp_bytes, runs, first, threads, region_first, chunk_first,
                            table<int>(e, kScatterSlots), table<int>(e, kScatterChunkSegment), stream));
  IRREGFIX_TRY(cudaMemcpyAsync(sizes, on_device + 1, sizeof sizes, cudaMemcpyDeviceToHost, stream));
  IRREGFIX_TRY(cudaStreamSynchronize(stream));
  stop_timing(ss, stream, t0, t1);
  e.sources = std::move(sources);
  e.index_sources = f.count;
  e.idx_lo = lo;
  e.idx_hi = hi;
  e.segments = runs;
  e.scatter_region = sizes[0];
  e.scatter_chunks = sizes[1];
  ss.inspector = describe_segments(runs, updates, sizes[0], sizes[1]);
  e.nnz = updates;
  e.max_len = 1;
  e.shape_valid = true;
  *inspected = true;
  return copies_enqueued(ss, site, e, kept, stream);
}

void fill_plan(const Entry &e, int kind, ScatterPlan *plan) {
  plan->target = const_cast<void *>(e.key.sources[0]);
  plan->kind = kind;
  plan->n = e.nnz; // contributions
  plan->targets = table<const unsigned>(e, kScatterTargets);
  plan->first = table<const int>(e, kScatterFirst);
  plan->threads = table<const int>(e, kScatterThreads);
  plan->slots = table<const int>(e, kScatterSlots);
  plan->region_first = table<const int>(e, kScatterRegionFirst);
  plan->chunk_first = table<const int>(e, kScatterChunkFirst);
  plan->chunk_segment = table<const int>(e, kScatterChunkSegment);
  plan->segments = e.segments;
  plan->region = e.scatter_region;
  plan->chunks = e.scatter_chunks;
  plan->target_first = e.idx_lo;
  plan->extent = static_cast<unsigned long long>(e.idx_hi - e.idx_lo);
}

// Whether prepares of this configuration decline: IRREGFIX_DISABLE, or
// IRREGFIX_LAYOUT=none unless IRREGFIX_DETERMINISTIC asks for the executor.
const char *scatter_declined(const Config &cfg) {
  if (cfg.disabled)
    return "disabled by IRREGFIX_DISABLE";
  return cfg.layout == kLayoutChoiceNone && !cfg.deterministic ? "IRREGFIX_LAYOUT=none" : nullptr;
}

// prepare_scatter and prepare_scatter_assign.
bool prepare(const SiteInfo &site, const ScatterIndices &f, long long n, void *A, ScatterKind kind, bool assign,
             ScatterPlan *plan, cudaStream_t stream) {
  int dev = 0;
  const cudaError_t err = cudaGetDevice(&dev);
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  SiteRecord *opened = open_prepare(st, site, err, dev);
  if (!opened)
    return false;
  SiteRecord &rec = *opened;
  SiteStats &ss = *rec.stats;
  ss.pattern = pattern_name(kPatternScatter);
  if (const char *no = scatter_declined(st.cfg)) {
    record_fallback(ss, no);
    return false;
  }
  bool indices = f.count >= 1 && f.count <= ScatterIndices::kMax;
  for (int k = 0; indices && k < f.count; ++k)
    indices = f.f[k] != nullptr;
  if (n <= 0 || !indices || !A) {
    record_fallback(ss, "no threads, no index array or no updated array");
    return false;
  }
  if (kind != kScatterF32 && kind != kScatterF64 && kind != kScatterI32) {
    record_fallback(ss, "scatter: unknown element type");
    return false;
  }
  // The executor's grid for long segments: the device's multiprocessors, asked once.
  if (const cudaError_t m = device_sms(st, dev, &plan->sms); m != cudaSuccess) {
    record_fallback(ss, cuda_failure("cudaDeviceGetAttribute", site, m));
    return false;
  }
  Launch *launch = this_thread_launch(st);
  const CacheKey key = scatter_key(site, f, n, A, kind, assign, dev);
  Entry *e = nullptr;
  const Cache::Lookup found = st.cache.lookup(key, &e);
  View view{};
  const void *copies[1] = {}; // (an inspector's entry holds no copies)
  if (found == Cache::kHit && servable(*e)) {
    if (!serve_hit(st, site, rec, launch, dev, *e, &view, copies, stream))
      return false;
  } else {
    e = &entry_to_build(st, ss, key, e);
    bool inspected = false;
    const std::string why = build_scatter(st, ss, site, *e, dev, f, n, A, kind, stream, &inspected);
    if (!why.empty())
      return build_failed(st, ss, key, why);
    if (!serve_built(st, site, rec, launch, dev, *e, &view, copies, stream))
      return false;
  }
  // Each launch writes its own contributions, from the stream-ordered pool:
  // launches of this site on other streams may run at the same time.
  const std::size_t bytes = contributions_bytes(e->nnz, e->scatter_region, e->scatter_chunks, kind, assign);
  void *contrib = nullptr;
  cudaError_t a = st.cfg.fail_alloc ? cudaErrorMemoryAllocation : cudaMallocAsync(&contrib, bytes, stream);
  if (a != cudaSuccess) {
    record_fallback(ss, cuda_failure("cudaMallocAsync (scatter contributions)", site, a));
    return false;
  }
  // Threads that do not reach the update (a condition inside the guard) add nothing.
  if (const cudaError_t z = cudaMemsetAsync(contrib, 0, bytes, stream); z != cudaSuccess) {
    record_fallback(ss, cuda_failure("cudaMemsetAsync", site, z));
    cudaFreeAsync(contrib, stream);
    cudaGetLastError();
    return false;
  }
  fill_plan(*e, kind, plan);
  plan->contrib = contrib;
  plan->written =
      assign ? static_cast<unsigned char *>(contrib) + written_offset(e->nnz, e->scatter_region, kind) : nullptr;
  return true;
}

} // namespace
} // namespace detail

bool prepare_scatter(const SiteInfo &site, const ScatterIndices &f, long long n, void *A, ScatterKind kind,
                     ScatterPlan *plan, cudaStream_t stream) {
  return detail::prepare(site, f, n, A, kind, false, plan, stream);
}

bool prepare_scatter_assign(const SiteInfo &site, const ScatterIndices &f, long long n, void *A, ScatterKind kind,
                            ScatterPlan *plan, cudaStream_t stream) {
  return detail::prepare(site, f, n, A, kind, true, plan, stream);
}

bool execute_scatter(const SiteInfo &site, const ScatterPlan &plan, cudaStream_t stream) {
  using namespace detail;
  // The variant's launch failed: the executor would add nothing the variant wrote.
  cudaError_t e = cudaPeekAtLastError();
  if (e == cudaSuccess)
    e = launch_executor(plan, stream);
  // The contributions go back to the pool once the executor has read them.
  if (const cudaError_t f = cudaFreeAsync(plan.contrib, stream); e == cudaSuccess)
    e = f;
  if (e == cudaSuccess)
    return true;
  const std::string why = cuda_failure("the scatter variant or its executor", site, e);
  note_fallback(site, why.c_str());
  return false;
}

namespace testing {

ScatterSegments scatter_segments(const char *site_id) {
  using namespace detail;
  ScatterSegments out;
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) {
    cudaGetLastError();
    return out;
  }
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  for (auto &kv : st.sites) {
    const SiteRecord &r = kv.second;
    if (kv.first.second != dev || !r.stats || r.stats->id != site_id || !r.last ||
        r.last->key.pattern != kPatternScatter || !r.last->shape_valid)
      continue;
    const Entry &e = *r.last;
    const std::size_t segments = static_cast<std::size_t>(e.segments), n = static_cast<std::size_t>(e.nnz);
    out.targets.resize(segments);
    out.first.resize(segments + 1);
    out.threads.resize(n);
    out.slots.resize(n);
    auto fetch = [&](void *to, ScatterTable k, std::size_t bytes) {
      return cudaMemcpy(to, e.scatter[k], bytes, cudaMemcpyDeviceToHost) == cudaSuccess;
    };
    if (!fetch(out.targets.data(), kScatterTargets, segments * sizeof(unsigned)) ||
        !fetch(out.first.data(), kScatterFirst, (segments + 1) * sizeof(int)) ||
        !fetch(out.threads.data(), kScatterThreads, n * sizeof(int)) ||
        !fetch(out.slots.data(), kScatterSlots, n * sizeof(int))) {
      cudaGetLastError();
      return ScatterSegments{};
    }
    out.target_first = e.idx_lo;
    out.extent = static_cast<unsigned long long>(e.idx_hi - e.idx_lo);
    return out;
  }
  return out;
}

} // namespace testing
} // namespace irregfix
