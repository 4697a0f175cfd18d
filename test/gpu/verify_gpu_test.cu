// GPU tests of IRREGFIX_VERIFY: a source changed behind the runtime's back (a
// raw kernel, a cudaMemcpy, nothing invalidated) makes the next cache hit abort
// with a message naming the array; correct hits, whole or pipelined, pass
// silently. The death tests run in a child that starts the program anew
// ("threadsafe" death tests), as a forked CUDA process may not use the device.
// Each test skips itself without a device.
#include <irregfix/irregfix.cuh>
#include <irregfix/testing.h>

#include "device_test.cuh"
#include "row_sum_launch.cuh"

#include <gtest/gtest.h>

#include <cstring>
#include <deque>
#include <random>
#include <string>
#include <vector>

#define CK(x) ASSERT_EQ((x), cudaSuccess) << #x

namespace {

using irregfix::testing::site_counters;

// A row-sum problem on the device, its arrays named "values" and "row_ptr".
struct Problem {
  long long n = 0;
  std::vector<int> hB;
  std::vector<float> hA;
  int *B = nullptr;
  float *A = nullptr, *y = nullptr, *y_ref = nullptr;

  void make(DeviceTest *fx, long long rows, unsigned seed) {
    std::mt19937 r(seed);
    n = rows;
    hB.assign(n + 1, 0);
    for (long long t = 0; t < n; ++t)
      hB[t + 1] = hB[t] + static_cast<int>(r() % 17);
    hA.resize(hB[n]);
    for (float &x : hA)
      x = static_cast<float>(r() % 1000) / 16.0f;
    B = fx->upload(hB);
    A = fx->upload(hA);
    y = fx->upload(std::vector<float>(n));
    y_ref = fx->upload(std::vector<float>(n));
  }
  // One launch through the generated launcher, checked against the original.
  void launch(const irregfix::SiteInfo &site) {
    ASSERT_TRUE(row_sum::launch(site, n, B, A, y, 0)) << site_counters(site.id).last_fallback;
    row_sum::csr<<<static_cast<unsigned>((n + 255) / 256), 256>>>(n, B, A, y_ref);
    CK(cudaDeviceSynchronize());
    const std::vector<float> got = download(y, n), want = download(y_ref, n);
    ASSERT_EQ(0, std::memcmp(got.data(), want.data(), n * sizeof(float)));
  }
};

// The writer the runtime is never told about.
__global__ void bump(long long count, float *A) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < count)
    A[i] += 1.0f;
}

using Verify = VerifyingTest;
using VerifyDeathTest = VerifyingDeathTest;

const irregfix::SiteInfo &site_named(const char *id) {
  static std::deque<irregfix::SiteInfo> sites; // addresses stay put: the runtime keys records by them
  sites.push_back(irregfix::SiteInfo{id, "row_sum", "range", 0, nullptr, "values,row_ptr"});
  return sites.back();
}

// Launch 1 builds, launch 2 hits; then `write` changes a source untold, and
// launch 3 hits a stale copy: the process aborts there.
template <class Write> void untold_write(Verify *fx, const char *id, Write write) {
  Problem p;
  p.make(fx, 30000, 1);
  const irregfix::SiteInfo &site = site_named(id);
  p.launch(site);
  p.launch(site);
  write(p);
  row_sum::launch(site, p.n, p.B, p.A, p.y, 0);
  CK(cudaDeviceSynchronize());
}

} // namespace

TEST_F(VerifyDeathTest, AbortsWhenAKernelWritesADataArrayUntold) {
  EXPECT_DEATH(untold_write(this, "verify:data",
                            [](Problem &p) {
                              bump<<<static_cast<unsigned>((p.hA.size() + 255) / 256), 256>>>(
                                  p.hA.size(), p.A);
                            }),
               "irregfix: IRREGFIX_VERIFY: stale copy at verify:data \\(kernel 'row_sum'\\): source "
               "'values' changed since launch 1 built the copy; this is launch 3");
}

TEST_F(VerifyDeathTest, AbortsWhenACopyOverwritesAnIndexArrayUntold) {
  EXPECT_DEATH(untold_write(this, "verify:index",
                            [](Problem &p) {
                              // A row one element shorter, the next one longer: B stays monotone.
                              long long t = p.n / 2;
                              while (t + 1 < p.n && p.hB[t + 1] == p.hB[t])
                                ++t;
                              ASSERT_GT(p.hB[t + 1], p.hB[t]);
                              const int moved = p.hB[t + 1] - 1;
                              ASSERT_EQ(cudaMemcpy(p.B + t + 1, &moved, sizeof(int), cudaMemcpyHostToDevice),
                                        cudaSuccess);
                            }),
               "source 'row_ptr' changed since launch 1 built the copy; this is launch 3");
}

// Hits after a build and after an announced write's refresh: each checked,
// nothing printed, the results the original kernel's.
TEST_F(Verify, PassesSilentlyOnCorrectHits) {
  Problem p;
  p.make(this, 30000, 2);
  const irregfix::SiteInfo &site = site_named("verify:quiet");
  ::testing::internal::CaptureStderr();
  p.launch(site); // miss
  p.launch(site); // hit
  bump<<<static_cast<unsigned>((p.hA.size() + 255) / 256), 256>>>(p.hA.size(), p.A);
  irregfix_invalidate(p.A); // told: a refresh, then hits of the new copy
  p.launch(site);
  p.launch(site);
  p.launch(site);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  const auto c = site_counters(site.id);
  EXPECT_EQ(c.misses, 1);
  EXPECT_EQ(c.refreshes, 1);
  EXPECT_EQ(c.hits, 3);
  EXPECT_EQ(c.verified, 3);
  EXPECT_EQ(c.fallbacks, 0) << c.last_fallback;
  const std::string report = irregfix::testing::stats_report();
  EXPECT_NE(report.find("IRREGFIX_VERIFY: 3 cache hits checked, none stale"), std::string::npos) << report;
}

// A chunkable launch that remaps runs pipelined (the copies deferred to a remap
// stream): the fingerprints taken at its build are those its hits check.
TEST_F(Verify, PassesSilentlyOnHitsOfAPipelinedCopy) {
  irregfix::testing::set_chunks(4);
  Problem p;
  p.make(this, 200000, 3);
  static const irregfix::SiteInfo site{"verify:chunks", "row_sum", "range", irregfix::kSiteChunkable, nullptr,
                                       "values,row_ptr"};
  ::testing::internal::CaptureStderr();
  p.launch(site); // miss, in chunks
  p.launch(site); // hit
  irregfix_invalidate(p.A);
  p.launch(site); // refresh, in chunks
  p.launch(site); // hit
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  const auto c = site_counters(site.id);
  EXPECT_EQ(c.pipelined, 2);
  EXPECT_EQ(c.hits, 2);
  EXPECT_EQ(c.verified, 2);
}

// Untold writes outside what the copy was built from are no change: bytes of
// A past the rows' extent (in its allocation, in the extent's last 8-byte word).
TEST_F(Verify, WritesOutsideTheExtentAreNoChange) {
  Problem p;
  p.make(this, 1001, 4);
  // A with room after the last row: one more element, not read by any row.
  float *A = upload(std::vector<float>(p.hA.size() + 3, 0.0f));
  CK(cudaMemcpy(A, p.hA.data(), p.hA.size() * sizeof(float), cudaMemcpyHostToDevice));
  p.A = A;
  const irregfix::SiteInfo &site = site_named("verify:outside");
  p.launch(site);
  const float other = 42.0f;
  CK(cudaMemcpy(A + p.hA.size(), &other, sizeof other, cudaMemcpyHostToDevice));
  p.launch(site); // a hit, checked, and current
  const auto c = site_counters(site.id);
  EXPECT_EQ(c.hits, 1);
  EXPECT_EQ(c.verified, 1);
}
