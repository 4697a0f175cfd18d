// irregfix runtime: the host logic of indexed copies (prepare_indexed,
// continue_indexed; indexed_build.h): their cache key, what a prepare asks
// the launcher for first (the refresh rules), and the sizes of a shape.
// Host-only: test/unit/runtime checks it without a GPU.
#pragma once

#include "cache.h"

#include <irregfix/irregfix.cuh>

#include <cstddef>
#include <string>
#include <vector>

namespace irregfix {
namespace detail {

// An indexed entry's payload: the lengths the launcher's kernel wrote (loop
// sites), SELL-32's slice offsets (when its layout is SELL-32), and the
// element indices its kernels computed, a long long a slot per data array in
// one buffer (array a's at a * cells), kept while the index arrays are
// unchanged (shape_valid), with their addresses as the launcher gets them
// (index_ptrs). `builder`: the build in progress (a host thread's token; 0:
// none), which no other thread touches.
struct IndexedPayload : Payload {
  DeviceBuffer len, slices, indices;
  long long cells = 0;
  std::vector<long long *> index_ptrs;
  unsigned long long builder = 0;
  void each_buffer(const BufferFn &f) override {
    f(len);
    f(slices);
    f(indices);
  }
  PayloadView view() const override {
    PayloadView v;
    v.len = len.as<const int>();
    v.slice_start = slices.as<const long long>();
    return v;
  }
};

// The build in progress on entry e (IndexedPayload::builder; 0: none).
inline unsigned long long indexed_builder(const Entry &e) {
  const IndexedPayload *p = payload_of<IndexedPayload>(e);
  return p ? p->builder : 0;
}

// "" when the launcher's description of the site can be used, else why not
// (no data arrays, a null array or element size, no threads...).
std::string check_indexed_site(const IndexedSite &s);

// The cache key of an indexed site: (site, device, kPatternIndexed, data arrays
// and element sizes, index arrays, loop and scalars (params), n, layout).
CacheKey indexed_key(const char *site_id, int device, const IndexedSite &s, int layout);

// Whether a prepare of `s` names the entry of key k (the hit path's test,
// without building a key).
bool same_indexed_call(const CacheKey &k, const IndexedSite &s, int device, int layout);

// A key's loop flag (see indexed_key).
bool indexed_loop(const CacheKey &k);

// What a prepare that found no servable copy has the launcher compute first:
// nothing when the entry's indices still hold (only data arrays were written
// since they were computed: shape_valid) — the copies are gathered again and
// the launch is ready at once; else the lengths (loop sites) or the indices.
IndexedStep indexed_first_step(const Entry &e, bool loop);

// The bytes of a shape of `cells` slots: the element indices (a long long a
// slot per data array) and each data array's copy. "" or why it cannot be
// (the sizes overflow).
std::string indexed_bytes(unsigned long long cells, const std::vector<std::size_t> &elem_sizes,
                          std::size_t *index_bytes, std::vector<std::size_t> *copy_bytes);

// The bytes a copy built from `elements` element indices moves (the report's
// "bytes remapped"), over every data array.
unsigned long long indexed_moved(unsigned long long elements, const std::vector<std::size_t> &elem_sizes);

// The extent of a data array whose valid indices range over [lo, hi] (lo > hi:
// none; its extent is empty, at ptr) with elements of esz bytes.
Range index_extent_range(std::uintptr_t ptr, std::size_t esz, long long lo, long long hi);

} // namespace detail
} // namespace irregfix
