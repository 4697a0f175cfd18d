// SpMV benchmark: the one-thread-per-row scalar CSR kernel as written
// (original::spmv_scalar), the same source rewritten by irregfix
// (irregfixed::spmv_scalar, column-major ELL copies built and cached by the
// runtime), and cuSPARSE CSR SpMV (ALG1, ALG2), on the four matrix classes of
// the CG sample at the paper's size and at 8x the rows.
//
//   spmv_bench [--class C]... [--scale S]... [--reps N] [--seed S] [--md FILE]
//   spmv_bench --profile CLASS SCALE      (a few launches of each kernel, for ncu)
//
// Timing: CUDA events around each launch on one stream, median of --reps launches
// (default 30) after warm-up; the input vector x rotates among 4 buffers; for
// the 8x sizes the L2 cache is flushed (a write of twice its size) before each
// timed launch. Remap time is the time of a transformed call right after
// irregfix_invalidate() on the matrix arrays, minus the transformed kernel's time.
#include <cuda_runtime.h>
#include <cusparse.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "matrix.h"
#include "spmv_kernel.h"

#ifdef SPMV_BENCH_HAVE_TRANSFORMED
#include <irregfix/irregfix.cuh>
#include <irregfix/testing.h>
#endif

#define CUDA_CHECK(call)                                                                  \
  do {                                                                                    \
    cudaError_t err_ = (call);                                                            \
    if (err_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "spmv_bench: CUDA error at %s:%d: %s (%s)\n", __FILE__,        \
                   __LINE__, cudaGetErrorString(err_), #call);                            \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

#define CUSPARSE_CHECK(call)                                                              \
  do {                                                                                    \
    cusparseStatus_t st_ = (call);                                                        \
    if (st_ != CUSPARSE_STATUS_SUCCESS) {                                                 \
      std::fprintf(stderr, "spmv_bench: cuSPARSE error at %s:%d: %s (%s)\n", __FILE__,    \
                   __LINE__, cusparseGetErrorString(st_), #call);                         \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

namespace {

const int kXBuffers = 4;

struct Options {
  std::vector<std::string> classes;
  std::vector<int> scales;
  int reps = 30;
  int remap_reps = 10;
  unsigned long long seed = 1;
  std::string md;
  bool profile = false;
  std::string profile_class;
  int profile_scale = 1;
};

struct Result {
  std::string cls;
  int scale = 1;
  bool flushed = false;
  cgmat::Stats st;
  double orig_ms = 0, xf_ms = 0, alg1_ms = 0, alg2_ms = 0;
  double first_ms = 0, remap_ms = 0, remap_gbs = 0, copy_ms = 0, copy_gbs = 0;
  double orig_gbs = 0, xf_gbs = 0;
  bool have_xf = false;
  bool bitwise = false;
  double relerr1 = 0, relerr2 = 0;
};

[[noreturn]] void bad(const std::string &msg) {
  std::fprintf(stderr, "spmv_bench: error: %s\n", msg.c_str());
  std::fprintf(stderr,
               "usage: spmv_bench [--class grid|fem|apache|offshore]... [--scale S]... [--reps N]\n"
               "                  [--remap-reps N] [--seed S] [--md FILE]\n"
               "       spmv_bench --profile CLASS SCALE\n");
  std::exit(1);
}

long long parse_int(const std::string &opt, const char *s, long long lo, long long hi) {
  errno = 0;
  char *end = nullptr;
  long long v = std::strtoll(s, &end, 10);
  if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi)
    bad(opt + " expects an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got '" + s + "'");
  return v;
}

Options parse(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> const char * {
      if (i + 1 >= argc) bad("option " + a + " needs a value");
      return argv[++i];
    };
    if (a == "--class") {
      std::string c = value();
      if (!cgmat::is_class(c)) bad("unknown matrix class '" + c + "'");
      o.classes.push_back(c);
    } else if (a == "--scale") o.scales.push_back(static_cast<int>(parse_int(a, value(), 1, 64)));
    else if (a == "--reps") o.reps = static_cast<int>(parse_int(a, value(), 1, 100000));
    else if (a == "--remap-reps") o.remap_reps = static_cast<int>(parse_int(a, value(), 1, 100000));
    else if (a == "--seed") o.seed = static_cast<unsigned long long>(parse_int(a, value(), 0, 1LL << 62));
    else if (a == "--md") o.md = value();
    else if (a == "--profile") {
      o.profile = true;
      o.profile_class = value();
      if (!cgmat::is_class(o.profile_class)) bad("unknown matrix class '" + o.profile_class + "'");
      o.profile_scale = static_cast<int>(parse_int("--profile SCALE", value(), 1, 64));
    } else if (a == "-h" || a == "--help") {
      std::printf("usage: spmv_bench [--class C]... [--scale S]... [--reps N] [--remap-reps N] [--seed S] [--md FILE]\n"
                  "       spmv_bench --profile CLASS SCALE\n"
                  "classes: grid fem apache offshore (default all); scales default 1 and 8\n");
      std::exit(0);
    } else bad("unknown argument '" + a + "'");
  }
  if (o.classes.empty()) o.classes = cgmat::classes();
  if (o.scales.empty()) o.scales = {1, 8};
  return o;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

// Device-side state of one matrix.
struct Problem {
  cgmat::Csr a;
  int n = 0;
  long long nnz = 0;
  int *row_ptr = nullptr, *col = nullptr;
  float *val = nullptr;
  float *x[kXBuffers] = {};
  float *y = nullptr;

  Problem(const std::string &cls, int scale, unsigned long long seed) {
    a = cgmat::generate(cls, cgmat::paper_rows(cls) * scale, seed);
    n = a.n;
    nnz = a.nnz();
    CUDA_CHECK(cudaMalloc(&row_ptr, (static_cast<size_t>(n) + 1) * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&col, static_cast<size_t>(nnz) * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&val, static_cast<size_t>(nnz) * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&y, static_cast<size_t>(n) * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(row_ptr, a.row_ptr.data(), (static_cast<size_t>(n) + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(col, a.col.data(), static_cast<size_t>(nnz) * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(val, a.val.data(), static_cast<size_t>(nnz) * sizeof(float), cudaMemcpyHostToDevice));
    for (int b = 0; b < kXBuffers; ++b) {
      std::vector<float> h = cgmat::random_vector(static_cast<size_t>(n), seed * 31 + static_cast<unsigned>(b), -1.0f, 1.0f);
      CUDA_CHECK(cudaMalloc(&x[b], static_cast<size_t>(n) * sizeof(float)));
      CUDA_CHECK(cudaMemcpy(x[b], h.data(), static_cast<size_t>(n) * sizeof(float), cudaMemcpyHostToDevice));
    }
  }
  ~Problem() {
    cudaFree(row_ptr);
    cudaFree(col);
    cudaFree(val);
    cudaFree(y);
    for (float *p : x) cudaFree(p);
  }
  Problem(const Problem &) = delete;
  Problem &operator=(const Problem &) = delete;

  std::vector<float> y_host() const {
    std::vector<float> h(static_cast<size_t>(n));
    CUDA_CHECK(cudaMemcpy(h.data(), y, h.size() * sizeof(float), cudaMemcpyDeviceToHost));
    return h;
  }
};

// Times `launch(x_index)` on `stream`: `warmup` untimed calls, then `reps` timed
// ones, each preceded (outside the timed interval) by `before()` and, if
// `flush`, an L2 flush. Returns the median in milliseconds.
struct Timer {
  cudaStream_t stream;
  cudaEvent_t start, stop;
  void *flush_buf = nullptr;
  size_t flush_bytes = 0;

  Timer(cudaStream_t s, size_t l2_bytes) : stream(s) {
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    flush_bytes = std::max<size_t>(2 * l2_bytes, 8u << 20);
    CUDA_CHECK(cudaMalloc(&flush_buf, flush_bytes));
  }
  ~Timer() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFree(flush_buf);
  }
  Timer(const Timer &) = delete;
  Timer &operator=(const Timer &) = delete;

  void flush(int r) { CUDA_CHECK(cudaMemsetAsync(flush_buf, r & 0xff, flush_bytes, stream)); }

  double once(const std::function<void()> &launch) {
    CUDA_CHECK(cudaEventRecord(start, stream));
    launch();
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(stop, stream));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    return ms;
  }

  double median_of(int warmup, int reps, bool do_flush, const std::function<void(int)> &launch,
                   const std::function<void()> &before = {}) {
    for (int r = 0; r < warmup; ++r) launch(r % kXBuffers);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    std::vector<double> t;
    for (int r = 0; r < reps; ++r) {
      if (before) before();
      if (do_flush) flush(r);
      t.push_back(once([&] { launch(r % kXBuffers); }));
    }
    return median(t);
  }
};

void run_original(const Problem &p, int xi, cudaStream_t s) {
  original::spmv_scalar(p.n, p.row_ptr, p.col, p.val, p.x[xi], p.y, s);
}

#ifdef SPMV_BENCH_HAVE_TRANSFORMED
void run_transformed(const Problem &p, int xi, cudaStream_t s) {
  irregfixed::spmv_scalar(p.n, p.row_ptr, p.col, p.val, p.x[xi], p.y, s);
}
#endif

double rel_error(const std::vector<float> &ref, const std::vector<float> &got) {
  double num = 0.0, den = 0.0;
  for (size_t i = 0; i < ref.size(); ++i) {
    double d = static_cast<double>(got[i]) - ref[i];
    num += d * d;
    den += static_cast<double>(ref[i]) * ref[i];
  }
  return den > 0 ? std::sqrt(num / den) : std::sqrt(num);
}

// cuSPARSE CSR SpMV with algorithm `alg`: median time, and y for x[0] in *y0.
double time_cusparse(cusparseHandle_t h, const Problem &p, Timer &tm, int warmup, int reps, bool flush,
                     cusparseSpMVAlg_t alg, std::vector<float> *y0) {
  cusparseSpMatDescr_t A;
  cusparseDnVecDescr_t X, Y;
  CUSPARSE_CHECK(cusparseCreateCsr(&A, p.n, p.n, p.nnz, p.row_ptr, p.col, p.val, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
  CUSPARSE_CHECK(cusparseCreateDnVec(&X, p.n, p.x[0], CUDA_R_32F));
  CUSPARSE_CHECK(cusparseCreateDnVec(&Y, p.n, p.y, CUDA_R_32F));
  const float alpha = 1.0f, beta = 0.0f;
  size_t bytes = 0;
  CUSPARSE_CHECK(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, X, &beta, Y,
                                         CUDA_R_32F, alg, &bytes));
  void *buf = nullptr;
  CUDA_CHECK(cudaMalloc(&buf, std::max<size_t>(bytes, 1)));
  if (alg == CUSPARSE_SPMV_CSR_ALG2)
    CUSPARSE_CHECK(cusparseSpMV_preprocess(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, X, &beta, Y,
                                           CUDA_R_32F, alg, buf));
  auto launch = [&](int xi) {
    CUSPARSE_CHECK(cusparseDnVecSetValues(X, p.x[xi]));
    CUSPARSE_CHECK(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, X, &beta, Y, CUDA_R_32F,
                                alg, buf));
  };
  double ms = tm.median_of(warmup, reps, flush, launch);
  launch(0);
  CUDA_CHECK(cudaStreamSynchronize(tm.stream));
  *y0 = p.y_host();
  CUSPARSE_CHECK(cusparseDestroySpMat(A));
  CUSPARSE_CHECK(cusparseDestroyDnVec(X));
  CUSPARSE_CHECK(cusparseDestroyDnVec(Y));
  CUDA_CHECK(cudaFree(buf));
  return ms;
}

Result bench_case(const Options &o, const std::string &cls, int scale, cusparseHandle_t h, Timer &tm) {
  Result r;
  r.cls = cls;
  r.scale = scale;
  r.flushed = scale >= 8;
  Problem p(cls, scale, o.seed);
  r.st = cgmat::stats(p.a);
  cudaStream_t s = tm.stream;
  const int warmup = 5;
  // Minimum traffic of one SpMV: val + col + row_ptr + x + y, each read/written once.
  const double min_bytes = static_cast<double>(p.nnz) * 8.0 + (p.n + 1.0) * 4.0 + 2.0 * p.n * 4.0;

  // (a) original
  r.orig_ms = tm.median_of(warmup, o.reps, r.flushed, [&](int xi) { run_original(p, xi, s); });
  r.orig_gbs = min_bytes / (r.orig_ms * 1e6);
  run_original(p, 0, s);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaStreamSynchronize(s));
  const std::vector<float> y_ref = p.y_host();

#ifdef SPMV_BENCH_HAVE_TRANSFORMED
  // (b) transformed: the first call builds the copies; then the cache-hit path.
  // Each matrix starts a fresh runtime, as a program of its own would: under
  // IRREGFIX_LAYOUT=auto the selector profiles this matrix, not the previous one's.
  irregfix::testing::reset();
  r.have_xf = true;
  if (r.flushed) tm.flush(0);
  r.first_ms = tm.once([&] { run_transformed(p, 0, s); });
  r.xf_ms = tm.median_of(warmup, o.reps, r.flushed, [&](int xi) { run_transformed(p, xi, s); });
  r.xf_gbs = min_bytes / (r.xf_ms * 1e6);
  CUDA_CHECK(cudaMemsetAsync(p.y, 0xff, static_cast<size_t>(p.n) * sizeof(float), s));
  run_transformed(p, 0, s);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaStreamSynchronize(s));
  const std::vector<float> y_xf = p.y_host();
  r.bitwise = std::memcmp(y_ref.data(), y_xf.data(), y_ref.size() * sizeof(float)) == 0;

  // (d) remap: a transformed call right after invalidating the matrix arrays.
  const double inv_ms = tm.median_of(0, o.remap_reps, r.flushed, [&](int xi) { run_transformed(p, xi, s); },
                                     [&] {
                                       irregfix_invalidate(p.val);
                                       irregfix_invalidate(p.col);
                                     });
  r.remap_ms = inv_ms - r.xf_ms;
  const double remap_bytes = 2.0 * static_cast<double>(p.nnz) * (sizeof(float) + sizeof(int));
  r.remap_gbs = r.remap_ms > 0 ? remap_bytes / (r.remap_ms * 1e6) : 0.0;
#endif

  // Copy reference: D2D copy of nnz * (4 + 4) bytes (read + write counted).
  {
    const size_t bytes = static_cast<size_t>(p.nnz) * (sizeof(float) + sizeof(int));
    void *src = nullptr, *dst = nullptr;
    CUDA_CHECK(cudaMalloc(&src, bytes));
    CUDA_CHECK(cudaMalloc(&dst, bytes));
    CUDA_CHECK(cudaMemsetAsync(src, 1, bytes, s));
    r.copy_ms = tm.median_of(2, o.remap_reps, r.flushed, [&](int) {
      CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, s));
    });
    r.copy_gbs = 2.0 * static_cast<double>(bytes) / (r.copy_ms * 1e6);
    CUDA_CHECK(cudaFree(src));
    CUDA_CHECK(cudaFree(dst));
  }

  // (c) cuSPARSE
  std::vector<float> y_cs;
  r.alg1_ms = time_cusparse(h, p, tm, warmup, o.reps, r.flushed, CUSPARSE_SPMV_CSR_ALG1, &y_cs);
  r.relerr1 = rel_error(y_ref, y_cs);
  r.alg2_ms = time_cusparse(h, p, tm, warmup, o.reps, r.flushed, CUSPARSE_SPMV_CSR_ALG2, &y_cs);
  r.relerr2 = rel_error(y_ref, y_cs);
  return r;
}

std::string fmt(const char *f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

std::vector<std::string> header() {
  return {"matrix", "rows", "nnz", "nnz/row (min/avg/max)", "L2 flush", "original ms", "orig GB/s",
          "irregfix ms", "irregfix GB/s", "speedup", "cuSPARSE ALG1 ms", "cuSPARSE ALG2 ms",
          "first call ms", "remap ms", "remap GB/s", "copy GB/s", "bitwise", "cuSPARSE rel.err"};
}

std::vector<std::string> cells(const Result &r) {
  std::vector<std::string> c;
  c.push_back(r.cls + " " + std::to_string(r.scale) + "x");
  c.push_back(std::to_string(r.st.n));
  c.push_back(std::to_string(r.st.nnz));
  c.push_back(std::to_string(r.st.min_row) + "/" + fmt("%.1f", r.st.avg_row) + "/" + std::to_string(r.st.max_row));
  c.push_back(r.flushed ? "yes" : "no");
  c.push_back(fmt("%.4f", r.orig_ms));
  c.push_back(fmt("%.0f", r.orig_gbs));
  if (r.have_xf) {
    c.push_back(fmt("%.4f", r.xf_ms));
    c.push_back(fmt("%.0f", r.xf_gbs));
    c.push_back(fmt("%.2fx", r.orig_ms / r.xf_ms));
  } else {
    c.insert(c.end(), {"-", "-", "-"});
  }
  c.push_back(fmt("%.4f", r.alg1_ms));
  c.push_back(fmt("%.4f", r.alg2_ms));
  if (r.have_xf) {
    c.push_back(fmt("%.4f", r.first_ms));
    // Below the timing noise (or no remap at all, as with a stand-in build): no bandwidth.
    const bool measurable = r.remap_ms >= 0.001 && r.remap_ms >= 0.02 * r.xf_ms;
    c.push_back(measurable ? fmt("%.4f", r.remap_ms) : std::string("~0"));
    c.push_back(measurable ? fmt("%.0f", r.remap_gbs) : std::string("-"));
  } else {
    c.insert(c.end(), {"-", "-", "-"});
  }
  c.push_back(fmt("%.0f", r.copy_gbs));
  c.push_back(r.have_xf ? (r.bitwise ? "yes" : "NO") : "-");
  c.push_back(fmt("%.1e", std::max(r.relerr1, r.relerr2)));
  return c;
}

void print_table(FILE *f, const std::vector<Result> &rs, bool markdown) {
  std::vector<std::vector<std::string>> rows = {header()};
  for (const auto &r : rs) rows.push_back(cells(r));
  std::vector<size_t> w(rows[0].size(), 0);
  for (const auto &row : rows)
    for (size_t i = 0; i < row.size(); ++i) w[i] = std::max(w[i], row[i].size());
  for (size_t k = 0; k < rows.size(); ++k) {
    const auto &row = rows[k];
    for (size_t i = 0; i < row.size(); ++i) {
      if (markdown) std::fprintf(f, "| %s ", row[i].c_str());
      else std::fprintf(f, "%s%*s", i ? "  " : "", static_cast<int>(w[i]), row[i].c_str());
    }
    std::fprintf(f, markdown ? "|\n" : "\n");
    if (markdown && k == 0) {
      for (size_t i = 0; i < row.size(); ++i) std::fprintf(f, i ? "---:|" : "|---|");
      std::fprintf(f, "\n");
    }
  }
}

int profile(const Options &o) {
  Problem p(o.profile_class, o.profile_scale, o.seed);
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  std::printf("profile: %s %dx, %d rows, %lld nnz\n", o.profile_class.c_str(), o.profile_scale, p.n, p.nnz);
  for (int r = 0; r < 3; ++r) run_original(p, r % kXBuffers, s);
  CUDA_CHECK(cudaGetLastError());
#ifdef SPMV_BENCH_HAVE_TRANSFORMED
  run_transformed(p, 0, s); // builds the copies
  for (int r = 0; r < 3; ++r) run_transformed(p, r % kXBuffers, s);
  CUDA_CHECK(cudaGetLastError());
#else
  std::printf("profile: no transformed kernel in this build\n");
#endif
  CUDA_CHECK(cudaStreamSynchronize(s));
  CUDA_CHECK(cudaStreamDestroy(s));
  std::printf("profile: done\n");
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  Options o = parse(argc, argv);
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "spmv_bench: no CUDA device found\n");
    return 77;
  }
  try {
    if (o.profile) return profile(o);

    int dev = 0, l2 = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
    std::printf("device: %s, L2 %d MiB, %d SMs; median of %d launches (remap: %d); x rotates over %d buffers; "
                "L2 flushed before each timed launch at 8x\n",
                prop.name, l2 >> 20, prop.multiProcessorCount, o.reps, o.remap_reps, kXBuffers);
#ifndef SPMV_BENCH_HAVE_TRANSFORMED
    std::printf("note: built without the transformed kernel (no irregfix tool, no IRREGFIX_REWRITTEN_DIR)\n");
#endif
    std::fflush(stdout);

    cudaStream_t s;
    CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cusparseHandle_t h;
    CUSPARSE_CHECK(cusparseCreate(&h));
    CUSPARSE_CHECK(cusparseSetStream(h, s));
    std::vector<Result> results;
    bool ok = true;
    {
      Timer tm(s, static_cast<size_t>(l2));
      for (int scale : o.scales)
        for (const auto &cls : o.classes) {
          Result r = bench_case(o, cls, scale, h, tm);
          std::printf("%-9s %dx: original %.4f ms, irregfix %.4f ms, ALG1 %.4f ms, ALG2 %.4f ms, remap %.4f ms, "
                      "bitwise %s, cuSPARSE rel.err %.1e\n",
                      cls.c_str(), scale, r.orig_ms, r.xf_ms, r.alg1_ms, r.alg2_ms, r.remap_ms,
                      r.have_xf ? (r.bitwise ? "yes" : "NO") : "-", std::max(r.relerr1, r.relerr2));
          std::fflush(stdout);
          if (r.have_xf && !r.bitwise) ok = false;
          if (std::max(r.relerr1, r.relerr2) > 1e-5) ok = false;
          results.push_back(r);
        }
    }
    std::printf("\n");
    print_table(stdout, results, false);
    if (!o.md.empty()) {
      FILE *f = std::fopen(o.md.c_str(), "w");
      if (!f) {
        std::fprintf(stderr, "spmv_bench: error: cannot write '%s': %s\n", o.md.c_str(), std::strerror(errno));
        return 1;
      }
      std::fprintf(f, "Device: %s (L2 %d MiB). Times: median of %d launches, milliseconds.\n\n", prop.name,
                   l2 >> 20, o.reps);
      print_table(f, results, true);
      std::fclose(f);
    }
    CUSPARSE_CHECK(cusparseDestroy(h));
    CUDA_CHECK(cudaStreamDestroy(s));
    if (!ok) {
      std::fprintf(stderr, "spmv_bench: verification FAILED (transformed not bitwise equal, or cuSPARSE off)\n");
      return 2;
    }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "spmv_bench: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
