// irregfix runtime: what thread t of an AccessList (order.h) reads, on the
// device; shared by the order's kernels and the sampled measure's.
#pragma once

#include "order.h"
#include "remap_dispatch.cuh"

namespace irregfix {
namespace detail {

// Thread t's reads: how many, and where its list starts (see AccessList).
__device__ __forceinline__ long long access_count(const AccessList &a, long long t, long long *start) {
  if (a.kind == AccessList::kRange) {
    long long b0 = 0, b1 = 0;
    if (!load_index(a.B, a.b_kind, t, &b0) || !load_index(a.B, a.b_kind, t + 1, &b1) || b1 < b0)
      return 0;
    *start = b0;
    return b1 - b0;
  }
  long long c = a.jmax;
  if (a.counts) {
    long long v = 0;
    if (!load_index(a.counts, a.counts_kind, t, &v))
      v = a.jmax;
    c = v < 0 ? 0 : v < a.jmax ? v : a.jmax;
  }
  *start = t * a.st;
  return c;
}

// Its j-th element, when it is one (not a sentinel outside [lo, hi)).
__device__ __forceinline__ bool access_elem(const AccessList &a, long long start, long long j, long long *e) {
  const long long at = a.kind == AccessList::kRange ? start + j : start + j * a.sj;
  return load_index(a.idx, a.idx_kind, at, e) && *e >= a.lo && *e < a.hi;
}

// Element e as `renumber` numbers it (null: as read), as a domain's
// renumbered launches read it: the measures of an order count both ways.
__device__ __forceinline__ long long renumbered(const AccessList &a, const int *renumber, long long e) {
  return renumber && e >= 0 && e < a.n ? renumber[e] : e;
}

} // namespace detail
} // namespace irregfix
