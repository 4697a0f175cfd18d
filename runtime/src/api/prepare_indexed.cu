// irregfix runtime: the API of indexed copies (prepare_indexed,
// continue_indexed; see irregfix.cuh). A build spans several API calls, with
// the launcher's kernels in between and the lock released: this host thread's
// build in progress is kept in its launch (Launch::indexed), and its entry
// marked as being built (IndexedPayload::builder) so that no other thread
// touches it.
// Whatever fails drops the entry: nothing is left half-built, and the
// launcher runs the original kernel. The steps themselves are the indexed
// builder's (indexed_build.h).
#include <irregfix/irregfix.cuh>

#include "indexed_build.h"
#include "launch.h"
#include "prepare.h"
#include "state.h"

#include <cstdio>
#include <mutex>
#include <string>

namespace irregfix {
namespace detail {
namespace {

unsigned long long last_token = 0; // guarded by State::mu

bool in_progress(const State &st, const IndexedProgress &p) { return p.token != 0 && p.epoch == st.epoch; }

// The entry of this thread's build, if it still exists and is still its own.
Entry *own_entry(State &st, const IndexedProgress &p) {
  Entry *e = nullptr;
  if (!in_progress(st, p) || st.cache.lookup(p.key, &e) == Cache::kMiss || indexed_builder(*e) != p.token)
    return nullptr;
  return e;
}

void end_progress(IndexedProgress &p) {
  if (p.token == 0 && !p.t0 && !p.t1) // none: nothing to reset (the hit path)
    return;
  for (cudaEvent_t *ev : {&p.t0, &p.t1})
    if (*ev && cudaEventDestroy(*ev) != cudaSuccess)
      cudaGetLastError(); // ours: not for the program's own checks
  p = IndexedProgress{};
}

// This thread's build that its launcher left unfinished (a launcher that
// stopped calling continue_indexed): its entry goes.
void abandon_progress(State &st, IndexedProgress &p) {
  if (own_entry(st, p))
    drop_entry(st, CacheKey(p.key));
  end_progress(p);
}

// A step failed: the entry is dropped, the reason recorded.
bool fail(State &st, IndexedProgress &p, SiteStats &ss, const std::string &why) {
  const bool own = own_entry(st, p) != nullptr;
  const CacheKey key = p.key;
  end_progress(p);
  if (own)
    return build_failed(st, ss, key, why);
  record_fallback(ss, why);
  return false;
}

// The copies are gathered: the entry is valid and serves this launch, its
// build timed as a remap. A write reported while the launcher computed (by
// another host thread) may have come after what the copy read: the copy
// serves this launch, whose order with that write is the program's, but not
// the next.
bool ready(State &st, IndexedProgress &p, SiteRecord &rec, const SiteInfo &site, Entry &e, Launch *launch, int dev,
           IndexedWork *work, View *view, const void **remapped, cudaStream_t stream) {
  SiteStats &ss = *rec.stats;
  if (const std::string why = gather_indexed(ss, site, e, stream); !why.empty())
    return fail(st, p, ss, why);
  stop_timing(ss, stream, p.t0, p.t1);
  p.t0 = p.t1 = nullptr;
  const bool written = e.writes != p.writes;
  payload<IndexedPayload>(e).builder = 0;
  end_progress(p);
  work->step = kIndexedReady;
  if (!serve_built(st, site, rec, launch, dev, e, view, remapped, stream))
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
  Launch *launch = this_thread_launch(st);
  IndexedProgress &progress = thread_launch().indexed;
  abandon_progress(st, progress);
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
  if (found && indexed_builder(*found) != 0) {
    record_fallback(ss, "another host thread is building this indexed copy");
    return false;
  }
  if (declines_without_cached_copy(launch, ss))
    return false;
  Entry *to_build = entry_to_build(st, site, ss, key, found);
  if (!to_build)
    return false;
  Entry &e = *to_build;
  progress.epoch = st.epoch;
  progress.site = &site;
  progress.dev = dev;
  progress.key = key;
  progress.token = payload<IndexedPayload>(e).builder = ++last_token;
  progress.request = request.key;
  progress.report_padding = request.report_padding;
  progress.writes = e.writes;
  start_timing(stream, &progress.t0, &progress.t1);

  const IndexedStep first = indexed_first_step(e, s.loop != 0);
  if (first == kIndexedReady) // only data arrays were written: the kept indices hold
    return ready(st, progress, rec, site, e, launch, dev, work, view, remapped, stream);
  why = shape_sources(s, &e.sources);
  e.index_sources = s.index_count;
  e.shape_valid = false;
  BuildContext cx = st.build_context();
  if (why.empty() && first == kIndexedLengths)
    why = ask_lengths(cx, site, e, s.n, work);
  else if (why.empty()) // a gather: one slot a thread
    why = shape_indices(cx, site, e, indexed_layout(request.key, false, LayoutCells{}), 1, s.n,
                        static_cast<unsigned long long>(s.n), stream, work);
  if (!why.empty()) {
    *work = IndexedWork{};
    return fail(st, progress, ss, why);
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
  Launch *launch = this_thread_launch(st);
  IndexedProgress &progress = thread_launch().indexed;
  if (!in_progress(st, progress) || progress.site != &site || !work || work->step != progress.step) {
    abandon_progress(st, progress);
    record_fallback(site_stats(st, site), "continue_indexed without that step of a build in progress");
    return false;
  }
  SiteRecord &rec = site_record(st, site, progress.dev);
  SiteStats &ss = *rec.stats;
  const int step = progress.step;
  *work = IndexedWork{};
  if (err != cudaSuccess || dev != progress.dev)
    return fail(st, progress, ss,
                err != cudaSuccess ? cuda_failure("cudaGetDevice", site, err)
                                   : "the device changed during an indexed build");
  if (launched != cudaSuccess) {
    std::fprintf(stderr, "irregfix: the launcher's %s kernel failed at %s: %s\n",
                 step == kIndexedLengths ? "lengths" : "indices", site.id ? site.id : "?",
                 cudaGetErrorString(launched));
    return fail(st, progress, ss, std::string("the launcher's kernel failed: ") + cudaGetErrorString(launched));
  }
  Entry *e = own_entry(st, progress);
  if (!e) {
    end_progress(progress);
    record_fallback(ss, "the indexed copy was dropped during its build");
    return false;
  }
  // After the lengths, the indices next (no slot at all: none to compute).
  BuildContext cx = st.build_context();
  std::string why = step == kIndexedLengths ? after_lengths(cx, ss, site, *e, dev, progress.request,
                                                            progress.report_padding, stream, work)
                                            : "";
  if (why.empty() && work->step == kIndexedReady)
    why = after_indices(cx, ss, site, *e, dev, stream);
  if (!why.empty()) {
    *work = IndexedWork{};
    return fail(st, progress, ss, why);
  }
  if (work->step != kIndexedReady) {
    progress.step = work->step;
    return true;
  }
  return ready(st, progress, rec, site, *e, launch, dev, work, view, remapped, stream);
}

} // namespace irregfix
