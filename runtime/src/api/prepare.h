// irregfix runtime: what every prepare_* does once its entry is found or built
// (prepare_copies.cu, prepare_indexed.cu, prepare_scatter.cu): the API's side
// of a build. Called with State::mu held.
#pragma once

#include "launch.h"
#include "state.h"

#include <cuda_runtime.h>

namespace irregfix {
namespace detail {

// The start of a prepare of `site` on device dev (cudaGetDevice's answer
// device_error), with State::mu held: the site's record, its launch counted
// (SiteStats::prepares, IRREGFIX_VERIFY's launch numbers); null, the failure
// recorded, when the device could not be found.
SiteRecord *open_prepare(State &st, const SiteInfo &site, cudaError_t device_error, int dev);

// A valid entry of the site (record rec, on device dev, in launch l, null when
// none is open): the launch's stream waits for its copy, IRREGFIX_VERIFY checks
// it (at the launch's end, or now without a launch), and *view and remapped
// describe it. False (the reason recorded): run the original kernel.
bool serve_hit(State &st, const SiteInfo &site, SiteRecord &rec, Launch *l, int dev, Entry &e,
               View *view, const void **remapped, cudaStream_t stream);

// An entry whose copy was just built (enqueued, or handed to the launch): its
// sources' memory kinds noted, IRREGFIX_VERIFY's fingerprints taken (or
// deferred to the launch's end), and served as by serve_hit. False (the entry
// dropped, the reason recorded): run the original kernel.
bool serve_built(State &st, const SiteInfo &site, SiteRecord &rec, Launch *l, int dev, Entry &e,
                 View *view, const void **remapped, cudaStream_t stream);

// Why every prepare declines under this configuration (IRREGFIX_DISABLE,
// IRREGFIX_LAYOUT=none), or null.
const char *declined(const Config &cfg);

// A launch that runs the transformed kernel only because its copies were
// cached (Selector::Decision::only_if_cached) finds none for its key: it runs
// the original (true, the fallback recorded) rather than build a copy that
// does not pay.
bool declines_without_cached_copy(const Launch *launch, SiteStats &ss);

// The entry a prepare builds when the cache holds no servable copy of `key`:
// on a miss (stale null) a new, empty one (a miss counted); else `stale` (a
// refresh counted), whose copy, and shape when an index array is, is rebuilt
// when a source is in memory host code may write unannounced. Null, the
// fallback recorded, when the device's zero cell (View::slice_start) cannot be made.
Entry *entry_to_build(State &st, const SiteInfo &site, SiteStats &ss, const CacheKey &key, Entry *stale);

// A build failed: the entry of `key` is dropped (nothing half-built is left)
// and `why` recorded. Returns false, for the prepare to return.
bool build_failed(State &st, SiteStats &ss, const CacheKey &key, const std::string &why);

// Starts a built copy: hands it to launch l when l takes its copies (chunks,
// slices; the entry becomes valid when they are enqueued), else enqueues it,
// all threads [0, n), on `stream` between timing events and marks the entry
// valid; a copy of no array (the lanes layout) makes the entry valid at once.
// "" or the failure (reported).
std::string start_copy(Launch *l, DeferredCopy copy, cudaStream_t stream);

} // namespace detail
} // namespace irregfix
