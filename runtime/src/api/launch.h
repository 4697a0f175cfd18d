// irregfix runtime: one launch of a generated launcher, from begin_launch to
// end_*_launch, as an object. begin_launch opens it with the selector's
// decision, its timing sample and the launch's configuration. Each API entry
// point that follows on the same host thread (prepare_*, start_chunks,
// launch_chunk, begin_hoisted, hoisted_step) finds it once, at its entry
// (this_thread_launch), and hands down only what the layers below need: what
// the layout policy knows of it (launch_shape: configuration, the selector's
// wished layout, whether it profiles). What comes back up is a builder's
// result (build.h, Built), which the API applies here: the candidate layouts
// and one-time work go to the selector (note_build), the copies to the
// launch's pipeline when it runs in chunks or slices (take_copies), each copy
// made or found to the launch's record (launch_prepared). Nothing below the
// API fetches the thread's launch.
#pragma once

#include "build.h"
#include "indexed_build.h"
#include "layout_policy.h"
#include "nvtx.h"
#include "pipeline.h"
#include "state.h"

#include <string>
#include <vector>

namespace irregfix {
namespace detail {

struct Launch {
  unsigned epoch = 0; // State::epoch when opened; 0: none open
  const SiteInfo *site = nullptr;
  LaunchRecord *record = nullptr;
  bool selected = false; // the selector chose this launch's variant
  Selector::Run run = Selector::kRunTransformed;
  int candidate = 0;     // kRunTransformed: the candidate layout it runs
  bool only_if_cached = false; // Selector::Decision::only_if_cached: a prepare that misses declines
  LaunchSample sample;   // events when the launch is timed
  std::vector<SiteRecord *> sites;
  Pipeline pipeline; // the launch configuration; the copies and chunks of a chunkable launch
  // IRREGFIX_VERIFY's work for the copies this launch built or found, done
  // after the launch's end event: checking takes time the selector must not see.
  struct Check {
    const SiteInfo *site;
    SiteStats *stats;
    Entry *entry;
    int device;
    bool built;
  };
  std::vector<Check> checks;
  // Entries whose renumbered copy this launch wrote (prepare_renumbered): at
  // its end each records, through renumbered_read (locality.h), that the kernel
  // that reads it came after.
  std::vector<Entry *> renumbered;
  // IRREGFIX_NVTX: the range of a launch the selector times (until its end),
  // and of the chunk or hoisted step being launched (until the next, or the end).
  NvtxRange probe_range, part_range;
  // This thread's indexed build in progress (prepare_indexed.cu): it spans the
  // launcher's API calls, and survives the launch's end as the build did.
  IndexedProgress indexed;
};

// The launch open on this host thread since begin_launch, or null when none is
// (or it was opened before testing::reset()); and the thread's launch object,
// open or not (its indexed build in progress lives there).
Launch *this_thread_launch(const State &st);
Launch &thread_launch();

// What the layout policy knows of launch l (null: no launch open).
LaunchShape launch_shape(const Launch *l);
// A prepare for `site` succeeded in launch l (null: none open), remapping
// (built) or from the cache, on `stream`.
void launch_prepared(State &st, Launch *l, SiteRecord &site, bool built, cudaStream_t stream);
// A build of launch l (null: none open) returned `built`: the candidate
// layouts it counted go to the launch's selector (the first proposal while it
// profiles; ignored otherwise), and the GPU time of its one-time work (a
// locality order computed) is left out of the launch's remap sample.
void note_build(Launch *l, const Built &built);
// The launch's launcher warms up again until its launches have taken `ms`
// (Selector::put_off), `why` in its statistics; nothing outside a selected launch.
void put_off_profiling(Launch *l, double ms, const std::string &why);
// IRREGFIX_VERIFY in launch l (null: none open): the check of entry e (its
// fingerprints taken when built, compared when found) waits for the end of the
// launch, past the events the selector times it by. False: no launch is open;
// check now.
bool defer_verification(Launch *l, const SiteInfo &site, SiteStats &ss, Entry &e, int dev, bool built);
// Whether launch l enqueues the copies its prepares make itself (chunk by
// chunk, or slice by slice when hoisted), and hands one entry's copies to it.
bool takes_copies(const Launch *l);
void take_copies(Launch &l, DeferredCopy copy);
// testing::settle_on_original: the launcher of `site` on device dev settled
// on the original (synthetic timings in which it wins by far).
void settle_on_original(State &st, const SiteInfo &site, int dev);
// For begin_hoisted: whether launch l deferred copies (a miss or a refresh to
// make), and its copies enqueued in `steps` slices of `group` iterations of the
// hoisted site (start_slices). Returns the slice count (1: no slices, or
// nothing deferred); 0 and *why when a copy failed: run the original kernel.
bool hoisted_copies_pending(const Launch *l);
int start_hoisted_slices(State &st, Launch *l, const SiteInfo &site, int steps, int group,
                         cudaStream_t stream, std::string *why);
// Before a hoisted step's launch: the stream waits for its slice of the copies
// (and, with IRREGFIX_NVTX, the step's range starts).
void wait_hoisted_slice(const State &st, Launch *l, int step, cudaStream_t stream);

} // namespace detail
} // namespace irregfix
