// How a called function's parameters stand for the kernel's values along the
// chain of calls that reaches it (Analysis/CallChains.h).
#include "AnalysisTestUtil.h"

#include "Analysis/CallChains.h"

#include <gtest/gtest.h>

using namespace irregfix;
using namespace irregfix::test;

namespace {

struct ChainSummary {
  std::string Path;      // "f>g"
  std::string Arrays;    // "a=x,idx=j" (the last function's parameters as the kernel's arrays)
  std::string Thread;    // "i" (its parameters holding the thread index)
  std::string Refused;
  std::string Local;   // "m" (its parameters bound to memory local to the thread)
  std::string Offsets; // "w@x" (its parameters bound into a kernel array at an offset)
  std::string Unbound; // "p: why; q: why" (its pointer parameters bound to none of these, and why)
  std::string Views;   // "w@x" (its offset parameters a site can read as views of the kernel's arrays)
};

std::vector<ChainSummary> chainsOf(const std::string &Code) {
  std::vector<ChainSummary> Out;
  forEachKernel(Code, [&](const clang::FunctionDecl *K, clang::ASTContext &Ctx) {
    WriteSet W = WriteSet::of(K, nullptr);
    for (const BoundChain &B : boundCallChains(K, W, Ctx, nullptr)) {
      ChainSummary S;
      for (const clang::FunctionDecl *F : B.Chain.Functions)
        S.Path += (S.Path.empty() ? "" : ">") + F->getNameAsString();
      for (const clang::ParmVarDecl *P : B.Chain.callee()->parameters()) {
        auto It = B.Params.find(P);
        if (It != B.Params.end())
          S.Arrays += (S.Arrays.empty() ? "" : ",") + P->getNameAsString() + "=" + It->second.spelling();
        if (B.ThreadParams.count(P))
          S.Thread += (S.Thread.empty() ? "" : ",") + P->getNameAsString();
        if (auto Sp = B.Spaces.find(P); Sp != B.Spaces.end() && Sp->second == MemorySpace::ThreadLocal)
          S.Local += (S.Local.empty() ? "" : ",") + P->getNameAsString();
        if (auto O = B.Offsets.find(P); O != B.Offsets.end())
          S.Offsets += (S.Offsets.empty() ? "" : ",") + P->getNameAsString() + "@" + O->second.Array.spelling();
        if (const OffsetBinding *V = B.viewOf(ArrayRef(P), W))
          S.Views += (S.Views.empty() ? "" : ",") + P->getNameAsString() + "@" + V->Array.spelling();
        if (auto U = B.UnboundBecause.find(P); U != B.UnboundBecause.end())
          S.Unbound += (S.Unbound.empty() ? "" : "; ") + P->getNameAsString() + ": " + U->second;
      }
      S.Refused = B.RefusedBecause;
      Out.push_back(S);
    }
  });
  return Out;
}

TEST(CallChains, ParametersMapThroughEveryCall) {
  auto Chains = chainsOf(R"(
    __device__ float g(const float *a, const int *idx, int i, int c) { return a[idx[i]] + c; }
    __device__ float f(const int *j, const float *y, int t) { return g(y, j, t, t + 1); }
    __global__ void k(int n, const float *x, const int *j, float *out) {
      int t = blockIdx.x * blockDim.x + threadIdx.x;
      if (t < n) out[t] = f(j, x, t);
    }
  )");
  ASSERT_EQ(Chains.size(), 2u);
  EXPECT_EQ(Chains[0].Path, "f");
  EXPECT_EQ(Chains[0].Arrays, "j=j,y=x");
  EXPECT_EQ(Chains[0].Thread, "t");
  EXPECT_EQ(Chains[1].Path, "f>g");
  EXPECT_EQ(Chains[1].Arrays, "a=x,idx=j");
  EXPECT_EQ(Chains[1].Thread, "i"); // not c = t + 1
  EXPECT_EQ(Chains[1].Refused, "");
}

TEST(CallChains, StructFieldsAndOffsetPointers) {
  auto Chains = chainsOf(R"(
    struct M { const int *off; const float *val; };
    __device__ float f(M m, const float *p, int r) { return m.val[m.off[r]] + p[0]; }
    __global__ void k(int n, M m, const float *x, float *out) {
      int t = blockIdx.x * blockDim.x + threadIdx.x;
      if (t < n) out[t] = f(m, x + 1, t);
    }
  )");
  ASSERT_EQ(Chains.size(), 1u);
  EXPECT_EQ(Chains[0].Arrays, "m=m"); // the struct; p = x + 1 is no kernel array
  EXPECT_EQ(Chains[0].Thread, "r");
}

TEST(CallChains, CalledTwiceOrTooDeepIsNotCopied) {
  auto Chains = chainsOf(R"(
    __device__ int e(int i) { return i; }
    __device__ int d(int i) { return e(i); }
    __device__ int c(int i) { return d(i); }
    __device__ int b(int i) { return c(i); }
    __device__ int a(int i) { return b(i) + b(i + 1); }
    __global__ void k(int n, int *out) {
      int t = blockIdx.x * blockDim.x + threadIdx.x;
      if (t < n) out[t] = a(t);
    }
  )");
  // Four calls deep at most: k > a > b > c > d; e is not followed.
  ASSERT_EQ(Chains.size(), 4u);
  EXPECT_EQ(Chains[3].Path, "a>b>c>d");
  EXPECT_EQ(Chains[0].Refused, "");
  EXPECT_NE(Chains[1].Refused.find("'b' is called at 2 places"), std::string::npos) << Chains[1].Refused;
  EXPECT_NE(Chains[3].Refused.find("'b' is called at 2 places"), std::string::npos) << Chains[3].Refused;
}

TEST(CallChains, RecursionIsRefused) {
  auto Chains = chainsOf(R"(
    __device__ int r(const int *a, int i) { return i > 0 ? r(a, i - 1) : a[i]; }
    __global__ void k(int n, const int *a, int *out) {
      int t = blockIdx.x * blockDim.x + threadIdx.x;
      if (t < n) out[t] = r(a, t);
    }
  )");
  ASSERT_EQ(Chains.size(), 1u);
  EXPECT_EQ(Chains[0].Refused, "'r' is recursive");
}

TEST(CallChains, ParametersBoundToTheThreadsOwnMemoryOrAnOffset) {
  auto Chains = chainsOf(R"(
    __device__ int g(const int *m, const float *w, int i) { return m[i] + (int)w[i]; }
    __device__ int f(const int *m, const float *w, int i) { return i ? f(m, w, i - 1) : g(m, w + 2, i); }
    __global__ void k(int n, const float *x, int *out) {
      int t = blockIdx.x * blockDim.x + threadIdx.x;
      int own[4];
      for (int i = 0; i < 4; ++i) own[i] = i;
      if (t < n) out[t] = f(own, x + 8 * t, 3);
    }
  )");
  ASSERT_EQ(Chains.size(), 2u);
  // f calls itself with the same arrays: bound as at the kernel's call.
  EXPECT_EQ(Chains[0].Local, "m");
  EXPECT_EQ(Chains[0].Offsets, "w@x");
  EXPECT_EQ(Chains[1].Local, "m");
  EXPECT_EQ(Chains[1].Offsets, "w@x"); // an offset added to an offset
}

TEST(CallChains, CallsThatBindDifferentlyBindNothing) {
  auto Chains = chainsOf(R"(
    __device__ int g(const int *m, int i) { return m[i]; }
    __global__ void k(int n, const int *dev, int *out) {
      int t = blockIdx.x * blockDim.x + threadIdx.x;
      int own[4], other[4];
      for (int i = 0; i < 4; ++i) own[i] = other[i] = i;
      if (t < n) out[t] = g(own, t) + g(other, t) + g(dev + 1, t);
    }
  )");
  ASSERT_EQ(Chains.size(), 1u);
  EXPECT_EQ(Chains[0].Local, "");
  EXPECT_EQ(Chains[0].Offsets, "");
}

TEST(CallChains, WhyAPointerParameterIsBoundToNoKernelArray) {
  auto Chains = chainsOf(R"(
    __device__ int g(const int *a, const int *b, const int *c, const int *d, int i) {
      return (a ? a[i] : 0) + b[i] + c[i] + d[i];
    }
    __device__ int f(const int *p, const int *q, const int *r, int i) {
      const int *later;
      later = q;
      p = r + i;
      return g(0, later, p, r == q ? p : later, i);
    }
    __global__ void k(int n, const int *x, const int *y, int *out) {
      int t = blockIdx.x * blockDim.x + threadIdx.x;
      if (t < n) out[t] = f(x, y, x, t);
    }
  )");
  ASSERT_EQ(Chains.size(), 2u);
  EXPECT_EQ(Chains[1].Path, "f>g");
  // `later`, set once after its declaration to `q`, is the kernel's 'y'.
  EXPECT_EQ(Chains[1].Unbound, "a: a null pointer; c: 'p' is a parameter 'f' assigns");
  EXPECT_EQ(Chains[1].Arrays, "b=y");
}

TEST(CallChains, AnUnboundParameterPassedOnKeepsItsReason) {
  auto Chains = chainsOf(R"(
    __device__ int h(const int *v, int i) { return v[i]; }
    __device__ int g(const int *u, int i) { return h(u, i); }
    __global__ void k(int n, int c, const int *x, const int *y, int *out) {
      int t = blockIdx.x * blockDim.x + threadIdx.x;
      const int *pick = c ? x : y;
      if (t < n) out[t] = g(pick, t);
    }
  )");
  ASSERT_EQ(Chains.size(), 2u);
  EXPECT_EQ(Chains[0].Unbound, "u: 'pick' is either of two pointers, given 'x' and 'y', which point into different "
                               "memory");
  EXPECT_EQ(Chains[1].Unbound, "v: 'pick' is either of two pointers, given 'x' and 'y', which point into different "
                               "memory");
}

TEST(CallChains, BindingsDroppedForCallsNotAlikeSayWhich) {
  auto Chains = chainsOf(R"(
    __device__ int g(const int *m, int i) { return m[i]; }
    __device__ int f(const int *m, int i) {
      int own[2] = {1, 2};
      return i > 1 ? f(own, i - 1) : g(m, i);
    }
    __global__ void k(int n, const int *dev, int *out) {
      int t = blockIdx.x * blockDim.x + threadIdx.x;
      if (t < n) out[t] = f(dev + 4, t);
    }
  )");
  ASSERT_EQ(Chains.size(), 2u);
  EXPECT_EQ(Chains[1].Path, "f>g");
  EXPECT_EQ(Chains[1].Offsets, "");
  EXPECT_EQ(Chains[1].Unbound, "m: 'f' is called elsewhere with pointers not bound alike (what a parameter "
                               "points into is followed only where every call binds it alike)");
}

TEST(CallChains, PointersGivenTheirValuesLater) {
  auto Chains = chainsOf(R"(
    __device__ int g(const int *a, const int *b, const int *c, int i) { return a[i] + b[i] + c[i]; }
    __device__ int f(const int *x, const int *y, int i, int odd) {
      int own[4] = {1, 2, 3, 4}, more[4] = {4, 3, 2, 1};
      const int *a, *b, *c;
      if (odd) a = own; else a = more;
      if (odd) b = x; else b = x + i;
      if (odd) c = x; else c = own;
      return g(a, b, c, i);
    }
    __global__ void k(int n, const int *x, const int *y, int *out) {
      int t = blockIdx.x * blockDim.x + threadIdx.x;
      if (t < n) out[t] = f(x, y, t, t & 1);
    }
  )");
  ASSERT_EQ(Chains.size(), 2u);
  EXPECT_EQ(Chains[1].Local, "a");
  EXPECT_EQ(Chains[1].Offsets, "b@x");
  EXPECT_EQ(Chains[1].Unbound, "c: 'c' is a local pointer declared without a value, given 'x' and 'own', which "
                               "point into different memory");
}

TEST(CallChains, ARecursionUnlikeInOneParameterKeepsTheOthers) {
  // `descend` hands itself another `v` but the same `pool`: what its callee
  // is given from the pool is still the thread's own memory.
  auto Chains = chainsOf(R"(
    __device__ int leaf(const int *v, const int *scratch, int i) { return v[i] + scratch[i]; }
    __device__ int descend(const int *v, int *pool, int i, int depth) {
      int *scratch = pool + 4;
      return depth > 0 ? descend(scratch, pool, i, depth - 1) : leaf(v, scratch, i);
    }
    __global__ void k(int n, const int *x, int *out) {
      int pool[16] = {0};
      int t = blockIdx.x * blockDim.x + threadIdx.x;
      if (t < n) out[t] = descend(x + 1, pool, t, 3);
    }
  )");
  ASSERT_EQ(Chains.size(), 2u);
  EXPECT_EQ(Chains[1].Path, "descend>leaf");
  EXPECT_EQ(Chains[1].Local, "scratch");
  EXPECT_EQ(Chains[1].Unbound, "v: 'descend' is called elsewhere with pointers not bound alike (what a parameter "
                               "points into is followed only where every call binds it alike)");
}

TEST(CallChains, ViewsAreOffsetsTheLaunchComputesOfArraysNothingWrites) {
  auto Chains = chainsOf(R"(
    struct Shape { int skip; };
    __device__ float f(const float *a, const float *b, const float *c, float *d, const float *e, int i) {
      d[i] = 0.f;
      return a[i] + b[i] + c[i] + d[i + 1] + e[i];
    }
    __global__ void k(int n, int shift, Shape s, const float *x, float *y, float *z, float *w) {
      int t = blockIdx.x * blockDim.x + threadIdx.x;
      const float *later = x + 2 * shift;
      if (t < n) w[t] = f(&x[shift + 1], later, x + t, z + shift, y + s.skip, t);
      if (t == 0) y[0] = 1.f;
    }
  )");
  ASSERT_EQ(Chains.size(), 1u);
  EXPECT_EQ(Chains[0].Offsets, "a@x,b@x,c@x,d@z,e@y");
  // c: the thread's offset; d: written through the parameter; e: its array written by the kernel.
  EXPECT_EQ(Chains[0].Views, "a@x,b@x");
}

} // namespace
