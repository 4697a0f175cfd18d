// The lanes layout (warp-cooperative rows) on the GPU, through the launchers
// irregfix --reassociate wrote for lanes_kernels.cu: each variant against the
// original kernel bit for bit (integer sums, min, max, flags, narrow and wide
// accumulators) for every L from 2 to 32, on rows of 0, 1, L-1, L, L+1 and
// many elements and n no multiple of the block; the reassociated float sum
// within a small relative error; IRREGFIX_VERIFY's measure; auto choosing the
// lanes on few long rows and not on short ones; the range model ruling out a
// copy where it expects it to lose and the kernel has no variant; a write to
// B reading the extent again; a launch that is not one-dimensional.
#include "device_test.cuh"
#include "lanes_kernels.h"
#include "lanes_test_rows.h"

#include <cmath>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using irregfix::testing::site_counters;
using namespace lanes_test;

std::vector<int> random_ints(size_t count, int lo, int hi, unsigned seed) {
  std::mt19937 r(seed);
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<int> v(count);
  for (int &x : v)
    x = d(r);
  return v;
}

using Lanes = LanesFixture;

// Rows of 0, 1, L-1, L, L+1, 3L+2 and 300 elements, n no multiple of any
// block, blocks of 256, 96 (a multiple of 32 the variant keeps) and 100 (not
// one: the variant's blocks are 256).
TEST_F(Lanes, IntegerSumMinMaxAndFlagMatchTheOriginalForEveryL) {
  for (int L : {2, 4, 8, 16, 32}) {
    const Rows m = rows_of(4099, {0, 1, L - 1, L, L + 1, 3 * L + 2, 300}, 10 + L);
    const int n = m.n;
    const int *B = upload(m.B), *col = upload(m.col);
    const std::vector<int> hA = random_ints(m.col.size(), -1000, 1000, L);
    const std::vector<int> hlabel = random_ints(n, 0, 1 << 20, 2 * L);
    const std::vector<int> hlevel = random_ints(n, 0, 6, 3 * L);
    const int *A = upload(hA), *label = upload(hlabel), *level = upload(hlevel);
    int *out = upload(std::vector<int>(n, -7));
    for (unsigned block : {256u, 96u, 100u}) {
      std::vector<int> o, l;
      original_and_lanes(L, [&] { lanes_kernels::row_sums(n, B, A, out, block); }, out, n, &o, &l);
      for (int t = 0; t < n; ++t) { // the original against a CPU sum
        int s = 0;
        for (int k = m.B[t]; k < m.B[t + 1]; ++k)
          s += hA[k];
        ASSERT_EQ(o[t], s) << "row " << t;
      }
      EXPECT_EQ(o, l) << "sums, L " << L << ", block " << block;
      original_and_lanes(L, [&] { lanes_kernels::row_mins(n, B, col, label, out, block); }, out, n, &o, &l);
      EXPECT_EQ(o, l) << "mins, L " << L << ", block " << block;
      original_and_lanes(L, [&] { lanes_kernels::row_maxes(n, B, A, out, block); }, out, n, &o, &l);
      EXPECT_EQ(o, l) << "maxes, L " << L << ", block " << block;
      original_and_lanes(L, [&] { lanes_kernels::row_flags(n, B, col, level, 3, out, block); }, out, n, &o, &l);
      EXPECT_EQ(o, l) << "flags, L " << L << ", block " << block;
    }
    const auto c = site_counters(site_of("row_sums_kernel").c_str());
    EXPECT_EQ(c.layout, irregfix::kLayoutLanes);
    EXPECT_EQ(c.lanes, L);
    EXPECT_EQ(c.bytes_remapped, 0u) << "the lanes read the arrays in place";
    irregfix::testing::reset();
  }
}

TEST_F(Lanes, NarrowAndWideAccumulatorsMatchTheOriginal) {
  const Rows m = rows_around(3001, 40, 5);
  const int n = m.n;
  const int *B = upload(m.B);
  const int *A = upload(random_ints(m.col.size(), -40000, 40000, 6));
  short *sum16 = upload(std::vector<short>(n));
  unsigned long long *xor64 = upload(std::vector<unsigned long long>(n));
  bool *odd = reinterpret_cast<bool *>(upload(std::vector<char>(n)));
  unsigned *bits = upload(std::vector<unsigned>(n));
  int *positives = upload(std::vector<int>(n));
  // Every output of one run, as bytes.
  auto run = [&](int layout, int L) {
    irregfix::testing::set_layout(layout);
    irregfix::testing::set_lanes(L);
    lanes_kernels::row_mix(n, B, A, sum16, xor64, odd, bits, positives, 128);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<std::vector<char>> out;
    auto bytes = [&](const void *p, size_t size) {
      std::vector<char> h(size);
      EXPECT_EQ(cudaMemcpy(h.data(), p, size, cudaMemcpyDeviceToHost), cudaSuccess);
      out.push_back(h);
    };
    bytes(sum16, n * sizeof(short));
    bytes(xor64, n * sizeof(unsigned long long));
    bytes(odd, n * sizeof(bool));
    bytes(bits, n * sizeof(unsigned));
    bytes(positives, n * sizeof(int));
    return out;
  };
  const char *names[] = {"short sum", "xor", "bool or", "and", "count"};
  for (int L : {2, 8, 32}) {
    const auto original = run(-1, 0), lanes = run(irregfix::kLayoutLanes, L);
    for (int i = 0; i < 5; ++i)
      EXPECT_EQ(original[i], lanes[i]) << names[i] << ", L " << L;
  }
}

// Positive values: no cancellation, so a reassociated sum stays within a few
// ulps of the row's magnitude.
TEST_F(Lanes, ReassociatedFloatSumIsWithinASmallRelativeError) {
  const Rows m = rows_around(5003, 600, 7);
  const int n = m.n;
  std::mt19937 r(8);
  std::uniform_real_distribution<float> d(0.5f, 1.5f);
  std::vector<float> hval(m.col.size()), hx(n);
  for (float &v : hval)
    v = d(r);
  for (float &v : hx)
    v = d(r);
  const int *B = upload(m.B), *col = upload(m.col);
  const float *val = upload(hval), *x = upload(hx);
  float *y = upload(std::vector<float>(n));
  for (int L : {2, 4, 8, 16, 32}) {
    std::vector<float> o, l;
    original_and_lanes(L, [&] { lanes_kernels::row_dots(n, B, col, val, x, y, 256); }, y, n, &o, &l);
    double worst = 0;
    for (int t = 0; t < n; ++t)
      worst = std::max(worst, std::fabs(static_cast<double>(o[t]) - l[t]) / std::fabs(static_cast<double>(o[t])));
    EXPECT_LT(worst, 1e-5) << "L " << L;
  }
}

TEST_F(Lanes, VerifyMeasuresTheReassociatedSumAndChecksTheExactOnes) {
  const Rows m = rows_around(4000, 300, 9);
  const int n = m.n;
  std::mt19937 r(10);
  std::uniform_real_distribution<float> d(0.5f, 1.5f);
  std::vector<float> hval(m.col.size()), hx(n);
  for (float &v : hval)
    v = d(r);
  for (float &v : hx)
    v = d(r);
  const int *B = upload(m.B), *col = upload(m.col);
  const float *val = upload(hval), *x = upload(hx);
  const int *A = upload(random_ints(m.col.size(), -9, 9, 11));
  float *y = upload(std::vector<float>(n));
  int *out = upload(std::vector<int>(n));
  irregfix::testing::set_layout(irregfix::kLayoutLanes);
  irregfix::testing::set_verify(true);
  for (int i = 0; i < 3; ++i) {
    lanes_kernels::row_dots(n, B, col, val, x, y, 256);
    lanes_kernels::row_sums(n, B, A, out, 256);
  }
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto dots = site_counters(site_of("row_dots_kernel").c_str());
  EXPECT_EQ(dots.lanes_compared, 3);
  EXPECT_LT(dots.lanes_max_relative, 1e-5);
  const auto sums = site_counters(site_of("row_sums_kernel").c_str());
  EXPECT_EQ(sums.lanes_compared, 3);
  EXPECT_EQ(sums.lanes_differing, 0u);
  const std::string report = irregfix::testing::stats_report();
  EXPECT_NE(report.find("largest relative difference"), std::string::npos) << report;
  EXPECT_NE(report.find("over 3 launches: bit for bit"), std::string::npos) << report;
  // What the variant stored is what the original stores, VERIFY or not.
  irregfix::testing::set_layout(-1);
  const std::vector<int> lanes_sums = download(out, n);
  lanes_kernels::row_sums(n, B, A, out, 256);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(download(out, n), lanes_sums);
}

// The issue's case: 10,240 rows of about 1,640 elements. The model expects a
// copy to lose and the lanes to win: the lanes are the one candidate, nothing
// is copied, and the selector keeps them.
TEST_F(Lanes, AutoChoosesTheLanesOnFewLongRows) {
  irregfix::testing::set_layout(0);
  const Rows m = rows_around(10240, 1640, 12);
  const int n = m.n;
  const int *B = upload(m.B);
  const std::vector<int> hA = random_ints(m.col.size(), -5, 5, 13);
  const int *A = upload(hA);
  int *out = upload(std::vector<int>(n));
  irregfix::testing::set_layout(-1);
  lanes_kernels::row_sums(n, B, A, out, 256);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const std::vector<int> want = download(out, n);
  irregfix::testing::reset();
  irregfix::testing::set_layout(0);
  for (int i = 0; i < 3 * 2 + 1 + 10; ++i) {
    lanes_kernels::row_sums(n, B, A, out, 256);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess); // the timings come back before the next launch
    ASSERT_EQ(download(out, n), want) << "launch " << i;
  }
  const auto c = site_counters(site_of("row_sums_kernel").c_str());
  EXPECT_EQ(c.candidates, 1) << irregfix::testing::stats_report();
  EXPECT_EQ(c.chosen_layout, irregfix::kLayoutLanes) << irregfix::testing::stats_report();
  EXPECT_EQ(c.lanes, 32);
  EXPECT_EQ(c.bytes_remapped, 0u);
  EXPECT_EQ(irregfix::testing::cached_bytes(), 0u) << "no copy";
}

// Rows of 4 on average: too short for lanes; the copies are timed as before.
TEST_F(Lanes, AutoLeavesShortRowsToTheCopies) {
  const Rows m = rows_around(100000, 4, 14);
  const int n = m.n;
  const int *B = upload(m.B);
  const int *A = upload(random_ints(m.col.size(), -5, 5, 15));
  int *out = upload(std::vector<int>(n));
  irregfix::testing::set_layout(0);
  for (int i = 0; i < 12; ++i) {
    lanes_kernels::row_sums(n, B, A, out, 256);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  }
  const auto c = site_counters(site_of("row_sums_kernel").c_str());
  EXPECT_EQ(c.lanes, 0) << irregfix::testing::stats_report();
  EXPECT_NE(c.chosen_layout, irregfix::kLayoutLanes);
  EXPECT_GE(c.misses, 1) << "a copy was built and timed";
}

// A kernel without a lanes variant on few long rows (the original runs 325 us
// there, its ELL copy 914 us on an H100): the model expects any copy to lose
// by more than 1.5x, so nothing is built and the launcher settles on the
// original at once.
__global__ void plain_row_sums(int n, const int *B, const int *A, int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    int s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k)
      s += A[k];
    out[t] = s;
  }
}

TEST_F(Lanes, TheModelRulesOutCopiesOfFewLongRowsWithoutAVariant) {
  irregfix::testing::set_layout(0);
  const Rows m = rows_around(10240, 1640, 16);
  const int n = m.n;
  const int *B = upload(m.B);
  const int *A = upload(random_ints(m.col.size(), -5, 5, 17));
  int *out = upload(std::vector<int>(n));
  const irregfix::SiteInfo site{"lanes:no-variant", "plain_row_sums", "range",
                                irregfix::kSitePermutable | irregfix::kSiteChunkable};
  const dim3 grid((n + 255) / 256), block(256);
  int transformed = 0;
  for (int i = 0; i < 20; ++i) {
    irregfix::View v{};
    const void *src[] = {A};
    const size_t sz[] = {sizeof(int)};
    const void *copies[1];
    if (irregfix::begin_launch(site, 0, grid, block) &&
        irregfix::prepare_range(site, B, irregfix::kIndexI32, n, 1, src, sz, &v, copies, 0)) {
      ++transformed; // (not reached: the test fails below; run the original anyway)
      plain_row_sums<<<grid, block>>>(n, B, A, out);
      irregfix::end_transformed_launch(site, 0);
    } else {
      plain_row_sums<<<grid, block>>>(n, B, A, out);
      irregfix::end_original_launch(site, 0);
    }
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  }
  const auto c = site_counters("lanes:no-variant");
  EXPECT_EQ(transformed, 0);
  EXPECT_EQ(c.remaps, 0);
  EXPECT_EQ(irregfix::testing::cached_entries(), 0u);
  EXPECT_NE(c.last_fallback.find("cost model"), std::string::npos) << c.last_fallback;
  const std::string report = irregfix::testing::stats_report();
  EXPECT_NE(report.find("selector: original: the cost model expects a copy to lose"), std::string::npos) << report;
}

// A write to B: the entry goes stale, the next launch reads the extent again
// and chooses the lanes for the new rows.
TEST_F(Lanes, AWriteToBReadsTheExtentAgain) {
  const Rows a = rows_of(2000, {40}, 18), b = rows_of(2000, {10}, 19);
  const int n = 2000;
  int *B = upload(a.B);
  const int *A = upload(random_ints(a.col.size(), -5, 5, 20)); // 80,000: room for both
  int *out = upload(std::vector<int>(n));
  irregfix::testing::set_layout(irregfix::kLayoutLanes);
  lanes_kernels::row_sums(n, B, A, out, 256);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const std::string id = site_of("row_sums_kernel");
  EXPECT_EQ(site_counters(id.c_str()).lanes, 4); // rows of 40
  irregfix_invalidate(B);
  ASSERT_EQ(cudaMemcpy(B, b.B.data(), b.B.size() * sizeof(int), cudaMemcpyHostToDevice), cudaSuccess);
  lanes_kernels::row_sums(n, B, A, out, 256);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto c = site_counters(id.c_str());
  EXPECT_EQ(c.lanes, 2); // rows of 10
  EXPECT_EQ(c.refreshes, 1);
  const std::vector<int> got = download(out, n);
  const std::vector<int> hA = download(A, a.col.size());
  for (int t = 0; t < n; ++t) {
    int s = 0;
    for (int k = b.B[t]; k < b.B[t + 1]; ++k)
      s += hA[k];
    ASSERT_EQ(got[t], s) << "row " << t;
  }
}

// A launch on a grid of two rows of blocks may not run the variant: under a
// forced lanes layout it takes auto's copy instead, and gives the same bits.
TEST_F(Lanes, ALaunchThatIsNotOneDimensionalTakesACopy) {
  const Rows m = rows_around(3000, 24, 21);
  const int n = m.n;
  const int *B = upload(m.B);
  const int *A = upload(random_ints(m.col.size(), -5, 5, 22));
  int *out = upload(std::vector<int>(n));
  std::vector<int> o, l;
  original_and_lanes(0, [&] { lanes_kernels::row_sums_2d(n, B, A, out, 128); }, out, n, &o, &l);
  EXPECT_EQ(o, l);
  const auto c = site_counters(site_of("row_sums_kernel").c_str());
  EXPECT_NE(c.layout, irregfix::kLayoutLanes);
  EXPECT_EQ(c.lanes, 0);
}

} // namespace
