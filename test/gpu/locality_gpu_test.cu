// GPU tests of the locality layout (IRREGFIX_LAYOUT=locality) and of the
// launcher settled on the original: the order is a permutation, the one the
// host model computes; kernels run in it give the original's results bit for
// bit; a neighbour list's data is read in place (written data: no remap); the
// order is checked and kept, or computed again, when the lists change, and
// shared by the sites that read through the same lists; a settled launcher
// runs the original without the lock. Each test skips itself without a device.
#include <irregfix/irregfix.cuh>
#include <irregfix/testing.h>

#include "device_test.cuh"
#include "order_reference.h"
#include "row_sum_launch.cuh"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#define CK(x) ASSERT_EQ((x), cudaSuccess) << #x

namespace {

using irregfix::testing::site_counters;

// ---- a range site: y = A x over CSR, one thread a row -------------------------

__global__ void spmv(int n, const int *row, const int *col, const float *val, const float *x, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0.0f;
    for (int k = row[t]; k < row[t + 1]; ++k)
      s += val[k] * x[col[k]];
    y[t] = s;
  }
}

// The permutable form the tool emits: copies read at the physical thread, the
// logical thread everywhere else.
__global__ void spmv_view(int n, const float *x, float *y, irregfix::View v, const float *val_c, const int *col_c) {
  const long long p = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  int t = static_cast<int>(irregfix::logical_thread(v, p));
  if (t < n) {
    float s = 0.0f;
    for (int i = 0, len = irregfix::length(v, p); i < len; ++i) {
      const long long k = irregfix::slot(v, p, i);
      s += val_c[k] * x[col_c[k]];
    }
    y[t] = s;
  }
}

bool spmv_launch(const irregfix::SiteInfo &site, int n, const int *row, const int *col, const float *val,
                 const float *x, float *y, irregfix::View *out_view = nullptr) {
  irregfix::View v;
  const void *out[2];
  const void *const src[2] = {val, col};
  const size_t size[2] = {sizeof(float), sizeof(int)};
  const dim3 grid((n + 255) / 256), block(256);
  if (irregfix::begin_launch(site, 0, grid, block) && irregfix::disjoint(site, y, row) &&
      irregfix::prepare_range(site, row, irregfix::index_kind(row), n, 2, src, size, &v, out, 0)) {
    spmv_view<<<grid, block>>>(n, x, y, v, static_cast<const float *>(out[0]), static_cast<const int *>(out[1]));
    irregfix::end_transformed_launch(site, 0);
    if (out_view)
      *out_view = v;
    return true;
  }
  spmv<<<grid, block>>>(n, row, col, val, x, y);
  irregfix::end_original_launch(site, 0);
  return false;
}

// A site that renumbers (SiteInfo::renumbered = 1, col): x is read through
// what prepare_renumbered gives, at the values of col's copy.
__global__ void spmv_renumbered_view(int n, float *y, irregfix::View v, const float *val_c, const int *col_c,
                                     const float *x_r) {
  const long long p = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  int t = static_cast<int>(irregfix::logical_thread(v, p));
  if (t < n) {
    float s = 0.0f;
    for (int i = 0, len = irregfix::length(v, p); i < len; ++i) {
      const long long k = irregfix::slot(v, p, i);
      s += val_c[k] * x_r[col_c[k]];
    }
    y[t] = s;
  }
}

bool spmv_renumbered_launch(const irregfix::SiteInfo &site, int n, const int *row, const int *col, const float *val,
                            const float *x, float *y, const void **x_read = nullptr) {
  irregfix::View v;
  const void *out[2];
  const void *const src[2] = {val, col};
  const size_t size[2] = {sizeof(float), sizeof(int)};
  const void *xr = nullptr;
  const dim3 grid((n + 255) / 256), block(256);
  if (irregfix::begin_launch(site, 0, grid, block) && irregfix::disjoint(site, y, row) &&
      irregfix::disjoint(site, y, x) &&
      irregfix::prepare_range(site, row, irregfix::index_kind(row), n, 2, src, size, &v, out, 0) &&
      irregfix::prepare_renumbered(site, 0, x, sizeof(float), &xr, 0)) {
    spmv_renumbered_view<<<grid, block>>>(n, y, v, static_cast<const float *>(out[0]),
                                          static_cast<const int *>(out[1]), static_cast<const float *>(xr));
    irregfix::end_transformed_launch(site, 0);
    if (x_read)
      *x_read = xr;
    return true;
  }
  spmv<<<grid, block>>>(n, row, col, val, x, y);
  irregfix::end_original_launch(site, 0);
  return false;
}

// Two arrays read at the values of col (w scales x per column): a copy of each.
__global__ void spmv_scaled(int n, const int *row, const int *col, const float *val, const float *x, const float *w,
                            float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0.0f;
    for (int k = row[t]; k < row[t + 1]; ++k)
      s += val[k] * x[col[k]] * w[col[k]];
    y[t] = s;
  }
}

__global__ void spmv_scaled_view(int n, float *y, irregfix::View v, const float *val_c, const int *col_c,
                                 const float *x_r, const float *w_r) {
  const long long p = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  int t = static_cast<int>(irregfix::logical_thread(v, p));
  if (t < n) {
    float s = 0.0f;
    for (int i = 0, len = irregfix::length(v, p); i < len; ++i) {
      const long long k = irregfix::slot(v, p, i);
      s += val_c[k] * x_r[col_c[k]] * w_r[col_c[k]];
    }
    y[t] = s;
  }
}

bool spmv_scaled_launch(const irregfix::SiteInfo &site, int n, const int *row, const int *col, const float *val,
                        const float *x, const float *w, float *y, const void **x_read, const void **w_read) {
  irregfix::View v;
  const void *out[2];
  const void *const src[2] = {val, col};
  const size_t size[2] = {sizeof(float), sizeof(int)};
  const dim3 grid((n + 255) / 256), block(256);
  if (irregfix::begin_launch(site, 0, grid, block) && irregfix::disjoint(site, y, row) &&
      irregfix::prepare_range(site, row, irregfix::index_kind(row), n, 2, src, size, &v, out, 0) &&
      irregfix::prepare_renumbered(site, 0, x, sizeof(float), x_read, 0) &&
      irregfix::prepare_renumbered(site, 1, w, sizeof(float), w_read, 0)) {
    spmv_scaled_view<<<grid, block>>>(n, y, v, static_cast<const float *>(out[0]), static_cast<const int *>(out[1]),
                                      static_cast<const float *>(*x_read), static_cast<const float *>(*w_read));
    irregfix::end_transformed_launch(site, 0);
    return true;
  }
  spmv_scaled<<<grid, block>>>(n, row, col, val, x, w, y);
  irregfix::end_original_launch(site, 0);
  return false;
}

// A w x w grid's 5-point matrix (with its diagonal), renumbered at random.
struct Csr {
  int n = 0;
  std::vector<int> row, col;
  std::vector<float> val;
  order_reference::Graph graph;
};

Csr shuffled_grid(int w, unsigned seed) {
  Csr a;
  a.graph = order_reference::grid(w, seed);
  a.n = static_cast<int>(a.graph.n);
  a.row.assign(a.graph.off.begin(), a.graph.off.end());
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (long long e : a.graph.elems) {
    a.col.push_back(static_cast<int>(e));
    a.val.push_back(u(rng));
  }
  return a;
}

// ---- a neighbour-list site: forces from a column-major list with counts -------

__global__ void pull(int n, const int *cnt, const int *nb, const float4 *pos, float4 *f) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float4 pi = pos[t];
    float4 a = make_float4(0.f, 0.f, 0.f, 0.f);
    for (int j = 0; j < cnt[t]; ++j) {
      int q = nb[j * n + t];
      float4 pj = pos[q];
      a.x += pi.x - pj.x;
      a.y += (pi.y - pj.y) * pj.w;
      a.z += pi.z * pj.z;
      a.w += 1.0f;
    }
    f[t] = a;
  }
}

__global__ void pull_view(int n, const int *cnt, const int *nb, const float4 *pos, float4 *f, irregfix::View v,
                          const float4 *pos_c) {
  const long long p = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  int t = static_cast<int>(irregfix::logical_thread(v, p));
  if (t < n) {
    float4 pi = pos[t];
    float4 a = make_float4(0.f, 0.f, 0.f, 0.f);
    for (int j = 0; j < cnt[t]; ++j) {
      float4 pj = pos_c[irregfix::neighbor_slot(v, p, j)];
      a.x += pi.x - pj.x;
      a.y += (pi.y - pj.y) * pj.w;
      a.z += pi.z * pj.z;
      a.w += 1.0f;
    }
    f[t] = a;
  }
}

bool pull_launch(const irregfix::SiteInfo &site, int n, const int *cnt, const int *nb, const float4 *pos, float4 *f,
                 irregfix::View *out_view = nullptr) {
  irregfix::View v;
  const void *out[1];
  const dim3 grid((n + 255) / 256), block(256);
  if (irregfix::begin_launch(site, 0, grid, block) &&
      irregfix::prepare_neighbors(site, nb, irregfix::index_kind(nb), n, 1, n, cnt, irregfix::index_kind(cnt), n,
                                  pos, sizeof(float4), &v, out, 0)) {
    pull_view<<<grid, block>>>(n, cnt, nb, pos, f, v, static_cast<const float4 *>(out[0]));
    irregfix::end_transformed_launch(site, 0);
    if (out_view)
      *out_view = v;
    return true;
  }
  pull<<<grid, block>>>(n, cnt, nb, pos, f);
  irregfix::end_original_launch(site, 0);
  return false;
}

// ---- a kernel without a site: a cell-list traversal, in the order of another ----

// Each atom sums over the atoms of its own cell (cell_start / cell_atoms) and
// counts them: what the tool runs in a locality order (pattern "order").
__device__ void cell_sum_of(int t, int n, const int *cell_of, const int *cell_start, const int *cell_atoms,
                            const float4 *pos, float *out, int *count) {
  if (t < n) {
    const int c = cell_of[t];
    float s = 0.f;
    for (int k = cell_start[c]; k < cell_start[c + 1]; ++k)
      s += pos[cell_atoms[k]].w * pos[t].x;
    out[t] = s;
    count[t] = cell_start[c + 1] - cell_start[c];
  }
}

__global__ void cell_sum(int n, const int *cell_of, const int *cell_start, const int *cell_atoms, const float4 *pos,
                         float *out, int *count) {
  cell_sum_of(blockIdx.x * blockDim.x + threadIdx.x, n, cell_of, cell_start, cell_atoms, pos, out, count);
}

// As the tool rewrites it: physical thread p works for logical_thread(v, p).
__global__ void cell_sum_ordered(int n, const int *cell_of, const int *cell_start, const int *cell_atoms,
                                 const float4 *pos, float *out, int *count, irregfix::View v) {
  const long long p = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  cell_sum_of(static_cast<int>(irregfix::logical_thread(v, p)), n, cell_of, cell_start, cell_atoms, pos, out, count);
}

// As the tool writes its launcher: true when it ran in the order.
bool cell_sum_launch(const irregfix::SiteInfo &site, int n, unsigned block, const int *cell_of,
                     const int *cell_start, const int *cell_atoms, const float4 *pos, float *out, int *count,
                     irregfix::View *out_view = nullptr) {
  irregfix::View v;
  const dim3 grid((n + block - 1) / block);
  if (irregfix::begin_launch(site, 0, grid, dim3(block)) && irregfix::disjoint(site, out, pos) &&
      irregfix::disjoint(site, count, pos) && irregfix::prepare_order(site, &v, 0)) {
    cell_sum_ordered<<<grid, block>>>(n, cell_of, cell_start, cell_atoms, pos, out, count, v);
    irregfix::end_transformed_launch(site, 0);
    if (out_view)
      *out_view = v;
    return true;
  }
  cell_sum<<<grid, block>>>(n, cell_of, cell_start, cell_atoms, pos, out, count);
  irregfix::end_original_launch(site, 0);
  return false;
}

// Atoms on a w^3 periodic lattice, numbered at random (`seed`); neighbours:
// the lattice points within sqrt(2) (18 of them), in a fixed order.
struct Lattice {
  int n = 0, jmax = 18;
  std::vector<int> cnt, nb; // nb[j * n + t]
  std::vector<float4> pos;
  order_reference::Graph graph;
};

Lattice lattice(int w, unsigned seed) {
  Lattice l;
  l.n = w * w * w;
  std::vector<int> new_of(static_cast<size_t>(l.n));
  std::iota(new_of.begin(), new_of.end(), 0);
  std::shuffle(new_of.begin(), new_of.end(), std::mt19937(seed));
  std::vector<int> old_of(static_cast<size_t>(l.n));
  for (int i = 0; i < l.n; ++i)
    old_of[new_of[i]] = i;
  l.cnt.assign(l.n, 0);
  l.nb.assign(static_cast<size_t>(l.n) * l.jmax, -1);
  l.pos.resize(l.n);
  std::mt19937 rng(seed + 1);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  for (int t = 0; t < l.n; ++t) {
    const int o = old_of[t], x = o % w, y = (o / w) % w, z = o / (w * w);
    l.pos[t] = make_float4(x + 0.1f * u(rng), y + 0.1f * u(rng), z + 0.1f * u(rng), u(rng));
    std::vector<long long> row;
    for (int dz = -1; dz <= 1; ++dz)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const int d = dx * dx + dy * dy + dz * dz;
          if (d == 0 || d > 2)
            continue;
          const int q = ((z + dz + w) % w * w + (y + dy + w) % w) * w + (x + dx + w) % w;
          l.nb[static_cast<size_t>(l.cnt[t]) * l.n + t] = new_of[q];
          row.push_back(new_of[q]);
          ++l.cnt[t];
        }
    l.graph.add(row);
  }
  return l;
}

template <class T> bool same_bytes(const std::vector<T> &a, const std::vector<T> &b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

using Locality = ForcedLayoutTest<irregfix::kLayoutLocality>;

const irregfix::SiteInfo kSpmv{"locality:spmv", "spmv", "range", irregfix::kSitePermutable, nullptr,
                               "val,col,row"};
const irregfix::SiteInfo kSpmvRenumbered{"locality:spmv-renumbered", "spmv", "range", irregfix::kSitePermutable,
                                         nullptr, "val,col,row", 1};
const irregfix::SiteInfo kSpmvScaled{"locality:spmv-scaled", "spmv_scaled", "range", irregfix::kSitePermutable,
                                     nullptr, "val,col,row", 1};
const irregfix::SiteInfo kPull{"locality:pull", "pull", "neighbors", irregfix::kSitePermutable, nullptr,
                               "pos,nb,cnt"};
const irregfix::SiteInfo kPullAgain{"locality:pull2", "pull", "neighbors", irregfix::kSitePermutable, nullptr,
                                    "pos,nb,cnt"};

} // namespace

TEST_F(Locality, RangeSiteRunsInTheOrderTheHostModelComputesBitForBit) {
  const Csr a = shuffled_grid(160, 11);
  std::vector<float> xs(a.n);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-2.0f, 2.0f);
  for (float &v : xs)
    v = u(rng);
  int *row = upload(a.row), *col = upload(a.col);
  float *val = upload(a.val), *x = upload(xs), *y = upload(std::vector<float>(a.n, 0.f)),
        *want = upload(std::vector<float>(a.n, 0.f));
  spmv<<<(a.n + 255) / 256, 256>>>(a.n, row, col, val, x, want);
  CK(cudaGetLastError());
  irregfix::View v{};
  ASSERT_TRUE(spmv_launch(kSpmv, a.n, row, col, val, x, y, &v));
  CK(cudaDeviceSynchronize());
  EXPECT_EQ(site_counters(kSpmv.id).layout, irregfix::kLayoutLocality) << site_counters(kSpmv.id).last_fallback;
  ASSERT_NE(v.perm, nullptr);
  const std::vector<int> perm = download(v.perm, a.n);
  EXPECT_TRUE(order_reference::is_permutation(perm));
  EXPECT_EQ(perm, order_reference::order(a.graph, 128));
  EXPECT_TRUE(same_bytes(download(y, a.n), download(want, a.n)));
  // A second launch is a hit; x changes freely (it is read in place).
  CK(cudaMemset(y, 0, a.n * sizeof(float)));
  ASSERT_TRUE(spmv_launch(kSpmv, a.n, row, col, val, x, y));
  CK(cudaDeviceSynchronize());
  EXPECT_EQ(site_counters(kSpmv.id).hits, 1);
  EXPECT_TRUE(same_bytes(download(y, a.n), download(want, a.n)));
  const std::string report = irregfix::testing::stats_report();
  EXPECT_NE(report.find("locality order: sampled sectors per read"), std::string::npos) << report;
}

std::vector<float> random_vector(int n, unsigned seed) {
  std::vector<float> v(static_cast<size_t>(n));
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-2.0f, 2.0f);
  for (float &e : v)
    e = u(rng);
  return v;
}

TEST_F(Locality, RenumberedGatherReadsACopyInTheOrderBitForBit) {
  irregfix::testing::set_renumber(1); // these copies fit the L2: by default not renumbered
  Csr a = shuffled_grid(160, 13);
  int *row = upload(a.row), *col = upload(a.col);
  float *val = upload(a.val), *x = upload(random_vector(a.n, 4)), *y = upload(std::vector<float>(a.n, 0.f)),
        *want = upload(std::vector<float>(a.n, 0.f));
  auto expect_original = [&](const char *when) {
    spmv<<<(a.n + 255) / 256, 256>>>(a.n, row, col, val, x, want);
    CK(cudaDeviceSynchronize());
    EXPECT_TRUE(same_bytes(download(y, a.n), download(want, a.n))) << when;
  };
  const void *xr = nullptr;
  ASSERT_TRUE(spmv_renumbered_launch(kSpmvRenumbered, a.n, row, col, val, x, y, &xr));
  CK(cudaDeviceSynchronize());
  EXPECT_EQ(site_counters(kSpmvRenumbered.id).layout, irregfix::kLayoutLocality);
  ASSERT_NE(xr, nullptr);
  ASSERT_NE(xr, static_cast<const void *>(x)) << irregfix::testing::stats_report();
  expect_original("first launch");
  // The copy is x in the order of the threads: xr[p] == x[perm[p]].
  irregfix::View v{};
  ASSERT_TRUE(spmv_launch(kSpmv, a.n, row, col, val, x, y, &v)); // the same order, through the plain site
  CK(cudaDeviceSynchronize());
  const std::vector<int> perm = download(v.perm, a.n);
  const std::vector<float> xs = download(x, a.n), copy = download(static_cast<const float *>(xr), a.n);
  int misplaced = 0;
  for (int p = 0; p < a.n; ++p)
    misplaced += std::memcmp(&copy[p], &xs[perm[p]], sizeof(float)) != 0;
  EXPECT_EQ(misplaced, 0);
  // x changes between launches: copied again at each (the matrix's copy is a hit).
  CK(cudaMemcpy(x, random_vector(a.n, 5).data(), a.n * sizeof(float), cudaMemcpyHostToDevice));
  ASSERT_TRUE(spmv_renumbered_launch(kSpmvRenumbered, a.n, row, col, val, x, y));
  CK(cudaDeviceSynchronize());
  EXPECT_EQ(site_counters(kSpmvRenumbered.id).hits, 1);
  expect_original("after x changed");
  // col changes (row 0's columns reversed), reported: the refresh renumbers the new values.
  std::reverse(a.col.begin() + a.row[0], a.col.begin() + a.row[1]);
  a.col[a.row[0]] = a.n - 1;
  CK(cudaMemcpy(col, a.col.data(), a.col.size() * sizeof(int), cudaMemcpyHostToDevice));
  irregfix_invalidate(col);
  ASSERT_TRUE(spmv_renumbered_launch(kSpmvRenumbered, a.n, row, col, val, x, y));
  CK(cudaDeviceSynchronize());
  expect_original("after col changed");
  const std::string report = irregfix::testing::stats_report();
  EXPECT_NE(report.find("renumbered: 'col' holds positions in the locality order"), std::string::npos) << report;
}

TEST_F(Locality, TwoArraysReadAtTheSameValuesEachGetACopyInTheOrder) {
  irregfix::testing::set_renumber(1);
  Csr a = shuffled_grid(128, 23);
  int *row = upload(a.row), *col = upload(a.col);
  float *val = upload(a.val), *x = upload(random_vector(a.n, 8)), *w = upload(random_vector(a.n, 9)),
        *y = upload(std::vector<float>(a.n, 0.f)), *want = upload(std::vector<float>(a.n, 0.f));
  spmv_scaled<<<(a.n + 255) / 256, 256>>>(a.n, row, col, val, x, w, want);
  CK(cudaGetLastError());
  const void *xr = nullptr, *wr = nullptr;
  ASSERT_TRUE(spmv_scaled_launch(kSpmvScaled, a.n, row, col, val, x, w, y, &xr, &wr));
  CK(cudaDeviceSynchronize());
  EXPECT_NE(xr, static_cast<const void *>(x));
  EXPECT_NE(wr, static_cast<const void *>(w));
  EXPECT_NE(xr, wr);
  EXPECT_TRUE(same_bytes(download(y, a.n), download(want, a.n)));
}

TEST_F(Locality, ARenumberingSiteWhoseValuesAreNotAllThreadsReadsTheArrayItself) {
  irregfix::testing::set_renumber(1);
  Csr a = shuffled_grid(96, 17);
  a.col[a.row[7]] = a.n; // x has one element past the threads
  int *row = upload(a.row), *col = upload(a.col);
  float *val = upload(a.val), *x = upload(random_vector(a.n + 1, 6)), *y = upload(std::vector<float>(a.n, 0.f)),
        *want = upload(std::vector<float>(a.n, 0.f));
  spmv<<<(a.n + 255) / 256, 256>>>(a.n, row, col, val, x, want);
  CK(cudaGetLastError());
  const void *xr = nullptr;
  ASSERT_TRUE(spmv_renumbered_launch(kSpmvRenumbered, a.n, row, col, val, x, y, &xr));
  CK(cudaDeviceSynchronize());
  EXPECT_EQ(xr, static_cast<const void *>(x));
  EXPECT_TRUE(same_bytes(download(y, a.n), download(want, a.n)));
  const std::string report = irregfix::testing::stats_report();
  EXPECT_NE(report.find("renumbered: no: 1 of the values of 'col' lie outside"), std::string::npos) << report;
}

TEST_F(Locality, ARenumberingSiteWhoseCopiesFitTheL2ReadsTheArrayItself) {
  Csr a = shuffled_grid(96, 19);
  int *row = upload(a.row), *col = upload(a.col);
  float *val = upload(a.val), *x = upload(random_vector(a.n, 7)), *y = upload(std::vector<float>(a.n, 0.f)),
        *want = upload(std::vector<float>(a.n, 0.f));
  spmv<<<(a.n + 255) / 256, 256>>>(a.n, row, col, val, x, want);
  CK(cudaGetLastError());
  const void *xr = nullptr;
  ASSERT_TRUE(spmv_renumbered_launch(kSpmvRenumbered, a.n, row, col, val, x, y, &xr));
  CK(cudaDeviceSynchronize());
  EXPECT_EQ(xr, static_cast<const void *>(x));
  EXPECT_TRUE(same_bytes(download(y, a.n), download(want, a.n)));
  const std::string report = irregfix::testing::stats_report();
  EXPECT_NE(report.find("renumbered: no: the copies (0 MiB) fit the L2"), std::string::npos) << report;
}

TEST_F(Locality, NeighbourListReadsItsDataInPlace) {
  Lattice l = lattice(24, 5);
  int *cnt = upload(l.cnt), *nb = upload(l.nb);
  float4 *pos = upload(l.pos), *f = upload(std::vector<float4>(l.n)), *want = upload(std::vector<float4>(l.n));
  irregfix::View v{};
  for (int step = 0; step < 3; ++step) {
    pull<<<(l.n + 255) / 256, 256>>>(l.n, cnt, nb, pos, want);
    CK(cudaGetLastError());
    ASSERT_TRUE(pull_launch(kPull, l.n, cnt, nb, pos, f, &v));
    CK(cudaDeviceSynchronize());
    EXPECT_TRUE(same_bytes(download(f, l.n), download(want, l.n))) << "step " << step;
    // The positions move: the list and the order stay, nothing is copied again.
    for (float4 &p : l.pos)
      p.x += 0.25f;
    CK(cudaMemcpy(pos, l.pos.data(), l.n * sizeof(float4), cudaMemcpyHostToDevice));
    irregfix_invalidate(pos);
  }
  const auto c = site_counters(kPull.id);
  EXPECT_EQ(c.layout, irregfix::kLayoutLocality) << c.last_fallback;
  EXPECT_EQ(c.misses, 1);
  EXPECT_EQ(c.refreshes, 0);
  EXPECT_EQ(c.hits, 2);
  EXPECT_EQ(v.index != nullptr, true);
  const std::vector<int> perm = download(v.perm, l.n);
  EXPECT_EQ(perm, order_reference::order(l.graph, 128));
}

// Cells of 2 x 2 x 2 lattice points: each atom's cell, and the cells' atoms.
struct Cells {
  std::vector<int> of, start, atoms;
};
Cells cells_of(const Lattice &l, int w) {
  const int cw = w / 2, ncell = cw * cw * cw;
  Cells c;
  c.of.resize(l.n);
  std::vector<std::vector<int>> members(ncell);
  for (int t = 0; t < l.n; ++t) {
    const int x = static_cast<int>(l.pos[t].x) / 2, y = static_cast<int>(l.pos[t].y) / 2,
              z = static_cast<int>(l.pos[t].z) / 2;
    c.of[t] = (z * cw + y) * cw + x;
    members[c.of[t]].push_back(t);
  }
  for (const std::vector<int> &m : members) {
    c.start.push_back(static_cast<int>(c.atoms.size()));
    c.atoms.insert(c.atoms.end(), m.begin(), m.end());
  }
  c.start.push_back(static_cast<int>(c.atoms.size()));
  return c;
}

// A kernel without a site runs in the order a neighbour site computed over as
// many threads, in its own copy of it; none before that order exists, nor over
// another number of threads. Results bit for bit.
TEST_F(Locality, AKernelWithoutASiteRunsInTheOrderOfASiteOverAsManyThreads) {
  const int w = 24;
  Lattice l = lattice(w, 11);
  Cells c = cells_of(l, w);
  int *cnt = upload(l.cnt), *nb = upload(l.nb), *cell_of = upload(c.of), *start = upload(c.start),
      *atoms = upload(c.atoms), *count = upload(std::vector<int>(l.n)), *count_want = upload(std::vector<int>(l.n));
  float4 *pos = upload(l.pos), *f = upload(std::vector<float4>(l.n));
  float *out = upload(std::vector<float>(l.n)), *want = upload(std::vector<float>(l.n));
  const irregfix::SiteInfo cells{"locality:cells", "cell_sum", "order", irregfix::kSitePermutable, nullptr};
  cell_sum<<<(l.n + 255) / 256, 256>>>(l.n, cell_of, start, atoms, pos, want, count_want);
  CK(cudaGetLastError());
  auto check = [&](const char *when) {
    CK(cudaDeviceSynchronize());
    EXPECT_TRUE(same_bytes(download(out, l.n), download(want, l.n))) << when;
    EXPECT_TRUE(same_bytes(download(count, l.n), download(count_want, l.n))) << when;
    CK(cudaMemset(out, 0xff, l.n * sizeof(float)));
  };
  EXPECT_FALSE(cell_sum_launch(cells, l.n, 256, cell_of, start, atoms, pos, out, count)) << "no order yet";
  check("before the order");
  EXPECT_NE(site_counters(cells.id).last_fallback.find("none over"), std::string::npos)
      << site_counters(cells.id).last_fallback;
  irregfix::View site_view{};
  ASSERT_TRUE(pull_launch(kPull, l.n, cnt, nb, pos, f, &site_view));
  irregfix::View v{};
  ASSERT_TRUE(cell_sum_launch(cells, l.n, 256, cell_of, start, atoms, pos, out, count, &v))
      << site_counters(cells.id).last_fallback;
  check("in the order");
  ASSERT_NE(v.perm, nullptr);
  EXPECT_NE(v.perm, site_view.perm) << "its own copy";
  EXPECT_EQ(download(v.perm, l.n), download(site_view.perm, l.n));
  ASSERT_TRUE(cell_sum_launch(cells, l.n, 256, cell_of, start, atoms, pos, out, count));
  check("a hit");
  EXPECT_EQ(site_counters(cells.id).hits, 1);
  // Another block size whose grid runs as many threads less one block: the same order.
  ASSERT_TRUE(cell_sum_launch(cells, l.n, 128, cell_of, start, atoms, pos, out, count));
  check("blocks of 128");
  // Fewer threads than the order's: none.
  const irregfix::SiteInfo fewer{"locality:cells-fewer", "cell_sum", "order", irregfix::kSitePermutable, nullptr};
  EXPECT_FALSE(cell_sum_launch(fewer, l.n - 1000, 256, cell_of, start, atoms, pos, out, count));
  const std::string report = irregfix::testing::stats_report();
  EXPECT_NE(report.find("pattern order layout locality"), std::string::npos) << report;
  EXPECT_NE(report.find("locality order: that of a site over as many threads"), std::string::npos) << report;
}

TEST_F(Locality, TheOrderIsCheckedWhenTheListChangesAndSharedBySitesOverIt) {
  Lattice l = lattice(24, 8);
  int *cnt = upload(l.cnt), *nb = upload(l.nb);
  float4 *pos = upload(l.pos), *f = upload(std::vector<float4>(l.n)), *want = upload(std::vector<float4>(l.n));
  irregfix::View first{}, second{};
  ASSERT_TRUE(pull_launch(kPull, l.n, cnt, nb, pos, f, &first));
  // Another site over the same list takes the same order.
  ASSERT_TRUE(pull_launch(kPullAgain, l.n, cnt, nb, pos, f, &second));
  CK(cudaDeviceSynchronize());
  EXPECT_EQ(download(first.perm, l.n), download(second.perm, l.n));
  std::string report = irregfix::testing::stats_report();
  EXPECT_NE(report.find("computed 1 times"), std::string::npos) << report;
  // (The second site's first build checked the order on the lists: kept once.)
  // The list is written again, as it was: a refresh, the order kept again.
  CK(cudaMemcpy(nb, l.nb.data(), l.nb.size() * sizeof(int), cudaMemcpyHostToDevice));
  irregfix_invalidate(nb);
  ASSERT_TRUE(pull_launch(kPull, l.n, cnt, nb, pos, f));
  CK(cudaDeviceSynchronize());
  EXPECT_EQ(site_counters(kPull.id).refreshes, 1);
  report = irregfix::testing::stats_report();
  EXPECT_NE(report.find("computed 1 times"), std::string::npos) << report;
  // Steady at its first check, the order is next measured after two changes.
  EXPECT_NE(report.find("kept 2 times when its lists changed (measured at 1 of those changes)"), std::string::npos)
      << report;
  // A list of other neighbours altogether (the lattice renumbered), at the
  // second change since that check: the old order has decayed and is computed
  // again; results stay the original's.
  const Lattice other = lattice(24, 99);
  CK(cudaMemcpy(nb, other.nb.data(), other.nb.size() * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(cnt, other.cnt.data(), other.cnt.size() * sizeof(int), cudaMemcpyHostToDevice));
  irregfix_invalidate(nb);
  irregfix_invalidate(cnt);
  irregfix::View v{};
  ASSERT_TRUE(pull_launch(kPull, l.n, cnt, nb, pos, f, &v));
  pull<<<(l.n + 255) / 256, 256>>>(l.n, cnt, nb, pos, want);
  CK(cudaDeviceSynchronize());
  report = irregfix::testing::stats_report();
  EXPECT_NE(report.find("computed 2 times"), std::string::npos) << report;
  EXPECT_EQ(download(v.perm, l.n), order_reference::order(other.graph, 128));
  EXPECT_TRUE(same_bytes(download(f, l.n), download(want, l.n)));
}

TEST_F(Locality, AutoTimesTheOrderWhereTheReadsLieFarApart) {
  irregfix::testing::set_layout(0);
  Lattice l = lattice(32, 4);
  int *cnt = upload(l.cnt), *nb = upload(l.nb);
  float4 *pos = upload(l.pos), *f = upload(std::vector<float4>(l.n)), *want = upload(std::vector<float4>(l.n));
  pull<<<(l.n + 255) / 256, 256>>>(l.n, cnt, nb, pos, want);
  CK(cudaGetLastError());
  for (int i = 0; i < 40; ++i) {
    pull_launch(kPull, l.n, cnt, nb, pos, f);
    CK(cudaDeviceSynchronize());
    ASSERT_TRUE(same_bytes(download(f, l.n), download(want, l.n))) << "launch " << i;
  }
  EXPECT_EQ(site_counters(kPull.id).candidates, 2); // ELL and the locality order
  const std::string report = irregfix::testing::stats_report();
  EXPECT_NE(report.find("locality"), std::string::npos) << report;
}

// n rows of three elements each, A[i] = i % 7, on the device, and y of n; the settled launchers' input.
struct RowsOfThree {
  int *B;
  float *A, *y;
  static float sum(long long t) { return static_cast<float>((3 * t) % 7 + (3 * t + 1) % 7 + (3 * t + 2) % 7); }
};

class SettledTest : public DeviceTest {
protected:
  static constexpr long long n = 4096;
  RowsOfThree rows_of_three() {
    std::vector<int> B(n + 1);
    for (long long t = 0; t <= n; ++t)
      B[t] = static_cast<int>(t * 3);
    std::vector<float> A(B[n]);
    for (size_t i = 0; i < A.size(); ++i)
      A[i] = static_cast<float>(i % 7);
    return RowsOfThree{upload(B), upload(A), upload(std::vector<float>(n, -1.f))};
  }
};

// A launcher settled on the original watches the transformed kernel now and
// then when its copy is cached; a kernel launched with another length each
// time (a tree level by level) finds its copy gone at each watch, and must not
// build one that only that timing would read (a build, its allocation and its
// synchronisations each time).
TEST_F(SettledTest, AWatchBuildsNoCopyForANewLength) {
  const irregfix::SiteInfo site{"settled:2", "row_sum", "range"};
  const RowsOfThree rows = rows_of_three();
  int *dB = rows.B;
  float *dA = rows.A, *y = rows.y;
  irregfix::testing::set_layout(irregfix::kLayoutEllColMajor); // the site's last copy: n rows
  ASSERT_TRUE(row_sum::launch(site, n, dB, dA, y, 0));
  irregfix::testing::set_layout(0);
  irregfix::testing::settle_on_original(site);
  int transformed = 0;
  const int launches = 3 * 64;
  for (int i = 1; i <= launches; ++i)
    transformed += row_sum::launch(site, n - i, dB, dA, y, 0);
  CK(cudaDeviceSynchronize());
  EXPECT_EQ(transformed, 0);
  const auto c = site_counters(site.id);
  EXPECT_EQ(c.misses, 1) << "only the forced launch built a copy";
  EXPECT_NE(c.last_fallback.find("no copy cached for this launch's key"), std::string::npos) << c.last_fallback;
  const std::vector<float> got = download(y, n);
  for (long long t = 0; t < n - launches; ++t)
    ASSERT_EQ(got[t], RowsOfThree::sum(t)) << t;
}

TEST_F(SettledTest, TheLauncherRunsTheOriginalWithoutAsking) {
  const irregfix::SiteInfo site{"settled:1", "row_sum", "range"};
  const RowsOfThree rows = rows_of_three();
  int *dB = rows.B;
  float *dA = rows.A, *y = rows.y;
  irregfix::testing::settle_on_original(site);
  int transformed = 0;
  for (int i = 0; i < 200; ++i)
    transformed += row_sum::launch(site, n, dB, dA, y, 0);
  CK(cudaDeviceSynchronize());
  EXPECT_EQ(transformed, 0);
  const auto c = site_counters(site.id);
  EXPECT_EQ(c.chosen_original, 200);
  EXPECT_EQ(c.misses, 0); // no copy was ever built
  const std::vector<float> got = download(y, n);
  for (long long t = 0; t < n; ++t)
    ASSERT_EQ(got[t], RowsOfThree::sum(t)) << t;
  // A new setting reaches the settled launcher at once.
  irregfix::testing::set_layout(irregfix::kLayoutEllColMajor);
  EXPECT_TRUE(row_sum::launch(site, n, dB, dA, y, 0));
  CK(cudaDeviceSynchronize());
}
