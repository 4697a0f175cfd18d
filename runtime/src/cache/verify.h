// irregfix runtime: IRREGFIX_VERIFY, the checking mode of the cache's
// soundness rule. When an entry is built (a miss or a refresh), the bytes of
// every source its copy was built from (Entry::sources' extents: data arrays
// and index arrays) are fingerprinted on the launch's stream; at every cache
// hit they are fingerprinted again, on the launch's stream and synchronously,
// and a difference prints which source changed and aborts: the copy would have
// been served stale. Slow by design: it is for checking, not for speed.
#pragma once

#include "cache.h"
#include "config.h"
#include "device.h"
#include "stats.h"

#include <cuda_runtime.h>

#include <cstddef>
#include <string>

namespace irregfix {
namespace detail {

// fingerprint.cu: adds to *out (device memory, zeroed by the caller) a
// position-dependent 64-bit hash of the bytes [p, p + bytes), on `stream`.
cudaError_t add_fingerprint(const void *p, std::size_t bytes, unsigned long long *out,
                            cudaStream_t stream);

// After a build of e by the site's launch ss.prepares: its sources' fingerprints
// are taken and kept in the entry. "" or why not (the launch falls back).
std::string remember_fingerprints(const Config &cfg, Devices &devices, SiteStats &ss, const SiteInfo &site, int dev,
                                  Entry &e, cudaStream_t stream);

// At a cache hit: the fingerprints again, compared with the build's. A source
// that changed is reported on stderr and the process aborts. "" when the copy
// is current, or why it could not be checked (the launch falls back).
std::string verify_hit(const Config &cfg, Devices &devices, SiteStats &ss, const SiteInfo &site, int dev, Entry &e,
                       cudaStream_t stream);

} // namespace detail
} // namespace irregfix
