// What the first remapping launch of a program costs beyond a later one: CUDA
// loads the runtime's remap modules lazily, on their first use. Prints, for a
// range site (CG's path) in ELL: the host time of the first prepare_range
// call and until its copy is done, then the same for a miss on a second index
// array, once everything is loaded. With --behind-busy a 20 ms kernel is
// queued first: a prepare call that takes ~20 ms on the host waited for it
// (module loading synchronised the device). Run it under CUDA_MODULE_LOADING=
// LAZY (the default) and EAGER to see the load's share.
#include <irregfix/irregfix.cuh>

#include "bench_support.cuh"

#include <chrono>
#include <cstring>
#include <vector>

namespace {

__global__ void spin(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

__global__ void fill(float *a, long long n) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = static_cast<float>(i % 7);
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

const irregfix::SiteInfo kSite = {"module_load_bench:1", "bench", "range"};

// Host time of the prepare call, and until its copy has been made.
void time_prepare(const char *what, const int *B, long long n, const float *A, bool busy) {
  if (busy)
    spin<<<1, 1>>>(40LL * 1000 * 1000); // ~20 ms at 2 GHz
  CK(cudaPeekAtLastError());
  irregfix::View view;
  const void *out[1];
  const void *src[1] = {A};
  const size_t size[1] = {sizeof(float)};
  const auto t0 = std::chrono::steady_clock::now();
  const bool ok = irregfix::prepare_range(kSite, B, irregfix::kIndexI32, n, 1, src, size, &view, out, 0);
  const double call = ms_since(t0);
  CK(cudaDeviceSynchronize());
  std::printf("%-28s prepared=%d  call %.3f ms  until done %.3f ms\n", what, ok ? 1 : 0, call, ms_since(t0));
}

} // namespace

int main(int argc, char **argv) {
  const bool busy = argc > 1 && std::strcmp(argv[1], "--behind-busy") == 0;
  const long long n = 1 << 20, per_row = 5, nnz = n * per_row;
  std::vector<int> rows(n + 1);
  for (long long t = 0; t <= n; ++t)
    rows[t] = static_cast<int>(t * per_row);
  int *B1, *B2;
  float *A;
  CK(cudaFree(0));
  CK(cudaMalloc(&B1, (n + 1) * sizeof(int)));
  CK(cudaMalloc(&B2, (n + 1) * sizeof(int)));
  CK(cudaMalloc(&A, nnz * sizeof(float)));
  CK(cudaMemcpy(B1, rows.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(B2, rows.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
  fill<<<static_cast<unsigned>((nnz + 255) / 256), 256>>>(A, nnz); // this file's module is loaded
  spin<<<1, 1>>>(1);
  CK(cudaDeviceSynchronize());
  const char *loading = std::getenv("CUDA_MODULE_LOADING");
  std::printf("CUDA_MODULE_LOADING=%s%s\n", loading ? loading : "(default: LAZY)",
              busy ? ", a 20 ms kernel queued before each prepare" : "");
  time_prepare("first remap (modules load)", B1, n, A, busy);
  time_prepare("second remap (new B)", B2, n, A, busy);
  CK(cudaFree(B1));
  CK(cudaFree(B2));
  CK(cudaFree(A));
  return 0;
}
