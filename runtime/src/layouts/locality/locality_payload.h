// irregfix runtime: the payloads of the locality layout's entries
// (locality.h): a range site's, a neighbour list's, and a kernel without a
// site's. Host-only: an entry's buffers and what the kernel reads of them
// (cache.h, Payload).
#pragma once

#include "cache.h"
#include "padded_payload.h"

#include <cuda_runtime.h>

namespace irregfix {
namespace detail {

// A range entry's payload in the locality order: SELL-32's buffers over the
// threads in the order (RangePayload; perm is the entry's own copy of the
// order), and, for a site that renumbers (SiteInfo::renumbered): when
// `renumbered`, the copy of that array holds renumber[v] for its value v
// (int[n]: thread v's position in the order), and each launch copies each
// array read at those values in the order into renumbered_copies[which],
// elements [renumber_lo, renumber_hi] only (the values' extent, renumber_first
// to renumber_last the entries they were taken from). renumbered_read:
// recorded after the kernels that read the copies, which the next launch's
// copies wait for (a launch on another stream must not overwrite them early).
struct LocalityRangePayload : RangePayload {
  static constexpr int kMaxRenumberedArrays = 8;
  bool renumbered = false;
  DeviceBuffer renumber;
  DeviceBuffer renumbered_copies[kMaxRenumberedArrays];
  long long renumber_lo = 0, renumber_hi = -1, renumber_first = 0, renumber_last = 0;
  cudaEvent_t renumbered_read = nullptr;
  void each_buffer(const BufferFn &f) override {
    RangePayload::each_buffer(f);
    f(renumber);
    for (DeviceBuffer &copy : renumbered_copies)
      f(copy);
  }
  void release() override {
    if (renumbered_read)
      cudaEventDestroy(renumbered_read);
    renumbered_read = nullptr;
  }
};

// A neighbour list's payload in the locality order: its shape, the list in
// the order (order_index, int[jmax * n]: (p, j) at j * n + p, the element of
// the data array that physical thread p reads at j; the data array is read
// in place), the entry's own copy of the order (perm), and the row-major
// stage an int list moves through (stage).
struct LocalityNeighborPayload : NeighborPayload {
  DeviceBuffer order_index, perm, stage;
  void each_buffer(const BufferFn &f) override {
    NeighborPayload::each_buffer(f);
    f(order_index);
    f(perm);
    f(stage);
  }
  PayloadView view() const override {
    PayloadView v = NeighborPayload::view();
    v.perm = perm.as<const int>();
    v.index = order_index.as<const int>();
    v.in_place = true;
    return v;
  }
};

// The payload of a kernel without a site (pattern "order"): its own copy of an order.
struct OrderPayload : Payload {
  DeviceBuffer perm;
  void each_buffer(const BufferFn &f) override { f(perm); }
  PayloadView view() const override {
    PayloadView v;
    v.perm = perm.as<const int>();
    return v;
  }
};

} // namespace detail
} // namespace irregfix
