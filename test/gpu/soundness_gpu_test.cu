// GPU tests of the cache's soundness rule (a copy is never served stale):
// irregfix_invalidate_all after writes the runtime cannot name (on every
// device), irregfix_invalidate_symbol for a __device__ array read as a source,
// disjoint_symbol, sources in managed memory written by the host between
// launches, unannounced (rebuilt at every launch), and device resets. Results are compared bit for
// bit with the original kernel on the same data. Each test skips itself
// without a device (or the devices it needs).
#include <irregfix/irregfix.cuh>
#include <irregfix/testing.h>

#include "device_test.cuh"
#include "row_sum_launch.cuh"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#define CK(x) ASSERT_EQ((x), cudaSuccess) << #x

namespace {

using irregfix::testing::invalidation_counters;
using irregfix::testing::site_counters;

// Row offsets of n rows of 0..max_len elements each.
std::vector<int> offsets(long long n, int max_len, std::mt19937 &r) {
  std::vector<int> B(n + 1, 0);
  for (long long t = 0; t < n; ++t)
    B[t + 1] = B[t] + static_cast<int>(r() % (max_len + 1));
  return B;
}

// The writer the runtime is not told about by name: A[i] = A[i] * 1.5 + step.
__global__ void untraced_write(long long count, float *A, float step) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < count)
    A[i] = A[i] * 1.5f + step;
}

// The transformed row sum against the original on the same data, bit for bit.
void expect_row_sums_match(long long n, const int *B, const float *A, float *y, float *y_ref,
                           const char *when) {
  row_sum::csr<<<static_cast<unsigned>((n + 255) / 256), 256>>>(n, B, A, y_ref);
  CK(cudaDeviceSynchronize());
  const std::vector<float> got = download(y, n), want = download(y_ref, n);
  ASSERT_EQ(0, std::memcmp(got.data(), want.data(), n * sizeof(float))) << when;
}

class Soundness : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (!IsSkipped())
      irregfix::testing::set_layout(irregfix::kLayoutEllColMajor); // always the transformed kernel
  }
};

} // namespace

// The program writes A (a kernel storing through a pointer the tool cannot
// trace) and once B (a copy it cannot name), and says so only through
// irregfix_invalidate_all: every launch after one refreshes, the one after
// B's change with a new shape, and a launch with nothing written hits.
TEST_F(Soundness, InvalidateAllRefreshesAfterWritesItCannotName) {
  std::mt19937 r(11);
  const long long n = 20000;
  const int max_len = 12;
  std::vector<int> hB = offsets(n, max_len, r);
  std::vector<float> hA(n * max_len);
  for (float &x : hA)
    x = static_cast<float>(r() % 1000) / 8.0f;
  int *B = upload(hB);
  float *A = upload(hA);
  float *y = upload(std::vector<float>(n)), *y_ref = upload(std::vector<float>(n));
  const irregfix::SiteInfo site{"soundness:all", "row_sum", "range", 0, nullptr, "A,B"};
  irregfix::testing::set_invalidation_points(true); // as IRREGFIX_STATS: the report names the points

  irregfix_invalidate_all(IRREGFIX_CAUSE_ENTRY, "soundness_gpu_test.cu:entry"); // empty cache: a count
  ASSERT_TRUE(row_sum::launch(site, n, B, A, y, 0)) << site_counters(site.id).last_fallback;
  expect_row_sums_match(n, B, A, y, y_ref, "first launch");
  for (int step = 1; step <= 3; ++step) {
    untraced_write<<<static_cast<unsigned>((hA.size() + 255) / 256), 256>>>(hA.size(), A, step);
    if (step == 2) { // new row lengths, within A
      hB = offsets(n, max_len, r);
      CK(cudaMemcpy(B, hB.data(), hB.size() * sizeof(int), cudaMemcpyHostToDevice));
    }
    irregfix_invalidate_all(IRREGFIX_CAUSE_UNTRACED_KERNEL, "soundness_gpu_test.cu:write");
    ASSERT_TRUE(row_sum::launch(site, n, B, A, y, 0));
    expect_row_sums_match(n, B, A, y, y_ref, ("after write " + std::to_string(step)).c_str());
  }
  ASSERT_TRUE(row_sum::launch(site, n, B, A, y, 0)); // nothing written: a hit
  expect_row_sums_match(n, B, A, y, y_ref, "hit");
  const auto c = site_counters(site.id);
  EXPECT_EQ(c.misses, 1);
  EXPECT_EQ(c.refreshes, 3);
  EXPECT_EQ(c.hits, 1);
  EXPECT_EQ(c.fallbacks, 0) << c.last_fallback;
  const auto inv = invalidation_counters();
  EXPECT_EQ(inv.all, 4);
  EXPECT_EQ(inv.all_stale, 3);
  const std::string report = irregfix::testing::stats_report();
  EXPECT_NE(report.find("every copy (irregfix_invalidate_all), untraced kernel: 3 calls, 3 copies "
                        "turned stale; most from soundness_gpu_test.cu:write (3)"),
            std::string::npos)
      << report;
  EXPECT_NE(report.find("every copy (irregfix_invalidate_all), entry: 1 call, 0 copies turned stale"),
            std::string::npos)
      << report;
}

// One copy on each of two devices: one irregfix_invalidate_all makes both stale.
TEST_F(Soundness, InvalidateAllReachesEveryDevice) {
  int devices = 0;
  CK(cudaGetDeviceCount(&devices));
  if (devices < 2)
    GTEST_SKIP() << "needs two CUDA devices";
  const long long n = 4096;
  std::mt19937 r(5);
  const std::vector<int> hB = offsets(n, 8, r);
  const std::vector<float> hA(n * 8, 1.25f);
  const irregfix::SiteInfo site{"soundness:devices", "row_sum", "range"};
  struct OnDevice {
    int *B = nullptr;
    float *A = nullptr, *y = nullptr, *y_ref = nullptr;
  } on[2];
  for (int d = 0; d < 2; ++d) {
    CK(cudaSetDevice(d));
    CK(cudaMalloc(&on[d].B, hB.size() * sizeof(int)));
    CK(cudaMalloc(&on[d].A, hA.size() * sizeof(float)));
    CK(cudaMalloc(&on[d].y, n * sizeof(float)));
    CK(cudaMalloc(&on[d].y_ref, n * sizeof(float)));
    CK(cudaMemcpy(on[d].B, hB.data(), hB.size() * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(on[d].A, hA.data(), hA.size() * sizeof(float), cudaMemcpyHostToDevice));
    ASSERT_TRUE(row_sum::launch(site, n, on[d].B, on[d].A, on[d].y, 0));
  }
  for (int d = 0; d < 2; ++d) {
    CK(cudaSetDevice(d));
    untraced_write<<<static_cast<unsigned>((hA.size() + 255) / 256), 256>>>(hA.size(), on[d].A, 3.0f);
  }
  irregfix_invalidate_all(IRREGFIX_CAUSE_LAUNCH_API, "soundness_gpu_test.cu:devices");
  EXPECT_EQ(invalidation_counters().all_stale, 2);
  for (int d = 0; d < 2; ++d) {
    CK(cudaSetDevice(d));
    ASSERT_TRUE(row_sum::launch(site, n, on[d].B, on[d].A, on[d].y, 0));
    expect_row_sums_match(n, on[d].B, on[d].A, on[d].y, on[d].y_ref, ("device " + std::to_string(d)).c_str());
  }
  EXPECT_EQ(site_counters(site.id).refreshes, 2);
  irregfix::testing::reset();
  for (int d = 0; d < 2; ++d) {
    CK(cudaSetDevice(d));
    for (void *p : {static_cast<void *>(on[d].B), static_cast<void *>(on[d].A), static_cast<void *>(on[d].y),
                    static_cast<void *>(on[d].y_ref)})
      CK(cudaFree(p));
  }
  CK(cudaSetDevice(0));
}

// ---- __device__ variables -----------------------------------------------------

namespace {

constexpr int kTableSize = 4096;
__device__ float g_table[kTableSize];

// Not a __device__ variable: its address cannot be found.
int g_host_only = 0;

// Thread t reads g_table[idx[t]] (a gather whose source is a __device__ array).
__global__ void table_original(long long n, const int *idx, float *y) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t < n)
    y[t] = g_table[idx[t]] * 2.0f + 1.0f;
}

__global__ void table_view(long long n, irregfix::View v, const float *copy, float *y) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t < n)
    y[t] = copy[irregfix::slot(v, t, 0)] * 2.0f + 1.0f;
}

float *table_address() {
  void *p = nullptr;
  EXPECT_EQ(cudaGetSymbolAddress(&p, g_table), cudaSuccess);
  return static_cast<float *>(p);
}

// The generated launcher of table_original: the source is g_table's device address.
bool table_launch(const irregfix::SiteInfo &site, long long n, const int *idx, float *y) {
  irregfix::View v;
  const void *out[1];
  const unsigned blocks = static_cast<unsigned>((n + 255) / 256);
  if (irregfix::begin_launch(site, 0) &&
      irregfix::prepare_gather(site, idx, irregfix::index_kind(idx), n, table_address(), sizeof(float),
                               &v, out, 0)) {
    table_view<<<blocks, 256>>>(n, v, static_cast<const float *>(out[0]), y);
    irregfix::end_transformed_launch(site, 0);
    return true;
  }
  table_original<<<blocks, 256>>>(n, idx, y);
  irregfix::end_original_launch(site, 0);
  return false;
}

void new_table(std::mt19937 &r) {
  std::vector<float> h(kTableSize);
  for (float &x : h)
    x = static_cast<float>(r() % 4096) / 16.0f;
  ASSERT_EQ(cudaMemcpyToSymbol(g_table, h.data(), sizeof(g_table)), cudaSuccess);
}

void expect_table_matches(long long n, const int *idx, float *y, float *y_ref, const char *when) {
  table_original<<<static_cast<unsigned>((n + 255) / 256), 256>>>(n, idx, y_ref);
  CK(cudaDeviceSynchronize());
  const std::vector<float> got = download(y, n), want = download(y_ref, n);
  ASSERT_EQ(0, std::memcmp(got.data(), want.data(), n * sizeof(float))) << when;
}

} // namespace

// A device reset (the program's cudaDeviceReset, bracketed as the tool emits
// it) destroys the runtime's copies and its timing events with everything
// else. The runtime frees them first and forgets the allocations it knew:
// arrays allocated after the reset, possibly at the same addresses with other
// contents, are remapped afresh (a miss, not a hit on a dead copy), and the
// statistics report still reads.
TEST_F(Soundness, DeviceResetForgetsEveryCopy) {
  const long long n = 20000;
  const int max_len = 10;
  const irregfix::SiteInfo site{"soundness:reset", "row_sum", "range", 0, nullptr, "A,B"};
  for (int round = 0; round < 3; ++round) {
    std::mt19937 r(40 + round);
    const std::vector<int> hB = offsets(n, max_len, r);
    std::vector<float> hA(n * max_len);
    for (float &x : hA)
      x = static_cast<float>(r() % 1000) / 16.0f + round;
    int *B = nullptr;
    float *A = nullptr, *y = nullptr, *y_ref = nullptr;
    CK(cudaMalloc(&B, hB.size() * sizeof(int)));
    CK(cudaMalloc(&A, hA.size() * sizeof(float)));
    CK(cudaMalloc(&y, n * sizeof(float)));
    CK(cudaMalloc(&y_ref, n * sizeof(float)));
    CK(cudaMemcpy(B, hB.data(), hB.size() * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(A, hA.data(), hA.size() * sizeof(float), cudaMemcpyHostToDevice));
    for (int launch = 0; launch < 2; ++launch) { // a miss, then a hit
      ASSERT_TRUE(row_sum::launch(site, n, B, A, y, 0)) << site_counters(site.id).last_fallback;
      expect_row_sums_match(n, B, A, y, y_ref, ("round " + std::to_string(round)).c_str());
    }
    // No frees: the reset takes the arrays, as in a program that resets at its end.
    CK((irregfix::UnseenCall(IRREGFIX_CAUSE_DEVICE_RESET, "soundness_gpu_test.cu:reset"), cudaDeviceReset()));
    irregfix::testing::set_layout(irregfix::kLayoutEllColMajor);
  }
  const auto c = site_counters(site.id);
  EXPECT_EQ(c.misses, 3);
  EXPECT_EQ(c.hits, 3);
  EXPECT_EQ(c.refreshes, 0);
  EXPECT_EQ(c.fallbacks, 0) << c.last_fallback;
  const std::string report = irregfix::testing::stats_report();
  EXPECT_NE(report.find("every copy (irregfix_invalidate_all), device reset: 3 calls, 3 copies turned stale; "
                        "most from soundness_gpu_test.cu:reset (3)"),
            std::string::npos)
      << report;
}

// cudaMemcpyToSymbol, announced by irregfix_invalidate_symbol: each launch
// after one refreshes. The first call, with nothing cached, asks nothing; a
// pointer that is no variable makes every copy stale (and leaves no error).
TEST_F(Soundness, InvalidateSymbolRefreshesACopyOfADeviceArray) {
  std::mt19937 r(3);
  const long long n = 50000;
  std::vector<int> hidx(n);
  for (int &i : hidx)
    i = static_cast<int>(r() % kTableSize);
  int *idx = upload(hidx);
  float *y = upload(std::vector<float>(n)), *y_ref = upload(std::vector<float>(n));
  const irregfix::SiteInfo site{"soundness:symbol", "table", "gather", 0, nullptr, "g_table,idx"};

  new_table(r);
  irregfix_invalidate_symbol(&g_table); // nothing cached: not even the address is asked for
  EXPECT_EQ(irregfix::testing::known_symbols(), 0u);
  ASSERT_TRUE(table_launch(site, n, idx, y)) << site_counters(site.id).last_fallback;
  expect_table_matches(n, idx, y, y_ref, "first launch");
  for (int step = 1; step <= 3; ++step) {
    new_table(r);
    irregfix_invalidate_symbol(&g_table);
    ASSERT_TRUE(table_launch(site, n, idx, y));
    expect_table_matches(n, idx, y, y_ref, ("after write " + std::to_string(step)).c_str());
  }
  EXPECT_EQ(irregfix::testing::known_symbols(), 1u);
  auto inv = invalidation_counters();
  EXPECT_EQ(inv.by_symbol, 4);
  EXPECT_EQ(inv.by_symbol_stale, 3);
  EXPECT_EQ(inv.symbols_not_found, 0);

  irregfix_invalidate_symbol(&g_host_only);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  inv = invalidation_counters();
  EXPECT_EQ(inv.symbols_not_found, 1);
  EXPECT_EQ(inv.all_stale, 1);
  ASSERT_TRUE(table_launch(site, n, idx, y));
  expect_table_matches(n, idx, y, y_ref, "after a variable with no address");
  const auto c = site_counters(site.id);
  EXPECT_EQ(c.misses, 1);
  EXPECT_EQ(c.refreshes, 4);
  EXPECT_EQ(c.fallbacks, 0) << c.last_fallback;
}

TEST_F(Soundness, DisjointSymbol) {
  const irregfix::SiteInfo site{"soundness:disjoint_symbol", "k", "gather"};
  float *elsewhere = upload(std::vector<float>(64));
  EXPECT_TRUE(irregfix::disjoint_symbol(site, &g_table, elsewhere));
  EXPECT_TRUE(irregfix::disjoint_symbol(site, &g_table, nullptr));
  EXPECT_EQ(site_counters(site.id).fallbacks, 0);
  // The kernel writes g_table and reads through its device address: may alias.
  EXPECT_FALSE(irregfix::disjoint_symbol(site, &g_table, table_address() + 10));
  EXPECT_NE(site_counters(site.id).last_fallback.find("written __device__ variable may alias"), std::string::npos)
      << site_counters(site.id).last_fallback;
  // No address: not disjoint, and no error left for the program.
  EXPECT_FALSE(irregfix::disjoint_symbol(site, &g_host_only, elsewhere));
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_NE(site_counters(site.id).last_fallback.find("cannot be found"), std::string::npos)
      << site_counters(site.id).last_fallback;
  EXPECT_EQ(site_counters(site.id).fallbacks, 2);
}

// ---- managed memory ------------------------------------------------------------

// A and B in managed memory, written by the host between launches and never
// announced: the copy is rebuilt at every launch (B's change with a new shape),
// and every result is the original kernel's.
TEST_F(Soundness, ManagedSourcesAreRebuiltAtEveryLaunch) {
  std::mt19937 r(9);
  const long long n = 2000;
  const int max_len = 12;
  int *B = nullptr;
  float *A = nullptr;
  CK(cudaMallocManaged(&B, (n + 1) * sizeof(int)));
  CK(cudaMallocManaged(&A, n * max_len * sizeof(float)));
  auto new_rows = [&] {
    const std::vector<int> h = offsets(n, max_len, r);
    std::copy(h.begin(), h.end(), B);
  };
  auto new_values = [&] {
    for (long long i = 0; i < n * max_len; ++i)
      A[i] = static_cast<float>(r() % 1000) / 4.0f;
  };
  new_rows();
  new_values();
  float *y = upload(std::vector<float>(n)), *y_ref = upload(std::vector<float>(n));
  const irregfix::SiteInfo site{"soundness:managed", "row_sum", "range", 0, nullptr, "A,B"};
  const int launches = 5;
  for (int i = 0; i < launches; ++i) {
    CK(cudaDeviceSynchronize()); // the host writes while no kernel runs
    if (i > 0)
      new_values();
    if (i == 3)
      new_rows();
    ASSERT_TRUE(row_sum::launch(site, n, B, A, y, 0)) << site_counters(site.id).last_fallback;
    expect_row_sums_match(n, B, A, y, y_ref, ("launch " + std::to_string(i)).c_str());
  }
  const auto c = site_counters(site.id);
  EXPECT_EQ(c.misses, 1);
  EXPECT_EQ(c.refreshes, launches - 1);
  EXPECT_EQ(c.hits, 0);
  EXPECT_EQ(c.remaps, launches);
  EXPECT_EQ(c.host_writable_builds, launches);
  const std::string report = irregfix::testing::stats_report();
  EXPECT_NE(report.find("rebuilt at every launch: a source is in managed or host memory (5 launches)"),
            std::string::npos)
      << report;
  irregfix_release(A);
  irregfix_release(B);
  CK(cudaFree(A));
  CK(cudaFree(B));
}

// Only A in managed memory, B plain device memory: A is copied again at every
// launch, unannounced host writes included.
TEST_F(Soundness, ManagedDataArrayIsCopiedAtEveryLaunch) {
  std::mt19937 r(10);
  const long long n = 1500;
  const std::vector<int> hB = offsets(n, 6, r);
  int *B = upload(hB);
  float *A = nullptr;
  CK(cudaMallocManaged(&A, n * 6 * sizeof(float)));
  float *y = upload(std::vector<float>(n)), *y_ref = upload(std::vector<float>(n));
  const irregfix::SiteInfo site{"soundness:managed_data", "row_sum", "range", 0, nullptr, "A,B"};
  for (int i = 0; i < 4; ++i) {
    CK(cudaDeviceSynchronize());
    for (long long k = 0; k < n * 6; ++k)
      A[k] = static_cast<float>((k * 7 + i * 13) % 101);
    ASSERT_TRUE(row_sum::launch(site, n, B, A, y, 0)) << site_counters(site.id).last_fallback;
    expect_row_sums_match(n, B, A, y, y_ref, ("launch " + std::to_string(i)).c_str());
  }
  const auto c = site_counters(site.id);
  EXPECT_EQ(c.refreshes, 3);
  EXPECT_EQ(c.host_writable_builds, 4);
  // Every launch moved the copy: its bytes, four times.
  EXPECT_EQ(c.bytes_remapped, 4ull * static_cast<unsigned long long>(hB[n] - hB[0]) * sizeof(float));
  irregfix_release(A);
  CK(cudaFree(A));
}
