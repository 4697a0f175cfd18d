// Host helpers of a user header: the tool rewrites the header too, so what
// they write is invalidated in their own bodies, not at their call sites.
#pragma once
#include <cuda_runtime.h>

void external_fill(float *p, int n);

inline void upload(float *dst, const float *src, int n) {
  cudaMemcpy(dst, src, n * sizeof(float), cudaMemcpyHostToDevice);
}
inline void refill(float *p, int n) { external_fill(p, n); }
inline void report(const char *what, void (*log)(const char *)) { log(what); }
