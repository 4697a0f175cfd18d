// irregfix runtime: program-wide renumbering. See domain.h.
#include "domain.h"

#include <algorithm>
#include <cstdio>

namespace irregfix {
namespace detail {

namespace {

// a[k] in [0, n) becomes map[a[k]]; other values (sentinels, slots a kernel
// never wrote) stay: both directions are the same bijection's two halves.
template <class T> __global__ void translate_numbers(T *a, long long count, const int *map, long long n) {
  for (long long k = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; k < count;
       k += static_cast<long long>(gridDim.x) * blockDim.x) {
    const T v = a[k];
    if (v >= 0 && static_cast<long long>(v) < n)
      a[k] = static_cast<T>(map[v]);
  }
}

cudaError_t translate(DomainArray &arr, const int *map, long long n, cudaStream_t stream) {
  const long long count = static_cast<long long>(arr.range.size / arr.elem);
  const unsigned blocks = static_cast<unsigned>(std::min<long long>((count + 255) / 256, 65535LL * 4));
  if (count <= 0)
    return cudaSuccess;
  void *p = reinterpret_cast<void *>(arr.range.base);
  if (arr.elem == 8)
    translate_numbers<<<blocks, 256, 0, stream>>>(static_cast<long long *>(p), count, map, n);
  else
    translate_numbers<<<blocks, 256, 0, stream>>>(static_cast<int *>(p), count, map, n);
  return cudaGetLastError();
}

// Each column of n elements goes through `order` (out[p] = in[order[p]]).
cudaError_t permute_columns(Domain &d, DomainArray &arr, const int *order, cudaStream_t stream) {
  const std::size_t column = static_cast<std::size_t>(d.n) * arr.elem;
  cudaError_t e = domain_scratch(d, column);
  for (long long c = 0; e == cudaSuccess && c < arr.columns; ++c) {
    char *col = reinterpret_cast<char *>(arr.range.base) + c * column;
    if ((e = gather_in_order(order, d.n, 0, d.n - 1, col, arr.elem, d.scratch, stream)) == cudaSuccess)
      e = cudaMemcpyAsync(col, d.scratch, column, cudaMemcpyDeviceToDevice, stream);
  }
  return e;
}

// The positions of an array of elements, the values of an array of numbers.
cudaError_t move(Domain &d, DomainArray &arr, const int *positions, const int *values, cudaStream_t stream,
                 bool sync) {
  // Whatever the program queued on its streams comes first: on the legacy
  // default stream by its own ordering, else by waiting for the device.
  cudaError_t e = sync ? cudaDeviceSynchronize() : cudaSuccess;
  if (e == cudaSuccess && (arr.role & kDomainElements))
    e = permute_columns(d, arr, positions, stream);
  if (e == cudaSuccess && (arr.role & kDomainNumbers))
    e = translate(arr, values, d.n, stream);
  if (e == cudaSuccess && sync)
    e = cudaDeviceSynchronize();
  const double bytes = (arr.role & kDomainElements ? 3.0 * arr.columns * d.n * arr.elem : 0.0) +
                       (arr.role & kDomainNumbers ? 2.0 * arr.range.size : 0.0);
  d.stats.moved_mb += bytes / 1e6;
  return e;
}

} // namespace

cudaError_t domain_scratch(Domain &d, std::size_t bytes) {
  if (d.scratch_bytes >= bytes)
    return cudaSuccess;
  if (d.scratch)
    cudaFree(d.scratch);
  d.scratch = nullptr;
  d.scratch_bytes = 0;
  const cudaError_t e = cudaMalloc(&d.scratch, bytes);
  if (e == cudaSuccess)
    d.scratch_bytes = bytes;
  return e;
}

cudaError_t domain_measure(Domain &d, const AccessList &a, const int *perm, int per_sector, double *sectors) {
  std::size_t need = 0;
  cudaError_t e = sample_scratch_bytes(&need);
  if (e == cudaSuccess)
    e = domain_scratch(d, need);
  if (e == cudaSuccess && !d.counts)
    e = cudaMalloc(&d.counts, 2 * sizeof(unsigned long long));
  if (e == cudaSuccess)
    e = sample_sectors(a, perm, per_sector, d.scratch, d.scratch_bytes, d.counts, 0);
  unsigned long long h[2] = {0, 0};
  if (e == cudaSuccess)
    e = cudaMemcpy(h, d.counts, sizeof(h), cudaMemcpyDeviceToHost);
  *sectors = h[1] ? static_cast<double>(h[0]) / static_cast<double>(h[1]) : 0.0;
  return e;
}

cudaError_t domain_order(Domain &d, const AccessList &a, int region, int per_sector) {
  cudaError_t e = cudaSuccess;
  if (d.n != a.n || !d.perm) {
    if (d.perm)
      cudaFree(d.perm);
    if (d.inv)
      cudaFree(d.inv);
    d.perm = d.inv = nullptr;
    d.n = a.n;
    if ((e = cudaMalloc(&d.perm, a.n * sizeof(int))) != cudaSuccess ||
        (e = cudaMalloc(&d.inv, a.n * sizeof(int))) != cudaSuccess)
      return e;
  }
  std::size_t need = 0;
  if ((e = order_scratch_bytes(a.n, &need)) != cudaSuccess || (e = domain_scratch(d, need)) != cudaSuccess)
    return e;
  int sweeps = 0;
  bool converged = false;
  if ((e = compute_order(a, region, d.perm, d.scratch, d.scratch_bytes, &sweeps, &converged, 0)) != cudaSuccess ||
      (e = invert_order(d.perm, a.n, d.inv, 0)) != cudaSuccess)
    return e;
  ++d.stats.orders;
  e = domain_measure(d, a, d.perm, per_sector, &d.fresh);
  d.last = d.fresh;
  return e;
}

cudaError_t domain_renumber(Domain &d, DomainArray &arr, cudaStream_t stream, bool sync) {
  if (arr.renumbered)
    return cudaSuccess;
  const cudaError_t e = move(d, arr, d.perm, d.inv, stream, sync);
  if (e == cudaSuccess) {
    arr.renumbered = true;
    ++d.stats.renumbers;
  }
  return e;
}

cudaError_t domain_restore(Domain &d, DomainArray &arr, cudaStream_t stream, bool sync) {
  if (!arr.renumbered)
    return cudaSuccess;
  const cudaError_t e = move(d, arr, d.inv, d.perm, stream, sync);
  if (e == cudaSuccess) {
    arr.renumbered = false;
    ++d.stats.restores;
  }
  return e;
}

DomainArray *domain_array_at(Domain &d, const void *p) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  auto it = d.arrays.upper_bound(a);
  if (it == d.arrays.begin())
    return nullptr;
  --it;
  return it->second.range.contains(a) ? &it->second : nullptr;
}

void domain_free(Domain &d) {
  for (void *p : {static_cast<void *>(d.perm), static_cast<void *>(d.inv), d.scratch, static_cast<void *>(d.counts)})
    if (p)
      cudaFree(p);
  d.perm = d.inv = nullptr;
  d.scratch = nullptr;
  d.scratch_bytes = 0;
  d.counts = nullptr;
  d.arrays.clear();
  d.allocations.clear();
  d.n = 0;
}

std::string format_domain(const Domain &d) {
  if (d.stats.launches == 0)
    return "";
  char line[512];
  std::string out = "irregfix: program-wide renumbering: ";
  switch (d.status) {
  case Domain::kUndecided: out += "no order yet"; break;
  case Domain::kDeclined: out += "not formed: " + d.why; break;
  case Domain::kOff: out += "off: " + d.why; break;
  case Domain::kFormed:
    std::snprintf(line, sizeof line, "%lld elements in a locality order (sectors a read %.3f as numbered, %.3f in the order, %.3f at the latest check)",
                  d.n, d.identity, d.fresh, d.last);
    out += line;
    break;
  }
  std::snprintf(line, sizeof line,
                "\nirregfix:   %lld of %lld launches over it ran renumbered; %lld arrays renumbered, %lld restored "
                "(%.1f MB moved); %lld orders computed\n",
                d.stats.renumbered_launches, d.stats.launches, d.stats.renumbers, d.stats.restores, d.stats.moved_mb,
                d.stats.orders);
  out += line;
  for (const auto &kv : d.stats.boundaries)
    out += "irregfix:   restored for " + kv.first + ": " + std::to_string(kv.second) + "\n";
  return out;
}

} // namespace detail
} // namespace irregfix
