// irregfix runtime: the builder interface. A builder (layouts/, indexed/,
// scatter/) makes or refreshes one cache entry: it takes the prepare's layout
// request (layout_policy.h, with what the policy knows of the launch), makes
// the entry's shape (lengths, slices, sets; buffers sized and validated) and
// returns what it built (Built): its copy, not yet enqueued, the candidate
// layouts it counted, and the GPU time of one-time work. The API enqueues the
// copy or hands it to the launch's pipeline; nothing below it sees the launch.
// On failure a builder returns why, and the launch runs the original kernel.
// The helpers here are what every builder shares: checked extents, buffers
// sized within IRREGFIX_MAX_BYTES, copies planned and enqueued.
#pragma once

#include "cache.h"
#include "config.h"
#include "device.h"
#include "device_memory.h"
#include "layout_policy.h"
#include "remap.cuh"
#include "stats.h"
#include "timing.h"

#include <irregfix/irregfix.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace irregfix {
namespace detail {

// What a builder may use besides its entry and its arguments: the
// configuration, the cache (its byte count, for IRREGFIX_MAX_BYTES) and each
// device's scratch and attributes.
struct BuildContext {
  const Config &cfg;
  const Cache &cache;
  Devices &devices;
  // Whether the cache may grow by `more` bytes once `less` are freed (IRREGFIX_MAX_BYTES).
  bool fits(std::size_t less, std::size_t more) const {
    return Cache::fits(cache.total_bytes(), less, more, cfg.max_bytes);
  }
};

// e's payload as P, made when it has none (a payload of another type, which
// no entry changes to, is freed first): where a builder keeps its buffers.
template <class P> P &payload(Entry &e) {
  if (P *p = payload_of<P>(e))
    return *p;
  if (e.payload)
    free_payload(*e.payload);
  e.payload = std::make_unique<P>();
  return static_cast<P &>(*e.payload);
}

// Enqueues the copy of array `array` for the threads `rows` on `stream`.
using CopyFn = std::function<cudaError_t(int array, Rows rows, cudaStream_t stream)>;

// One entry's copies, not enqueued yet: the API enqueues them whole, or the
// launch's pipeline in chunks or slices (pipeline.h).
struct DeferredCopy {
  Entry *entry = nullptr;
  SiteStats *stats = nullptr;
  const SiteInfo *site = nullptr;
  int count = 0;              // arrays
  long long n = 0;            // the site's threads
  const char *what = "";      // the copy kernel, for error messages
  unsigned long long bytes = 0;
  CopyFn copy;
};

// What a builder made: the entry's copy (copy.entry), to be enqueued; for a
// build under auto, the candidate layouts it counted (favourite first), or
// that none is worth timing; and the GPU time of one-time work inside it (a
// locality order computed), which is no cost of the copy: the selector's remap
// sample leaves it out.
struct Built {
  DeferredCopy copy; // count 0: the layout copies nothing (lanes), the entry is ready at once
  int proposed[kMaxLayoutCandidates] = {};
  int proposals = 0;
  double setup_ms = 0;
  // Under auto: the range model expects every layout to lose to the original
  // (range_precheck), and why; the launcher's selector settles on the original.
  std::string ruled_out;
  // Under auto: the launches so far do not pay for the copy (range_precheck):
  // the launcher warms up until they have taken put_off_ms (0: built), and why.
  double put_off_ms = 0;
  std::string put_off_why;
};

// The copy of an entry as a builder returns it: copy_one(i, rows, stream)
// enqueues array i's copy for the threads `rows` and returns the launch error;
// it runs after the builder returns, so it captures by value (the entry by
// reference). bytes(i) is what array i's copy moves.
template <class CopyOne, class Bytes>
std::string plan_copy(SiteStats &ss, const SiteInfo &site, Entry &e, int count, long long n,
                      const char *what, CopyOne copy_one, Bytes bytes, Built *built) {
  unsigned long long total = 0;
  for (int i = 0; i < count; ++i)
    total += bytes(i);
  built->copy = DeferredCopy{&e, &ss, &site, count, n, what, total, CopyFn(copy_one)};
  return "";
}

// Enqueues copy_one(i, [0, n), stream) for each of count arrays between
// timing events; "" or the failure (reported, the events dropped).
template <class CopyOne>
std::string enqueue_timed(SiteStats &ss, const SiteInfo &site, int count, long long n,
                          const char *what, cudaStream_t stream, CopyOne copy_one) {
  cudaEvent_t t0, t1;
  start_timing(stream, &t0, &t1);
  for (int i = 0; i < count; ++i) {
    cudaError_t r = copy_one(i, Rows{0, n}, stream);
    if (r != cudaSuccess) {
      if (t0) {
        cudaEventDestroy(t0);
        cudaEventDestroy(t1);
      }
      return cuda_failure(what, site, r);
    }
  }
  stop_timing(ss, stream, t0, t1);
  return "";
}

// The copies of an entry were enqueued on `stream`: the entry is valid from
// there on (e.ready marks the point for launches on other streams).
std::string copies_enqueued(SiteStats &ss, const SiteInfo &site, Entry &e,
                            unsigned long long bytes, cudaStream_t stream);

// The scalars of a neighbour-list site: thread t reads A[NB[j*sj + t*st]] for
// j < (counts ? counts[t] : m).
struct NeighborArgs {
  const void *NB;
  int nb_kind;
  long long sj, st, m;
  const void *counts;
  int counts_kind;
};

// Bytes of one element of an index array of this IndexKind.
std::size_t index_size(int kind);
// The index value of kind `kind` at p (index_size(kind) bytes, read to the
// host) as a long long; false when it does not fit.
bool index_value(const unsigned char *p, int kind, long long *out);

// Bytes of a copy of `cells` elements of `esz` bytes; "" or why it cannot be.
std::string copy_bytes(unsigned long long cells, std::size_t esz, std::size_t *bytes);

// One device buffer per remapped array, at least need[i] bytes each (reused
// when big enough). The caller has checked the byte cap.
std::string ensure_copies(const BuildContext &cx, const SiteInfo &site, Entry &e,
                          const std::vector<std::size_t> &need);

// Enqueues CUB's min and max of the index array p[0..n) (of kind `kind`) into
// the first 16 bytes of the device scratch's summary (see minmax_indices);
// *out is that scratch.
std::string minmax_to_summary(BuildContext &cx, const SiteInfo &site, int dev, const void *p, int kind,
                              long long n, cudaStream_t stream, Scratch **out);
// The same, read back (one round trip, the stream synchronised): *fits is false
// when the min or the max does not fit a long long.
std::string read_index_minmax(BuildContext &cx, SiteStats &ss, const SiteInfo &site, int dev, const void *p,
                              int kind, long long n, cudaStream_t stream, long long *min,
                              long long *max, bool *fits);

// Extent [p + lo*esz, p + hi*esz) must lie in p's device allocation.
std::string check_extent(const void *p, std::size_t esz, long long lo, long long hi,
                         SourceRange *src);

// A data array read by a gather: its allocation (the extent, for invalidation)
// and the element indices that lie inside it. Indices outside are sentinels.
std::string gather_source(const void *A, std::size_t esz, SourceRange *src, long long *lo,
                          long long *hi);

// An index array read by the remap itself: device memory, and the valid element
// indices of its allocation.
std::string index_source(const void *p, int kind, long long lo, long long hi, SourceRange *src,
                         long long *alo, long long *ahi);

// An index array read whole, p[0..n): as index_source, and all of it inside
// its allocation ("bad index data: <name>[0..n) ..." otherwise).
std::string whole_index_source(const void *p, int kind, long long n, const char *name,
                               SourceRange *src);

} // namespace detail
} // namespace irregfix
