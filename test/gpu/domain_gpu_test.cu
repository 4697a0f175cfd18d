// GPU tests of program-wide renumbering (runtime/src/domain/domain.h): launches
// of kernels indifferent to how their elements are numbered run on arrays the
// runtime keeps in a locality order, and give the original's results bit for
// bit; a launch that reads an array another way, a copy, and a library call
// get the arrays back as the program numbers them; auto leaves a well-numbered
// graph alone. The launches are written as the tool writes them (the roles
// tables of test/renumber/domain.cu). Each test skips itself without a device.
#include <irregfix/irregfix.cuh>
#include <irregfix/testing.h>

#include "device_test.cuh"
#include "config.h"
#include "order_reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

namespace {

constexpr int kColumns = 8;

// Particles on a line; each pulled by its neighbours, in list order.
__global__ void forces(int n, const int *count, const int *list, const float4 *pos, float4 *force) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float4 f = pos[t];
    f.x = 0.f;
    for (int j = 0; j < count[t]; ++j)
      f.x += 0.001f * (pos[list[j * n + t]].x - pos[t].x);
    force[t] = f;
  }
}

__global__ void move(int n, float4 *pos, const float4 *force) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    pos[i].x += 0.5f * force[i].x;
}

// Rebuilds the neighbour list from another one (a list built elsewhere).
__global__ void relist(int n, const int *from_count, const int *from, int *count, int *list) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    count[t] = from_count[t];
    for (int j = 0; j < kColumns; ++j)
      list[j * n + t] = from[j * n + t];
  }
}

// Reads one particle by its number in the program: its array must be as numbered.
__global__ void first_x(const float4 *pos, float *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0)
    *out = pos[0].x;
}

const unsigned char kForcesRoles[] = {1, 3, 1, 129};
const unsigned short kForcesSizes[] = {4, 4, 16, 16};
const irregfix::NumberingKernel kForces = {"forces", nullptr, kForcesRoles, kForcesSizes, 1, 0, -1, 1, 0};
const unsigned char kMoveRoles[] = {129, 1};
const unsigned short kMoveSizes[] = {16, 16};
const irregfix::NumberingKernel kMove = {"move", nullptr, kMoveRoles, kMoveSizes, -1, -1, -1, 1, 0};
const unsigned char kRelistRoles[] = {1, 3, 129, 131};
const unsigned short kRelistSizes[] = {4, 4, 4, 4};
const irregfix::NumberingKernel kRelist = {"relist", nullptr, kRelistRoles, kRelistSizes, -1, -1, -1, 1, 0};
const unsigned char kFirstRoles[] = {4, 132};
const unsigned short kFirstSizes[] = {16, 4};
const irregfix::NumberingKernel kFirst = {"first_x", nullptr, kFirstRoles, kFirstSizes, -1, -1, -1, 1, 0};

// n particles at x = i, each with the neighbours within 4 places, numbered at
// random (shuffled) or in order.
struct Line {
  int n = 0;
  std::vector<float4> pos;
  std::vector<int> count, list;
  Line(int n, bool shuffled, unsigned seed = 7)
      : n(n), pos(n), count(n, 0), list(static_cast<size_t>(n) * kColumns, -1) {
    std::vector<int> id(n);
    std::iota(id.begin(), id.end(), 0);
    if (shuffled)
      std::shuffle(id.begin(), id.end(), std::mt19937(seed));
    for (int i = 0; i < n; ++i) {
      pos[id[i]] = make_float4(static_cast<float>(i), 0.f, 0.f, 0.f);
      for (int d = -kColumns / 2; d <= kColumns / 2; ++d)
        if (d != 0 && i + d >= 0 && i + d < n)
          list[static_cast<size_t>(count[id[i]]++) * n + id[i]] = id[i + d];
    }
  }
};

class DomainTest : public DeviceTest {
protected:
  // `steps` of forces and move, hooked as the tool hooks them or not; the
  // positions as the program reads them back.
  std::vector<float4> run(const Line &l, int steps, bool hooked, float *first = nullptr) {
    float4 *pos = upload(l.pos), *force = upload(std::vector<float4>(l.n));
    const int *count = upload(l.count), *list = upload(l.list);
    const int blocks = (l.n + 255) / 256;
    for (int s = 0; s < steps; ++s) {
      if (hooked)
        irregfix::numbered_launch(kForces, l.n, 0, {count, list, pos, force});
      forces<<<blocks, 256>>>(l.n, count, list, pos, force);
      if (hooked)
        irregfix::numbered_launch(kMove, l.n, 0, {pos, force});
      move<<<blocks, 256>>>(l.n, pos, force);
    }
    if (first) {
      float *out = upload(std::vector<float>(1));
      if (hooked)
        irregfix::numbered_launch(kFirst, 0, 0, {pos, out});
      first_x<<<1, 32>>>(pos, out);
      *first = download(out, 1)[0];
    }
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    if (hooked)
      irregfix_host_access(pos);
    return download(pos, l.n);
  }
};

bool same_bits(const std::vector<float4> &a, const std::vector<float4> &b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float4)) == 0;
}

TEST_F(DomainTest, RenumberedLaunchesGiveTheOriginalsResultsBitForBit) {
  const Line l(1 << 14, true);
  irregfix::testing::set_domain(-1);
  const std::vector<float4> original = run(l, 20, false);
  irregfix::testing::set_domain(0); // auto: the shuffled line reads far apart
  const std::vector<float4> renumbered = run(l, 20, true);
  EXPECT_TRUE(same_bits(original, renumbered));
  const irregfix::testing::DomainCounters c = irregfix::testing::domain_counters();
  EXPECT_TRUE(c.formed);
  EXPECT_EQ(c.renumbered_launches, 38); // auto watches the first step, in which nothing reads the arrays as numbered
  EXPECT_EQ(c.renumbers, 4); // count, list, pos, force: once each
  EXPECT_GE(c.restores, 1);  // pos, for the copy back
}

TEST_F(DomainTest, AnArrayReadByOtherIndicesIsRestoredFirst) {
  const Line l(1 << 14, true);
  irregfix::testing::set_domain(-1);
  float want = 0.f, got = 1.f;
  const std::vector<float4> original = run(l, 3, false, &want);
  irregfix::testing::set_domain(1);
  const std::vector<float4> renumbered = run(l, 3, true, &got);
  EXPECT_EQ(want, got);
  EXPECT_TRUE(same_bits(original, renumbered));
}

TEST_F(DomainTest, ALibraryCallRestoresEveryArray) {
  const Line l(1 << 12, true);
  irregfix::testing::set_domain(1);
  float4 *pos = upload(l.pos), *force = upload(std::vector<float4>(l.n));
  const int *count = upload(l.count), *list = upload(l.list);
  irregfix::numbered_launch(kForces, l.n, 0, {count, list, pos, force});
  forces<<<(l.n + 255) / 256, 256>>>(l.n, count, list, pos, force);
  ASSERT_TRUE(irregfix::testing::domain_counters().formed);
  irregfix_host_access(nullptr);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  // As numbered again: the positions as uploaded, the list's numbers too.
  EXPECT_TRUE(same_bits(download(pos, l.n), l.pos));
  EXPECT_EQ(download(list, l.list.size()), l.list);
}

// The line's neighbour lists as the host model of the sampled measure reads them.
order_reference::Graph graph_of(const Line &l) {
  order_reference::Graph g;
  for (int t = 0; t < l.n; ++t) {
    std::vector<long long> row;
    for (int j = 0; j < l.count[t]; ++j)
      row.push_back(l.list[static_cast<size_t>(j) * l.n + t]);
    g.add(row);
  }
  return g;
}

TEST_F(DomainTest, TheGraphIsMeasuredAsTheSampleReadsIt) {
  const Line l(1 << 14, true);
  irregfix::testing::set_domain(1);
  run(l, 1, true);
  const double want = order_reference::sampled_sectors(graph_of(l), {}, 2, 0, l.n); // float4: two a sector
  EXPECT_GT(want, 0.3);
  EXPECT_DOUBLE_EQ(irregfix::testing::domain_counters().sectors_as_numbered, want);
}

// The order is measured as renumbered launches read the graph: threads in the
// order, and the elements they read numbered by it.
TEST_F(DomainTest, TheOrderIsMeasuredAsRenumberedLaunchesReadTheGraph) {
  const Line l(1 << 14, true);
  irregfix::testing::set_domain(1);
  run(l, 1, true);
  const order_reference::Graph g = graph_of(l);
  const std::vector<int> perm = order_reference::order(g, irregfix::detail::kDomainRegionDefault);
  std::vector<int> inv(perm.size());
  for (std::size_t p = 0; p < perm.size(); ++p)
    inv[static_cast<std::size_t>(perm[p])] = static_cast<int>(p);
  const double want = order_reference::sampled_sectors(g, perm, 2, 0, l.n, inv);
  EXPECT_LT(want, order_reference::sampled_sectors(g, perm, 2, 0, l.n)) << "renumbered elements lie nearer";
  EXPECT_DOUBLE_EQ(irregfix::testing::domain_counters().sectors_in_order, want);
}

// A list rebuilt at every step (as MD rebuilds its neighbour list): the order
// is measured on the new list at ever longer intervals while it stays good,
// and computed again at the first check after it has decayed.
TEST_F(DomainTest, ARebuiltGraphIsCheckedAtLongerIntervalsAndOrderedAgainWhenItDecays) {
  const Line l(1 << 14, true), other(1 << 14, true, 99);
  irregfix::testing::set_domain(1);
  float4 *pos = upload(l.pos), *force = upload(std::vector<float4>(l.n));
  const int *same_count = upload(l.count), *same = upload(l.list);
  const int *other_count = upload(other.count), *shuffled = upload(other.list);
  int *count = upload(l.count), *list = upload(l.list);
  const int blocks = (l.n + 255) / 256;
  auto step = [&](const int *from_count, const int *from) {
    irregfix::numbered_launch(kRelist, l.n, 0, {from_count, from, count, list});
    relist<<<blocks, 256>>>(l.n, from_count, from, count, list);
    irregfix::numbered_launch(kForces, l.n, 0, {count, list, pos, force});
    forces<<<blocks, 256>>>(l.n, count, list, pos, force);
  };
  irregfix::numbered_launch(kForces, l.n, 0, {count, list, pos, force});
  forces<<<blocks, 256>>>(l.n, count, list, pos, force);
  for (int s = 0; s < 40; ++s)
    step(same_count, same);
  irregfix::testing::DomainCounters c = irregfix::testing::domain_counters();
  ASSERT_TRUE(c.formed) << irregfix::testing::stats_report();
  EXPECT_EQ(c.orders, 1);
  EXPECT_EQ(c.graph_changes, 40);
  EXPECT_EQ(c.graph_checks, 5) << "measured at the 1st, 3rd, 7th, 15th and 31st change";
  // Another graph altogether: the next check, at the 47th change, finds the
  // order decayed and computes another.
  for (int s = 0; s < 6; ++s)
    step(other_count, shuffled);
  EXPECT_EQ(irregfix::testing::domain_counters().orders, 1);
  step(other_count, shuffled);
  c = irregfix::testing::domain_counters();
  EXPECT_EQ(c.graph_checks, 6);
  EXPECT_EQ(c.orders, 2) << irregfix::testing::stats_report();
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  // Every array as the program numbers it; the forces are the other list's.
  irregfix_host_access(nullptr);
  EXPECT_EQ(download(list, other.list.size()), other.list);
  float4 *want = upload(std::vector<float4>(l.n));
  forces<<<blocks, 256>>>(l.n, other_count, shuffled, pos, want);
  EXPECT_TRUE(same_bits(download(force, l.n), download(want, l.n)));
}

// Under auto, `steps` of forces, each followed (in the steps `read_at`
// says) by a kernel that reads the positions as numbered.
void forces_then_read(const Line &l, int steps, bool (*read_at)(int), DeviceTest &t) {
  irregfix::testing::set_domain(0);
  float4 *pos = t.upload(l.pos), *force = t.upload(std::vector<float4>(l.n));
  const int *count = t.upload(l.count), *list = t.upload(l.list);
  float *out = t.upload(std::vector<float>(1));
  static const unsigned char roles[] = {4, 132};
  static const unsigned short sizes[] = {16, 4};
  static const irregfix::NumberingKernel first = {
      "first_x", "it compares element number 'i' with a value that is none", roles, sizes, -1, -1, -1, 1, 0};
  for (int s = 0; s < steps; ++s) {
    irregfix::numbered_launch(kForces, l.n, 0, {count, list, pos, force});
    forces<<<(l.n + 255) / 256, 256>>>(l.n, count, list, pos, force);
    if (read_at(s)) {
      irregfix::numbered_launch(first, 0, 0, {pos, out});
      first_x<<<1, 32>>>(pos, out);
    }
  }
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

// A launch that reads the graph launch's arrays as numbered between every two
// of its launches would move them back every round: auto forms no domain.
TEST_F(DomainTest, AutoFormsNoDomainThatWouldMoveEveryRound) {
  forces_then_read(Line(1 << 14, true), 4, [](int) { return true; }, *this);
  const irregfix::testing::DomainCounters c = irregfix::testing::domain_counters();
  EXPECT_FALSE(c.formed);
  EXPECT_EQ(c.renumbers, 0);
  EXPECT_NE(irregfix::testing::stats_report().find("'first_x' (it compares"), std::string::npos)
      << irregfix::testing::stats_report();
}

// Such a read in the first round only (a start-up step) does not keep the
// domain from forming.
TEST_F(DomainTest, AReadAsNumberedAtStartUpOnlyStillFormsTheDomain) {
  forces_then_read(Line(1 << 14, true), 4, [](int s) { return s == 0; }, *this);
  EXPECT_TRUE(irregfix::testing::domain_counters().formed) << irregfix::testing::stats_report();
}

TEST_F(DomainTest, AutoLeavesAWellNumberedGraphAlone) {
  const Line l(1 << 14, false);
  irregfix::testing::set_domain(0);
  run(l, 2, true);
  const irregfix::testing::DomainCounters c = irregfix::testing::domain_counters();
  EXPECT_FALSE(c.formed);
  EXPECT_EQ(c.renumbered_launches, 0);
  EXPECT_NE(irregfix::testing::stats_report().find("not formed"), std::string::npos);
}

// The forces as the tool rewrites them for a neighbour site: pos read through
// the site's copy.
__global__ void forces_view(int n, const int *count, const float4 *pos, float4 *force, irregfix::View v,
                            const float4 *pos_c) {
  const long long p = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  int t = static_cast<int>(irregfix::logical_thread(v, p));
  if (t < n) {
    float4 f = pos[t];
    f.x = 0.f;
    for (int j = 0; j < count[t]; ++j)
      f.x += 0.001f * (pos_c[irregfix::neighbor_slot(v, p, j)].x - pos[t].x);
    force[t] = f;
  }
}

// The launcher the tool writes for that site.
void forces_launch(const irregfix::SiteInfo &site, int n, const int *count, const int *list, const float4 *pos,
                   float4 *force) {
  irregfix::View v;
  const void *out[1];
  const dim3 grid((n + 255) / 256), block(256);
  if (irregfix::begin_launch(site, 0, grid, block) &&
      irregfix::prepare_neighbors(site, list, irregfix::index_kind(list), n, 1, kColumns, count,
                                  irregfix::index_kind(count), n, pos, sizeof(float4), &v, out, 0)) {
    forces_view<<<grid, block>>>(n, count, pos, force, v, static_cast<const float4 *>(out[0]));
    irregfix::end_transformed_launch(site, 0);
    return;
  }
  forces<<<grid, block>>>(n, count, list, pos, force);
  irregfix::end_original_launch(site, 0);
}

// A neighbour site whose launches profile after the program-wide renumbering
// measured their graph as numbered and declined it takes that measure: no
// second pass over the same list to learn that no copy can gather better.
TEST_F(DomainTest, ANeighbourSiteTakesTheDeclinedGraphsMeasure) {
  const Line l(1 << 14, false);
  irregfix::testing::set_domain(0);
  irregfix::testing::set_layout(0);
  const irregfix::SiteInfo site{"domain:forces", "forces", "neighbors", irregfix::kSitePermutable};
  float4 *pos = upload(l.pos), *force = upload(std::vector<float4>(l.n));
  const int *count = upload(l.count), *list = upload(l.list);
  const int blocks = (l.n + 255) / 256;
  for (int s = 0; s < 6; ++s) {
    irregfix::numbered_launch(kForces, l.n, 0, {count, list, pos, force});
    if (s < 3) // the site's launcher is reached once the domain has decided
      forces<<<blocks, 256>>>(l.n, count, list, pos, force);
    else
      forces_launch(site, l.n, count, list, pos, force);
    irregfix::numbered_launch(kMove, l.n, 0, {pos, force});
    move<<<blocks, 256>>>(l.n, pos, force);
  }
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  irregfix_host_access(pos);
  const irregfix::testing::DomainCounters c = irregfix::testing::domain_counters();
  ASSERT_FALSE(c.formed);
  ASSERT_GE(c.sectors_as_numbered, 0.0);
  ASSERT_LT(c.sectors_as_numbered, 0.1) << "a line numbered in order reads near elements";
  const irregfix::testing::SiteCounters sc = irregfix::testing::site_counters("domain:forces");
  EXPECT_EQ(sc.launches, 0);
  EXPECT_EQ(sc.remaps, 0);
  EXPECT_NE(sc.last_fallback.find("the program-wide renumbering's measure of its graph"), std::string::npos)
      << irregfix::testing::stats_report();
  EXPECT_TRUE(same_bits(download(pos, l.n), run(l, 6, false)));
}

// A sparse matrix's rows (CSR): the product reads each row in its order, and
// a dot product sums its elements (roles as test/renumber/rows.cu writes them).
__global__ void product(int n, const int *starts, const int *columns, const float *values, const float *x,
                        float *y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n) {
    float sum = 0.0f;
    for (int k = starts[row]; k < starts[row + 1]; ++k)
      sum += values[k] * x[columns[k]];
    y[row] = sum;
  }
}

__global__ void combine(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i] + a * y[i];
}

const unsigned char kProductRoles[] = {8, 18, 16, 1, 129};
const unsigned short kProductSizes[] = {4, 4, 4, 4, 4};
const irregfix::NumberingKernel kProduct = {"product", nullptr, kProductRoles, kProductSizes, 1, -1, 0, 1, 0};
const unsigned char kCombineRoles[] = {1, 129};
const unsigned short kCombineSizes[] = {4, 4};
const irregfix::NumberingKernel kCombine = {"combine", nullptr, kCombineRoles, kCombineSizes, -1, -1, -1, 1, 0};

// A square sparse matrix for the rows' tests: entries' values from their row
// and column (so that a misplaced entry shows), rows numbered at random or in
// order (`at[r]`: the point row r stands for).
struct Matrix {
  int n = 0;
  std::vector<int> starts{0}, columns;
  std::vector<float> values, x;
  std::vector<int> id, at; // point -> row, row -> point
  Matrix(int rows, bool shuffled, unsigned seed) : n(rows), x(rows), id(rows), at(rows) {
    std::iota(id.begin(), id.end(), 0);
    if (shuffled)
      std::shuffle(id.begin(), id.end(), std::mt19937(seed));
    for (int g = 0; g < n; ++g)
      at[id[g]] = g;
  }
  void add(int r, int c, int column) {
    columns.push_back(column);
    values.push_back(1.0f + 0.001f * static_cast<float>((r * 7 + c * 13) % 1000));
  }
  void end_row(int r) {
    starts.push_back(static_cast<int>(columns.size()));
    x[r] = 0.01f * static_cast<float>(r % 101);
  }
};

// A 2-D grid's five-point stencil, side x side rows of 3 to 5 entries;
// `wide`: columns up to twice the rows (not square).
struct Stencil : Matrix {
  Stencil(int side, bool shuffled, bool wide = false) : Matrix(side * side, shuffled, 11) {
    for (int r = 0; r < n; ++r) {
      const int g = at[r], gx = g % side, gy = g / side;
      const int near[5][2] = {{gx, gy - 1}, {gx - 1, gy}, {gx, gy}, {gx + 1, gy}, {gx, gy + 1}};
      for (const auto &p : near)
        if (p[0] >= 0 && p[0] < side && p[1] >= 0 && p[1] < side) {
          const int c = id[p[1] * side + p[0]];
          add(r, c, wide && c == r ? n + r % n : c);
        }
      end_row(r);
    }
  }
};

// The rows' fixtures: what a program reads back after `steps` of p = A p
// scaled back (product into q, then p = q + 0.5 p): p, the values and the columns.
class MatrixDomainTest : public DeviceTest {
protected:
  struct Out {
    std::vector<float> p, values;
    std::vector<int> columns;
  };
  Out read_back(const Matrix &m, const float *p, const float *values, const int *columns, bool hooked) {
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    if (hooked) {
      irregfix_host_access(p);
      irregfix_host_access(values);
      irregfix_host_access(columns);
    }
    return {download(p, m.n), download(values, m.values.size()), download(columns, m.columns.size())};
  }
};

// Rows of 0 to 70 entries (none at all, within a warp's 32, past two warps'
// worth) over a count of rows that is no multiple of 32, columns anywhere.
struct RaggedRows : Matrix {
  explicit RaggedRows(int rows) : Matrix(rows, false, 5) {
    std::mt19937 rng(29);
    for (int r = 0; r < n; ++r) {
      const int len = r % 9 == 0 ? 33 + r % 38 : r % 6; // short on average: an order serves them
      for (int c = 0; c < len; ++c)
        add(r, c, static_cast<int>(rng() % static_cast<unsigned>(n)));
      end_row(r);
    }
  }
};

class RowsDomainTest : public MatrixDomainTest {
protected:
  Out run(const Matrix &m, int steps, bool hooked) {
    const int *starts = upload(m.starts), *columns = upload(m.columns);
    const float *values = upload(m.values);
    std::vector<float> wide_x(m.x);
    wide_x.resize(2 * static_cast<size_t>(m.n), 0.f);
    float *p = upload(wide_x), *q = upload(std::vector<float>(m.n));
    const int blocks = (m.n + 255) / 256;
    for (int s = 0; s < steps; ++s) {
      if (hooked)
        irregfix::numbered_launch(kProduct, m.n, 0, {starts, columns, values, p, q});
      product<<<blocks, 256>>>(m.n, starts, columns, values, p, q);
      if (hooked)
        irregfix::numbered_launch(kCombine, m.n, 0, {q, p});
      combine<<<blocks, 256>>>(m.n, 0.5f, q, p);
    }
    return read_back(m, p, values, columns, hooked);
  }

  // Auto leaves band matrix m as numbered, told from a sample of its rows read
  // to the host (no kernel over the rows), and the report says `said`.
  void expectBandToldFromTheSample(const Matrix &m, const std::string &said) {
    irregfix::testing::set_domain(-1);
    const Out original = run(m, 4, false);
    irregfix::testing::set_domain(0);
    const Out hooked = run(m, 4, true);
    const irregfix::testing::DomainCounters c = irregfix::testing::domain_counters();
    EXPECT_FALSE(c.formed);
    EXPECT_EQ(c.renumbered_launches, 0);
    EXPECT_EQ(c.row_passes, 0);
    EXPECT_NE(irregfix::testing::stats_report().find(said), std::string::npos) << irregfix::testing::stats_report();
    EXPECT_EQ(0, std::memcmp(original.p.data(), hooked.p.data(), original.p.size() * sizeof(float)));
  }
};

TEST_F(RowsDomainTest, RenumberedRowsGiveTheOriginalsResultsBitForBit) {
  const Stencil m(128, true);
  irregfix::testing::set_domain(-1);
  const Out original = run(m, 10, false);
  irregfix::testing::set_domain(0); // auto: the shuffled grid reads far apart
  const Out renumbered = run(m, 10, true);
  const irregfix::testing::DomainCounters c = irregfix::testing::domain_counters();
  EXPECT_TRUE(c.formed) << irregfix::testing::stats_report();
  EXPECT_EQ(c.renumbered_launches, 18); // auto watches the first round, in which nothing reads the arrays as numbered
  EXPECT_EQ(c.row_passes, 1);           // the sample is no band: one pass checks the matrix is square
  EXPECT_EQ(0, std::memcmp(original.p.data(), renumbered.p.data(), original.p.size() * sizeof(float)));
  // The matrix as the program wrote it, after a round trip through the order.
  EXPECT_EQ(renumbered.values, m.values);
  EXPECT_EQ(renumbered.columns, m.columns);
}

// A move carries each row whole, whatever its length: the matrix and the
// results come back as the program wrote and computed them.
TEST_F(RowsDomainTest, RowsOfEveryLengthMoveWholeAndComeBack) {
  const RaggedRows m(3001);
  irregfix::testing::set_domain(-1);
  const Out original = run(m, 4, false);
  irregfix::testing::set_domain(1); // formed, however near its reads lie
  const Out renumbered = run(m, 4, true);
  EXPECT_TRUE(irregfix::testing::domain_counters().formed) << irregfix::testing::stats_report();
  EXPECT_EQ(0, std::memcmp(original.p.data(), renumbered.p.data(), original.p.size() * sizeof(float)));
  EXPECT_EQ(renumbered.values, m.values);
  EXPECT_EQ(renumbered.columns, m.columns);
}

// A grid numbered row by row reads a row of the grid apart at most: auto
// leaves it as numbered, from a sample of its rows, without the measure.
// A dot product in float, grid-stride: another numbering would regroup its
// sums. The tool launches its variant (test/renumber/rows.cu), which reads
// each element where the runtime keeps it: the same terms in the same order.
__global__ void dot(int n, const float *u, const float *v, float *partial) {
  float acc = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    acc += u[i] * v[i];
  partial[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

__global__ void dot_irregfix_at(int n, const float *u, const float *v, float *partial,
                                const int *__restrict__ __irregfix_at) {
  float acc = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    acc += u[irregfix::element_at(__irregfix_at, i)] * v[irregfix::element_at(__irregfix_at, i)];
  partial[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

const unsigned char kDotRoles[] = {1, 1, 132};
const unsigned short kDotSizes[] = {4, 4, 4};
const irregfix::NumberingKernel kDot = {"dot", nullptr, kDotRoles, kDotSizes, -1, -1, -1, 1, 1};

// The partial sums of every round's dot product of p and q, the product and
// its combine around it, hooked (and the dot product launched as the tool
// launches its variant) or not; `positioned`: the rounds the variant read
// through the order.
class ThroughOrderDomainTest : public RowsDomainTest {
protected:
  std::vector<float> dot_rounds(const Stencil &m, int rounds, bool hooked, int *positioned) {
    const int threads = 64 * 256;
    const int *starts = upload(m.starts), *columns = upload(m.columns);
    const float *values = upload(m.values);
    float *p = upload(m.x), *q = upload(std::vector<float>(m.n)), *partial = upload(std::vector<float>(threads));
    std::vector<float> all;
    for (int s = 0; s < rounds; ++s) {
      if (hooked)
        irregfix::numbered_launch(kProduct, m.n, 0, {starts, columns, values, p, q});
      product<<<(m.n + 255) / 256, 256>>>(m.n, starts, columns, values, p, q);
      if (hooked) {
        irregfix::numbered_launch(kDot, m.n, 0, {p, q, partial});
        const int *at = irregfix::numbered_positions();
        *positioned += at != nullptr;
        dot_irregfix_at<<<64, 256>>>(m.n, p, q, partial, at);
      } else {
        dot<<<64, 256>>>(m.n, p, q, partial);
      }
      if (hooked)
        irregfix::numbered_launch(kCombine, m.n, 0, {q, p});
      combine<<<(m.n + 255) / 256, 256>>>(m.n, 0.5f, q, p);
      EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      if (hooked)
        irregfix_host_access(partial);
      const std::vector<float> round = download(partial, threads);
      all.insert(all.end(), round.begin(), round.end());
    }
    return all;
  }
};

// Every round's dot product of p and q while the domain keeps them in the
// rows' order: bit for bit the original's, and no array moved back for it.
// (Formed by request: auto declines a matrix this small, below.)
TEST_F(ThroughOrderDomainTest, ADotProductReadThroughTheOrderSumsAsTheOriginal) {
  const Stencil m(128, true);
  const int rounds = 8;
  int positioned = 0;
  irregfix::testing::set_domain(-1);
  const std::vector<float> original = dot_rounds(m, rounds, false, &positioned);
  irregfix::testing::set_domain(1);
  const std::vector<float> through = dot_rounds(m, rounds, true, &positioned);
  const irregfix::testing::DomainCounters c = irregfix::testing::domain_counters();
  ASSERT_TRUE(c.formed) << irregfix::testing::stats_report();
  EXPECT_EQ(positioned, rounds);
  EXPECT_EQ(c.restores, 0) << irregfix::testing::stats_report();
  ASSERT_EQ(original.size(), through.size());
  EXPECT_EQ(0, std::memcmp(original.data(), through.data(), original.size() * sizeof(float)));
}

// Under auto, a program whose sums read through the order is renumbered only
// where its matrix streams through more than the L2 holds: a small one's
// scattered reads hit the L2 as numbered, and the sums' gathers would cost
// more than the order saves.
TEST_F(ThroughOrderDomainTest, AutoKeepsTheNumberingWhereTheSumsGatherAndTheL2HoldsTheRows) {
  const Stencil m(128, true);
  const int rounds = 8;
  int positioned = 0;
  irregfix::testing::set_domain(-1);
  const std::vector<float> original = dot_rounds(m, rounds, false, &positioned);
  irregfix::testing::set_domain(0);
  const std::vector<float> hooked = dot_rounds(m, rounds, true, &positioned);
  const irregfix::testing::DomainCounters c = irregfix::testing::domain_counters();
  EXPECT_FALSE(c.formed);
  EXPECT_EQ(positioned, 0);
  EXPECT_NE(irregfix::testing::stats_report().find("sums read through the order, and 'product' streams its rows"),
            std::string::npos)
      << irregfix::testing::stats_report();
  EXPECT_EQ(0, std::memcmp(original.data(), hooked.data(), original.size() * sizeof(float)));
}

TEST_F(RowsDomainTest, AutoLeavesABandMatrixAloneWithoutMeasuringIt) {
  expectBandToldFromTheSample(Stencil(256, false), "100% of 'product''s columns lie within 1024 of their row");
}

TEST_F(RowsDomainTest, ColumnsPastTheRowsKeepTheNumbering) {
  const Stencil m(64, true, true);
  irregfix::testing::set_domain(-1);
  const Out original = run(m, 3, false);
  irregfix::testing::set_domain(1);
  const Out renumbered = run(m, 3, true);
  const irregfix::testing::DomainCounters c = irregfix::testing::domain_counters();
  EXPECT_FALSE(c.formed);
  EXPECT_NE(irregfix::testing::stats_report().find("not a square matrix"), std::string::npos)
      << irregfix::testing::stats_report();
  EXPECT_EQ(0, std::memcmp(original.p.data(), renumbered.p.data(), original.p.size() * sizeof(float)));
}

TEST_F(RowsDomainTest, AHostWriteOfTheColumnsBringsTheRowsBack) {
  const Stencil m(64, true);
  irregfix::testing::set_domain(1);
  const int *starts = upload(m.starts);
  int *columns = upload(m.columns);
  const float *values = upload(m.values);
  float *p = upload(m.x), *q = upload(std::vector<float>(m.n));
  irregfix::numbered_launch(kProduct, m.n, 0, {starts, columns, values, p, q});
  product<<<(m.n + 255) / 256, 256>>>(m.n, starts, columns, values, p, q);
  ASSERT_TRUE(irregfix::testing::domain_counters().formed);
  irregfix_host_access(columns); // as a cudaMemcpy into them would be hooked
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(download(starts, m.starts.size()), m.starts);
  EXPECT_EQ(download(columns, m.columns.size()), m.columns);
  EXPECT_EQ(download(values, m.values.size()), m.values);
}


// The rows read a warp (or four lanes) a row, as test/renumber/lanes.cu's
// kernels: the group's index is the row, its lanes stride the row's segment
// and a shuffle reduction hands the row's sum to lane 0 (or, a butterfly, to
// every lane). Another numbering hands each group another row, summed by the
// same lanes in the same order.
__global__ void warp_product(int n, const int *starts, const int *columns, const float *values, const float *x,
                             float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int row = t / 32;
  int lane = t & 31;
  if (row < n) {
    float s = 0.0f;
    for (int k = starts[row] + lane; k < starts[row + 1]; k += 32)
      s += values[k] * x[columns[k]];
    for (int o = 16; o > 0; o >>= 1)
      s += __shfl_down_sync(0xffffffff, s, o);
    if (lane == 0)
      y[row] = s;
  }
}

__global__ void quad_product(int n, const int *starts, const int *columns, const float *values, const float *x,
                             float *y) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = t >> 2, lane = threadIdx.x % 4;
  if (row < n) {
    const int first = starts[row], last = starts[row + 1];
    float s = 0.0f;
    for (int k = first + lane; k < last; k += 4)
      s += values[k] * x[columns[k]];
    s += __shfl_xor_sync(0xffffffff, s, 2);
    s += __shfl_xor_sync(0xffffffff, s, 1);
    y[row] = s;
  }
}

// Eight lanes a row, the whole warp reducing (rows past n included), lane 0's
// sum broadcast to the group and stored by every lane under the guard.
__global__ void octet_product(int n, const int *starts, const int *columns, const float *values, const float *x,
                              float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int row = t / 8, lane = t % 8;
  float s = 0.0f;
  if (row < n)
    for (int k = starts[row] + lane; k < starts[row + 1]; k += 8)
      s += values[k] * x[columns[k]];
  for (int o = 4; o > 0; o /= 2)
    s += __shfl_down_sync(0xffffffff, s, o);
  s = __shfl_sync(0xffffffff, s, 0, 8);
  if (row < n)
    y[row] = s;
}

// Four lanes a row as a block's row of threads in x (blocks of 4 x 64
// threads): the row is blockIdx.x * blockDim.y + threadIdx.y, the lane
// threadIdx.x; lane 0 stores the sum its group's down exchange hands it.
__global__ void block_rows_product(int n, const int *starts, const int *columns, const float *values, const float *x,
                                   float *y) {
  const int row = blockIdx.x * blockDim.y + threadIdx.y;
  if (row < n) {
    float s = 0.0f;
    for (int k = starts[row] + threadIdx.x; k < starts[row + 1]; k += 4)
      s += values[k] * x[columns[k]];
    for (int o = 2; o > 0; o >>= 1)
      s += __shfl_down_sync(0xffffffff, s, o, 4);
    if (threadIdx.x == 0)
      y[row] = s;
  }
}
constexpr int kBlockRows = 64; // block_rows_product's rows a block

const irregfix::NumberingKernel kWarpProduct = {"warp_product", nullptr, kProductRoles, kProductSizes, 1, -1, 0, 32, 0};
const irregfix::NumberingKernel kQuadProduct = {"quad_product", nullptr, kProductRoles, kProductSizes, 1, -1, 0, 4, 0};
const irregfix::NumberingKernel kOctetProduct = {"octet_product", nullptr, kProductRoles, kProductSizes, 1, -1, 0, 8, 0};
const irregfix::NumberingKernel kBlockRowsProduct = {"block_rows_product", nullptr, kProductRoles, kProductSizes,
                                                     1, -1, 0, 4, 0};

// n rows of a band of 2 * half + 1 entries around the diagonal of a ring,
// numbered at random or in order (values from the row and column).
struct Band : Matrix {
  Band(int rows, int half, bool shuffled) : Matrix(rows, shuffled, 5) {
    for (int r = 0; r < n; ++r) {
      for (int d = -half; d <= half; ++d) {
        const int c = id[(at[r] + d + n) % n];
        add(r, c, c);
      }
      end_row(r);
    }
  }
};

// Fewer rows than the sample's runs hold apart: the runs overlap, and every
// row's start is read to the host in one copy.
TEST_F(RowsDomainTest, AutoTellsASmallBandMatrixFromEveryRowsStart) {
  expectBandToldFromTheSample(Band(900, 2, false), "100% of 'product''s columns lie within 14 of their row");
}

class LaneRowsDomainTest : public MatrixDomainTest {
protected:
  // `steps` of p = A p scaled back, the product run `lanes` threads a row
  // (in_x: a block's row of threads in x a row).
  Out run(const Matrix &m, int lanes, int steps, bool hooked, bool in_x = false) {
    const int *starts = upload(m.starts), *columns = upload(m.columns);
    const float *values = upload(m.values);
    float *p = upload(m.x), *q = upload(std::vector<float>(m.n));
    const irregfix::NumberingKernel &product = in_x         ? kBlockRowsProduct
                                               : lanes == 32 ? kWarpProduct
                                               : lanes == 8  ? kOctetProduct
                                                             : kQuadProduct;
    const int blocks = static_cast<int>((static_cast<long long>(m.n) * lanes + 255) / 256);
    for (int s = 0; s < steps; ++s) {
      if (hooked)
        irregfix::numbered_launch(product, m.n, 0, {starts, columns, values, p, q});
      if (in_x)
        block_rows_product<<<(m.n + kBlockRows - 1) / kBlockRows, dim3(4, kBlockRows)>>>(m.n, starts, columns, values,
                                                                                          p, q);
      else if (lanes == 32)
        warp_product<<<blocks, 256>>>(m.n, starts, columns, values, p, q);
      else if (lanes == 8)
        octet_product<<<blocks, 256>>>(m.n, starts, columns, values, p, q);
      else
        quad_product<<<blocks, 256>>>(m.n, starts, columns, values, p, q);
      if (hooked)
        irregfix::numbered_launch(kCombine, m.n, 0, {q, p});
      combine<<<(m.n + 255) / 256, 256>>>(m.n, 0.5f, q, p);
    }
    return read_back(m, p, values, columns, hooked);
  }
  void expectBitForBit(const Matrix &m, int lanes, int domain, int steps, bool in_x = false) {
    irregfix::testing::set_domain(-1);
    const Out original = run(m, lanes, steps, false, in_x);
    irregfix::testing::reset();
    irregfix::testing::set_domain(domain);
    const Out renumbered = run(m, lanes, steps, true, in_x);
    const irregfix::testing::DomainCounters c = irregfix::testing::domain_counters();
    EXPECT_TRUE(c.formed) << irregfix::testing::stats_report();
    EXPECT_GT(c.renumbered_launches, 0) << irregfix::testing::stats_report();
    EXPECT_EQ(0, std::memcmp(original.p.data(), renumbered.p.data(), original.p.size() * sizeof(float)));
    EXPECT_EQ(renumbered.values, m.values);
    EXPECT_EQ(renumbered.columns, m.columns);
  }
};

TEST_F(LaneRowsDomainTest, AWarpARowGivesTheOriginalsResultsBitForBit) {
  expectBitForBit(Stencil(128, true), 32, 1, 10);
}

// Four lanes over rows of about five entries: auto forms the domain (the shuffled grid reads far apart).
TEST_F(LaneRowsDomainTest, FourLanesARowGiveTheOriginalsResultsBitForBit) {
  expectBitForBit(Stencil(128, true), 4, 0, 10);
}

// 127 * 127 rows: the last warp's groups run past n, and every lane stores lane 0's sum.
TEST_F(LaneRowsDomainTest, EightLanesBroadcastingGiveTheOriginalsResultsBitForBit) {
  expectBitForBit(Stencil(127, true), 8, 1, 10);
}

// Four lanes a row as a block's row of threads in x, over 128 * 128 rows (64 a block).
TEST_F(LaneRowsDomainTest, ABlocksRowsOfLanesGiveTheOriginalsResultsBitForBit) {
  expectBitForBit(Stencil(128, true), 4, 1, 10, true);
}

// A warp a row over rows of about five entries: auto leaves them as numbered.
TEST_F(LaneRowsDomainTest, AutoLeavesAWarpARowOverShortRowsAlone) {
  const Stencil m(128, true);
  irregfix::testing::set_domain(-1);
  const Out original = run(m, 32, 4, false);
  irregfix::testing::reset();
  irregfix::testing::set_domain(0);
  const Out hooked = run(m, 32, 4, true);
  EXPECT_FALSE(irregfix::testing::domain_counters().formed);
  EXPECT_NE(irregfix::testing::stats_report().find("runs 32 lanes a row over rows of 5.0 entries"), std::string::npos)
      << irregfix::testing::stats_report();
  EXPECT_EQ(0, std::memcmp(original.p.data(), hooked.p.data(), original.p.size() * sizeof(float)));
}

// Rows of 65 entries: a thread-a-row product leaves them to the warp-cooperative
// layout, a kernel that already runs a warp a row is ordered.
TEST_F(LaneRowsDomainTest, LongRowsAreOrderedForAWarpARow) {
  const Band m(1 << 14, 32, true);
  expectBitForBit(m, 32, 1, 4);
  irregfix::testing::reset();
  irregfix::testing::set_domain(1);
  const int *starts = upload(m.starts), *columns = upload(m.columns);
  const float *values = upload(m.values);
  float *p = upload(m.x), *q = upload(std::vector<float>(m.n));
  irregfix::numbered_launch(kProduct, m.n, 0, {starts, columns, values, p, q});
  product<<<(m.n + 255) / 256, 256>>>(m.n, starts, columns, values, p, q);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_FALSE(irregfix::testing::domain_counters().formed);
  EXPECT_NE(irregfix::testing::stats_report().find("several lanes a row"), std::string::npos)
      << irregfix::testing::stats_report();
}

} // namespace
