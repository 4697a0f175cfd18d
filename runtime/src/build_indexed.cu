// irregfix runtime: indexed copies (prepare_indexed, continue_indexed; see
// irregfix.cuh). The element indices of such a site only the program can
// compute: the runtime asks its launcher, step by step, to run generated
// kernels that write the lengths of each thread's loop and then the index of
// every slot, into buffers of the cache entry; it sizes the layout from the
// lengths (one round trip), finds the extent of the indices (one round trip),
// and gathers each copy through them. A refresh after a write to a data array
// only (the index arrays unchanged: shape_valid) gathers again from the kept
// indices and is ready at once; any other starts over.
//
// A build spans several API calls, with the launcher's kernels in between and
// the lock released: this host thread's build in progress is kept here
// (Progress), and its entry marked as being built (Entry::builder) so that no
// other thread touches it. Whatever fails drops the entry: nothing is left
// half-built, and the launcher runs the original kernel.
#include <irregfix/irregfix.cuh>

#include "build.h"
#include "indexed_plan.h"
#include "launch.h"
#include "prepare.h"
#include "remap.cuh"
#include "remap_indexed.h"

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

namespace irregfix {
namespace detail {
namespace {

// One host thread's indexed build, from the prepare that starts it to the step
// that makes it ready (or fails).
struct Progress {
  unsigned epoch = 0; // State::epoch when started: older ones are gone (testing::reset)
  const SiteInfo *site = nullptr;
  int dev = 0;
  CacheKey key;                  // the entry, looked up again at each step (it may be dropped)
  unsigned long long token = 0;  // the entry's builder while this build owns it; 0: none
  int step = kIndexedReady;      // what the launcher was asked to compute
  int request = 0;               // the prepare's layout key (LayoutRequest::key)
  bool report_padding = false;
  unsigned long long writes = 0; // the entry's writes when the build started
  cudaEvent_t t0 = nullptr, t1 = nullptr; // the build's remap time, the launcher's kernels included
};

thread_local Progress progress;
unsigned long long last_token = 0; // guarded by State::mu

bool in_progress(const State &st) { return progress.token != 0 && progress.epoch == st.epoch; }

// The entry of this thread's build, if it still exists and is still its own.
Entry *own_entry(State &st) {
  Entry *e = nullptr;
  if (!in_progress(st) || st.cache.lookup(progress.key, &e) == Cache::kMiss || e->builder != progress.token)
    return nullptr;
  return e;
}

void end_progress() {
  if (progress.token == 0 && !progress.t0 && !progress.t1) // none: nothing to reset (the hit path)
    return;
  for (cudaEvent_t *ev : {&progress.t0, &progress.t1})
    if (*ev && cudaEventDestroy(*ev) != cudaSuccess)
      cudaGetLastError(); // ours: not for the program's own checks
  progress = Progress{};
}

// This thread's build that its launcher left unfinished (a launcher that
// stopped calling continue_indexed): its entry goes.
void abandon_progress(State &st) {
  if (own_entry(st))
    drop_entry(st, CacheKey(progress.key));
  end_progress();
}

// A step failed: the entry is dropped, the reason recorded.
bool fail(State &st, SiteStats &ss, const std::string &why) {
  const bool own = own_entry(st) != nullptr;
  const CacheKey key = progress.key;
  end_progress();
  if (own)
    return build_failed(st, ss, key, why);
  record_fallback(ss, why);
  return false;
}

// The sources of a new shape, data arrays then index arrays (Entry::sources):
// each data array's allocation (its extent until the indices are known); each
// index array's whole allocation, as the index kernels may read any of it. An
// index array in no allocation the runtime can find is taken as memory that
// host code may write unannounced: the entry is never served from the cache,
// and every launch computes its indices again (cacheable_memory). A null one is
// not read: it matches no write.
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

// The work of the indices step: the view the launcher's kernel writes through.
void ask_indices(const Entry &e, IndexedWork *work) {
  std::vector<const void *> copies(e.bufs.size());
  fill_view(e, &work->view, copies.data());
  work->idx = e.index_ptrs.data();
  work->step = kIndexedIndices;
}

// The shape's buffers once its layout and cells are known: the element
// indices (every slot unfilled until the launcher's kernel writes it) and the
// copies. Then the launcher computes the indices, unless there are none.
std::string shape_indices(State &st, const SiteInfo &site, Entry &e, int layout, long long max_len,
                          long long elements, unsigned long long cells, cudaStream_t stream,
                          IndexedWork *work) {
  const std::size_t count = e.key.sources.size();
  std::size_t index_bytes = 0;
  std::vector<std::size_t> need;
  std::string why = indexed_bytes(cells, e.key.elem_sizes, &index_bytes, &need);
  if (!why.empty())
    return why;
  std::size_t total = e.len_bytes + e.aux_bytes + index_bytes;
  for (std::size_t b : need)
    total += b;
  if (!Cache::fits(st.cache.total_bytes(), e.bytes(), total, st.cfg.max_bytes))
    return "over IRREGFIX_MAX_BYTES";
  why = ensure_buffer(st, site, &e.indices, &e.indices_bytes, index_bytes);
  if (why.empty())
    why = ensure_copies(st, site, e, need);
  if (!why.empty())
    return why;
  IRREGFIX_TRY(cudaMemsetAsync(e.indices, kUnfilledIndexByte, index_bytes, stream));
  e.index_ptrs.resize(count);
  for (std::size_t a = 0; a < count; ++a)
    e.index_ptrs[a] = static_cast<long long *>(e.indices) + a * cells;
  e.layout = layout;
  e.max_len = static_cast<int>(max_len);
  e.nnz = elements;
  e.cells = static_cast<long long>(cells);
  if (cells > 0)
    ask_indices(e, work);
  return "";
}

// After the lengths: their sum and maximum and, unless ELL is asked, SELL-32's
// cells (one round trip); the layout; the shape's buffers.
std::string after_lengths(State &st, SiteStats &ss, const SiteInfo &site, Entry &e, int dev,
                          cudaStream_t stream, IndexedWork *work) {
  const long long n = e.key.n;
  const bool slices = progress.request != kLayoutEllColMajor;
  const long long nslices = (n + 31) / 32;
  if (slices) {
    const std::size_t slice_bytes = static_cast<std::size_t>(nslices + 1) * sizeof(long long);
    if (!Cache::fits(st.cache.total_bytes(), e.aux_bytes, slice_bytes, st.cfg.max_bytes))
      return "over IRREGFIX_MAX_BYTES";
    if (std::string why = ensure_buffer(st, site, &e.aux, &e.aux_bytes, slice_bytes); !why.empty())
      return why;
  }
  const int *len = static_cast<const int *>(e.len);
  std::size_t reduce_bytes = 0, scan_bytes = 0;
  IRREGFIX_TRY(summarize_lengths(len, n, nullptr, nullptr, &reduce_bytes, stream));
  if (slices)
    IRREGFIX_TRY(sell_slices(len, n, nullptr, nullptr, &scan_bytes, stream));
  Scratch *sc = nullptr;
  if (std::string why = ensure_scratch(st, site, dev, std::max(reduce_bytes, scan_bytes), &sc); !why.empty())
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
    long long *slice_start = static_cast<long long *>(e.aux);
    IRREGFIX_TRY(sell_slices(len, n, slice_start, sc->temp, &scan_bytes, stream));
    IRREGFIX_TRY(cudaMemcpyAsync(summary + sizeof(LengthSummary), slice_start + nslices, sizeof(long long),
                                 cudaMemcpyDeviceToDevice, stream));
  }
  IRREGFIX_TRY(cudaMemcpyAsync(&h, summary, sizeof h, cudaMemcpyDeviceToHost, stream));
  IRREGFIX_TRY(cudaStreamSynchronize(stream));
  resolve_timings(ss, false);

  LayoutCells cells;
  cells.nnz = static_cast<unsigned long long>(h.lengths.sum);
  if (__builtin_mul_overflow(static_cast<unsigned long long>(h.lengths.max), static_cast<unsigned long long>(n),
                             &cells.ell))
    return "remapped copy too large";
  cells.sell = slices ? static_cast<unsigned long long>(h.sell_cells) : 0;
  if (progress.report_padding) {
    ss.ell_padding = cells.nnz ? static_cast<double>(cells.ell) / static_cast<double>(cells.nnz) : 1.0;
    ss.sell_padding = slices && cells.nnz ? static_cast<double>(cells.sell) / static_cast<double>(cells.nnz) : 0.0;
  }
  const int layout = indexed_layout(progress.request, true, cells);
  if (layout == kLayoutEllColMajor && e.aux) { // no slice offsets to keep
    IRREGFIX_TRY(cudaFree(e.aux));
    e.aux = nullptr;
    e.aux_bytes = 0;
  }
  return shape_indices(st, site, e, layout, h.lengths.max, h.lengths.sum, layout_cells(cells, layout),
                       stream, work);
}

// After the indices: each data array's extent, from the least to the greatest
// index inside its allocation (one round trip), for invalidation by range and
// IRREGFIX_VERIFY's fingerprints.
std::string after_indices(State &st, SiteStats &ss, const SiteInfo &site, Entry &e, int dev,
                          cudaStream_t stream) {
  const std::size_t count = e.key.sources.size();
  if (e.cells == 0) { // every loop empty: nothing read
    for (std::size_t a = 0; a < count; ++a)
      e.sources[a].extent = Range{e.sources[a].ptr, 0};
    return "";
  }
  std::size_t temp_bytes = 0;
  IRREGFIX_TRY(valid_index_bounds(nullptr, e.cells, 0, 0, nullptr, nullptr, &temp_bytes, stream));
  // The bounds at the scratch's start, CUB's temporary storage after them.
  const std::size_t out_bytes = (count * 2 * sizeof(long long) + 255) / 256 * 256;
  Scratch *sc = nullptr;
  if (std::string why = ensure_scratch(st, site, dev, out_bytes + temp_bytes, &sc); !why.empty())
    return why;
  long long *bounds = static_cast<long long *>(sc->temp);
  for (std::size_t a = 0; a < count; ++a) {
    const SourceRange &src = e.sources[a];
    long long lo = 0, hi = 0;
    element_bounds(src.allocation.base, src.allocation.size, src.ptr, e.key.elem_sizes[a], &lo, &hi);
    std::size_t bytes = temp_bytes;
    IRREGFIX_TRY(valid_index_bounds(e.index_ptrs[a], e.cells, lo, hi, bounds + 2 * a,
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

// The copies: copy[a][slot] = arrays[a][idx[a][slot]] for every slot whose
// index lies in the array's allocation (others, sentinels and slots the
// launcher's kernel left unfilled, are skipped).
std::string gather_copies(const SiteInfo &site, Entry &e, cudaStream_t stream) {
  for (std::size_t a = 0; a < e.key.sources.size(); ++a) {
    const SourceRange &src = e.sources[a];
    long long lo = 0, hi = 0;
    element_bounds(src.allocation.base, src.allocation.size, src.ptr, e.key.elem_sizes[a], &lo, &hi);
    IRREGFIX_TRY(remap_gather(e.index_ptrs[a], kIndexI64, Rows{0, e.cells}, e.key.sources[a],
                              e.key.elem_sizes[a], lo, hi, e.bufs[a], stream));
  }
  return "";
}

// The copies are gathered: the entry is valid and serves this launch, its
// build timed as a remap. A write reported while the launcher computed (by
// another host thread) may have come after what the copy read: the copy
// serves this launch, whose order with that write is the program's, but not
// the next.
bool ready(State &st, SiteRecord &rec, const SiteInfo &site, Entry &e, int dev, IndexedWork *work,
           View *view, const void **remapped, cudaStream_t stream) {
  SiteStats &ss = *rec.stats;
  std::string why = gather_copies(site, e, stream);
  if (why.empty() && !e.ready) {
    const cudaError_t ce = cudaEventCreateWithFlags(&e.ready, cudaEventDisableTiming);
    if (ce != cudaSuccess)
      why = cuda_failure("cudaEventCreateWithFlags", site, ce);
  }
  const bool loop = indexed_loop(e.key);
  if (why.empty())
    why = copies_enqueued(ss, site, e, indexed_moved(static_cast<unsigned long long>(loop ? e.nnz : e.key.n),
                                                     e.key.elem_sizes), stream);
  if (!why.empty())
    return fail(st, ss, why);
  e.shape_valid = true;
  stop_timing(ss, stream, progress.t0, progress.t1);
  progress.t0 = progress.t1 = nullptr;
  const bool written = e.writes != progress.writes;
  e.builder = 0;
  end_progress();
  work->step = kIndexedReady;
  if (!serve_built(st, site, rec, this_thread_launch(st), dev, e, view, remapped, stream))
    return false;
  if (written)
    e.valid = e.shape_valid = false;
  return true;
}

} // namespace
} // namespace detail

bool prepare_indexed(const SiteInfo &site, const IndexedSite &s, IndexedWork *work, View *view,
                     const void **remapped, cudaStream_t stream) {
  using namespace detail;
  int dev = 0;
  const cudaError_t err = cudaGetDevice(&dev);
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  abandon_progress(st);
  if (work)
    *work = IndexedWork{};
  SiteRecord *opened = open_prepare(st, site, err, dev);
  if (!opened)
    return false;
  SiteRecord &rec = *opened;
  SiteStats &ss = *rec.stats;
  if (!work) {
    record_fallback(ss, "no IndexedWork to describe the steps");
    return false;
  }
  Launch *launch = this_thread_launch(st);
  const LayoutRequest request = layout_request(st.cfg, kPatternIndexed, site, launch_shape(launch), s.n);
  Entry *recent = rec.recent[layout_slot(request.key)];
  if (!declined(st.cfg) && recent && servable(*recent) && same_indexed_call(recent->key, s, dev, request.key))
    return serve_hit(st, site, rec, launch, dev, *recent, view, remapped, stream);

  ss.pattern = pattern_name(kPatternIndexed);
  const char *no = declined(st.cfg);
  std::string why = no ? no : check_indexed_site(s);
  if (!why.empty()) {
    record_fallback(ss, why);
    return false;
  }
  const CacheKey key = indexed_key(site.id, dev, s, request.key);
  Entry *found = nullptr;
  if (st.cache.lookup(key, &found) == Cache::kHit && servable(*found))
    return serve_hit(st, site, rec, launch, dev, *found, view, remapped, stream);
  if (found && found->builder != 0) {
    record_fallback(ss, "another host thread is building this indexed copy");
    return false;
  }
  Entry &e = entry_to_build(st, ss, key, found);
  progress.epoch = st.epoch;
  progress.site = &site;
  progress.dev = dev;
  progress.key = key;
  progress.token = e.builder = ++last_token;
  progress.request = request.key;
  progress.report_padding = request.report_padding;
  progress.writes = e.writes;
  start_timing(ss, stream, &progress.t0, &progress.t1);

  const IndexedStep first = indexed_first_step(e, s.loop != 0);
  if (first == kIndexedReady) // only data arrays were written: the kept indices hold
    return ready(st, rec, site, e, dev, work, view, remapped, stream);
  why = shape_sources(s, &e.sources);
  e.index_sources = s.index_count;
  e.shape_valid = false;
  if (why.empty() && first == kIndexedLengths) {
    const std::size_t len_bytes = static_cast<std::size_t>(s.n) * sizeof(int);
    if (!Cache::fits(st.cache.total_bytes(), e.len_bytes, len_bytes, st.cfg.max_bytes))
      why = "over IRREGFIX_MAX_BYTES";
    else
      why = ensure_buffer(st, site, &e.len, &e.len_bytes, len_bytes);
    work->len = static_cast<int *>(e.len);
    work->step = kIndexedLengths;
  } else if (why.empty()) { // a gather: one slot a thread
    why = shape_indices(st, site, e, kLayoutEllColMajor, 1, s.n, static_cast<unsigned long long>(s.n), stream,
                        work);
  }
  if (!why.empty()) {
    *work = IndexedWork{};
    return fail(st, ss, why);
  }
  progress.step = work->step;
  return true;
}

bool continue_indexed(const SiteInfo &site, IndexedWork *work, View *view, const void **remapped,
                      cudaStream_t stream) {
  using namespace detail;
  int dev = 0;
  const cudaError_t err = cudaGetDevice(&dev);
  // The launcher's kernel: a launch that failed leaves its error here (left for
  // the program's own checks to see, as the original kernel's would be).
  const cudaError_t launched = cudaPeekAtLastError();
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  ensure_loaded(st);
  if (!in_progress(st) || progress.site != &site || !work || work->step != progress.step) {
    abandon_progress(st);
    record_fallback(site_stats(st, site), "continue_indexed without that step of a build in progress");
    return false;
  }
  SiteRecord &rec = site_record(st, site, progress.dev);
  SiteStats &ss = *rec.stats;
  const int step = progress.step;
  *work = IndexedWork{};
  if (err != cudaSuccess || dev != progress.dev)
    return fail(st, ss, err != cudaSuccess ? cuda_failure("cudaGetDevice", site, err)
                                           : "the device changed during an indexed build");
  if (launched != cudaSuccess) {
    std::fprintf(stderr, "irregfix: the launcher's %s kernel failed at %s: %s\n",
                 step == kIndexedLengths ? "lengths" : "indices", site.id ? site.id : "?",
                 cudaGetErrorString(launched));
    return fail(st, ss, std::string("the launcher's kernel failed: ") + cudaGetErrorString(launched));
  }
  Entry *e = own_entry(st);
  if (!e) {
    end_progress();
    record_fallback(ss, "the indexed copy was dropped during its build");
    return false;
  }
  // After the lengths, the indices next (no slot at all: none to compute).
  std::string why = step == kIndexedLengths ? after_lengths(st, ss, site, *e, dev, stream, work) : "";
  if (why.empty() && work->step == kIndexedReady)
    why = after_indices(st, ss, site, *e, dev, stream);
  if (!why.empty()) {
    *work = IndexedWork{};
    return fail(st, ss, why);
  }
  if (work->step != kIndexedReady) {
    progress.step = work->step;
    return true;
  }
  return ready(st, rec, site, *e, dev, work, view, remapped, stream);
}

} // namespace irregfix
