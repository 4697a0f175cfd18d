// irregfix runtime: the locality orders computed so far, and their sampled
// measure. See orders.h.
#include "orders.h"

#include <climits>
#include <cstdio>
#include <string>

namespace irregfix {
namespace detail {

int sector_elements(std::size_t esz) {
  return esz >= 32 ? 1 : static_cast<int>(32 / (esz ? esz : 1));
}

namespace {

OrderKey order_key(const AccessList &a, int dev, int region) {
  OrderKey k;
  k.device = dev;
  k.n = a.n;
  k.kind = a.kind;
  k.idx = a.idx;
  k.idx_kind = a.idx_kind;
  k.sj = a.sj;
  k.st = a.st;
  k.counts = a.counts;
  k.B = a.B;
  k.region = order_region(a.n, region);
  return k;
}

// The order of the access graph a (its buffers made, not computed yet).
std::string order_record(BuildContext &cx, Orders &orders, const SiteInfo &site, int dev, const AccessList &a,
                         Order **out) {
  Order &o = orders[order_key(a, dev, cx.cfg.order_region)];
  if (!o.counts) {
    std::size_t have = 0;
    void *counts = nullptr;
    const std::string why = ensure_buffer(cx.cfg, site, &counts, &have, 2 * sizeof(unsigned long long));
    o.counts = static_cast<unsigned long long *>(counts);
    if (!why.empty())
      return why;
  }
  *out = &o;
  return "";
}

// The sampled measure of order perm (null: the threads' own) over a, read back.
std::string measure(const Config &cfg, const SiteInfo &site, const AccessList &a, const int *perm, int per_sector,
                    Order &o, cudaStream_t stream, double *sectors) {
  unsigned long long h[2] = {0, 0};
  std::size_t bytes = 0;
  IRREGFIX_TRY(sample_scratch_bytes(a, per_sector, &bytes));
  if (std::string why = ensure_buffer(cfg, site, &o.sample, &o.sample_bytes, bytes); !why.empty())
    return why;
  IRREGFIX_TRY(sample_sectors(a, perm, nullptr, per_sector, o.sample, o.sample_bytes, o.counts, stream));
  IRREGFIX_TRY(cudaMemcpyAsync(h, o.counts, sizeof h, cudaMemcpyDeviceToHost, stream));
  IRREGFIX_TRY(cudaStreamSynchronize(stream));
  *sectors = h[1] ? static_cast<double>(h[0]) / static_cast<double>(h[1]) : 1.0;
  return "";
}

} // namespace

std::string describe_order(const Order &o) {
  char line[400];
  std::snprintf(line, sizeof line,
                "sampled sectors per read %.3f in thread order, %.3f in this order when computed, %.3f at "
                "its latest check; computed %lld times (latest %.3f ms, %d sweeps%s, regions of %d threads), "
                "kept %lld times when its lists changed (measured at %lld of those changes)",
                o.identity, o.fresh, o.last, o.computed, o.build_ms, o.sweeps,
                o.converged ? "" : ", stopped before converging", o.region, o.kept, o.checks.checks);
  return line;
}

std::string locality_order(BuildContext &cx, Orders &orders, SiteStats &ss, const SiteInfo &site, int dev,
                           const AccessList &a, int per_sector, cudaStream_t stream, Order **out,
                           double *setup_ms) {
  Order *o = nullptr;
  std::string why = order_record(cx, orders, site, dev, a, &o);
  if (!why.empty())
    return why;
  bool compute = !o->ready;
  if (o->identity < 0 && (why = measure(cx.cfg, site, a, nullptr, per_sector, *o, stream, &o->identity)) != "")
    return why;
  if (!compute) {
    if (o->checks.due()) {
      if ((why = measure(cx.cfg, site, a, static_cast<const int *>(o->perm), per_sector, *o, stream, &o->last)) != "")
        return why;
      o->checks.checked(o->fresh, o->last);
      compute = order_decayed(o->fresh, o->last);
    }
    o->kept += !compute;
  }
  if (compute) {
    const std::size_t n_bytes = static_cast<std::size_t>(a.n) * sizeof(int);
    if ((why = ensure_buffer(cx.cfg, site, &o->perm, &o->perm_bytes, n_bytes)) != "" ||
        (why = ensure_buffer(cx.cfg, site, &o->inv, &o->inv_bytes, n_bytes)) != "")
      return why;
    o->ready = false;
    std::size_t bytes = 0;
    IRREGFIX_TRY(order_scratch_bytes(a.n, &bytes));
    void *scratch = nullptr;
    if (const cudaError_t e = dev_alloc(cx.cfg, &scratch, bytes); e != cudaSuccess) {
      std::fprintf(stderr, "irregfix: cudaMalloc(%zu bytes) failed at %s: %s\n", bytes, site.id ? site.id : "?",
                   cudaGetErrorString(e));
      cudaGetLastError();
      return "allocation failed";
    }
    cudaEvent_t t0 = nullptr, t1 = nullptr;
    const bool timed = cudaEventCreate(&t0) == cudaSuccess && cudaEventCreate(&t1) == cudaSuccess &&
                       cudaEventRecord(t0, stream) == cudaSuccess;
    cudaGetLastError();
    cudaError_t e = compute_order(a, cx.cfg.order_region, static_cast<int *>(o->perm), scratch, bytes, &o->sweeps,
                                  &o->converged, stream);
    if (e == cudaSuccess)
      e = invert_order(static_cast<const int *>(o->perm), a.n, static_cast<int *>(o->inv), stream);
    const cudaError_t f = cudaFree(scratch); // synchronises: compute_order's last work is done
    if (e != cudaSuccess || f != cudaSuccess) {
      for (cudaEvent_t ev : {t0, t1})
        if (ev)
          cudaEventDestroy(ev);
      return cuda_failure(e != cudaSuccess ? "compute_order" : "cudaFree", site, e != cudaSuccess ? e : f);
    }
    float ms = 0;
    if (timed && cudaEventRecord(t1, stream) == cudaSuccess && cudaEventSynchronize(t1) == cudaSuccess &&
        cudaEventElapsedTime(&ms, t0, t1) == cudaSuccess) {
      o->build_ms = ms;
      *setup_ms += ms;
    }
    for (cudaEvent_t ev : {t0, t1})
      if (ev)
        cudaEventDestroy(ev);
    cudaGetLastError();
    o->ready = true;
    o->region = order_region(a.n, cx.cfg.order_region);
    ++o->computed;
    if ((why = measure(cx.cfg, site, a, static_cast<const int *>(o->perm), per_sector, *o, stream, &o->fresh)) != "")
      return why;
    o->last = o->fresh;
    o->checks.restart();
  }
  ss.order = describe_order(*o);
  *out = o;
  return "";
}

std::string keep_order(const BuildContext &cx, const SiteInfo &site, void **perm, std::size_t *perm_bytes,
                       const Order &o, long long n, cudaStream_t stream) {
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(int);
  if (std::string why = ensure_buffer(cx.cfg, site, perm, perm_bytes, bytes); !why.empty())
    return why;
  IRREGFIX_TRY(cudaMemcpyAsync(*perm, o.perm, bytes, cudaMemcpyDeviceToDevice, stream));
  return "";
}

AccessList neighbor_access(const NeighborArgs &a, long long n, long long jmax, long long lo, long long hi) {
  AccessList l;
  l.kind = AccessList::kNeighbors;
  l.n = n;
  l.idx = a.NB;
  l.idx_kind = a.nb_kind;
  l.sj = a.sj;
  l.st = a.st;
  l.jmax = jmax;
  l.counts = a.counts;
  l.counts_kind = a.counts_kind;
  l.lo = lo;
  l.hi = hi;
  return l;
}

AccessList range_access(const void *B, int b_kind, long long n, const void *arr, std::size_t esz) {
  AccessList l;
  l.kind = AccessList::kRange;
  l.n = n;
  l.idx = arr;
  l.idx_kind = esz == 8 ? kIndexI64 : kIndexI32;
  l.B = B;
  l.b_kind = b_kind;
  l.lo = 0; // sentinels (negative) are no elements; the data's extent is unknown
  l.hi = LLONG_MAX;
  return l;
}

std::string range_graph_array(BuildContext &cx, const SiteInfo &site, int dev, long long n, int count,
                              const void *const *arrays, const std::size_t *elem_sizes, long long lo,
                              long long hi, cudaStream_t stream, int *chosen) {
  *chosen = -1;
  if (hi <= lo)
    return "";
  Scratch *sc = nullptr;
  std::string why = ensure_scratch(cx.cfg, cx.devices, site, dev, 0, &sc);
  if (!why.empty())
    return why;
  // Up to 8 arrays counted at once in the summary's 64 bytes.
  auto *counts = static_cast<unsigned long long *>(sc->summary);
  const int counted = count < 8 ? count : 8;
  IRREGFIX_TRY(cudaMemsetAsync(counts, 0, 8 * sizeof(unsigned long long), stream));
  for (int i = 0; i < counted; ++i)
    if (elem_sizes[i] == 4 || elem_sizes[i] == 8)
      IRREGFIX_TRY(count_thread_indices(arrays[i], elem_sizes[i] == 8 ? kIndexI64 : kIndexI32, lo, hi, n,
                                        counts + i, stream));
  unsigned long long h[8] = {};
  IRREGFIX_TRY(cudaMemcpyAsync(h, counts, sizeof h, cudaMemcpyDeviceToHost, stream));
  IRREGFIX_TRY(cudaStreamSynchronize(stream));
  unsigned long long best = 0;
  for (int i = 0; i < counted; ++i)
    if (h[i] > best) {
      best = h[i];
      *chosen = i;
    }
  // Most of its values must be thread indices: else the access graph is no graph.
  if (best * 2 < static_cast<unsigned long long>(hi - lo))
    *chosen = -1;
  return "";
}

bool order_in_cache(BuildContext &cx, SiteStats &ss, int dev, long long n, std::size_t esz) {
  int l2 = 0;
  if (device_l2_bytes(cx.devices, dev, &l2) != cudaSuccess) {
    cudaGetLastError();
    l2 = 0;
  }
  if (order_fits_cache(n, esz, l2))
    return true;
  ss.order = "not timed: " + std::to_string(n) + " elements of " + std::to_string(esz) +
             " bytes fill more than half the L2 (" + std::to_string(l2 >> 20) +
             " MiB), where the order's scattered direct accesses cost more than it saves";
  return false;
}

std::string range_order_sectors(BuildContext &cx, Orders &orders, const SiteInfo &site, int dev, const void *B,
                                int b_kind, long long n, const void *arr, std::size_t esz, cudaStream_t stream,
                                double *sectors) {
  *sectors = 0;
  const AccessList a = range_access(B, b_kind, n, arr, esz);
  Order *o = nullptr;
  std::string why = order_record(cx, orders, site, dev, a, &o);
  if (why.empty() && o->identity < 0)
    why = measure(cx.cfg, site, a, nullptr, kRangeSectorElements, *o, stream, &o->identity);
  if (why.empty())
    *sectors = o->identity;
  return why;
}

std::string neighbor_order_sectors(BuildContext &cx, Orders &orders, const SiteInfo &site, int dev,
                                   const NeighborArgs &args, long long n, long long jmax, long long lo, long long hi,
                                   std::size_t esz, cudaStream_t stream, double *sectors) {
  *sectors = 0;
  const AccessList a = neighbor_access(args, n, jmax, lo, hi);
  Order *o = nullptr;
  std::string why = order_record(cx, orders, site, dev, a, &o);
  if (why.empty() && o->identity < 0)
    why = measure(cx.cfg, site, a, nullptr, sector_elements(esz), *o, stream, &o->identity);
  if (why.empty())
    *sectors = o->identity;
  return why;
}

void forget_orders(Orders &orders, const void *p) {
  int dev = 0;
  const bool have_dev = cudaGetDevice(&dev) == cudaSuccess;
  for (auto it = orders.begin(); it != orders.end();) {
    if (p && !it->first.reads(p)) {
      ++it;
      continue;
    }
    if (have_dev)
      cudaSetDevice(it->first.device);
    Order &o = it->second;
    for (void *b : {o.perm, o.inv, o.sample, static_cast<void *>(o.counts)})
      if (b)
        cudaFree(b);
    it = orders.erase(it);
  }
  if (have_dev)
    cudaSetDevice(dev);
  cudaGetLastError();
}

} // namespace detail
} // namespace irregfix
