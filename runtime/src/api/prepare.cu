// irregfix runtime: what every prepare_* does once its entry is found or
// built. See prepare.h.
#include "prepare.h"

#include "verify.h"

#include <string>

namespace irregfix {
namespace detail {
namespace {

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
  st.cache.touch(e);
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
    why = verify_hit(st.cfg, st.devices, ss, site, dev, e, stream);
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
      if (const std::string why = remember_fingerprints(st.cfg, st.devices, ss, site, dev, e, stream); !why.empty())
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

bool declines_without_cached_copy(const Launch *launch, SiteStats &ss) {
  if (!launch || !launch->only_if_cached)
    return false;
  record_fallback(ss, "no copy cached for this launch's key, and a remap would not pay: the original, nothing built");
  return true;
}

Entry *entry_to_build(State &st, const SiteInfo &site, SiteStats &ss, const CacheKey &key, Entry *stale) {
  ++(stale ? ss.refreshes : ss.misses);
  const long long *zero = nullptr;
  if (std::string why = ensure_zero_cell(st.cfg, st.devices, site, key.device, &zero); !why.empty()) {
    record_fallback(ss, why);
    return nullptr;
  }
  Entry *e = stale;
  if (!e) {
    drop_superseded(st, ss, key);
    e = st.cache.insert(key);
    e->layout = initial_layout(key.pattern, key.layout);
  } else {
    // Host code may have written a source in managed or host memory since the
    // last launch, unannounced: rebuild it, and its shape when an index array is.
    if (e->host_writable)
      e->valid = false;
    if (e->index_host_writable)
      e->shape_valid = false;
  }
  e->zero_cell = zero;
  return e;
}

bool build_failed(State &st, SiteStats &ss, const CacheKey &key, const std::string &why) {
  drop_entry(st, key);
  record_fallback(ss, why);
  return false;
}

std::string start_copy(Launch *l, DeferredCopy copy, cudaStream_t stream) {
  const SiteInfo &site = *copy.site;
  Entry &e = *copy.entry;
  if (!e.ready)
    IRREGFIX_TRY(cudaEventCreateWithFlags(&e.ready, cudaEventDisableTiming));
  if (copy.count == 0) { // a layout that copies nothing (lanes): ready at once, nothing to pipeline
    IRREGFIX_TRY(cudaEventRecord(e.ready, stream));
    e.built_on = stream;
    e.valid = true;
    return "";
  }
  if (takes_copies(l)) {
    take_copies(*l, std::move(copy));
    return "";
  }
  const std::string why = enqueue_timed(*copy.stats, site, copy.count, copy.n, copy.what, stream, copy.copy);
  return why.empty() ? copies_enqueued(*copy.stats, site, e, copy.bytes, stream) : why;
}

} // namespace detail
} // namespace irregfix
