// irregfix runtime: the steps of an indexed build (prepare_indexed,
// continue_indexed; api/prepare_indexed.cu runs them, between the launcher's
// kernels). The element indices of such a site only the program can compute:
// the runtime asks its launcher to run generated kernels that write the
// lengths of each thread's loop and then the index of every slot, into
// buffers of the cache entry; it sizes the layout from the lengths (one round
// trip), finds the extent of the indices (one round trip), and gathers each
// copy through them. A refresh after a write to a data array only (the index
// arrays unchanged: shape_valid) gathers again from the kept indices.
#pragma once

#include "build.h"
#include "indexed_plan.h"

#include <irregfix/irregfix.cuh>

#include <string>
#include <vector>

namespace irregfix {
namespace detail {

// One host thread's indexed build, from the prepare that starts it to the
// step that makes it ready (or fails), kept in the thread's launch (launch.h)
// while the launcher's kernels run and the lock is released. Its entry is
// marked as being built (IndexedPayload::builder) so that no other thread
// touches it.
struct IndexedProgress {
  unsigned epoch = 0; // State::epoch when started: older ones are gone (testing::reset)
  const SiteInfo *site = nullptr;
  int dev = 0;
  CacheKey key;                  // the entry, looked up again at each step (it may be dropped)
  unsigned long long token = 0;  // the entry's builder while this build owns it; 0: none
  int step = kIndexedReady;      // what the launcher was asked to compute
  int request = 0;               // the prepare's layout key (LayoutRequest::key)
  bool report_padding = false;
  unsigned long long writes = 0; // the entry's writes when the build started
  cudaEvent_t t0 = nullptr, t1 = nullptr; // the build's remap time, the launcher's kernels included
};

// The sources of a new shape, data arrays then index arrays (Entry::sources):
// each data array's allocation (its extent until the indices are known); each
// index array's whole allocation, as the index kernels may read any of it. An
// index array in no allocation the runtime can find is taken as memory that
// host code may write unannounced: the entry is never served from the cache,
// and every launch computes its indices again (cacheable_memory). A null one is
// not read: it matches no write.
std::string shape_sources(const IndexedSite &s, std::vector<SourceRange> *out);

// A loop site's first step: the lengths buffer (int[n]) the launcher fills.
std::string ask_lengths(BuildContext &cx, const SiteInfo &site, Entry &e, long long n, IndexedWork *work);

// The shape's buffers once its layout and cells are known: the element
// indices (every slot unfilled until the launcher's kernel writes it) and the
// copies. Then the launcher computes the indices, unless there are none.
std::string shape_indices(BuildContext &cx, const SiteInfo &site, Entry &e, int layout, long long max_len,
                          long long elements, unsigned long long cells, cudaStream_t stream, IndexedWork *work);

// After the lengths: their sum and maximum and, unless ELL is asked (request,
// the prepare's layout key), SELL-32's cells (one round trip); the layout
// (indexed_layout); the shape's buffers.
std::string after_lengths(BuildContext &cx, SiteStats &ss, const SiteInfo &site, Entry &e, int dev,
                          int request, bool report_padding, cudaStream_t stream, IndexedWork *work);

// After the indices: each data array's extent, from the least to the greatest
// index inside its allocation (one round trip), for invalidation by range and
// IRREGFIX_VERIFY's fingerprints.
std::string after_indices(BuildContext &cx, SiteStats &ss, const SiteInfo &site, Entry &e, int dev,
                          cudaStream_t stream);

// The last step: the copies gathered through the indices, the entry valid with
// its shape (Entry::shape_valid).
std::string gather_indexed(SiteStats &ss, const SiteInfo &site, Entry &e, cudaStream_t stream);

} // namespace detail
} // namespace irregfix
