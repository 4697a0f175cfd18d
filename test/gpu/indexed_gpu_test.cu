// GPU tests of indexed copies (prepare_indexed / continue_indexed): the
// launcher's "generated" kernels (lengths and indices, written here by hand
// exactly as the protocol in irregfix.cuh says) against a CPU reference; the
// copies under ELL, SELL-32 and auto; the refresh rules (indices kept after a
// write to a data array, computed again after a write to an index array);
// whole launches through begin_launch ... end_transformed_launch compared bit
// for bit with the original kernel; fallbacks; IRREGFIX_VERIFY (death tests
// in a child that starts the program anew, as a forked CUDA process may not
// use the device). Each test skips itself without a device.
#include <irregfix/irregfix.cuh>
#include <irregfix/testing.h>

#include "device_test.cuh"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#define CK(x) ASSERT_EQ((x), cudaSuccess) << #x

namespace {

using irregfix::testing::site_counters;

constexpr unsigned kBlock = 256;

unsigned blocks_for(long long n) { return static_cast<unsigned>((n + kBlock - 1) / kBlock); }

__device__ __forceinline__ long long thread_index() {
  return blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
}

// The launcher protocol of irregfix.cuh: prepare_indexed, then each step the
// runtime asks for (lengths(len) or indices(view, idx) launch the generated
// kernels), until the copies are ready. `steps` (when given) gets the steps run.
template <class Lengths, class Indices>
bool prepare_steps(const irregfix::SiteInfo &site, const irregfix::IndexedSite &s, irregfix::View *v,
                   const void **out, cudaStream_t stream, std::vector<int> *steps, Lengths lengths,
                   Indices indices) {
  irregfix::IndexedWork w;
  bool ok = irregfix::prepare_indexed(site, s, &w, v, out, stream);
  while (ok && w.step != irregfix::kIndexedReady) {
    if (steps)
      steps->push_back(w.step);
    if (w.step == irregfix::kIndexedLengths)
      lengths(w.len);
    else
      indices(w.view, w.idx);
    ok = irregfix::continue_indexed(site, &w, v, out, stream);
  }
  return ok;
}

// SiteInfos at stable addresses (the runtime keys its records by them).
const irregfix::SiteInfo &site_named(const std::string &id, const char *kernel, const char *sources) {
  static std::deque<std::string> ids;
  static std::deque<irregfix::SiteInfo> sites;
  ids.push_back(id);
  sites.push_back(irregfix::SiteInfo{ids.back().c_str(), kernel, "indexed", 0, nullptr, sources});
  return sites.back();
}

// The launcher's description of a gather of one data array of elem_size bytes
// whose index kernel reads `index` (site's addresses stable: members).
struct GatherSite {
  const void *arrays[1];
  size_t sizes[1];
  std::vector<const void *> index;
  irregfix::IndexedSite site;
  GatherSite(long long n, const void *A, size_t elem_size, std::vector<const void *> index_arrays)
      : arrays{A}, sizes{elem_size}, index(std::move(index_arrays)) {
    site.n = n;
    site.count = 1;
    site.arrays = arrays;
    site.elem_sizes = sizes;
    site.index_count = static_cast<int>(index.size());
    site.index_arrays = index.data();
  }
  GatherSite(const GatherSite &) = delete; // site points into it
  GatherSite &operator=(const GatherSite &) = delete;
};

// ---- a gather through a chain of three loads: eta[adj[off[dst[t]]]] --------------

template <class T> __global__ void chain_original(long long n, const int *dst, const int *off, const int *adj,
                                                  const T *eta, T *y) {
  const long long t = thread_index();
  if (t < n)
    y[t] = eta[adj[off[dst[t]]]];
}

// The generated indices kernel: idx[0][slot(v, t, 0)] = the element index.
__global__ void chain_indices(long long n, const int *dst, const int *off, const int *adj, irregfix::View v,
                              long long *idx0) {
  const long long t = thread_index();
  if (t < n)
    idx0[irregfix::slot(v, t, 0)] = adj[off[dst[t]]];
}

template <class T> __global__ void chain_transformed(long long n, irregfix::View v, const T *eta, T *y) {
  const long long t = thread_index();
  if (t < n)
    y[t] = eta[irregfix::slot(v, t, 0)];
}

// Twelve bytes, 4-byte aligned: copied as composite words.
struct Vec3 {
  float x, y, z;
};

template <class T> T value_of(std::mt19937 &r) {
  if constexpr (std::is_same_v<T, Vec3>)
    return Vec3{static_cast<float>(r() % 1000), static_cast<float>(r() % 997) / 8.0f, -static_cast<float>(r() % 13)};
  else
    return static_cast<T>(r() % 30000);
}

template <class T> void chain_case(DeviceTest *fx, const char *id, long long n) {
  std::mt19937 r(17);
  const int nd = 5000, na = 7000, ne = 9000;
  std::vector<int> dst(n), off(nd), adj(na);
  for (int &d : dst)
    d = static_cast<int>(r() % nd);
  for (int &o : off)
    o = static_cast<int>(r() % na);
  for (int &a : adj)
    a = static_cast<int>(r() % ne);
  std::vector<T> eta(ne);
  for (T &e : eta)
    e = value_of<T>(r);
  const int *d_dst = fx->upload(dst), *d_off = fx->upload(off), *d_adj = fx->upload(adj);
  const T *d_eta = fx->upload(eta);
  T *y = fx->upload(std::vector<T>(n)), *y_ref = fx->upload(std::vector<T>(n));
  const irregfix::SiteInfo &site = site_named(id, "chain", "eta,dst,off,adj");
  const GatherSite g(n, d_eta, sizeof(T), {d_dst, d_off, d_adj});
  const irregfix::IndexedSite &s = g.site;
  irregfix::View v{};
  const void *out[1] = {};
  std::vector<int> steps;
  ASSERT_TRUE(prepare_steps(
      site, s, &v, out, 0, &steps, [](int *) { FAIL() << "a gather has no lengths"; },
      [&](const irregfix::View &w, long long *const *idx) {
        chain_indices<<<blocks_for(n), kBlock>>>(n, d_dst, d_off, d_adj, w, idx[0]);
      }))
      << site_counters(id).last_fallback;
  EXPECT_EQ(steps, std::vector<int>{irregfix::kIndexedIndices});
  EXPECT_EQ(v.layout, irregfix::kLayoutEllColMajor);
  EXPECT_EQ(v.n, n);
  EXPECT_EQ(v.width, 1);
  EXPECT_EQ(v.len, nullptr);
  const std::vector<T> copy = download(static_cast<const T *>(out[0]), n);
  for (long long t = 0; t < n; ++t)
    ASSERT_EQ(0, std::memcmp(&copy[t], &eta[adj[off[dst[t]]]], sizeof(T))) << "t=" << t;
  chain_transformed<T><<<blocks_for(n), kBlock>>>(n, v, static_cast<const T *>(out[0]), y);
  chain_original<T><<<blocks_for(n), kBlock>>>(n, d_dst, d_off, d_adj, d_eta, y_ref);
  CK(cudaDeviceSynchronize());
  const std::vector<T> got = download(y, n), want = download(y_ref, n);
  ASSERT_EQ(0, std::memcmp(got.data(), want.data(), n * sizeof(T)));
  // A second prepare is a hit: the launcher computes nothing.
  steps.clear();
  ASSERT_TRUE(prepare_steps(
      site, s, &v, out, 0, &steps, [](int *) {}, [](const irregfix::View &, long long *const *) {}));
  EXPECT_TRUE(steps.empty());
  const auto c = site_counters(id);
  EXPECT_EQ(c.misses, 1);
  EXPECT_EQ(c.hits, 1);
  EXPECT_EQ(c.remaps, 1);
  EXPECT_EQ(c.bytes_remapped, static_cast<unsigned long long>(n) * sizeof(T));
  EXPECT_EQ(c.fallbacks, 0) << c.last_fallback;
}

// ---- a gather with -1 sentinels: j = nb[t]; j >= 0 ? A[j] : 0 ----------------------

__global__ void sentinel_indices(long long n, const int *nb, irregfix::View v, long long *idx0) {
  const long long t = thread_index();
  if (t < n)
    idx0[irregfix::slot(v, t, 0)] = nb[t];
}

// ---- a loop site: for (k = row[t]; k < (t + 1 < n ? row[t + 1] : m); ++k) s += val[k] * x[col[k]]

__global__ void spmv_original(long long n, long long m, const int *row, const int *col, const float *val,
                              const float *x, float *y) {
  const long long t = thread_index();
  if (t < n) {
    float s = 0;
    const int end = t + 1 < n ? row[t + 1] : static_cast<int>(m);
    for (int k = row[t]; k < end; ++k)
      s += val[k] * x[col[k]];
    y[t] = s;
  }
}

// The generated lengths kernel: len[t] = the trip count of t's loop.
__global__ void spmv_lengths(long long n, long long m, const int *row, int *len) {
  const long long t = thread_index();
  if (t < n) {
    const int end = t + 1 < n ? row[t + 1] : static_cast<int>(m);
    len[t] = end > row[t] ? end - row[t] : 0;
  }
}

// The generated indices kernel: for iter < length(v, t), k = row[t] + iter:
// x's index col[k], val's index k.
__global__ void spmv_indices(long long n, const int *row, const int *col, irregfix::View v, long long *idx_x,
                             long long *idx_val) {
  const long long t = thread_index();
  if (t < n) {
    const int first = row[t];
    for (int i = 0, len = irregfix::length(v, t); i < len; ++i) {
      const long long at = irregfix::slot(v, t, i);
      idx_x[at] = col[first + i];
      idx_val[at] = first + i;
    }
  }
}

// Same order of operations as spmv_original: bitwise equal results (no
// contracted multiply-adds in this program: see CMakeLists.txt).
__global__ void spmv_transformed(long long n, irregfix::View v, const float *x, const float *val, float *y) {
  const long long t = thread_index();
  if (t < n) {
    float s = 0;
    for (int i = 0, len = irregfix::length(v, t); i < len; ++i) {
      const long long at = irregfix::slot(v, t, i);
      s += val[at] * x[at];
    }
    y[t] = s;
  }
}

// One problem of that loop site: row has n entries (the last row ends at m).
struct Spmv {
  long long n = 0, m = 0, nx = 0;
  std::vector<int> row, col;
  std::vector<float> val, x;
  int *d_row = nullptr, *d_col = nullptr;
  float *d_val = nullptr, *d_x = nullptr, *y = nullptr, *y_ref = nullptr;
  // The launcher's description of the site (addresses stable: a member).
  const void *arrays[2] = {};
  size_t sizes[2] = {sizeof(float), sizeof(float)};
  const void *index[2] = {};
  long long scalars[1] = {};
  irregfix::IndexedSite site;

  // Row lengths in [0, max_len], about a third empty, and one row of long_row
  // elements (0: none); uniform: every third row empty, the others max_len long.
  void make(DeviceTest *fx, long long rows, int max_len, int long_row, unsigned seed, bool uniform = false) {
    std::mt19937 r(seed);
    n = rows;
    nx = 4099;
    row.assign(n, 0);
    long long at = 0;
    for (long long t = 0; t < n; ++t) {
      row[t] = static_cast<int>(at);
      if (uniform)
        at += t % 3 == 0 ? 0 : max_len;
      else if (t == n / 3 && long_row > 0)
        at += long_row;
      else
        at += r() % 3 == 0 ? 0 : static_cast<int>(r() % (max_len + 1));
    }
    m = at;
    col.resize(std::max(m, 1LL)); // never empty (an upload of nothing): the kernels read k < m only
    for (int &c : col)
      c = static_cast<int>(r() % nx);
    val.resize(col.size());
    for (float &v : val)
      v = static_cast<float>(r() % 2001) / 64.0f - 15.0f;
    x.resize(nx);
    for (float &v : x)
      v = static_cast<float>(r() % 1001) / 32.0f;
    d_row = fx->upload(row);
    d_col = fx->upload(col);
    d_val = fx->upload(val);
    d_x = fx->upload(x);
    y = fx->upload(std::vector<float>(n));
    y_ref = fx->upload(std::vector<float>(n));
    arrays[0] = d_x;
    arrays[1] = d_val;
    index[0] = d_row;
    index[1] = d_col;
    scalars[0] = m;
    site = irregfix::IndexedSite{};
    site.n = n;
    site.loop = 1;
    site.count = 2;
    site.arrays = arrays;
    site.elem_sizes = sizes;
    site.index_count = 2;
    site.index_arrays = index;
    site.scalar_count = 1;
    site.scalars = scalars;
  }
  long long end(long long t) const { return t + 1 < n ? row[t + 1] : m; }
  long long length(long long t) const { return std::max(0LL, end(t) - row[t]); }

  // prepare_indexed and its steps on `stream`, the generated kernels launched there.
  bool prepare(const irregfix::SiteInfo &info, irregfix::View *v, const void **out, cudaStream_t stream,
               std::vector<int> *steps = nullptr) {
    return prepare_steps(
        info, site, v, out, stream, steps,
        [&](int *len) { spmv_lengths<<<blocks_for(n), kBlock, 0, stream>>>(n, m, d_row, len); },
        [&](const irregfix::View &w, long long *const *idx) {
          spmv_indices<<<blocks_for(n), kBlock, 0, stream>>>(n, d_row, d_col, w, idx[0], idx[1]);
        });
  }

  // The generated launcher: true when the transformed kernel ran.
  bool launch(const irregfix::SiteInfo &info, cudaStream_t stream, std::vector<int> *steps = nullptr) {
    irregfix::View v{};
    const void *out[2] = {};
    const dim3 grid(blocks_for(n)), block(kBlock);
    if (irregfix::begin_launch(info, stream, grid, block) && irregfix::disjoint(info, y, d_x) &&
        irregfix::disjoint(info, y, d_val) && irregfix::disjoint(info, y, d_row) &&
        irregfix::disjoint(info, y, d_col) && prepare(info, &v, out, stream, steps)) {
      spmv_transformed<<<grid, block, 0, stream>>>(n, v, static_cast<const float *>(out[0]),
                                                   static_cast<const float *>(out[1]), y);
      irregfix::end_transformed_launch(info, stream);
      return true;
    }
    spmv_original<<<grid, block, 0, stream>>>(n, m, d_row, d_col, d_val, d_x, y);
    irregfix::end_original_launch(info, stream);
    return false;
  }

  // y (from the launch just made) against the original kernel on the same data, bit for bit.
  void expect_original(cudaStream_t stream, const std::string &when) {
    spmv_original<<<blocks_for(n), kBlock, 0, stream>>>(n, m, d_row, d_col, d_val, d_x, y_ref);
    CK(cudaStreamSynchronize(stream));
    const std::vector<float> got = download(y, n), want = download(y_ref, n);
    ASSERT_EQ(0, std::memcmp(got.data(), want.data(), n * sizeof(float))) << when;
  }

  // The copies out[0] (x) and out[1] (val) that view v describes, against the reference.
  void expect_copies(const irregfix::View &v, const void *const *out) {
    ASSERT_EQ(v.n, n);
    ASSERT_NE(v.len, nullptr);
    long long width = 0;
    for (long long t = 0; t < n; ++t)
      width = std::max(width, length(t));
    EXPECT_EQ(v.width, width);
    const std::vector<int> len = download(v.len, n);
    irregfix::View hv = v; // slot() on the host: slice offsets from host memory
    std::vector<long long> starts;
    long long cells = irregfix::ell_cells(n, width);
    if (v.layout == irregfix::kLayoutSell32) {
      const long long slices = (n + 31) / 32;
      starts = download(v.slice_start, slices + 1);
      hv.slice_start = starts.data();
      cells = starts[slices];
      for (long long sl = 0; sl < slices; ++sl) {
        long long most = 0;
        for (long long t = sl * 32; t < n && t < sl * 32 + 32; ++t)
          most = std::max(most, length(t));
        ASSERT_EQ(starts[sl + 1] - starts[sl], 32 * most) << "slice " << sl;
      }
    } else {
      ASSERT_EQ(v.layout, irregfix::kLayoutEllColMajor);
      EXPECT_EQ(v.slice_mask, 0);
    }
    const std::vector<float> xs = download(static_cast<const float *>(out[0]), cells);
    const std::vector<float> vs = download(static_cast<const float *>(out[1]), cells);
    for (long long t = 0; t < n; ++t) {
      ASSERT_EQ(len[t], length(t)) << "t=" << t;
      for (long long i = 0; i < length(t); ++i) {
        const long long at = irregfix::slot(hv, t, i), k = row[t] + i;
        ASSERT_TRUE(at >= 0 && at < cells) << "t=" << t << " iter=" << i;
        ASSERT_EQ(xs[at], x[col[k]]) << "x at t=" << t << " iter=" << i;
        ASSERT_EQ(vs[at], val[k]) << "val at t=" << t << " iter=" << i;
      }
    }
  }

  // New values of a host vector, uploaded into its device array (on `stream`)
  // and announced, as the tool's invalidation before a write does.
  template <class T> void rewrite(std::vector<T> &h, T *d, cudaStream_t stream, std::mt19937 &r, int modulo) {
    for (T &v : h)
      v = static_cast<T>(r() % modulo);
    irregfix_invalidate(d);
    ASSERT_EQ(cudaMemcpyAsync(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice, stream), cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  }
};

class Indexed : public DeviceTest {};

} // namespace

TEST_F(Indexed, GatherThroughAChainOfThreeLoads) { chain_case<float>(this, "indexed:chain", 100003); }

// Elements of 2, 8 and 12 bytes (the last copied as composite words).
TEST_F(Indexed, GatherOfOtherElementSizes) {
  chain_case<short>(this, "indexed:chain2", 4097);
  chain_case<double>(this, "indexed:chain8", 33);
  chain_case<Vec3>(this, "indexed:chain12", 20000);
}

// Sentinels outside the data array's allocation are skipped: their slots are
// never written, by the build or by a refresh (poisoned here before one).
TEST_F(Indexed, GatherSkipsSentinels) {
  std::mt19937 r(3);
  const long long n = 30000, na = 1000;
  std::vector<int> nb(n);
  for (int &j : nb)
    j = r() % 4 == 0 ? -1 : static_cast<int>(r() % na);
  nb[7] = static_cast<int>(na); // one past the end: outside too
  std::vector<float> A(na);
  for (float &a : A)
    a = static_cast<float>(r() % 5000) / 4.0f;
  const int *d_nb = upload(nb);
  float *d_A = upload(A);
  const irregfix::SiteInfo &site = site_named("indexed:sentinel", "sentinel", "A,nb");
  const GatherSite g(n, d_A, sizeof(float), {d_nb});
  const irregfix::IndexedSite &s = g.site;
  irregfix::View v{};
  const void *out[1] = {};
  auto indices = [&](const irregfix::View &w, long long *const *idx) {
    sentinel_indices<<<blocks_for(n), kBlock>>>(n, d_nb, w, idx[0]);
  };
  ASSERT_TRUE(prepare_steps(site, s, &v, out, 0, nullptr, [](int *) {}, indices))
      << site_counters(site.id).last_fallback;
  CK(cudaMemset(const_cast<void *>(out[0]), 0xA5, n * sizeof(float)));
  for (float &a : A)
    a += 1.0f;
  irregfix_invalidate(d_A);
  CK(cudaMemcpy(d_A, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice));
  std::vector<int> steps;
  ASSERT_TRUE(prepare_steps(site, s, &v, out, 0, &steps, [](int *) {}, indices));
  EXPECT_TRUE(steps.empty()) << "a write to the data array keeps the indices";
  std::vector<unsigned> got(n);
  CK(cudaMemcpy(got.data(), out[0], n * sizeof(float), cudaMemcpyDeviceToHost));
  for (long long t = 0; t < n; ++t) {
    if (nb[t] >= 0 && nb[t] < na) {
      float f;
      std::memcpy(&f, &got[t], sizeof f);
      ASSERT_EQ(f, A[nb[t]]) << "t=" << t;
    } else {
      ASSERT_EQ(got[t], 0xA5A5A5A5u) << "sentinel slot written, t=" << t;
    }
  }
  const auto c = site_counters(site.id);
  EXPECT_EQ(c.misses, 1);
  EXPECT_EQ(c.refreshes, 1);
  EXPECT_EQ(c.remaps, 2);
}

// The loop site: a row's end from the next row or, for the last, from m (row
// has n entries); x read through col[k], val through k; empty rows. Under ELL,
// SELL-32 and auto (skewed rows: SELL-32; uniform rows: ELL).
TEST_F(Indexed, LoopWithATernaryEndAndANestedGather) {
  struct Case {
    const char *id;
    int layout, long_row;
    int want;
  } cases[] = {
      {"indexed:loop:ell", irregfix::kLayoutEllColMajor, 100, irregfix::kLayoutEllColMajor},
      {"indexed:loop:sell", irregfix::kLayoutSell32, 100, irregfix::kLayoutSell32},
      {"indexed:loop:auto-skewed", 0, 2000, irregfix::kLayoutSell32},
      {"indexed:loop:auto-uniform", 0, 0, irregfix::kLayoutEllColMajor},
      // A layout indexed sites do not support: ELL.
      {"indexed:loop:sigma", irregfix::kLayoutSell32Sigma, 100, irregfix::kLayoutEllColMajor},
  };
  for (const Case &k : cases) {
    SCOPED_TRACE(k.id);
    irregfix::testing::reset();
    irregfix::testing::set_layout(k.layout);
    Spmv p;
    // auto-uniform: rows of 8 elements, every third empty: ELL pads 1.5x, but
    // SELL-32 pads as much (every slice has a full row): ELL.
    p.make(this, 40001, k.long_row ? 24 : 8, k.long_row, 5, k.long_row == 0);
    const irregfix::SiteInfo &site = site_named(k.id, "spmv", "x,val,row,col");
    irregfix::View v{};
    const void *out[2] = {};
    std::vector<int> steps;
    ASSERT_TRUE(p.prepare(site, &v, out, 0, &steps)) << site_counters(site.id).last_fallback;
    EXPECT_EQ(steps, (std::vector<int>{irregfix::kIndexedLengths, irregfix::kIndexedIndices}));
    EXPECT_EQ(v.layout, k.want);
    p.expect_copies(v, out);
    spmv_transformed<<<blocks_for(p.n), kBlock>>>(p.n, v, static_cast<const float *>(out[0]),
                                                   static_cast<const float *>(out[1]), p.y);
    p.expect_original(0, k.id);
    EXPECT_EQ(site_counters(site.id).layout, k.want);
    EXPECT_EQ(site_counters(site.id).bytes_remapped, 2ull * static_cast<unsigned long long>(p.m) * sizeof(float));
  }
}

// Every row empty: no slot, so no indices to compute; the kernel reads nothing.
TEST_F(Indexed, EmptyRowsOnly) {
  irregfix::testing::set_layout(irregfix::kLayoutEllColMajor);
  Spmv p;
  p.make(this, 1000, 0, 0, 8);
  ASSERT_EQ(p.m, 0);
  const irregfix::SiteInfo &site = site_named("indexed:empty", "spmv", "x,val,row,col");
  irregfix::View v{};
  const void *out[2] = {};
  std::vector<int> steps;
  ASSERT_TRUE(p.prepare(site, &v, out, 0, &steps)) << site_counters(site.id).last_fallback;
  EXPECT_EQ(steps, std::vector<int>{irregfix::kIndexedLengths});
  EXPECT_EQ(v.width, 0);
  p.expect_copies(v, out);
  CK(cudaMemset(p.y, 0xFF, p.n * sizeof(float)));
  ASSERT_TRUE(p.launch(site, 0));
  p.expect_original(0, "empty rows");
  EXPECT_EQ(site_counters(site.id).hits, 1);
}

// A write to a data array (x, then val) keeps the indices: the launcher
// computes nothing, the copies are gathered again. A write to an index array
// (col, then row with new lengths), or one that cannot be named, and the
// launcher computes lengths and indices again.
TEST_F(Indexed, RefreshRules) {
  irregfix::testing::set_layout(irregfix::kLayoutEllColMajor);
  std::mt19937 r(21);
  Spmv p;
  p.make(this, 20000, 16, 0, 9);
  const irregfix::SiteInfo &site = site_named("indexed:refresh", "spmv", "x,val,row,col");
  irregfix::View v{};
  const void *out[2] = {};
  const std::vector<int> none, all = {irregfix::kIndexedLengths, irregfix::kIndexedIndices};
  auto prepare = [&](const std::vector<int> &want, const char *when) {
    std::vector<int> steps;
    ASSERT_TRUE(p.prepare(site, &v, out, 0, &steps)) << site_counters(site.id).last_fallback;
    EXPECT_EQ(steps, want) << when;
    p.expect_copies(v, out);
  };
  prepare(all, "miss");
  prepare(none, "hit");
  p.rewrite(p.x, p.d_x, 0, r, 777);
  prepare(none, "after x");
  p.rewrite(p.val, p.d_val, 0, r, 999);
  prepare(none, "after val");
  auto c = site_counters(site.id);
  EXPECT_EQ(c.misses, 1);
  EXPECT_EQ(c.hits, 1);
  EXPECT_EQ(c.refreshes, 2);
  EXPECT_EQ(c.remaps, 3);

  p.rewrite(p.col, p.d_col, 0, r, static_cast<int>(p.nx));
  prepare(all, "after col");
  // New row lengths: the last rows empty, the first ones longer (m unchanged).
  {
    std::vector<int> row = p.row;
    for (long long t = 1; t < p.n; ++t)
      row[t] = std::min<int>(static_cast<int>(p.m), row[t] + static_cast<int>(t % 5));
    p.row = row;
    irregfix_invalidate(p.d_row);
    CK(cudaMemcpy(p.d_row, row.data(), row.size() * sizeof(int), cudaMemcpyHostToDevice));
  }
  prepare(all, "after row");
  irregfix_invalidate_all(IRREGFIX_CAUSE_UNSEEN_CALL, "indexed_gpu_test.cu");
  prepare(all, "after an unnamed write");
  c = site_counters(site.id);
  EXPECT_EQ(c.refreshes, 5);
  EXPECT_EQ(c.remaps, 6);
  EXPECT_EQ(c.fallbacks, 0) << c.last_fallback;
}

// Whole launches through the generated launcher's protocol, on a stream of
// the program's, the data changed between them (values and indices, each
// announced): every result is the original kernel's, bit for bit, under ELL,
// SELL-32 and auto (where the selector also runs the original).
TEST_F(Indexed, LaunchesMatchTheOriginalAcrossChanges) {
  for (int layout : {int{irregfix::kLayoutEllColMajor}, int{irregfix::kLayoutSell32}, 0}) {
    SCOPED_TRACE(layout);
    irregfix::testing::reset();
    irregfix::testing::set_layout(layout);
    std::mt19937 r(30 + layout);
    Spmv p;
    p.make(this, 30000, 20, 64, 11 + layout);
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    const std::string id = "indexed:launch:" + std::to_string(layout);
    const irregfix::SiteInfo &site = site_named(id, "spmv", "x,val,row,col");
    int transformed = 0;
    for (int step = 0; step < 12; ++step) {
      if (step % 4 == 1)
        p.rewrite(p.x, p.d_x, s, r, 1000 + step);
      else if (step % 4 == 2)
        p.rewrite(p.val, p.d_val, s, r, 500 + step);
      else if (step % 4 == 3)
        p.rewrite(p.col, p.d_col, s, r, static_cast<int>(p.nx));
      transformed += p.launch(site, s);
      p.expect_original(s, "step " + std::to_string(step));
    }
    const auto c = site_counters(id.c_str());
    if (layout != 0) {
      EXPECT_EQ(transformed, 12);
      EXPECT_EQ(c.misses, 1);
      EXPECT_EQ(c.refreshes, 9);
      EXPECT_EQ(c.hits, 2);
    }
    EXPECT_EQ(c.launches, transformed);
    EXPECT_EQ(c.fallbacks, 0) << c.last_fallback;
    const std::string report = irregfix::testing::stats_report();
    EXPECT_NE(report.find("site " + id + " kernel spmv pattern indexed"), std::string::npos) << report;
    CK(cudaStreamDestroy(s));
  }
}

// Allocation failures, at the first step (the lengths) or the second (the
// byte cap, after the lengths): the original kernel runs, nothing is cached.
TEST_F(Indexed, AllocationFailureRunsTheOriginal) {
  irregfix::testing::set_layout(irregfix::kLayoutEllColMajor);
  Spmv p;
  p.make(this, 20000, 16, 0, 12);
  const irregfix::SiteInfo &site = site_named("indexed:oom", "spmv", "x,val,row,col");
  irregfix::testing::set_fail_alloc(true);
  std::vector<int> steps;
  EXPECT_FALSE(p.launch(site, 0, &steps));
  EXPECT_TRUE(steps.empty());
  p.expect_original(0, "allocation failure");
  EXPECT_EQ(site_counters(site.id).last_fallback, "allocation failed");
  EXPECT_EQ(irregfix::testing::cached_entries(), 0u);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);

  irregfix::testing::set_fail_alloc(false);
  irregfix::testing::set_max_bytes(p.n * sizeof(int) + 1024); // the lengths fit, the copies do not
  steps.clear();
  EXPECT_FALSE(p.launch(site, 0, &steps));
  EXPECT_EQ(steps, std::vector<int>{irregfix::kIndexedLengths});
  p.expect_original(0, "byte cap");
  EXPECT_EQ(site_counters(site.id).last_fallback, "over IRREGFIX_MAX_BYTES");
  EXPECT_EQ(irregfix::testing::cached_entries(), 0u);
  EXPECT_EQ(irregfix::testing::cached_bytes(), 0u);

  irregfix::testing::set_max_bytes(0);
  EXPECT_TRUE(p.launch(site, 0));
  p.expect_original(0, "after");
  EXPECT_EQ(site_counters(site.id).misses, 3);
  EXPECT_EQ(site_counters(site.id).fallbacks, 2);
}

// A gather's allocation failure comes at its only step's buffers.
TEST_F(Indexed, GatherAllocationFailureFallsBack) {
  irregfix::testing::set_fail_alloc(true);
  const std::vector<int> nb = {0, 1, 2, 1};
  const int *d_nb = upload(nb);
  const float *d_A = upload(std::vector<float>{1.f, 2.f, 3.f});
  const irregfix::SiteInfo &site = site_named("indexed:oom:gather", "sentinel", "A,nb");
  const GatherSite g(4, d_A, sizeof(float), {d_nb});
  const irregfix::IndexedSite &s = g.site;
  irregfix::View v{};
  const void *out[1] = {};
  irregfix::IndexedWork w;
  EXPECT_FALSE(irregfix::prepare_indexed(site, s, &w, &v, out, 0));
  EXPECT_EQ(w.step, irregfix::kIndexedReady);
  EXPECT_EQ(site_counters(site.id).last_fallback, "allocation failed");
  EXPECT_EQ(irregfix::testing::cached_entries(), 0u);
}

TEST_F(Indexed, LayoutNoneAndDisabledRunTheOriginal) {
  Spmv p;
  p.make(this, 5000, 12, 0, 13);
  irregfix::testing::set_layout(-1);
  const irregfix::SiteInfo &none = site_named("indexed:none", "spmv", "x,val,row,col");
  for (int i = 0; i < 3; ++i) {
    EXPECT_FALSE(p.launch(none, 0));
    p.expect_original(0, "IRREGFIX_LAYOUT=none");
  }
  EXPECT_EQ(site_counters(none.id).chosen_original, 3);
  EXPECT_EQ(site_counters(none.id).misses, 0);
  // Without a launcher, prepare_indexed declines too.
  irregfix::View v{};
  const void *out[2] = {};
  EXPECT_FALSE(p.prepare(none, &v, out, 0));
  EXPECT_EQ(site_counters(none.id).last_fallback, "IRREGFIX_LAYOUT=none");

  irregfix::testing::set_layout(0);
  irregfix::testing::set_disabled(true);
  const irregfix::SiteInfo &off = site_named("indexed:disabled", "spmv", "x,val,row,col");
  EXPECT_FALSE(p.launch(off, 0));
  p.expect_original(0, "IRREGFIX_DISABLE");
  EXPECT_EQ(site_counters(off.id).misses, 0);
  EXPECT_EQ(irregfix::testing::cached_entries(), 0u);
}

// An index array in managed memory, written by the host between launches
// unannounced: never served from the cache, its indices computed at every launch.
TEST_F(Indexed, ManagedIndexArrayIsRebuiltAtEveryLaunch) {
  irregfix::testing::set_layout(irregfix::kLayoutEllColMajor);
  Spmv p;
  p.make(this, 3000, 10, 0, 14);
  int *col = nullptr;
  CK(cudaMallocManaged(&col, p.m * sizeof(int)));
  std::copy(p.col.begin(), p.col.end(), col);
  p.d_col = col;
  p.index[1] = col;
  const irregfix::SiteInfo &site = site_named("indexed:managed", "spmv", "x,val,row,col");
  for (int i = 0; i < 4; ++i) {
    CK(cudaDeviceSynchronize()); // the host writes while no kernel runs
    for (long long k = 0; k < p.m; ++k)
      col[k] = p.col[k] = static_cast<int>((k * 7 + i * 13) % p.nx);
    std::vector<int> steps;
    ASSERT_TRUE(p.launch(site, 0, &steps)) << site_counters(site.id).last_fallback;
    EXPECT_EQ(steps, (std::vector<int>{irregfix::kIndexedLengths, irregfix::kIndexedIndices})) << i;
    p.expect_original(0, "launch " + std::to_string(i));
  }
  const auto c = site_counters(site.id);
  EXPECT_EQ(c.hits, 0);
  EXPECT_EQ(c.host_writable_builds, 4);
  irregfix_release(col);
  CK(cudaFree(col));
}

// ---- IRREGFIX_VERIFY ---------------------------------------------------------------

namespace {

__global__ void bump(long long count, float *A) {
  const long long i = thread_index();
  if (i < count)
    A[i] += 1.0f;
}

using IndexedVerify = VerifyingTest;
using IndexedVerifyDeathTest = VerifyingDeathTest;

// Launch 1 builds, launch 2 hits; then `write` changes a source untold, and
// launch 3 hits a stale copy: the process aborts there.
template <class Write> void untold_write(DeviceTest *fx, const char *id, Write write) {
  Spmv p;
  p.make(fx, 30000, 12, 0, 15);
  const irregfix::SiteInfo &site = site_named(id, "spmv", "x,val,row,col");
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(p.launch(site, 0)) << site_counters(id).last_fallback;
    p.expect_original(0, "launch " + std::to_string(i + 1));
  }
  write(p);
  p.launch(site, 0);
  CK(cudaDeviceSynchronize());
}

} // namespace

TEST_F(IndexedVerifyDeathTest, AbortsWhenAKernelWritesADataArrayUntold) {
  EXPECT_DEATH(untold_write(this, "indexed:verify:data",
                            [](Spmv &p) { bump<<<blocks_for(p.nx), kBlock>>>(p.nx, p.d_x); }),
               "irregfix: IRREGFIX_VERIFY: stale copy at indexed:verify:data \\(kernel 'spmv'\\): source "
               "'x' changed since launch 1 built the copy; this is launch 3");
}

TEST_F(IndexedVerifyDeathTest, AbortsWhenACopyOverwritesAnIndexArrayUntold) {
  EXPECT_DEATH(untold_write(this, "indexed:verify:index",
                            [](Spmv &p) {
                              const int other = (p.col[0] + 1) % static_cast<int>(p.nx);
                              ASSERT_EQ(cudaMemcpy(p.d_col, &other, sizeof other, cudaMemcpyHostToDevice),
                                        cudaSuccess);
                            }),
               "source 'col' changed since launch 1 built the copy; this is launch 3");
}

// Hits after a build and after an announced write's refresh (data and index
// arrays): each checked, nothing printed, the results the original kernel's.
TEST_F(IndexedVerify, PassesSilentlyOnCorrectHits) {
  std::mt19937 r(16);
  Spmv p;
  p.make(this, 30000, 12, 0, 16);
  const irregfix::SiteInfo &site = site_named("indexed:verify:quiet", "spmv", "x,val,row,col");
  ::testing::internal::CaptureStderr();
  auto launch = [&](const char *when) {
    ASSERT_TRUE(p.launch(site, 0)) << site_counters(site.id).last_fallback;
    p.expect_original(0, when);
  };
  launch("miss");
  launch("hit");
  p.rewrite(p.x, p.d_x, 0, r, 4000);
  launch("refresh after x");
  launch("hit");
  p.rewrite(p.col, p.d_col, 0, r, static_cast<int>(p.nx));
  launch("refresh after col");
  launch("hit");
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  const auto c = site_counters(site.id);
  EXPECT_EQ(c.misses, 1);
  EXPECT_EQ(c.refreshes, 2);
  EXPECT_EQ(c.hits, 3);
  EXPECT_EQ(c.verified, 3);
  EXPECT_EQ(c.fallbacks, 0) << c.last_fallback;
}
