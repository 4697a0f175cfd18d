// cuSPARSE beside the CG sample's SpMV: the same generated matrix (class,
// scale, seed) and the same x as `cg --spmv` (samples/cg/cg.cu), SpMV by
// cusparseSpMV, CSR, ALG1 and ALG2 (ALG2 after cusparseSpMV_preprocess), and a
// device copy of the matrix's bytes (val and col) as the bandwidth reference.
// Timing: CUDA events around each call on one stream, median of --reps after
// 5 warm-ups; x rotates over 4 vectors; --flush-l2 writes a buffer of twice the
// L2 before each timed call. Each result is checked against the host SpMV
// (relative 2-norm error; exit 2 above 1e-5).
//
//   cusparse_spmv --matrix grid|fem|apache|offshore|grid-shuffled|fem-shuffled|long-rows [--scale S] [--reps N] [--seed S] [--flush-l2]
#include <cuda_runtime.h>
#include <cusparse.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench_support.cuh"
#include "matrix.h"

namespace {

const int kVectors = 4;
const int kWarmups = 5;

struct Options {
  std::string matrix;
  int scale = 1;
  int reps = 30;
  unsigned long long seed = 1;
  bool flush_l2 = false;
};

[[noreturn]] void usage(const std::string &error) {
  std::fprintf(stderr, "cusparse_spmv: error: %s\n", error.c_str());
  std::fprintf(stderr, "usage: cusparse_spmv --matrix grid|fem|apache|offshore|grid-shuffled|fem-shuffled|long-rows "
                       "[--scale S] [--reps N] [--seed S] [--flush-l2]\n");
  std::exit(1);
}

long long number(const std::string &opt, const char *s, long long lo, long long hi) {
  errno = 0;
  char *end = nullptr;
  const long long v = std::strtoll(s, &end, 10);
  if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi)
    usage(opt + " expects an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return v;
}

Options parse(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> const char * {
      if (i + 1 >= argc)
        usage("option " + a + " needs a value");
      return argv[++i];
    };
    if (a == "--matrix")
      o.matrix = value();
    else if (a == "--scale")
      o.scale = static_cast<int>(number(a, value(), 1, 64));
    else if (a == "--reps")
      o.reps = static_cast<int>(number(a, value(), 1, 100000));
    else if (a == "--seed")
      o.seed = static_cast<unsigned long long>(number(a, value(), 0, 1LL << 62));
    else if (a == "--flush-l2")
      o.flush_l2 = true;
    else
      usage("unknown argument '" + a + "'");
  }
  if (!cgmat::is_class(o.matrix))
    usage("--matrix names a class: grid, fem, apache or offshore");
  return o;
}

double rel_error(const std::vector<float> &ref, const std::vector<float> &got) {
  double num = 0.0, den = 0.0;
  for (size_t i = 0; i < ref.size(); ++i) {
    const double d = static_cast<double>(got[i]) - ref[i];
    num += d * d;
    den += static_cast<double>(ref[i]) * ref[i];
  }
  return den > 0 ? std::sqrt(num / den) : std::sqrt(num);
}

} // namespace

int main(int argc, char **argv) {
  const Options o = parse(argc, argv);
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "cusparse_spmv: no CUDA device found\n");
    return 77;
  }
  const cgmat::Csr a = cgmat::generate(o.matrix, cgmat::paper_rows(o.matrix) * o.scale, o.seed);
  const int n = a.n;
  const long long nnz = a.nnz();
  std::printf("matrix: %s, %d rows, %lld non-zeros\n", a.name.c_str(), n, nnz);

  int *row_ptr = nullptr, *col = nullptr;
  float *val = nullptr, *y = nullptr, *x[kVectors] = {};
  CK(cudaMalloc(&row_ptr, (static_cast<size_t>(n) + 1) * sizeof(int)));
  CK(cudaMalloc(&col, static_cast<size_t>(nnz) * sizeof(int)));
  CK(cudaMalloc(&val, static_cast<size_t>(nnz) * sizeof(float)));
  CK(cudaMalloc(&y, static_cast<size_t>(n) * sizeof(float)));
  CK(cudaMemcpy(row_ptr, a.row_ptr.data(), (static_cast<size_t>(n) + 1) * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(col, a.col.data(), static_cast<size_t>(nnz) * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(val, a.val.data(), static_cast<size_t>(nnz) * sizeof(float), cudaMemcpyHostToDevice));
  std::vector<float> x0;
  for (int v = 0; v < kVectors; ++v) {
    // The vectors of cg --spmv.
    const std::vector<float> h = cgmat::random_vector(static_cast<size_t>(n), o.seed * 31 + v, -1.0f, 1.0f);
    if (v == 0)
      x0 = h;
    CK(cudaMalloc(&x[v], static_cast<size_t>(n) * sizeof(float)));
    CK(cudaMemcpy(x[v], h.data(), static_cast<size_t>(n) * sizeof(float), cudaMemcpyHostToDevice));
  }
  std::vector<float> y_ref(static_cast<size_t>(n));
  cgmat::spmv_host(a, x0.data(), y_ref.data());

  int dev = 0, l2 = 0;
  CK(cudaGetDevice(&dev));
  CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
  const size_t flush_bytes = std::max<size_t>(2 * static_cast<size_t>(l2), 8u << 20);
  void *flush = nullptr;
  CK(cudaMalloc(&flush, flush_bytes));
  auto before = [&](int r) {
    if (o.flush_l2)
      CK(cudaMemset(flush, r & 0xff, flush_bytes));
  };

  cusparseHandle_t h;
  CKS(cusparseCreate(&h));
  cusparseSpMatDescr_t A;
  cusparseDnVecDescr_t X, Y;
  CKS(cusparseCreateCsr(&A, n, n, nnz, row_ptr, col, val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
  CKS(cusparseCreateDnVec(&X, n, x[0], CUDA_R_32F));
  CKS(cusparseCreateDnVec(&Y, n, y, CUDA_R_32F));
  const float alpha = 1.0f, beta = 0.0f;
  bool ok = true;
  for (const auto &alg : {std::make_pair(CUSPARSE_SPMV_CSR_ALG1, "alg1"), std::make_pair(CUSPARSE_SPMV_CSR_ALG2, "alg2")}) {
    size_t bytes = 0;
    CKS(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, X, &beta, Y, CUDA_R_32F,
                                           alg.first, &bytes));
    void *buf = nullptr;
    CK(cudaMalloc(&buf, std::max<size_t>(bytes, 1)));
    if (alg.first == CUSPARSE_SPMV_CSR_ALG2)
      CKS(cusparseSpMV_preprocess(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, X, &beta, Y,
                                             CUDA_R_32F, alg.first, buf));
    int call = 0;
    auto spmv = [&] {
      CKS(cusparseDnVecSetValues(X, x[call++ % kVectors]));
      CKS(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, X, &beta, Y, CUDA_R_32F,
                                  alg.first, buf));
    };
    for (int r = 0; r < kWarmups; ++r)
      spmv();
    const float ms = median_ms(spmv, o.reps, before);
    call = 0;
    spmv();
    std::vector<float> got(static_cast<size_t>(n));
    CK(cudaMemcpy(got.data(), y, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
    const double err = rel_error(y_ref, got);
    ok = ok && err <= 1e-5;
    std::printf("cusparse %s: median %.4f ms over %d calls, relative error %.1e\n", alg.second, ms, o.reps, err);
    CK(cudaFree(buf));
  }
  // The reference: a device copy of what the SpMV streams (val and col), read and write counted.
  const size_t copy_bytes = static_cast<size_t>(nnz) * (sizeof(float) + sizeof(int));
  void *src = nullptr, *dst = nullptr;
  CK(cudaMalloc(&src, copy_bytes));
  CK(cudaMalloc(&dst, copy_bytes));
  CK(cudaMemset(src, 1, copy_bytes));
  const float copy_ms =
      median_ms([&] { CK(cudaMemcpyAsync(dst, src, copy_bytes, cudaMemcpyDeviceToDevice)); }, o.reps, before);
  std::printf("copy: median %.4f ms, %.0f GB/s (read and write of %zu bytes)\n", copy_ms,
              2.0 * static_cast<double>(copy_bytes) / (copy_ms * 1e6), copy_bytes);
  CKS(cusparseDestroySpMat(A));
  CKS(cusparseDestroyDnVec(X));
  CKS(cusparseDestroyDnVec(Y));
  CKS(cusparseDestroy(h));
  for (void *p : {static_cast<void *>(row_ptr), static_cast<void *>(col), static_cast<void *>(val),
                  static_cast<void *>(y), flush, src, dst})
    CK(cudaFree(p));
  for (float *p : x)
    CK(cudaFree(p));
  if (!ok) {
    std::fprintf(stderr, "cusparse_spmv: a result differs from the host SpMV by more than 1e-5\n");
    return 2;
  }
  return 0;
}
