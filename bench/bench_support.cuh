// What the benchmark programs share: checked CUDA and cuSPARSE calls and a median timer.
#pragma once

#include <cuda_runtime.h>
#include <cusparse.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x)                                                                                      \
  do {                                                                                             \
    cudaError_t e_ = (x);                                                                          \
    if (e_ != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "%s failed: %s\n", #x, cudaGetErrorString(e_));                         \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

#define CKS(x)                                                                                     \
  do {                                                                                             \
    cusparseStatus_t s_ = (x);                                                                     \
    if (s_ != CUSPARSE_STATUS_SUCCESS) {                                                           \
      std::fprintf(stderr, "%s failed: %s\n", #x, cusparseGetErrorString(s_));                     \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

// Median time of f() over reps runs, by CUDA events, after one warm-up run;
// before() runs ahead of each timed run, outside the timed region (e.g. an L2 flush).
template <class F, class Before> float median_ms(F f, int reps, Before before) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  f(); // warm-up
  CK(cudaDeviceSynchronize());
  std::vector<float> t;
  for (int i = 0; i < reps; ++i) {
    before(i);
    CK(cudaEventRecord(a));
    f();
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  CK(cudaEventDestroy(a));
  CK(cudaEventDestroy(b));
  return t[t.size() / 2];
}

template <class F> float median_ms(F f, int reps) {
  return median_ms(f, reps, [](int) {});
}
