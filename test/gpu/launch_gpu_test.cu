// GPU tests of the launch protocol the generated launchers follow
// (begin_launch / prepare_* / end_*_launch): the selector's choices on kernels
// whose answer is known (original or transformed, and among candidate
// layouts), ordering with the user's stream, and several devices.
// Each test skips itself without the device(s) it needs.
#include <irregfix/irregfix.cuh>
#include <irregfix/testing.h>

#include "row_sum_launch.cuh"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#define CK(x) ASSERT_EQ((x), cudaSuccess) << #x

namespace {

using irregfix::testing::site_counters;

int device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return count;
}

// Thread t reads A[idx[t]] (a gather), original and transformed.
__global__ void gather_orig(long long n, const int *idx, const float *A, float *y) {
  long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t < n)
    y[t] = A[idx[t]] * 2.0f;
}

__global__ void gather_view(long long n, irregfix::View v, const float *A, float *y) {
  long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t < n)
    y[t] = A[irregfix::slot(v, t, 0)] * 2.0f;
}

bool gather_launch(const irregfix::SiteInfo &site, long long n, const int *idx, const float *A,
                   float *y, cudaStream_t stream) {
  irregfix::View v;
  const void *out[1];
  const unsigned blocks = static_cast<unsigned>((n + 255) / 256);
  if (irregfix::begin_launch(site, stream) &&
      irregfix::prepare_gather(site, idx, irregfix::index_kind(idx), n, A, sizeof(float), &v, out,
                               stream)) {
    gather_view<<<blocks, 256, 0, stream>>>(n, v, static_cast<const float *>(out[0]), y);
    irregfix::end_transformed_launch(site, stream);
    return true;
  }
  gather_orig<<<blocks, 256, 0, stream>>>(n, idx, A, y);
  irregfix::end_original_launch(site, stream);
  return false;
}

// Device data of one row-sum problem: rows of `width` elements each.
struct RowSum {
  long long n = 0;
  int *B = nullptr;
  float *A = nullptr, *y = nullptr;
  std::vector<int> hB;
  std::vector<float> hA;

  void make(long long rows, int width, unsigned seed) {
    n = rows;
    hB.resize(n + 1);
    std::mt19937 r(seed);
    std::uniform_int_distribution<int> len(width / 2, width);
    hB[0] = 0;
    for (long long t = 0; t < n; ++t)
      hB[t + 1] = hB[t] + len(r);
    hA.resize(hB[n]);
    std::uniform_real_distribution<float> d(-1, 1);
    for (float &x : hA)
      x = d(r);
    ASSERT_EQ(cudaMalloc(&B, hB.size() * sizeof(int)), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&A, hA.size() * sizeof(float)), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&y, n * sizeof(float)), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(B, hB.data(), hB.size() * sizeof(int), cudaMemcpyHostToDevice), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(A, hA.data(), hA.size() * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
  }
  // y against the CPU sums, same order of additions.
  void check() const {
    std::vector<float> got(n);
    ASSERT_EQ(cudaMemcpy(got.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
    for (long long t = 0; t < n; ++t) {
      float s = 0;
      for (int k = hB[t]; k < hB[t + 1]; ++k)
        s += hA[k];
      ASSERT_EQ(got[t], s) << "row " << t;
    }
  }
  void release() {
    irregfix_release(B);
    irregfix_release(A);
    irregfix_release(y);
    cudaFree(B);
    cudaFree(A);
    cudaFree(y);
  }
};

class Launch : public ::testing::Test {
protected:
  void SetUp() override {
    if (device_count() == 0)
      GTEST_SKIP() << "no CUDA device";
    // The selector profiles from the first launch (no warm-up), unless a test says otherwise.
    setenv("IRREGFIX_PROFILE_AFTER_MS", "0", 1);
    irregfix::testing::reset();
    irregfix::testing::set_layout(0); // auto: the selector runs
  }
  void TearDown() override { irregfix::testing::reset(); }
};

// Long rows read one thread per row through a copy that makes the loads
// coalesced, and the matrix never changes: after the profiling launches the
// selector keeps the transformed kernel. (On an H100 the L1 cache leaves the
// original within a few percent: the original's times count 4x, so that what
// is tested is the keeping, on any GPU.)
TEST_F(Launch, SelectorKeepsACachedCopyThatIsFaster) {
  irregfix::testing::set_original_time_scale(4);
  RowSum p;
  p.make(1 << 20, 64, 1);
  irregfix::SiteInfo site{"select:1", "row_sum", "range"};
  int transformed = 0;
  const int launches = 60;
  for (int i = 0; i < launches; ++i) {
    CK(cudaMemset(p.y, 0xff, p.n * sizeof(float)));
    transformed += row_sum::launch(site, p.n, p.B, p.A, p.y, 0);
    CK(cudaDeviceSynchronize()); // timings come back before the next launch
    p.check();
  }
  const auto c = site_counters("select:1");
  EXPECT_EQ(c.launches, transformed);
  EXPECT_EQ(c.launches + c.chosen_original, launches);
  EXPECT_GE(transformed, launches - 8) << irregfix::testing::stats_report();
  // One copy per candidate layout the selector timed (rows of 32 to 64: SELL-32
  // and ELL), each built once.
  EXPECT_GE(c.candidates, 1);
  EXPECT_EQ(c.misses, c.candidates);
  EXPECT_EQ(c.remaps, c.candidates);
  p.release();
}

// The warm-up (IRREGFIX_PROFILE_AFTER_MS): until the original's launches have
// taken that long, a launcher under auto runs the original and builds no copy;
// past it, it profiles as usual.
TEST_F(Launch, AutoWarmsUpOnTheOriginalBeforeItProfiles) {
  setenv("IRREGFIX_PROFILE_AFTER_MS", "100000", 1); // longer than the test
  irregfix::testing::reset();
  irregfix::testing::set_layout(0);
  RowSum p;
  p.make(1 << 16, 64, 5);
  irregfix::SiteInfo site{"select:warm", "row_sum", "range"};
  for (int i = 0; i < 20; ++i) {
    CK(cudaMemset(p.y, 0xff, p.n * sizeof(float)));
    EXPECT_FALSE(row_sum::launch(site, p.n, p.B, p.A, p.y, 0));
    CK(cudaDeviceSynchronize());
    p.check();
  }
  auto c = site_counters("select:warm");
  EXPECT_EQ(c.launches, 0);
  EXPECT_EQ(c.chosen_original, 20);
  EXPECT_EQ(irregfix::testing::cached_entries(), 0u);
  const std::string report = irregfix::testing::stats_report();
  EXPECT_NE(report.find("warming up"), std::string::npos) << report;

  setenv("IRREGFIX_PROFILE_AFTER_MS", "0", 1); // no warm-up: the next launch builds and times a copy
  irregfix::testing::reset();
  irregfix::testing::set_layout(0);
  CK(cudaMemset(p.y, 0xff, p.n * sizeof(float)));
  EXPECT_TRUE(row_sum::launch(site, p.n, p.B, p.A, p.y, 0));
  CK(cudaDeviceSynchronize());
  p.check();
  EXPECT_EQ(site_counters("select:warm").misses, 1);
  p.release();
}

// A chunkable launch whose source is rewritten before every launch: every
// transformed launch is pipelined (the remap in chunks beside the kernel), so
// no launch times the kernel alone. The selector still leaves profiling, on
// the launches' whole times, and every result is right.
TEST_F(Launch, SelectorDecidesWhenEveryLaunchIsPipelined) {
  RowSum p;
  p.make(1 << 20, 64, 3);
  irregfix::testing::set_chunks(4);
  irregfix::SiteInfo site{"select:3", "row_sum", "range", irregfix::kSiteChunkable};
  const int launches = 30;
  for (int i = 0; i < launches; ++i) {
    irregfix_invalidate(p.A);
    CK(cudaMemset(p.y, 0xff, p.n * sizeof(float)));
    row_sum::launch(site, p.n, p.B, p.A, p.y, 0);
    CK(cudaDeviceSynchronize()); // timings come back before the next launch
    p.check();
  }
  const std::string report = irregfix::testing::stats_report();
  EXPECT_NE(report.find("pipelined launches"), std::string::npos) << report;
  EXPECT_EQ(report.find("selector: profiling"), std::string::npos) << report;
  p.release();
}

// A gather whose source is rewritten before every launch: each transformed
// launch must remap as much data as the original kernel reads, so the
// selector settles on the original kernel and builds no more copies.
TEST_F(Launch, SelectorRunsTheOriginalWhenEveryLaunchRemaps) {
  // Whether the transformed kernel wins on its own time and loses on the
  // remap, or loses outright, depends on the GPU's margins (and on other work
  // on it): the original's times count half, so that it is chosen either way.
  irregfix::testing::set_original_time_scale(0.5);
  const long long n = 1 << 22;
  std::vector<int> idx(n);
  std::mt19937 r(2);
  std::uniform_int_distribution<int> pick(0, static_cast<int>(n) - 1);
  for (int &i : idx)
    i = pick(r);
  int *dIdx;
  float *dA, *dy;
  CK(cudaMalloc(&dIdx, n * sizeof(int)));
  CK(cudaMalloc(&dA, n * sizeof(float)));
  CK(cudaMalloc(&dy, n * sizeof(float)));
  CK(cudaMemcpy(dIdx, idx.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  irregfix::SiteInfo site{"select:2", "gather", "gather"};
  std::vector<float> A(n), y(n);
  const int launches = 60;
  int transformed = 0;
  for (int i = 0; i < launches; ++i) {
    for (long long k = 0; k < n; k += 4099)
      A[k] = static_cast<float>(i * 7 + k % 13);
    irregfix_invalidate(dA);
    CK(cudaMemcpy(dA, A.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    transformed += gather_launch(site, n, dIdx, dA, dy, 0);
    CK(cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (long long t = 0; t < n; t += 997)
      ASSERT_EQ(y[t], A[idx[t]] * 2.0f) << "launch " << i << " thread " << t;
  }
  const auto c = site_counters("select:2");
  // The profiling launches (three of each variant), then only the original.
  EXPECT_LE(transformed, 3) << irregfix::testing::stats_report();
  EXPECT_EQ(c.launches + c.chosen_original, launches);
  const std::string report = irregfix::testing::stats_report();
  EXPECT_TRUE(report.find("costs more than") != std::string::npos ||
              report.find("does not beat the original") != std::string::npos)
      << report;
  cudaFree(dIdx);
  cudaFree(dA);
  cudaFree(dy);
}

// IRREGFIX_LAYOUT=none (here set_layout): every launch runs the original.
TEST_F(Launch, LayoutNoneRunsTheOriginal) {
  irregfix::testing::set_layout(-1);
  RowSum p;
  p.make(5000, 16, 3);
  irregfix::SiteInfo site{"select:3", "row_sum", "range"};
  for (int i = 0; i < 3; ++i)
    EXPECT_FALSE(row_sum::launch(site, p.n, p.B, p.A, p.y, 0));
  p.check();
  EXPECT_EQ(site_counters("select:3").chosen_original, 3);
  EXPECT_EQ(site_counters("select:3").misses, 0);
  p.release();
}

// The user's stream orders everything: a kernel that writes the source right
// before the launch, the launch (whose remap must see that write), and a
// kernel that reads the output right after, all on one non-default stream,
// with no synchronisation in between.
__global__ void fill(long long count, float *A, float value) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < count)
    A[i] = value + static_cast<float>(i % 7);
}

__global__ void scale_into(long long n, const float *y, float *z) {
  long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t < n)
    z[t] = y[t] * 0.5f;
}

// Run whole (remap, then the kernel, on the user's stream) and in 4 chunks
// (copies on a remap stream, ordered after the fill by an event).
void user_stream_case(const char *id, int flags, int chunks) {
  irregfix::testing::set_layout(irregfix::kLayoutEllColMajor); // always transformed: always remaps
  irregfix::testing::set_chunks(chunks);
  RowSum p;
  p.make(200003, 40, 4);
  float *z;
  CK(cudaMalloc(&z, p.n * sizeof(float)));
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  irregfix::SiteInfo site{id, "row_sum", "range", flags};
  const long long count = p.hB[p.n];
  std::vector<std::vector<float>> results;
  for (int step = 0; step < 5; ++step) {
    irregfix_invalidate(p.A); // what the tool inserts before a launch that writes A
    fill<<<static_cast<unsigned>((count + 255) / 256), 256, 0, s>>>(count, p.A, 100.0f * step);
    ASSERT_TRUE(row_sum::launch(site, p.n, p.B, p.A, p.y, s));
    scale_into<<<static_cast<unsigned>((p.n + 255) / 256), 256, 0, s>>>(p.n, p.y, z);
    std::vector<float> h(p.n);
    CK(cudaMemcpyAsync(h.data(), z, p.n * sizeof(float), cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    results.push_back(h);
  }
  for (int step = 0; step < 5; ++step)
    for (long long t = 0; t < p.n; t += 101) {
      float sum = 0;
      for (int k = p.hB[t]; k < p.hB[t + 1]; ++k)
        sum += 100.0f * step + static_cast<float>(k % 7);
      ASSERT_EQ(results[step][t], sum * 0.5f) << "step " << step << " row " << t;
    }
  EXPECT_EQ(site_counters(id).remaps, 5);
  EXPECT_EQ(site_counters(id).pipelined, chunks > 1 ? 5 : 0);
  CK(cudaStreamDestroy(s));
  cudaFree(z);
  p.release();
}

TEST_F(Launch, UserStreamOrdersWritesRemapAndReads) { user_stream_case("stream:1", 0, 0); }

TEST_F(Launch, UserStreamOrdersAPipelinedLaunch) {
  user_stream_case("stream:2", irregfix::kSiteChunkable, 4);
}

// A chunkable launch that remaps runs in chunks, chunk c+1's copy beside chunk
// c's kernel: any chunk count gives bitwise the same results, a refresh is
// pipelined again, and a cached launch is one chunk (the whole grid).
TEST_F(Launch, PipelinedLaunchInOneTwoSevenAndManyChunks) {
  irregfix::testing::set_layout(irregfix::kLayoutEllColMajor);
  RowSum p;
  p.make(896 * 256 - 5, 24, 6); // 896 blocks of 256: divisible by 2, 7 and 64
  std::mt19937 r(7);
  std::uniform_real_distribution<float> d(-1, 1);
  for (int chunks : {1, 2, 7, 64}) {
    irregfix::testing::set_chunks(chunks);
    const std::string id = "chunks:" + std::to_string(chunks);
    irregfix::SiteInfo site{id.c_str(), "row_sum", "range", irregfix::kSiteChunkable};
    const long long pipelined = chunks > 1 ? 1 : 0;
    for (int step = 0; step < 2; ++step) { // a miss, then a refresh after A changes
      if (step == 1) {
        for (float &x : p.hA)
          x = d(r);
        irregfix_invalidate(p.A);
        CK(cudaMemcpy(p.A, p.hA.data(), p.hA.size() * sizeof(float), cudaMemcpyHostToDevice));
      }
      CK(cudaMemset(p.y, 0xff, p.n * sizeof(float)));
      ASSERT_TRUE(row_sum::launch(site, p.n, p.B, p.A, p.y, 0));
      p.check();
      EXPECT_EQ(site_counters(id.c_str()).pipelined, pipelined * (step + 1)) << chunks << " chunks";
      EXPECT_EQ(site_counters(id.c_str()).last_chunks, chunks > 1 ? chunks : 0);
    }
    CK(cudaMemset(p.y, 0xff, p.n * sizeof(float)));
    ASSERT_TRUE(row_sum::launch(site, p.n, p.B, p.A, p.y, 0)); // cached: one chunk
    p.check();
    EXPECT_EQ(site_counters(id.c_str()).pipelined, pipelined * 2);
    EXPECT_EQ(site_counters(id.c_str()).hits, 1);
  }
  const std::string report = irregfix::testing::stats_report();
  EXPECT_NE(report.find("pipelined launches 2 (latest in 64 chunks)"), std::string::npos) << report;
  EXPECT_NE(report.find("hidden behind the kernel"), std::string::npos) << report;
  p.release();
}

// Without IRREGFIX_CHUNKS the model chooses: several chunks for a launch whose
// remap and kernel are both long enough, and still the same results.
TEST_F(Launch, ChunkModelSplitsALongRemap) {
  irregfix::testing::set_layout(irregfix::kLayoutEllColMajor);
  RowSum p;
  p.make(1000003, 64, 8);
  irregfix::SiteInfo site{"chunks:model", "row_sum", "range", irregfix::kSiteChunkable};
  ASSERT_TRUE(row_sum::launch(site, p.n, p.B, p.A, p.y, 0));
  p.check();
  EXPECT_EQ(site_counters("chunks:model").pipelined, 1);
  EXPECT_GT(site_counters("chunks:model").last_chunks, 1);
  p.release();
}

// Several GPUs: one host thread per device, each with its own data, and one
// thread that switches devices between launches. Copies and selectors are per
// device; every result is checked.
void run_on_device(int dev, unsigned seed, std::string *error) {
  if (cudaSetDevice(dev) != cudaSuccess) {
    *error = "cudaSetDevice failed";
    return;
  }
  RowSum p;
  p.make(300007 + dev, 48, seed);
  irregfix::SiteInfo site{"multi:1", "row_sum", "range"};
  for (int i = 0; i < 20; ++i) {
    if (i % 5 == 4) { // a host write between launches
      for (long long k = 0; k < static_cast<long long>(p.hA.size()); k += 37)
        p.hA[k] += 1.0f;
      irregfix_invalidate(p.A);
      cudaMemcpy(p.A, p.hA.data(), p.hA.size() * sizeof(float), cudaMemcpyHostToDevice);
    }
    row_sum::launch(site, p.n, p.B, p.A, p.y, 0);
    std::vector<float> got(p.n);
    if (cudaMemcpy(got.data(), p.y, p.n * sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess) {
      *error = "cudaMemcpy failed";
      return;
    }
    for (long long t = 0; t < p.n; t += 13) {
      float s = 0;
      for (int k = p.hB[t]; k < p.hB[t + 1]; ++k)
        s += p.hA[k];
      if (got[t] != s) {
        *error = "device " + std::to_string(dev) + " launch " + std::to_string(i) + " row " +
                 std::to_string(t) + " differs";
        return;
      }
    }
  }
  p.release();
}

TEST_F(Launch, OneHostThreadPerDevice) {
  const int count = device_count();
  if (count < 2)
    GTEST_SKIP() << "needs two CUDA devices, found " << count;
  std::vector<std::string> errors(count);
  std::vector<std::thread> threads;
  for (int d = 0; d < count; ++d)
    threads.emplace_back(run_on_device, d, 10u + d, &errors[d]);
  for (auto &t : threads)
    t.join();
  for (int d = 0; d < count; ++d)
    EXPECT_EQ(errors[d], "") << "device " << d;
  const auto c = site_counters("multi:1");
  EXPECT_EQ(c.launches + c.chosen_original, 20LL * count);
  EXPECT_GE(c.misses, count); // one copy per device at least
}

TEST_F(Launch, OneThreadSwitchingDevices) {
  const int count = device_count();
  if (count < 2)
    GTEST_SKIP() << "needs two CUDA devices, found " << count;
  irregfix::testing::set_layout(irregfix::kLayoutEllColMajor);
  std::vector<RowSum> problems(2);
  for (int d = 0; d < 2; ++d) {
    CK(cudaSetDevice(d));
    problems[d].make(100003, 32, 20u + d);
  }
  irregfix::SiteInfo site{"multi:2", "row_sum", "range"};
  for (int i = 0; i < 6; ++i)
    for (int d = 0; d < 2; ++d) {
      CK(cudaSetDevice(d));
      ASSERT_TRUE(row_sum::launch(site, problems[d].n, problems[d].B, problems[d].A, problems[d].y, 0));
      problems[d].check();
    }
  const auto c = site_counters("multi:2");
  EXPECT_EQ(c.misses, 2);
  EXPECT_EQ(c.hits, 10);
  for (int d = 0; d < 2; ++d) {
    CK(cudaSetDevice(d));
    problems[d].release();
  }
  CK(cudaSetDevice(0));
}

// ---- the selector over candidate layouts ------------------------------------
// A permutable range site on skewed, uniform and mildly skewed rows under
// auto: every launch's output bitwise the original kernel's, the candidates
// the cost model proposes and the layout the selector settles on checked, and
// the losers' copies freed.

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
bool permutable_launch(const irregfix::SiteInfo &site, long long n, const int *B, const float *A,
                       float *y) {
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
  row_sum::csr<<<grid, block>>>(n, B, A, y);
  irregfix::end_original_launch(site, 0);
  return false;
}

// Rows of `common` elements, and of `rare` elements with probability p_rare.
struct SkewedRows {
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
    row_sum::csr<<<static_cast<unsigned>((n + 255) / 256), 256>>>(n, B, A, y);
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
      transformed += permutable_launch(site, n, B, A, y);
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

// Profiling: the original and every candidate kProbes times, then one launch
// that settles (3 probes of each variant + 1).
int profiling_launches(int candidates) { return 3 * (candidates + 1) + 1; }

// Heavy skew (one row in eight 64 long, the others 4): sorted windows pad
// ~1.3x, ELL and SELL-32 ~5.5x, so SELL-32-sigma is the only layout worth
// timing. Uniform rows: ELL alone (SELL-32 saves nothing).
TEST_F(Launch, AutoChoosesSigmaOnSkewAndEllOnUniformRows) {
  // Which layout, not whether any beats the original (within 2% on an H100).
  irregfix::testing::set_original_time_scale(4);
  struct Case {
    const char *id;
    int common, rare;
    double p_rare;
    int want;
  } cases[] = {{"layouts:skewed", 4, 64, 0.125, irregfix::kLayoutSell32Sigma},
               {"layouts:uniform", 8, 8, 0.0, irregfix::kLayoutEllColMajor}};
  for (const Case &k : cases) {
    SkewedRows rows;
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
TEST_F(Launch, AutoTimesEachCandidateFromItsOwnCopyAndFreesTheLoser) {
  // Neither candidate may be dropped as far slower than the original.
  irregfix::testing::set_original_time_scale(4);
  SkewedRows rows;
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
TEST_F(Launch, ACandidateOverTheByteCapIsDropped) {
  SkewedRows rows;
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
