// A row-sum kernel in its original CSR form and in the form irregfix emits,
// and a launcher that follows the generated launchers' protocol
// (begin_launch / alias checks / prepare_range / start_chunks / launch_chunk /
// end_*_launch; the kernel is chunkable). Shared by the launch-overhead
// benchmark (bench/launch_overhead_bench.cu) and the launch GPU tests.
#pragma once

#include <irregfix/irregfix.cuh>

namespace row_sum {

__global__ void csr(long long n, const int *B, const float *A, float *y) {
  long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k)
      s += A[k];
    y[t] = s;
  }
}

// Same order of additions as csr(): bitwise equal results.
__global__ void view(long long n, irregfix::View v, const float *A, float *y,
                     unsigned block_offset) {
  long long t = (blockIdx.x + block_offset) * (long long)blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int i = 0, len = irregfix::length(v, t); i < len; ++i)
      s += A[irregfix::slot(v, t, i)];
    y[t] = s;
  }
}

// True when the transformed kernel ran. kernels = false skips both kernel
// launches (the runtime's own cost alone).
inline bool launch(const irregfix::SiteInfo &site, long long n, const int *B, const float *A, float *y,
                   cudaStream_t stream, bool kernels = true) {
  irregfix::View v;
  const void *out[1];
  const void *const src[1] = {A};
  const size_t size[1] = {sizeof(float)};
  const dim3 grid(static_cast<unsigned>((n + 255) / 256)), block(256);
  int chunks = 0;
  if (irregfix::begin_launch(site, stream, grid, block) && irregfix::disjoint(site, y, B) &&
      irregfix::disjoint(site, y, A) &&
      irregfix::prepare_range(site, B, irregfix::index_kind(B), n, 1, src, size, &v, out, stream) &&
      irregfix::start_chunks(site, stream, &chunks)) {
    for (int c = 0; c < chunks; ++c) {
      const irregfix::Chunk k = irregfix::launch_chunk(site, c, grid, stream);
      if (kernels)
        view<<<k.grid, block, 0, stream>>>(n, v, static_cast<const float *>(out[0]), y, k.block_offset);
    }
    irregfix::end_transformed_launch(site, stream);
    return true;
  }
  if (kernels)
    csr<<<grid, block, 0, stream>>>(n, B, A, y);
  irregfix::end_original_launch(site, stream);
  return false;
}

} // namespace row_sum
