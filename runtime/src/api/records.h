// irregfix runtime: the records that make a cached launch cheap: per site and
// device the entry it used last, per launcher and device the selector, its
// pending timings and the fast path of a launcher settled on the original.
// Kept in the runtime's state (state.h), keyed by (site, device).
#pragma once

#include <irregfix/irregfix.cuh>

#include "cache.h"
#include "layout_policy.h"
#include "selector.h"
#include "stats.h"

#include <atomic>
#include <utility>
#include <vector>

namespace irregfix {
namespace detail {

// One site on one device: the entry its latest prepare used, and per layout
// key the latest entry of that layout (the hit path compares the call's
// arguments with that entry's key instead of hashing a key, also while the
// selector switches between candidate layouts), and the entry's write count
// when a launch last looked.
struct SiteRecord {
  SiteStats *stats = nullptr;
  Entry *last = nullptr;
  Entry *recent[kLayoutKeySlots] = {};
  // Under auto, the entry each of its launcher's candidate layouts read last:
  // what a settled selector frees for the candidates it did not choose.
  Entry *candidate_copy[Selector::kMaxCandidates] = {};
  unsigned long long seen_writes = 0;
  // Per candidate, the copy and its write count when a launch last looked
  // (each candidate's own reuse: Selector::decide's `observed`).
  const Entry *candidate_seen[Selector::kMaxCandidates] = {};
  unsigned long long candidate_seen_writes[Selector::kMaxCandidates] = {};
};

// A timed launch waiting for its events: start (before any remap), mid (after
// the last prepare: the kernel starts), end (after the kernel).
struct LaunchSample {
  Selector::Run run = Selector::kRunOriginal;
  cudaEvent_t start = nullptr, mid = nullptr, end = nullptr;
  bool built = false; // a prepare remapped: start..mid is a remap
  bool pipelined = false; // the remap ran in chunks beside the kernel: start..end is both
  int candidate = 0;      // kRunTransformed: the selector's candidate layout
  // GPU time of one-time work inside the remap (a locality order computed):
  // not a cost of each copy, so not counted in the remap's sample.
  double setup_ms = 0;
};

// A launcher settled on the original kernel: the launches until its next
// watched one run the original without taking the lock (begin_launch's fast
// path). budget: launches it may still take; taken: launches taken since the
// lock last counted them. A copy of a record starts empty.
struct FastPath {
  std::atomic<long long> budget{0}, taken{0};
  FastPath() = default;
  FastPath(const FastPath &) {}
  FastPath &operator=(const FastPath &) {
    budget = 0;
    taken = 0;
    return *this;
  }
};

// One launcher (named by its first site) on one device.
struct LaunchRecord {
  SiteStats *stats = nullptr;
  Selector selector;
  std::vector<SiteRecord *> sites; // the sites its latest transformed launch prepared
  std::vector<LaunchSample> pending;
  FastPath fast;
};

using RecordKey = std::pair<const SiteInfo *, int>; // (site, device)

} // namespace detail
} // namespace irregfix
