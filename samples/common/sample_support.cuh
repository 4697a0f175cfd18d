// Host helpers and the deterministic block reduction shared by the samples
// (CG, SP, MD). Each sample defines SAMPLE_NAME (its program name, used as the
// prefix of every message) before including this header:
//
//   #define SAMPLE_NAME "cg"
//   #include "../common/sample_support.cuh"
//
// The samples' own kernels stay in their main .cu files, which irregfix
// rewrites; this header is only included, never rewritten.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#ifndef SAMPLE_NAME
#error "define SAMPLE_NAME (the program name) before including sample_support.cuh"
#endif

#define CUDA_CHECK(call)                                                                  \
  do {                                                                                    \
    cudaError_t err_ = (call);                                                            \
    if (err_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, SAMPLE_NAME ": CUDA error at %s:%d: %s (%s)\n", __FILE__,      \
                   __LINE__, cudaGetErrorString(err_), #call);                            \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

namespace sample {

// ---- Deterministic reduction ------------------------------------------------

struct Sum {
  template <typename T> __device__ T operator()(T a, T b) const { return a + b; }
};

struct Max {
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};

// Tree reduction of s[0..blockDim.x) in shared memory (blockDim.x a power of
// two, every thread of the block calls it after writing its own s[threadIdx.x]):
// fixed pairing, no atomics, so the result in s[0] is the same on every run.
// Used by both passes of the samples' two-pass reductions (block partials with
// a fixed grid, then one block over the partials).
template <typename T, typename Op> __device__ void block_reduce(T *s, Op op) {
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w) s[threadIdx.x] = op(s[threadIdx.x], s[threadIdx.x + w]);
    __syncthreads();
  }
}

// ---- Errors and arguments ----------------------------------------------------

[[noreturn]] inline void bad(const std::string &msg) {
  std::fprintf(stderr, SAMPLE_NAME ": error: %s\n", msg.c_str());
  std::fprintf(stderr, SAMPLE_NAME ": run '" SAMPLE_NAME " --help' for usage\n");
  std::exit(1);
}

inline long long parse_int(const std::string &opt, const char *s, long long lo, long long hi) {
  errno = 0;
  char *end = nullptr;
  long long v = std::strtoll(s, &end, 10);
  if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi)
    bad(opt + " expects an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
        "], got '" + s + "'");
  return v;
}

// A real number for which ok(v) holds, else "OPT expects WHAT, got 'S'".
template <typename Ok> double parse_real(const std::string &opt, const char *s, Ok ok, const char *what) {
  char *end = nullptr;
  errno = 0;
  double v = std::strtod(s, &end);
  if (errno != 0 || end == s || *end != '\0' || !ok(v))
    bad(opt + " expects " + what + ", got '" + std::string(s) + "'");
  return v;
}

// Walks argv: -h/--help prints usage to stdout and exits 0; every other
// argument goes to handle(arg, value), where value() takes the next argument
// (or fails with "option ARG needs a value"); handle returns false for an
// unknown argument.
template <typename Handle> void parse_args(int argc, char **argv, void (*usage)(FILE *), Handle handle) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      usage(stdout);
      std::exit(0);
    }
    auto value = [&]() -> const char * {
      if (i + 1 >= argc) bad("option " + a + " needs a value");
      return argv[++i];
    };
    if (!handle(a, value)) bad("unknown argument '" + a + "'");
  }
}

// Reports an input error (exception text) the way the samples do.
inline int input_error(const char *what) {
  std::fprintf(stderr, SAMPLE_NAME ": error: %s\n", what);
  return 1;
}

// True (after saying so) when there is no CUDA device: the caller exits 77,
// which the tests treat as "skipped".
inline bool no_cuda_device() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, SAMPLE_NAME ": no CUDA device found\n");
    return true;
  }
  return false;
}

// ---- Results -------------------------------------------------------------------

// FNV-1a 64 over raw bytes, continuing from h.
const uint64_t fnv1a_init = 0xcbf29ce484222325ULL;
inline uint64_t fnv1a(const void *data, size_t bytes, uint64_t h = fnv1a_init) {
  const unsigned char *p = static_cast<const unsigned char *>(data);
  for (size_t i = 0; i < bytes; ++i) {
    h ^= p[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

inline void print_checksum(uint64_t h) { std::printf("checksum: %016llx\n", static_cast<unsigned long long>(h)); }

struct Bytes {
  const void *data;
  size_t size;
};

// Writes the parts, in order, as raw bytes to path (the --dump file); false
// (after saying why) when it cannot.
inline bool write_dump(const std::string &path, std::initializer_list<Bytes> parts) {
  FILE *f = std::fopen(path.c_str(), "wb");
  if (!f) {
    std::fprintf(stderr, SAMPLE_NAME ": error: cannot write '%s': %s\n", path.c_str(), std::strerror(errno));
    return false;
  }
  bool ok = true;
  for (const Bytes &b : parts) ok = std::fwrite(b.data, 1, b.size, f) == b.size && ok;
  if (std::fclose(f) != 0 || !ok) {
    std::fprintf(stderr, SAMPLE_NAME ": error: writing '%s' failed\n", path.c_str());
    return false;
  }
  return true;
}

// ---- Timing ----------------------------------------------------------------------

// Whole-run time with CUDA events: begin() synchronises the device and records
// the start, end() records the stop and returns the elapsed milliseconds.
class RunTimer {
public:
  void begin() {
    CUDA_CHECK(cudaEventCreate(&start_));
    CUDA_CHECK(cudaEventCreate(&stop_));
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaEventRecord(start_));
  }
  float end() {
    CUDA_CHECK(cudaEventRecord(stop_));
    CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
  }
  void destroy() {
    CUDA_CHECK(cudaEventDestroy(start_));
    CUDA_CHECK(cudaEventDestroy(stop_));
  }

private:
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

inline float median(std::vector<float> v) {
  if (v.empty()) return 0.0f;
  std::sort(v.begin(), v.end());
  size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5f * (v[m - 1] + v[m]);
}

// --time-kernels: a pair of events around each of `launches` launches of one
// kernel, read once after the run (no syncs inside). With 0 launches it does
// nothing.
class LaunchTimes {
public:
  explicit LaunchTimes(int launches) : ev_(2 * static_cast<size_t>(launches)) {
    for (cudaEvent_t &ev : ev_) CUDA_CHECK(cudaEventCreate(&ev));
  }
  void before(int i) {
    if (!ev_.empty()) CUDA_CHECK(cudaEventRecord(ev_[2 * static_cast<size_t>(i)]));
  }
  void after(int i) {
    if (!ev_.empty()) CUDA_CHECK(cudaEventRecord(ev_[2 * static_cast<size_t>(i) + 1]));
  }
  // "KERNEL: median M ms over N launches (min A, max B)", when there were launches.
  void print(const char *kernel) const {
    if (ev_.empty()) return;
    std::vector<float> t(ev_.size() / 2);
    for (size_t i = 0; i < t.size(); ++i) CUDA_CHECK(cudaEventElapsedTime(&t[i], ev_[2 * i], ev_[2 * i + 1]));
    std::printf("%s: median %.4f ms over %d launches (min %.4f, max %.4f)\n", kernel, median(t),
                static_cast<int>(t.size()), *std::min_element(t.begin(), t.end()),
                *std::max_element(t.begin(), t.end()));
  }
  void destroy() {
    for (cudaEvent_t ev : ev_) CUDA_CHECK(cudaEventDestroy(ev));
  }

private:
  std::vector<cudaEvent_t> ev_;
};

} // namespace sample
