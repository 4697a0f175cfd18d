// GPU tests of the selector over candidate layouts (IRREGFIX_LAYOUT=auto): a
// permutable range site launched through the launch protocol on skewed,
// uniform and mildly skewed rows. Every launch's output must be bitwise the
// original kernel's, the candidates the cost model proposes and the layout
// the selector settles on are checked, and the losers' copies freed. Each
// test skips itself without a device.
#include <irregfix/irregfix.cuh>
#include <irregfix/testing.h>

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#define CK(x) ASSERT_EQ((x), cudaSuccess) << #x

namespace {

using irregfix::testing::site_counters;

__global__ void row_sum_csr(long long n, const int *B, const float *A, float *y) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k)
      s += A[k];
    y[t] = s;
  }
}

// The permutable form the tool writes: physical thread p reads its copy at
// slot(v, p, i) and computes logical row t (the same additions, in order).
__global__ void row_sum_permutable(long long n, irregfix::View v, const float *A, float *y) {
  const long long p = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  const long long t = irregfix::logical_thread(v, p);
  if (t < n) {
    float s = 0;
    for (int i = 0, len = irregfix::length(v, p); i < len; ++i)
      s += A[irregfix::slot(v, p, i)];
    y[t] = s;
  }
}

// A generated launcher's protocol; true when the transformed kernel ran.
bool launch(const irregfix::SiteInfo &site, long long n, const int *B, const float *A, float *y) {
  irregfix::View v;
  const void *out[1];
  const void *const src[1] = {A};
  const size_t size[1] = {sizeof(float)};
  const dim3 grid(static_cast<unsigned>((n + 255) / 256)), block(256);
  if (irregfix::begin_launch(site, 0, grid, block) && irregfix::disjoint(site, y, B) &&
      irregfix::disjoint(site, y, A) &&
      irregfix::prepare_range(site, B, irregfix::index_kind(B), n, 1, src, size, &v, out, 0)) {
    row_sum_permutable<<<grid, block>>>(n, v, static_cast<const float *>(out[0]), y);
    irregfix::end_transformed_launch(site, 0);
    return true;
  }
  row_sum_csr<<<grid, block>>>(n, B, A, y);
  irregfix::end_original_launch(site, 0);
  return false;
}

// Rows of `common` elements, and of `rare` elements with probability p_rare.
struct Rows {
  long long n = 0;
  int *B = nullptr;
  float *A = nullptr, *y = nullptr;
  std::vector<float> want; // the original kernel's output

  void make(long long rows, int common, int rare, double p_rare, unsigned seed) {
    n = rows;
    std::vector<int> hB(n + 1, 0);
    std::mt19937 r(seed);
    std::bernoulli_distribution is_rare(p_rare);
    for (long long t = 0; t < n; ++t)
      hB[t + 1] = hB[t] + (is_rare(r) ? rare : common);
    std::vector<float> hA(hB[n]);
    std::uniform_real_distribution<float> d(-1, 1);
    for (float &x : hA)
      x = d(r);
    CK(cudaMalloc(&B, hB.size() * sizeof(int)));
    CK(cudaMalloc(&A, hA.size() * sizeof(float)));
    CK(cudaMalloc(&y, n * sizeof(float)));
    CK(cudaMemcpy(B, hB.data(), hB.size() * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(A, hA.data(), hA.size() * sizeof(float), cudaMemcpyHostToDevice));
    row_sum_csr<<<static_cast<unsigned>((n + 255) / 256), 256>>>(n, B, A, y);
    want.resize(n);
    CK(cudaMemcpy(want.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost));
  }
  // `launches` launches under the selector, each output bitwise the original's
  // (y poisoned before each); how many ran the transformed kernel.
  int run(const irregfix::SiteInfo &site, int launches) {
    int transformed = 0;
    std::vector<float> got(n);
    for (int i = 0; i < launches; ++i) {
      EXPECT_EQ(cudaMemset(y, 0xff, n * sizeof(float)), cudaSuccess);
      transformed += launch(site, n, B, A, y);
      // The copy back also brings the launch's timings back before the next one.
      EXPECT_EQ(cudaMemcpy(got.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
      if (std::memcmp(got.data(), want.data(), n * sizeof(float)) != 0) {
        ADD_FAILURE() << site.id << ": launch " << i << " differs from the original kernel";
        break;
      }
    }
    return transformed;
  }
  void release() {
    for (void *p : {static_cast<void *>(B), static_cast<void *>(A), static_cast<void *>(y)}) {
      irregfix_release(p);
      cudaFree(p);
    }
  }
};

class Layouts : public ::testing::Test {
protected:
  void SetUp() override {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
      cudaGetLastError();
      GTEST_SKIP() << "no CUDA device";
    }
    irregfix::testing::reset();
    irregfix::testing::set_layout(0); // auto: the selector runs
  }
  void TearDown() override { irregfix::testing::reset(); }
};

// Profiling: the original and every candidate kProbes times, then one launch
// that settles (3 probes of each variant + 1).
int profiling_launches(int candidates) { return 3 * (candidates + 1) + 1; }

// Heavy skew (one row in eight 64 long, the others 4): sorted windows pad
// ~1.3x, ELL and SELL-32 ~5.5x, so SELL-32-sigma is the only layout worth
// timing. Uniform rows: ELL alone (SELL-32 saves nothing).
TEST_F(Layouts, AutoChoosesSigmaOnSkewAndEllOnUniformRows) {
  struct Case {
    const char *id;
    int common, rare;
    double p_rare;
    int want;
  } cases[] = {{"layouts:skewed", 4, 64, 0.125, irregfix::kLayoutSell32Sigma},
               {"layouts:uniform", 8, 8, 0.0, irregfix::kLayoutEllColMajor}};
  for (const Case &k : cases) {
    Rows rows;
    rows.make(1 << 20, k.common, k.rare, k.p_rare, 5);
    const irregfix::SiteInfo site{k.id, "row_sum", "range", irregfix::kSitePermutable};
    const int launches = profiling_launches(1) + 20;
    const int transformed = rows.run(site, launches);
    const auto c = site_counters(k.id);
    EXPECT_EQ(c.candidates, 1) << k.id << "\n" << irregfix::testing::stats_report();
    EXPECT_EQ(c.chosen_layout, k.want) << k.id << "\n" << irregfix::testing::stats_report();
    EXPECT_EQ(c.launches, transformed);
    EXPECT_EQ(c.launches + c.chosen_original, launches);
    EXPECT_EQ(c.misses, 1) << k.id; // one copy, read by every transformed launch
    if (transformed > 0) // the transformed launches read that layout
      EXPECT_EQ(c.layout, k.want) << k.id;
    rows.release();
  }
  const std::string report = irregfix::testing::stats_report();
  EXPECT_NE(report.find("sell-32-sigma: "), std::string::npos) << report;
  EXPECT_NE(report.find("ell-colmajor: "), std::string::npos) << report;
}

// Mild skew (one row in ten 10 long, the others 8): ELL pads 1.22x, sorted
// windows ~1.02x, SELL-32 saves under 10% over ELL: SELL-32-sigma and ELL are
// both timed, each from its own copy (built once, however the probes
// alternate), and once the selector settles the loser's copy is freed.
TEST_F(Layouts, AutoTimesEachCandidateFromItsOwnCopyAndFreesTheLoser) {
  Rows rows;
  rows.make(1 << 20, 8, 10, 0.1, 6);
  const irregfix::SiteInfo site{"layouts:mild", "row_sum", "range", irregfix::kSitePermutable};
  const int profiling = profiling_launches(2);
  rows.run(site, profiling - 1);
  auto c = site_counters("layouts:mild");
  ASSERT_EQ(c.candidates, 2) << irregfix::testing::stats_report();
  EXPECT_EQ(c.chosen_layout, 0); // still profiling
  EXPECT_EQ(c.misses, 2);        // one copy per candidate
  EXPECT_EQ(c.remaps, 2);
  EXPECT_EQ(c.hits, 2 * (3 - 1));
  EXPECT_EQ(irregfix::testing::cached_entries(), 2u);
  const int after = 30;
  const int transformed = rows.run(site, 1 + after);
  c = site_counters("layouts:mild");
  EXPECT_TRUE(c.chosen_layout == irregfix::kLayoutSell32Sigma ||
              c.chosen_layout == irregfix::kLayoutEllColMajor)
      << irregfix::testing::stats_report();
  EXPECT_EQ(irregfix::testing::cached_entries(), 1u) << "the loser's copy is freed";
  if (transformed > 2) // the chosen candidate's copy serves every later transformed launch
    EXPECT_EQ(c.layout, c.chosen_layout);
  EXPECT_EQ(c.misses, 2) << "the chosen copy is not rebuilt";
  const std::string report = irregfix::testing::stats_report();
  EXPECT_NE(report.find("(chosen: "), std::string::npos) << report;
  EXPECT_NE(report.find("sell-32-sigma "), std::string::npos) << report;
  EXPECT_NE(report.find("ell-colmajor "), std::string::npos) << report;
  rows.release();
}

// Under IRREGFIX_MAX_BYTES room for one copy: the second candidate's build
// does not fit, that launch runs the original, and the candidate is dropped;
// the first is profiled and chosen alone.
TEST_F(Layouts, ACandidateOverTheByteCapIsDropped) {
  Rows rows;
  const long long n = 1 << 20;
  rows.make(n, 8, 10, 0.1, 7);
  // SELL-32-sigma's copy: ~4.3 bytes a row of lengths, slices and permutation,
  // ~33 of data; ELL's 4 + 40. Both need ~85 bytes a row.
  irregfix::testing::set_max_bytes(60 * n);
  const irregfix::SiteInfo site{"layouts:cap", "row_sum", "range", irregfix::kSitePermutable};
  const int launches = profiling_launches(1) + 1 + 10;
  rows.run(site, launches);
  const auto c = site_counters("layouts:cap");
  EXPECT_EQ(c.candidates, 2);
  EXPECT_EQ(c.chosen_layout, irregfix::kLayoutSell32Sigma) << irregfix::testing::stats_report();
  EXPECT_EQ(c.fallbacks, 1) << c.last_fallback;
  EXPECT_EQ(c.last_fallback, "over IRREGFIX_MAX_BYTES");
  EXPECT_EQ(irregfix::testing::cached_entries(), 1u);
  const std::string report = irregfix::testing::stats_report();
  EXPECT_NE(report.find("(dropped: its copy could not be built)"), std::string::npos) << report;
  rows.release();
}

} // namespace
