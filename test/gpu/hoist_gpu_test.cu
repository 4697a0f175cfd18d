// GPU tests of hoisted loops: begin_hoisted's buffers (sized, reused, grown,
// per stream) and plans, its decline when allocation fails, its choice between
// the steps (a launch that remaps: the copy in slices, slice s+1 beside step s)
// and the in-kernel loop (cached copies), and a hoisted row sum in the form the
// tool emits, bit for bit against the original kernel under every group and
// layout, on the default and a user stream. Each test skips itself without a device.
#include <irregfix/irregfix.cuh>
#include <irregfix/testing.h>

#include "row_sum_launch.cuh"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

#define CK(x) ASSERT_EQ((x), cudaSuccess) << #x

namespace {

using irregfix::testing::hoist_counters;

bool have_device() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return count > 0;
}

// row_sum::csr hoisted as the tool writes it: 's' carried in `live`.
__global__ void row_sum_hoisted(long long n, irregfix::View v, const float *A, float *y, irregfix::HoistStep step,
                                float *__restrict__ live) {
  long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    if (!step.epilogue) {
      if (step.begin > 0) {
        if (step.begin >= irregfix::length(v, t))
          return;
        s = live[t];
      }
      for (int i = step.begin, len = irregfix::length(v, t); i < len && i < step.end; ++i)
        s += A[irregfix::slot(v, t, i)];
      live[t] = s;
      return;
    }
    if (step.carried)
      s = live[t];
    y[t] = s;
  }
}

// The writer of the user-stream test: A scaled in place.
__global__ void scale(long long count, float *A, float by) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < count)
    A[i] *= by;
}

// What a launch of hoisted_launch ran.
enum Ran { kOriginal = -2, kInKernel = -1 }; // >= 0: hoisted, that many steps

// The generated launcher's protocol with a hoisted loop (see irregfix.cuh).
int hoisted_launch(const irregfix::SiteInfo &site, long long n, const int *B, const float *A, float *y,
                   cudaStream_t stream) {
  irregfix::View v;
  const void *out[1];
  const void *const src[1] = {A};
  const size_t size[1] = {sizeof(float)};
  const unsigned blocks = static_cast<unsigned>((n + 255) / 256);
  const size_t live_size[1] = {sizeof(float)};
  void *live[1];
  irregfix::HoistPlan plan;
  if (irregfix::begin_launch(site, stream) &&
      irregfix::prepare_range(site, B, irregfix::index_kind(B), n, 1, src, size, &v, out, stream) &&
      irregfix::begin_hoisted(site, v, 1, live_size, live, &plan, stream)) {
    const float *copy = static_cast<const float *>(out[0]);
    int ran = kInKernel;
    if (plan.hoisted) {
      for (int s = 0; s < plan.steps; ++s) {
        irregfix::hoisted_step(site, s, stream);
        row_sum_hoisted<<<blocks, 256, 0, stream>>>(n, v, copy, y, irregfix::hoist_step(plan, s),
                                                     static_cast<float *>(live[0]));
      }
      row_sum_hoisted<<<blocks, 256, 0, stream>>>(n, v, copy, y, irregfix::hoist_epilogue(plan),
                                                   static_cast<float *>(live[0]));
      ran = plan.steps;
    } else {
      row_sum::view<<<blocks, 256, 0, stream>>>(n, v, copy, y, 0);
    }
    irregfix::end_transformed_launch(site, stream);
    return ran;
  }
  row_sum::csr<<<blocks, 256, 0, stream>>>(n, B, A, y);
  irregfix::end_original_launch(site, stream);
  return kOriginal;
}

// A CSR matrix with skewed rows (some empty, one long) on the device.
struct Rows {
  long long n = 0, nnz = 0;
  int width = 0;
  int *B = nullptr;
  float *A = nullptr;
  float *y = nullptr;
  void make(long long rows, unsigned seed) {
    std::mt19937 gen(seed);
    std::vector<int> b(rows + 1, 0);
    for (long long r = 0; r < rows; ++r) {
      int len = r == rows / 2 ? 300 : static_cast<int>(gen() % 9);
      width = std::max(width, len);
      b[r + 1] = b[r] + len;
    }
    std::vector<float> a(b[rows]);
    for (float &x : a)
      x = static_cast<float>(gen() % 1000) / 7.0f;
    n = rows;
    nnz = b[rows];
    ASSERT_EQ(cudaMalloc(&B, b.size() * sizeof(int)), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&A, (a.size() + 1) * sizeof(float)), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&y, rows * sizeof(float)), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(B, b.data(), b.size() * sizeof(int), cudaMemcpyHostToDevice), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(A, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
  }
  ~Rows() {
    cudaFree(B);
    cudaFree(A);
    cudaFree(y);
  }
  std::vector<float> result() const {
    std::vector<float> out(n);
    cudaMemcpy(out.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost);
    return out;
  }
};

class Hoist : public ::testing::Test {
protected:
  void SetUp() override {
    if (!have_device())
      GTEST_SKIP() << "no CUDA device";
    irregfix::testing::reset();
    irregfix::testing::set_layout(irregfix::kLayoutEllColMajor); // always the transformed kernel
  }
  void TearDown() override {
    if (have_device())
      irregfix::testing::reset();
  }
};

TEST_F(Hoist, BuffersAreSizedReusedAndGrown) {
  static const irregfix::SiteInfo site = {"hoist_gpu_test.cu:buffers", "k", "range"};
  irregfix::testing::set_hoist_always(true); // no launch open: nothing to remap
  irregfix::View v{};
  v.n = 1000;
  v.width = 10;
  const size_t sizes[2] = {sizeof(float), sizeof(double)};
  void *bufs[2] = {nullptr, nullptr};
  irregfix::HoistPlan plan;
  ASSERT_TRUE(irregfix::begin_hoisted(site, v, 2, sizes, bufs, &plan, nullptr));
  ASSERT_NE(bufs[0], nullptr);
  ASSERT_NE(bufs[1], nullptr);
  EXPECT_EQ(plan.steps, 4); // the default: four steps
  EXPECT_EQ(plan.group, 3);
  EXPECT_EQ(hoist_counters(site.id).buffer_bytes, 1000 * (sizeof(float) + sizeof(double)));
  // Every thread's element is writable.
  CK(cudaMemset(bufs[0], 0, 1000 * sizeof(float)));
  CK(cudaMemset(bufs[1], 0, 1000 * sizeof(double)));

  void *again[2] = {nullptr, nullptr};
  v.n = 500; // smaller: the same buffers
  ASSERT_TRUE(irregfix::begin_hoisted(site, v, 2, sizes, again, &plan, nullptr));
  EXPECT_EQ(again[0], bufs[0]);
  EXPECT_EQ(again[1], bufs[1]);

  v.n = 4000; // larger: grown
  ASSERT_TRUE(irregfix::begin_hoisted(site, v, 2, sizes, again, &plan, nullptr));
  EXPECT_EQ(hoist_counters(site.id).buffer_bytes, 4000 * (sizeof(float) + sizeof(double)));
  CK(cudaMemset(again[1], 0, 4000 * sizeof(double)));

  cudaStream_t other;
  CK(cudaStreamCreate(&other));
  void *mine[2] = {nullptr, nullptr};
  ASSERT_TRUE(irregfix::begin_hoisted(site, v, 2, sizes, mine, &plan, other));
  EXPECT_NE(mine[0], again[0]); // another stream never shares a buffer
  CK(cudaStreamDestroy(other));

  irregfix::testing::set_hoist_group(1);
  ASSERT_TRUE(irregfix::begin_hoisted(site, v, 2, sizes, again, &plan, nullptr));
  EXPECT_EQ(plan.steps, 10);
  EXPECT_EQ(plan.group, 1);
  auto c = hoist_counters(site.id);
  EXPECT_EQ(c.launches, 5);
  EXPECT_EQ(c.steps, 4 + 4 + 4 + 4 + 10);
  EXPECT_EQ(c.group, 1);
  EXPECT_EQ(c.declined, 0);
  EXPECT_EQ(c.in_kernel, 0);
  EXPECT_NE(irregfix::testing::stats_report().find("hoisted: launches 5, steps 26 (1 iterations a step)"),
            std::string::npos);

  // By default a launch with nothing to remap runs the in-kernel loop.
  irregfix::testing::set_hoist_always(false);
  ASSERT_TRUE(irregfix::begin_hoisted(site, v, 2, sizes, again, &plan, nullptr));
  EXPECT_EQ(plan.hoisted, 0);
  EXPECT_EQ(hoist_counters(site.id).in_kernel, 1);
  EXPECT_EQ(hoist_counters(site.id).launches, 5);
}

TEST_F(Hoist, DeclinesWhenAllocationFails) {
  static const irregfix::SiteInfo site = {"hoist_gpu_test.cu:fail", "k", "range"};
  irregfix::testing::set_fail_alloc(true);
  irregfix::testing::set_hoist_always(true);
  irregfix::View v{};
  v.n = 100;
  v.width = 3;
  const size_t sizes[1] = {sizeof(float)};
  void *bufs[1] = {nullptr};
  irregfix::HoistPlan plan;
  // No live buffers: the in-kernel loop (the copies, none here, enqueued whole).
  EXPECT_TRUE(irregfix::begin_hoisted(site, v, 1, sizes, bufs, &plan, nullptr));
  EXPECT_EQ(plan.hoisted, 0);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess); // the program's own checks see nothing
  auto c = hoist_counters(site.id);
  EXPECT_EQ(c.declined, 1);
  EXPECT_EQ(c.launches, 0);
  EXPECT_EQ(c.buffer_bytes, 0u);
}

TEST_F(Hoist, NothingToCarryNeedsNoBuffers) {
  static const irregfix::SiteInfo site = {"hoist_gpu_test.cu:none", "k", "range"};
  irregfix::View v{};
  v.n = 100;
  v.width = 0;
  irregfix::HoistPlan plan;
  irregfix::testing::set_hoist_always(true);
  ASSERT_TRUE(irregfix::begin_hoisted(site, v, 0, nullptr, nullptr, &plan, nullptr));
  EXPECT_EQ(plan.hoisted, 1);
  EXPECT_EQ(plan.steps, 0);
  EXPECT_EQ(irregfix::hoist_epilogue(plan).carried, 0);
}

// Launches the hoisted row sum on `stream` after the copy source was written
// (so that it remaps), checks it against `want`, and returns what ran.
int remapping_launch(const irregfix::SiteInfo &site, Rows &m, const std::vector<float> &want,
                     cudaStream_t stream, const char *what) {
  irregfix_invalidate(m.A);
  EXPECT_EQ(cudaMemsetAsync(m.y, 0xff, m.n * sizeof(float), stream), cudaSuccess);
  const int ran = hoisted_launch(site, m.n, m.B, m.A, m.y, stream);
  EXPECT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  std::vector<float> got = m.result();
  EXPECT_EQ(0, memcmp(got.data(), want.data(), want.size() * sizeof(float))) << what;
  return ran;
}

TEST_F(Hoist, RowSumIsBitIdenticalUnderEveryGroupAndLayout) {
  static const irregfix::SiteInfo site = {"hoist_gpu_test.cu:rowsum", "row_sum", "range", irregfix::kSiteHoisted};
  Rows m;
  m.make(20000, 11);
  const unsigned blocks = static_cast<unsigned>((m.n + 255) / 256);
  row_sum::csr<<<blocks, 256>>>(m.n, m.B, m.A, m.y);
  CK(cudaDeviceSynchronize());
  std::vector<float> want = m.result();
  for (int layout : {irregfix::kLayoutEllColMajor, irregfix::kLayoutSell32}) {
    irregfix::testing::set_layout(layout);
    for (int group : {1, 2, 7, 0, 1000}) {
      irregfix::testing::set_hoist_group(group);
      const std::string what = "layout " + std::to_string(layout) + " group " + std::to_string(group);
      // Remaps: hoisted, the copy in slices; one step has nothing to overlap: in-kernel.
      const int g = group > 0 ? group : (m.width + 3) / 4;
      const int steps = (m.width + g - 1) / g;
      EXPECT_EQ(remapping_launch(site, m, want, nullptr, what.c_str()), steps >= 2 ? steps : kInKernel)
          << what;
      // Cached: the in-kernel loop.
      CK(cudaMemset(m.y, 0xff, m.n * sizeof(float)));
      EXPECT_EQ(hoisted_launch(site, m.n, m.B, m.A, m.y, nullptr), kInKernel) << what;
      CK(cudaDeviceSynchronize());
      std::vector<float> got = m.result();
      ASSERT_EQ(0, memcmp(got.data(), want.data(), want.size() * sizeof(float))) << what;
    }
  }
  // Under IRREGFIX_HOIST_ALWAYS a cached launch is hoisted too.
  irregfix::testing::set_hoist_always(true);
  irregfix::testing::set_hoist_group(0);
  CK(cudaMemset(m.y, 0xff, m.n * sizeof(float)));
  EXPECT_EQ(hoisted_launch(site, m.n, m.B, m.A, m.y, nullptr), 4);
  CK(cudaDeviceSynchronize());
  std::vector<float> got = m.result();
  ASSERT_EQ(0, memcmp(got.data(), want.data(), want.size() * sizeof(float)));
}

// IRREGFIX_VERIFY checks the hits of hoisted launches too: the in-kernel loop of
// a cached launch, and a cached launch hoisted under IRREGFIX_HOIST_ALWAYS.
TEST_F(Hoist, VerifyChecksTheCachedLaunches) {
  static const irregfix::SiteInfo site = {"hoist_gpu_test.cu:verify", "row_sum", "range",
                                          irregfix::kSiteHoisted, nullptr, "A,B"};
  Rows m;
  m.make(20000, 13);
  const unsigned blocks = static_cast<unsigned>((m.n + 255) / 256);
  row_sum::csr<<<blocks, 256>>>(m.n, m.B, m.A, m.y);
  CK(cudaDeviceSynchronize());
  const std::vector<float> want = m.result();
  irregfix::testing::set_verify(true);
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(remapping_launch(site, m, want, nullptr, "remap"), 4); // hoisted, the copy in slices
  for (bool always : {false, true}) {
    irregfix::testing::set_hoist_always(always);
    CK(cudaMemset(m.y, 0xff, m.n * sizeof(float)));
    EXPECT_EQ(hoisted_launch(site, m.n, m.B, m.A, m.y, nullptr), always ? 4 : kInKernel);
    CK(cudaDeviceSynchronize());
    const std::vector<float> got = m.result();
    EXPECT_EQ(0, memcmp(got.data(), want.data(), want.size() * sizeof(float))) << "always " << always;
  }
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  const auto c = irregfix::testing::site_counters(site.id);
  EXPECT_EQ(c.hits, 2);
  EXPECT_EQ(c.verified, 2);
}

// A remapping launch overlaps slice s+1's copy with step s: counted and timed
// as a pipelined launch in slices, on a user stream ordered like the program's
// (a writer of A right before the launch, a reader of y right after, no syncs).
TEST_F(Hoist, SlicesPipelineTheRemapOnAUserStream) {
  static const irregfix::SiteInfo site = {"hoist_gpu_test.cu:slices", "row_sum", "range", irregfix::kSiteHoisted};
  Rows m;
  m.make(50000, 5);
  const unsigned blocks = static_cast<unsigned>((m.n + 255) / 256);
  cudaStream_t user;
  CK(cudaStreamCreateWithFlags(&user, cudaStreamNonBlocking));
  float *copy_of_y = nullptr;
  CK(cudaMalloc(&copy_of_y, m.n * sizeof(float)));
  irregfix::testing::set_hoist_group(3);
  for (int round = 0; round < 3; ++round) {
    // The writer scales A on the user stream; the launch must see its output.
    scale<<<static_cast<unsigned>((m.nnz + 255) / 256), 256, 0, user>>>(m.nnz, m.A, 1.5f);
    irregfix_invalidate(m.A);
    const int ran = hoisted_launch(site, m.n, m.B, m.A, m.y, user);
    EXPECT_EQ(ran, (m.width + 2) / 3) << "round " << round;
    CK(cudaMemcpyAsync(copy_of_y, m.y, m.n * sizeof(float), cudaMemcpyDeviceToDevice, user));
    CK(cudaStreamSynchronize(user));
    row_sum::csr<<<blocks, 256, 0, user>>>(m.n, m.B, m.A, m.y);
    CK(cudaStreamSynchronize(user));
    std::vector<float> want = m.result(), got(m.n);
    CK(cudaMemcpy(got.data(), copy_of_y, m.n * sizeof(float), cudaMemcpyDeviceToHost));
    ASSERT_EQ(0, memcmp(got.data(), want.data(), want.size() * sizeof(float))) << "round " << round;
  }
  const std::string report = irregfix::testing::stats_report();
  EXPECT_NE(report.find("pipelined launches 3 (latest in " + std::to_string((m.width + 2) / 3) +
                        " slices of iterations)"),
            std::string::npos)
      << report;
  EXPECT_EQ(hoist_counters(site.id).launches, 3);
  CK(cudaFree(copy_of_y));
  CK(cudaStreamDestroy(user));
}

} // namespace
