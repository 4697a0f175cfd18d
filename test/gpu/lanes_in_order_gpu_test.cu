// The in-order lanes variant on the GPU, through the launchers irregfix (no
// --reassociate) wrote for lanes_in_order_kernels.cu: a float sum, a double
// min and a loop with a `continue` give the original's bits for every L from 2
// to 32, on rows of 0, 1, L-1, L, L+1 and hundreds of elements with values of
// both signs; IRREGFIX_VERIFY compares the variant bit for bit; auto runs the
// lanes on few long rows.
#include "device_test.cuh"
#include "lanes_in_order_kernels.h"
#include "lanes_test_rows.h"

#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

using irregfix::testing::site_counters;
using namespace lanes_test;

class InOrderLanes : public LanesFixture {};

template <class T> std::vector<T> random_reals(size_t count, double lo, double hi, unsigned seed) {
  std::mt19937 r(seed);
  std::uniform_real_distribution<double> d(lo, hi);
  std::vector<T> v(count);
  for (T &x : v)
    x = static_cast<T>(d(r));
  return v;
}

template <class T> void expect_same_bits(const std::vector<T> &a, const std::vector<T> &b, int L) {
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(0, std::memcmp(a.data(), b.data(), a.size() * sizeof(T))) << "L " << L;
}

TEST_F(InOrderLanes, FloatSumMinContinueAndARepeatedReadMatchTheOriginalBitForBitForEveryL) {
  for (int L : {2, 4, 8, 16, 32}) {
    const Rows m = rows_of(3001, {0, 1, L - 1, L, L + 1, 3 * L + 2, 300}, L);
    const int n = m.n;
    const int *B = upload(m.B);
    // Some columns negative: the `continue` skips them (the other kernels read
    // x and A at every column, so they get their own non-negative ones).
    std::vector<int> skipping = m.col;
    for (size_t k = 0; k < skipping.size(); k += 3)
      skipping[k] = -1;
    const int *col = upload(m.col), *skip = upload(skipping);
    const float *val = upload(random_reals<float>(m.col.size(), -1.0, 1.0, 100 + L));
    const float *x = upload(random_reals<float>(n, -1e3, 1e3, 200 + L));
    const double *A = upload(random_reals<double>(m.col.size(), -1e6, 1e6, 300 + L));
    float *y = upload(std::vector<float>(n));
    double *least = upload(std::vector<double>(n));
    std::vector<float> o, l;
    original_and_lanes(L, [&] { lanes_in_order::row_dots(n, B, col, val, x, y, 256); }, y, n, &o, &l);
    expect_same_bits(o, l, L);
    std::vector<double> om, lm;
    original_and_lanes(L, [&] { lanes_in_order::row_mins(n, B, A, least, 96); }, least, n, &om, &lm);
    expect_same_bits(om, lm, L);
    original_and_lanes(L, [&] { lanes_in_order::row_sums_skipping(n, B, skip, val, y, 100); }, y, n, &o, &l);
    expect_same_bits(o, l, L);
    original_and_lanes(L, [&] { lanes_in_order::row_mix(n, B, val, y, 256); }, y, n, &o, &l);
    expect_same_bits(o, l, L);
  }
}

TEST_F(InOrderLanes, VerifyComparesTheVariantBitForBit) {
  const Rows m = rows_around(4000, 300, 9);
  const int n = m.n;
  const int *B = upload(m.B), *col = upload(m.col);
  const float *val = upload(random_reals<float>(m.col.size(), -1.0, 1.0, 10));
  const float *x = upload(random_reals<float>(n, -1.0, 1.0, 11));
  float *y = upload(std::vector<float>(n));
  irregfix::testing::set_layout(irregfix::kLayoutLanes);
  irregfix::testing::set_verify(true);
  for (int i = 0; i < 3; ++i)
    lanes_in_order::row_dots(n, B, col, val, x, y, 256);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto dots = site_counters(site_of("in_order_dots_kernel").c_str());
  EXPECT_EQ(dots.lanes_compared, 3);
  EXPECT_EQ(dots.lanes_differing, 0u);
  const std::string report = irregfix::testing::stats_report();
  EXPECT_NE(report.find("over 3 launches: bit for bit"), std::string::npos) << report;
}

// Few long rows: the model expects a copy to lose, the lanes are the one
// candidate, and what they store is the original's.
TEST_F(InOrderLanes, AutoRunsTheLanesOnFewLongRows) {
  const Rows m = rows_around(10240, 1640, 12);
  const int n = m.n;
  const int *B = upload(m.B), *col = upload(m.col);
  const float *val = upload(random_reals<float>(m.col.size(), -1.0, 1.0, 13));
  const float *x = upload(random_reals<float>(n, -1.0, 1.0, 14));
  float *y = upload(std::vector<float>(n));
  irregfix::testing::set_layout(-1);
  lanes_in_order::row_dots(n, B, col, val, x, y, 256);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const std::vector<float> want = download(y, n);
  irregfix::testing::reset();
  irregfix::testing::set_layout(0);
  for (int i = 0; i < 3 * 2 + 1 + 10; ++i) {
    lanes_in_order::row_dots(n, B, col, val, x, y, 256);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<float> got = download(y, n);
    ASSERT_EQ(0, std::memcmp(got.data(), want.data(), n * sizeof(float))) << "launch " << i;
  }
  const auto c = site_counters(site_of("in_order_dots_kernel").c_str());
  EXPECT_EQ(c.candidates, 1) << irregfix::testing::stats_report();
  EXPECT_EQ(c.chosen_layout, irregfix::kLayoutLanes) << irregfix::testing::stats_report();
  EXPECT_EQ(irregfix::testing::cached_bytes(), 0u) << "no copy";
}

} // namespace
