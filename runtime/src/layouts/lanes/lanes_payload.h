// irregfix runtime: the payload of a lanes entry (lanes.h): no buffer, only
// the lanes each row runs with, which the kernel reads in its View.
// Host-only.
#pragma once

#include "cache.h"

namespace irregfix {
namespace detail {

struct LanesPayload : Payload {
  int lanes = 0;
  double mean = 0; // the rows' mean length it was chosen for
  void each_buffer(const BufferFn &) override {}
  PayloadView view() const override {
    PayloadView v;
    v.lanes = lanes;
    v.width = 0; // the variant keeps the original's loop: no iteration count to read
    return v;
  }
};

} // namespace detail
} // namespace irregfix
