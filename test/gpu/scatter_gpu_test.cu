// GPU tests of scatter sites (irregular reductions and assignments, the
// inspector-executor):
// the inspector's segments against a CPU model, the executor's sums against a
// double-precision reference, the same bits at every run under
// IRREGFIX_DETERMINISTIC, the segments recomputed after f changes (a copy, a
// kernel) and IRREGFIX_VERIFY catching a change nobody announced, the
// fallbacks (allocation failure, byte cap, a failed variant launch), and the
// selector's choice under auto. The launcher is the one the tool generates,
// written out. Each test skips itself without a device.
#include <irregfix/irregfix.cuh>
#include <irregfix/testing.h>

#include "device_test.cuh"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#define CK(x) ASSERT_EQ((x), cudaSuccess) << #x

namespace {

using irregfix::testing::site_counters;

// The original kernel: one atomic update per thread, some threads skipping it
// (a condition inside the guard) or pointing outside A (f[t] == -1).
template <class T> __global__ void scatter_add(int n, const int *f, const T *w, T *A) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n && f[t] >= 0 && w[t] != T(0))
    atomicAdd(&A[f[t]], w[t]);
}

// The variant the tool generates: thread t's contribution goes to its slot, contrib[slots[t]].
template <class T>
__global__ void scatter_add_irregfix(int n, const int *f, const T *w, T *A, T *__restrict__ contrib,
                                     const int *__restrict__ slots) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n && f[t] >= 0 && w[t] != T(0))
    contrib[slots[t]] = w[t];
}

const irregfix::SiteInfo kSite = {"scatter_gpu_test.cu:33:5", "scatter_add", "scatter", 0, nullptr, "A,f"};

// The generated launcher. Returns whether the executor ran.
template <class T>
bool launch(const irregfix::SiteInfo &site, int n, const int *f, const T *w, T *A, cudaStream_t stream = 0) {
  const dim3 grid((n + 255) / 256), block(256);
  irregfix::ScatterPlan plan;
  if (irregfix::begin_launch(site, stream, grid, block) &&
      irregfix::prepare_scatter(site, f, irregfix::index_kind(f), (long long)(n), A, irregfix::scatter_kind(A), &plan,
                                stream)) {
    scatter_add_irregfix<T><<<grid, block, 0, stream>>>(n, f, w, A, static_cast<T *>(plan.contrib), plan.slots);
    if (irregfix::execute_scatter(site, plan, stream)) {
      irregfix::end_transformed_launch(site, stream);
      return true;
    }
  }
  scatter_add<T><<<grid, block, 0, stream>>>(n, f, w, A);
  irregfix::end_original_launch(site, stream);
  return false;
}

// A problem of n threads over m elements: targets drawn from a power law (a
// few elements take most updates), one thread in 16 with f = -1, one in 10
// with w = 0 (skips the update).
template <class T> struct Problem {
  int n = 0, m = 0;
  std::vector<int> hf;
  std::vector<T> hw, hA;
  int *f = nullptr;
  T *w = nullptr, *A = nullptr;

  void make(DeviceTest *fx, int threads, int elements, unsigned seed) {
    n = threads;
    m = elements;
    hf = targets(seed);
    std::mt19937 r(seed + 1);
    // Floating contributions that round when summed (so that the order of the
    // sum shows in the bits); integers for int.
    std::uniform_real_distribution<double> u(-100.0, 100.0);
    hw.resize(n);
    for (int t = 0; t < n; ++t)
      hw[t] = t % 10 == 3 ? T(0)
              : std::is_floating_point<T>::value ? static_cast<T>(u(r))
                                                 : static_cast<T>(static_cast<int>(r() % 2001) - 1000);
    hA.resize(m);
    for (int i = 0; i < m; ++i)
      hA[i] = static_cast<T>(static_cast<int>(r() % 101) - 50);
    f = fx->upload(hf);
    w = fx->upload(hw);
    A = fx->upload(hA);
  }
  std::vector<int> targets(unsigned seed) const {
    std::mt19937 r(seed);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::vector<int> out(n);
    for (int t = 0; t < n; ++t)
      out[t] = t % 16 == 5 ? -1 : static_cast<int>(std::pow(u(r), 3.0) * m) % m;
    return out;
  }
  // A after one update of every thread, in double precision.
  std::vector<double> reference() const {
    std::vector<double> ref(hA.begin(), hA.end());
    for (int t = 0; t < n; ++t)
      if (hf[t] >= 0 && hw[t] != T(0))
        ref[hf[t]] += static_cast<double>(hw[t]);
    return ref;
  }
  // Each element within the rounding of a sum of its k terms in T: k * eps
  // times the sum of their magnitudes (the bound of recursive summation).
  void expect_near(const std::vector<T> &got, const std::vector<double> &ref) const {
    std::vector<double> scale(hA.begin(), hA.end()), terms(m, 1.0);
    for (double &s : scale)
      s = std::fabs(s);
    for (int t = 0; t < n; ++t)
      if (hf[t] >= 0 && hw[t] != T(0)) {
        scale[hf[t]] += std::fabs(static_cast<double>(hw[t]));
        terms[hf[t]] += 1;
      }
    const double eps = std::numeric_limits<T>::epsilon();
    for (int i = 0; i < m; ++i)
      ASSERT_NEAR(static_cast<double>(got[i]), ref[i], terms[i] * eps * scale[i]) << "element " << i;
  }
};

using Scatter = DeviceTest;

// What an inspection of n items keeps: the item ids in segment order and
// their slots, the targets (n each), the segments' first positions, first
// slots in the region and first chunks (n + 1 each), and room for the chunks'
// segments (2n / 4096 + 1).
unsigned long long inspection_bytes(int n) {
  return (6ull * n + 3 + 2ull * n / 4096 + 1) * sizeof(int);
}

class DeterministicScatter : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (!IsSkipped())
      irregfix::testing::set_deterministic(true);
  }
};

TEST_F(DeterministicScatter, InspectorMatchesTheCpuModel) {
  Problem<float> p;
  p.make(this, 50000, 3000, 7);
  ASSERT_TRUE(launch(kSite, p.n, p.f, p.w, p.A)) << site_counters(kSite.id).last_fallback;
  CK(cudaDeviceSynchronize());
  const irregfix::testing::ScatterSegments s = irregfix::testing::scatter_segments(kSite.id);
  ASSERT_FALSE(s.first.empty());
  EXPECT_EQ(s.target_first, 0); // A starts its allocation
  // The model: per element, in element order, its threads in thread order;
  // then, keyed `extent`, the threads whose index lies outside A.
  std::vector<std::vector<int>> model(p.m);
  std::vector<int> outside;
  for (int t = 0; t < p.n; ++t)
    (p.hf[t] >= 0 ? model[p.hf[t]] : outside).push_back(t);
  std::vector<unsigned> targets;
  std::vector<int> first{0}, threads;
  for (int i = 0; i < p.m; ++i)
    if (!model[i].empty()) {
      targets.push_back(static_cast<unsigned>(i));
      threads.insert(threads.end(), model[i].begin(), model[i].end());
      first.push_back(static_cast<int>(threads.size()));
    }
  targets.push_back(static_cast<unsigned>(s.extent));
  threads.insert(threads.end(), outside.begin(), outside.end());
  first.push_back(static_cast<int>(threads.size()));
  EXPECT_EQ(s.targets, targets);
  EXPECT_EQ(s.first, first);
  EXPECT_EQ(s.threads, threads);
  // The slots: a thread's own, but for a segment of more than 32 (the hot
  // elements, the sentinels), whose threads take consecutive slots after the n,
  // segment after segment.
  std::vector<int> slots(p.n);
  int region = p.n;
  for (std::size_t k = 0; k + 1 < first.size(); ++k) {
    const bool long_segment = first[k + 1] - first[k] > 32;
    for (int i = first[k]; i < first[k + 1]; ++i)
      slots[threads[i]] = long_segment ? region++ : threads[i];
  }
  EXPECT_GT(region, p.n); // (the power law has long segments)
  EXPECT_EQ(s.slots, slots);
}

TEST_F(DeterministicScatter, ExecutorMatchesADoubleReference) {
  Problem<float> p;
  p.make(this, 200000, 5000, 11);
  ASSERT_TRUE(launch(kSite, p.n, p.f, p.w, p.A)) << site_counters(kSite.id).last_fallback;
  CK(cudaDeviceSynchronize());
  p.expect_near(download(p.A, p.m), p.reference());
}

TEST_F(DeterministicScatter, DoublesAndIntegers) {
  Problem<double> d;
  d.make(this, 100000, 4000, 12);
  ASSERT_TRUE(launch(kSite, d.n, d.f, d.w, d.A)) << site_counters(kSite.id).last_fallback;
  CK(cudaDeviceSynchronize());
  d.expect_near(download(d.A, d.m), d.reference());

  static const irregfix::SiteInfo int_site = {"scatter_gpu_test.cu:int", "scatter_add", "scatter", 0, nullptr, "A,f"};
  Problem<int> i;
  i.make(this, 100000, 4000, 13);
  ASSERT_TRUE(launch(int_site, i.n, i.f, i.w, i.A)) << site_counters(int_site.id).last_fallback;
  CK(cudaDeviceSynchronize());
  const std::vector<int> got = download(i.A, i.m);
  const std::vector<double> ref = i.reference();
  for (int k = 0; k < i.m; ++k)
    ASSERT_EQ(got[k], static_cast<int>(ref[k])) << "element " << k;
}

// Three runs from the same A give the same bits; the inspector ran once (the
// writes to A leave the segments valid: the later launches are hits).
TEST_F(DeterministicScatter, SameBitsAtEveryRun) {
  Problem<float> p;
  p.make(this, 300000, 2000, 21);
  std::vector<std::vector<float>> runs;
  for (int run = 0; run < 3; ++run) {
    irregfix_invalidate(p.A); // as the tool inserts before the copy
    CK(cudaMemcpy(p.A, p.hA.data(), p.m * sizeof(float), cudaMemcpyHostToDevice));
    irregfix_invalidate(p.A); // and before the launch: the kernel writes A
    ASSERT_TRUE(launch(kSite, p.n, p.f, p.w, p.A)) << site_counters(kSite.id).last_fallback;
    CK(cudaDeviceSynchronize());
    runs.push_back(download(p.A, p.m));
  }
  EXPECT_EQ(0, std::memcmp(runs[0].data(), runs[1].data(), p.m * sizeof(float)));
  EXPECT_EQ(0, std::memcmp(runs[0].data(), runs[2].data(), p.m * sizeof(float)));
  const irregfix::testing::SiteCounters c = site_counters(kSite.id);
  EXPECT_EQ(c.launches, 3);
  EXPECT_EQ(c.misses, 1);
  EXPECT_EQ(c.hits, 2);
  EXPECT_EQ(c.bytes_remapped, inspection_bytes(p.n)); // one inspection
}

// ---- two updates a thread: an edge adds its flux to both its end cells ----

__global__ void edge_flux(int edges, const int *a, const int *b, const float *u, float *r) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < edges) {
    const float flux = u[b[e]] - u[a[e]];
    atomicAdd(&r[a[e]], flux);
    atomicAdd(&r[b[e]], -flux);
  }
}

// The variant the tool generates: update k of edge e is item e * 2 + k.
__global__ void edge_flux_irregfix(int edges, const int *a, const int *b, const float *u, float *r,
                                   float *__restrict__ contrib, const int *__restrict__ slots) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < edges) {
    const float flux = u[b[e]] - u[a[e]];
    contrib[slots[(e) * 2 + 0]] = (flux);
    contrib[slots[(e) * 2 + 1]] = (-flux);
  }
}

const irregfix::SiteInfo kEdgeSite = {"scatter_gpu_test.cu:edge", "edge_flux", "scatter", 0, nullptr, "r,a,b"};

bool launch_edges(int edges, const int *a, const int *b, const float *u, float *r) {
  const dim3 grid((edges + 255) / 256), block(256);
  irregfix::ScatterPlan plan;
  if (irregfix::begin_launch(kEdgeSite, 0, grid, block) &&
      irregfix::prepare_scatter(kEdgeSite, irregfix::scatter_indices(a, b), (long long)(edges), r,
                                irregfix::scatter_kind(r), &plan, 0)) {
    edge_flux_irregfix<<<grid, block>>>(edges, a, b, u, r, static_cast<float *>(plan.contrib), plan.slots);
    if (irregfix::execute_scatter(kEdgeSite, plan, 0)) {
      irregfix::end_transformed_launch(kEdgeSite, 0);
      return true;
    }
  }
  edge_flux<<<grid, block>>>(edges, a, b, u, r);
  irregfix::end_original_launch(kEdgeSite, 0);
  return false;
}

// A mesh of cells whose edges join random pairs (each cell on a few edges:
// every segment is summed by one thread, in item order). The executor's result
// is, bit for bit, a CPU loop that sums each cell's contributions in the order
// of the edges (edge e's update of a before its update of b) and adds the sum
// to the cell; the segments are those of that order; a second run from the same
// r gives the same bits, and the segments are found in the cache.
TEST_F(DeterministicScatter, TwoUpdatesAThreadSumInEdgeOrder) {
  const int cells = 20000, edges = 60000;
  std::mt19937 rng(61);
  std::vector<int> ha(edges), hb(edges);
  for (int e = 0; e < edges; ++e) {
    ha[e] = static_cast<int>(rng() % cells);
    hb[e] = static_cast<int>((ha[e] + 1 + rng() % (cells - 1)) % cells);
  }
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::vector<float> hu(cells), hr(cells);
  for (int c = 0; c < cells; ++c) {
    hu[c] = unit(rng) * 1000.0f;
    hr[c] = unit(rng);
  }
  const int *a = upload(ha), *b = upload(hb);
  const float *u = upload(hu);
  float *r = upload(hr);

  // The CPU model: items e * 2 + k, per cell in item order.
  std::vector<std::vector<int>> items(cells);
  std::vector<float> contrib(2 * static_cast<size_t>(edges));
  for (int e = 0; e < edges; ++e) {
    const float flux = hu[hb[e]] - hu[ha[e]];
    contrib[2 * e] = flux;
    contrib[2 * e + 1] = -flux;
    items[ha[e]].push_back(2 * e);
    items[hb[e]].push_back(2 * e + 1);
  }
  std::vector<float> expected = hr;
  std::vector<int> first{0}, order;
  for (int c = 0; c < cells; ++c) {
    if (items[c].empty())
      continue;
    ASSERT_LE(items[c].size(), 256u) << "the model is one thread's sum";
    float sum = contrib[items[c][0]];
    for (size_t i = 1; i < items[c].size(); ++i)
      sum += contrib[items[c][i]];
    expected[c] += sum;
    order.insert(order.end(), items[c].begin(), items[c].end());
    first.push_back(static_cast<int>(order.size()));
  }

  ASSERT_TRUE(launch_edges(edges, a, b, u, r)) << site_counters(kEdgeSite.id).last_fallback;
  CK(cudaDeviceSynchronize());
  const std::vector<float> got = download(r, cells);
  EXPECT_EQ(0, std::memcmp(got.data(), expected.data(), cells * sizeof(float)));
  const irregfix::testing::ScatterSegments s = irregfix::testing::scatter_segments(kEdgeSite.id);
  EXPECT_EQ(s.first, first);
  EXPECT_EQ(s.threads, order);

  irregfix_invalidate(r);
  CK(cudaMemcpy(r, hr.data(), cells * sizeof(float), cudaMemcpyHostToDevice));
  irregfix_invalidate(r);
  ASSERT_TRUE(launch_edges(edges, a, b, u, r));
  CK(cudaDeviceSynchronize());
  EXPECT_EQ(0, std::memcmp(download(r, cells).data(), expected.data(), cells * sizeof(float)));
  const irregfix::testing::SiteCounters c = site_counters(kEdgeSite.id);
  EXPECT_EQ(c.launches, 2);
  EXPECT_EQ(c.misses, 1) << "the segments are computed once";
  EXPECT_EQ(c.fallbacks, 0) << c.last_fallback;
}

// ---- assignments: the highest thread's value is kept ----

__global__ void relabel(int n, const int *f, const int *v, int *label) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n && v[t] >= 0)
    label[f[t]] = v[t];
}

// The variant the tool generates (test/rewrite/scatter-assign.cu).
__global__ void relabel_irregfix(int n, const int *f, const int *v, int *label, int *__restrict__ contrib,
                                 const int *__restrict__ slots,
                                 unsigned char *__restrict__ written) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n && v[t] >= 0)
    contrib[slots[t]] = (v[t]), written[slots[t]] = 1;
}

const irregfix::SiteInfo kAssignSite = {"scatter_gpu_test.cu:assign", "relabel", "scatter", 0, nullptr, "label,f"};

bool launch_relabel(int n, const int *f, const int *v, int *label) {
  const dim3 grid((n + 255) / 256), block(256);
  irregfix::ScatterPlan plan;
  if (irregfix::begin_launch(kAssignSite, 0, grid, block) &&
      irregfix::prepare_scatter_assign(kAssignSite, irregfix::scatter_indices(f), (long long)(n), label,
                                       irregfix::scatter_kind(label), &plan, 0)) {
    relabel_irregfix<<<grid, block>>>(n, f, v, label, static_cast<int *>(plan.contrib), plan.slots, plan.written);
    if (irregfix::execute_scatter(kAssignSite, plan, 0)) {
      irregfix::end_transformed_launch(kAssignSite, 0);
      return true;
    }
  }
  relabel<<<grid, block>>>(n, f, v, label);
  irregfix::end_original_launch(kAssignSite, 0);
  return false;
}

// Many threads assign each element (a power law: some elements by thousands,
// more than a block), a third of them skip their store, and some elements are
// assigned by no thread: the result is the sequential loop's, element for
// element (the highest storing thread's value, or the old value), at every run,
// and the segments are found in the cache at the second.
TEST_F(DeterministicScatter, AssignmentsKeepTheHighestThreadsValue) {
  const int n = 200000, m = 30000;
  std::mt19937 rng(71);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<int> hf(n), hv(n), hl(m);
  for (int t = 0; t < n; ++t) {
    hf[t] = static_cast<int>(std::pow(unit(rng), 3.0) * (m - 1000)); // elements m - 1000.. are never assigned
    hv[t] = t % 3 == 1 ? -1 : static_cast<int>(rng() % 1000000);
  }
  for (int i = 0; i < m; ++i)
    hl[i] = -7 - i;
  std::vector<int> expected = hl;
  for (int t = 0; t < n; ++t)
    if (hv[t] >= 0)
      expected[hf[t]] = hv[t];
  const int *f = upload(hf), *v = upload(hv);
  int *label = upload(hl);
  for (int run = 0; run < 2; ++run) {
    irregfix_invalidate(label);
    CK(cudaMemcpy(label, hl.data(), m * sizeof(int), cudaMemcpyHostToDevice));
    irregfix_invalidate(label);
    ASSERT_TRUE(launch_relabel(n, f, v, label)) << site_counters(kAssignSite.id).last_fallback;
    CK(cudaDeviceSynchronize());
    const std::vector<int> got = download(label, m);
    for (int i = 0; i < m; ++i)
      ASSERT_EQ(got[i], expected[i]) << "element " << i << ", run " << run;
  }
  const irregfix::testing::SiteCounters c = site_counters(kAssignSite.id);
  EXPECT_EQ(c.launches, 2);
  EXPECT_EQ(c.misses, 1);
  EXPECT_EQ(c.fallbacks, 0) << c.last_fallback;
}

// Launches of one site on two streams at once, into one array: each has its
// own contributions and the executors' adds do not lose each other's.
TEST_F(DeterministicScatter, ConcurrentLaunchesOnTwoStreams) {
  Problem<int> p;
  p.make(this, 200000, 3000, 41);
  cudaStream_t s[2];
  for (cudaStream_t &x : s)
    CK(cudaStreamCreateWithFlags(&x, cudaStreamNonBlocking));
  const int rounds = 4;
  for (int i = 0; i < rounds; ++i)
    for (cudaStream_t x : s)
      ASSERT_TRUE(launch(kSite, p.n, p.f, p.w, p.A, x)) << site_counters(kSite.id).last_fallback;
  CK(cudaDeviceSynchronize());
  std::vector<double> ref(p.hA.begin(), p.hA.end());
  for (int t = 0; t < p.n; ++t)
    if (p.hf[t] >= 0)
      ref[p.hf[t]] += 2.0 * rounds * p.hw[t];
  const std::vector<int> got = download(p.A, p.m);
  for (int i = 0; i < p.m; ++i)
    ASSERT_EQ(static_cast<double>(got[i]), ref[i]) << "element " << i;
  for (cudaStream_t x : s)
    CK(cudaStreamDestroy(x));
}

// A launch with nothing written since the last one is a cache hit; with
// IRREGFIX_VERIFY, f's bytes are checked at the hit.
TEST_F(DeterministicScatter, UnchangedIndexArrayIsAHitAndVerified) {
  irregfix::testing::set_verify(true);
  Problem<float> p;
  p.make(this, 40000, 1000, 31);
  ASSERT_TRUE(launch(kSite, p.n, p.f, p.w, p.A));
  ASSERT_TRUE(launch(kSite, p.n, p.f, p.w, p.A));
  CK(cudaDeviceSynchronize());
  const irregfix::testing::SiteCounters c = site_counters(kSite.id);
  EXPECT_EQ(c.hits, 1);
  EXPECT_EQ(c.verified, 1);
  // Two updates of every thread.
  std::vector<double> ref = p.reference();
  for (int i = 0; i < p.m; ++i)
    ref[i] = 2 * ref[i] - p.hA[i];
  std::vector<float> got = download(p.A, p.m);
  for (int i = 0; i < p.m; ++i)
    ASSERT_NEAR(got[i], ref[i], 1e-3 * (std::fabs(ref[i]) + 1e3)) << "element " << i;
}

// f rewritten by a host copy, then by a kernel, each announced as the tool
// announces them: the next launch runs the inspector again and sums right.
__global__ void rotate_targets(int n, int m, int *f) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n && f[t] >= 0)
    f[t] = (f[t] + 17) % m;
}

TEST_F(DeterministicScatter, NewTargetsAfterACopyOrAKernelWritesF) {
  Problem<float> p;
  p.make(this, 100000, 3000, 41);
  ASSERT_TRUE(launch(kSite, p.n, p.f, p.w, p.A));
  CK(cudaDeviceSynchronize());

  // A host copy of new targets (and A reset), announced.
  p.hf = p.targets(42);
  irregfix_invalidate(p.f);
  CK(cudaMemcpy(p.f, p.hf.data(), p.n * sizeof(int), cudaMemcpyHostToDevice));
  irregfix_invalidate(p.A);
  CK(cudaMemcpy(p.A, p.hA.data(), p.m * sizeof(float), cudaMemcpyHostToDevice));
  ASSERT_TRUE(launch(kSite, p.n, p.f, p.w, p.A));
  CK(cudaDeviceSynchronize());
  p.expect_near(download(p.A, p.m), p.reference());
  const irregfix::testing::ScatterSegments s = irregfix::testing::scatter_segments(kSite.id);
  ASSERT_FALSE(s.first.empty());
  for (size_t k = 0; k + 1 < s.first.size(); ++k)
    for (int i = s.first[k]; i < s.first[k + 1]; ++i)
      if (s.targets[k] != s.extent)
        ASSERT_EQ(p.hf[s.threads[i]], static_cast<int>(s.targets[k])) << "segment " << k;

  // A kernel rewrites f, announced (the tool inserts it before such a launch).
  irregfix_invalidate(p.f);
  rotate_targets<<<(p.n + 255) / 256, 256>>>(p.n, p.m, p.f);
  for (int &x : p.hf)
    if (x >= 0)
      x = (x + 17) % p.m;
  irregfix_invalidate(p.A);
  CK(cudaMemcpy(p.A, p.hA.data(), p.m * sizeof(float), cudaMemcpyHostToDevice));
  ASSERT_TRUE(launch(kSite, p.n, p.f, p.w, p.A));
  CK(cudaDeviceSynchronize());
  p.expect_near(download(p.A, p.m), p.reference());
  EXPECT_EQ(site_counters(kSite.id).bytes_remapped, 3 * inspection_bytes(p.n));
}

// A kernel rewrites f and nobody says so: IRREGFIX_VERIFY aborts at the next
// hit, naming f (the death test runs in a child that starts anew).
class VerifyingScatterDeathTest : public VerifyingDeathTest {
protected:
  void SetUp() override {
    VerifyingDeathTest::SetUp();
    if (!IsSkipped())
      irregfix::testing::set_deterministic(true);
  }
};

void untold_write_of_f(DeviceTest *fx) {
  Problem<float> p;
  p.make(fx, 20000, 500, 51);
  launch(kSite, p.n, p.f, p.w, p.A); // launch 1 inspects
  launch(kSite, p.n, p.f, p.w, p.A); // launch 2 hits
  rotate_targets<<<(p.n + 255) / 256, 256>>>(p.n, p.m, p.f);
  launch(kSite, p.n, p.f, p.w, p.A); // launch 3 would use stale segments
  cudaDeviceSynchronize();
}

TEST_F(VerifyingScatterDeathTest, AbortsWhenAKernelWritesTheIndexArrayUntold) {
  EXPECT_DEATH(untold_write_of_f(this),
               "irregfix: IRREGFIX_VERIFY: stale copy at scatter_gpu_test.cu:33:5 \\(kernel 'scatter_add'\\): "
               "source 'f' changed since launch 1 built the copy; this is launch 3");
}

TEST_F(DeterministicScatter, AllocationFailureRunsTheOriginal) {
  irregfix::testing::set_fail_alloc(true);
  Problem<float> p;
  p.make(this, 60000, 2000, 61);
  EXPECT_FALSE(launch(kSite, p.n, p.f, p.w, p.A));
  CK(cudaDeviceSynchronize());
  p.expect_near(download(p.A, p.m), p.reference());
  const irregfix::testing::SiteCounters c = site_counters(kSite.id);
  EXPECT_EQ(c.launches, 0);
  EXPECT_EQ(c.last_fallback, "allocation failed");
  EXPECT_EQ(irregfix::testing::cached_entries(), 0u);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess); // the failure does not reach the program's checks
}

TEST_F(DeterministicScatter, ByteCapRunsTheOriginal) {
  irregfix::testing::set_max_bytes(1024);
  Problem<float> p;
  p.make(this, 60000, 2000, 62);
  EXPECT_FALSE(launch(kSite, p.n, p.f, p.w, p.A));
  CK(cudaDeviceSynchronize());
  p.expect_near(download(p.A, p.m), p.reference());
  EXPECT_EQ(site_counters(kSite.id).last_fallback, "over IRREGFIX_MAX_BYTES");
}

// A variant whose launch fails (too many threads a block) leaves A to the
// original kernel's launch, which fails alike: A unchanged, the error counted.
TEST_F(DeterministicScatter, FailedVariantLaunchIsNotExecuted) {
  Problem<float> p;
  p.make(this, 1000, 100, 63);
  irregfix::ScatterPlan plan;
  ASSERT_TRUE(irregfix::prepare_scatter(kSite, p.f, irregfix::kIndexI32, p.n, p.A, irregfix::kScatterF32, &plan, 0));
  scatter_add_irregfix<float><<<1, 4096>>>(p.n, p.f, p.w, p.A, static_cast<float *>(plan.contrib), plan.slots);
  EXPECT_FALSE(irregfix::execute_scatter(kSite, plan, 0));
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  CK(cudaDeviceSynchronize());
  const std::vector<float> got = download(p.A, p.m);
  EXPECT_EQ(0, std::memcmp(got.data(), p.hA.data(), p.m * sizeof(float)));
  EXPECT_NE(site_counters(kSite.id).last_fallback.find("CUDA error"), std::string::npos);
}

// Under auto the selector times the executor against the atomics and settles;
// every launch, whichever it ran, adds every contribution once (integers: the
// sums are exact in any order).
TEST_F(Scatter, AutoSettlesAndEveryLaunchSumsRight) {
  Problem<int> p;
  p.make(this, 200000, 4000, 71);
  const int launches = 40;
  for (int k = 0; k < launches; ++k) {
    irregfix_invalidate(p.A); // the kernel writes A
    launch(kSite, p.n, p.f, p.w, p.A);
  }
  CK(cudaDeviceSynchronize());
  const std::vector<double> once = p.reference();
  const std::vector<int> got = download(p.A, p.m);
  for (int i = 0; i < p.m; ++i)
    ASSERT_EQ(got[i], static_cast<int>(p.hA[i] + launches * (once[i] - p.hA[i]))) << "element " << i;
  const irregfix::testing::SiteCounters c = site_counters(kSite.id);
  EXPECT_EQ(c.launches + c.chosen_original, launches);
  EXPECT_GT(c.launches, 0);        // profiling timed the executor
  EXPECT_GT(c.chosen_original, 0); // ... and the original
  std::fprintf(stderr, "%s", irregfix::testing::stats_report().c_str());
}

} // namespace
