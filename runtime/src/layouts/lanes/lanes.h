// irregfix runtime: the lanes layout's builder (warp-cooperative rows). A
// lanes entry copies nothing: the variant reads the original arrays in place.
// Its build reads the range's extent, B[0] and B[n] (one small round trip),
// checks it, and chooses the lanes a row from the mean row length
// (choose_lanes). The entry depends on B's values (a write to B makes it stale
// and the next launch reads the extent again) and on where the data arrays
// lie, not on their values: writing them leaves it valid.
#pragma once

#include "build.h"

#include <irregfix/irregfix.cuh>

namespace irregfix {
namespace detail {

// A range's extent: rows [0, n) read elements [first, last) of the arrays.
struct RowExtent {
  long long first = 0, last = 0;
  unsigned long long nnz() const { return last > first ? static_cast<unsigned long long>(last - first) : 0; }
};

// Reads B[0] and B[n] on `stream` (the stream synchronised). "" or why not
// (B not device memory, B[n] < B[0], a value beyond a long long).
std::string read_row_extent(const SiteInfo &site, const void *B, int b_kind, long long n, cudaStream_t stream,
                            RowExtent *out);

// Builds entry e in the lanes layout for the request r (its key kLayoutLanes,
// or auto's when the range model proposed nothing else: then the lanes layout
// is its one candidate). `known`: the extent when the caller read it already.
std::string build_lanes_range(SiteStats &ss, const SiteInfo &site, Entry &e,
                              const LayoutRequest &r, const void *B, int b_kind, long long n, int count,
                              const void *const *arrays, const std::size_t *elem_sizes, const RowExtent *known,
                              cudaStream_t stream, Built *built);

} // namespace detail
} // namespace irregfix
