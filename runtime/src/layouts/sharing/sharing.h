// irregfix runtime: the sharing layout (kLayoutSharing, Wu's sharing) of
// neighbour-list sites: per thread block of the launch, the distinct elements
// its threads read, copied once (coalesced) and staged by the kernel in shared
// memory. With a permutable kernel the blocks group the threads in the
// locality order (Wu's clustering), which keeps the sets small.
#pragma once

#include "orders.h"
#include "padded.h"
#include "sharing_payload.h"

#include <cstddef>
#include <string>

namespace irregfix {
namespace detail {

// Sharing of a neighbour list, for launches of e.key.params[3] threads a
// block (in the locality order when e.key.params[4] is 1): per block, its
// threads' distinct valid indices (a CUB segmented sort, one round trip for
// their total and largest count), each (t, j)'s position among them, and the
// copy of those elements. Refused when the largest set does not fit the shared
// memory the kernel (site.transformed) may have, whose limit is raised when it
// must. A refresh after a write to A gathers the copy again from the kept sets.
std::string build_sharing(BuildContext &cx, Orders &orders, SiteStats &ss, const SiteInfo &site, Entry &e, int dev,
                          const NeighborArgs &a, long long n, const void *A, std::size_t esz, cudaStream_t stream,
                          Built *built);

} // namespace detail
} // namespace irregfix
