// irregfix runtime: the payload of a scatter entry (scatter_build.h): the
// inspector's segments. Host-only: an entry's buffers (cache.h, Payload).
#pragma once

#include "cache.h"

namespace irregfix {
namespace detail {

// The tables a scatter site's inspection keeps (ScatterPayload::tables):
// targets (unsigned[n]), the segments' first positions in segment order
// (int[n + 1]), the item ids in that order (int[n]), each item's slot, where
// the variant writes its contribution (int[n]), per segment its first slot in
// the region of long segments (int[n + 1]) and its first chunk (int[n + 1]),
// and per chunk its segment (most_chunks(n)).
enum ScatterTable : int {
  kScatterTargets,
  kScatterFirst,
  kScatterThreads,
  kScatterSlots,
  kScatterRegionFirst,
  kScatterChunkFirst,
  kScatterChunkSegment,
  kScatterTables
};

// A scatter entry's payload: the inspector's tables, kept while the index
// arrays are unchanged: `segments` distinct targets, a region of `region`
// slots, `chunks` chunks; A's allocation as element indices [lo, hi).
struct ScatterPayload : Payload {
  DeviceBuffer tables[kScatterTables];
  long long segments = 0, region = 0, chunks = 0;
  long long lo = 0, hi = 0;
  void each_buffer(const BufferFn &f) override {
    for (DeviceBuffer &t : tables)
      f(t);
  }
  template <class T> T *table(ScatterTable k) const { return tables[k].as<T>(); }
};

} // namespace detail
} // namespace irregfix
