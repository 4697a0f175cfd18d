// irregfix runtime: GPU time measured with events, never by waiting on the hit
// path: events recorded around work on a stream, and read back later, when
// they have completed (or, for reports and resets, waiting for them).
#pragma once

#include "stats.h"

#include <cuda_runtime.h>

namespace irregfix {
namespace detail {

// Whether event e has completed (waiting for it when wait): cudaSuccess,
// cudaErrorNotReady, or the error; and the milliseconds between two completed
// events (*ok cleared on failure).
cudaError_t event_done(cudaEvent_t e, bool wait);
float elapsed_ms(cudaEvent_t a, cudaEvent_t b, bool *ok);

// Events around a remap on the stream, read later by resolve_timings (no
// events, and no timing, when they cannot be created).
void start_timing(cudaStream_t stream, cudaEvent_t *start, cudaEvent_t *stop);
void stop_timing(SiteStats &ss, cudaStream_t stream, cudaEvent_t start, cudaEvent_t stop);
// Reads the remap timings of a site whose events have completed (waiting for
// them when wait) into its remap time.
void resolve_timings(SiteStats &s, bool wait);

} // namespace detail
} // namespace irregfix
