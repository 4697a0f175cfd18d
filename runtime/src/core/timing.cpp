// irregfix runtime: GPU time measured with events. See timing.h.
#include "timing.h"

namespace irregfix {
namespace detail {

cudaError_t event_done(cudaEvent_t e, bool wait) {
  return wait ? cudaEventSynchronize(e) : cudaEventQuery(e);
}

float elapsed_ms(cudaEvent_t a, cudaEvent_t b, bool *ok) {
  float ms = 0;
  if (cudaEventElapsedTime(&ms, a, b) != cudaSuccess) {
    cudaGetLastError();
    *ok = false;
  }
  return ms;
}

void start_timing(cudaStream_t stream, cudaEvent_t *start, cudaEvent_t *stop) {
  *start = *stop = nullptr;
  if (cudaEventCreate(start) != cudaSuccess || cudaEventCreate(stop) != cudaSuccess ||
      cudaEventRecord(*start, stream) != cudaSuccess) {
    if (*start)
      cudaEventDestroy(*start);
    if (*stop)
      cudaEventDestroy(*stop);
    *start = *stop = nullptr;
    cudaGetLastError();
  }
}

void stop_timing(SiteStats &ss, cudaStream_t stream, cudaEvent_t start, cudaEvent_t stop) {
  if (!start)
    return;
  if (cudaEventRecord(stop, stream) != cudaSuccess) {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaGetLastError();
    return;
  }
  ss.pending.emplace_back(start, stop);
}

// Never called on the hit path.
void resolve_timings(SiteStats &s, bool wait) {
  auto it = s.pending.begin();
  while (it != s.pending.end()) {
    const cudaError_t q = event_done(it->second, wait);
    if (q == cudaErrorNotReady) {
      ++it;
      continue;
    }
    bool ok = q == cudaSuccess;
    const float ms = ok ? elapsed_ms(it->first, it->second, &ok) : 0;
    if (ok) {
      s.remap_ms += ms;
      ++s.remaps_timed;
    }
    cudaEventDestroy(it->first);
    cudaEventDestroy(it->second);
    it = s.pending.erase(it);
  }
  cudaGetLastError();
}

} // namespace detail
} // namespace irregfix
