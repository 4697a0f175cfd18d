// irregfix runtime: the process-wide state shared by the cache code
// (runtime.cu) and the launch protocol (launch.cu), and the records that make
// a cached launch cheap: per site and device the entry it used last, per
// launcher and device the selector and its pending timings.
#pragma once

#include <irregfix/irregfix.cuh>

#include "host_logic.h"
#include "invalidation_stats.h"
#include "selector.h"

#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace irregfix {
namespace detail {

struct Scratch {
  void *temp = nullptr;     // CUB temporary storage
  std::size_t temp_bytes = 0;
  void *summary = nullptr;  // 64 bytes: reductions and bounds read back on a miss
  void *fingerprints = nullptr; // IRREGFIX_VERIFY: one sum per source of the entry checked
  std::size_t fingerprint_bytes = 0;
};

// Slots of SiteRecord::recent: one per cache-key layout (kLayoutKeyAuto, ELL,
// SELL-32, SELL-32-sigma, sharing).
constexpr int kLayoutKeySlots = 5;
inline int layout_slot(int key_layout) {
  return key_layout > 0 && key_layout < kLayoutKeySlots ? key_layout : 0;
}

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
};

// A timed launch waiting for its events: start (before any remap), mid (after
// the last prepare: the kernel starts), end (after the kernel).
struct LaunchSample {
  Selector::Run run = Selector::kRunOriginal;
  cudaEvent_t start = nullptr, mid = nullptr, end = nullptr;
  bool built = false; // a prepare remapped: start..mid is a remap
  bool pipelined = false; // the remap ran in chunks beside the kernel: start..end is both
  int candidate = 0;      // kRunTransformed: the selector's candidate layout
};

// One launcher (named by its first site) on one device.
struct LaunchRecord {
  SiteStats *stats = nullptr;
  Selector selector;
  std::vector<SiteRecord *> sites; // the sites its latest transformed launch prepared
  std::vector<LaunchSample> pending;
};

using RecordKey = std::pair<const SiteInfo *, int>; // (site, device)

// Per device: the streams pipelined launches copy on (created on first use,
// taken in turn so that launches on different streams do not queue behind one
// another), and the multiprocessor count the chunk model needs.
struct DeviceQueues {
  static constexpr int kRemapStreams = 2;
  cudaStream_t remap[kRemapStreams] = {};
  unsigned next = 0;
  int sms = 0;
};

struct State {
  std::mutex mu;
  bool loaded = false;
  bool atexit_registered = false;
  Config cfg;
  Cache cache;
  std::map<std::string, SiteStats> stats;
  std::map<int, Scratch> scratch;
  // Allocation ranges disjoint() has looked up (empty: not device memory), so
  // that a cached launch asks the driver nothing. Forgotten by irregfix_release().
  std::unordered_map<const void *, Range> allocations;
  // Device ranges of __device__ variables by (host-side address, device), as
  // cudaGetSymbolAddress/cudaGetSymbolSize found them (empty: not found).
  std::map<std::pair<const void *, int>, Range> symbols;
  InvalidationStats invalidations;
  std::map<RecordKey, SiteRecord> sites;
  std::map<RecordKey, LaunchRecord> launches;
  std::map<int, DeviceQueues> queues; // by device
  unsigned epoch = 1; // bumped by testing::reset(): records of older epochs are gone
};

State &state();
// Reads the environment on first use (and registers the stats report).
void ensure_loaded(State &st);
SiteStats &site_stats(State &st, const SiteInfo &site);
SiteRecord &site_record(State &st, const SiteInfo &site, int device);
// Whether a record's stats belong to `site` (records are keyed by the SiteInfo's
// address, which a caller may reuse for another site).
bool record_names(const SiteStats *stats, const SiteInfo &site);
void record_fallback(SiteStats &s, const std::string &why);
// Whether event e has completed (waiting for it when wait): cudaSuccess,
// cudaErrorNotReady, or the error; and the milliseconds between two completed
// events (*ok cleared on failure). Timings are read with these, never on a hit.
cudaError_t event_done(cudaEvent_t e, bool wait);
float elapsed_ms(cudaEvent_t a, cudaEvent_t b, bool *ok);
// Reads the remap timings of a site whose events have completed (waiting for
// them when wait); all sites' and every launcher's, waiting (reports, reset).
void resolve_timings(SiteStats &s, bool wait);
void resolve_all_timings(State &st);
// Reports a failed CUDA call on stderr, clears it, and gives the fallback reason.
std::string cuda_failure(const char *call, const SiteInfo &site, cudaError_t e);
// The IRREGFIX_STATS report: the sites', then the invalidations' block.
std::string stats_text(State &st);

// The device allocation holding p as disjoint() knows it (remembered in
// st.allocations; empty: not device memory). False when it is not known.
bool known_allocation(State &st, const void *p, Range *r);
// The device range of a __device__ variable (`symbol`: its host-side address)
// on device dev, asked of the runtime once (remembered in st.symbols); false,
// with the CUDA error cleared, when it cannot be found.
bool symbol_range(State &st, const void *symbol, int dev, Range *r);

// Launch protocol (launch.cu), called by prepare with the lock held: a prepare
// for `site` succeeded, remapping (built) or from the cache, on `stream`.
void launch_prepared(State &st, SiteRecord &site, bool built, cudaStream_t stream);
// IRREGFIX_VERIFY with a launch open on this thread: the check of entry e (its
// fingerprints taken when built, compared when found) waits for the end of the
// launch, past the events the selector times it by. False: no launch is open;
// check now.
bool defer_verification(const State &st, const SiteInfo &site, SiteStats &ss, Entry &e, int dev, bool built);
// Whether the runtime may permute the threads of the launch being prepared on
// this thread (SELL-32-sigma): the site's kernel says it is permutable, and the
// launch runs at least n threads in x (assumed when unknown: no launcher, or no
// configuration given), so that permuting does not change which rows it computes.
bool may_permute(const State &st, const SiteInfo &site, long long n);
// The block size a sharing copy of `site` would be built for in the launch
// being prepared on this thread; 0 when the launch may not stage copies in
// shared memory: the site is not kSiteShareable (or is hoisted), no launch is
// open, or its configuration is not one-dimensional and known, or the launch
// has dynamic shared memory of its own.
unsigned shareable_block(const State &st, const SiteInfo &site);
// The cache-key layout the launch being prepared on this thread wants for its
// range and neighbour sites under auto: kLayoutKeyAuto (each site's favourite;
// also without a launch, or before the selector knows the candidates) or the
// Layout of the candidate the selector is timing or chose.
int launch_layout_key(const State &st);
// A range build under kLayoutKeyAuto counted the cells of each layout, or a
// neighbour build of a launch that may share (ELL, sharing): the candidates
// worth timing (favourite first) go to the launch's selector (the first
// proposal while it profiles; ignored otherwise).
void propose_layouts(State &st, const int *layouts, int count);
// Reads the completed timings of every launcher (waiting for them when wait),
// and writes each selector's state into its site's stats.
void resolve_launch_timings(State &st, bool wait);
// For begin_hoisted (hoist.cu), with the lock held: whether the launch open on
// this thread deferred copies (a miss or a refresh to make), and its copies
// enqueued in `steps` slices of `group` iterations of the hoisted site
// (start_slices). Returns the slice count (1: no slices, or nothing deferred);
// 0 and *why when a copy failed: run the original kernel.
bool hoisted_copies_pending(const State &st);
int start_hoisted_slices(State &st, const SiteInfo &site, int steps, int group, cudaStream_t stream,
                         std::string *why);
// Before a hoisted step's launch: the stream waits for its slice of the copies.
void wait_hoisted_slice(State &st, int step, cudaStream_t stream);
// Forgets every launch record (testing::reset), destroying pending events.
void clear_launch_records(State &st);

} // namespace detail
} // namespace irregfix
