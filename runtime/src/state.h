// irregfix runtime: the process-wide state behind one mutex (the configuration,
// the cache, the statistics, the allocations and symbols asked of CUDA so far)
// and the records that make a cached launch cheap: per site and device the
// entry it used last, per launcher and device the selector and its pending
// timings. The launch between begin_launch and end_*_launch is launch.h's.
#pragma once

#include <irregfix/irregfix.cuh>

#include "address_ranges.h"
#include "cache.h"
#include "config.h"
#include "invalidation_stats.h"
#include "layout_policy.h"
#include "selector.h"
#include "stats.h"

#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
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

// A locality order (order.h), per device and per access graph: the index
// arrays it was computed from and how they are read, the threads, and the
// region size. Sites whose threads read through the same arrays share it.
struct OrderKey {
  int device = 0;
  long long n = 0;
  int kind = 0; // AccessList::Kind
  const void *idx = nullptr;
  int idx_kind = 0;
  long long sj = 0, st = 0;
  const void *counts = nullptr;
  const void *B = nullptr;
  int region = 0;
  bool operator<(const OrderKey &o) const {
    return std::tie(device, n, kind, idx, idx_kind, sj, st, counts, B, region) <
           std::tie(o.device, o.n, o.kind, o.idx, o.idx_kind, o.sj, o.st, o.counts, o.B, o.region);
  }
  // Whether it was computed from memory at p (irregfix_release forgets it).
  bool reads(const void *p) const { return p && (p == idx || p == counts || p == B); }
};

// The order itself and what the runtime measured of it. Any permutation is
// correct, so an order is never stale, only less good: it is checked (the
// sampled measure, order.h) when the lists it was computed from change, and
// computed again when it has decayed (order_decayed).
struct Order {
  void *perm = nullptr; // int[n]: physical thread -> logical thread
  std::size_t perm_bytes = 0;
  void *inv = nullptr;  // int[n]: logical thread -> physical thread
  std::size_t inv_bytes = 0;
  bool ready = false;   // perm and inv hold a permutation (a failed computation leaves them not)
  double identity = -1; // sampled sectors per read in the threads' own order
  double fresh = -1;    // ... in this order when computed
  double last = -1;     // ... in this order at its latest check
  double build_ms = 0;  // GPU time of its latest computation
  int region = 0, sweeps = 0;
  bool converged = true;
  long long computed = 0, kept = 0; // computations; checks that kept it
  // The sampled measure's scratch and its two counts (device), kept: a check
  // runs at every change of the lists.
  void *sample = nullptr;
  std::size_t sample_bytes = 0;
  unsigned long long *counts = nullptr;
};

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
  std::map<OrderKey, Order> orders;
  unsigned epoch = 1; // bumped by forget_device_state(): records of older epochs are gone
  // Bumped whenever launch records go or the configuration changes (reset,
  // the testing hooks): begin_launch's fast path then takes the lock again.
  std::atomic<unsigned> generation{1};
};

State &state();
// The multiprocessor count of device dev (asked of CUDA once, kept in st.queues).
cudaError_t device_sms(State &st, int dev, int *sms);
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

// Reads the completed timings of every launcher (waiting for them when wait),
// and writes each selector's state into its site's stats (and the launches
// its fast path took into its counts).
void resolve_launch_timings(State &st, bool wait);
// The launches record r's fast path took since they were last counted: into
// its selector (with the writes its sites' copies saw meanwhile) and its stats.
void count_fast_launches(LaunchRecord &r);
// Forgets every launch record (testing::reset), destroying pending events.
void clear_launch_records(State &st);

} // namespace detail
} // namespace irregfix
