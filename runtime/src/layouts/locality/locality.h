// irregfix runtime: the locality layout (kLayoutLocality): a permutable
// launch's threads run in a locality order (orders.h) computed from the index
// arrays. Range sites: SELL-32 over the threads in that order, and a site that
// renumbers (SiteInfo::renumbered) reads its gather through a copy in that
// order (prepare_renumbered). Neighbour sites: the neighbour list copied in
// that order, the data array read in place. A kernel without a site (pattern
// "order", prepare_order): its own copy of an order a site computed.
#pragma once

#include "locality_payload.h"
#include "orders.h"
#include "padded.h"

#include <cstddef>
#include <string>

namespace irregfix {
namespace detail {

// A range entry in the locality order: its rows surveyed as for SELL-32
// (range_survey), the order of the graph of the array that holds thread
// indices, the lengths and slices in that order, and the renumbering of a
// site that renumbers. A refresh with B unchanged checks the renumbered
// array's values again and copies the arrays.
std::string build_locality_range(BuildContext &cx, Orders &orders, SiteStats &ss, const SiteInfo &site, Entry &e,
                                 int dev, const LayoutRequest &request, const void *B, int b_kind, long long n,
                                 int count, const void *const *arrays, const std::size_t *elem_sizes,
                                 cudaStream_t stream, Built *built);

// A neighbour list in the locality order: the order (computed, or kept while
// it has not decayed), the list copied in it (the entry's copy, int[jmax * n],
// order_index), and the data array read in place, so a write to it leaves the
// entry valid. Element indices must fit an int.
std::string build_locality_neighbors(BuildContext &cx, Orders &orders, SiteStats &ss, const SiteInfo &site,
                                     Entry &e, int dev, const NeighborArgs &a, long long n, const void *A,
                                     std::size_t esz, cudaStream_t stream, Built *built);

// The order a launch without a site (pattern "order", prepare_order) runs in:
// one that a site computed over as many threads as `shape` runs (its n needs
// grid.x blocks of block.x), on device dev; its perm buffer, n and how many
// times it was computed (a recomputed order is another copy). "" or why none.
std::string pick_order(const Config &cfg, const Orders &orders, int dev, const LaunchShape &shape,
                       const void **perm, long long *n, long long *computed);
// The entry of such a launch: its own copy of that order (OrderPayload), in
// the locality layout. Fails when the order is gone.
std::string build_order(BuildContext &cx, const Orders &orders, SiteStats &ss, const SiteInfo &site, Entry &e,
                        const void *order_perm, long long n, Built *built);

// prepare_renumbered: whether entry e (the one its site's prepare_range
// served) renumbers; if so, the copy of `gathered` in its order (elements of
// elem_size bytes, the copy `which` of the entry's), made on `stream` after
// every launch that may still read the previous one: *out, or why not.
bool renumbers(const Entry &e);
std::string renumbered_copy(BuildContext &cx, const SiteInfo &site, Entry &e, int which, const void *gathered,
                            std::size_t elem_size, cudaStream_t stream, const void **out);
// After the kernels that read e's renumbered copies (on `stream`): the next
// launch's copies wait for them.
void renumbered_read(Entry &e, cudaStream_t stream);

} // namespace detail
} // namespace irregfix
