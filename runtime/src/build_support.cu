// irregfix runtime: helpers of the entry builders. See build.h.
#include "build.h"

#include <cuda.h>

#include <climits>
#include <cstdint>
#include <cstdio>

namespace irregfix {
namespace detail {
namespace {

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

} // namespace

// Device allocation of the runtime; IRREGFIX_FAIL_ALLOC makes it fail.
cudaError_t dev_alloc(const State &st, void **p, std::size_t bytes) {
  *p = nullptr;
  if (st.cfg.fail_alloc)
    return cudaErrorMemoryAllocation;
  return cudaMalloc(p, bytes ? bytes : 1);
}

bool allocation_of(const void *p, Range *r, int *memory) {
  *r = Range{};
  if (memory)
    *memory = cudaMemoryTypeUnregistered;
  if (!p)
    return false;
  cudaPointerAttributes attr{};
  if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  if (memory)
    *memory = attr.type;
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
  auto free_buffer = [](void *&p, std::size_t &bytes) {
    if (p)
      cudaFree(p);
    p = nullptr;
    bytes = 0;
  };
  free_buffer(e.len, e.len_bytes);
  free_buffer(e.aux, e.aux_bytes);
  free_buffer(e.perm, e.perm_bytes);
  free_buffer(e.uniq, e.uniq_bytes);
  free_buffer(e.block_first, e.block_first_bytes);
  free_buffer(e.local, e.local_bytes);
  free_buffer(e.indices, e.indices_bytes);
  free_buffer(e.order_index, e.order_index_bytes);
  free_buffer(e.renumber, e.renumber_bytes);
  for (std::size_t i = 0; i < e.renumbered_copies.size(); ++i)
    free_buffer(e.renumbered_copies[i], e.renumbered_copy_bytes[i]);
  e.renumbered_copies.clear();
  e.renumbered_copy_bytes.clear();
  e.renumbered = false;
  if (e.renumbered_read)
    cudaEventDestroy(e.renumbered_read);
  e.renumbered_read = nullptr;
  for (int k = 0; k < kScatterTables; ++k)
    free_buffer(e.scatter[k], e.scatter_bytes[k]);
  e.index_ptrs.clear();
  for (void *b : e.bufs)
    if (b)
      cudaFree(b);
  if (e.ready)
    cudaEventDestroy(e.ready);
  e.bufs.clear();
  e.buf_bytes.clear();
  e.ready = nullptr;
}

void drop_entry(State &st, const CacheKey &key) {
  std::unique_ptr<Entry> e = st.cache.remove(key);
  if (!e)
    return;
  for (auto &kv : st.sites) {
    SiteRecord &r = kv.second;
    if (r.last == e.get())
      r.last = nullptr;
    for (Entry *&recent : r.recent)
      if (recent == e.get())
        recent = nullptr;
    for (Entry *&copy : r.candidate_copy)
      if (copy == e.get())
        copy = nullptr;
  }
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

std::string minmax_to_summary(State &st, const SiteInfo &site, int dev, const void *p, int kind,
                              long long n, cudaStream_t stream, Scratch **out) {
  std::size_t temp_bytes = 0;
  IRREGFIX_TRY(minmax_indices(p, kind, n, nullptr, nullptr, &temp_bytes, stream));
  std::string why = ensure_scratch(st, site, dev, temp_bytes, out);
  if (!why.empty())
    return why;
  IRREGFIX_TRY(minmax_indices(p, kind, n, (*out)->summary, (*out)->temp, &temp_bytes, stream));
  return "";
}

std::string read_index_minmax(State &st, SiteStats &ss, const SiteInfo &site, int dev, const void *p,
                              int kind, long long n, cudaStream_t stream, long long *min,
                              long long *max, bool *fits) {
  Scratch *sc = nullptr;
  std::string why = minmax_to_summary(st, site, dev, p, kind, n, stream, &sc);
  if (!why.empty())
    return why;
  unsigned char h[16];
  IRREGFIX_TRY(cudaMemcpyAsync(h, sc->summary, sizeof h, cudaMemcpyDeviceToHost, stream));
  IRREGFIX_TRY(cudaStreamSynchronize(stream));
  resolve_timings(ss, false);
  *fits = index_to_ll(h, kind, min) && index_to_ll(h + 8, kind, max);
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
  if (!allocation_of(p, &src->allocation, &src->memory))
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

std::string copies_enqueued(SiteStats &ss, const SiteInfo &site, Entry &e,
                            unsigned long long bytes, cudaStream_t stream) {
  IRREGFIX_TRY(cudaEventRecord(e.ready, stream));
  ++ss.remaps;
  ss.bytes_remapped += bytes;
  e.built_on = stream;
  e.valid = true;
  return "";
}

std::string start_copy(Launch *l, DeferredCopy copy, cudaStream_t stream) {
  const SiteInfo &site = *copy.site;
  Entry &e = *copy.entry;
  if (!e.ready)
    IRREGFIX_TRY(cudaEventCreateWithFlags(&e.ready, cudaEventDisableTiming));
  if (takes_copies(l)) {
    take_copies(*l, std::move(copy));
    return "";
  }
  const std::string why = enqueue_timed(*copy.stats, site, copy.count, copy.n, copy.what, stream, copy.copy);
  return why.empty() ? copies_enqueued(*copy.stats, site, e, copy.bytes, stream) : why;
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

// A data array read by a gather: its allocation (the extent, for invalidation)
// and the element indices that lie inside it. Indices outside are sentinels.
std::string gather_source(const void *A, std::size_t esz, SourceRange *src, long long *lo,
                          long long *hi) {
  src->ptr = reinterpret_cast<std::uintptr_t>(A);
  if (!allocation_of(A, &src->allocation, &src->memory))
    return "a remapped array is not device memory";
  src->extent = src->allocation;
  if (!element_bounds(src->allocation.base, src->allocation.size, src->ptr, esz, lo, hi))
    return "a remapped array is not device memory";
  return "";
}

// An index array read by the remap itself: device memory, and the valid element
// indices of its allocation.
std::string whole_index_source(const void *p, int kind, long long n, const char *name,
                               SourceRange *src) {
  long long lo = 0, hi = 0;
  std::string why = index_source(p, kind, 0, n, src, &lo, &hi);
  if (why.empty() && (lo > 0 || hi < n))
    why = std::string("bad index data: ") + name + "[0..n) reaches outside its allocation";
  return why;
}

std::string index_source(const void *p, int kind, long long lo, long long hi, SourceRange *src,
                         long long *alo, long long *ahi) {
  src->ptr = reinterpret_cast<std::uintptr_t>(p);
  if (!allocation_of(p, &src->allocation, &src->memory))
    return "the index array is not device memory";
  const std::size_t isz = index_size(kind);
  if (!element_bounds(src->allocation.base, src->allocation.size, src->ptr, isz, alo, ahi))
    return "the index array is not device memory";
  src->extent = hi > lo ? Range{src->ptr + static_cast<std::uintptr_t>(lo * static_cast<long long>(isz)),
                                static_cast<std::size_t>(hi - lo) * isz}
                        : Range{src->ptr, 0};
  return "";
}

} // namespace detail
} // namespace irregfix
