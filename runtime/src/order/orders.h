// irregfix runtime: the locality orders (order.h) the runtime has computed,
// per device and access graph, and what it measured of them. A build that
// needs one computes it, or keeps the one it has while it still gathers (its
// sampled measure, checked when the lists change); a profiled launch measures
// its threads in their own order to tell whether one is worth timing. The
// locality layout runs threads in them, the sharing layout groups its blocks
// by them, and the padded layouts' proposals measure with them.
#pragma once

#include "build.h"
#include "order.h"

#include <cstddef>
#include <map>
#include <string>

namespace irregfix {
namespace detail {

// The orders computed so far (State::orders).
using Orders = std::map<OrderKey, Order>;

// A range site's data is read through the array that holds thread indices;
// its element size is unknown: sectors are counted for 4-byte elements.
constexpr int kRangeSectorElements = 8;
// Elements of esz bytes in a 32-byte sector (at least 1).
int sector_elements(std::size_t esz);

// What the threads of a neighbour list, and of a range site through its array
// of thread indices `arr`, read (the order's access graph).
AccessList neighbor_access(const NeighborArgs &a, long long n, long long jmax, long long lo, long long hi);
AccessList range_access(const void *B, int b_kind, long long n, const void *arr, std::size_t esz);

// The order for graph a, for an entry being built (new, or its lists
// changed): computed when there is none, or when it decayed on the lists as
// they are now; else kept. Its computation's GPU time is added to *setup_ms
// (one-time work, Built::setup_ms). The site's statistics describe it.
std::string locality_order(BuildContext &cx, Orders &orders, SiteStats &ss, const SiteInfo &site, int dev,
                           const AccessList &a, int per_sector, cudaStream_t stream, Order **out,
                           double *setup_ms);
// An entry's own copy of order o over n threads, in *perm (it frees its
// buffers itself; a later recomputation of o does not touch it).
std::string keep_order(const BuildContext &cx, const SiteInfo &site, void **perm, std::size_t *perm_bytes,
                       const Order &o, long long n, cudaStream_t stream);
// What the report says of an order: its measures, computations and checks.
std::string describe_order(const Order &o);

// Which of a range site's arrays (4- or 8-byte elements, the first 8) holds
// thread indices: most of its values over [lo, hi) in [0, n) (a square
// matrix's columns); *chosen -1 when none does. One round trip.
std::string range_graph_array(BuildContext &cx, const SiteInfo &site, int dev, long long n, int count,
                              const void *const *arrays, const std::size_t *elem_sizes, long long lo,
                              long long hi, cudaStream_t stream, int *chosen);

// For auto's proposals: whether n elements of esz bytes fit the share of the
// device's L2 an order needs (order_fits_cache); when not, the reason goes to
// the site's statistics (an unknown L2 size does not bound).
bool order_in_cache(BuildContext &cx, SiteStats &ss, int dev, long long n, std::size_t esz);

// For auto's proposals: the sampled measure of the threads in their own order
// (order.h; whether a locality order is worth timing is locality_pays'). One
// round trip, remembered with the order's record.
std::string range_order_sectors(BuildContext &cx, Orders &orders, const SiteInfo &site, int dev, const void *B,
                                int b_kind, long long n, const void *arr, std::size_t esz, cudaStream_t stream,
                                double *sectors);
std::string neighbor_order_sectors(BuildContext &cx, Orders &orders, const SiteInfo &site, int dev,
                                   const NeighborArgs &args, long long n, long long jmax, long long lo, long long hi,
                                   std::size_t esz, cudaStream_t stream, double *sectors);

// Frees the orders computed from memory at p (every order when p is null).
void forget_orders(Orders &orders, const void *p);

} // namespace detail
} // namespace irregfix
