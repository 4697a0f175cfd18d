// Remap bandwidth: column-major ELL remap of a CSR value array vs a device copy
// of the same bytes. Prints, per matrix, median times of >= 20 runs (CUDA events)
// and bandwidth counting nnz*esz read + nnz*esz written.
#include <irregfix/irregfix.cuh>
#include <irregfix/testing.h>

#include "bench_support.cuh"

#include "remap.cuh"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>


// Naive thread-per-row remap into the same layout, for comparison.
__global__ void naive_remap(const int *B, long long n, long long width, const double *A, double *out) {
  long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  int b = B[t], e = B[t + 1];
  for (int it = 0; it < e - b; ++it)
    out[irregfix::ell_slot(t, it, width)] = A[b + it];
}

static void run(const char *name, long long n, int lo_len, int hi_len, size_t esz, int reps) {
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<int> dl(lo_len, hi_len);
  std::vector<int> B(n + 1);
  B[0] = 0;
  int max_len = 0;
  for (long long t = 0; t < n; ++t) {
    int l = dl(rng);
    max_len = std::max(max_len, l);
    B[t + 1] = B[t] + l;
  }
  long long nnz = B[n];
  int *dB;
  void *dA, *dOut, *dCopy;
  CK(cudaMalloc(&dB, (n + 1) * sizeof(int)));
  CK(cudaMalloc(&dA, nnz * esz));
  CK(cudaMalloc(&dOut, static_cast<size_t>(irregfix::ell_cells(n, max_len)) * esz));
  CK(cudaMalloc(&dCopy, nnz * esz));
  CK(cudaMemcpy(dB, B.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemset(dA, 0x5a, nnz * esz));
  irregfix::detail::RangePlan plan = irregfix::detail::plan_range(nnz, n, esz);
  float remap = median_ms([&] {
    CK(irregfix::detail::remap_range(dB, irregfix::kIndexI32, n, max_len, {0, n}, dA, esz, dOut, plan, 0));
  }, reps);
  std::string variants;
  for (int rpb : {256, 512, 1024}) {
    irregfix::detail::RangePlan vp = irregfix::detail::plan_range(nnz, n, esz, rpb);
    float ms = median_ms([&] {
      CK(irregfix::detail::remap_range(dB, irregfix::kIndexI32, n, max_len, {0, n}, dA, esz, dOut, vp, 0));
    }, reps);
    char buf[64];
    std::snprintf(buf, sizeof buf, " %d:%.4f", rpb, ms);
    variants += buf;
  }
  float copy = median_ms([&] { CK(cudaMemcpyAsync(dCopy, dA, nnz * esz, cudaMemcpyDeviceToDevice)); },
                         reps);
  float naive = -1;
  if (esz == 8) {
    naive = median_ms([&] {
      naive_remap<<<(unsigned)((n + 255) / 256), 256>>>(dB, n, max_len, static_cast<const double *>(dA),
                                                        static_cast<double *>(dOut));
      CK(cudaPeekAtLastError());
    }, reps);
  }
  double bytes = 2.0 * nnz * esz;
  std::printf("%-26s n=%9lld nnz=%10lld esz=%2zu rows/block=%4d seg=%6zu | remap %.4f ms %7.1f GB/s | copy %.4f ms "
              "%7.1f GB/s | remap/copy %5.1f%%",
              name, n, nnz, esz, plan.rows_per_block, plan.segment_bytes, remap, bytes / remap / 1e6, copy, bytes / copy / 1e6,
              100.0 * copy / remap);
  if (naive > 0)
    std::printf(" | naive thread-per-row %.4f ms (%5.1f%% of copy)", naive, 100.0 * copy / naive);
  std::printf("\n    rows/block variants (ms):%s\n", variants.c_str());
  // Whole prepare_range: miss (lengths, CUB, one sync, allocation, remap) and hit.
  irregfix::testing::reset();
  irregfix::SiteInfo site{"bench:1", "bench", "range"};
  const void *src[] = {dA};
  size_t sz[] = {esz};
  const void *o[1];
  irregfix::View v{};
  CK(cudaDeviceSynchronize());
  auto t0 = std::chrono::steady_clock::now();
  bool ok = irregfix::prepare_range(site, dB, irregfix::kIndexI32, n, 1, src, sz, &v, o, 0);
  CK(cudaDeviceSynchronize());
  auto t1 = std::chrono::steady_clock::now();
  bool ok2 = irregfix::prepare_range(site, dB, irregfix::kIndexI32, n, 1, src, sz, &v, o, 0);
  auto t2 = std::chrono::steady_clock::now();
  auto c = irregfix::testing::site_counters("bench:1");
  std::printf("    prepare_range miss %.3f ms wall (ok=%d), hit %.2f us wall (ok=%d), hits=%lld misses=%lld\n",
              std::chrono::duration<double, std::milli>(t1 - t0).count(), ok,
              std::chrono::duration<double, std::micro>(t2 - t1).count(), ok2, c.hits, c.misses);
  irregfix::testing::reset();
  CK(cudaFree(dB));
  CK(cudaFree(dA));
  CK(cudaFree(dOut));
  CK(cudaFree(dCopy));
}

// Neighbour-list gather (MD): out[ell_slot(t, j, m)] = pos[nb[j*sj + t*st]], m neighbours
// per atom, float4 (16 B). Random neighbours vs spatially sorted ones (within
// +-64 of t). Bandwidth counts element bytes read + written (m*n*16*2; the
// 4-byte indices are extra traffic, not counted); the copy moves the same bytes.
static void run_neighbors(long long n, long long m, bool sorted, bool t_major, int reps) {
  std::mt19937_64 rng(7);
  const size_t esz = 16;
  const long long sj = t_major ? 1 : n, st = t_major ? m : 1;
  std::vector<int> nb(static_cast<size_t>(n * m));
  for (long long t = 0; t < n; ++t)
    for (long long j = 0; j < m; ++j) {
      long long v = sorted ? (t + static_cast<long long>(rng() % 129) - 64 + n) % n
                           : static_cast<long long>(rng() % n);
      nb[static_cast<size_t>(j * sj + t * st)] = static_cast<int>(v);
    }
  int *dNB;
  void *dA, *dOut, *dCopy;
  const size_t bytes = static_cast<size_t>(irregfix::ell_cells(n, m)) * esz;
  CK(cudaMalloc(&dNB, nb.size() * sizeof(int)));
  CK(cudaMalloc(&dA, n * esz));
  CK(cudaMalloc(&dOut, bytes));
  CK(cudaMalloc(&dCopy, bytes));
  CK(cudaMemcpy(dNB, nb.data(), nb.size() * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemset(dA, 0x3c, n * esz));
  float remap = median_ms([&] {
    CK(irregfix::detail::remap_neighbors(dNB, irregfix::kIndexI32, sj, st, m, nullptr, 0, n,
                                         {0, n}, dA, esz, 0, n, dOut, 0));
  }, reps);
  float copy = median_ms([&] { CK(cudaMemcpyAsync(dCopy, dOut, bytes, cudaMemcpyDeviceToDevice)); },
                         reps);
  const double b2 = 2.0 * bytes;
  std::printf("neighbors n=%7lld m=%lld float4 %-6s %-7s | remap %.4f ms %7.1f GB/s | copy %.4f ms "
              "%7.1f GB/s | remap/copy %5.1f%%\n",
              n, m, sorted ? "sorted" : "random", t_major ? "nb[t*m+j]" : "nb[j*n+t]", remap,
              b2 / remap / 1e6, copy, b2 / copy / 1e6, 100.0 * copy / remap);
  // Whole prepare_neighbors: miss (no counts: no round trip) and hit.
  irregfix::testing::reset();
  irregfix::SiteInfo site{"bench:nb", "bench", "neighbors"};
  irregfix::View v{};
  const void *o = nullptr;
  CK(cudaDeviceSynchronize());
  auto t0 = std::chrono::steady_clock::now();
  bool ok = irregfix::prepare_neighbors(site, dNB, irregfix::kIndexI32, sj, st, m, nullptr,
                                        irregfix::kIndexI32, n, dA, esz, &v, &o, 0);
  CK(cudaDeviceSynchronize());
  auto t1 = std::chrono::steady_clock::now();
  irregfix_invalidate(dA); // a write to pos only: fast refresh
  bool ok2 = irregfix::prepare_neighbors(site, dNB, irregfix::kIndexI32, sj, st, m, nullptr,
                                         irregfix::kIndexI32, n, dA, esz, &v, &o, 0);
  auto t2 = std::chrono::steady_clock::now();
  CK(cudaDeviceSynchronize());
  std::printf("    prepare_neighbors miss %.3f ms wall (ok=%d), refresh enqueue %.2f us wall (ok=%d)\n",
              std::chrono::duration<double, std::milli>(t1 - t0).count(), ok,
              std::chrono::duration<double, std::micro>(t2 - t1).count(), ok2);
  irregfix::testing::reset();
  CK(cudaFree(dNB));
  CK(cudaFree(dA));
  CK(cudaFree(dOut));
  CK(cudaFree(dCopy));
}

// Two-level range (SP): rows of 5, C a random permutation of the rows. Times
// the row-start kernel (start[t] = B[C[t]], len[t]) and the copy separately;
// the copy's bandwidth counts nnz*esz read + written.
static void run_range2(long long n, int per_row, size_t esz, int reps) {
  std::mt19937_64 rng(11);
  std::vector<int> B(n + 1), C(n);
  for (long long t = 0; t <= n; ++t)
    B[t] = static_cast<int>(t * per_row);
  for (long long t = 0; t < n; ++t)
    C[t] = static_cast<int>(t);
  std::shuffle(C.begin(), C.end(), rng);
  const long long nnz = n * per_row;
  int *dB, *dC, *dLen;
  long long *dStart, *dSum;
  void *dA, *dOut, *dCopy;
  CK(cudaMalloc(&dB, (n + 1) * sizeof(int)));
  CK(cudaMalloc(&dC, n * sizeof(int)));
  CK(cudaMalloc(&dLen, n * sizeof(int)));
  CK(cudaMalloc(&dStart, n * sizeof(long long)));
  CK(cudaMalloc(&dSum, 8 * irregfix::detail::kR2Slots));
  CK(cudaMalloc(&dA, nnz * esz));
  CK(cudaMalloc(&dOut, static_cast<size_t>(irregfix::ell_cells(n, per_row)) * esz));
  CK(cudaMalloc(&dCopy, nnz * esz));
  CK(cudaMemcpy(dB, B.data(), B.size() * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dC, C.data(), C.size() * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemset(dA, 0x5a, nnz * esz));
  float rows = median_ms([&] {
    CK(irregfix::detail::range2_rows(dB, irregfix::kIndexI32, dC, irregfix::kIndexI32, n, 0, n + 1,
                                     dStart, dLen, dSum, 0));
  }, reps);
  float remap = median_ms([&] {
    CK(irregfix::detail::remap_range2(dStart, dLen, n, per_row, {0, n}, dA, esz, dOut, 0));
  }, reps);
  float copy = median_ms([&] { CK(cudaMemcpyAsync(dCopy, dA, nnz * esz, cudaMemcpyDeviceToDevice)); },
                         reps);
  const double b2 = 2.0 * nnz * esz;
  std::printf("range2 n=%lld %d/row esz=%zu C=perm | rows kernel %.4f ms | copy kernel %.4f ms %7.1f GB/s "
              "| memcpy %.4f ms %7.1f GB/s | copy-kernel/memcpy %5.1f%% | both kernels/memcpy %5.1f%%\n",
              n, per_row, esz, rows, remap, b2 / remap / 1e6, copy, b2 / copy / 1e6,
              100.0 * copy / remap, 100.0 * copy / (remap + rows));
  irregfix::testing::reset();
  irregfix::SiteInfo site{"bench:r2", "bench", "range2"};
  const void *src[] = {dA};
  size_t sz[] = {esz};
  const void *o[1];
  irregfix::View v{};
  CK(cudaDeviceSynchronize());
  auto t0 = std::chrono::steady_clock::now();
  bool ok = irregfix::prepare_range2(site, dB, irregfix::kIndexI32, dC, irregfix::kIndexI32, n, 1,
                                     src, sz, &v, o, 0);
  CK(cudaDeviceSynchronize());
  auto t1 = std::chrono::steady_clock::now();
  bool ok2 = irregfix::prepare_range2(site, dB, irregfix::kIndexI32, dC, irregfix::kIndexI32, n, 1,
                                      src, sz, &v, o, 0);
  auto t2 = std::chrono::steady_clock::now();
  std::printf("    prepare_range2 miss %.3f ms wall (ok=%d), hit %.2f us wall (ok=%d)\n",
              std::chrono::duration<double, std::milli>(t1 - t0).count(), ok,
              std::chrono::duration<double, std::micro>(t2 - t1).count(), ok2);
  irregfix::testing::reset();
  for (void *p : {static_cast<void *>(dB), static_cast<void *>(dC), static_cast<void *>(dLen),
                  static_cast<void *>(dStart), static_cast<void *>(dSum), dA, dOut, dCopy})
    CK(cudaFree(p));
}

int main(int argc, char **argv) {
  const bool only_new = argc > 1 && std::string(argv[1]) == "--new";
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("no CUDA device\n");
    return 0;
  }
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  std::printf("device: %s\n", p.name);
  const int reps = 25;
  for (long long n : {12288LL, 73728LL, 262144LL})
    for (bool sorted : {false, true})
      run_neighbors(n, 128, sorted, false, reps);
  run_neighbors(73728, 128, true, true, reps);
  run_neighbors(73728, 128, false, true, reps);
  for (size_t esz : {8, 4, 16})
    run_range2(1 << 20, 5, esz, reps);
  if (only_new)
    return 0;
  for (size_t esz : {8, 4}) {
    run("1M rows, 5/row", 1 << 20, 5, 5, esz, reps);
    run("1M rows, 7/row", 1 << 20, 7, 7, esz, reps);
    run("8M rows, 5/row", 8 << 20, 5, 5, esz, reps);
    run("8M rows, 7/row", 8 << 20, 7, 7, esz, reps);
  }
  run("8M rows, 1-13/row", 8 << 20, 1, 13, 8, reps);
  run("8M rows, 7/row", 8 << 20, 7, 7, 16, reps);
  return 0;
}
