// irregfix runtime: the API of sites read through copies (irregfix.cuh): the
// prepare_* entry points over the cache of remapped copies. A prepare takes
// the launch open on its thread (launch.h) once, asks the layout policy for a
// layout request, looks the copy up, and on a miss or a refresh has a builder
// (padded.h, sharing.h, locality.h) make it, then applies what the builder
// returned: its copy enqueued or handed to the launch, its proposals and
// one-time work to the launch's selector. The alias checks are in alias.cu,
// the invalidation entry points in invalidation.cu.
#include <irregfix/irregfix.cuh>

#include "lanes.h"
#include "launch.h"
#include "layout_policy.h"
#include "locality.h"
#include "nvtx.h"
#include "padded.h"
#include "prepare.h"
#include "sharing.h"
#include "state.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <string>

namespace irregfix {
namespace detail {
namespace {

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
// On a miss or a refresh, build(cx, orders, ss, entry, dev, request, &built)
// makes the entry's shape and returns its copy in built (or why it cannot);
// the copy is then enqueued, or handed to the launch, and the rest of what the
// builder returned applied to the launch (note_build).
template <class Build>
bool prepare(const SiteInfo &site, KeyArgs args, View *view, const void **remapped,
             cudaStream_t stream, Build build) {
  int dev = 0;
  const cudaError_t err = cudaGetDevice(&dev);
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  Launch *launch = this_thread_launch(st);
  SiteRecord *opened = open_prepare(st, site, err, dev);
  if (!opened)
    return false;
  SiteRecord &rec = *opened;
  SiteStats &ss = *rec.stats;
  LayoutRequest request =
      layout_request(st.cfg, args.pattern, site, launch_shape(launch), args.n, args.piece_count > 0);
  const int layout = request.key;
  args.nparams += layout_key_params(request, args.params + args.nparams);
  Entry *recent = rec.recent[layout_slot(layout)];
  auto usable = [&](const Entry &e) { return serves_request(e, request); };
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
    record_fallback(ss, unserved_because(*e));
    return false;
  }
  if (found == Cache::kHit && servable(*e))
    return hit(*e);
  if (declines_without_cached_copy(launch, ss))
    return false;
  if (!(e = entry_to_build(st, site, ss, key, e)))
    return false;
  NvtxRange range;
  range.start(st.cfg.nvtx, found == Cache::kMiss ? Work::kRemap : Work::kRefresh, site.id, site.kernel,
              key_layout_name(layout));
  BuildContext cx = st.build_context();
  // What the range model weighs besides the rows (range_model.h).
  for (int i = 0; i < args.count; ++i)
    request.element_bytes += args.sizes[i];
  if (device_resident_threads(st.devices, dev, &request.resident_threads) != cudaSuccess)
    cudaGetLastError(); // unknown: the model assumes one wave
  if (args.pattern == kPatternNeighbors)
    request.numbered_sectors = declined_graph_sectors(st.domain, args.B);
  Built built;
  std::string why = build(cx, st.orders, ss, *e, dev, request, &built);
  note_build(launch, built);
  if (why.empty())
    why = start_copy(launch, std::move(built.copy), stream);
  range.end();
  if (!why.empty())
    return build_failed(st, ss, key, why);
  return serve_built(st, site, rec, launch, dev, *e, view, remapped, stream);
}

// A range entry under auto: before anything is counted or copied, the range
// model predicts from the rows and their non-zeros (B[0], B[n]) whether a
// padded copy may pay and whether the lanes layout is proposed; the padded
// builder then counts the lengths, makes the favourite and proposes the rest
// (the lanes layout among them), or the entry is a lanes one, or nothing is
// worth timing and the launch's selector settles on the original. An entry
// whose shape holds (only its data arrays were written) is refreshed as it is.
std::string build_auto_range(BuildContext &cx, Orders &orders, SiteStats &ss, const SiteInfo &site, Entry &e,
                             int dev, const LayoutRequest &r, const void *B, int b_kind, long long n, int count,
                             const void *const *arrays, const size_t *elem_sizes, cudaStream_t stream,
                             Built *built) {
  if (e.shape_valid && layout_has(e.layout, kViewLanes))
    return build_lanes_range(ss, site, e, r, B, b_kind, n, count, arrays, elem_sizes, nullptr, stream, built);
  if (!e.shape_valid) {
    RowExtent x;
    if (std::string why = read_row_extent(site, B, b_kind, n, stream, &x); !why.empty())
      return why;
    const RangePrecheck p = range_precheck(r, n, x.nnz());
    if (!p.padded && p.lanes)
      return build_lanes_range(ss, site, e, r, B, b_kind, n, count, arrays, elem_sizes, &x, stream, built);
    if (!p.padded) {
      built->ruled_out = p.why;
      return p.why;
    }
    if (p.put_off_ms > 0) {
      built->put_off_ms = p.put_off_ms;
      built->put_off_why = p.why;
      return p.why;
    }
  }
  return build_range(cx, orders, ss, site, e, dev, r, B, b_kind, n, count, arrays, elem_sizes, stream, built);
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

// A neighbour-list site's call: its list and counts as the index arrays, its
// strides and columns as the key's parameters.
KeyArgs neighbor_key_args(const void *NB, int nb_kind, long long stride_j, long long stride_t, long long m,
                          const void *counts, int counts_kind, long long n, const void *const *A,
                          const size_t *elem_size) {
  KeyArgs args =
      key_args(kPatternNeighbors, NB, nb_kind, counts, counts ? counts_kind : 0, n, 1, A, elem_size);
  args.params[0] = stride_j;
  args.params[1] = stride_t;
  args.params[2] = m;
  args.nparams = 3;
  return args;
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
                 [&](BuildContext &cx, Orders &orders, SiteStats &ss, Entry &e, int dev, const LayoutRequest &r,
                     Built *built) {
                   if (r.key == kLayoutLocality)
                     return build_locality_range(cx, orders, ss, site, e, dev, r, B, b_kind, n, count, arrays,
                                                 elem_sizes, stream, built);
                   if (r.key == kLayoutLanes)
                     return build_lanes_range(ss, site, e, r, B, b_kind, n, count, arrays, elem_sizes, nullptr,
                                              stream, built);
                   if (r.key == kLayoutKeyAuto)
                     return build_auto_range(cx, orders, ss, site, e, dev, r, B, b_kind, n, count, arrays,
                                             elem_sizes, stream, built);
                   return build_range(cx, orders, ss, site, e, dev, r, B, b_kind, n, count, arrays, elem_sizes,
                                      stream, built);
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
  Launch *launch = this_thread_launch(st);
  SiteRecord &rec = site_record(st, site, dev);
  Entry *e = rec.last; // the entry this launch's prepare_range served
  if (!e || !renumbers(*e))
    return true;
  BuildContext cx = st.build_context();
  const void *copy = nullptr;
  if (const std::string why = renumbered_copy(cx, site, *e, which, gathered, elem_size, stream, &copy);
      !why.empty()) {
    record_fallback(*rec.stats, why);
    return false;
  }
  if (launch && std::find(launch->renumbered.begin(), launch->renumbered.end(), e) == launch->renumbered.end())
    launch->renumbered.push_back(e);
  *renumbered = copy;
  return true;
}

bool prepare_gather(const SiteInfo &site, const void *B, IndexKind b_kind, long long n,
                    const void *A, size_t elem_size, View *view, const void **remapped,
                    cudaStream_t stream) {
  using namespace detail;
  const KeyArgs args = key_args(kPatternGather, B, b_kind, nullptr, 0, n, 1, &A, &elem_size);
  return prepare(site, args, view, remapped, stream,
                 [&](BuildContext &cx, Orders &, SiteStats &ss, Entry &e, int, const LayoutRequest &, Built *built) {
                   return build_gather(cx, ss, site, e, B, b_kind, n, A, elem_size, built);
                 });
}

namespace detail {
namespace {
// No order to run in yet (nothing over as many threads computed one): asking
// again at every launch costs a timed launch and the selector's lock each
// time. Under a warm-up, the launcher warms up again until its launches have
// taken twice what they had: asked again after 2, 4, 8... times the launches.
void put_off_order(Launch *l, const std::string &why) {
  const double spent = l && l->selected && l->record ? l->record->selector.warmed_ms() : -1;
  if (spent <= 0)
    return;
  char line[96];
  std::snprintf(line, sizeof line, "; asked again once the launches have taken %.0f ms", 2 * spent);
  put_off_profiling(l, 2 * spent, why + line);
}
} // namespace
} // namespace detail

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
    Launch *launch = this_thread_launch(st);
    if (const std::string why = pick_order(st.cfg, st.orders, dev, launch_shape(launch), &perm, &n, &computed);
        !why.empty()) {
      record_fallback(site_stats(st, site), why);
      put_off_order(launch, why);
      return false;
    }
  }
  // Keyed by the order's buffer and its computation: a recomputed order is another copy.
  KeyArgs args = key_args(kPatternOrder, perm, 0, nullptr, 0, n, 0, nullptr, nullptr);
  args.params[0] = computed;
  args.nparams = 1;
  const void *none[1] = {nullptr};
  return prepare(site, args, view, none, stream,
                 [&](BuildContext &cx, Orders &orders, SiteStats &ss, Entry &e, int, const LayoutRequest &,
                     Built *built) {
                   return build_order(cx, orders, ss, site, e, perm, n, built);
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
                 [&](BuildContext &cx, Orders &, SiteStats &ss, Entry &e, int dev, const LayoutRequest &,
                     Built *built) {
                   return build_range2(cx, ss, site, e, dev, B, b_kind, C, c_kind, n, count,
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
                 [&](BuildContext &cx, Orders &, SiteStats &ss, Entry &e, int dev, const LayoutRequest &,
                     Built *built) {
                   return build_gather2(cx, ss, site, e, dev, B, b_kind, C, c_kind, n, A,
                                        elem_size, stream, built);
                 });
}

bool prepare_neighbors(const SiteInfo &site, const void *NB, IndexKind nb_kind,
                       long long stride_j, long long stride_t, long long m, const void *counts,
                       IndexKind counts_kind, long long n, const void *A, size_t elem_size,
                       View *view, const void **remapped, cudaStream_t stream) {
  using namespace detail;
  KeyArgs args = neighbor_key_args(NB, nb_kind, stride_j, stride_t, m, counts, counts_kind, n, &A, &elem_size);
  const NeighborArgs nargs{NB, nb_kind, stride_j, stride_t, m, counts, counts_kind};
  return prepare(site, args, view, remapped, stream,
                 [&](BuildContext &cx, Orders &orders, SiteStats &ss, Entry &e, int dev, const LayoutRequest &r,
                     Built *built) {
                   if (e.layout == kLayoutSharing)
                     return build_sharing(cx, orders, ss, site, e, dev, nargs, n, A, elem_size, stream, built);
                   if (e.layout == kLayoutLocality)
                     return build_locality_neighbors(cx, orders, ss, site, e, dev, nargs, n, A, elem_size, stream,
                                                     built);
                   return build_neighbors(cx, orders, ss, site, e, dev, nargs, n, A, elem_size, r, stream, built);
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
                 [&](BuildContext &cx, Orders &, SiteStats &ss, Entry &e, int, const LayoutRequest &, Built *built) {
                   FieldPlan plan;
                   if (std::string why = make_field_plan(pieces, piece_count, elem_size, &plan); !why.empty())
                     return why;
                   return build_gather_fields(cx, ss, site, e, B, b_kind, n, A, elem_size, plan, built);
                 });
}

bool prepare_neighbors_fields(const SiteInfo &site, const void *NB, IndexKind nb_kind,
                              long long stride_j, long long stride_t, long long m,
                              const void *counts, IndexKind counts_kind, long long n,
                              const void *A, size_t elem_size, int piece_count,
                              const FieldPiece *pieces, View *view, const void **remapped,
                              cudaStream_t stream) {
  using namespace detail;
  KeyArgs args = neighbor_key_args(NB, nb_kind, stride_j, stride_t, m, counts, counts_kind, n, &A, &elem_size);
  args.pieces = pieces;
  args.piece_count = piece_count;
  const NeighborArgs nargs{NB, nb_kind, stride_j, stride_t, m, counts, counts_kind};
  return prepare(site, args, view, remapped, stream,
                 [&](BuildContext &cx, Orders &, SiteStats &ss, Entry &e, int dev, const LayoutRequest &,
                     Built *built) {
                   FieldPlan plan;
                   if (std::string why = make_field_plan(pieces, piece_count, elem_size, &plan); !why.empty())
                     return why;
                   return build_neighbors_fields(cx, ss, site, e, dev, nargs, n, A, elem_size, plan, stream,
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
