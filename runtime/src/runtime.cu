// irregfix runtime: the API that rewritten programs call (irregfix.cuh): the
// prepare_* entry points over the cache of remapped copies and the statistics.
// A prepare takes the launch open on its thread (launch.h), asks the layout
// policy for a layout request, looks the copy up, and on a miss or a refresh
// has a builder (build_*.cu) make it, then enqueues the builder's copy or hands
// it to the launch. The alias checks are in alias.cu, the invalidation entry
// points in invalidation.cu.
#include <irregfix/irregfix.cuh>

#include "build.h"
#include "launch.h"
#include "layout_policy.h"
#include "nvtx.h"
#include "order.h"
#include "prepare.h"
#include "state.h"
#include "verify.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <unordered_map>

namespace irregfix {
namespace detail {

State &state() {
  static State *s = new State; // never destroyed: at-exit code may still use it
  return *s;
}

namespace {
void print_stats_at_exit();

// The launch's stream must see the copy's last remap (done on another stream).
std::string wait_for_copy(const SiteInfo &site, const Entry &e, cudaStream_t stream) {
  if (e.built_on != stream)
    IRREGFIX_TRY(cudaStreamWaitEvent(stream, e.ready, 0));
  return "";
}

// The entry serves the launch: the site's latest, in the view.
void serve(State &st, SiteRecord &rec, Launch *l, Entry &e, bool built, View *view,
           const void **remapped, cudaStream_t stream) {
  rec.stats->layout = e.layout;
  rec.last = rec.recent[layout_slot(e.key.layout)] = &e;
  fill_view(e, view, remapped);
  launch_prepared(st, l, rec, built, stream);
}
} // namespace

bool serve_hit(State &st, const SiteInfo &site, SiteRecord &rec, Launch *l, int dev, Entry &e,
               View *view, const void **remapped, cudaStream_t stream) {
  SiteStats &ss = *rec.stats;
  std::string why = wait_for_copy(site, e, stream);
  if (why.empty() && st.cfg.verify && !defer_verification(l, site, ss, e, dev, false))
    why = verify_hit(st, ss, site, dev, e, stream);
  if (!why.empty()) {
    record_fallback(ss, why);
    return false;
  }
  ++ss.hits;
  serve(st, rec, l, e, false, view, remapped, stream);
  return true;
}

bool serve_built(State &st, const SiteInfo &site, SiteRecord &rec, Launch *l, int dev, Entry &e,
                 View *view, const void **remapped, cudaStream_t stream) {
  SiteStats &ss = *rec.stats;
  note_source_memory(e);
  ss.host_writable_builds += e.host_writable;
  if (st.cfg.verify) {
    e.built_by = ss.prepares;
    if (!defer_verification(l, site, ss, e, dev, true))
      if (const std::string why = remember_fingerprints(st, ss, site, dev, e, stream); !why.empty())
        return build_failed(st, ss, CacheKey(e.key), why);
  }
  serve(st, rec, l, e, true, view, remapped, stream);
  return true;
}

SiteRecord *open_prepare(State &st, const SiteInfo &site, cudaError_t device_error, int dev) {
  ensure_loaded(st);
  if (device_error != cudaSuccess) {
    record_fallback(site_stats(st, site), cuda_failure("cudaGetDevice", site, device_error));
    return nullptr;
  }
  SiteRecord &rec = site_record(st, site, dev);
  ++rec.stats->prepares;
  return &rec;
}

const char *declined(const Config &cfg) {
  if (cfg.disabled)
    return "disabled by IRREGFIX_DISABLE";
  return cfg.layout == kLayoutChoiceNone ? "IRREGFIX_LAYOUT=none" : nullptr;
}

Entry &entry_to_build(State &st, SiteStats &ss, const CacheKey &key, Entry *stale) {
  if (!stale) {
    ++ss.misses;
    Entry *e = st.cache.insert(key);
    e->layout = key.pattern == kPatternRange ? kLayoutEllColMajor : key.layout; // range: set by build
    return *e;
  }
  ++ss.refreshes;
  // Host code may have written a source in managed or host memory since the
  // last launch, unannounced: rebuild it, and its shape when an index array is.
  if (stale->host_writable)
    stale->valid = false;
  if (stale->index_host_writable)
    stale->shape_valid = false;
  return *stale;
}

bool build_failed(State &st, SiteStats &ss, const CacheKey &key, const std::string &why) {
  drop_entry(st, key);
  record_fallback(ss, why);
  return false;
}

void ensure_loaded(State &st) {
  if (st.loaded)
    return;
  st.cfg = config_from_env();
  st.loaded = true;
  if (st.cfg.stats && !st.atexit_registered) {
    st.atexit_registered = true;
    std::atexit(print_stats_at_exit);
  }
}

SiteStats &site_stats(State &st, const SiteInfo &site) {
  std::string id = site.id ? site.id : "?";
  SiteStats &s = st.stats[id];
  if (s.id.empty()) {
    s.id = id;
    s.kernel = site.kernel ? site.kernel : "?";
    s.pattern = site.pattern ? site.pattern : "?";
  }
  return s;
}

bool record_names(const SiteStats *stats, const SiteInfo &site) {
  return stats && std::strcmp(stats->id.c_str(), site.id ? site.id : "?") == 0;
}

SiteRecord &site_record(State &st, const SiteInfo &site, int device) {
  SiteRecord &r = st.sites[RecordKey(&site, device)];
  if (!record_names(r.stats, site)) // a SiteInfo reused at one address for another site
    r = SiteRecord{};
  if (!r.stats)
    r.stats = &site_stats(st, site);
  return r;
}

void record_fallback(SiteStats &s, const std::string &why) {
  ++s.fallbacks[why];
  s.last_fallback = why;
}

std::string cuda_failure(const char *call, const SiteInfo &site, cudaError_t e) {
  std::fprintf(stderr, "irregfix: %s failed at %s: %s\n", call, site.id ? site.id : "?",
               cudaGetErrorString(e));
  cudaGetLastError(); // a failed allocation must not surface in the program's own checks
  return std::string("CUDA error in ") + call + ": " + cudaGetErrorString(e);
}

cudaError_t event_done(cudaEvent_t e, bool wait) {
  return wait ? cudaEventSynchronize(e) : cudaEventQuery(e);
}

float elapsed_ms(cudaEvent_t a, cudaEvent_t b, bool *ok) {
  float ms = 0;
  if (cudaEventElapsedTime(&ms, a, b) != cudaSuccess) {
    cudaGetLastError();
    *ok = false;
  }
  return ms;
}

// Reads the remap timings whose events have completed (all of them, and
// waiting for them, when wait is set). Never called on the hit path.
void resolve_timings(SiteStats &s, bool wait) {
  auto it = s.pending.begin();
  while (it != s.pending.end()) {
    const cudaError_t q = event_done(it->second, wait);
    if (q == cudaErrorNotReady) {
      ++it;
      continue;
    }
    bool ok = q == cudaSuccess;
    const float ms = ok ? elapsed_ms(it->first, it->second, &ok) : 0;
    if (ok) {
      s.remap_ms += ms;
      ++s.remaps_timed;
    }
    cudaEventDestroy(it->first);
    cudaEventDestroy(it->second);
    it = s.pending.erase(it);
  }
  cudaGetLastError();
}

std::string stats_text(State &st) {
  resolve_all_timings(st);
  return format_stats(st.stats) + format_invalidations(st.invalidations);
}

void resolve_all_timings(State &st) {
  for (auto &kv : st.stats) {
    resolve_timings(kv.second, true);
    resolve_pipeline_timings(kv.second, true);
  }
  resolve_launch_timings(st, true);
}

namespace {

void print_stats_at_exit() {
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  const std::string report = stats_text(st);
  std::fputs(report.c_str(), stderr);
}

// Records a call that cannot even form a key (no arrays, no index array).
void no_arrays(const SiteInfo &site, const char *why) {
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  ensure_loaded(st);
  record_fallback(site_stats(st, site), why);
}

// What a prepare call names, before it is a CacheKey: the hit path compares it
// with the entry the site used last without building a key.
struct KeyArgs {
  int pattern = kPatternRange;
  const void *B = nullptr;
  int b_kind = 0;
  const void *C = nullptr;
  int c_kind = 0;
  long long n = 0;
  int count = 0;
  const void *const *sources = nullptr;
  const size_t *sizes = nullptr;
  long long params[5] = {}; // neighbours: stride_j, stride_t, m (sharing: the block size, 1 in the locality order)
  int nparams = 0;
  // A copy split into field pieces (prepare_*_fields): always ELL.
  const FieldPiece *pieces = nullptr;
  int piece_count = 0;
};

bool same_call(const CacheKey &k, const KeyArgs &a, int device, int layout) {
  if (k.device != device || k.pattern != a.pattern || k.B != a.B || k.b_kind != a.b_kind ||
      k.C != a.C || k.c_kind != a.c_kind || k.n != a.n || k.layout != layout ||
      k.sources.size() != static_cast<std::size_t>(a.count) ||
      k.params.size() != static_cast<std::size_t>(a.nparams))
    return false;
  for (int i = 0; i < a.nparams; ++i)
    if (k.params[i] != a.params[i])
      return false;
  for (int i = 0; i < a.count; ++i)
    if (k.sources[i] != a.sources[i] || k.elem_sizes[i] != a.sizes[i])
      return false;
  return same_fields(k.fields, a.pieces, a.piece_count);
}

CacheKey make_key(const SiteInfo &site, const KeyArgs &a, int device, int layout) {
  CacheKey key;
  key.device = device;
  key.site = site.id ? site.id : "?";
  key.pattern = a.pattern;
  key.B = a.B;
  key.b_kind = a.b_kind;
  key.C = a.C;
  key.c_kind = a.c_kind;
  key.n = a.n;
  key.sources.assign(a.sources, a.sources + a.count);
  key.elem_sizes.assign(a.sizes, a.sizes + a.count);
  key.params.assign(a.params, a.params + a.nparams);
  key.fields = field_key(a.pieces, a.piece_count);
  key.layout = layout;
  return key;
}

// The common path of every prepare_*. A launch whose site used the same,
// valid entry last time is a hit found without building or hashing a key.
// On a miss or a refresh, build(st, ss, entry, dev, request, &built) makes the
// entry's shape and returns its copy in built (or why it cannot); the copy is
// then enqueued, or handed to the launch.
template <class Build>
bool prepare(const SiteInfo &site, KeyArgs args, View *view, const void **remapped,
             cudaStream_t stream, Build build) {
  int dev = 0;
  const cudaError_t err = cudaGetDevice(&dev);
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  SiteRecord *opened = open_prepare(st, site, err, dev);
  if (!opened)
    return false;
  SiteRecord &rec = *opened;
  SiteStats &ss = *rec.stats;
  Launch *launch = this_thread_launch(st);
  LayoutRequest request = layout_request(st.cfg, args.pattern, site, launch_shape(launch), args.n);
  if (args.piece_count > 0) { // the pieces' kernel reads them at ELL slots, in thread order
    request.key = kLayoutEllColMajor;
    request.may_permute = false;
    request.share_block = 0;
  }
  const int layout = request.key;
  if (layout == kLayoutSharing) { // a copy for blocks of this size only, in the locality order or not
    args.params[args.nparams++] = request.share_block;
    args.params[args.nparams++] = request.share_in_order ? 1 : 0;
  }
  Entry *recent = rec.recent[layout_slot(layout)];
  // An entry whose threads are permuted (SELL-32-sigma, the locality order)
  // serves only launches that may permute.
  auto usable = [&](const Entry &e) {
    return request.may_permute ||
           (e.layout != kLayoutSell32Sigma && e.layout != kLayoutLocality && !(e.layout == kLayoutSharing && e.perm));
  };
  auto hit = [&](Entry &e) { return serve_hit(st, site, rec, launch, dev, e, view, remapped, stream); };
  if (!st.cfg.disabled && st.cfg.layout != kLayoutChoiceNone && recent && servable(*recent) &&
      usable(*recent) && same_call(recent->key, args, dev, layout))
    return hit(*recent);

  ss.pattern = pattern_name(args.pattern); // the entry point called names the pattern
  if (const char *no = declined(st.cfg)) {
    record_fallback(ss, no);
    return false;
  }
  if (args.n <= 0 || !args.B) {
    record_fallback(ss, "no threads or no index array");
    return false;
  }
  for (int i = 0; i < args.count; ++i)
    if (!args.sources[i]) {
      record_fallback(ss, "null source array");
      return false;
    }
  CacheKey key = make_key(site, args, dev, layout);
  Entry *e = nullptr;
  Cache::Lookup found = st.cache.lookup(key, &e);
  if (found != Cache::kMiss && !usable(*e)) {
    record_fallback(ss, "the copy's threads are permuted, and this launch has fewer threads than rows");
    return false;
  }
  if (found == Cache::kHit && servable(*e))
    return hit(*e);
  e = &entry_to_build(st, ss, key, e);
  NvtxRange range;
  range.start(st.cfg.nvtx, found == Cache::kMiss ? Work::kRemap : Work::kRefresh, site.id, site.kernel,
              layout == kLayoutKeyAuto ? std::string("auto") : layout_name(layout));
  Built built;
  std::string why = build(st, ss, *e, dev, request, &built);
  propose_layouts(launch, built.proposed, built.proposals);
  if (why.empty())
    why = start_copy(launch, std::move(built.copy), stream);
  range.end();
  if (!why.empty())
    return build_failed(st, ss, key, why);
  return serve_built(st, site, rec, launch, dev, *e, view, remapped, stream);
}

KeyArgs key_args(int pattern, const void *B, int b_kind, const void *C, int c_kind, long long n,
                 int count, const void *const *sources, const size_t *sizes) {
  KeyArgs a;
  a.pattern = pattern;
  a.B = B;
  a.b_kind = b_kind;
  a.C = C;
  a.c_kind = c_kind;
  a.n = n;
  a.count = count;
  a.sources = sources;
  a.sizes = sizes;
  return a;
}

} // namespace
} // namespace detail

bool prepare_range(const SiteInfo &site, const void *B, IndexKind b_kind, long long n, int count,
                   const void *const *arrays, const size_t *elem_sizes, View *view,
                   const void **remapped, cudaStream_t stream) {
  using namespace detail;
  if (count <= 0 || !arrays || !elem_sizes) {
    no_arrays(site, "no arrays to remap");
    return false;
  }
  const KeyArgs args = key_args(kPatternRange, B, b_kind, nullptr, 0, n, count, arrays, elem_sizes);
  return prepare(site, args, view, remapped, stream,
                 [&](State &st, SiteStats &ss, Entry &e, int dev, const LayoutRequest &r, Built *built) {
                   return build_range(st, ss, site, e, dev, r, B, b_kind, n, count, arrays,
                                      elem_sizes, stream, built);
                 });
}

bool prepare_renumbered(const SiteInfo &site, int which, const void *gathered, size_t elem_size,
                        const void **renumbered, cudaStream_t stream) {
  using namespace detail;
  *renumbered = gathered;
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  SiteRecord &rec = site_record(st, site, dev);
  Entry *e = rec.last; // the entry this launch's prepare_range served
  if (!e || !e->renumbered || e->layout != kLayoutLocality)
    return true;
  SiteStats &ss = *rec.stats;
  if (which < 0 || which >= Entry::kMaxRenumberedArrays) {
    record_fallback(ss, "renumbered array out of range");
    return false;
  }
  const std::size_t slot = static_cast<std::size_t>(which);
  if (e->renumbered_copies.size() <= slot) {
    e->renumbered_copies.resize(slot + 1, nullptr);
    e->renumbered_copy_bytes.resize(slot + 1, 0);
  }
  void *&copy = e->renumbered_copies[slot];
  std::size_t &have = e->renumbered_copy_bytes[slot];
  std::size_t bytes = 0;
  std::string why = copy_bytes(static_cast<unsigned long long>(e->key.n), elem_size, &bytes);
  if (why.empty() && !gathered)
    why = "null source array";
  if (why.empty() && bytes > have && !Cache::fits(st.cache.total_bytes(), have, bytes, st.cfg.max_bytes))
    why = "over IRREGFIX_MAX_BYTES";
  if (why.empty())
    why = ensure_buffer(st, site, &copy, &have, bytes);
  if (why.empty() && !e->renumbered_read &&
      cudaEventCreateWithFlags(&e->renumbered_read, cudaEventDisableTiming) != cudaSuccess) {
    e->renumbered_read = nullptr;
    why = cuda_failure("cudaEventCreateWithFlags", site, cudaGetLastError());
  }
  // The copy a launch on another stream may still read is overwritten only
  // after it (an event never recorded waits for nothing).
  cudaError_t c = cudaSuccess;
  if (why.empty() && (c = cudaStreamWaitEvent(stream, e->renumbered_read, 0)) == cudaSuccess)
    c = gather_in_order(static_cast<const int *>(e->perm), e->key.n, e->renumber_lo, e->renumber_hi, gathered,
                        elem_size, copy, stream);
  if (why.empty() && c != cudaSuccess)
    why = cuda_failure("gather_in_order", site, c);
  if (!why.empty()) {
    record_fallback(ss, why);
    return false;
  }
  if (Launch *l = this_thread_launch(st);
      l && std::find(l->renumbered.begin(), l->renumbered.end(), e) == l->renumbered.end())
    l->renumbered.push_back(e);
  *renumbered = copy;
  return true;
}

bool prepare_gather(const SiteInfo &site, const void *B, IndexKind b_kind, long long n,
                    const void *A, size_t elem_size, View *view, const void **remapped,
                    cudaStream_t stream) {
  using namespace detail;
  const KeyArgs args = key_args(kPatternGather, B, b_kind, nullptr, 0, n, 1, &A, &elem_size);
  return prepare(site, args, view, remapped, stream,
                 [&](State &st, SiteStats &ss, Entry &e, int, const LayoutRequest &, Built *built) {
                   return build_gather(st, ss, site, e, B, b_kind, n, A, elem_size, built);
                 });
}

bool prepare_order(const SiteInfo &site, View *view, cudaStream_t stream) {
  using namespace detail;
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) {
    cudaGetLastError();
    no_arrays(site, "no CUDA device");
    return false;
  }
  const void *perm = nullptr;
  long long n = 0, computed = 0;
  {
    State &st = state();
    std::lock_guard<std::mutex> lock(st.mu);
    ensure_loaded(st);
    if (const std::string why = pick_order(st, dev, launch_shape(this_thread_launch(st)), &perm, &n, &computed);
        !why.empty()) {
      record_fallback(site_stats(st, site), why);
      return false;
    }
  }
  // Keyed by the order's buffer and its computation: a recomputed order is another copy.
  KeyArgs args = key_args(kPatternOrder, perm, 0, nullptr, 0, n, 0, nullptr, nullptr);
  args.params[0] = computed;
  args.nparams = 1;
  const void *none[1] = {nullptr};
  return prepare(site, args, view, none, stream,
                 [&](State &st, SiteStats &ss, Entry &e, int, const LayoutRequest &, Built *built) {
                   return build_order(st, ss, site, e, perm, n, built);
                 });
}

bool prepare_range2(const SiteInfo &site, const void *B, IndexKind b_kind, const void *C,
                    IndexKind c_kind, long long n, int count, const void *const *arrays,
                    const size_t *elem_sizes, View *view, const void **remapped,
                    cudaStream_t stream) {
  using namespace detail;
  if (count <= 0 || !arrays || !elem_sizes) {
    no_arrays(site, "no arrays to remap");
    return false;
  }
  if (!C && n > 0) {
    no_arrays(site, "no threads or no index array");
    return false;
  }
  const KeyArgs args = key_args(kPatternRange2, B, b_kind, C, c_kind, n, count, arrays, elem_sizes);
  return prepare(site, args, view, remapped, stream,
                 [&](State &st, SiteStats &ss, Entry &e, int dev, const LayoutRequest &, Built *built) {
                   return build_range2(st, ss, site, e, dev, B, b_kind, C, c_kind, n, count,
                                       arrays, elem_sizes, stream, built);
                 });
}

bool prepare_gather2(const SiteInfo &site, const void *B, IndexKind b_kind, const void *C,
                     IndexKind c_kind, long long n, const void *A, size_t elem_size, View *view,
                     const void **remapped, cudaStream_t stream) {
  using namespace detail;
  if (!C && n > 0) {
    no_arrays(site, "no threads or no index array");
    return false;
  }
  const KeyArgs args = key_args(kPatternGather2, B, b_kind, C, c_kind, n, 1, &A, &elem_size);
  return prepare(site, args, view, remapped, stream,
                 [&](State &st, SiteStats &ss, Entry &e, int dev, const LayoutRequest &, Built *built) {
                   return build_gather2(st, ss, site, e, dev, B, b_kind, C, c_kind, n, A,
                                        elem_size, stream, built);
                 });
}

bool prepare_neighbors(const SiteInfo &site, const void *NB, IndexKind nb_kind,
                       long long stride_j, long long stride_t, long long m, const void *counts,
                       IndexKind counts_kind, long long n, const void *A, size_t elem_size,
                       View *view, const void **remapped, cudaStream_t stream) {
  using namespace detail;
  KeyArgs args = key_args(kPatternNeighbors, NB, nb_kind, counts, counts ? counts_kind : 0, n, 1,
                          &A, &elem_size);
  args.params[0] = stride_j;
  args.params[1] = stride_t;
  args.params[2] = m;
  args.nparams = 3;
  const NeighborArgs nargs{NB, nb_kind, stride_j, stride_t, m, counts, counts_kind};
  return prepare(site, args, view, remapped, stream,
                 [&](State &st, SiteStats &ss, Entry &e, int dev, const LayoutRequest &r, Built *built) {
                   if (e.layout == kLayoutSharing)
                     return build_sharing(st, ss, site, e, dev, nargs, n, A, elem_size, stream, built);
                   if (e.layout == kLayoutLocality)
                     return build_locality_neighbors(st, ss, site, e, dev, nargs, n, A, elem_size, stream, built);
                   return build_neighbors(st, ss, site, e, dev, nargs, n, A, elem_size, r, stream, built);
                 });
}

bool prepare_gather_fields(const SiteInfo &site, const void *B, IndexKind b_kind, long long n,
                           const void *A, size_t elem_size, int piece_count,
                           const FieldPiece *pieces, View *view, const void **remapped,
                           cudaStream_t stream) {
  using namespace detail;
  KeyArgs args = key_args(kPatternGather, B, b_kind, nullptr, 0, n, 1, &A, &elem_size);
  args.pieces = pieces;
  args.piece_count = piece_count;
  return prepare(site, args, view, remapped, stream,
                 [&](State &st, SiteStats &ss, Entry &e, int, const LayoutRequest &, Built *built) {
                   FieldPlan plan;
                   if (std::string why = make_field_plan(pieces, piece_count, elem_size, &plan); !why.empty())
                     return why;
                   return build_gather_fields(st, ss, site, e, B, b_kind, n, A, elem_size, plan, built);
                 });
}

bool prepare_neighbors_fields(const SiteInfo &site, const void *NB, IndexKind nb_kind,
                              long long stride_j, long long stride_t, long long m,
                              const void *counts, IndexKind counts_kind, long long n,
                              const void *A, size_t elem_size, int piece_count,
                              const FieldPiece *pieces, View *view, const void **remapped,
                              cudaStream_t stream) {
  using namespace detail;
  KeyArgs args = key_args(kPatternNeighbors, NB, nb_kind, counts, counts ? counts_kind : 0, n, 1,
                          &A, &elem_size);
  args.params[0] = stride_j;
  args.params[1] = stride_t;
  args.params[2] = m;
  args.nparams = 3;
  args.pieces = pieces;
  args.piece_count = piece_count;
  const NeighborArgs nargs{NB, nb_kind, stride_j, stride_t, m, counts, counts_kind};
  return prepare(site, args, view, remapped, stream,
                 [&](State &st, SiteStats &ss, Entry &e, int dev, const LayoutRequest &, Built *built) {
                   FieldPlan plan;
                   if (std::string why = make_field_plan(pieces, piece_count, elem_size, &plan); !why.empty())
                     return why;
                   return build_neighbors_fields(st, ss, site, e, dev, nargs, n, A, elem_size, plan, stream,
                                                 built);
                 });
}

void note_fallback(const SiteInfo &site, const char *why) {
  using namespace detail;
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  ensure_loaded(st);
  record_fallback(site_stats(st, site), why ? why : "unspecified");
}

} // namespace irregfix
