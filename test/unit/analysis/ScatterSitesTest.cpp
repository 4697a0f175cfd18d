// The scatter analysis on in-memory kernels: which updates through index
// arrays it takes, and why it refuses the others.
#include "AnalysisTestUtil.h"

#include "Analysis/ScatterSites.h"

#include <gtest/gtest.h>

namespace irregfix::test {
namespace {

// Each update of the only kernel in Code: "ok" or its reason.
std::vector<std::string> verdicts(const std::string &Code) {
  std::vector<std::string> Out;
  EXPECT_TRUE(forEachKernel(Code, [&](const clang::FunctionDecl *K, clang::ASTContext &Ctx) {
    for (const ScatterSite &S : findScatterSites(K, Ctx, /*DeviceOnly=*/nullptr))
      Out.push_back(S.transformable() ? "ok" : S.RefusedBecause);
  }));
  return Out;
}

TEST(ScatterSites, GridStrideLoopAndLocalsAreTaken) {
  EXPECT_EQ(verdicts(R"(
__global__ void k(int n, const int *f, const float *w, float *A) {
  for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < n; t += blockDim.x * gridDim.x) {
    float v = w[t] * 2.0f;
    A[f[t]] += v;
  }
})"),
            std::vector<std::string>{"ok"});
}

TEST(ScatterSites, NoIndirectUpdateIsNoSite) {
  EXPECT_TRUE(verdicts(R"(
__global__ void k(int n, const float *w, float *A) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) A[t] += w[t];
})").empty());
}

TEST(ScatterSites, ContributionFromSharedMemoryIsRefused) {
  EXPECT_EQ(verdicts(R"(
__global__ void k(int n, const int *f, const float *w, float *A) {
  __shared__ float s[256];
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = w[t];
  __syncthreads();
  if (t < n) atomicAdd(&A[f[t]], s[255 - threadIdx.x]);
})"),
            std::vector<std::string>{"the contribution reads shared memory ('s')"});
}

TEST(ScatterSites, CounterBesideTheUpdateIsRefused) {
  EXPECT_EQ(verdicts(R"(
__global__ void k(int n, const int *f, const float *w, float *A, int *count) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    A[f[t]] += w[t];
    atomicAdd(&count[0], 1);
  }
})"),
            std::vector<std::string>{"the kernel also writes 'count' other than as 'count[t] = ...' (the original "
                                     "kernel, the fallback, must be able to write it again)"});
}

} // namespace
} // namespace irregfix::test
