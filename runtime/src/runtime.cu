// irregfix runtime: the API that rewritten programs call (irregfix.cuh), the
// cache of remapped copies, the alias check and the statistics.
#include <irregfix/irregfix.cuh>
#include <irregfix/testing.h>

#include "host_logic.h"
#include "remap.cuh"
#include "state.h"

#include <cuda.h>

#include <climits>
#include <cstdint>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <unordered_map>

namespace irregfix {
namespace detail {

State &state() {
  static State *s = new State; // never destroyed: at-exit code may still use it
  return *s;
}

namespace {
void print_stats_at_exit();
} // namespace

void ensure_loaded(State &st) {
  if (st.loaded)
    return;
  st.cfg = config_from_env();
  st.loaded = true;
  if (st.cfg.stats && !st.atexit_registered) {
    st.atexit_registered = true;
    std::atexit(print_stats_at_exit);
  }
}

SiteStats &site_stats(State &st, const SiteInfo &site) {
  std::string id = site.id ? site.id : "?";
  SiteStats &s = st.stats[id];
  if (s.id.empty()) {
    s.id = id;
    s.kernel = site.kernel ? site.kernel : "?";
    s.pattern = site.pattern ? site.pattern : "?";
  }
  return s;
}

bool record_names(const SiteStats *stats, const SiteInfo &site) {
  return stats && std::strcmp(stats->id.c_str(), site.id ? site.id : "?") == 0;
}

SiteRecord &site_record(State &st, const SiteInfo &site, int device) {
  SiteRecord &r = st.sites[RecordKey(&site, device)];
  if (!record_names(r.stats, site)) // a SiteInfo reused at one address for another site
    r = SiteRecord{nullptr, nullptr, 0};
  if (!r.stats)
    r.stats = &site_stats(st, site);
  return r;
}

void record_fallback(SiteStats &s, const std::string &why) {
  ++s.fallbacks[why];
  s.last_fallback = why;
}

std::string cuda_failure(const char *call, const SiteInfo &site, cudaError_t e) {
  std::fprintf(stderr, "irregfix: %s failed at %s: %s\n", call, site.id ? site.id : "?",
               cudaGetErrorString(e));
  cudaGetLastError(); // a failed allocation must not surface in the program's own checks
  return std::string("CUDA error in ") + call + ": " + cudaGetErrorString(e);
}

namespace {

// Reads the remap timings whose events have completed (all of them, and
// waiting for them, when wait is set). Never called on the hit path.
void resolve_timings(SiteStats &s, bool wait) {
  auto it = s.pending.begin();
  while (it != s.pending.end()) {
    cudaError_t q = wait ? cudaEventSynchronize(it->second) : cudaEventQuery(it->second);
    if (q == cudaErrorNotReady) {
      ++it;
      continue;
    }
    float ms = 0;
    if (q == cudaSuccess && cudaEventElapsedTime(&ms, it->first, it->second) == cudaSuccess)
      s.remap_ms += ms;
    cudaEventDestroy(it->first);
    cudaEventDestroy(it->second);
    it = s.pending.erase(it);
  }
  cudaGetLastError();
}

void resolve_all_timings(State &st) {
  for (auto &kv : st.stats)
    resolve_timings(kv.second, true);
  resolve_launch_timings(st, true);
}

void print_stats_at_exit() {
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  resolve_all_timings(st);
  std::string report = format_stats(st.stats);
  std::fputs(report.c_str(), stderr);
}

#define IRREGFIX_TRY(call)                                                                         \
  do {                                                                                             \
    cudaError_t irregfix_e_ = (call);                                                              \
    if (irregfix_e_ != cudaSuccess)                                                                \
      return cuda_failure(#call, site, irregfix_e_);                                               \
  } while (0)

// Device allocation of the runtime; IRREGFIX_FAIL_ALLOC makes it fail.
cudaError_t dev_alloc(const State &st, void **p, std::size_t bytes) {
  *p = nullptr;
  if (st.cfg.fail_alloc)
    return cudaErrorMemoryAllocation;
  return cudaMalloc(p, bytes ? bytes : 1);
}

// cuMemGetAddressRange, looked up through the runtime so that nothing links
// libcuda: binaries then load (and GPU tests skip) on machines without a driver.
using GetAddressRangeFn = CUresult (*)(CUdeviceptr *, std::size_t *, CUdeviceptr);

GetAddressRangeFn get_address_range() {
  static GetAddressRangeFn fn = [] {
    void *p = nullptr;
    cudaDriverEntryPointQueryResult q{};
    if (cudaGetDriverEntryPointByVersion("cuMemGetAddressRange", &p, 12000, cudaEnableDefault,
                                         &q) != cudaSuccess ||
        q != cudaDriverEntryPointSuccess) {
      cudaGetLastError();
      p = nullptr;
    }
    return reinterpret_cast<GetAddressRangeFn>(p);
  }();
  return fn;
}

// The device allocation holding p, if p is device (or managed) memory.
bool allocation_of(const void *p, Range *r) {
  *r = Range{};
  if (!p)
    return false;
  cudaPointerAttributes attr{};
  if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  if (attr.type != cudaMemoryTypeDevice && attr.type != cudaMemoryTypeManaged)
    return false;
  GetAddressRangeFn range = get_address_range();
  CUdeviceptr base = 0;
  std::size_t size = 0;
  if (!range || range(&base, &size, reinterpret_cast<CUdeviceptr>(p)) != CUDA_SUCCESS)
    return false;
  r->base = static_cast<std::uintptr_t>(base);
  r->size = size;
  return true;
}

void free_entry_buffers(Entry &e) {
  if (e.len)
    cudaFree(e.len);
  if (e.aux)
    cudaFree(e.aux);
  e.aux = nullptr;
  e.aux_bytes = 0;
  if (e.perm)
    cudaFree(e.perm);
  e.perm = nullptr;
  e.perm_bytes = 0;
  for (void *b : e.bufs)
    if (b)
      cudaFree(b);
  if (e.ready)
    cudaEventDestroy(e.ready);
  e.len = nullptr;
  e.len_bytes = 0;
  e.bufs.clear();
  e.buf_bytes.clear();
  e.ready = nullptr;
}

void drop_entry(State &st, const CacheKey &key) {
  std::unique_ptr<Entry> e = st.cache.remove(key);
  if (!e)
    return;
  for (auto &kv : st.sites)
    if (kv.second.last == e.get())
      kv.second.last = nullptr;
  free_entry_buffers(*e);
}

std::size_t index_size(int kind) { return kind == kIndexI64 || kind == kIndexU64 ? 8 : 4; }

// Makes sure the entry's buffer i holds at least `bytes`, reusing it when it is big enough.
std::string ensure_buffer(State &st, const SiteInfo &site, void **buf, std::size_t *have,
                          std::size_t bytes) {
  if (*buf && *have >= bytes)
    return "";
  if (*buf) {
    IRREGFIX_TRY(cudaFree(*buf));
    *buf = nullptr;
    *have = 0;
  }
  cudaError_t e = dev_alloc(st, buf, bytes);
  if (e != cudaSuccess) {
    *buf = nullptr;
    std::fprintf(stderr, "irregfix: cudaMalloc(%zu bytes) failed at %s: %s\n", bytes,
                 site.id ? site.id : "?", cudaGetErrorString(e));
    cudaGetLastError();
    return "allocation failed";
  }
  *have = bytes;
  return "";
}

// Bytes of a copy of `cells` elements of `esz` bytes; "" or why it cannot be.
std::string copy_bytes(unsigned long long cells, std::size_t esz, std::size_t *bytes) {
  unsigned long long b = 0;
  if (__builtin_mul_overflow(cells, static_cast<unsigned long long>(esz), &b) || b > SIZE_MAX)
    return "remapped copy too large";
  *bytes = static_cast<std::size_t>(b);
  return "";
}

// One device buffer per remapped array, at least need[i] bytes each (reused
// when big enough). The caller has checked the byte cap.
std::string ensure_copies(State &st, const SiteInfo &site, Entry &e, const std::vector<std::size_t> &need) {
  e.bufs.resize(need.size(), nullptr);
  e.buf_bytes.resize(need.size(), 0);
  for (std::size_t i = 0; i < need.size(); ++i)
    if (std::string why = ensure_buffer(st, site, &e.bufs[i], &e.buf_bytes[i], need[i]); !why.empty())
      return why;
  return "";
}

std::string ensure_scratch(State &st, const SiteInfo &site, int dev, std::size_t temp_bytes,
                           Scratch **out) {
  Scratch &s = st.scratch[dev];
  if (!s.summary) {
    std::size_t have = 0;
    std::string why = ensure_buffer(st, site, &s.summary, &have, 64);
    if (!why.empty())
      return why;
  }
  if (s.temp_bytes < temp_bytes) {
    std::string why = ensure_buffer(st, site, &s.temp, &s.temp_bytes, temp_bytes);
    if (!why.empty())
      return why;
  }
  *out = &s;
  return "";
}

// Extent [p + lo*esz, p + hi*esz) must lie in p's device allocation.
std::string check_extent(const void *p, std::size_t esz, long long lo, long long hi,
                         SourceRange *src) {
  src->ptr = reinterpret_cast<std::uintptr_t>(p);
  if (!allocation_of(p, &src->allocation))
    return "a remapped array is not device memory";
  if (hi <= lo) {
    src->extent = Range{src->ptr, 0};
    return "";
  }
  const long long s = static_cast<long long>(esz);
  const std::intptr_t begin = static_cast<std::intptr_t>(src->ptr) + lo * s;
  const std::intptr_t end = static_cast<std::intptr_t>(src->ptr) + hi * s;
  const Range &a = src->allocation;
  if (begin < static_cast<std::intptr_t>(a.base) ||
      end > static_cast<std::intptr_t>(a.base + a.size))
    return "index data reaches outside a remapped array's allocation";
  src->extent = Range{static_cast<std::uintptr_t>(begin), static_cast<std::size_t>(end - begin)};
  return "";
}

void start_timing(SiteStats &ss, cudaStream_t stream, cudaEvent_t *start, cudaEvent_t *stop) {
  *start = *stop = nullptr;
  if (cudaEventCreate(start) != cudaSuccess || cudaEventCreate(stop) != cudaSuccess ||
      cudaEventRecord(*start, stream) != cudaSuccess) {
    if (*start)
      cudaEventDestroy(*start);
    if (*stop)
      cudaEventDestroy(*stop);
    *start = *stop = nullptr;
    cudaGetLastError();
  }
  (void)ss;
}

void stop_timing(SiteStats &ss, cudaStream_t stream, cudaEvent_t start, cudaEvent_t stop) {
  if (!start)
    return;
  if (cudaEventRecord(stop, stream) != cudaSuccess) {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaGetLastError();
    return;
  }
  ss.pending.emplace_back(start, stop);
}

// Builds or refreshes a range entry. Returns "" on success, else the reason.
// Enqueues the copies of one entry on the launch's stream, timed with events,
// and marks the entry valid. copy_one(i) enqueues array i's copy and returns the
// launch error; bytes(i) is what it moves (for the stats).
template <class CopyOne, class Bytes>
std::string run_copies(SiteStats &ss, const SiteInfo &site, Entry &e, int count, const char *what,
                       cudaStream_t stream, CopyOne copy_one, Bytes bytes) {
  if (!e.ready)
    IRREGFIX_TRY(cudaEventCreateWithFlags(&e.ready, cudaEventDisableTiming));
  cudaEvent_t t0, t1;
  start_timing(ss, stream, &t0, &t1);
  for (int i = 0; i < count; ++i) {
    cudaError_t r = copy_one(i);
    if (r != cudaSuccess) {
      if (t0) {
        cudaEventDestroy(t0);
        cudaEventDestroy(t1);
      }
      return cuda_failure(what, site, r);
    }
    ss.bytes_remapped += bytes(i);
  }
  stop_timing(ss, stream, t0, t1);
  IRREGFIX_TRY(cudaEventRecord(e.ready, stream));
  ++ss.remaps;
  e.built_on = stream;
  e.valid = true;
  return "";
}

// The remap itself, on the launch's stream, into buffers sized for the entry,
// in the layout the entry was built with (SELL-32: from its len and slice_start).
std::string copy_range(SiteStats &ss, const SiteInfo &site, Entry &e, const void *B, int b_kind,
                       long long n, int count, const void *const *arrays,
                       const std::size_t *elem_sizes, cudaStream_t stream) {
  if (e.layout == kLayoutSell32 || e.layout == kLayoutSell32Sigma)
    return run_copies(
        ss, site, e, count, "remap_sell", stream,
        [&](int i) {
          return remap_sell(B, b_kind, n, static_cast<const int *>(e.len),
                            static_cast<const long long *>(e.aux),
                            static_cast<const int *>(e.perm), arrays[i], elem_sizes[i], e.bufs[i],
                            stream);
        },
        [&](int i) { return static_cast<unsigned long long>(e.nnz) * elem_sizes[i]; });
  return run_copies(
      ss, site, e, count, "remap_range", stream,
      [&](int i) {
        return remap_range(B, b_kind, n, arrays[i], elem_sizes[i], e.bufs[i],
                           plan_range(e.nnz, n, elem_sizes[i]), stream);
      },
      [&](int i) { return static_cast<unsigned long long>(e.nnz) * elem_sizes[i]; });
}

std::string build_range(State &st, SiteStats &ss, const SiteInfo &site, Entry &e, int dev,
                        const void *B, int b_kind, long long n, int count,
                        const void *const *arrays, const std::size_t *elem_sizes,
                        cudaStream_t stream) {
  // Only the arrays were written since the last build: B, and so the layout, hold.
  if (e.shape_valid && static_cast<int>(e.bufs.size()) == count)
    return copy_range(ss, site, e, B, b_kind, n, count, arrays, elem_sizes, stream);
  Range b_alloc;
  if (!allocation_of(B, &b_alloc))
    return "the index array is not device memory";
  // Row lengths, their min/max (CUB), B[0], B[n] and (unless ELL is forced) the
  // SELL-32 slice offsets and total (CUB scan): one copy back and one sync.
  // SELL-32-sigma first sorts the threads (CUB radix sort) and scans the slices
  // of the sorted lengths.
  const int want = e.key.layout; // a Layout, or kLayoutKeyAuto
  const bool slices = want != kLayoutEllColMajor;
  const bool sigma = want == kLayoutSell32Sigma;
  if (sigma && n > INT_MAX)
    return "SELL-32-sigma: more than INT_MAX threads";
  const std::size_t len_bytes = static_cast<std::size_t>(n) * sizeof(int);
  const long long nslices = (n + 31) / 32;
  const std::size_t slice_bytes =
      slices ? static_cast<std::size_t>(nslices + 1) * sizeof(long long) : 0;
  const std::size_t old_bytes = e.bytes();
  if (!Cache::fits(st.cache.total_bytes(), e.len_bytes + e.aux_bytes, len_bytes + slice_bytes,
                   st.cfg.max_bytes))
    return "over IRREGFIX_MAX_BYTES";
  std::string why = ensure_buffer(st, site, &e.len, &e.len_bytes, len_bytes);
  if (!why.empty())
    return why;
  if (slices) {
    why = ensure_buffer(st, site, &e.aux, &e.aux_bytes, slice_bytes);
    if (!why.empty())
      return why;
  }
  if (sigma) {
    why = ensure_buffer(st, site, &e.perm, &e.perm_bytes, len_bytes);
    if (!why.empty())
      return why;
  }
  std::size_t temp_bytes = 0;
  IRREGFIX_TRY(minmax_lengths(static_cast<int *>(e.len), n, nullptr, nullptr, &temp_bytes, stream));
  if (slices) {
    std::size_t scan_bytes = 0;
    IRREGFIX_TRY(sell_slices(static_cast<int *>(e.len), n, nullptr, nullptr, &scan_bytes, stream));
    temp_bytes = scan_bytes > temp_bytes ? scan_bytes : temp_bytes;
  }
  Scratch *sc = nullptr;
  why = ensure_scratch(st, site, dev, temp_bytes, &sc);
  if (!why.empty())
    return why;
  char *summary = static_cast<char *>(sc->summary);
  IRREGFIX_TRY(range_lengths(B, b_kind, n, static_cast<int *>(e.len),
                             reinterpret_cast<long long *>(summary + 8), stream));
  std::size_t minmax_bytes = temp_bytes;
  IRREGFIX_TRY(minmax_lengths(static_cast<int *>(e.len), n, reinterpret_cast<int *>(summary),
                              sc->temp, &minmax_bytes, stream));
  struct {
    int min_len, max_len;
    long long lo, hi;
    long long sell_cells;
  } h{};
  static_assert(sizeof(h) == 32, "summary layout");
  if (sigma)
    IRREGFIX_TRY(sigma_sort(static_cast<int *>(e.len), n, st.cfg.sigma, static_cast<int *>(e.perm),
                            stream));
  if (slices) {
    long long *slice_start = static_cast<long long *>(e.aux);
    std::size_t scan_bytes = temp_bytes;
    IRREGFIX_TRY(sell_slices(static_cast<int *>(e.len), n, slice_start, sc->temp, &scan_bytes,
                             stream));
    IRREGFIX_TRY(cudaMemcpyAsync(summary + 24, slice_start + nslices, sizeof(long long),
                                 cudaMemcpyDeviceToDevice, stream));
  }
  IRREGFIX_TRY(cudaMemcpyAsync(&h, summary, slices ? sizeof h : 24, cudaMemcpyDeviceToHost, stream));
  IRREGFIX_TRY(cudaStreamSynchronize(stream));
  resolve_timings(ss, false);
  if (h.min_len < 0)
    return "bad index data: B is not monotone or a row is longer than INT_MAX";
  if (h.hi < h.lo)
    return "bad index data: B[n] < B[0]";

  // Choose the layout from both paddings.
  const unsigned long long nnz = static_cast<unsigned long long>(h.hi - h.lo);
  const unsigned long long ell_cells = static_cast<unsigned long long>(h.max_len) *
                                       static_cast<unsigned long long>(n);
  const unsigned long long sell_cells = static_cast<unsigned long long>(h.sell_cells);
  int layout = kLayoutEllColMajor;
  if (sigma)
    layout = kLayoutSell32Sigma;
  else if (want == kLayoutSell32 || (want == kLayoutKeyAuto && prefer_sell(ell_cells, sell_cells, nnz)))
    layout = kLayoutSell32;
  const double sell_padding = nnz ? static_cast<double>(sell_cells) / static_cast<double>(nnz) : 1.0;
  ss.ell_padding = nnz ? static_cast<double>(ell_cells) / static_cast<double>(nnz) : 1.0;
  ss.sell_padding = slices && !sigma ? sell_padding : 0.0;
  ss.sigma_padding = sigma ? sell_padding : 0.0;
  ss.sigma = sigma ? st.cfg.sigma : 0;
  // Auto, a permutable kernel, and SELL-32 still pads much: sort the threads
  // (SELL-32-sigma never pads more than SELL-32) and count again, a second sync.
  unsigned long long sigma_cells = 0;
  if (layout == kLayoutSell32 && want == kLayoutKeyAuto && (site.flags & kSitePermutable) &&
      launch_covers(st, n) &&
      n <= INT_MAX && pads_much(sell_cells, nnz)) {
    why = ensure_buffer(st, site, &e.perm, &e.perm_bytes, len_bytes);
    if (!why.empty())
      return why;
    long long *slice_start = static_cast<long long *>(e.aux);
    std::size_t scan_bytes = temp_bytes;
    long long total = 0;
    IRREGFIX_TRY(sigma_sort(static_cast<int *>(e.len), n, st.cfg.sigma, static_cast<int *>(e.perm),
                            stream));
    IRREGFIX_TRY(sell_slices(static_cast<int *>(e.len), n, slice_start, sc->temp, &scan_bytes, stream));
    IRREGFIX_TRY(cudaMemcpyAsync(&total, slice_start + nslices, sizeof total, cudaMemcpyDeviceToHost,
                                 stream));
    IRREGFIX_TRY(cudaStreamSynchronize(stream));
    layout = kLayoutSell32Sigma;
    sigma_cells = static_cast<unsigned long long>(total);
    ss.sigma_padding = nnz ? static_cast<double>(sigma_cells) / static_cast<double>(nnz) : 1.0;
    ss.sigma = st.cfg.sigma;
  } else if (e.perm && !sigma) { // an earlier build sorted; this one does not
    IRREGFIX_TRY(cudaFree(e.perm));
    e.perm = nullptr;
    e.perm_bytes = 0;
  }
  const unsigned long long cells = layout == kLayoutEllColMajor ? ell_cells
                                   : sigma_cells                ? sigma_cells
                                                                : sell_cells;
  if (layout == kLayoutEllColMajor && e.aux) { // auto chose ELL: the slice offsets are not needed
    IRREGFIX_TRY(cudaFree(e.aux));
    e.aux = nullptr;
    e.aux_bytes = 0;
  }

  // Validate extents, size the buffers and check the byte cap.
  std::vector<SourceRange> sources(static_cast<std::size_t>(count) + 1);
  std::vector<std::size_t> need(static_cast<std::size_t>(count));
  std::size_t total_need = len_bytes + e.aux_bytes + e.perm_bytes;
  for (int i = 0; i < count; ++i) {
    why = check_extent(arrays[i], elem_sizes[i], h.lo, h.hi, &sources[i]);
    if (!why.empty())
      return why;
    why = copy_bytes(cells, elem_sizes[i], &need[i]);
    if (!why.empty())
      return why;
    total_need += need[i];
  }
  sources[count].ptr = reinterpret_cast<std::uintptr_t>(B);
  allocation_of(B, &sources[count].allocation);
  sources[count].extent = Range{sources[count].ptr, static_cast<std::size_t>(n + 1) * index_size(b_kind)};
  if (!Cache::fits(st.cache.total_bytes(), old_bytes, total_need, st.cfg.max_bytes))
    return "over IRREGFIX_MAX_BYTES";
  why = ensure_copies(st, site, e, need);
  if (!why.empty())
    return why;
  e.sources = std::move(sources);
  e.layout = layout;
  e.max_len = h.max_len;
  e.nnz = h.hi - h.lo;
  e.shape_valid = true;
  return copy_range(ss, site, e, B, b_kind, n, count, arrays, elem_sizes, stream);
}

// The gather itself, on the launch's stream: out[t] = A[idx[t]] for indices in
// [e.idx_lo, e.idx_hi) (A's allocation); sentinels are skipped.
std::string copy_gather(SiteStats &ss, const SiteInfo &site, Entry &e, const void *idx,
                        int idx_kind, long long n, const void *A, std::size_t esz,
                        cudaStream_t stream) {
  return run_copies(
      ss, site, e, 1, "remap_gather", stream,
      [&](int) { return remap_gather(idx, idx_kind, n, A, esz, e.idx_lo, e.idx_hi, e.bufs[0], stream); },
      [&](int) { return static_cast<unsigned long long>(n) * esz; });
}

// A data array read by a gather: its allocation (the extent, for invalidation)
// and the element indices that lie inside it. Indices outside are sentinels.
std::string gather_source(const void *A, std::size_t esz, SourceRange *src, long long *lo,
                          long long *hi) {
  src->ptr = reinterpret_cast<std::uintptr_t>(A);
  if (!allocation_of(A, &src->allocation))
    return "a remapped array is not device memory";
  src->extent = src->allocation;
  if (!element_bounds(src->allocation.base, src->allocation.size, src->ptr, esz, lo, hi))
    return "a remapped array is not device memory";
  return "";
}

// An index array read by the remap itself: device memory, and the valid element
// indices of its allocation.
std::string index_source(const void *p, int kind, long long lo, long long hi, SourceRange *src,
                         long long *alo, long long *ahi) {
  src->ptr = reinterpret_cast<std::uintptr_t>(p);
  if (!allocation_of(p, &src->allocation))
    return "the index array is not device memory";
  const std::size_t isz = index_size(kind);
  if (!element_bounds(src->allocation.base, src->allocation.size, src->ptr, isz, alo, ahi))
    return "the index array is not device memory";
  src->extent = hi > lo ? Range{src->ptr + static_cast<std::uintptr_t>(lo * static_cast<long long>(isz)),
                                static_cast<std::size_t>(hi - lo) * isz}
                        : Range{src->ptr, 0};
  return "";
}

// Gather: no reduction and no round trip. B is read only by the copy, and an
// index outside A's allocation is a sentinel the kernel guards: skipped.
std::string build_gather(State &st, SiteStats &ss, const SiteInfo &site, Entry &e, const void *B,
                         int b_kind, long long n, const void *A, std::size_t esz,
                         cudaStream_t stream) {
  if (e.shape_valid && e.bufs.size() == 1)
    return copy_gather(ss, site, e, B, b_kind, n, A, esz, stream);
  std::vector<SourceRange> sources(2);
  long long lo = 0, hi = 0, blo = 0, bhi = 0;
  std::string why = index_source(B, b_kind, 0, n, &sources[1], &blo, &bhi);
  if (!why.empty())
    return why;
  if (blo > 0 || bhi < n)
    return "bad index data: B[0..n) reaches outside its allocation";
  why = gather_source(A, esz, &sources[0], &lo, &hi);
  if (!why.empty())
    return why;
  const std::size_t need = static_cast<std::size_t>(n) * esz;
  if (!Cache::fits(st.cache.total_bytes(), e.bytes(), need, st.cfg.max_bytes))
    return "over IRREGFIX_MAX_BYTES";
  why = ensure_copies(st, site, e, {need});
  if (!why.empty())
    return why;
  e.sources = std::move(sources);
  e.index_sources = 1;
  e.idx_lo = lo;
  e.idx_hi = hi;
  e.max_len = 1;
  e.shape_valid = true;
  return copy_gather(ss, site, e, B, b_kind, n, A, esz, stream);
}

// Two-level gather: D[t] = B[C[t]] is built once (C must index inside B's
// allocation: checked with CUB min/max, one round trip), kept in the entry,
// and a refresh after a write to A is a plain gather through D.
std::string build_gather2(State &st, SiteStats &ss, const SiteInfo &site, Entry &e, int dev,
                          const void *B, int b_kind, const void *C, int c_kind, long long n,
                          const void *A, std::size_t esz, cudaStream_t stream) {
  if (e.shape_valid && e.bufs.size() == 1 && e.aux)
    return copy_gather(ss, site, e, e.aux, kIndexI64, n, A, esz, stream);
  std::vector<SourceRange> sources(3);
  long long rlo = 0, rhi = 0, clo = 0, chi = 0;
  std::string why = index_source(C, c_kind, 0, n, &sources[2], &clo, &chi);
  if (!why.empty())
    return why;
  if (clo > 0 || chi < n)
    return "bad index data: C[0..n) reaches outside its allocation";
  std::size_t temp_bytes = 0;
  IRREGFIX_TRY(minmax_indices(C, c_kind, n, nullptr, nullptr, &temp_bytes, stream));
  Scratch *sc = nullptr;
  why = ensure_scratch(st, site, dev, temp_bytes, &sc);
  if (!why.empty())
    return why;
  IRREGFIX_TRY(minmax_indices(C, c_kind, n, sc->summary, sc->temp, &temp_bytes, stream));
  unsigned char h[16];
  IRREGFIX_TRY(cudaMemcpyAsync(h, sc->summary, sizeof h, cudaMemcpyDeviceToHost, stream));
  IRREGFIX_TRY(cudaStreamSynchronize(stream));
  resolve_timings(ss, false);
  long long cmin = 0, cmax = 0;
  if (!index_to_ll(h, c_kind, &cmin) || !index_to_ll(h + 8, c_kind, &cmax))
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
  if (!Cache::fits(st.cache.total_bytes(), e.bytes(), need + aux, st.cfg.max_bytes))
    return "over IRREGFIX_MAX_BYTES";
  why = ensure_buffer(st, site, &e.aux, &e.aux_bytes, aux);
  if (!why.empty())
    return why;
  why = ensure_copies(st, site, e, {need});
  if (!why.empty())
    return why;
  IRREGFIX_TRY(compose_indices(B, b_kind, C, c_kind, n, rlo, rhi, static_cast<long long *>(e.aux),
                               stream));
  e.sources = std::move(sources);
  e.index_sources = 2;
  e.idx_lo = lo;
  e.idx_hi = hi;
  e.max_len = 1;
  e.shape_valid = true;
  return copy_gather(ss, site, e, e.aux, kIndexI64, n, A, esz, stream);
}

// The range2 copy: from the row starts and lengths kept in the entry.
std::string copy_range2(SiteStats &ss, const SiteInfo &site, Entry &e, long long n, int count,
                        const void *const *arrays, const std::size_t *elem_sizes,
                        cudaStream_t stream) {
  return run_copies(
      ss, site, e, count, "remap_range2", stream,
      [&](int i) {
        return remap_range2(static_cast<const long long *>(e.aux), static_cast<const int *>(e.len), n,
                            arrays[i], elem_sizes[i], e.bufs[i], stream);
      },
      [&](int i) { return static_cast<unsigned long long>(e.nnz) * elem_sizes[i]; });
}

// Two-level range: the first kernel gathers row starts and lengths through C
// (start[t] = B[C[t]], len[t]) and reduces them; with CUB's min/max of C that
// is one round trip. The second kernel copies the data (copy_range2).
std::string build_range2(State &st, SiteStats &ss, const SiteInfo &site, Entry &e, int dev,
                         const void *B, int b_kind, const void *C, int c_kind, long long n,
                         int count, const void *const *arrays, const std::size_t *elem_sizes,
                         cudaStream_t stream) {
  if (e.shape_valid && static_cast<int>(e.bufs.size()) == count && e.aux && e.len)
    return copy_range2(ss, site, e, n, count, arrays, elem_sizes, stream);
  std::vector<SourceRange> sources(static_cast<std::size_t>(count) + 2);
  SourceRange &bsrc = sources[count], &csrc = sources[count + 1];
  long long rlo = 0, rhi = 0, clo = 0, chi = 0;
  std::string why = index_source(C, c_kind, 0, n, &csrc, &clo, &chi);
  if (!why.empty())
    return why;
  if (clo > 0 || chi < n)
    return "bad index data: C[0..n) reaches outside its allocation";
  why = index_source(B, b_kind, 0, 0, &bsrc, &rlo, &rhi);
  if (!why.empty())
    return why;
  const std::size_t len_bytes = static_cast<std::size_t>(n) * sizeof(int);
  const std::size_t start_bytes = static_cast<std::size_t>(n) * sizeof(long long);
  const std::size_t old_bytes = e.bytes();
  if (!Cache::fits(st.cache.total_bytes(), e.len_bytes + e.aux_bytes, len_bytes + start_bytes,
                   st.cfg.max_bytes))
    return "over IRREGFIX_MAX_BYTES";
  why = ensure_buffer(st, site, &e.len, &e.len_bytes, len_bytes);
  if (!why.empty())
    return why;
  why = ensure_buffer(st, site, &e.aux, &e.aux_bytes, start_bytes);
  if (!why.empty())
    return why;
  std::size_t temp_bytes = 0;
  IRREGFIX_TRY(minmax_indices(C, c_kind, n, nullptr, nullptr, &temp_bytes, stream));
  Scratch *sc = nullptr;
  why = ensure_scratch(st, site, dev, temp_bytes, &sc);
  if (!why.empty())
    return why;
  char *summary = static_cast<char *>(sc->summary);
  IRREGFIX_TRY(minmax_indices(C, c_kind, n, summary, sc->temp, &temp_bytes, stream));
  IRREGFIX_TRY(range2_rows(B, b_kind, C, c_kind, n, rlo, rhi, static_cast<long long *>(e.aux),
                           static_cast<int *>(e.len), reinterpret_cast<long long *>(summary + 16),
                           stream));
  unsigned char h[16 + 8 * kR2Slots];
  static_assert(sizeof(h) <= 64, "summary size");
  IRREGFIX_TRY(cudaMemcpyAsync(h, summary, sizeof h, cudaMemcpyDeviceToHost, stream));
  IRREGFIX_TRY(cudaStreamSynchronize(stream));
  resolve_timings(ss, false);
  long long cmin = 0, cmax = 0, r2[kR2Slots];
  std::memcpy(r2, h + 16, sizeof r2);
  if (!index_to_ll(h, c_kind, &cmin) || !index_to_ll(h + 8, c_kind, &cmax) || cmin < rlo ||
      cmax >= rhi - 1 || r2[kR2MinLen] == -2)
    return "bad index data: C indexes outside B's allocation";
  if (r2[kR2MinLen] < 0)
    return "bad index data: B is not monotone or a row is longer than INT_MAX";
  bsrc.extent = Range{bsrc.ptr + static_cast<std::uintptr_t>(cmin * static_cast<long long>(index_size(b_kind))),
                      static_cast<std::size_t>(cmax + 2 - cmin) * index_size(b_kind)};
  const long long lo = r2[kR2MaxEnd] > r2[kR2MinStart] ? r2[kR2MinStart] : 0;
  const long long hi = r2[kR2MaxEnd] > r2[kR2MinStart] ? r2[kR2MaxEnd] : 0;
  const long long max_len = r2[kR2MaxLen] > 0 ? r2[kR2MaxLen] : 0;
  std::vector<std::size_t> need(static_cast<std::size_t>(count));
  std::size_t total_need = len_bytes + start_bytes;
  for (int i = 0; i < count; ++i) {
    why = check_extent(arrays[i], elem_sizes[i], lo, hi, &sources[i]);
    if (!why.empty())
      return why;
    why = copy_bytes(static_cast<unsigned long long>(max_len) * static_cast<unsigned long long>(n),
                     elem_sizes[i], &need[i]);
    if (!why.empty())
      return why;
    total_need += need[i];
  }
  if (!Cache::fits(st.cache.total_bytes(), old_bytes, total_need, st.cfg.max_bytes))
    return "over IRREGFIX_MAX_BYTES";
  why = ensure_copies(st, site, e, need);
  if (!why.empty())
    return why;
  e.sources = std::move(sources);
  e.index_sources = 2;
  e.max_len = static_cast<int>(max_len);
  e.nnz = r2[kR2SumLen];
  e.shape_valid = true;
  return copy_range2(ss, site, e, n, count, arrays, elem_sizes, stream);
}

struct NeighborArgs {
  const void *NB;
  int nb_kind;
  long long sj, st, m;
  const void *counts;
  int counts_kind;
};

std::string copy_neighbors(SiteStats &ss, const SiteInfo &site, Entry &e, const NeighborArgs &a,
                           long long n, const void *A, std::size_t esz, cudaStream_t stream) {
  return run_copies(
      ss, site, e, 1, "remap_neighbors", stream,
      [&](int) {
        return remap_neighbors(a.NB, a.nb_kind, a.sj, a.st, e.jmax, a.counts, a.counts_kind, n, A, esz,
                               e.idx_lo, e.idx_hi, e.bufs[0], stream);
      },
      [&](int) { return static_cast<unsigned long long>(e.jmax) * static_cast<unsigned long long>(n) * esz; });
}

// Neighbour list: the copy has max(count) columns (m without counts). Without
// counts nothing is read back; with them, one CUB min/max and one round trip.
// NB must lie in its allocation for every (t, j < columns); indices outside A's
// allocation are sentinels, skipped.
std::string build_neighbors(State &st, SiteStats &ss, const SiteInfo &site, Entry &e, int dev,
                            const NeighborArgs &a, long long n, const void *A, std::size_t esz,
                            cudaStream_t stream) {
  if (e.shape_valid && e.bufs.size() == 1)
    return copy_neighbors(ss, site, e, a, n, A, esz, stream);
  if (a.m < 0)
    return "bad index data: negative neighbour count m";
  std::vector<SourceRange> sources(a.counts ? 3 : 2);
  long long jmax = a.m;
  std::string why;
  if (a.counts) {
    long long klo = 0, khi = 0;
    why = index_source(a.counts, a.counts_kind, 0, n, &sources[2], &klo, &khi);
    if (!why.empty())
      return why;
    if (klo > 0 || khi < n)
      return "bad index data: counts[0..n) reaches outside its allocation";
    std::size_t temp_bytes = 0;
    IRREGFIX_TRY(minmax_indices(a.counts, a.counts_kind, n, nullptr, nullptr, &temp_bytes, stream));
    Scratch *sc = nullptr;
    why = ensure_scratch(st, site, dev, temp_bytes, &sc);
    if (!why.empty())
      return why;
    IRREGFIX_TRY(minmax_indices(a.counts, a.counts_kind, n, sc->summary, sc->temp, &temp_bytes,
                                stream));
    unsigned char h[16];
    IRREGFIX_TRY(cudaMemcpyAsync(h, sc->summary, sizeof h, cudaMemcpyDeviceToHost, stream));
    IRREGFIX_TRY(cudaStreamSynchronize(stream));
    resolve_timings(ss, false);
    long long kmin = 0, kmax = 0;
    if (!index_to_ll(h, a.counts_kind, &kmin) || !index_to_ll(h + 8, a.counts_kind, &kmax))
      return "bad index data: a neighbour count does not fit a long long";
    jmax = kmax > 0 ? kmax : 0;
  }
  // Offsets j*sj + t*st over j < jmax, t < n: their least and greatest.
  long long omin = 0, omax = 0;
  if (jmax > 0) {
    long long jx = 0, tx = 0;
    if (__builtin_mul_overflow(jmax - 1, a.sj, &jx) || __builtin_mul_overflow(n - 1, a.st, &tx) ||
        __builtin_add_overflow(jx < 0 ? jx : 0, tx < 0 ? tx : 0, &omin) ||
        __builtin_add_overflow(jx > 0 ? jx : 0, tx > 0 ? tx : 0, &omax))
      return "bad index data: neighbour list offsets overflow";
  }
  long long nlo = 0, nhi = 0;
  why = index_source(a.NB, a.nb_kind, omin, jmax > 0 ? omax + 1 : omin, &sources[1], &nlo, &nhi);
  if (!why.empty())
    return why;
  if (jmax > 0 && (omin < nlo || omax >= nhi))
    return "bad index data: the neighbour list reaches outside its allocation";
  long long lo = 0, hi = 0;
  why = gather_source(A, esz, &sources[0], &lo, &hi);
  if (!why.empty())
    return why;
  unsigned long long cells = 0;
  std::size_t need = 0;
  if (__builtin_mul_overflow(static_cast<unsigned long long>(jmax), static_cast<unsigned long long>(n), &cells))
    return "remapped copy too large";
  why = copy_bytes(cells, esz, &need);
  if (!why.empty())
    return why;
  if (!Cache::fits(st.cache.total_bytes(), e.bytes(), need, st.cfg.max_bytes))
    return "over IRREGFIX_MAX_BYTES";
  why = ensure_copies(st, site, e, {need});
  if (!why.empty())
    return why;
  e.sources = std::move(sources);
  e.index_sources = a.counts ? 2 : 1;
  e.idx_lo = lo;
  e.idx_hi = hi;
  e.jmax = jmax;
  e.max_len = static_cast<int>(jmax < INT_MAX ? jmax : INT_MAX);
  e.shape_valid = true;
  return copy_neighbors(ss, site, e, a, n, A, esz, stream);
}

void fill_view(const Entry &e, View *view, const void **remapped) {
  view->len = static_cast<const int *>(e.len);
  view->n = e.key.n;
  view->layout = e.layout;
  view->slice_start = e.layout == kLayoutSell32 || e.layout == kLayoutSell32Sigma
                          ? static_cast<const long long *>(e.aux)
                          : nullptr;
  view->perm = e.layout == kLayoutSell32Sigma ? static_cast<const int *>(e.perm) : nullptr;
  for (std::size_t i = 0; i < e.bufs.size(); ++i)
    remapped[i] = e.bufs[i];
}

// Records a call that cannot even form a key (no arrays, no index array).
void no_arrays(const SiteInfo &site, const char *why) {
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  ensure_loaded(st);
  record_fallback(site_stats(st, site), why);
}

// What a prepare call names, before it is a CacheKey: the hit path compares it
// with the entry the site used last without building a key.
struct KeyArgs {
  int pattern = kPatternRange;
  const void *B = nullptr;
  int b_kind = 0;
  const void *C = nullptr;
  int c_kind = 0;
  long long n = 0;
  int count = 0;
  const void *const *sources = nullptr;
  const size_t *sizes = nullptr;
  std::vector<long long> params; // only neighbours have any (three)
};

// The cache-key layout of a range site under the configured layout (ELL,
// SELL-32, or auto's own value); other patterns are always ELL.
// SELL-32-sigma only for kernels that declare themselves permutable, launched
// with a thread for every row; forced on another launch, it means SELL-32.
int key_layout(const Config &cfg, int pattern, bool may_permute) {
  if (pattern != kPatternRange)
    return kLayoutEllColMajor;
  if (cfg.layout == kLayoutSell32Sigma)
    return may_permute ? kLayoutSell32Sigma : kLayoutSell32;
  return cfg.layout == kLayoutEllColMajor ? kLayoutEllColMajor
         : cfg.layout == kLayoutSell32    ? kLayoutSell32
                                          : kLayoutKeyAuto;
}

bool same_call(const CacheKey &k, const KeyArgs &a, int device, int layout) {
  if (k.device != device || k.pattern != a.pattern || k.B != a.B || k.b_kind != a.b_kind ||
      k.C != a.C || k.c_kind != a.c_kind || k.n != a.n || k.layout != layout ||
      k.sources.size() != static_cast<std::size_t>(a.count) || k.params != a.params)
    return false;
  for (int i = 0; i < a.count; ++i)
    if (k.sources[i] != a.sources[i] || k.elem_sizes[i] != a.sizes[i])
      return false;
  return true;
}

CacheKey make_key(const SiteInfo &site, const KeyArgs &a, int device, int layout) {
  CacheKey key;
  key.device = device;
  key.site = site.id ? site.id : "?";
  key.pattern = a.pattern;
  key.B = a.B;
  key.b_kind = a.b_kind;
  key.C = a.C;
  key.c_kind = a.c_kind;
  key.n = a.n;
  key.sources.assign(a.sources, a.sources + a.count);
  key.elem_sizes.assign(a.sizes, a.sizes + a.count);
  key.params = a.params;
  key.layout = layout;
  return key;
}

// The launch's stream must see the copy's last remap (done on another stream).
std::string wait_for_copy(const SiteInfo &site, const Entry &e, cudaStream_t stream) {
  if (e.built_on != stream)
    IRREGFIX_TRY(cudaStreamWaitEvent(stream, e.ready, 0));
  return "";
}

// The common path of every prepare_*. A launch whose site used the same,
// valid entry last time is a hit found without building or hashing a key.
template <class Build>
bool prepare(const SiteInfo &site, const KeyArgs &args, View *view, const void **remapped,
             cudaStream_t stream, Build build) {
  int dev = 0;
  cudaError_t err = cudaGetDevice(&dev);
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  ensure_loaded(st);
  if (err != cudaSuccess) {
    record_fallback(site_stats(st, site), cuda_failure("cudaGetDevice", site, err));
    return false;
  }
  SiteRecord &rec = site_record(st, site, dev);
  SiteStats &ss = *rec.stats;
  const bool may_permute = (site.flags & kSitePermutable) && launch_covers(st, args.n);
  const int layout = key_layout(st.cfg, args.pattern, may_permute);
  // An auto entry built as SELL-32-sigma serves only launches that may permute.
  auto usable = [&](const Entry &e) { return may_permute || e.layout != kLayoutSell32Sigma; };
  if (!st.cfg.disabled && st.cfg.layout != kLayoutChoiceNone && rec.last && rec.last->valid &&
      usable(*rec.last) && same_call(rec.last->key, args, dev, layout)) {
    std::string why = wait_for_copy(site, *rec.last, stream);
    if (!why.empty()) {
      record_fallback(ss, why);
      return false;
    }
    ++ss.hits;
    fill_view(*rec.last, view, remapped);
    launch_prepared(st, rec, false, stream);
    return true;
  }

  ss.pattern = pattern_name(args.pattern); // the entry point called names the pattern
  if (st.cfg.disabled) {
    record_fallback(ss, "disabled by IRREGFIX_DISABLE");
    return false;
  }
  if (st.cfg.layout == kLayoutChoiceNone) {
    record_fallback(ss, "IRREGFIX_LAYOUT=none");
    return false;
  }
  if (args.n <= 0 || !args.B) {
    record_fallback(ss, "no threads or no index array");
    return false;
  }
  for (int i = 0; i < args.count; ++i)
    if (!args.sources[i]) {
      record_fallback(ss, "null source array");
      return false;
    }
  CacheKey key = make_key(site, args, dev, layout);
  Entry *e = nullptr;
  Cache::Lookup found = st.cache.lookup(key, &e);
  if (found != Cache::kMiss && !usable(*e)) {
    record_fallback(ss, "the copy is SELL-32-sigma, and this launch has fewer threads than rows");
    return false;
  }
  if (found == Cache::kHit) {
    std::string why = wait_for_copy(site, *e, stream);
    if (!why.empty()) {
      record_fallback(ss, why);
      return false;
    }
    ++ss.hits;
    rec.last = e;
    fill_view(*e, view, remapped);
    launch_prepared(st, rec, false, stream);
    return true;
  }
  if (found == Cache::kMiss) {
    ++ss.misses;
    e = st.cache.insert(key);
    e->layout = key.pattern == kPatternRange ? kLayoutEllColMajor : key.layout; // range: set by build
  } else {
    ++ss.refreshes;
  }
  std::string why = build(st, ss, *e, dev);
  if (!why.empty()) {
    drop_entry(st, key);
    record_fallback(ss, why);
    return false;
  }
  ss.layout = e->layout;
  rec.last = e;
  fill_view(*e, view, remapped);
  launch_prepared(st, rec, true, stream);
  return true;
}

KeyArgs key_args(int pattern, const void *B, int b_kind, const void *C, int c_kind, long long n,
                 int count, const void *const *sources, const size_t *sizes) {
  KeyArgs a;
  a.pattern = pattern;
  a.B = B;
  a.b_kind = b_kind;
  a.C = C;
  a.c_kind = c_kind;
  a.n = n;
  a.count = count;
  a.sources = sources;
  a.sizes = sizes;
  return a;
}

} // namespace
} // namespace detail

bool prepare_range(const SiteInfo &site, const void *B, IndexKind b_kind, long long n, int count,
                   const void *const *arrays, const size_t *elem_sizes, View *view,
                   const void **remapped, cudaStream_t stream) {
  using namespace detail;
  if (count <= 0 || !arrays || !elem_sizes) {
    no_arrays(site, "no arrays to remap");
    return false;
  }
  const KeyArgs args = key_args(kPatternRange, B, b_kind, nullptr, 0, n, count, arrays, elem_sizes);
  return prepare(site, args, view, remapped, stream,
                 [&](State &st, SiteStats &ss, Entry &e, int dev) {
                   return build_range(st, ss, site, e, dev, B, b_kind, n, count, arrays,
                                      elem_sizes, stream);
                 });
}

bool prepare_gather(const SiteInfo &site, const void *B, IndexKind b_kind, long long n,
                    const void *A, size_t elem_size, View *view, const void **remapped,
                    cudaStream_t stream) {
  using namespace detail;
  const KeyArgs args = key_args(kPatternGather, B, b_kind, nullptr, 0, n, 1, &A, &elem_size);
  return prepare(site, args, view, remapped, stream,
                 [&](State &st, SiteStats &ss, Entry &e, int) {
                   return build_gather(st, ss, site, e, B, b_kind, n, A, elem_size, stream);
                 });
}

bool prepare_range2(const SiteInfo &site, const void *B, IndexKind b_kind, const void *C,
                    IndexKind c_kind, long long n, int count, const void *const *arrays,
                    const size_t *elem_sizes, View *view, const void **remapped,
                    cudaStream_t stream) {
  using namespace detail;
  if (count <= 0 || !arrays || !elem_sizes) {
    no_arrays(site, "no arrays to remap");
    return false;
  }
  if (!C && n > 0) {
    no_arrays(site, "no threads or no index array");
    return false;
  }
  const KeyArgs args = key_args(kPatternRange2, B, b_kind, C, c_kind, n, count, arrays, elem_sizes);
  return prepare(site, args, view, remapped, stream,
                 [&](State &st, SiteStats &ss, Entry &e, int dev) {
                   return build_range2(st, ss, site, e, dev, B, b_kind, C, c_kind, n, count,
                                       arrays, elem_sizes, stream);
                 });
}

bool prepare_gather2(const SiteInfo &site, const void *B, IndexKind b_kind, const void *C,
                     IndexKind c_kind, long long n, const void *A, size_t elem_size, View *view,
                     const void **remapped, cudaStream_t stream) {
  using namespace detail;
  if (!C && n > 0) {
    no_arrays(site, "no threads or no index array");
    return false;
  }
  const KeyArgs args = key_args(kPatternGather2, B, b_kind, C, c_kind, n, 1, &A, &elem_size);
  return prepare(site, args, view, remapped, stream,
                 [&](State &st, SiteStats &ss, Entry &e, int dev) {
                   return build_gather2(st, ss, site, e, dev, B, b_kind, C, c_kind, n, A,
                                        elem_size, stream);
                 });
}

bool prepare_neighbors(const SiteInfo &site, const void *NB, IndexKind nb_kind,
                       long long stride_j, long long stride_t, long long m, const void *counts,
                       IndexKind counts_kind, long long n, const void *A, size_t elem_size,
                       View *view, const void **remapped, cudaStream_t stream) {
  using namespace detail;
  KeyArgs args = key_args(kPatternNeighbors, NB, nb_kind, counts, counts ? counts_kind : 0, n, 1,
                          &A, &elem_size);
  args.params = {stride_j, stride_t, m};
  const NeighborArgs nargs{NB, nb_kind, stride_j, stride_t, m, counts, counts_kind};
  return prepare(site, args, view, remapped, stream,
                 [&](State &st, SiteStats &ss, Entry &e, int dev) {
                   return build_neighbors(st, ss, site, e, dev, nargs, n, A, elem_size, stream);
                 });
}

bool disjoint(const SiteInfo &site, const void *written, const void *read) {
  using namespace detail;
  if (!written || !read)
    return true;
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  auto known = [&](const void *p, Range *r) {
    auto it = st.allocations.find(p);
    if (it == st.allocations.end()) {
      if (st.allocations.size() > 4096) // a program that allocates without end
        st.allocations.clear();
      Range found;
      it = st.allocations.emplace(p, allocation_of(p, &found) ? found : Range{}).first;
    }
    *r = it->second;
    return !r->empty();
  };
  Range w, r;
  const bool wk = known(written, &w);
  const bool rk = known(read, &r);
  std::string why;
  if (wk && rk) {
    if (w.base != r.base)
      return true;
    why = "written pointer may alias a read array (same device allocation)";
  } else if (wk != rk) {
    return true; // one device allocation, one not: different memory
  } else {
    why = "written pointer may alias a read array (not device allocations)";
  }
  ensure_loaded(st);
  record_fallback(site_stats(st, site), why);
  return false;
}

void note_fallback(const SiteInfo &site, const char *why) {
  using namespace detail;
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  ensure_loaded(st);
  record_fallback(site_stats(st, site), why ? why : "unspecified");
}

namespace testing {

SiteCounters site_counters(const char *site_id) {
  using namespace detail;
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  SiteCounters c;
  auto it = st.stats.find(site_id ? site_id : "");
  if (it == st.stats.end())
    return c;
  const SiteStats &s = it->second;
  c.launches = s.launches;
  c.hits = s.hits;
  c.misses = s.misses;
  c.refreshes = s.refreshes;
  c.remaps = s.remaps;
  c.fallbacks = s.fallback_count();
  c.bytes_remapped = s.bytes_remapped;
  c.last_fallback = s.last_fallback;
  c.chosen_original = s.chosen_original;
  return c;
}

void reset() {
  using namespace detail;
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  int dev = 0;
  const bool have_dev = cudaGetDevice(&dev) == cudaSuccess;
  cudaDeviceSynchronize();
  for (auto &e : st.cache.clear()) {
    if (have_dev)
      cudaSetDevice(e->key.device);
    free_entry_buffers(*e);
  }
  resolve_all_timings(st);
  clear_launch_records(st);
  st.sites.clear();
  st.stats.clear();
  st.allocations.clear();
  ++st.epoch;
  if (have_dev)
    cudaSetDevice(dev);
  cudaGetLastError();
  st.loaded = false;
  ensure_loaded(st);
}

void set_disabled(bool disabled) {
  detail::State &st = detail::state();
  std::lock_guard<std::mutex> lock(st.mu);
  detail::ensure_loaded(st);
  st.cfg.disabled = disabled;
}

void set_max_bytes(unsigned long long max_bytes) {
  detail::State &st = detail::state();
  std::lock_guard<std::mutex> lock(st.mu);
  detail::ensure_loaded(st);
  st.cfg.max_bytes = max_bytes;
}

void set_layout(int layout) {
  detail::State &st = detail::state();
  std::lock_guard<std::mutex> lock(st.mu);
  detail::ensure_loaded(st);
  st.cfg.layout = layout == kLayoutEllColMajor || layout == kLayoutSell32 ||
                          layout == kLayoutSell32Sigma || layout == detail::kLayoutChoiceNone
                      ? layout
                      : 0;
}

void set_sigma(int sigma) {
  detail::State &st = detail::state();
  std::lock_guard<std::mutex> lock(st.mu);
  detail::ensure_loaded(st);
  st.cfg.sigma = detail::round_sigma(sigma);
}

void set_fail_alloc(bool fail) {
  detail::State &st = detail::state();
  std::lock_guard<std::mutex> lock(st.mu);
  detail::ensure_loaded(st);
  st.cfg.fail_alloc = fail;
}

std::size_t cached_bytes() {
  detail::State &st = detail::state();
  std::lock_guard<std::mutex> lock(st.mu);
  return st.cache.total_bytes();
}

std::size_t known_allocations() {
  detail::State &st = detail::state();
  std::lock_guard<std::mutex> lock(st.mu);
  return st.allocations.size();
}

std::string stats_report() {
  detail::State &st = detail::state();
  std::lock_guard<std::mutex> lock(st.mu);
  detail::resolve_all_timings(st);
  return detail::format_stats(st.stats);
}

} // namespace testing
} // namespace irregfix

// A write: copies built from the allocation holding ptr go stale. The cache
// knows its sources' allocations, so this asks the driver nothing.
extern "C" void irregfix_invalidate(const void *ptr) {
  using namespace irregfix::detail;
  if (!ptr)
    return;
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  if (st.cache.size() != 0)
    st.cache.invalidate(reinterpret_cast<std::uintptr_t>(ptr), Range{});
}

// A free: as a write, and the allocation ranges remembered for alias checks
// around ptr are forgotten (the address may come back in another allocation).
extern "C" void irregfix_release(const void *ptr) {
  using namespace irregfix::detail;
  if (!ptr)
    return;
  irregfix_invalidate(ptr);
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  const auto p = reinterpret_cast<std::uintptr_t>(ptr);
  for (auto it = st.allocations.begin(); it != st.allocations.end();)
    it = it->first == ptr || it->second.contains(p) ? st.allocations.erase(it) : std::next(it);
}
