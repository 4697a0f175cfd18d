// GPU tests of the irregfix runtime: remaps against a CPU reference, the cache
// (hits, invalidation, refresh), fallbacks and the alias check. Each test skips
// itself when there is no CUDA device. Fresh random inputs, poisoned outputs.
#include <irregfix/irregfix.cuh>
#include <irregfix/testing.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#define CK(x) ASSERT_EQ((x), cudaSuccess) << #x

namespace {

using irregfix::testing::site_counters;

std::mt19937_64 &rng() {
  static std::mt19937_64 r(std::random_device{}());
  return r;
}

std::vector<unsigned char> random_bytes(size_t n) {
  std::vector<unsigned char> v(n);
  for (auto &c : v)
    c = static_cast<unsigned char>(rng()());
  return v;
}

class Runtime : public ::testing::Test {
protected:
  void SetUp() override {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
      cudaGetLastError();
      GTEST_SKIP() << "no CUDA device";
    }
    irregfix::testing::reset();
  }
  void TearDown() override {
    for (void *p : owned_)
      cudaFree(p);
    owned_.clear();
  }
public:
  template <class T> T *upload(const std::vector<T> &h) {
    void *d = nullptr;
    EXPECT_EQ(cudaMalloc(&d, std::max<size_t>(1, h.size() * sizeof(T))), cudaSuccess);
    owned_.push_back(d);
    EXPECT_EQ(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
    return static_cast<T *>(d);
  }

protected:
  std::vector<void *> owned_;
};

// Row lengths: random in [0, max_short] (zeros included), plus optionally one very long row.
template <class Idx> std::vector<Idx> make_offsets(long long n, int max_short, long long long_row) {
  std::uniform_int_distribution<int> d(0, max_short);
  std::vector<Idx> B(n + 1);
  B[0] = static_cast<Idx>(rng()() % 7); // not starting at zero
  long long at = rng()() % (n > 0 ? n : 1);
  for (long long t = 0; t < n; ++t) {
    long long l = (long_row > 0 && t == at) ? long_row : d(rng());
    B[t + 1] = static_cast<Idx>(B[t] + l);
  }
  return B;
}

// Checks remapped[iter*n + t] == A[B[t] + iter] byte for byte, len[t], and
// (optionally) that padding still holds the poison byte.
template <class Idx>
void check_ell(const std::vector<Idx> &B, long long n, const std::vector<unsigned char> &A,
               size_t esz, const irregfix::View &v, const void *remapped, bool check_padding,
               unsigned char poison) {
  ASSERT_EQ(v.n, n);
  ASSERT_EQ(v.layout, irregfix::kLayoutEllColMajor);
  long long max_len = 0;
  for (long long t = 0; t < n; ++t)
    max_len = std::max<long long>(max_len, static_cast<long long>(B[t + 1] - B[t]));
  std::vector<int> len(n);
  ASSERT_EQ(cudaMemcpy(len.data(), v.len, n * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
  std::vector<unsigned char> out(static_cast<size_t>(max_len * n) * esz);
  ASSERT_EQ(cudaMemcpy(out.data(), remapped, out.size(), cudaMemcpyDeviceToHost), cudaSuccess);
  long long bad = 0;
  for (long long t = 0; t < n; ++t) {
    long long l = static_cast<long long>(B[t + 1] - B[t]);
    ASSERT_EQ(len[t], l) << "t=" << t;
    for (long long it = 0; it < max_len; ++it) {
      const unsigned char *got = &out[static_cast<size_t>(irregfix::slot(v, t, it)) * esz];
      if (it < l) {
        const unsigned char *want = &A[static_cast<size_t>(B[t] + it) * esz];
        if (std::memcmp(got, want, esz) != 0 && bad++ < 5)
          ADD_FAILURE() << "mismatch at t=" << t << " iter=" << it;
      } else if (check_padding) {
        for (size_t j = 0; j < esz; ++j)
          if (got[j] != poison && bad++ < 5)
            ADD_FAILURE() << "padding written at t=" << t << " iter=" << it;
      }
    }
  }
  EXPECT_EQ(bad, 0);
}

// One range remap of `count` arrays of the given sizes, then a refresh into
// poisoned buffers (which must keep their padding).
template <class Idx>
void range_case(Runtime *fx, const char *site_id, long long n, int max_short, long long long_row,
                std::vector<size_t> sizes) {
  static std::vector<std::string> ids; // SiteInfo keeps pointers
  ids.push_back(site_id);
  irregfix::SiteInfo site{ids.back().c_str(), "k", "range"};
  auto B = make_offsets<Idx>(n, max_short, long_row);
  Idx *dB = fx->upload(B);
  const int count = static_cast<int>(sizes.size());
  std::vector<std::vector<unsigned char>> A(count);
  std::vector<const void *> dA(count);
  for (int i = 0; i < count; ++i) {
    // The allocation is exactly what B reaches (plus nothing), so extents are tight.
    A[i] = random_bytes(static_cast<size_t>(B[n]) * sizes[i]);
    dA[i] = fx->upload(A[i]);
  }
  irregfix::View v{};
  std::vector<const void *> out(count);
  ASSERT_TRUE(irregfix::prepare_range(site, dB, irregfix::index_kind(dB), n, count, dA.data(),
                                      sizes.data(), &v, out.data(), nullptr))
      << site_counters(site.id).last_fallback;
  for (int i = 0; i < count; ++i)
    check_ell(B, n, A[i], sizes[i], v, out[i], false, 0);
  // Poison, give fresh values, invalidate, refresh in place.
  long long max_len = 0;
  for (long long t = 0; t < n; ++t)
    max_len = std::max<long long>(max_len, static_cast<long long>(B[t + 1] - B[t]));
  const unsigned char poison = 0xA5;
  for (int i = 0; i < count; ++i) {
    CK(cudaMemset(const_cast<void *>(out[i]), poison, static_cast<size_t>(max_len * n) * sizes[i]));
    A[i] = random_bytes(A[i].size());
    CK(cudaMemcpy(const_cast<void *>(dA[i]), A[i].data(), A[i].size(), cudaMemcpyHostToDevice));
    irregfix_invalidate(dA[i]);
  }
  std::vector<const void *> out2(count);
  irregfix::View v2{};
  ASSERT_TRUE(irregfix::prepare_range(site, dB, irregfix::index_kind(dB), n, count, dA.data(),
                                      sizes.data(), &v2, out2.data(), nullptr));
  CK(cudaDeviceSynchronize());
  for (int i = 0; i < count; ++i) {
    EXPECT_EQ(out2[i], out[i]) << "refresh should reuse the buffers";
    check_ell(B, n, A[i], sizes[i], v2, out2[i], true, poison);
  }
  auto c = site_counters(site.id);
  EXPECT_EQ(c.misses, 1);
  EXPECT_EQ(c.refreshes, 1);
  EXPECT_EQ(c.remaps, 2);
  EXPECT_EQ(c.fallbacks, 0);
}

} // namespace

TEST_F(Runtime, RangeInt32Sizes) {
  for (size_t esz : {4, 8, 16, 1, 2, 12, 3}) {
    SCOPED_TRACE(esz);
    range_case<int>(this, ("r32:" + std::to_string(esz)).c_str(), 1000, 9, 0, {esz});
  }
}

TEST_F(Runtime, RangeOddSizesOfN) {
  for (long long n : {1LL, 31LL, 33LL, 255LL, 257LL, 4097LL, 100003LL}) {
    SCOPED_TRACE(n);
    range_case<int>(this, ("rn:" + std::to_string(n)).c_str(), n, 12, 0, {8});
  }
}

TEST_F(Runtime, RangeLongLongWithLongRow) {
  // The ELL copy is padded to the longest row: keep n * longest row modest.
  range_case<long long>(this, "rll:long", 3001, 9, 20000, {8});
  range_case<long long>(this, "rll:long4", 1000, 3, 20000, {4, 16});
  range_case<int>(this, "ri:long1", 2001, 5, 30000, {1});
  range_case<int>(this, "ri:long8", 20000, 40, 3000, {8}); // segments past shared memory
}

TEST_F(Runtime, RangeUnsignedAndEmptyRows) {
  range_case<unsigned>(this, "ru:0", 2049, 0, 0, {8});       // all rows empty
  range_case<unsigned long long>(this, "rull:mix", 5000, 2, 0, {4, 8});
  range_case<unsigned>(this, "ru:big", 300000, 7, 0, {8, 4});
}

// A kernel using the View as a transformed kernel would: per-row sums.
__global__ void ell_row_sum(irregfix::View v, const double *vals, double *y) {
  long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= v.n)
    return;
  double s = 0;
  for (int it = 0; it < irregfix::length(v, t); ++it)
    s += vals[irregfix::slot(v, t, it)];
  y[t] = s;
}

TEST_F(Runtime, KernelThroughView) {
  const long long n = 12345;
  auto B = make_offsets<int>(n, 11, 500);
  std::vector<double> A(B[n]);
  std::uniform_real_distribution<double> d(-1, 1);
  for (double &x : A)
    x = d(rng());
  int *dB = upload(B);
  double *dA = upload(A);
  std::vector<double> y(n, -12345.0);
  double *dy = upload(y); // poisoned
  irregfix::SiteInfo site{"view:1", "spmv", "range"};
  const void *src[] = {dA};
  size_t sz[] = {sizeof(double)};
  const void *out[1];
  irregfix::View v{};
  ASSERT_TRUE(irregfix::prepare_range(site, dB, irregfix::index_kind(dB), n, 1, src, sz, &v, out, 0));
  ell_row_sum<<<(n + 127) / 128, 128>>>(v, static_cast<const double *>(out[0]), dy);
  irregfix::note_transformed_launch(site);
  CK(cudaMemcpy(y.data(), dy, n * sizeof(double), cudaMemcpyDeviceToHost));
  for (long long t = 0; t < n; ++t) {
    double s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k)
      s += A[k];
    ASSERT_EQ(y[t], s) << t; // same order of additions: bitwise equal
  }
  EXPECT_EQ(site_counters("view:1").launches, 1);
}

namespace {
template <class Idx> void gather_case(Runtime *fx, const char *id, long long n, long long m, size_t esz) {
  irregfix::SiteInfo site{id, "g", "gather"};
  std::vector<Idx> B(n);
  for (auto &b : B)
    b = static_cast<Idx>(rng()() % m);
  auto A = random_bytes(static_cast<size_t>(m) * esz);
  Idx *dB = fx->upload(B);
  unsigned char *dA = fx->upload(A);
  irregfix::View v{};
  const void *out = nullptr;
  ASSERT_TRUE(irregfix::prepare_gather(site, dB, irregfix::index_kind(dB), n, dA, esz, &v, &out, 0))
      << site_counters(id).last_fallback;
  EXPECT_EQ(v.len, nullptr);
  std::vector<unsigned char> h(static_cast<size_t>(n) * esz);
  CK(cudaMemcpy(h.data(), out, h.size(), cudaMemcpyDeviceToHost));
  for (long long t = 0; t < n; ++t)
    ASSERT_EQ(std::memcmp(&h[irregfix::slot(v, t, 0) * esz], &A[static_cast<size_t>(B[t]) * esz], esz), 0)
        << "t=" << t;
}
} // namespace

TEST_F(Runtime, Gather) {
  gather_case<int>(this, "g:1", 1000, 777, 4);
  gather_case<int>(this, "g:2", 100003, 5000, 8);
  gather_case<long long>(this, "g:3", 4097, 100, 16);
  gather_case<unsigned>(this, "g:4", 33, 1000, 1);
  gather_case<unsigned long long>(this, "g:5", 2000, 3000, 12);
}

TEST_F(Runtime, CacheHitDoesNoRemap) {
  const long long n = 5000;
  auto B = make_offsets<int>(n, 8, 0);
  auto A = random_bytes(static_cast<size_t>(B[n]) * 8);
  int *dB = upload(B);
  unsigned char *dA = upload(A);
  irregfix::SiteInfo site{"hit:1", "k", "range"};
  const void *src[] = {dA};
  size_t sz[] = {8};
  const void *o1[1], *o2[1];
  irregfix::View v1{}, v2{};
  ASSERT_TRUE(irregfix::prepare_range(site, dB, irregfix::kIndexI32, n, 1, src, sz, &v1, o1, 0));
  size_t bytes = irregfix::testing::cached_bytes();
  EXPECT_GE(bytes, static_cast<size_t>(B[n]) * 8);
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  ASSERT_TRUE(irregfix::prepare_range(site, dB, irregfix::kIndexI32, n, 1, src, sz, &v2, o2, s));
  EXPECT_EQ(o1[0], o2[0]);
  EXPECT_EQ(v1.len, v2.len);
  EXPECT_EQ(irregfix::testing::cached_bytes(), bytes);
  auto c = site_counters("hit:1");
  EXPECT_EQ(c.misses, 1);
  EXPECT_EQ(c.hits, 1);
  EXPECT_EQ(c.remaps, 1);
  // A different n is a different entry.
  ASSERT_TRUE(irregfix::prepare_range(site, dB, irregfix::kIndexI32, n - 1, 1, src, sz, &v2, o2, s));
  EXPECT_NE(o1[0], o2[0]);
  EXPECT_EQ(site_counters("hit:1").misses, 2);
  // Unrelated invalidations (host pointer, other allocation) keep the entry.
  std::vector<int> host(4);
  irregfix_invalidate(host.data());
  int *other = upload(std::vector<int>(16, 3));
  irregfix_invalidate(other);
  ASSERT_TRUE(irregfix::prepare_range(site, dB, irregfix::kIndexI32, n, 1, src, sz, &v2, o2, s));
  EXPECT_EQ(site_counters("hit:1").hits, 2);
  // Writing B (in the middle of its allocation) invalidates.
  irregfix_invalidate(dB + n / 2);
  ASSERT_TRUE(irregfix::prepare_range(site, dB, irregfix::kIndexI32, n, 1, src, sz, &v2, o2, s));
  EXPECT_EQ(site_counters("hit:1").refreshes, 1);
  CK(cudaStreamSynchronize(s));
  CK(cudaStreamDestroy(s));
  EXPECT_NE(irregfix::testing::stats_report().find("hit:1"), std::string::npos);
}

TEST_F(Runtime, InvalidateThenRefreshSeesNewValues) {
  irregfix::SiteInfo site{"inv:1", "k", "gather"};
  const long long n = 3000, m = 4000;
  std::vector<int> B(n);
  for (auto &b : B)
    b = static_cast<int>(rng()() % m);
  std::vector<float> A(m);
  for (auto &a : A)
    a = static_cast<float>(rng()() % 100000) + 0.5f;
  int *dB = upload(B);
  float *dA = upload(A);
  irregfix::View v{};
  const void *out = nullptr;
  ASSERT_TRUE(irregfix::prepare_gather(site, dB, irregfix::kIndexI32, n, dA, 4, &v, &out, 0));
  for (auto &a : A)
    a = -static_cast<float>(rng()() % 100000) - 0.25f;
  CK(cudaMemcpy(dA, A.data(), m * 4, cudaMemcpyHostToDevice));
  irregfix_invalidate(dA + 17);
  const void *out2 = nullptr;
  ASSERT_TRUE(irregfix::prepare_gather(site, dB, irregfix::kIndexI32, n, dA, 4, &v, &out2, 0));
  EXPECT_EQ(out, out2);
  std::vector<float> h(n);
  CK(cudaMemcpy(h.data(), out2, n * 4, cudaMemcpyDeviceToHost));
  for (long long t = 0; t < n; ++t)
    ASSERT_EQ(h[t], A[B[t]]);
  auto c = site_counters("inv:1");
  EXPECT_EQ(c.misses, 1);
  EXPECT_EQ(c.refreshes, 1);
  EXPECT_EQ(c.hits, 0);
}

TEST_F(Runtime, ForcedAllocationFailureFallsBack) {
  const long long n = 1000;
  auto B = make_offsets<int>(n, 5, 0);
  int *dB = upload(B);
  double *dA = upload(std::vector<double>(B[n] + 1, 1.5));
  irregfix::testing::set_fail_alloc(true);
  irregfix::SiteInfo site{"oom:1", "k", "range"};
  const void *src[] = {dA};
  size_t sz[] = {8};
  const void *o[1];
  irregfix::View v{};
  EXPECT_FALSE(irregfix::prepare_range(site, dB, irregfix::kIndexI32, n, 1, src, sz, &v, o, 0));
  EXPECT_EQ(site_counters("oom:1").last_fallback, "allocation failed");
  EXPECT_EQ(irregfix::testing::cached_bytes(), 0u);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  irregfix::testing::set_fail_alloc(false);
  EXPECT_TRUE(irregfix::prepare_range(site, dB, irregfix::kIndexI32, n, 1, src, sz, &v, o, 0));
  EXPECT_EQ(site_counters("oom:1").misses, 2);
}

TEST_F(Runtime, ByteCapFallsBack) {
  const long long n = 10000;
  auto B = make_offsets<int>(n, 5, 0);
  int *dB = upload(B);
  double *dA = upload(std::vector<double>(B[n] + 1, 2.5));
  irregfix::testing::set_max_bytes(4096);
  irregfix::SiteInfo site{"cap:1", "k", "range"};
  const void *src[] = {dA};
  size_t sz[] = {8};
  const void *o[1];
  irregfix::View v{};
  EXPECT_FALSE(irregfix::prepare_range(site, dB, irregfix::kIndexI32, n, 1, src, sz, &v, o, 0));
  EXPECT_EQ(site_counters("cap:1").last_fallback, "over IRREGFIX_MAX_BYTES");
  EXPECT_EQ(irregfix::testing::cached_bytes(), 0u);
  irregfix::testing::set_max_bytes(64ull << 20);
  EXPECT_TRUE(irregfix::prepare_range(site, dB, irregfix::kIndexI32, n, 1, src, sz, &v, o, 0));
  EXPECT_LE(irregfix::testing::cached_bytes(), 64ull << 20);
}

TEST_F(Runtime, DisabledFallsBack) {
  irregfix::testing::set_disabled(true);
  std::vector<int> B = {0, 1, 2};
  int *dB = upload(B);
  float *dA = upload(std::vector<float>{1.f, 2.f});
  irregfix::SiteInfo site{"off:1", "k", "gather"};
  irregfix::View v{};
  const void *o = nullptr;
  EXPECT_FALSE(irregfix::prepare_gather(site, dB, irregfix::kIndexI32, 2, dA, 4, &v, &o, 0));
  EXPECT_EQ(site_counters("off:1").last_fallback, "disabled by IRREGFIX_DISABLE");
}

TEST_F(Runtime, BadIndexDataFallsBack) {
  irregfix::SiteInfo site{"bad:1", "k", "range"};
  std::vector<int> B = {0, 4, 2, 6, 9};  // not monotone
  int *dB = upload(B);
  float *dA = upload(std::vector<float>(9, 1.f));
  const void *src[] = {dA};
  size_t sz[] = {4};
  const void *o[1];
  irregfix::View v{};
  EXPECT_FALSE(irregfix::prepare_range(site, dB, irregfix::kIndexI32, 4, 1, src, sz, &v, o, 0));
  EXPECT_NE(site_counters("bad:1").last_fallback.find("bad index data"), std::string::npos);
  // B reaching past A's allocation.
  std::vector<int> B2 = {0, 4, 8, 100000};
  int *dB2 = upload(B2);
  EXPECT_FALSE(irregfix::prepare_range(site, dB2, irregfix::kIndexI32, 3, 1, src, sz, &v, o, 0));
  EXPECT_NE(site_counters("bad:1").last_fallback.find("outside"), std::string::npos);
  // A gather index past A.
  std::vector<long long> G = {0, 3, 9};
  long long *dG = upload(G);
  const void *og = nullptr;
  EXPECT_FALSE(irregfix::prepare_gather(site, dG, irregfix::kIndexI64, 3, dA, 4, &v, &og, 0));
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(irregfix::testing::cached_bytes(), 0u);
}

TEST_F(Runtime, Disjoint) {
  irregfix::SiteInfo site{"alias:1", "k", "range"};
  float *a = upload(std::vector<float>(100, 1.f));
  float *b = upload(std::vector<float>(100, 2.f));
  EXPECT_TRUE(irregfix::disjoint(site, a, b));
  EXPECT_TRUE(irregfix::disjoint(site, nullptr, b));
  EXPECT_TRUE(irregfix::disjoint(site, a, nullptr));
  EXPECT_EQ(site_counters("alias:1").fallbacks, 0);
  EXPECT_FALSE(irregfix::disjoint(site, a + 50, a));
  EXPECT_FALSE(irregfix::disjoint(site, a, a));
  EXPECT_EQ(site_counters("alias:1").fallbacks, 2);
  EXPECT_NE(site_counters("alias:1").last_fallback.find("written pointer may alias"),
            std::string::npos);
}

// The alias check remembers allocation ranges so that a cached launch asks the
// driver nothing; a free (irregfix_release) makes it forget them, and a write
// (irregfix_invalidate) does not.
TEST_F(Runtime, DisjointRemembersUntilRelease) {
  irregfix::SiteInfo site{"alias:2", "k", "range"};
  float *a = upload(std::vector<float>(64, 1.f));
  float *b = upload(std::vector<float>(64, 2.f));
  EXPECT_TRUE(irregfix::disjoint(site, a, b));
  EXPECT_EQ(irregfix::testing::known_allocations(), 2u);
  irregfix_invalidate(a);
  EXPECT_EQ(irregfix::testing::known_allocations(), 2u);
  irregfix_release(a);
  EXPECT_EQ(irregfix::testing::known_allocations(), 1u);
  EXPECT_TRUE(irregfix::disjoint(site, a, b)); // looked up again
  EXPECT_FALSE(irregfix::disjoint(site, b + 3, b));
}

// A refresh after a write to A reuses the layout; after a write to B (new row
// lengths, longer rows) it is rebuilt. Both give the right copy.
TEST_F(Runtime, RefreshAfterIndexArrayChangeRebuildsTheLayout) {
  irregfix::SiteInfo site{"shape:1", "k", "range"};
  const long long n = 5000;
  auto B = make_offsets<int>(n, 6, 0);
  const size_t cap = static_cast<size_t>(B[n]) * 3; // room for longer rows later
  std::vector<unsigned char> A = random_bytes(cap * 4);
  int *dB = upload(B);
  unsigned char *dA = upload(A);
  const void *src[] = {dA};
  size_t sz[] = {4};
  const void *o[1];
  irregfix::View v{};
  ASSERT_TRUE(irregfix::prepare_range(site, dB, irregfix::kIndexI32, n, 1, src, sz, &v, o, 0));
  check_ell(B, n, A, 4, v, o[0], false, 0);

  A = random_bytes(cap * 4); // new values, same rows
  CK(cudaMemcpy(dA, A.data(), A.size(), cudaMemcpyHostToDevice));
  irregfix_invalidate(dA);
  ASSERT_TRUE(irregfix::prepare_range(site, dB, irregfix::kIndexI32, n, 1, src, sz, &v, o, 0));
  check_ell(B, n, A, 4, v, o[0], false, 0);

  B = make_offsets<int>(n, 14, 0); // new rows, up to twice as long
  ASSERT_LE(static_cast<size_t>(B[n]), cap);
  CK(cudaMemcpy(dB, B.data(), B.size() * sizeof(int), cudaMemcpyHostToDevice));
  irregfix_invalidate(dB);
  ASSERT_TRUE(irregfix::prepare_range(site, dB, irregfix::kIndexI32, n, 1, src, sz, &v, o, 0));
  check_ell(B, n, A, 4, v, o[0], false, 0);
  auto c = site_counters("shape:1");
  EXPECT_EQ(c.misses, 1);
  EXPECT_EQ(c.refreshes, 2);
}
