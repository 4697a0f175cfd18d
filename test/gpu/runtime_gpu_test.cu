// GPU tests of the irregfix runtime: remaps against a CPU reference, the cache
// (hits, invalidation, refresh), fallbacks and the alias check. Each test skips
// itself when there is no CUDA device. Fresh random inputs, poisoned outputs.
#include <irregfix/irregfix.cuh>
#include <irregfix/testing.h>

#include <gtest/gtest.h>

#include "device_test.cuh"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
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

class Runtime : public DeviceTest {
protected:
  // A gather's inputs on the device: n random indices into m floats.
  struct GatherInputs {
    std::vector<int> B;
    std::vector<float> A;
    int *dB;
    float *dA;
  };
  GatherInputs gather_inputs(long long n, long long m) {
    GatherInputs g;
    g.B.resize(n);
    for (auto &b : g.B)
      b = static_cast<int>(rng()() % m);
    g.A.resize(m);
    for (auto &a : g.A)
      a = static_cast<float>(rng()() % 100000) + 0.5f;
    g.dB = upload(g.B);
    g.dA = upload(g.A);
    return g;
  }
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

// Longest row of SELL-32 slice s (CPU reference).
template <class Idx> long long slice_max(const std::vector<Idx> &B, long long n, long long s) {
  long long m = 0;
  for (long long t = s * 32; t < n && t < s * 32 + 32; ++t)
    m = std::max<long long>(m, static_cast<long long>(B[t + 1] - B[t]));
  return m;
}

// Cells of the remapped copy described by v (ELL: n * longest row; SELL-32: the
// sum of 32 * longest row per slice). For SELL-32, checks v.slice_start against
// the CPU reference and returns a host copy of it in *starts.
template <class Idx>
long long copy_cells(const std::vector<Idx> &B, long long n, const irregfix::View &v,
                     std::vector<long long> *starts) {
  long long max_len = 0;
  for (long long t = 0; t < n; ++t)
    max_len = std::max<long long>(max_len, static_cast<long long>(B[t + 1] - B[t]));
  if (v.layout != irregfix::kLayoutSell32)
    return irregfix::ell_cells(n, max_len);
  const long long ns = (n + 31) / 32;
  std::vector<long long> want(ns + 1, 0);
  for (long long s = 0; s < ns; ++s)
    want[s + 1] = want[s] + 32 * slice_max(B, n, s);
  starts->assign(ns + 1, -1);
  EXPECT_NE(v.slice_start, nullptr);
  if (!v.slice_start)
    return -1;
  EXPECT_EQ(cudaMemcpy(starts->data(), v.slice_start, (ns + 1) * sizeof(long long),
                       cudaMemcpyDeviceToHost),
            cudaSuccess);
  EXPECT_EQ(*starts, want) << "slice offsets";
  return want[ns];
}

// Checks remapped[slot(v, t, iter)] == A[B[t] + iter] byte for byte, len[t], and
// (optionally) that padding still holds the poison byte. v may be ELL or SELL-32
// (want_layout: that one only; 0: either).
template <class Idx>
void check_ell(const std::vector<Idx> &B, long long n, const std::vector<unsigned char> &A,
               size_t esz, const irregfix::View &v, const void *remapped, bool check_padding,
               unsigned char poison, int want_layout = 0) {
  ASSERT_EQ(v.n, n);
  if (want_layout)
    ASSERT_EQ(v.layout, want_layout);
  ASSERT_TRUE(v.layout == irregfix::kLayoutEllColMajor || v.layout == irregfix::kLayoutSell32);
  if (v.layout == irregfix::kLayoutEllColMajor) {
    EXPECT_EQ(v.slice_mask, 0);
    EXPECT_EQ(v.block_width, v.width);
  }
  long long max_len = 0;
  for (long long t = 0; t < n; ++t)
    max_len = std::max<long long>(max_len, static_cast<long long>(B[t + 1] - B[t]));
  EXPECT_EQ(v.width, max_len) << "the view's width is the longest row";
  std::vector<long long> starts;
  const long long cells = copy_cells(B, n, v, &starts);
  ASSERT_GE(cells, 0);
  irregfix::View hv = v; // slot() on the host: slice offsets from host memory
  hv.slice_start = starts.empty() ? nullptr : starts.data();
  std::vector<int> len(n);
  ASSERT_EQ(cudaMemcpy(len.data(), v.len, n * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
  std::vector<unsigned char> out(static_cast<size_t>(cells) * esz);
  ASSERT_EQ(cudaMemcpy(out.data(), remapped, out.size(), cudaMemcpyDeviceToHost), cudaSuccess);
  long long bad = 0;
  for (long long t = 0; t < n; ++t) {
    long long l = static_cast<long long>(B[t + 1] - B[t]);
    ASSERT_EQ(len[t], l) << "t=" << t;
    const long long width = v.layout == irregfix::kLayoutSell32 ? slice_max(B, n, t / 32) : max_len;
    for (long long it = 0; it < width; ++it) {
      const long long at = irregfix::slot(hv, t, it);
      ASSERT_TRUE(at >= 0 && at < cells) << "t=" << t << " iter=" << it;
      const unsigned char *got = &out[static_cast<size_t>(at) * esz];
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
                std::vector<size_t> sizes, int want_layout = 0) {
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
    check_ell(B, n, A[i], sizes[i], v, out[i], false, 0, want_layout);
  // Poison, give fresh values, invalidate, refresh in place.
  std::vector<long long> starts;
  const long long cells = copy_cells(B, n, v, &starts);
  ASSERT_GE(cells, 0);
  const unsigned char poison = 0xA5;
  for (int i = 0; i < count; ++i) {
    CK(cudaMemset(const_cast<void *>(out[i]), poison, static_cast<size_t>(cells) * sizes[i]));
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
    EXPECT_EQ(v2.layout, v.layout) << "a refresh keeps the layout";
    EXPECT_EQ(v2.slice_start, v.slice_start);
    check_ell(B, n, A[i], sizes[i], v2, out2[i], true, poison, v.layout);
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
  irregfix::end_transformed_launch(site, 0);
  CK(cudaMemcpy(y.data(), dy, n * sizeof(double), cudaMemcpyDeviceToHost));
  for (long long t = 0; t < n; ++t) {
    double s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k)
      s += A[k];
    ASSERT_EQ(y[t], s) << t; // same order of additions: bitwise equal
  }
  EXPECT_EQ(site_counters("view:1").launches, 1);
}

// ---- SELL-32 ------------------------------------------------------------------

// SELL-32 forced: remap vs the CPU reference (n not a multiple of 32, empty rows,
// one long row, element sizes 4/8/16, int and long long B), then a refresh after
// a write to A that keeps SELL-32, its buffers and padding, with the new values.
TEST_F(Runtime, Sell32RemapMatchesReference) {
  irregfix::testing::set_layout(irregfix::kLayoutSell32);
  const int S = irregfix::kLayoutSell32;
  for (size_t esz : {4, 8, 16}) {
    SCOPED_TRACE(esz);
    const std::string e = std::to_string(esz);
    range_case<int>(this, ("s32:a" + e).c_str(), 1000, 9, 0, {esz}, S);
    range_case<int>(this, ("s32:b" + e).c_str(), 4097, 2, 5000, {esz}, S); // empty rows, long row
    range_case<long long>(this, ("s64:a" + e).c_str(), 3001, 12, 0, {esz}, S);
    range_case<long long>(this, ("s64:b" + e).c_str(), 33, 0, 700, {esz, 4}, S);
  }
  range_case<unsigned>(this, "s32:empty", 2049, 0, 0, {8}, S); // all rows empty
  range_case<int>(this, "s32:odd", 100003, 7, 0, {12, 1}, S);
  range_case<int>(this, "s32:one", 1, 5, 0, {8}, S);
}

// Row sums through slot()/length() are the same, bit for bit, under ELL and
// SELL-32 (the same additions in the same order).
TEST_F(Runtime, KernelThroughViewEllAndSell32) {
  const long long n = 12345;
  auto B = make_offsets<int>(n, 11, 500);
  std::vector<double> A(B[n]);
  std::uniform_real_distribution<double> d(-1, 1);
  for (double &x : A)
    x = d(rng());
  int *dB = upload(B);
  double *dA = upload(A);
  const void *src[] = {dA};
  size_t sz[] = {sizeof(double)};
  std::vector<std::vector<double>> ys;
  for (int layout : {irregfix::kLayoutEllColMajor, irregfix::kLayoutSell32}) {
    SCOPED_TRACE(layout);
    irregfix::testing::set_layout(layout);
    std::vector<double> y(n, -12345.0);
    double *dy = upload(y);
    irregfix::SiteInfo site{"view:2", "spmv", "range"};
    const void *out[1];
    irregfix::View v{};
    ASSERT_TRUE(irregfix::prepare_range(site, dB, irregfix::index_kind(dB), n, 1, src, sz, &v, out, 0));
    ASSERT_EQ(v.layout, layout);
    ell_row_sum<<<(n + 127) / 128, 128>>>(v, static_cast<const double *>(out[0]), dy);
    CK(cudaGetLastError());
    CK(cudaMemcpy(y.data(), dy, n * sizeof(double), cudaMemcpyDeviceToHost));
    ys.push_back(y);
  }
  ASSERT_EQ(ys.size(), 2u);
  for (long long t = 0; t < n; ++t) {
    double s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k)
      s += A[k];
    ASSERT_EQ(ys[0][t], s) << t;
    ASSERT_EQ(ys[1][t], s) << t;
  }
  // A forced layout and another do not share an entry.
  EXPECT_EQ(site_counters("view:2").misses, 2);
}

namespace {
// Rows of uniform random length in [lo, hi].
std::vector<int> uniform_offsets(long long n, int lo, int hi) {
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<int> B(n + 1, 0);
  for (long long t = 0; t < n; ++t)
    B[t + 1] = B[t] + d(rng());
  return B;
}

// Auto layout of one range site over rows in [lo, hi]; checks the copy too.
int auto_layout(Runtime *fx, const char *id, long long n, int lo, int hi) {
  irregfix::testing::set_layout(0);
  auto B = uniform_offsets(n, lo, hi);
  auto A = random_bytes(static_cast<size_t>(B[n]) * 4);
  int *dB = fx->upload(B);
  unsigned char *dA = fx->upload(A);
  const void *src[] = {dA};
  size_t sz[] = {4};
  const void *out[1];
  irregfix::View v{};
  irregfix::SiteInfo site{id, "k", "range"};
  EXPECT_TRUE(irregfix::prepare_range(site, dB, irregfix::kIndexI32, n, 1, src, sz, &v, out, 0))
      << site_counters(id).last_fallback;
  check_ell(B, n, A, 4, v, out[0], false, 0);
  return v.layout;
}
} // namespace

TEST_F(Runtime, AutoLayoutPicksSell32OnSkewAndEllOnUniformRows) {
  EXPECT_EQ(auto_layout(this, "auto:skew", 100000, 1, 64), irregfix::kLayoutSell32);
  EXPECT_EQ(auto_layout(this, "auto:five", 100000, 5, 5), irregfix::kLayoutEllColMajor);
  const std::string r = irregfix::testing::stats_report();
  EXPECT_NE(r.find("site auto:skew kernel k pattern range layout sell-32"), std::string::npos) << r;
  EXPECT_NE(r.find("site auto:five kernel k pattern range layout ell-colmajor"), std::string::npos) << r;
  EXPECT_NE(r.find("padding (cells / non-zeros): ell 1.000, sell-32 1.000"), std::string::npos) << r;
  // Auto's entry and a forced ELL one do not collide.
  irregfix::testing::set_layout(irregfix::kLayoutEllColMajor);
  auto B = uniform_offsets(5000, 1, 64);
  int *dB = upload(B);
  double *dA = upload(std::vector<double>(B[5000], 1.0));
  const void *src[] = {dA};
  size_t sz[] = {8};
  const void *out[1];
  irregfix::View v{};
  irregfix::SiteInfo site{"auto:mix", "k", "range"};
  ASSERT_TRUE(irregfix::prepare_range(site, dB, irregfix::kIndexI32, 5000, 1, src, sz, &v, out, 0));
  EXPECT_EQ(v.layout, irregfix::kLayoutEllColMajor);
  irregfix::testing::set_layout(0);
  ASSERT_TRUE(irregfix::prepare_range(site, dB, irregfix::kIndexI32, 5000, 1, src, sz, &v, out, 0));
  EXPECT_EQ(v.layout, irregfix::kLayoutSell32);
  irregfix::testing::set_layout(irregfix::kLayoutEllColMajor);
  ASSERT_TRUE(irregfix::prepare_range(site, dB, irregfix::kIndexI32, 5000, 1, src, sz, &v, out, 0));
  EXPECT_EQ(v.layout, irregfix::kLayoutEllColMajor);
  auto c = site_counters("auto:mix");
  EXPECT_EQ(c.misses, 2);
  EXPECT_EQ(c.hits, 1);
}

// A write to B under SELL-32 rebuilds the slices; a write to A only copies again.
TEST_F(Runtime, Sell32RefreshAfterIndexArrayChange) {
  irregfix::testing::set_layout(irregfix::kLayoutSell32);
  irregfix::SiteInfo site{"sshape:1", "k", "range"};
  const long long n = 5000;
  auto B = make_offsets<int>(n, 6, 0);
  const size_t cap = static_cast<size_t>(B[n]) * 3;
  std::vector<unsigned char> A = random_bytes(cap * 4);
  int *dB = upload(B);
  unsigned char *dA = upload(A);
  const void *src[] = {dA};
  size_t sz[] = {4};
  const void *o[1];
  irregfix::View v{};
  const int S = irregfix::kLayoutSell32;
  ASSERT_TRUE(irregfix::prepare_range(site, dB, irregfix::kIndexI32, n, 1, src, sz, &v, o, 0));
  check_ell(B, n, A, 4, v, o[0], false, 0, S);
  A = random_bytes(cap * 4);
  CK(cudaMemcpy(dA, A.data(), A.size(), cudaMemcpyHostToDevice));
  irregfix_invalidate(dA);
  ASSERT_TRUE(irregfix::prepare_range(site, dB, irregfix::kIndexI32, n, 1, src, sz, &v, o, 0));
  check_ell(B, n, A, 4, v, o[0], false, 0, S);
  B = make_offsets<int>(n, 14, 0);
  ASSERT_LE(static_cast<size_t>(B[n]), cap);
  CK(cudaMemcpy(dB, B.data(), B.size() * sizeof(int), cudaMemcpyHostToDevice));
  irregfix_invalidate(dB);
  ASSERT_TRUE(irregfix::prepare_range(site, dB, irregfix::kIndexI32, n, 1, src, sz, &v, o, 0));
  check_ell(B, n, A, 4, v, o[0], false, 0, S);
  auto c = site_counters("sshape:1");
  EXPECT_EQ(c.misses, 1);
  EXPECT_EQ(c.refreshes, 2);
  EXPECT_EQ(c.remaps, 3);
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
  auto [B, A, dB, dA] = gather_inputs(n, m);
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

// A site whose length changes at every launch (a kernel launched level by
// level) leaves a stale copy behind at each: the cache keeps the few served
// last and drops the rest at the next miss. Two lengths alternating still
// refresh their own copies in place.
TEST_F(Runtime, StaleCopiesOfOldLengthsAreDropped) {
  irregfix::SiteInfo site{"levels:1", "k", "gather"};
  const auto [B, A, dB, dA] = gather_inputs(3000, 4000);
  irregfix::View v{};
  const void *out = nullptr;
  for (long long n = 1000; n < 1020; ++n) {
    ASSERT_TRUE(irregfix::prepare_gather(site, dB, irregfix::kIndexI32, n, dA, 4, &v, &out, 0));
    irregfix_invalidate(dA);
  }
  // The copy being served, the one the site read before it (its record still
  // names it), and the four stale copies served last.
  EXPECT_EQ(irregfix::testing::cached_entries(), 6u);
  auto c = site_counters("levels:1");
  EXPECT_EQ(c.misses, 20);
  for (int rep = 0; rep < 6; ++rep) {
    const long long n = rep % 2 ? 2000 : 2500;
    ASSERT_TRUE(irregfix::prepare_gather(site, dB, irregfix::kIndexI32, n, dA, 4, &v, &out, 0));
    std::vector<float> h(n);
    CK(cudaMemcpy(h.data(), out, n * 4, cudaMemcpyDeviceToHost));
    for (long long t = 0; t < n; ++t)
      ASSERT_EQ(h[t], A[B[t]]);
    irregfix_invalidate(dA);
  }
  c = site_counters("levels:1");
  EXPECT_EQ(c.misses, 22);
  EXPECT_EQ(c.refreshes, 4);
  EXPECT_EQ(irregfix::testing::cached_entries(), 6u);
}

// A copy of an array member of a struct in device memory (the launcher passes
// the struct's pointer plus the member's offset) goes stale when the whole
// struct is written: the write's address is the struct's, not the member's.
TEST_F(Runtime, MemberOfAStructGoesStaleWhenTheStructIsWritten) {
  struct Table {
    int count;
    float weight[1000];
    int start[65];
    float vals[2048];
  };
  const long long n = 64;
  Table t{};
  t.count = 64;
  for (int i = 0; i < 1000; ++i)
    t.weight[i] = 0.5f * static_cast<float>(i);
  for (int r = 0; r <= 64; ++r)
    t.start[r] = r * 31;
  for (int i = 0; i < 2048; ++i)
    t.vals[i] = static_cast<float>(i) + 0.25f;
  std::vector<int> keys(n);
  for (auto &k : keys)
    k = static_cast<int>(rng()() % 1000);
  int *dKeys = upload(keys);
  Table *dT = upload(std::vector<Table>(1, t));
  irregfix::testing::set_layout(irregfix::kLayoutEllColMajor); // slot() on the host needs no slice offsets
  // As the generated launcher spells them: no load of *dT on the host.
  auto member = [&](std::size_t offset) { return reinterpret_cast<const char *>(dT) + offset; };
  const auto *weight = reinterpret_cast<const float *>(member(offsetof(Table, weight)));
  const auto *start = reinterpret_cast<const int *>(member(offsetof(Table, start)));
  const void *vals[] = {member(offsetof(Table, vals))};
  const size_t vsz[] = {sizeof(float)};
  irregfix::SiteInfo gather{"member:gather", "k", "gather"};
  irregfix::SiteInfo range{"member:range", "k", "range"};
  irregfix::View gv{}, rv{};
  const void *go = nullptr, *ro[1] = {};
  auto prepare = [&] {
    ASSERT_TRUE(irregfix::prepare_gather(gather, dKeys, irregfix::kIndexI32, n, weight, 4, &gv, &go, 0))
        << site_counters("member:gather").last_fallback;
    ASSERT_TRUE(irregfix::prepare_range(range, start, irregfix::kIndexI32, n, 1, vals, vsz, &rv, ro, 0))
        << site_counters("member:range").last_fallback;
  };
  auto expect_copies_of = [&](const Table &h) {
    std::vector<float> g(n);
    CK(cudaMemcpy(g.data(), go, n * 4, cudaMemcpyDeviceToHost));
    for (long long i = 0; i < n; ++i)
      ASSERT_EQ(g[irregfix::slot(gv, i, 0)], h.weight[keys[i]]) << "gather, t=" << i;
    ASSERT_EQ(rv.layout, irregfix::kLayoutEllColMajor);
    std::vector<int> len(n);
    CK(cudaMemcpy(len.data(), rv.len, n * sizeof(int), cudaMemcpyDeviceToHost));
    std::vector<float> r(static_cast<size_t>(rv.width) * n);
    CK(cudaMemcpy(r.data(), ro[0], r.size() * sizeof(float), cudaMemcpyDeviceToHost));
    for (long long i = 0; i < n; ++i) {
      ASSERT_EQ(len[i], h.start[i + 1] - h.start[i]);
      for (int k = 0; k < len[i]; ++k)
        ASSERT_EQ(r[irregfix::slot(rv, i, k)], h.vals[h.start[i] + k]) << "range, t=" << i << " k=" << k;
    }
  };
  prepare();
  expect_copies_of(t);
  // Another allocation written: still served from the cache.
  int *other = upload(std::vector<int>(16, 3));
  irregfix_invalidate(other);
  prepare();
  EXPECT_EQ(site_counters("member:gather").hits, 1);
  EXPECT_EQ(site_counters("member:range").hits, 1);
  // The whole struct copied again (cudaMemcpy(dT, &t, sizeof t)), reported at its start.
  for (float &w : t.weight)
    w = -w - 1.f;
  for (float &v : t.vals)
    v = 2.f * v;
  CK(cudaMemcpy(dT, &t, sizeof t, cudaMemcpyHostToDevice));
  irregfix_invalidate(dT);
  prepare();
  EXPECT_EQ(site_counters("member:gather").refreshes, 1);
  EXPECT_EQ(site_counters("member:range").refreshes, 1);
  expect_copies_of(t);
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
  // B reaching past A's allocation: under a forced layout (auto's range model
  // would rule such rows out before anything reads past A).
  irregfix::testing::set_layout(irregfix::kLayoutEllColMajor);
  std::vector<int> B2 = {0, 4, 8, 100000};
  int *dB2 = upload(B2);
  EXPECT_FALSE(irregfix::prepare_range(site, dB2, irregfix::kIndexI32, 3, 1, src, sz, &v, o, 0));
  EXPECT_NE(site_counters("bad:1").last_fallback.find("outside"), std::string::npos)
      << site_counters("bad:1").last_fallback;
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(irregfix::testing::cached_bytes(), 0u);
}

// A gather index outside A's allocation (past it, or a -1 sentinel) is skipped:
// the slot is left as it was, the rest of the site is remapped.
TEST_F(Runtime, GatherSkipsIndicesOutsideTheAllocation) {
  irregfix::SiteInfo site{"gsent:1", "k", "gather"};
  std::vector<float> A = {1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f, 8.f, 9.f};
  float *dA = upload(A);
  std::vector<long long> G = {0, 3, 9, -1, 8, 1LL << 40, -5};
  long long *dG = upload(G);
  irregfix::View v{};
  const void *og = nullptr;
  ASSERT_TRUE(irregfix::prepare_gather(site, dG, irregfix::kIndexI64, 7, dA, 4, &v, &og, 0))
      << site_counters("gsent:1").last_fallback;
  CK(cudaMemset(const_cast<void *>(og), 0xA5, 7 * 4));
  irregfix_invalidate(dA);
  ASSERT_TRUE(irregfix::prepare_gather(site, dG, irregfix::kIndexI64, 7, dA, 4, &v, &og, 0));
  std::vector<unsigned> h(7);
  CK(cudaMemcpy(h.data(), og, 7 * 4, cudaMemcpyDeviceToHost));
  for (int t = 0; t < 7; ++t) {
    if (G[t] >= 0 && G[t] < 9) {
      float f;
      std::memcpy(&f, &h[t], 4);
      EXPECT_EQ(f, A[G[t]]) << t;
    } else {
      EXPECT_EQ(h[t], 0xA5A5A5A5u) << "sentinel slot written, t=" << t;
    }
  }
  EXPECT_EQ(site_counters("gsent:1").fallbacks, 0);
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

// ---- two-level range, two-level gather, neighbour lists ------------------------

namespace {

std::vector<std::string> &site_ids() {
  static std::vector<std::string> ids; // SiteInfo keeps pointers
  return ids;
}
irregfix::SiteInfo make_site(const std::string &id, const char *pattern) {
  site_ids().push_back(id);
  return irregfix::SiteInfo{site_ids().back().c_str(), "k", pattern};
}

const unsigned char kPoison = 0xA5;

bool poisoned(const unsigned char *p, size_t esz) {
  for (size_t j = 0; j < esz; ++j)
    if (p[j] != kPoison)
      return false;
  return true;
}

// remapped[slot(v, t, iter)] == A[B[C[t]] + iter]; padding poisoned when asked.
template <class IdxB, class IdxC>
void check_range2(const std::vector<IdxB> &B, const std::vector<IdxC> &C, long long n,
                  const std::vector<unsigned char> &A, size_t esz, const irregfix::View &v,
                  const void *remapped, bool check_padding) {
  ASSERT_EQ(v.n, n);
  long long max_len = 0;
  for (long long t = 0; t < n; ++t)
    max_len = std::max<long long>(max_len, static_cast<long long>(B[C[t] + 1] - B[C[t]]));
  std::vector<int> len(n);
  CK(cudaMemcpy(len.data(), v.len, n * sizeof(int), cudaMemcpyDeviceToHost));
  std::vector<unsigned char> out(static_cast<size_t>(irregfix::ell_cells(n, max_len)) * esz);
  CK(cudaMemcpy(out.data(), remapped, out.size(), cudaMemcpyDeviceToHost));
  long long bad = 0;
  for (long long t = 0; t < n; ++t) {
    const long long r = static_cast<long long>(C[t]);
    const long long l = static_cast<long long>(B[r + 1] - B[r]);
    ASSERT_EQ(len[t], l) << "t=" << t;
    for (long long it = 0; it < max_len; ++it) {
      const unsigned char *got = &out[static_cast<size_t>(irregfix::slot(v, t, it)) * esz];
      if (it < l) {
        if (std::memcmp(got, &A[static_cast<size_t>(B[r] + it) * esz], esz) != 0 && bad++ < 5)
          ADD_FAILURE() << "mismatch at t=" << t << " iter=" << it;
      } else if (check_padding && !poisoned(got, esz) && bad++ < 5) {
        ADD_FAILURE() << "padding written at t=" << t << " iter=" << it;
      }
    }
  }
  EXPECT_EQ(bad, 0);
}

// rows rows of B, n threads, C[t] random in [0, rows); then: fresh values and a
// refresh into poisoned buffers; then a new C (full rebuild).
template <class IdxB, class IdxC>
void range2_case(Runtime *fx, const std::string &id, long long n, long long rows, int max_short,
                 std::vector<size_t> sizes) {
  irregfix::SiteInfo site = make_site(id, "range2");
  auto B = make_offsets<IdxB>(rows, max_short, 0);
  std::vector<IdxC> C(n);
  for (auto &c : C)
    c = static_cast<IdxC>(rng()() % rows);
  IdxB *dB = fx->upload(B);
  IdxC *dC = fx->upload(C);
  const int count = static_cast<int>(sizes.size());
  std::vector<std::vector<unsigned char>> A(count);
  std::vector<const void *> dA(count);
  for (int i = 0; i < count; ++i) {
    A[i] = random_bytes(static_cast<size_t>(B[rows]) * sizes[i]);
    dA[i] = fx->upload(A[i]);
  }
  irregfix::View v{};
  std::vector<const void *> out(count);
  auto prep = [&] {
    return irregfix::prepare_range2(site, dB, irregfix::index_kind(dB), dC, irregfix::index_kind(dC),
                                    n, count, dA.data(), sizes.data(), &v, out.data(), nullptr);
  };
  ASSERT_TRUE(prep()) << site_counters(site.id).last_fallback;
  for (int i = 0; i < count; ++i)
    check_range2(B, C, n, A[i], sizes[i], v, out[i], false);
  ASSERT_TRUE(prep()); // hit
  long long max_len = 0;
  for (long long t = 0; t < n; ++t)
    max_len = std::max<long long>(max_len, static_cast<long long>(B[C[t] + 1] - B[C[t]]));
  // Fast refresh: only A written. C changes on the device *without* an
  // invalidation: the refresh must keep the layout built from the old C.
  std::vector<IdxC> C2(n);
  for (auto &c : C2)
    c = static_cast<IdxC>(rng()() % rows);
  CK(cudaMemcpy(dC, C2.data(), n * sizeof(IdxC), cudaMemcpyHostToDevice));
  for (int i = 0; i < count; ++i) {
    CK(cudaMemset(const_cast<void *>(out[i]), kPoison, static_cast<size_t>(irregfix::ell_cells(n, max_len)) * sizes[i]));
    A[i] = random_bytes(A[i].size());
    CK(cudaMemcpy(const_cast<void *>(dA[i]), A[i].data(), A[i].size(), cudaMemcpyHostToDevice));
    irregfix_invalidate(dA[i]);
  }
  ASSERT_TRUE(prep());
  for (int i = 0; i < count; ++i)
    check_range2(B, C, n, A[i], sizes[i], v, out[i], true);
  // Index write: full rebuild with the new C.
  irregfix_invalidate(dC);
  ASSERT_TRUE(prep());
  for (int i = 0; i < count; ++i)
    check_range2(B, C2, n, A[i], sizes[i], v, out[i], false);
  auto c = site_counters(site.id);
  EXPECT_EQ(c.misses, 1);
  EXPECT_EQ(c.hits, 1);
  EXPECT_EQ(c.refreshes, 2);
  EXPECT_EQ(c.remaps, 3);
  EXPECT_EQ(c.fallbacks, 0);
}

// remapped[t] == A[B[C[t]]], sentinel B values (-1, past A) skipped.
template <class IdxB, class IdxC>
void gather2_case(Runtime *fx, const std::string &id, long long n, long long mb, long long ma,
                  size_t esz) {
  irregfix::SiteInfo site = make_site(id, "gather2");
  std::vector<IdxB> B(mb);
  for (auto &b : B) {
    const unsigned r = static_cast<unsigned>(rng()() % 16);
    b = r == 0 ? static_cast<IdxB>(-1) : r == 1 ? static_cast<IdxB>(ma + 3)
                                               : static_cast<IdxB>(rng()() % ma);
  }
  std::vector<IdxC> C(n);
  for (auto &c : C)
    c = static_cast<IdxC>(rng()() % mb);
  auto A = random_bytes(static_cast<size_t>(ma) * esz);
  IdxB *dB = fx->upload(B);
  IdxC *dC = fx->upload(C);
  unsigned char *dA = fx->upload(A);
  irregfix::View v{};
  const void *out = nullptr;
  auto prep = [&] {
    return irregfix::prepare_gather2(site, dB, irregfix::index_kind(dB), dC,
                                     irregfix::index_kind(dC), n, dA, esz, &v, &out, nullptr);
  };
  auto check = [&](const std::vector<IdxC> &CC, bool sentinels_poisoned) {
    ASSERT_EQ(v.n, n);
    EXPECT_EQ(v.len, nullptr);
    std::vector<unsigned char> h(static_cast<size_t>(n) * esz);
    CK(cudaMemcpy(h.data(), out, h.size(), cudaMemcpyDeviceToHost));
    long long bad = 0;
    for (long long t = 0; t < n; ++t) {
      const long long b = static_cast<long long>(B[CC[t]]);
      const unsigned char *got = &h[static_cast<size_t>(irregfix::slot(v, t, 0)) * esz];
      const bool valid = b >= 0 && b < ma && !(std::is_unsigned<IdxB>::value && B[CC[t]] == static_cast<IdxB>(-1));
      if (valid ? std::memcmp(got, &A[static_cast<size_t>(b) * esz], esz) != 0
                : sentinels_poisoned && !poisoned(got, esz))
        if (bad++ < 5)
          ADD_FAILURE() << "t=" << t << " B[C[t]]=" << b;
    }
    EXPECT_EQ(bad, 0);
  };
  ASSERT_TRUE(prep()) << site_counters(site.id).last_fallback;
  check(C, false);
  ASSERT_TRUE(prep());
  std::vector<IdxC> C2(n);
  for (auto &c : C2)
    c = static_cast<IdxC>(rng()() % mb);
  CK(cudaMemcpy(dC, C2.data(), n * sizeof(IdxC), cudaMemcpyHostToDevice)); // not invalidated
  CK(cudaMemset(const_cast<void *>(out), kPoison, static_cast<size_t>(n) * esz));
  A = random_bytes(A.size());
  CK(cudaMemcpy(dA, A.data(), A.size(), cudaMemcpyHostToDevice));
  irregfix_invalidate(dA);
  ASSERT_TRUE(prep()); // fast refresh: the composed B[C[t]] of the old C
  check(C, true);
  irregfix_invalidate(dC);
  ASSERT_TRUE(prep()); // full rebuild
  check(C2, false);
  auto c = site_counters(site.id);
  EXPECT_EQ(c.misses, 1);
  EXPECT_EQ(c.hits, 1);
  EXPECT_EQ(c.refreshes, 2);
  EXPECT_EQ(c.fallbacks, 0);
}

struct NbForm {
  bool j_major; // true: NB[j*M + t] (stride_j = M, stride_t = 1); false: NB[t*M + j]
  long long M;  // padded row length (>= n for j_major, >= m otherwise)
};

template <class Idx, class Cnt>
void neighbors_case(Runtime *fx, const std::string &id, long long n, long long m, NbForm f,
                    bool with_counts, size_t esz, long long na) {
  irregfix::SiteInfo site = make_site(id, "neighbors");
  const long long sj = f.j_major ? f.M : 1, st = f.j_major ? 1 : f.M;
  const size_t nb_size = static_cast<size_t>(f.j_major ? m * f.M : n * f.M);
  auto fill_nb = [&] {
    std::vector<Idx> NB(nb_size);
    for (auto &x : NB) {
      const unsigned r = static_cast<unsigned>(rng()() % 20);
      x = r == 0 ? static_cast<Idx>(-1) : r == 1 ? static_cast<Idx>(na + 7)
                                                 : static_cast<Idx>(rng()() % na);
    }
    return NB;
  };
  std::vector<Idx> NB = fill_nb();
  std::vector<Cnt> counts(n);
  for (auto &c : counts)
    c = static_cast<Cnt>(rng()() % 8 == 0 ? 0 : rng()() % (m + 1));
  if (n > 0 && with_counts)
    counts[rng()() % n] = static_cast<Cnt>(m); // keep the longest list at m
  auto A = random_bytes(static_cast<size_t>(na) * esz);
  Idx *dNB = fx->upload(NB);
  Cnt *dK = with_counts ? fx->upload(counts) : nullptr;
  unsigned char *dA = fx->upload(A);
  irregfix::View v{};
  const void *out = nullptr;
  auto prep = [&] {
    return irregfix::prepare_neighbors(site, dNB, irregfix::index_kind(dNB), sj, st, m, dK,
                                       with_counts ? irregfix::index_kind(dK) : irregfix::kIndexI32,
                                       n, dA, esz, &v, &out, nullptr);
  };
  auto check = [&](bool poisoned_rest) {
    ASSERT_EQ(v.n, n);
    EXPECT_EQ(v.len, nullptr);
    EXPECT_EQ(v.layout, irregfix::kLayoutEllColMajor);
    if (n > 0)
      EXPECT_EQ(v.width, m) << "columns of the copy"; // counts hold m once (above)
    std::vector<unsigned char> h(static_cast<size_t>(irregfix::ell_cells(n, m)) * esz);
    CK(cudaMemcpy(h.data(), out, h.size(), cudaMemcpyDeviceToHost));
    long long bad = 0;
    for (long long t = 0; t < n; ++t) {
      const long long cnt = with_counts ? static_cast<long long>(counts[t]) : m;
      for (long long j = 0; j < m; ++j) {
        const unsigned char *got = &h[static_cast<size_t>(irregfix::neighbor_slot(v, t, j)) * esz];
        const Idx x = NB[static_cast<size_t>(j * sj + t * st)];
        const long long b = static_cast<long long>(x);
        const bool valid = j < cnt && b >= 0 && b < na && x != static_cast<Idx>(-1);
        if (valid ? std::memcmp(got, &A[static_cast<size_t>(b) * esz], esz) != 0
                  : poisoned_rest && !poisoned(got, esz))
          if (bad++ < 5)
            ADD_FAILURE() << "t=" << t << " j=" << j << " idx=" << b << " count=" << cnt;
      }
    }
    EXPECT_EQ(bad, 0);
  };
  ASSERT_TRUE(prep()) << site_counters(site.id).last_fallback;
  check(false);
  ASSERT_TRUE(prep()); // hit
  // Fast refresh after a write to A into a poisoned copy: skipped slots stay.
  CK(cudaMemset(const_cast<void *>(out), kPoison, static_cast<size_t>(irregfix::ell_cells(n, m)) * esz));
  A = random_bytes(A.size());
  CK(cudaMemcpy(dA, A.data(), A.size(), cudaMemcpyHostToDevice));
  irregfix_invalidate(dA);
  ASSERT_TRUE(prep());
  check(true);
  // A new neighbour list: full rebuild.
  NB = fill_nb();
  CK(cudaMemcpy(dNB, NB.data(), NB.size() * sizeof(Idx), cudaMemcpyHostToDevice));
  irregfix_invalidate(dNB);
  CK(cudaMemset(const_cast<void *>(out), kPoison, static_cast<size_t>(irregfix::ell_cells(n, m)) * esz));
  ASSERT_TRUE(prep());
  check(true);
  auto c = site_counters(site.id);
  EXPECT_EQ(c.misses, 1);
  EXPECT_EQ(c.hits, 1);
  EXPECT_EQ(c.refreshes, 2);
  EXPECT_EQ(c.remaps, 3);
  EXPECT_EQ(c.fallbacks, 0);
}

} // namespace

TEST_F(Runtime, Range2Sizes) {
  for (size_t esz : {4, 16, 32, 12, 8, 1}) {
    SCOPED_TRACE(esz);
    range2_case<int, int>(this, "r2s:" + std::to_string(esz), 1000, 700, 9, {esz});
  }
  range2_case<int, int>(this, "r2s:multi", 3001, 3001, 6, {4, 16, 12});
}

TEST_F(Runtime, Range2OddNAndKinds) {
  for (long long n : {1LL, 31LL, 33LL, 255LL, 257LL, 4097LL, 100003LL}) {
    SCOPED_TRACE(n);
    range2_case<int, unsigned>(this, "r2n:" + std::to_string(n), n, n + 17, 7, {8});
  }
  range2_case<long long, long long>(this, "r2k:ll", 5000, 2000, 5, {8});
  range2_case<unsigned long long, int>(this, "r2k:ull", 2049, 5000, 0, {8}); // all rows empty
  range2_case<unsigned, unsigned long long>(this, "r2k:u", 300000, 300000, 5, {16});
}

TEST_F(Runtime, Range2CIndexingOutsideBFallsBack) {
  irregfix::SiteInfo site{"r2bad:1", "k", "range2"};
  std::vector<int> B = {0, 2, 4, 7};
  std::vector<int> C = {0, 2, 3, 1}; // C = 3: B[4] is past B's allocation
  int *dB = upload(B);
  int *dC = upload(C);
  float *dA = upload(std::vector<float>(7, 1.f));
  const void *src[] = {dA};
  size_t sz[] = {4};
  const void *o[1];
  irregfix::View v{};
  EXPECT_FALSE(irregfix::prepare_range2(site, dB, irregfix::kIndexI32, dC, irregfix::kIndexI32, 4,
                                        1, src, sz, &v, o, 0));
  EXPECT_NE(site_counters("r2bad:1").last_fallback.find("C indexes outside B"), std::string::npos)
      << site_counters("r2bad:1").last_fallback;
  std::vector<int> Cneg = {0, -1};
  int *dCn = upload(Cneg);
  EXPECT_FALSE(irregfix::prepare_range2(site, dB, irregfix::kIndexI32, dCn, irregfix::kIndexI32, 2,
                                        1, src, sz, &v, o, 0));
  irregfix::SiteInfo g{"g2bad:1", "k", "gather2"};
  std::vector<int> Cg = {0, 4}; // B has 4 elements
  int *dCg = upload(Cg);
  const void *og = nullptr;
  EXPECT_FALSE(irregfix::prepare_gather2(g, dB, irregfix::kIndexI32, dCg, irregfix::kIndexI32, 2,
                                         dA, 4, &v, &og, 0));
  EXPECT_NE(site_counters("g2bad:1").last_fallback.find("C indexes outside B"), std::string::npos);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(irregfix::testing::cached_bytes(), 0u);
}

TEST_F(Runtime, Gather2) {
  gather2_case<int, int>(this, "g2:1", 1000, 700, 777, 4);
  gather2_case<int, unsigned>(this, "g2:2", 100003, 5000, 3000, 16);
  gather2_case<long long, int>(this, "g2:3", 4097, 100, 100, 32);
  gather2_case<int, long long>(this, "g2:4", 33, 1000, 1000, 12);
  gather2_case<unsigned, int>(this, "g2:5", 257, 300, 200, 8);
}

TEST_F(Runtime, NeighborsJMajor) {
  // nb[j*M + t], M >= n (padded), with and without counts.
  for (long long n : {1LL, 33LL, 1000LL, 12289LL}) {
    SCOPED_TRACE(n);
    neighbors_case<int, int>(this, "nbj:" + std::to_string(n), n, 32, NbForm{true, n + 5}, false,
                             16, 5000);
    neighbors_case<int, int>(this, "nbjc:" + std::to_string(n), n, 32, NbForm{true, n}, true, 16,
                             5000);
  }
}

TEST_F(Runtime, NeighborsTMajorAndSizes) {
  // nb[t*M + j], M >= m.
  for (size_t esz : {4, 16, 32, 12, 8}) {
    SCOPED_TRACE(esz);
    neighbors_case<int, int>(this, "nbt:" + std::to_string(esz), 4097, 24, NbForm{false, 27},
                             esz % 8 == 0, esz, 3000);
  }
  neighbors_case<long long, unsigned>(this, "nbt:ll", 2049, 128, NbForm{false, 128}, true, 16,
                                      2049);
  neighbors_case<unsigned, long long>(this, "nbt:u", 257, 7, NbForm{true, 300}, true, 12, 257);
}

TEST_F(Runtime, NeighborsListPastItsAllocationFallsBack) {
  irregfix::SiteInfo site{"nbbad:1", "k", "neighbors"};
  std::vector<int> NB(100, 0);
  int *dNB = upload(NB);
  float *dA = upload(std::vector<float>(10, 1.f));
  irregfix::View v{};
  const void *o = nullptr;
  // 20 threads x 6 neighbours, t-major rows of 5: reaches NB[19*5 + 5] = NB[100].
  EXPECT_FALSE(irregfix::prepare_neighbors(site, dNB, irregfix::kIndexI32, 1, 5, 6, nullptr,
                                           irregfix::kIndexI32, 20, dA, 4, &v, &o, 0));
  EXPECT_NE(site_counters("nbbad:1").last_fallback.find("outside its allocation"),
            std::string::npos);
  EXPECT_TRUE(irregfix::prepare_neighbors(site, dNB, irregfix::kIndexI32, 1, 5, 5, nullptr,
                                          irregfix::kIndexI32, 20, dA, 4, &v, &o, 0));
}

TEST_F(Runtime, NewPatternsFallBackOnAllocationFailure) {
  std::vector<int> B = {0, 2, 4, 7};
  std::vector<int> C = {2, 0, 1};
  int *dB = upload(B);
  int *dC = upload(C);
  float *dA = upload(std::vector<float>(7, 1.f));
  const void *src[] = {dA};
  size_t sz[] = {4};
  const void *o[1];
  irregfix::View v{};
  irregfix::SiteInfo r2{"oom:r2", "k", "range2"}, g2{"oom:g2", "k", "gather2"},
      nb{"oom:nb", "k", "neighbors"};
  irregfix::testing::set_fail_alloc(true);
  EXPECT_FALSE(irregfix::prepare_range2(r2, dB, irregfix::kIndexI32, dC, irregfix::kIndexI32, 3, 1,
                                        src, sz, &v, o, 0));
  EXPECT_FALSE(irregfix::prepare_gather2(g2, dB, irregfix::kIndexI32, dC, irregfix::kIndexI32, 3,
                                         dA, 4, &v, o, 0));
  EXPECT_FALSE(irregfix::prepare_neighbors(nb, dB, irregfix::kIndexI32, 1, 1, 2, dC,
                                           irregfix::kIndexI32, 2, dA, 4, &v, o, 0));
  for (const char *id : {"oom:r2", "oom:g2", "oom:nb"})
    EXPECT_EQ(site_counters(id).last_fallback, "allocation failed") << id;
  EXPECT_EQ(irregfix::testing::cached_bytes(), 0u);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  irregfix::testing::set_fail_alloc(false);
  EXPECT_TRUE(irregfix::prepare_range2(r2, dB, irregfix::kIndexI32, dC, irregfix::kIndexI32, 3, 1,
                                       src, sz, &v, o, 0));
  EXPECT_TRUE(irregfix::prepare_gather2(g2, dB, irregfix::kIndexI32, dC, irregfix::kIndexI32, 3,
                                        dA, 4, &v, o, 0));
  EXPECT_TRUE(irregfix::prepare_neighbors(nb, dB, irregfix::kIndexI32, 1, 1, 2, dC,
                                          irregfix::kIndexI32, 2, dA, 4, &v, o, 0));
  const std::string report = irregfix::testing::stats_report();
  for (const char *p : {"pattern range2", "pattern gather2", "pattern neighbors"})
    EXPECT_NE(report.find(p), std::string::npos) << p << "\n" << report;
}

// ---- SELL-32-sigma --------------------------------------------------------------

namespace {

// A permutable kernel as the tool would write it: physical thread p reads its
// copy at slot(v, p, iter) and writes the logical row's output.
__global__ void sigma_row_sum(irregfix::View v, const double *vals, double *y) {
  const long long p = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long t = irregfix::logical_thread(v, p);
  if (t >= v.n)
    return;
  double s = 0;
  for (int it = 0; it < irregfix::length(v, p); ++it)
    s += vals[irregfix::slot(v, p, it)];
  y[t] = s;
}

// The permutation, the physical lengths, the slice offsets and every element of
// the copy against the CPU: perm is a permutation that stays inside windows of
// sigma threads and orders each window longest first (ties in thread order).
void check_sigma(const std::vector<int> &B, long long n, int sigma, const std::vector<double> &A,
                 const irregfix::View &v, const double *copy) {
  ASSERT_EQ(v.layout, irregfix::kLayoutSell32Sigma);
  ASSERT_NE(v.perm, nullptr);
  ASSERT_NE(v.slice_start, nullptr);
  const auto perm = download(v.perm, n);
  const auto len = download(v.len, n);
  const long long ns = (n + 31) / 32;
  const auto starts = download(v.slice_start, ns + 1);
  std::vector<char> seen(n, 0);
  for (long long p = 0; p < n; ++p) {
    const int t = perm[p];
    ASSERT_TRUE(t >= 0 && t < n && !seen[t]) << "not a permutation at p=" << p;
    seen[t] = 1;
    ASSERT_EQ(t / sigma, p / sigma) << "left its window at p=" << p;
    ASSERT_EQ(len[p], B[t + 1] - B[t]) << "p=" << p;
    if (p % sigma != 0) {
      const int prev = perm[p - 1];
      const int lp = B[prev + 1] - B[prev], lt = B[t + 1] - B[t];
      ASSERT_TRUE(lp > lt || (lp == lt && prev < t)) << "window not sorted at p=" << p;
    }
  }
  long long cells = 0;
  for (long long s = 0; s < ns; ++s) {
    ASSERT_EQ(starts[s], cells) << "slice " << s;
    int m = 0;
    for (long long p = s * 32; p < n && p < s * 32 + 32; ++p)
      m = std::max(m, len[p]);
    cells += 32LL * m;
  }
  ASSERT_EQ(starts[ns], cells);
  const auto out = download(copy, static_cast<size_t>(cells));
  irregfix::View hv = v;
  hv.slice_start = starts.data();
  for (long long p = 0; p < n; ++p)
    for (int it = 0; it < len[p]; ++it) {
      const long long at = irregfix::slot(hv, p, it);
      ASSERT_TRUE(at >= 0 && at < cells);
      ASSERT_EQ(out[at], A[B[perm[p]] + it]) << "p=" << p << " iter=" << it;
    }
}

} // namespace

TEST_F(Runtime, Sell32SigmaRemapKernelAndRefresh) {
  irregfix::testing::set_layout(irregfix::kLayoutSell32Sigma);
  for (int sigma : {32, 64, 1024}) {
    irregfix::testing::reset();
    irregfix::testing::set_layout(irregfix::kLayoutSell32Sigma);
    irregfix::testing::set_sigma(sigma);
    const long long n = 20011; // not a multiple of 32 nor of sigma
    auto B = make_offsets<int>(n, 40, 700);
    std::vector<double> A(B[n]);
    std::uniform_real_distribution<double> d(-1, 1);
    for (double &x : A)
      x = d(rng());
    int *dB = upload(B);
    double *dA = upload(A);
    double *dy = upload(std::vector<double>(n, -7.0));
    irregfix::SiteInfo site{"sigma:1", "k", "range", irregfix::kSitePermutable};
    const void *src[] = {dA};
    size_t sz[] = {sizeof(double)};
    const void *out[1];
    irregfix::View v{};
    ASSERT_TRUE(irregfix::prepare_range(site, dB, irregfix::kIndexI32, n, 1, src, sz, &v, out, 0))
        << site_counters("sigma:1").last_fallback;
    check_sigma(B, n, sigma, A, v, static_cast<const double *>(out[0]));
    // Padding: sorted windows pad less than plain SELL-32.
    const std::string report = irregfix::testing::stats_report();
    EXPECT_NE(report.find("sell-32-sigma"), std::string::npos) << report;
    // The kernel through the view: the same sums, in the same order, at logical rows.
    sigma_row_sum<<<(n + 127) / 128, 128>>>(v, static_cast<const double *>(out[0]), dy);
    CK(cudaGetLastError());
    auto y = download(dy, n);
    for (long long t = 0; t < n; ++t) {
      double s = 0;
      for (int k = B[t]; k < B[t + 1]; ++k)
        s += A[k];
      ASSERT_EQ(y[t], s) << "sigma " << sigma << " t=" << t;
    }
    // New values: a refresh in place, same permutation.
    for (double &x : A)
      x = d(rng());
    CK(cudaMemcpy(dA, A.data(), A.size() * sizeof(double), cudaMemcpyHostToDevice));
    irregfix_invalidate(dA);
    irregfix::View v2{};
    const void *out2[1];
    ASSERT_TRUE(irregfix::prepare_range(site, dB, irregfix::kIndexI32, n, 1, src, sz, &v2, out2, 0));
    EXPECT_EQ(v2.perm, v.perm);
    check_sigma(B, n, sigma, A, v2, static_cast<const double *>(out2[0]));
    EXPECT_EQ(site_counters("sigma:1").refreshes, 1);
  }
}

// A kernel that does not declare itself permutable never gets its threads
// permuted: SELL-32-sigma forced means SELL-32 for it.
TEST_F(Runtime, Sell32SigmaOnlyForPermutableKernels) {
  irregfix::testing::set_layout(irregfix::kLayoutSell32Sigma);
  const long long n = 3000;
  auto B = make_offsets<int>(n, 20, 0);
  std::vector<double> A(B[n], 1.0);
  int *dB = upload(B);
  double *dA = upload(A);
  irregfix::SiteInfo site{"sigma:2", "k", "range"};
  const void *src[] = {dA};
  size_t sz[] = {sizeof(double)};
  const void *out[1];
  irregfix::View v{};
  ASSERT_TRUE(irregfix::prepare_range(site, dB, irregfix::kIndexI32, n, 1, src, sz, &v, out, 0));
  EXPECT_EQ(v.layout, irregfix::kLayoutSell32);
  EXPECT_EQ(v.perm, nullptr);
}

// Auto: a permutable kernel whose rows vary much gets SELL-32-sigma; one whose
// rows are uniform keeps ELL; a kernel that is not permutable gets SELL-32.
TEST_F(Runtime, AutoPicksSigmaForPermutableSkewedRows) {
  irregfix::testing::set_layout(0);
  const long long n = 40000;
  std::vector<int> skewed(n + 1, 0), uniform(n + 1, 0);
  std::uniform_int_distribution<int> len(1, 64);
  for (long long t = 0; t < n; ++t) {
    skewed[t + 1] = skewed[t] + len(rng());
    uniform[t + 1] = uniform[t] + 8;
  }
  struct Case {
    const std::vector<int> *B;
    int flags;
    int want;
  } cases[] = {{&skewed, irregfix::kSitePermutable, irregfix::kLayoutSell32Sigma},
               {&uniform, irregfix::kSitePermutable, irregfix::kLayoutEllColMajor},
               {&skewed, 0, irregfix::kLayoutSell32}};
  int i = 0;
  for (const Case &c : cases) {
    const std::vector<int> &B = *c.B;
    std::vector<double> A(B[n]);
    for (size_t k = 0; k < A.size(); ++k)
      A[k] = static_cast<double>(k % 1000) * 0.5;
    int *dB = upload(B);
    double *dA = upload(A);
    static std::vector<std::string> ids;
    ids.push_back("auto-sigma:" + std::to_string(i++));
    irregfix::SiteInfo site{ids.back().c_str(), "k", "range", c.flags};
    const void *src[] = {dA};
    size_t sz[] = {sizeof(double)};
    const void *out[1];
    irregfix::View v{};
    ASSERT_TRUE(irregfix::prepare_range(site, dB, irregfix::kIndexI32, n, 1, src, sz, &v, out, 0));
    EXPECT_EQ(v.layout, c.want) << site.id;
    if (v.layout == irregfix::kLayoutSell32Sigma)
      check_sigma(B, n, 256, A, v, static_cast<const double *>(out[0]));
  }
}

// A launch with fewer threads than rows computes rows [0, threads) only:
// permuting would compute other rows, so such a launch never reads a
// SELL-32-sigma copy (forced: SELL-32; a sigma copy built by auto: the original).
TEST_F(Runtime, Sell32SigmaNeedsALaunchCoveringEveryRow) {
  const long long n = 10000;
  std::uniform_int_distribution<int> len(1, 64);
  std::vector<int> B(n + 1, 0);
  for (long long t = 0; t < n; ++t)
    B[t + 1] = B[t] + len(rng());
  std::vector<double> A(B[n], 1.5);
  int *dB = upload(B);
  double *dA = upload(A);
  const void *src[] = {dA};
  size_t sz[] = {sizeof(double)};
  const void *out[1];
  irregfix::View v{};
  const dim3 block(128), short_grid(20), full_grid((n + 127) / 128); // 2,560 threads < n
  for (int layout : {static_cast<int>(irregfix::kLayoutSell32Sigma), 0}) {
    irregfix::testing::reset();
    irregfix::testing::set_layout(layout);
    irregfix::SiteInfo site{layout ? "cover:forced" : "cover:auto", "k", "range",
                            irregfix::kSitePermutable};
    // A covering launch (auto: the first launch probes the transformed kernel).
    ASSERT_TRUE(irregfix::begin_launch(site, 0, full_grid, block));
    ASSERT_TRUE(irregfix::prepare_range(site, dB, irregfix::kIndexI32, n, 1, src, sz, &v, out, 0));
    EXPECT_EQ(v.layout, irregfix::kLayoutSell32Sigma) << site.id;
    irregfix::end_transformed_launch(site, 0);
    CK(cudaDeviceSynchronize());
    // Launches of 2,560 threads.
    int tried = 0;
    for (int i = 0; i < 8; ++i) {
      if (!irregfix::begin_launch(site, 0, short_grid, block)) { // auto: the selector's choice
        irregfix::end_original_launch(site, 0);
        continue;
      }
      ++tried;
      const bool ok = irregfix::prepare_range(site, dB, irregfix::kIndexI32, n, 1, src, sz, &v, out, 0);
      if (layout) {
        ASSERT_TRUE(ok);
        EXPECT_EQ(v.layout, irregfix::kLayoutSell32) << "forced sigma, short launch";
        EXPECT_EQ(v.perm, nullptr);
        irregfix::end_transformed_launch(site, 0);
      } else {
        EXPECT_FALSE(ok) << "auto: the sigma copy must not serve a short launch";
        irregfix::end_original_launch(site, 0);
      }
    }
    EXPECT_GT(tried, 0) << site.id;
  }
}
