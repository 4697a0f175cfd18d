// irregfix runtime: builders of gather, two-level gather and neighbour-list
// entries, whole or split into field pieces: ELL copies. See padded.h.
#include "padded.h"

#include <cstdio>
#include <climits>
#include <cstring>

namespace irregfix {
namespace detail {
namespace {

// The gather itself: out[t] = A[idx[t]] for indices in [p.lo, p.hi)
// (A's allocation); sentinels are skipped.
std::string copy_gather(SiteStats &ss, const SiteInfo &site, Entry &e, const GatherPayload &p, const void *idx,
                        int idx_kind, long long n, const void *A, std::size_t esz, Built *built) {
  return plan_copy(
      ss, site, e, 1, n, "remap_gather",
      [=, &e, &p](int, Rows rows, cudaStream_t s) {
        return remap_gather(idx, idx_kind, rows, A, esz, p.lo, p.hi, e.bufs[0], s);
      },
      [&](int) { return static_cast<unsigned long long>(n) * esz; }, built);
}

std::string copy_neighbors(SiteStats &ss, const SiteInfo &site, Entry &e, const NeighborPayload &p,
                           const NeighborArgs &a, long long n, const void *A, std::size_t esz, Built *built) {
  return plan_copy(
      ss, site, e, 1, n, "remap_neighbors",
      [=, &e, &p](int, Rows rows, cudaStream_t s) {
        return remap_neighbors(a.NB, a.nb_kind, a.sj, a.st, p.jmax, a.counts, a.counts_kind, n, rows,
                               A, esz, p.lo, p.hi, e.bufs[0], s);
      },
      [&](int) { return static_cast<unsigned long long>(p.jmax) * static_cast<unsigned long long>(n) * esz; },
      built);
}

// A gather's sources, whole or in pieces: A by its allocation (its valid
// element indices [lo, hi)), then B read whole.
std::string gather_sources(const void *B, int b_kind, long long n, const void *A, std::size_t esz,
                           std::vector<SourceRange> *sources, long long *lo, long long *hi) {
  sources->assign(2, SourceRange{});
  std::string why = whole_index_source(B, b_kind, n, "B", &(*sources)[1]);
  if (why.empty())
    why = gather_source(A, esz, &(*sources)[0], lo, hi);
  return why;
}

// The entry holds a gather's shape from now on: its sources (the last
// index_sources of them index arrays), A's valid indices, one slot a thread.
void keep_gather_shape(Entry &e, GatherPayload &p, std::vector<SourceRange> &&sources, int index_sources,
                       long long lo, long long hi) {
  e.sources = std::move(sources);
  e.index_sources = index_sources;
  p.lo = lo;
  p.hi = hi;
  e.max_len = 1;
  e.shape_valid = true;
}

// A gather's build, whole or in pieces: a refresh (B unchanged, the entry's
// `copies` buffers kept) only copies again; else its sources, its buffers
// (buffers(): the byte cap checked, then made) and its shape, then the copy.
template <class Buffers, class Copy>
std::string gather_build(Entry &e, GatherPayload &p, std::size_t copies, const void *B, int b_kind, long long n,
                         const void *A, std::size_t esz, Buffers buffers, Copy copy) {
  if (e.shape_valid && e.bufs.size() == copies)
    return copy();
  std::vector<SourceRange> sources;
  long long lo = 0, hi = 0;
  std::string why = gather_sources(B, b_kind, n, A, esz, &sources, &lo, &hi);
  if (why.empty())
    why = buffers();
  if (!why.empty())
    return why;
  keep_gather_shape(e, p, std::move(sources), 1, lo, hi);
  return copy();
}

} // namespace

std::string build_gather(BuildContext &cx, SiteStats &ss, const SiteInfo &site, Entry &e, const void *B,
                         int b_kind, long long n, const void *A, std::size_t esz, Built *built) {
  GatherPayload &p = payload<GatherPayload>(e);
  return gather_build(
      e, p, 1, B, b_kind, n, A, esz,
      [&]() -> std::string {
        const std::size_t need = static_cast<std::size_t>(n) * esz;
        if (!cx.fits(e.bytes(), need))
          return "over IRREGFIX_MAX_BYTES";
        return ensure_copies(cx, site, e, {need});
      },
      [&] { return copy_gather(ss, site, e, p, B, b_kind, n, A, esz, built); });
}

std::string build_gather2(BuildContext &cx, SiteStats &ss, const SiteInfo &site, Entry &e, int dev,
                          const void *B, int b_kind, const void *C, int c_kind, long long n,
                          const void *A, std::size_t esz, cudaStream_t stream, Built *built) {
  GatherPayload &p = payload<GatherPayload>(e);
  if (e.shape_valid && e.bufs.size() == 1 && p.composed.ptr)
    return copy_gather(ss, site, e, p, p.composed.ptr, kIndexI64, n, A, esz, built);
  std::vector<SourceRange> sources(3);
  long long rlo = 0, rhi = 0;
  std::string why = whole_index_source(C, c_kind, n, "C", &sources[2]);
  if (!why.empty())
    return why;
  long long cmin = 0, cmax = 0;
  bool fits = false;
  why = read_index_minmax(cx, ss, site, dev, C, c_kind, n, stream, &cmin, &cmax, &fits);
  if (!why.empty())
    return why;
  if (!fits)
    return "bad index data: C indexes outside B's allocation";
  why = index_source(B, b_kind, cmin, cmax + 1, &sources[1], &rlo, &rhi);
  if (!why.empty())
    return why;
  if (cmin < rlo || cmax >= rhi)
    return "bad index data: C indexes outside B's allocation";
  long long lo = 0, hi = 0;
  why = gather_source(A, esz, &sources[0], &lo, &hi);
  if (!why.empty())
    return why;
  const std::size_t need = static_cast<std::size_t>(n) * esz;
  const std::size_t aux = static_cast<std::size_t>(n) * sizeof(long long);
  if (!cx.fits(e.bytes(), need + aux))
    return "over IRREGFIX_MAX_BYTES";
  why = ensure_buffer(cx.cfg, site, p.composed, aux);
  if (!why.empty())
    return why;
  why = ensure_copies(cx, site, e, {need});
  if (!why.empty())
    return why;
  IRREGFIX_TRY(compose_indices(B, b_kind, C, c_kind, n, rlo, rhi, p.composed.as<long long>(), stream));
  keep_gather_shape(e, p, std::move(sources), 2, lo, hi);
  return copy_gather(ss, site, e, p, p.composed.ptr, kIndexI64, n, A, esz, built);
}

std::string neighbor_shape(BuildContext &cx, SiteStats &ss, const SiteInfo &site, int dev,
                           const NeighborArgs &a, long long n, const void *A, std::size_t esz,
                           cudaStream_t stream, NeighborShape *out) {
  if (a.m < 0)
    return "bad index data: negative neighbour count m";
  NeighborShape &s = *out;
  s.sources.assign(a.counts ? 3 : 2, SourceRange{});
  s.jmax = a.m;
  std::string why;
  if (a.counts) {
    why = whole_index_source(a.counts, a.counts_kind, n, "counts", &s.sources[2]);
    if (!why.empty())
      return why;
    long long kmin = 0, kmax = 0;
    bool fits = false;
    why = read_index_minmax(cx, ss, site, dev, a.counts, a.counts_kind, n, stream, &kmin, &kmax, &fits);
    if (!why.empty())
      return why;
    if (!fits)
      return "bad index data: a neighbour count does not fit a long long";
    s.jmax = kmax > 0 ? kmax : 0;
  }
  // Offsets j*sj + t*st over j < jmax, t < n: their least and greatest.
  long long omin = 0, omax = 0;
  if (s.jmax > 0) {
    long long jx = 0, tx = 0;
    if (__builtin_mul_overflow(s.jmax - 1, a.sj, &jx) || __builtin_mul_overflow(n - 1, a.st, &tx) ||
        __builtin_add_overflow(jx < 0 ? jx : 0, tx < 0 ? tx : 0, &omin) ||
        __builtin_add_overflow(jx > 0 ? jx : 0, tx > 0 ? tx : 0, &omax))
      return "bad index data: neighbour list offsets overflow";
  }
  long long nlo = 0, nhi = 0;
  why = index_source(a.NB, a.nb_kind, omin, s.jmax > 0 ? omax + 1 : omin, &s.sources[1], &nlo, &nhi);
  if (!why.empty())
    return why;
  if (s.jmax > 0 && (omin < nlo || omax >= nhi))
    return "bad index data: the neighbour list reaches outside its allocation";
  return gather_source(A, esz, &s.sources[0], &s.lo, &s.hi);
}

void set_neighbor_shape(Entry &e, NeighborPayload &p, NeighborShape &&s) {
  e.index_sources = static_cast<int>(s.sources.size()) - 1; // NB, and counts when given
  e.sources = std::move(s.sources);
  p.lo = s.lo;
  p.hi = s.hi;
  p.jmax = s.jmax;
  e.max_len = static_cast<int>(s.jmax < INT_MAX ? s.jmax : INT_MAX);
  e.shape_valid = true;
}

namespace {
// Why no copy is timed for threads that, as numbered, read `sectors` a read
// (as the program-wide renumbering measured their graph, or as measured here).
std::string neighbor_copy_ruled_out(double sectors, bool by_domain, Built *built) {
  char why[200];
  std::snprintf(why, sizeof why,
                "its threads, as numbered, read %.3f sectors a read%s: a copy cannot gather better (no layout timed)",
                sectors, by_domain ? " (the program-wide renumbering's measure of its graph)" : "");
  built->ruled_out = why;
  return why;
}
} // namespace

std::string build_neighbors(BuildContext &cx, Orders &orders, SiteStats &ss, const SiteInfo &site, Entry &e,
                            int dev,
                            const NeighborArgs &a, long long n, const void *A, std::size_t esz,
                            const LayoutRequest &request, cudaStream_t stream, Built *built) {
  NeighborPayload &p = payload<NeighborPayload>(e);
  if (e.shape_valid && e.bufs.size() == 1)
    return copy_neighbors(ss, site, e, p, a, n, A, esz, built);
  // The program-wide renumbering measured this graph as numbered and declined
  // it: measuring it again would cost a pass, a wait for the device and, the
  // first time, loading the measure's kernels, to find what is known.
  const bool measures = neighbor_measures_order(request, n);
  if (measures && request.numbered_sectors >= 0 && !neighbor_copy_pays(request.numbered_sectors))
    return neighbor_copy_ruled_out(request.numbered_sectors, true, built);
  NeighborShape shape;
  std::string why = neighbor_shape(cx, ss, site, dev, a, n, A, esz, stream, &shape);
  if (!why.empty())
    return why;
  // Under auto, a launch being profiled proposes its candidates: sharing when
  // asked, the locality order when it may permute and its threads, as
  // numbered, read far-apart elements (measured once the list is validated).
  // (Not where its scattered direct accesses would leave the L2: order_fits_cache;
  // a thread's own, its output, taken as wide as the element it gathers.)
  double sectors = 0;
  if (measures && order_in_cache(cx, ss, dev, n, esz) &&
      (why = neighbor_order_sectors(cx, orders, site, dev, a, n, shape.jmax, shape.lo, shape.hi, esz, stream,
                                    &sectors)) != "")
    return why;
  if (sectors > 0 && !neighbor_copy_pays(sectors))
    return neighbor_copy_ruled_out(sectors, false, built);
  built->proposals = neighbor_candidates(cx.cfg, request, locality_pays(sectors), built->proposed);
  unsigned long long cells = 0;
  std::size_t need = 0;
  if (!ell_cells_of(n, shape.jmax, &cells))
    return "remapped copy too large";
  why = copy_bytes(cells, esz, &need);
  if (!why.empty())
    return why;
  if (!cx.fits(e.bytes(), need))
    return "over IRREGFIX_MAX_BYTES";
  why = ensure_copies(cx, site, e, {need});
  if (!why.empty())
    return why;
  set_neighbor_shape(e, p, std::move(shape));
  return copy_neighbors(ss, site, e, p, a, n, A, esz, built);
}

namespace {

// The device buffers of a split copy: one a piece, `cells` elements each.
std::string ensure_pieces(BuildContext &cx, const SiteInfo &site, Entry &e, unsigned long long cells,
                          const FieldPlan &plan, std::size_t *total) {
  std::vector<std::size_t> need(plan.pieces);
  *total = 0;
  for (int q = 0; q < plan.pieces; ++q) {
    if (std::string why = copy_bytes(cells, piece_bytes(plan, q), &need[q]); !why.empty())
      return why;
    *total += need[q];
  }
  if (!cx.fits(e.bytes(), *total))
    return "over IRREGFIX_MAX_BYTES";
  return ensure_copies(cx, site, e, need);
}

FieldOut piece_buffers(const Entry &e) {
  FieldOut out;
  for (std::size_t q = 0; q < e.bufs.size() && q < static_cast<std::size_t>(kMaxFieldPieces); ++q)
    out.p[q] = e.bufs[q];
  return out;
}

unsigned long long plan_bytes(const FieldPlan &plan, unsigned long long cells) {
  unsigned long long b = 0;
  for (int q = 0; q < plan.pieces; ++q)
    b += cells * piece_bytes(plan, q);
  return b;
}

// One kernel writes every piece: one copy in the plan of the launch.
std::string copy_gather_fields(SiteStats &ss, const SiteInfo &site, Entry &e, const GatherPayload &p, const void *B,
                               int b_kind, long long n, const void *A, const FieldPlan &plan, Built *built) {
  return plan_copy(
      ss, site, e, 1, n, "remap_gather_fields",
      [=, &e, &p](int, Rows rows, cudaStream_t s) {
        return remap_gather_fields(B, b_kind, rows, A, p.lo, p.hi, plan, piece_buffers(e), s);
      },
      [&](int) { return plan_bytes(plan, static_cast<unsigned long long>(n)); }, built);
}

std::string copy_neighbors_fields(SiteStats &ss, const SiteInfo &site, Entry &e, const NeighborPayload &p,
                                  const NeighborArgs &a, long long n, const void *A, const FieldPlan &plan,
                                  Built *built) {
  return plan_copy(
      ss, site, e, 1, n, "remap_neighbors_fields",
      [=, &e, &p](int, Rows rows, cudaStream_t s) {
        return remap_neighbors_fields(a.NB, a.nb_kind, a.sj, a.st, p.jmax, a.counts, a.counts_kind, n, rows, A,
                                      p.lo, p.hi, plan, piece_buffers(e), s);
      },
      [&](int) { return plan_bytes(plan, static_cast<unsigned long long>(p.jmax) * static_cast<unsigned long long>(n)); },
      built);
}

} // namespace

std::string build_gather_fields(BuildContext &cx, SiteStats &ss, const SiteInfo &site, Entry &e, const void *B,
                                int b_kind, long long n, const void *A, std::size_t esz, const FieldPlan &plan,
                                Built *built) {
  GatherPayload &p = payload<GatherPayload>(e);
  return gather_build(
      e, p, static_cast<std::size_t>(plan.pieces), B, b_kind, n, A, esz,
      [&] {
        std::size_t total = 0;
        return ensure_pieces(cx, site, e, static_cast<unsigned long long>(n), plan, &total);
      },
      [&] { return copy_gather_fields(ss, site, e, p, B, b_kind, n, A, plan, built); });
}

std::string build_neighbors_fields(BuildContext &cx, SiteStats &ss, const SiteInfo &site, Entry &e, int dev,
                                   const NeighborArgs &a, long long n, const void *A, std::size_t esz,
                                   const FieldPlan &plan, cudaStream_t stream, Built *built) {
  NeighborPayload &p = payload<NeighborPayload>(e);
  if (e.shape_valid && e.bufs.size() == static_cast<std::size_t>(plan.pieces))
    return copy_neighbors_fields(ss, site, e, p, a, n, A, plan, built);
  NeighborShape shape;
  std::string why = neighbor_shape(cx, ss, site, dev, a, n, A, esz, stream, &shape);
  if (!why.empty())
    return why;
  unsigned long long cells = 0;
  if (!ell_cells_of(n, shape.jmax, &cells))
    return "remapped copy too large";
  std::size_t total = 0;
  if ((why = ensure_pieces(cx, site, e, cells, plan, &total)) != "")
    return why;
  set_neighbor_shape(e, p, std::move(shape));
  return copy_neighbors_fields(ss, site, e, p, a, n, A, plan, built);
}

} // namespace detail
} // namespace irregfix
