// Conjugate gradient on a sparse SPD matrix, with a one-thread-per-row scalar
// CSR SpMV: the paper's CG evaluation program, as plain CUDA.
//
// Precision: the matrix and the vectors are float (the SpMV is memory bound and
// float halves its traffic); dot products accumulate in double and the CG
// scalars (alpha, beta, residual) are computed in double on the host, which
// keeps float CG stable for these diagonally dominant matrices.
//
// Every reduction is deterministic (fixed grid, fixed tree order, no atomics),
// so two runs of the same program give bitwise-identical solutions, and so do
// the original and the irregfix-transformed programs.
//
// With --spmv N it solves nothing and times its SpMV alone instead, N launches
// (the SpMV benchmark of bench/ runs this program, original and transformed).
// With --warp the SpMV runs a warp a row (a vector CSR kernel, its lanes'
// sums combined by shuffles in a fixed order): the tool rewrites none of its
// reads, and it joins the program-wide renumbering by the matrix's rows.
//
//   cg --matrix grid|fem|apache|offshore|grid-shuffled|fem-shuffled|long-rows [--scale S] [--rows N] [--mtx FILE]
//      [--iters N] [--tol T] [--seed S] [--dump FILE]
//      [--spmv N [--flush-l2] [--refresh]] [--warp]
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "matrix.h"

#define SAMPLE_NAME "cg"
#include "../common/sample_support.cuh"

static const int kBlock = 256;
static const int kDotBlocks = 1024; // fixed, so the reduction order never changes

// y = A x, one thread per row.
__global__ void spmv_csr(int n, const int *row_ptr, const int *col, const float *val, const float *x, float *y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n) {
    float sum = 0.0f;
    for (int k = row_ptr[row]; k < row_ptr[row + 1]; ++k)
      sum += val[k] * x[col[k]];
    y[row] = sum;
  }
}

// y = A x, a warp per row: its lanes stride the row, lane 0 stores the sum.
__global__ void spmv_warp(int n, const int *row_ptr, const int *col, const float *val, const float *x, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int row = t / 32;
  int lane = t & 31;
  if (row < n) {
    float sum = 0.0f;
    for (int k = row_ptr[row] + lane; k < row_ptr[row + 1]; k += 32)
      sum += val[k] * x[col[k]];
    for (int o = 16; o > 0; o >>= 1)
      sum += __shfl_down_sync(0xffffffff, sum, o);
    if (lane == 0)
      y[row] = sum;
  }
}

// y += a * x
__global__ void axpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}

// y = x + b * y
__global__ void xpay(int n, const float *x, float b, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] + b * y[i];
}

// First pass of a deterministic dot product: block b writes the sum over its
// grid-stride share of x[i] * y[i], in double, reduced in a fixed tree order.
__global__ void dot_partial(int n, const float *x, const float *y, double *partial) {
  __shared__ double s[kBlock];
  double acc = 0.0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    acc += static_cast<double>(x[i]) * static_cast<double>(y[i]);
  s[threadIdx.x] = acc;
  sample::block_reduce(s, sample::Sum());
  if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
}

// Second pass: one block sums the m partial sums, in a fixed order.
__global__ void dot_final(int m, const double *partial, double *out) {
  __shared__ double s[kBlock];
  double acc = 0.0;
  for (int i = threadIdx.x; i < m; i += blockDim.x) acc += partial[i];
  s[threadIdx.x] = acc;
  sample::block_reduce(s, sample::Sum());
  if (threadIdx.x == 0) *out = s[0];
}

namespace {

struct Options {
  std::string matrix;
  std::string mtx;
  std::string dump;
  int scale = 1;
  int rows = 0;
  int iters = 100;
  double tol = 0.0;
  unsigned long long seed = 1;
  int spmv = 0;         // --spmv N: time N SpMV launches instead of solving
  bool flush_l2 = false;
  bool refresh = false;
  bool warp = false;    // --warp: the SpMV runs a warp a row
};

void usage(FILE *f) {
  std::fprintf(f,
               "usage: cg (--matrix grid|fem|apache|offshore|grid-shuffled|fem-shuffled|long-rows [--scale S] [--rows N] |\n"
               "           --mtx FILE)\n"
               "          [--iters N] [--tol T] [--seed S] [--dump FILE]\n"
               "  --matrix C  generate a matrix of class C at the paper's size times S\n"
               "  --scale S   size multiplier for --matrix (default 1; the benchmark uses 1 and 8)\n"
               "  --rows N    generate exactly N rows instead (small tests)\n"
               "  --mtx FILE  read a Matrix Market file (coordinate real/integer/pattern,\n"
               "              general/symmetric; pattern matrices get random SPD values)\n"
               "  --iters N   CG iterations (default 100)\n"
               "  --tol T     stop early when ||r||/||b|| <= T (default 0: run all iterations)\n"
               "  --seed S    seed of the matrix values and the right-hand side (default 1)\n"
               "  --dump FILE write the raw solution bytes (n floats) to FILE (with --spmv: y = A x)\n"
               "  --spmv N    no solve: time N launches of the SpMV y = A x (CUDA events, after 5\n"
               "              untimed ones; x rotates over 4 vectors) and print the median\n"
               "  --flush-l2  with --spmv: write a buffer of twice the L2 before each timed launch\n"
               "  --refresh   with --spmv: also time N launches each after the matrix values are\n"
               "              written again (the same values: a transformed program rebuilds its copy)\n"
               "  --warp      the SpMV runs a warp a row (spmv_warp) instead of a thread a row\n"
               "exit status: 0 ok, 1 bad arguments / input / CUDA error, 77 no CUDA device\n");
}

Options parse(int argc, char **argv) {
  using sample::parse_int;
  Options o;
  sample::parse_args(argc, argv, usage, [&](const std::string &a, auto value) {
    if (a == "--matrix") o.matrix = value();
    else if (a == "--mtx") o.mtx = value();
    else if (a == "--dump") o.dump = value();
    else if (a == "--scale") o.scale = static_cast<int>(parse_int(a, value(), 1, 64));
    else if (a == "--rows") o.rows = static_cast<int>(parse_int(a, value(), 2, 1LL << 30));
    else if (a == "--iters") o.iters = static_cast<int>(parse_int(a, value(), 0, 1LL << 30));
    else if (a == "--seed") o.seed = static_cast<unsigned long long>(parse_int(a, value(), 0, 1LL << 62));
    else if (a == "--tol") o.tol = sample::parse_real(a, value(), [](double v) { return v >= 0.0; }, "a non-negative number");
    else if (a == "--spmv") o.spmv = static_cast<int>(parse_int(a, value(), 1, 1000000));
    else if (a == "--flush-l2") o.flush_l2 = true;
    else if (a == "--refresh") o.refresh = true;
    else if (a == "--warp") o.warp = true;
    else return false;
    return true;
  });
  if (o.matrix.empty() == o.mtx.empty()) sample::bad("give exactly one of --matrix CLASS or --mtx FILE");
  if (!o.matrix.empty() && !cgmat::is_class(o.matrix))
    sample::bad("unknown matrix class '" + o.matrix +
                "' (grid, fem, apache, offshore, grid-shuffled, fem-shuffled or long-rows)");
  if (!o.mtx.empty() && (o.rows != 0 || o.scale != 1)) sample::bad("--rows and --scale go with --matrix, not --mtx");
  if (!o.spmv && (o.flush_l2 || o.refresh)) sample::bad("--flush-l2 and --refresh go with --spmv");
  return o;
}

// Blocks of the warp-a-row SpMV: 32 threads a row.
int warp_grid(int n) { return static_cast<int>((static_cast<long long>(n) * 32 + kBlock - 1) / kBlock); }

const int kSpmvWarmups = 5;
const int kSpmvVectors = 4;

// --spmv: the SpMV alone. Prints the first launch's time (a transformed
// program builds its copies there), the median of `reps` launches, and with
// `refresh` the median of launches that each follow a write of the values.
// y = A x for the first x goes to `dump`.
int time_spmv(const cgmat::Csr &a, const Options &opt) {
  const int n = a.n;
  const long long nnz = a.nnz();
  int *d_row_ptr = nullptr, *d_col = nullptr;
  float *d_val = nullptr, *d_y = nullptr;
  float *d_x[kSpmvVectors] = {};
  CUDA_CHECK(cudaMalloc(&d_row_ptr, (static_cast<size_t>(n) + 1) * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_col, static_cast<size_t>(nnz) * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_val, static_cast<size_t>(nnz) * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_y, static_cast<size_t>(n) * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_row_ptr, a.row_ptr.data(), (static_cast<size_t>(n) + 1) * sizeof(int),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_col, a.col.data(), static_cast<size_t>(nnz) * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_val, a.val.data(), static_cast<size_t>(nnz) * sizeof(float), cudaMemcpyHostToDevice));
  for (int v = 0; v < kSpmvVectors; ++v) {
    const std::vector<float> x = cgmat::random_vector(static_cast<size_t>(n), opt.seed * 31 + v, -1.0f, 1.0f);
    CUDA_CHECK(cudaMalloc(&d_x[v], static_cast<size_t>(n) * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_x[v], x.data(), static_cast<size_t>(n) * sizeof(float), cudaMemcpyHostToDevice));
  }
  int dev = 0, l2 = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
  const size_t flush_bytes = std::max<size_t>(2 * static_cast<size_t>(l2), 8u << 20);
  void *d_flush = nullptr;
  if (opt.flush_l2) CUDA_CHECK(cudaMalloc(&d_flush, flush_bytes));
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  const int grid = (n + kBlock - 1) / kBlock, wgrid = warp_grid(n);
  // One timed launch of y = A x_v.
  auto timed = [&](int v) {
    if (opt.flush_l2) CUDA_CHECK(cudaMemset(d_flush, v & 0xff, flush_bytes));
    CUDA_CHECK(cudaEventRecord(start));
    if (opt.warp) {
      spmv_warp<<<wgrid, kBlock>>>(n, d_row_ptr, d_col, d_val, d_x[v], d_y);
    } else {
      spmv_csr<<<grid, kBlock>>>(n, d_row_ptr, d_col, d_val, d_x[v], d_y);
    }
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    return ms;
  };
  const float first = timed(0);
  for (int r = 0; r < kSpmvWarmups; ++r) {
    if (opt.warp) {
      spmv_warp<<<wgrid, kBlock>>>(n, d_row_ptr, d_col, d_val, d_x[r % kSpmvVectors], d_y);
    } else {
      spmv_csr<<<grid, kBlock>>>(n, d_row_ptr, d_col, d_val, d_x[r % kSpmvVectors], d_y);
    }
    CUDA_CHECK(cudaGetLastError());
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<float> t;
  for (int r = 0; r < opt.spmv; ++r) t.push_back(timed(r % kSpmvVectors));
  std::printf("spmv first launch: %.4f ms\n", first);
  std::printf("spmv: median %.4f ms over %d launches (min %.4f, max %.4f)\n", sample::median(t), opt.spmv,
              *std::min_element(t.begin(), t.end()), *std::max_element(t.begin(), t.end()));
  if (opt.refresh) {
    std::vector<float> tr;
    for (int r = 0; r < opt.spmv; ++r) {
      CUDA_CHECK(cudaMemcpy(d_val, a.val.data(), static_cast<size_t>(nnz) * sizeof(float), cudaMemcpyHostToDevice));
      tr.push_back(timed(r % kSpmvVectors));
    }
    std::printf("spmv after a write of the values: median %.4f ms over %d launches\n", sample::median(tr), opt.spmv);
  }
  // Minimum traffic of one SpMV: val, col, row_ptr, x and y once each.
  const double bytes = static_cast<double>(nnz) * 8.0 + (n + 1.0) * 4.0 + 2.0 * n * 4.0;
  std::printf("spmv bandwidth: %.0f GB/s (minimum traffic over the median)\n", bytes / (sample::median(t) * 1e6));
  if (opt.warp) {
    spmv_warp<<<wgrid, kBlock>>>(n, d_row_ptr, d_col, d_val, d_x[0], d_y);
  } else {
    spmv_csr<<<grid, kBlock>>>(n, d_row_ptr, d_col, d_val, d_x[0], d_y);
  }
  CUDA_CHECK(cudaGetLastError());
  std::vector<float> y(static_cast<size_t>(n));
  CUDA_CHECK(cudaMemcpy(y.data(), d_y, y.size() * sizeof(float), cudaMemcpyDeviceToHost));
  sample::print_checksum(sample::fnv1a(y.data(), y.size() * sizeof(float)));
  const bool dumped = opt.dump.empty() || sample::write_dump(opt.dump, {{y.data(), y.size() * sizeof(float)}});
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  if (d_flush) CUDA_CHECK(cudaFree(d_flush));
  for (float *x : d_x) CUDA_CHECK(cudaFree(x));
  CUDA_CHECK(cudaFree(d_row_ptr));
  CUDA_CHECK(cudaFree(d_col));
  CUDA_CHECK(cudaFree(d_val));
  CUDA_CHECK(cudaFree(d_y));
  return dumped ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  Options opt = parse(argc, argv);

  cgmat::Csr a;
  try {
    if (!opt.mtx.empty()) a = cgmat::read_matrix_market(opt.mtx, opt.seed);
    else {
      long long rows = opt.rows ? opt.rows : static_cast<long long>(cgmat::paper_rows(opt.matrix)) * opt.scale;
      if (rows > (1LL << 30)) sample::bad("matrix too large");
      a = cgmat::generate(opt.matrix, static_cast<int>(rows), opt.seed);
    }
  } catch (const std::exception &e) {
    return sample::input_error(e.what());
  }
  if (sample::no_cuda_device()) return 77;

  const cgmat::Stats st = cgmat::stats(a);
  const int n = a.n;
  const long long nnz = a.nnz();
  std::printf("matrix: %s\n", a.name.c_str());
  std::printf("rows: %d  nnz: %lld  per row: min %d, avg %.2f, max %d\n", st.n, st.nnz, st.min_row,
              st.avg_row, st.max_row);
  if (opt.spmv) return time_spmv(a, opt);

  std::vector<float> b = cgmat::random_vector(static_cast<size_t>(n), opt.seed + 17, 0.5f, 1.5f);

  int *d_row_ptr = nullptr, *d_col = nullptr;
  float *d_val = nullptr, *d_x = nullptr, *d_r = nullptr, *d_p = nullptr, *d_ap = nullptr;
  double *d_partial = nullptr, *d_dot = nullptr;
  CUDA_CHECK(cudaMalloc(&d_row_ptr, (static_cast<size_t>(n) + 1) * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_col, static_cast<size_t>(nnz) * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_val, static_cast<size_t>(nnz) * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_x, static_cast<size_t>(n) * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_r, static_cast<size_t>(n) * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_p, static_cast<size_t>(n) * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_ap, static_cast<size_t>(n) * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_partial, kDotBlocks * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&d_dot, sizeof(double)));
  CUDA_CHECK(cudaMemcpy(d_row_ptr, a.row_ptr.data(), (static_cast<size_t>(n) + 1) * sizeof(int),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_col, a.col.data(), static_cast<size_t>(nnz) * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_val, a.val.data(), static_cast<size_t>(nnz) * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_r, b.data(), static_cast<size_t>(n) * sizeof(float), cudaMemcpyHostToDevice));

  const int grid = (n + kBlock - 1) / kBlock, wgrid = warp_grid(n);
  auto dot = [&](const float *u, const float *v) {
    dot_partial<<<kDotBlocks, kBlock>>>(n, u, v, d_partial);
    CUDA_CHECK(cudaGetLastError());
    dot_final<<<1, kBlock>>>(kDotBlocks, d_partial, d_dot);
    CUDA_CHECK(cudaGetLastError());
    double h = 0.0;
    CUDA_CHECK(cudaMemcpy(&h, d_dot, sizeof(double), cudaMemcpyDeviceToHost));
    return h;
  };

  sample::RunTimer timer;
  timer.begin();

  // x = 0, r = b, p = r.
  CUDA_CHECK(cudaMemset(d_x, 0, static_cast<size_t>(n) * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_p, d_r, static_cast<size_t>(n) * sizeof(float), cudaMemcpyDeviceToDevice));
  const double bb = dot(d_r, d_r);
  const double bnorm = std::sqrt(bb);
  double rr = bb;
  int it = 0;
  for (; it < opt.iters; ++it) {
    if (std::sqrt(rr) <= opt.tol * bnorm || rr == 0.0) break;
    if (opt.warp) {
      spmv_warp<<<wgrid, kBlock>>>(n, d_row_ptr, d_col, d_val, d_p, d_ap);
    } else {
      spmv_csr<<<grid, kBlock>>>(n, d_row_ptr, d_col, d_val, d_p, d_ap);
    }
    CUDA_CHECK(cudaGetLastError());
    const double pap = dot(d_p, d_ap);
    if (!(pap > 0.0)) {
      std::fprintf(stderr, "cg: warning: p'Ap = %g at iteration %d (matrix not SPD?); stopping\n", pap, it);
      break;
    }
    const double alpha = rr / pap;
    axpy<<<grid, kBlock>>>(n, static_cast<float>(alpha), d_p, d_x);
    CUDA_CHECK(cudaGetLastError());
    axpy<<<grid, kBlock>>>(n, static_cast<float>(-alpha), d_ap, d_r);
    CUDA_CHECK(cudaGetLastError());
    const double rr_new = dot(d_r, d_r);
    const double beta = rr_new / rr;
    rr = rr_new;
    xpay<<<grid, kBlock>>>(n, d_r, static_cast<float>(beta), d_p);
    CUDA_CHECK(cudaGetLastError());
  }

  const float ms = timer.end();

  // True residual ||b - A x|| / ||b||, recomputed once after the solve.
  if (opt.warp) {
    spmv_warp<<<wgrid, kBlock>>>(n, d_row_ptr, d_col, d_val, d_x, d_ap);
  } else {
    spmv_csr<<<grid, kBlock>>>(n, d_row_ptr, d_col, d_val, d_x, d_ap);
  }
  CUDA_CHECK(cudaGetLastError());
  std::vector<float> x(static_cast<size_t>(n)), ax(static_cast<size_t>(n));
  CUDA_CHECK(cudaMemcpy(x.data(), d_x, static_cast<size_t>(n) * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(ax.data(), d_ap, static_cast<size_t>(n) * sizeof(float), cudaMemcpyDeviceToHost));
  double res2 = 0.0;
  for (int i = 0; i < n; ++i) {
    double d = static_cast<double>(b[static_cast<size_t>(i)]) - ax[static_cast<size_t>(i)];
    res2 += d * d;
  }

  std::printf("iterations: %d\n", it);
  std::printf("residual: %.6e (recurrence %.6e)\n", std::sqrt(res2) / bnorm, std::sqrt(rr) / bnorm);
  std::printf("solve time: %.3f ms (%.4f ms per iteration)\n", ms, it > 0 ? ms / it : 0.0);
  sample::print_checksum(sample::fnv1a(x.data(), x.size() * sizeof(float)));
  if (!opt.dump.empty() && !sample::write_dump(opt.dump, {{x.data(), x.size() * sizeof(float)}})) return 1;

  timer.destroy();
  CUDA_CHECK(cudaFree(d_row_ptr));
  CUDA_CHECK(cudaFree(d_col));
  CUDA_CHECK(cudaFree(d_val));
  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_r));
  CUDA_CHECK(cudaFree(d_p));
  CUDA_CHECK(cudaFree(d_ap));
  CUDA_CHECK(cudaFree(d_partial));
  CUDA_CHECK(cudaFree(d_dot));
  return 0;
}
