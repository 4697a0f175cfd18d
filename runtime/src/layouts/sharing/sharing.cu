// irregfix runtime: the sharing layout's builder. See sharing.h.
#include "sharing.h"

#include "sharing_kernels.h"

#include <climits>

namespace irregfix {
namespace detail {
namespace {

// The default dynamic shared memory limit of a kernel: all a launch may have
// without cudaFuncAttributeMaxDynamicSharedMemorySize.
constexpr unsigned long long kDefaultDynamicShared = 48 * 1024;

// The copy: each block's distinct elements gathered again from the kept sets
// (by a chunked launch, block by block).
std::string copy_sharing(SiteStats &ss, const SiteInfo &site, Entry &e, const SharingPayload &p, long long n,
                         const void *A, std::size_t esz, Built *built) {
  const int block = static_cast<int>(e.key.params[3]);
  return plan_copy(
      ss, site, e, 1, n, "remap_sharing",
      [=, &e, &p](int, Rows rows, cudaStream_t s) {
        return remap_sharing(p.uniq.as<const unsigned>(), p.block_first.as<const int>(), block, n, e.nnz, rows, A,
                             esz, p.lo, e.bufs[0], s);
      },
      [&](int) { return static_cast<unsigned long long>(e.nnz) * esz; }, built);
}

// The transformed kernel may have `need` bytes of dynamic shared memory (its
// limit raised when it must); without its handle, what any kernel may have.
std::string fit_shared_memory(const SiteInfo &site, int dev, unsigned long long need) {
  unsigned long long static_bytes = 0, limit = kDefaultDynamicShared, optin = kDefaultDynamicShared;
  if (site.transformed) {
    cudaFuncAttributes fa{};
    IRREGFIX_TRY(cudaFuncGetAttributes(&fa, site.transformed));
    int device_optin = 0;
    IRREGFIX_TRY(cudaDeviceGetAttribute(&device_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    static_bytes = fa.sharedSizeBytes;
    limit = static_cast<unsigned long long>(fa.maxDynamicSharedSizeBytes);
    optin = static_cast<unsigned long long>(device_optin);
  }
  unsigned long long raise_to = 0;
  const std::string why = plan_shared_memory(need, static_bytes, limit, optin, &raise_to);
  if (!why.empty())
    return why;
  if (raise_to > 0)
    IRREGFIX_TRY(cudaFuncSetAttribute(site.transformed, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      static_cast<int>(raise_to)));
  return "";
}

// The locality order of a neighbour list's threads (computed, or kept while
// it has not decayed), copied into p.perm: the entry's blocks group the
// threads in that order.
std::string order_into(BuildContext &cx, Orders &orders, SiteStats &ss, const SiteInfo &site, Entry &e,
                       SharingPayload &p, int dev, const NeighborArgs &a, long long n, const NeighborShape &shape, std::size_t esz,
                       cudaStream_t stream, double *setup_ms) {
  if (n > INT_MAX)
    return "locality order: more than INT_MAX threads";
  Order *o = nullptr;
  std::string why = locality_order(cx, orders, ss, site, dev, neighbor_access(a, n, shape.jmax, shape.lo, shape.hi),
                                   sector_elements(esz), stream, &o, setup_ms);
  if (!why.empty())
    return why;
  const std::size_t perm_bytes = static_cast<std::size_t>(n) * sizeof(int);
  if (perm_bytes > p.perm.bytes && !cx.fits(e.bytes(), perm_bytes))
    return "over IRREGFIX_MAX_BYTES";
  return keep_order(cx, site, &p.perm.ptr, &p.perm.bytes, *o, n, stream);
}

} // namespace

std::string build_sharing(BuildContext &cx, Orders &orders, SiteStats &ss, const SiteInfo &site, Entry &e, int dev,
                          const NeighborArgs &a, long long n, const void *A, std::size_t esz,
                          cudaStream_t stream, Built *built) {
  SharingPayload &p = payload<SharingPayload>(e);
  if (e.shape_valid && p.uniq.ptr && e.bufs.size() == 1)
    return copy_sharing(ss, site, e, p, n, A, esz, built);
  const long long block = e.key.params.size() > 3 ? e.key.params[3] : 0;
  if (block <= 0 || block > INT_MAX)
    return "sharing: the launch's block size is unknown";
  NeighborShape shape;
  std::string why = neighbor_shape(cx, ss, site, dev, a, n, A, esz, stream, &shape);
  if (!why.empty())
    return why;
  long long cells = 0;
  if (n > INT_MAX || __builtin_mul_overflow(shape.jmax, n, &cells) || cells > INT_MAX)
    return "sharing: more than INT_MAX neighbour slots";
  if (shape.hi - shape.lo > static_cast<long long>(UINT_MAX - 1ULL))
    return "sharing: the gathered array has 2^32 - 1 elements or more";
  // Blocks of threads in the locality order read the same elements: their
  // sets are small enough to stage (Wu's clustering).
  const bool in_order = e.key.params.size() > 4 && e.key.params[4] == 1;
  if (in_order &&
      (why = order_into(cx, orders, ss, site, e, p, dev, a, n, shape, esz, stream, &built->setup_ms)) != "")
    return why;
  SharedList list{a.NB, a.nb_kind, a.sj, a.st, shape.jmax, a.counts, a.counts_kind,
                  n,    static_cast<int>(block), shape.lo, shape.hi};
  list.perm = in_order ? p.perm.as<const int>() : nullptr;

  // The sets' bounds first; the rest once the sets are known to fit shared memory.
  const std::size_t first_bytes = static_cast<std::size_t>(list.blocks() + 1) * sizeof(int);
  if (!cx.fits(e.bytes(), first_bytes))
    return "over IRREGFIX_MAX_BYTES";
  why = ensure_buffer(cx.cfg, site, p.block_first, first_bytes);
  if (!why.empty())
    return why;
  std::size_t scratch_bytes = 0;
  IRREGFIX_TRY(sharing_scratch_bytes(list, &scratch_bytes));
  Scratch *sc = nullptr;
  why = ensure_scratch(cx.cfg, cx.devices, site, dev, scratch_bytes, &sc);
  if (!why.empty())
    return why;
  int *summary = static_cast<int *>(sc->summary);
  const unsigned *sets = nullptr;
  IRREGFIX_TRY(sharing_sets(list, sc->temp, sc->temp_bytes, p.block_first.as<int>(), summary,
                            &sets, stream));
  int h[2] = {}; // the largest set, all sets
  IRREGFIX_TRY(cudaMemcpyAsync(h, summary, sizeof h, cudaMemcpyDeviceToHost, stream));
  IRREGFIX_TRY(cudaStreamSynchronize(stream));
  resolve_timings(ss, false);

  const unsigned long long stage = stage_bytes(h[0], esz);
  why = fit_shared_memory(site, dev, stage);
  if (!why.empty())
    return why;
  std::size_t copy = 0;
  why = copy_bytes(static_cast<unsigned long long>(h[1]), esz, &copy);
  if (!why.empty())
    return why;
  const std::size_t uniq_bytes = static_cast<std::size_t>(h[1]) * sizeof(unsigned);
  const std::size_t local_bytes = static_cast<std::size_t>(cells) * sizeof(int);
  if (!cx.fits(e.bytes(), first_bytes + local_bytes + uniq_bytes + copy))
    return "over IRREGFIX_MAX_BYTES";
  why = ensure_buffer(cx.cfg, site, p.local, local_bytes);
  if (why.empty())
    why = ensure_buffer(cx.cfg, site, p.uniq, uniq_bytes);
  if (why.empty())
    why = ensure_copies(cx, site, e, {copy});
  if (!why.empty())
    return why;
  IRREGFIX_TRY(sharing_layout(list, sets, p.block_first.as<const int>(), p.uniq.as<unsigned>(), p.local.as<int>(),
                              stream));
  set_neighbor_shape(e, p, std::move(shape));
  e.nnz = h[1];
  p.shared_bytes = static_cast<unsigned>(stage);
  ss.shared_mean = static_cast<double>(h[1]) / static_cast<double>(list.blocks());
  ss.shared_max = h[0];
  ss.shared_bytes = p.shared_bytes;
  ss.shared_in_order = in_order;
  return copy_sharing(ss, site, e, p, n, A, esz, built);
}

} // namespace detail
} // namespace irregfix
