// irregfix runtime: the payloads of the padded layouts' entries (padded.h):
// range, two-level range, gather and neighbour-list entries. Host-only: an
// entry's buffers and what the kernel reads of them (cache.h, Payload).
#pragma once

#include "cache.h"

namespace irregfix {
namespace detail {

// A range entry's (ELL, SELL-32, SELL-32-sigma; the locality layout's derives
// from it): the row lengths, SELL-32's slice offsets, and the thread
// permutation of SELL-32-sigma (or of the locality order).
struct RangePayload : Payload {
  DeviceBuffer len, slices, perm;
  void each_buffer(const BufferFn &f) override {
    f(len);
    f(slices);
    f(perm);
  }
  PayloadView view() const override {
    PayloadView v;
    v.len = len.as<const int>();
    v.slice_start = slices.as<const long long>();
    v.perm = perm.as<const int>();
    return v;
  }
};

// A two-level range entry's: the lengths and the row starts B[C[t]].
struct Range2Payload : Payload {
  DeviceBuffer len, starts;
  void each_buffer(const BufferFn &f) override {
    f(len);
    f(starts);
  }
  PayloadView view() const override {
    PayloadView v;
    v.len = len.as<const int>();
    return v;
  }
};

// A gather's (whole or in field pieces): the element indices of A's
// allocation, [lo, hi) (others are sentinels); a two-level gather's composed
// indices B[C[t]] (long long[n]).
struct GatherPayload : Payload {
  long long lo = 0, hi = 0;
  DeviceBuffer composed;
  void each_buffer(const BufferFn &f) override { f(composed); }
};

// A neighbour list's (ELL, whole or in field pieces; the sharing and locality
// layouts' derive from it): A's valid element indices and the list's columns.
struct NeighborPayload : Payload {
  long long lo = 0, hi = 0, jmax = 0;
  void each_buffer(const BufferFn &) override {}
  PayloadView view() const override {
    PayloadView v;
    v.width = jmax;
    return v;
  }
};

} // namespace detail
} // namespace irregfix
