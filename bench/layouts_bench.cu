// SpMV through the runtime's layouts: a CSR SpMV kernel written against slot()
// and length() (the shape of the kernel the irregfix tool emits) on the ELL,
// SELL-32 and SELL-32-sigma copies prepare_range builds, next to the original
// scalar CSR kernel and cuSPARSE (CSR, ALG1).
// Median of 20 launches (CUDA events), L2 flushed (a 2x L2 buffer written)
// before each timed launch; the remap itself is not timed. Columns are random
// within +-256 rows of the diagonal, x random.
//   irregfix_layouts_bench [--small]   (--small: 1/8 of the rows, for a quick check)
#include <irregfix/irregfix.cuh>
#include <irregfix/testing.h>

#include "bench_support.cuh"

#include <cusparse.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>


namespace {

// The original kernel: thread per row.
__global__ void csr_scalar(const int *__restrict__ B, long long n, const double *__restrict__ val,
                           const int *__restrict__ col, const double *__restrict__ x,
                           double *__restrict__ y) {
  long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  double sum = 0;
  for (int k = B[t]; k < B[t + 1]; ++k)
    sum += val[k] * x[col[k]];
  y[t] = sum;
}

// The transformed kernel: the same loop read through the View.
__global__ void csr_view(irregfix::View v, const double *__restrict__ val,
                         const int *__restrict__ col, const double *__restrict__ x,
                         double *__restrict__ y) {
  long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= v.n)
    return;
  double sum = 0;
  for (int iter = 0; iter < irregfix::length(v, t); ++iter)
    sum += val[irregfix::slot(v, t, iter)] * x[col[irregfix::slot(v, t, iter)]];
  y[t] = sum;
}

// The permutable form (SELL-32-sigma): physical thread p reads its copy at
// physical slots and writes its logical row.
__global__ void csr_view_sigma(irregfix::View v, const double *__restrict__ val,
                               const int *__restrict__ col, const double *__restrict__ x,
                               double *__restrict__ y) {
  const long long p = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= v.n)
    return;
  const long long t = irregfix::logical_thread(v, p);
  double sum = 0;
  for (int iter = 0; iter < irregfix::length(v, p); ++iter)
    sum += val[irregfix::slot(v, p, iter)] * x[col[irregfix::slot(v, p, iter)]];
  y[t] = sum;
}

struct Rng { // splitmix64: fast enough for 10^8 draws
  unsigned long long s;
  unsigned long long next() {
    unsigned long long z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  int range(int lo, int hi) { return lo + static_cast<int>(next() % static_cast<unsigned>(hi - lo + 1)); }
  double unit() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }
};

void *flush_buf = nullptr;
size_t flush_bytes = 0;

// Median with the L2 evicted before each timed run.
template <class F> float flushed_median_ms(F f, int reps) {
  return median_ms(f, reps, [](int i) { CK(cudaMemsetAsync(flush_buf, i & 0xff, flush_bytes)); });
}

double max_rel_diff(const std::vector<double> &a, const std::vector<double> &b) {
  double m = 0;
  for (size_t i = 0; i < a.size(); ++i)
    m = std::max(m, std::fabs(a[i] - b[i]) / std::max(1e-30, std::fabs(a[i])));
  return m;
}

void run(const char *name, long long n, int lo, int hi, int reps) {
  Rng r{0x1234567ull + static_cast<unsigned long long>(n) + lo * 131 + hi};
  std::vector<int> B(n + 1, 0);
  for (long long t = 0; t < n; ++t)
    B[t + 1] = B[t] + r.range(lo, hi);
  const long long nnz = B[n];
  std::vector<int> col(nnz);
  std::vector<double> val(nnz), x(n);
  for (long long t = 0; t < n; ++t)
    for (int k = B[t]; k < B[t + 1]; ++k) {
      long long c = t + r.range(-256, 256);
      col[k] = static_cast<int>(c < 0 ? 0 : c >= n ? n - 1 : c);
      val[k] = r.unit() - 0.5;
    }
  for (double &v : x)
    v = r.unit();
  // Padding of each layout (cells / nnz).
  long long max_len = 0, sell = 0;
  for (long long s = 0; s * 32 < n; ++s) {
    long long m = 0;
    for (long long t = s * 32; t < n && t < s * 32 + 32; ++t)
      m = std::max<long long>(m, B[t + 1] - B[t]);
    sell += 32 * m;
    max_len = std::max(max_len, m);
  }
  const double ell_pad = static_cast<double>(max_len * n) / static_cast<double>(nnz);
  auto sigma_pad = [&](long long sigma) { // slices of 32 over lengths sorted inside windows
    long long cells = 0;
    std::vector<int> w;
    for (long long a = 0; a < n; a += sigma) {
      w.clear();
      for (long long t = a; t < n && t < a + sigma; ++t)
        w.push_back(B[t + 1] - B[t]);
      std::sort(w.begin(), w.end(), [](int x, int y) { return x > y; });
      for (size_t i = 0; i < w.size(); i += 32)
        cells += 32LL * w[i];
    }
    return static_cast<double>(cells) / static_cast<double>(nnz);
  };
  const double sell_pad = static_cast<double>(sell) / static_cast<double>(nnz);

  int *dB, *dcol;
  double *dval, *dx, *dy;
  CK(cudaMalloc(&dB, (n + 1) * sizeof(int)));
  CK(cudaMalloc(&dcol, nnz * sizeof(int)));
  CK(cudaMalloc(&dval, nnz * sizeof(double)));
  CK(cudaMalloc(&dx, n * sizeof(double)));
  CK(cudaMalloc(&dy, n * sizeof(double)));
  CK(cudaMemcpy(dB, B.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dcol, col.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dval, val.data(), nnz * sizeof(double), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dx, x.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  const unsigned grid = static_cast<unsigned>((n + 255) / 256);

  float t_csr = flushed_median_ms([&] { csr_scalar<<<grid, 256>>>(dB, n, dval, dcol, dx, dy); }, reps);
  CK(cudaGetLastError());
  std::vector<double> y0(n), y1(n);
  CK(cudaMemcpy(y0.data(), dy, n * sizeof(double), cudaMemcpyDeviceToHost));

  // cuSPARSE CSR SpMV, ALG1 (preprocessed), on the same data.
  float t_cusparse = -1;
  {
    cusparseHandle_t h;
    CKS(cusparseCreate(&h));
    cusparseSpMatDescr_t A;
    cusparseDnVecDescr_t X, Y;
    CKS(cusparseCreateCsr(&A, n, n, nnz, dB, dcol, dval, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                          CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    CKS(cusparseCreateDnVec(&X, n, dx, CUDA_R_64F));
    CKS(cusparseCreateDnVec(&Y, n, dy, CUDA_R_64F));
    const double alpha = 1, beta = 0;
    size_t bytes = 0;
    CKS(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, X, &beta, Y,
                                CUDA_R_64F, CUSPARSE_SPMV_CSR_ALG1, &bytes));
    void *buf = nullptr;
    CK(cudaMalloc(&buf, bytes ? bytes : 1));
    CKS(cusparseSpMV_preprocess(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, X, &beta, Y,
                                CUDA_R_64F, CUSPARSE_SPMV_CSR_ALG1, buf));
    t_cusparse = flushed_median_ms(
        [&] {
          CKS(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, X, &beta, Y, CUDA_R_64F,
                           CUSPARSE_SPMV_CSR_ALG1, buf));
        },
        reps);
    CK(cudaFree(buf));
    CKS(cusparseDestroySpMat(A));
    CKS(cusparseDestroyDnVec(X));
    CKS(cusparseDestroyDnVec(Y));
    CKS(cusparseDestroy(h));
  }
  struct Variant {
    int layout, sigma;
  };
  const Variant variants[] = {{irregfix::kLayoutEllColMajor, 0},
                              {irregfix::kLayoutSell32, 0},
                              {irregfix::kLayoutSell32Sigma, 256},
                              {irregfix::kLayoutSell32Sigma, 4096}};
  constexpr int kVariants = 4;
  float t_layout[kVariants] = {-1, -1, -1, -1};
  double diff = 0;
  for (int li = 0; li < kVariants; ++li) {
    const Variant var = variants[li];
    irregfix::testing::reset();
    irregfix::testing::set_layout(var.layout);
    if (var.sigma)
      irregfix::testing::set_sigma(var.sigma);
    irregfix::SiteInfo site{"layouts_bench", "csr_view", "range", irregfix::kSitePermutable};
    const void *src[] = {dval, dcol};
    const size_t sz[] = {sizeof(double), sizeof(int)};
    const void *out[2];
    irregfix::View v{};
    if (!irregfix::prepare_range(site, dB, irregfix::kIndexI32, n, 2, src, sz, &v, out, nullptr)) {
      std::printf("  %s: prepare_range declined: %s\n", name,
                  irregfix::testing::site_counters("layouts_bench").last_fallback.c_str());
      continue;
    }
    if (v.layout != var.layout)
      std::printf("  %s: asked for layout %d, got %d\n", name, var.layout, v.layout);
    const double *rv = static_cast<const double *>(out[0]);
    const int *rc = static_cast<const int *>(out[1]);
    CK(cudaMemset(dy, 0, n * sizeof(double)));
    if (v.layout == irregfix::kLayoutSell32Sigma)
      t_layout[li] = flushed_median_ms([&] { csr_view_sigma<<<grid, 256>>>(v, rv, rc, dx, dy); }, reps);
    else
      t_layout[li] = flushed_median_ms([&] { csr_view<<<grid, 256>>>(v, rv, rc, dx, dy); }, reps);
    CK(cudaGetLastError());
    CK(cudaMemcpy(y1.data(), dy, n * sizeof(double), cudaMemcpyDeviceToHost));
    diff = std::max(diff, max_rel_diff(y0, y1));
  }
  irregfix::testing::reset(); // frees the copies
  float best = -1;
  for (float t : t_layout)
    if (t > 0 && (best < 0 || t < best))
      best = t;
  std::printf("%-20s %8lld %9lld %7.3f %7.3f %7.3f %7.3f %7.3f %7.3f %6.3f %6.3f %6.3f %6.3f %6.2f %6.2f  %.1e\n",
              name, n, nnz, t_csr, t_cusparse, t_layout[0], t_layout[1], t_layout[2], t_layout[3],
              ell_pad, sell_pad, sigma_pad(256), sigma_pad(4096), best > 0 ? t_csr / best : 0.0,
              best > 0 ? t_cusparse / best : 0.0, diff);
  CK(cudaFree(dB));
  CK(cudaFree(dcol));
  CK(cudaFree(dval));
  CK(cudaFree(dx));
  CK(cudaFree(dy));
}

} // namespace

int main(int argc, char **argv) {
  const bool small = argc > 1 && std::strcmp(argv[1], "--small") == 0;
  const long long div = small ? 8 : 1;
  int dev = 0;
  CK(cudaGetDevice(&dev));
  cudaDeviceProp p{};
  CK(cudaGetDeviceProperties(&p, dev));
  int l2 = 0;
  CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
  flush_bytes = 2 * static_cast<size_t>(l2);
  CK(cudaMalloc(&flush_buf, flush_bytes));
  std::printf("SpMV (double values, int columns) on %s, L2 %d MiB flushed before each launch, "
              "median of 20 (ms)\n",
              p.name, l2 >> 20);
  std::printf("%-20s %8s %9s %7s %7s %7s %7s %7s %7s %6s %6s %6s %6s %6s %6s  %s\n", "matrix", "rows",
              "nnz", "csr", "cusp", "ell", "sell32", "sig256", "sig4k", "p-ell", "p-sell", "p-s256",
              "p-s4k", "x-csr", "x-cusp", "maxrel");
  std::printf("(x-csr, x-cusp: the best layout's speedup over the CSR kernel and cuSPARSE; p-: padding, "
              "cells / non-zeros)\n");
  run("uniform 5/row", 8000000 / div, 5, 5, 20);
  run("irregular 7-31/row", 2000000 / div, 7, 31, 20);
  run("skewed 1-64/row", 4000000 / div, 1, 64, 20);
  CK(cudaFree(flush_buf));
  return 0;
}
