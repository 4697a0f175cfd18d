// NVTX ranges of real launches (IRREGFIX_NVTX): a remap in chunks, its chunks,
// a refresh, the selector's probes and its decision, recorded by the test NVTX
// tool linked into this program (test/unit/runtime/nvtx_recorder.h).
#include "nvtx_recorder.h"

#include "device_test.cuh"
#include "row_sum_launch.cuh"

#include <algorithm>
#include <string>
#include <vector>

namespace {

class Nvtx : public DeviceTest {
protected:
  // n rows of 16 elements each: B and A uploaded, y for the sums.
  void make(long long rows) {
    n = rows;
    std::vector<int> hB(n + 1);
    for (long long t = 0; t <= n; ++t)
      hB[t] = static_cast<int>(t * 16);
    B = upload(hB);
    A = upload(std::vector<float>(static_cast<size_t>(n) * 16, 1.0f));
    y = upload(std::vector<float>(static_cast<size_t>(n), 0.0f));
  }
  long long n = 0;
  int *B = nullptr;
  float *A = nullptr, *y = nullptr;
};

bool has(const std::vector<std::string> &events, const std::string &prefix) {
  return std::any_of(events.begin(), events.end(),
                     [&](const std::string &e) { return e.rfind(prefix, 0) == 0; });
}

} // namespace

TEST_F(Nvtx, RemapsChunksAndRefreshesAreNamedBySite) {
  make(64 * 256);
  irregfix::testing::set_nvtx(true);
  irregfix::testing::set_layout(irregfix::kLayoutEllColMajor);
  irregfix::testing::set_chunks(4);
  const irregfix::SiteInfo site{"nvtx.cu:1:1", "row_sum", "range", irregfix::kSiteChunkable};
  nvtx_recorder::take_events();
  ASSERT_TRUE(row_sum::launch(site, n, B, A, y, 0));
  std::vector<std::string> e = nvtx_recorder::take_events();
  EXPECT_TRUE(has(e, "start irregfix: remap row_sum @ nvtx.cu:1:1 [ell-colmajor]"));
  EXPECT_TRUE(has(e, "start irregfix: copies row_sum @ nvtx.cu:1:1 [in chunks]"));
  EXPECT_TRUE(has(e, "start irregfix: chunk row_sum @ nvtx.cu:1:1 [1 of 4]"));
  EXPECT_TRUE(has(e, "end irregfix: chunk row_sum @ nvtx.cu:1:1 [4 of 4]"));
  irregfix_invalidate(A);
  ASSERT_TRUE(row_sum::launch(site, n, B, A, y, 0));
  e = nvtx_recorder::take_events();
  EXPECT_TRUE(has(e, "start irregfix: refresh row_sum @ nvtx.cu:1:1 [ell-colmajor]"));
  ASSERT_TRUE(row_sum::launch(site, n, B, A, y, 0)); // a hit: no remap, one chunk
  EXPECT_TRUE(nvtx_recorder::take_events().empty());
  EXPECT_TRUE(nvtx_recorder::recorded.open.empty());
}

TEST_F(Nvtx, SelectorProbesAndItsDecision) {
  make(4096);
  irregfix::testing::set_nvtx(true);
  const irregfix::SiteInfo site{"nvtx.cu:2:1", "row_sum", "range", irregfix::kSiteChunkable};
  nvtx_recorder::take_events();
  std::vector<std::string> all;
  for (int i = 0; i < 40; ++i) {
    row_sum::launch(site, n, B, A, y, 0);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess); // the timings come back before the next launch
    for (std::string &e : nvtx_recorder::take_events())
      all.push_back(std::move(e));
  }
  EXPECT_TRUE(has(all, "start irregfix: probe row_sum @ nvtx.cu:2:1 [original]"));
  EXPECT_TRUE(has(all, "start irregfix: probe row_sum @ nvtx.cu:2:1 [transformed]") ||
              has(all, "start irregfix: probe row_sum @ nvtx.cu:2:1 [ell-colmajor]"));
  EXPECT_TRUE(has(all, "mark irregfix: decision row_sum @ nvtx.cu:2:1 ["));
  EXPECT_TRUE(nvtx_recorder::recorded.open.empty());
}

TEST_F(Nvtx, OffByDefault) {
  make(4096);
  const irregfix::SiteInfo site{"nvtx.cu:3:1", "row_sum", "range", irregfix::kSiteChunkable};
  irregfix::testing::set_layout(irregfix::kLayoutEllColMajor);
  nvtx_recorder::take_events();
  ASSERT_TRUE(row_sum::launch(site, n, B, A, y, 0));
  EXPECT_TRUE(nvtx_recorder::take_events().empty());
}
