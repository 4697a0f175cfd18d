// irregfix runtime: the launch protocol of generated launchers (begin_launch,
// end_transformed_launch, end_original_launch) and the glue between the
// selector and the GPU: timed launches record events on the launch's stream,
// and later launches read them back with cudaEventQuery, never by waiting.
#include <irregfix/irregfix.cuh>

#include "launch.h"

#include "locality.h"
#include "timing.h"
#include "verify.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

namespace irregfix {
namespace detail {
namespace {

// The launch between begin_launch and end_*_launch on this host thread: the
// one place the runtime keeps a launch per thread (the API's calls carry no
// launch of their own).
thread_local Launch this_thread;

void destroy_events(LaunchSample &s) {
  for (cudaEvent_t *e : {&s.start, &s.mid, &s.end})
    if (*e) {
      cudaEventDestroy(*e);
      *e = nullptr;
    }
  cudaGetLastError();
}

// Creates the sample's events and records start on the stream.
bool start_sample(LaunchSample &s, Selector::Run run, int candidate, cudaStream_t stream) {
  s = LaunchSample{};
  s.run = run;
  s.candidate = candidate;
  if (cudaEventCreate(&s.start) == cudaSuccess && cudaEventCreate(&s.mid) == cudaSuccess &&
      cudaEventCreate(&s.end) == cudaSuccess && cudaEventRecord(s.start, stream) == cudaSuccess)
    return true;
  destroy_events(s);
  return false;
}

// A launch left open (prepare_* called outside a launcher, or an earlier
// launcher that never reached its end call) gives its timing up.
void abandon(Launch &c, const State &st) {
  if (c.epoch == st.epoch && c.sample.start && c.selected)
    c.record->selector.cancel(c.run, c.candidate);
  destroy_events(c.sample);
  abandon_pipeline(c.pipeline);
  // Keep the vectors' storage: no allocation a launch. The thread's indexed
  // build in progress is not the launch's to end.
  std::vector<SiteRecord *> sites = std::move(c.sites);
  sites.clear();
  std::vector<DeferredCopy> copies = std::move(c.pipeline.copies);
  IndexedProgress indexed = std::move(c.indexed);
  c = Launch{};
  c.sites = std::move(sites);
  c.pipeline.copies = std::move(copies);
  c.indexed = std::move(indexed);
}

// After the kernel that actually ran (`ran`): queue the sample for reading
// back, or give it up when it no longer times what the selector asked.
void finish(Launch &c, const State &st, Selector::Run ran, bool ok, cudaStream_t stream) {
  // A candidate layout that fell back (its copy could not be built, or did
  // not fit IRREGFIX_MAX_BYTES beside the others) is not asked again.
  if (c.epoch == st.epoch && c.selected && c.run == Selector::kRunTransformed &&
      ran == Selector::kRunOriginal && !c.only_if_cached)
    c.record->selector.drop(c.candidate);
  if (c.epoch == st.epoch && c.sample.start && c.selected && c.run == ran && ok &&
      cudaEventRecord(c.sample.end, stream) == cudaSuccess) {
    c.record->pending.push_back(c.sample);
    c.sample = LaunchSample{};
  }
  abandon(c, st);
}

LaunchRecord &launch_record(State &st, const SiteInfo &site, int device) {
  LaunchRecord &r = st.launches[RecordKey(&site, device)];
  if (r.stats && !record_names(r.stats, site)) { // a SiteInfo reused for another site
    for (LaunchSample &s : r.pending)
      destroy_events(s);
    r = LaunchRecord{};
  }
  if (!r.stats)
    r.stats = &site_stats(st, site);
  return r;
}

// Feeds the selector the samples whose events have completed.
void resolve(LaunchRecord &r, bool wait, double original_scale) {
  auto it = r.pending.begin();
  while (it != r.pending.end()) {
    LaunchSample &s = *it;
    const cudaError_t q = event_done(s.end, wait);
    if (q == cudaErrorNotReady) {
      ++it;
      continue;
    }
    bool ok = q == cudaSuccess;
    if (s.run == Selector::kRunOriginal) {
      const float ms = elapsed_ms(s.start, s.end, &ok);
      if (ok)
        r.selector.add_original(ms * original_scale);
    } else if (s.pipelined) {
      // The remap ran beside the kernel: what the launch paid for it is its
      // whole time less the kernel's. Until the kernel has its probes, the
      // whole time counts as a kernel sample: a program whose every launch
      // remaps (pipelined) would never time a kernel alone, and what such a
      // launch costs is its whole time.
      const float total = elapsed_ms(s.start, s.end, &ok) - static_cast<float>(s.setup_ms);
      if (ok && r.selector.transformed_samples(s.candidate) >= Selector::kProbes) {
        r.selector.add_remap(std::max(0.0, total - r.selector.transformed_ms(s.candidate)), s.candidate);
        r.selector.cancel(s.run, s.candidate); // no kernel sample of its own
      } else if (ok) {
        r.selector.add_transformed(total, s.candidate);
      }
    } else {
      const float kernel = elapsed_ms(s.mid, s.end, &ok);
      const float remap = s.built ? elapsed_ms(s.start, s.mid, &ok) - static_cast<float>(s.setup_ms) : 0;
      if (ok) {
        if (s.built)
          r.selector.add_remap(std::max(0.0f, remap), s.candidate);
        r.selector.add_transformed(kernel, s.candidate);
      }
    }
    if (!ok)
      r.selector.cancel(s.run, s.candidate);
    destroy_events(s);
    it = r.pending.erase(it);
  }
  cudaGetLastError();
}

// Copies deferred and then enqueued unchunked on the launch's stream ran after
// the sample's mid event (recorded when the prepares returned): move it past
// them, so that the sample's remap and kernel times stay apart.
void copies_flushed(Launch &c, cudaStream_t stream) {
  if (c.sample.mid && cudaEventRecord(c.sample.mid, stream) != cudaSuccess) {
    if (c.selected) // the launch goes untimed
      c.record->selector.cancel(c.run, c.candidate);
    destroy_events(c.sample);
  }
}

// The selector's state into the launcher's stats (the report, testing.h).
void note_selector(const LaunchRecord &r) {
  const Selector &sel = r.selector;
  r.stats->selector = sel.summary(layout_name);
  r.stats->selector_candidates = sel.candidates();
  r.stats->selector_layout = sel.profiling() ? 0 : sel.label(sel.chosen());
}

// IRREGFIX_NVTX: what a timed launch runs, and what the selector settled on.
std::string variant_name(const Selector &sel, Selector::Run run, int candidate) {
  if (run == Selector::kRunOriginal)
    return "original";
  return sel.candidates() > 1 ? layout_name(sel.label(candidate)) : "transformed";
}

std::string decision_text(const Selector &sel, Selector::Run run) {
  return (run == Selector::kRunOriginal ? std::string("original")
                                        : variant_name(sel, run, sel.chosen())) + ": " + sel.why();
}

// Profiling settled on one candidate: the copies of the launcher's sites in
// the other candidates' layouts are not read again, and their memory goes
// (under IRREGFIX_MAX_BYTES, it is what the next copies need). A copy two
// candidates share (a site whose pattern has one layout for both) stays.
void free_losers(State &st, const LaunchRecord &r) {
  const Selector &sel = r.selector;
  for (SiteRecord *s : r.sites) {
    const Entry *kept = s->candidate_copy[sel.chosen()];
    for (int c = 0; c < sel.candidates(); ++c)
      if (Entry *e = s->candidate_copy[c]; c != sel.chosen() && e && e != kept) {
        const CacheKey key = e->key; // drop_entry frees e and forgets it in every record
        drop_entry(st, key);
      }
  }
}

// ---- the fast path of a launcher settled on the original ----------------
// A launcher whose selector settled on the original kernel runs it, until its
// next watched launch, without taking the runtime's lock: begin_launch finds
// its record in a small per-thread table (checked against State::generation,
// which reset and the testing hooks bump), takes one launch from the
// record's budget and returns false; end_original_launch then has nothing to
// do. The lock counts the launches taken later (count_fast_launches).
struct FastSlot {
  const SiteInfo *site = nullptr;
  int device = -1;
  unsigned generation = 0;
  LaunchRecord *record = nullptr;
};
constexpr int kFastSlots = 8;
thread_local FastSlot fast_slots[kFastSlots];
thread_local bool fast_launch_open = false; // begin_launch took the fast path

FastSlot &fast_slot(const SiteInfo *site) {
  return fast_slots[(reinterpret_cast<std::uintptr_t>(site) >> 4) % kFastSlots];
}

// Under the lock, after a decision: open the fast path for the launches until
// the next watched one when the launcher settled on the original.
void open_fast_path(State &st, LaunchRecord &r, const SiteInfo &site, int dev) {
  if (!fast_path_allowed(st.cfg, r.selector)) {
    r.fast.budget.store(0, std::memory_order_relaxed);
    return;
  }
  r.fast.budget.store(r.selector.untimed_launches(), std::memory_order_relaxed);
  fast_slot(&site) = FastSlot{&site, dev, st.generation.load(std::memory_order_relaxed), &r};
}

} // namespace

void count_fast_launches(LaunchRecord &r) {
  const long long taken = r.fast.taken.exchange(0, std::memory_order_relaxed);
  if (taken <= 0)
    return;
  // The launches taken wrote nothing the selector saw: as many of them may
  // have followed a write as its copies counted writes since (all but the one
  // the next decision sees itself).
  unsigned long long writes = 0;
  for (SiteRecord *s : r.sites)
    if (s->last && s->last->writes > s->seen_writes)
      writes = std::max(writes, s->last->writes - s->seen_writes);
  const long long changes = writes > 1 ? static_cast<long long>(std::min<unsigned long long>(writes - 1, taken)) : 0;
  r.selector.skipped(taken, changes);
  if (r.stats)
    r.stats->chosen_original += taken;
}

void settle_on_original(State &st, const SiteInfo &site, int dev) {
  LaunchRecord &r = launch_record(st, site, dev);
  Selector &sel = r.selector;
  for (int guard = 0; sel.profiling() && guard < 64; ++guard) {
    const Selector::Decision d = sel.decide(false, false);
    if (d.timed && d.run == Selector::kRunOriginal)
      sel.add_original(1.0);
    else if (d.timed)
      sel.add_transformed(2.0, d.candidate);
  }
  note_selector(r);
  open_fast_path(st, r, site, dev);
}

Launch *this_thread_launch(const State &st) {
  return this_thread.epoch == st.epoch ? &this_thread : nullptr;
}

Launch &thread_launch() { return this_thread; }

LaunchShape launch_shape(const Launch *l) {
  LaunchShape s;
  if (!l)
    return s;
  s.open = true;
  s.grid = l->pipeline.grid;
  s.block = l->pipeline.block;
  s.shmem = l->pipeline.shmem;
  if (l->selected && l->candidate != 0)
    s.wish = l->record->selector.label(l->candidate);
  s.profiling = l->selected && l->record && l->record->selector.profiling();
  if (s.profiling)
    s.launched_ms = l->record->selector.warmed_ms();
  return s;
}

void launch_prepared(State &st, Launch *l, SiteRecord &site, bool built, cudaStream_t stream) {
  if (!l)
    return;
  Launch &c = *l;
  if (std::find(c.sites.begin(), c.sites.end(), &site) == c.sites.end())
    c.sites.push_back(&site);
  if (c.selected && c.run == Selector::kRunTransformed)
    site.candidate_copy[c.candidate] = site.last;
  c.sample.built |= built;
  if (c.sample.mid && cudaEventRecord(c.sample.mid, stream) != cudaSuccess)
    abandon(c, st);
}

bool defer_verification(Launch *l, const SiteInfo &site, SiteStats &ss, Entry &e, int dev, bool built) {
  if (!l)
    return false;
  l->checks.push_back({&site, &ss, &e, dev, built});
  return true;
}

namespace {
// After the kernels that read them: the renumbered copies this launch wrote
// (entries of an earlier epoch are gone: testing::reset).
void record_renumbered_reads(Launch &c, const State &st, cudaStream_t stream) {
  for (Entry *e : c.epoch == st.epoch ? c.renumbered : std::vector<Entry *>{})
    renumbered_read(*e, stream);
  c.renumbered.clear();
}

// The deferred checks of the launch just ended (the transformed or the
// original kernel: a copy built for a launch that fell back is checked too).
void run_verification(State &st, std::vector<Launch::Check> checks, cudaStream_t stream) {
  for (const Launch::Check &k : checks) {
    const std::string why =
        k.built ? remember_fingerprints(st.cfg, st.devices, *k.stats, *k.site, k.device, *k.entry, stream)
                : verify_hit(st.cfg, st.devices, *k.stats, *k.site, k.device, *k.entry, stream);
    if (!why.empty())
      record_fallback(*k.stats, why);
  }
}
} // namespace

bool takes_copies(const Launch *l) {
  return l && l->pipeline.chunks == 0 && pipeline_accepts(l->pipeline);
}

void take_copies(Launch &l, DeferredCopy copy) { l.pipeline.copies.push_back(std::move(copy)); }

bool hoisted_copies_pending(const Launch *l) {
  return l && l->pipeline.hoisted && !l->pipeline.copies.empty();
}

int start_hoisted_slices(State &st, Launch *l, const SiteInfo &site, int steps, int group,
                         cudaStream_t stream, std::string *why) {
  if (!l || l->pipeline.copies.empty())
    return 1;
  Launch &c = *l;
  int dev = 0;
  if (const cudaError_t e = cudaGetDevice(&dev); e != cudaSuccess) {
    *why = cuda_failure("cudaGetDevice", site, e);
    abandon_pipeline(c.pipeline);
    return 0;
  }
  NvtxRange copies;
  if (steps > 1)
    copies.start(st.cfg.nvtx, Work::kCopies, site.id, site.kernel, "in " + std::to_string(steps) + " slices");
  const int slices = start_slices(st.devices, c.pipeline, site, steps, group, dev, stream, why);
  if (slices == 0)
    abandon_pipeline(c.pipeline);
  else if (slices == 1)
    copies_flushed(c, stream);
  c.sample.pipelined = slices > 1;
  return slices;
}

void wait_hoisted_slice(const State &st, Launch *l, int step, cudaStream_t stream) {
  if (!l || !l->pipeline.hoisted)
    return;
  if (st.cfg.nvtx && l->site)
    l->part_range.start(true, Work::kHoistedStep, l->site->id, l->site->kernel, "step " + std::to_string(step + 1));
  wait_chunk(l->pipeline, step, stream);
}

void resolve_launch_timings(State &st, bool wait) {
  for (auto &kv : st.launches) {
    LaunchRecord &r = kv.second;
    count_fast_launches(r);
    resolve(r, wait, st.cfg.original_time_scale);
    if (st.cfg.layout == 0 && r.stats)
      note_selector(r);
  }
}

void put_off_profiling(Launch *l, double ms, const std::string &why) {
  if (!l || !l->selected || !l->record)
    return;
  l->record->selector.put_off(ms, why);
  note_selector(*l->record);
}

void note_build(Launch *l, const Built &built) {
  if (l && l->selected && !built.ruled_out.empty()) {
    l->record->selector.rule_out(built.ruled_out);
    note_selector(*l->record);
  }
  if (built.put_off_ms > 0)
    put_off_profiling(l, built.put_off_ms, built.put_off_why);
  if (l && l->selected && built.proposals > 0) {
    l->record->selector.set_candidates(built.proposed, built.proposals);
    l->record->stats->selector_candidates = l->record->selector.candidates();
  }
  if (l && l->sample.start)
    l->sample.setup_ms += built.setup_ms;
}

void clear_launch_records(State &st) {
  for (auto &kv : st.launches)
    for (LaunchSample &s : kv.second.pending)
      destroy_events(s);
  st.launches.clear();
}

} // namespace detail

bool begin_launch(const SiteInfo &site, cudaStream_t stream, dim3 grid, dim3 block, size_t shmem) {
  using namespace detail;
  int dev = 0;
  const cudaError_t err = cudaGetDevice(&dev);
  State &st = state();
  fast_launch_open = false;
  // Settled on the original: a table look-up and a decrement, no lock (the
  // launch left open by an earlier launcher, if any, is the slow path's).
  if (err == cudaSuccess && this_thread.epoch == 0) {
    const FastSlot &f = fast_slot(&site);
    if (f.site == &site && f.device == dev && f.generation == st.generation.load(std::memory_order_relaxed) &&
        f.record->fast.budget.fetch_sub(1, std::memory_order_relaxed) > 0) {
      f.record->fast.taken.fetch_add(1, std::memory_order_relaxed);
      fast_launch_open = true;
      return false;
    }
  }
  std::lock_guard<std::mutex> lock(st.mu);
  ensure_loaded(st);
  Launch &c = this_thread;
  abandon(c, st);
  c.checks.clear(); // a launch that never ended: its copies are checked from their next hit
  if (err != cudaSuccess) {
    record_fallback(site_stats(st, site), cuda_failure("cudaGetDevice", site, err));
    return false;
  }
  LaunchRecord &r = launch_record(st, site, dev);
  if (st.cfg.disabled || disables(st.cfg, site.kernel, site.id)) {
    record_fallback(*r.stats, "disabled by IRREGFIX_DISABLE");
    return false;
  }
  // IRREGFIX_DETERMINISTIC: a scatter site always runs its executor.
  Pattern pattern = kPatternRange;
  const bool deterministic =
      st.cfg.deterministic && pattern_from_name(site.pattern, &pattern) && pattern == kPatternScatter;
  if (st.cfg.layout == kLayoutChoiceNone && !deterministic) {
    ++r.stats->chosen_original;
    r.stats->selector = "IRREGFIX_LAYOUT=none: the original kernel";
    return false;
  }
  // A stream being captured into a graph runs nothing now: a copy "built" here
  // would only be built when the graph runs, and could be served before that.
  // The graph gets the original kernel.
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  const cudaError_t cap = cudaStreamIsCapturing(stream, &capture);
  if (cap != cudaSuccess || capture != cudaStreamCaptureStatusNone) {
    if (cap != cudaSuccess)
      cudaGetLastError();
    record_fallback(*r.stats, "the stream is being captured into a graph: the graph runs the original kernel");
    return false;
  }
  if (take_renumbered_launch()) { // the arrays are in a good order already
    ++r.stats->chosen_original;
    r.stats->selector = "the original kernel, on the renumbered domain";
    return false;
  }
  c.epoch = st.epoch;
  c.site = &site;
  c.record = &r;
  c.pipeline.chunkable = (site.flags & kSiteChunkable) != 0;
  c.pipeline.hoisted = (site.flags & kSiteHoisted) != 0;
  c.pipeline.grid = grid;
  c.pipeline.block = block;
  c.pipeline.shmem = shmem;
  if (st.cfg.layout != 0 || deterministic)
    return true; // a forced layout (or the executor asked for): always the transformed kernel

  resolve(r, false, st.cfg.original_time_scale);
  count_fast_launches(r);
  r.selector.set_warm_up(st.cfg.profile_after_ms);
  // The copies this launcher read last time: all still valid (no remap now)?
  // Any written since the previous launch (the selector's reuse estimate)?
  // A copy of managed or host memory is rebuilt at every launch: never reused.
  bool valid = !r.sites.empty(), changed = r.sites.empty();
  for (SiteRecord *s : r.sites) {
    const unsigned long long writes = s->last ? s->last->writes : 0;
    valid &= s->last && servable(*s->last);
    changed |= !s->last || writes != s->seen_writes || s->last->host_writable;
    s->seen_writes = writes;
  }
  // The same per candidate, for each one's own reuse: -1 while a site has no
  // copy of it; 1 when one was written, or is new, since the previous launch.
  int observed[Selector::kMaxCandidates];
  for (int k = 0; k < r.selector.candidates(); ++k) {
    observed[k] = r.sites.empty() ? -1 : 0;
    for (SiteRecord *s : r.sites) {
      const Entry *e = s->candidate_copy[k];
      if (!e) {
        observed[k] = -1;
        continue;
      }
      if (observed[k] >= 0 && (e != s->candidate_seen[k] || e->writes != s->candidate_seen_writes[k] ||
                               e->host_writable))
        observed[k] = 1;
      s->candidate_seen[k] = e;
      s->candidate_seen_writes[k] = e->writes;
    }
  }
  const Selector::Decision d = r.selector.decide(valid, changed, observed);
  if (d.run != Selector::kRunOriginal) // no other thread takes the fast path past this decision
    r.fast.budget.store(0, std::memory_order_relaxed);
  c.selected = true;
  c.run = d.run;
  c.candidate = d.candidate;
  c.only_if_cached = d.only_if_cached;
  if (d.settled) {
    free_losers(st, r);
    note_selector(r);
    if (st.cfg.nvtx)
      nvtx_mark(true, Work::kDecision, site.id, site.kernel, decision_text(r.selector, d.run));
  }
  if (d.timed && !start_sample(c.sample, d.run, d.candidate, stream))
    r.selector.cancel(d.run, d.candidate);
  else if (d.timed && st.cfg.nvtx)
    c.probe_range.start(true, Work::kProbe, site.id, site.kernel, variant_name(r.selector, d.run, d.candidate));
  if (d.run == Selector::kRunOriginal) {
    ++r.stats->chosen_original;
    open_fast_path(st, r, site, dev);
    return false;
  }
  return true;
}

void end_transformed_launch(const SiteInfo &site, cudaStream_t stream) {
  using namespace detail;
  const cudaError_t e = cudaPeekAtLastError();
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  ensure_loaded(st);
  Launch &c = this_thread;
  const bool mine = c.epoch == st.epoch && c.site == &site;
  SiteStats &ss = mine ? *c.record->stats : site_stats(st, site);
  ++ss.launches;
  if (e != cudaSuccess) {
    std::fprintf(stderr, "irregfix: launch of the transformed %s failed at %s: %s\n",
                 site.kernel ? site.kernel : "?", site.id ? site.id : "?", cudaGetErrorString(e));
    ++ss.fallbacks[std::string("transformed launch failed: ") + cudaGetErrorString(e)];
  }
  if (mine) {
    c.record->sites.swap(c.sites); // abandon() clears what comes back
    finish_pipeline(c.pipeline, ss, stream);
  }
  record_renumbered_reads(c, st, stream);
  std::vector<Launch::Check> checks;
  checks.swap(c.checks);
  finish(c, st, Selector::kRunTransformed, e == cudaSuccess, stream);
  run_verification(st, std::move(checks), stream);
}

bool start_chunks(const SiteInfo &site, cudaStream_t stream, int *chunks) {
  using namespace detail;
  *chunks = 1;
  int dev = 0;
  const cudaError_t err = cudaGetDevice(&dev);
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  Launch &c = this_thread;
  if (c.epoch != st.epoch || c.site != &site)
    return true; // no launch open: nothing was deferred
  std::string why = err != cudaSuccess ? cuda_failure("cudaGetDevice", site, err) : "";
  if (why.empty()) {
    NvtxRange copies;
    if (st.cfg.nvtx && !c.pipeline.copies.empty())
      copies.start(true, Work::kCopies, site.id, site.kernel, "in chunks");
    *chunks = start_pipeline(st.devices, st.cfg.chunks, c.pipeline, *c.record->stats,
                             c.record->selector.transformed_ms(), dev, stream, &why);
  }
  if (!why.empty()) {
    record_fallback(*c.record->stats, why);
    abandon_pipeline(c.pipeline);
    *chunks = 0;
    return false;
  }
  if (*chunks == 1)
    copies_flushed(c, stream);
  c.sample.pipelined = *chunks > 1;
  return true;
}

Chunk launch_chunk(const SiteInfo &site, int chunk, dim3 grid, cudaStream_t stream) {
  using namespace detail;
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  Launch &c = this_thread;
  if (c.epoch != st.epoch || c.site != &site || c.pipeline.chunks <= 1)
    return Chunk{grid, 0};
  if (st.cfg.nvtx)
    c.part_range.start(true, Work::kChunk, site.id, site.kernel,
                       std::to_string(chunk + 1) + " of " + std::to_string(c.pipeline.chunks));
  return pipeline_chunk(c.pipeline, chunk, stream);
}

void end_original_launch(const SiteInfo &site, cudaStream_t stream) {
  using namespace detail;
  if (fast_launch_open) { // begin_launch's fast path: nothing was opened
    fast_launch_open = false;
    return;
  }
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  Launch &c = this_thread;
  record_renumbered_reads(c, st, stream);
  std::vector<Launch::Check> checks;
  checks.swap(c.checks);
  if (c.epoch == st.epoch && c.site == &site)
    finish(c, st, Selector::kRunOriginal, true, stream);
  else
    abandon(c, st);
  run_verification(st, std::move(checks), stream);
}

} // namespace irregfix
