// irregfix runtime: the payload of a sharing entry (sharing.h). Host-only: an
// entry's buffers and what the kernel reads of them (cache.h, Payload).
#pragma once

#include "cache.h"
#include "padded_payload.h"

namespace irregfix {
namespace detail {

// A sharing entry's payload: the neighbour list's shape, and per block the
// distinct valid indices its threads read (less lo, sorted, block after
// block: uniq), where each block's start (block_first, blocks + 1), each
// (t, j)'s position in its block's set (local, jmax * n), the stage a block
// needs (shared_bytes), and the order its blocks group the threads in (perm;
// none: as numbered).
struct SharingPayload : NeighborPayload {
  DeviceBuffer uniq, block_first, local, perm;
  unsigned shared_bytes = 0;
  void each_buffer(const BufferFn &f) override {
    NeighborPayload::each_buffer(f);
    f(uniq);
    f(block_first);
    f(local);
    f(perm);
  }
  PayloadView view() const override {
    PayloadView v = NeighborPayload::view();
    v.local = local.as<const int>();
    v.block_first = block_first.as<const int>();
    v.shared_bytes = shared_bytes;
    v.perm = perm.as<const int>();
    return v;
  }
};

} // namespace detail
} // namespace irregfix
