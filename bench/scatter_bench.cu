// Irregular reductions: the transposed SpMV scatter y[col[k]] += val[k] * x[row[k]]
// (one thread a non-zero), and an edge flux on a mesh adding to both ends of
// each edge (two updates a thread), through atomics (the original kernel) against the
// runtime's inspector-executor (the variant writing contributions, then the
// executor), on a matrix whose columns are uniform, on one whose column
// counts follow a power law (a few columns take most updates), and on a mesh. Medians of
// --reps runs by CUDA events after a warm-up; x rotates over 4 vectors. Prints,
// per matrix, the atomics, the executor with its segments cached, the
// inspector (a launch after f changed), the largest segment, the result's
// distance from a double-precision reference, whether two executor runs agree
// bit for bit, and what the selector (auto) keeps after 64 launches.
//   irregfix_scatter_bench [--rows N] [--per-row D] [--reps R]
#include <irregfix/irregfix.cuh>
#include <irregfix/testing.h>

#include "bench_support.cuh"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

__global__ void spmv_t(int nnz, const int *row, const int *col, const float *val, const float *x, float *y) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < nnz)
    atomicAdd(&y[col[k]], val[k] * x[row[k]]);
}

// What irregfix generates for it (test/rewrite/scatter-atomic.cu).
__global__ void spmv_t_irregfix(int nnz, const int *row, const int *col, const float *val, const float *x, float *y,
                                float *__restrict__ contrib, const int *__restrict__ slots) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < nnz)
    contrib[slots[k]] = (val[k] * x[row[k]]);
}

const irregfix::SiteInfo kSite = {"scatter_bench.cu:30:5", "spmv_t", "scatter", 0, nullptr, "y,col"};

// Two updates a thread: edge k of a mesh (row[k], col[k]) adds its flux to both ends.
__global__ void edge_flux(int edges, const int *a, const int *b, const float *w, const float *x, float *y) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < edges) {
    const float flux = w[k] * (x[b[k]] - x[a[k]]);
    atomicAdd(&y[a[k]], flux);
    atomicAdd(&y[b[k]], -flux);
  }
}

// What irregfix generates for it (test/rewrite/scatter-two-updates.cu).
__global__ void edge_flux_irregfix(int edges, const int *a, const int *b, const float *w, const float *x, float *y,
                                   float *__restrict__ contrib, const int *__restrict__ slots) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < edges) {
    const float flux = w[k] * (x[b[k]] - x[a[k]]);
    contrib[slots[(k) * 2 + 0]] = (flux);
    contrib[slots[(k) * 2 + 1]] = (-flux);
  }
}

const irregfix::SiteInfo kEdgeSite = {"scatter_bench.cu:edge", "edge_flux", "scatter", 0, nullptr, "y,a,b"};

void launch(int nnz, const int *row, const int *col, const float *val, const float *x, float *y) {
  const dim3 grid((nnz + 255) / 256), block(256);
  irregfix::ScatterPlan plan;
  if (irregfix::begin_launch(kSite, 0, grid, block) && irregfix::disjoint(kSite, y, row) &&
      irregfix::disjoint(kSite, y, col) && irregfix::disjoint(kSite, y, val) && irregfix::disjoint(kSite, y, x) &&
      irregfix::prepare_scatter(kSite, col, irregfix::index_kind(col), (long long)(nnz), y, irregfix::scatter_kind(y),
                                &plan, 0)) {
    spmv_t_irregfix<<<grid, block>>>(nnz, row, col, val, x, y, static_cast<float *>(plan.contrib), plan.slots);
    if (irregfix::execute_scatter(kSite, plan, 0)) {
      irregfix::end_transformed_launch(kSite, 0);
      return;
    }
  }
  spmv_t<<<grid, block>>>(nnz, row, col, val, x, y);
  irregfix::end_original_launch(kSite, 0);
}

void launch_edges(int edges, const int *a, const int *b, const float *w, const float *x, float *y) {
  const dim3 grid((edges + 255) / 256), block(256);
  irregfix::ScatterPlan plan;
  if (irregfix::begin_launch(kEdgeSite, 0, grid, block) && irregfix::disjoint(kEdgeSite, y, a) &&
      irregfix::disjoint(kEdgeSite, y, b) && irregfix::disjoint(kEdgeSite, y, w) &&
      irregfix::disjoint(kEdgeSite, y, x) &&
      irregfix::prepare_scatter(kEdgeSite, irregfix::scatter_indices(a, b), (long long)(edges), y,
                                irregfix::scatter_kind(y), &plan, 0)) {
    edge_flux_irregfix<<<grid, block>>>(edges, a, b, w, x, y, static_cast<float *>(plan.contrib), plan.slots);
    if (irregfix::execute_scatter(kEdgeSite, plan, 0)) {
      irregfix::end_transformed_launch(kEdgeSite, 0);
      return;
    }
  }
  edge_flux<<<grid, block>>>(edges, a, b, w, x, y);
  irregfix::end_original_launch(kEdgeSite, 0);
}

// A matrix, or (edges) a mesh whose edge k joins cells row[k] and col[k].
struct Matrix {
  std::string name;
  bool edges = false;
  int rows = 0, nnz = 0;
  std::vector<int> row, col;
  std::vector<float> val;
};

// rows x rows, per_row non-zeros a row; columns uniform, or col = rows * u^3
// (P(col < c) = (c / rows)^(1/3): column 0 takes rows^(-1/3) of the updates).
Matrix make(const char *name, int rows, int per_row, bool power_law, unsigned seed) {
  Matrix m;
  m.name = name;
  m.rows = rows;
  std::mt19937 r(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < per_row; ++j) {
      const double p = u(r);
      const int c = power_law ? std::min(rows - 1, static_cast<int>(rows * p * p * p)) : static_cast<int>(p * rows) % rows;
      m.row.push_back(i);
      m.col.push_back(c);
      m.val.push_back(static_cast<float>(u(r) - 0.5));
    }
  m.nnz = static_cast<int>(m.row.size());
  return m;
}

template <class T> T *upload(const std::vector<T> &h) {
  T *d = nullptr;
  CK(cudaMalloc(&d, std::max<size_t>(1, h.size() * sizeof(T))));
  CK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

void run(const Matrix &m, int reps) {
  std::mt19937 r(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<std::vector<float>> hx(4, std::vector<float>(m.rows));
  for (auto &v : hx)
    for (float &e : v)
      e = u(r);
  int *row = upload(m.row), *col = upload(m.col);
  float *val = upload(m.val);
  float *x[4];
  for (int i = 0; i < 4; ++i)
    x[i] = upload(hx[i]);
  float *y = upload(std::vector<float>(m.rows, 0.0f));
  int rot = 0;
  auto next_x = [&] { return x[rot++ % 4]; };
  const irregfix::SiteInfo &site = m.edges ? kEdgeSite : kSite;
  // The original kernel, and the launcher irregfix generates.
  auto original = [&](const float *xv) {
    if (m.edges)
      edge_flux<<<(m.nnz + 255) / 256, 256>>>(m.nnz, row, col, val, xv, y);
    else
      spmv_t<<<(m.nnz + 255) / 256, 256>>>(m.nnz, row, col, val, xv, y);
  };
  auto transformed = [&](const float *xv) {
    if (m.edges)
      launch_edges(m.nnz, row, col, val, xv, y);
    else
      launch(m.nnz, row, col, val, xv, y);
  };

  irregfix::testing::reset();
  irregfix::testing::set_deterministic(true);
  const float atomics = median_ms([&] { original(next_x()); }, reps);
  // Segments cached: each launch writes y, which leaves them valid (they depend on col alone).
  const float executor = median_ms([&] { transformed(next_x()); }, reps,
                                   [&](int) { irregfix_invalidate(y); });
  // In a stream of launches, as an iterative program makes them: kStream back
  // to back, so that a launcher's host work overlaps the GPU's; per launch.
  constexpr int kStream = 10;
  const float atomics_stream = median_ms([&] {
    for (int i = 0; i < kStream; ++i)
      original(next_x());
  }, reps) / kStream;
  const float executor_stream = median_ms([&] {
    for (int i = 0; i < kStream; ++i) {
      irregfix_invalidate(y);
      transformed(next_x());
    }
  }, reps, [&](int) { irregfix_invalidate(y); }) / kStream;
  // f changed before each launch: the inspector runs (with its round trips).
  const float inspected = median_ms([&] { transformed(next_x()); }, reps,
                                    [&](int) { irregfix_invalidate(col); irregfix_invalidate(y); });
  const irregfix::testing::SiteCounters c = irregfix::testing::site_counters(site.id);
  const irregfix::testing::ScatterSegments s = irregfix::testing::scatter_segments(site.id);
  int longest = 0;
  for (size_t i = 0; i + 1 < s.first.size(); ++i)
    longest = std::max(longest, s.first[i + 1] - s.first[i]);

  // Accuracy and run-to-run identity, from y = 0 with x[0].
  std::vector<double> ref(m.rows, 0.0);
  for (int k = 0; k < m.nnz; ++k)
    if (m.edges) {
      const double flux = static_cast<double>(m.val[k]) * (hx[0][m.col[k]] - hx[0][m.row[k]]);
      ref[m.row[k]] += flux;
      ref[m.col[k]] -= flux;
    } else {
      ref[m.col[k]] += static_cast<double>(m.val[k]) * hx[0][m.row[k]];
    }
  auto once = [&](bool rewritten) {
    irregfix_invalidate(y);
    CK(cudaMemset(y, 0, m.rows * sizeof(float)));
    irregfix_invalidate(y);
    if (rewritten)
      transformed(x[0]);
    else
      original(x[0]);
    CK(cudaDeviceSynchronize());
    std::vector<float> h(m.rows);
    CK(cudaMemcpy(h.data(), y, m.rows * sizeof(float), cudaMemcpyDeviceToHost));
    return h;
  };
  auto max_error = [&](const std::vector<float> &h) {
    double e = 0;
    for (int i = 0; i < m.rows; ++i)
      e = std::max(e, std::fabs(h[i] - ref[i]) / std::max(1.0, std::fabs(ref[i])));
    return e;
  };
  const std::vector<float> e1 = once(true), e2 = once(true), a1 = once(false), a2 = once(false);
  const bool executor_same = std::memcmp(e1.data(), e2.data(), m.rows * sizeof(float)) == 0;
  const bool atomics_same = std::memcmp(a1.data(), a2.data(), m.rows * sizeof(float)) == 0;

  // Under auto: what the selector keeps, each launch waited for as an
  // iterative program waits for its residual (without it the host enqueues
  // all 64 before the first timings come back, and the selector, which never
  // blocks on them, runs the original meanwhile).
  irregfix::testing::reset();
  for (int i = 0; i < 64; ++i) {
    irregfix_invalidate(y);
    transformed(next_x());
    CK(cudaStreamSynchronize(0));
  }
  CK(cudaDeviceSynchronize());
  const irregfix::testing::SiteCounters a = irregfix::testing::site_counters(site.id);
  if (std::getenv("IRREGFIX_STATS")) // the selector's view of the run under auto
    std::fprintf(stderr, "%s", irregfix::testing::stats_report().c_str());

  std::printf("scatter matrix=%s rows=%d nnz=%d segments=%zu longest=%d | atomics %.4f ms | executor %.4f ms "
              "(%.2fx) | with inspector %.4f ms | executor launches=%lld fallbacks=%lld | max rel error executor "
              "%.2e atomics %.2e | bit-identical runs: executor %s atomics %s | auto after 64: executor %lld, "
              "atomics %lld | in a stream: atomics %.4f ms executor %.4f ms\n",
              m.name.c_str(), m.rows, m.nnz, s.targets.size(), longest, atomics, executor, atomics / executor,
              inspected, c.launches, c.fallbacks, max_error(e1), max_error(a1), executor_same ? "yes" : "no",
              atomics_same ? "yes" : "no", a.launches, a.chosen_original, atomics_stream, executor_stream);
  irregfix::testing::reset();
  for (void *p : {static_cast<void *>(row), static_cast<void *>(col), static_cast<void *>(val),
                  static_cast<void *>(y), static_cast<void *>(x[0]), static_cast<void *>(x[1]),
                  static_cast<void *>(x[2]), static_cast<void *>(x[3])}) {
    irregfix_release(p);
    CK(cudaFree(p));
  }
}

} // namespace

int main(int argc, char **argv) {
  int rows = 1 << 20, per_row = 8, reps = 20;
  std::string only; // --matrix: one of the three inputs
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--rows")
      rows = std::atoi(argv[i + 1]);
    else if (a == "--per-row")
      per_row = std::atoi(argv[i + 1]);
    else if (a == "--reps")
      reps = std::atoi(argv[i + 1]);
    else if (a == "--matrix")
      only = argv[i + 1];
    else {
      std::fprintf(stderr, "usage: irregfix_scatter_bench [--rows N] [--per-row D] [--reps R] "
                           "[--matrix uniform|power-law|mesh-edges]\n");
      return 2;
    }
  }
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device %s\n", prop.name);
  auto wanted = [&](const char *name) { return only.empty() || only == name; };
  if (wanted("uniform"))
    run(make("uniform", rows, per_row, false, 1), reps);
  if (wanted("power-law"))
    run(make("power-law", rows, per_row, true, 2), reps);
  if (wanted("mesh-edges")) {
    // A mesh of `rows` cells with per_row / 2 edges a cell (each edge adds to two cells).
    Matrix mesh = make("mesh-edges", rows, std::max(1, per_row / 2), false, 3);
    mesh.edges = true;
    run(mesh, reps);
  }
  return 0;
}
