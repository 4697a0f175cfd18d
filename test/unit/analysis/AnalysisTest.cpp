#include "AnalysisTestUtil.h"

#include <gtest/gtest.h>

using namespace irregfix::test;

namespace {

// A CSR kernel with the thread index, guard and loop spelled by the caller.
std::string csr(const std::string &Index, const std::string &Guard, const std::string &Loop,
                const std::string &Params = "int n, const int *B, const float *A, float *y") {
  return "__global__ void k(" + Params + ") {\n  " + Index + "\n  " + Guard + " {\n    float s = 0;\n    " +
         Loop + "\n      s += A[k];\n    y[t] = s;\n  }\n}\n";
}

const char *Idx = "int t = blockIdx.x * blockDim.x + threadIdx.x;";
const char *Guard = "if (t < n)";
const char *Loop = "for (int k = B[t]; k < B[t + 1]; ++k)";

TEST(ThreadIndex, UsualSpellingsAreRecognised) {
  for (const char *I : {"int t = blockIdx.x * blockDim.x + threadIdx.x;",
                        "int t = threadIdx.x + blockIdx.x * blockDim.x;",
                        "int t = blockDim.x * blockIdx.x + threadIdx.x;",
                        "unsigned t = (unsigned)(blockIdx.x * blockDim.x) + threadIdx.x;",
                        "size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;",
                        "const int t = (blockIdx.x * blockDim.x) + (threadIdx.x);"}) {
    auto Sites = sitesOf(csr(I, Guard, Loop));
    ASSERT_EQ(Sites.size(), 1u) << I;
    EXPECT_TRUE(Sites[0].Transformable) << I << ": " << Sites[0].Refused;
  }
}

TEST(ThreadIndex, OtherIndicesAreRefused) {
  // The thread's index in its block alone: every block would read alike.
  auto Sites = sitesOf(csr("int t = threadIdx.x;", Guard, Loop));
  ASSERT_EQ(Sites.size(), 1u);
  EXPECT_FALSE(Sites[0].Transformable);
  EXPECT_NE(Sites[0].Refused.find("1-D global thread index"), std::string::npos) << Sites[0].Refused;
  // Other positions fit no range pattern: an indexed site numbers the launch's threads.
  for (const char *I : {"int t = blockIdx.y * blockDim.y + threadIdx.y;",
                        "int t = blockIdx.x * blockDim.x + threadIdx.y;",
                        "int t = blockIdx.x * blockDim.y + threadIdx.x;"}) {
    auto Indexed = sitesOf(csr(I, Guard, Loop));
    ASSERT_EQ(Indexed.size(), 1u) << I;
    EXPECT_EQ(Indexed[0].Pattern, "indexed") << I;
    EXPECT_TRUE(Indexed[0].Transformable) << I << ": " << Indexed[0].Refused;
  }
}

TEST(ThreadIndex, WrittenIndexVariableIsRefused) {
  auto Sites = sitesOf(csr("int t = blockIdx.x * blockDim.x + threadIdx.x; t += 1;", Guard, Loop));
  ASSERT_EQ(Sites.size(), 1u);
  EXPECT_FALSE(Sites[0].Transformable);
}

TEST(Guard, BothFormsGiveTheBound) {
  auto Less = sitesOf(csr(Idx, "if (t < n)", Loop));
  ASSERT_EQ(Less.size(), 1u);
  EXPECT_EQ(Less[0].Bound, "n");
  auto Greater = sitesOf(csr(Idx, "if (n > t)", Loop));
  ASSERT_EQ(Greater.size(), 1u);
  EXPECT_EQ(Greater[0].Bound, "n");
  auto Early = sitesOf(csr(std::string(Idx) + " if (t >= n) return;", "", Loop));
  ASSERT_EQ(Early.size(), 1u);
  EXPECT_TRUE(Early[0].Transformable) << Early[0].Refused;
  EXPECT_EQ(Early[0].Bound, "n");
}

TEST(Guard, MissingOrUnknownBoundIsRefused) {
  // Without a guard (and no other condition on the thread) the range covers the launch's threads.
  auto None = sitesOf(csr(Idx, "", Loop));
  ASSERT_EQ(None.size(), 1u);
  EXPECT_EQ(None[0].Pattern, "range");
  EXPECT_TRUE(None[0].Transformable) << None[0].Refused;
  EXPECT_TRUE(None[0].LaunchThreads);
  auto Local = sitesOf(csr(std::string(Idx) + " int m = B[0];", "if (t < m)", Loop));
  ASSERT_EQ(Local.size(), 1u);
  EXPECT_NE(Local[0].Refused.find("not computable"), std::string::npos) << Local[0].Refused;
}

TEST(RangeLoop, LocalsAndNotEqualAreRecognised) {
  auto Sites = sitesOf(csr(Idx, Guard, "int start = B[t], end = B[t + 1]; for (int k = start; k != end; k++)"));
  ASSERT_EQ(Sites.size(), 1u);
  EXPECT_TRUE(Sites[0].Transformable) << Sites[0].Refused;
  EXPECT_EQ(Sites[0].Offsets, "B");
  EXPECT_EQ(Sites[0].Arrays, "A");
}

TEST(RangeLoop, WrongBoundOrStepIsRefused) {
  // Another bound fits no range pattern: the loop becomes an indexed site.
  auto Bound = sitesOf(csr(Idx, Guard, "for (int k = B[t]; k < B[t] + 4; ++k)"));
  ASSERT_EQ(Bound.size(), 1u);
  EXPECT_EQ(Bound[0].Pattern, "indexed");
  EXPECT_TRUE(Bound[0].Transformable) << Bound[0].Refused;
  // A step of two neither: an indexed site counts its iterations in steps.
  auto Step = sitesOf(csr(Idx, Guard, "for (int k = B[t]; k < B[t + 1]; k += 2)"));
  ASSERT_EQ(Step.size(), 1u);
  EXPECT_EQ(Step[0].Pattern, "indexed");
  EXPECT_TRUE(Step[0].Transformable) << Step[0].Refused;
}

TEST(RangeLoop, LoopVariableUsedAsValueIsRebound) {
  std::string Code = "__global__ void k(int n, const int *B, const float *A, float *y) {\n"
                     "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
                     "  if (t < n) { float s = 0; for (int k = B[t]; k < B[t+1]; ++k) s += A[k] * k; y[t] = s; }\n}\n";
  auto Sites = sitesOf(Code);
  ASSERT_EQ(Sites.size(), 1u);
  EXPECT_TRUE(Sites[0].Transformable);
  EXPECT_TRUE(Sites[0].RebindsLoopVar);
}

TEST(Safety, WrittenArrayIsRefused) {
  auto Sites = sitesOf(csr(Idx, Guard, Loop, "int n, const int *B, float *A, float *y") );
  ASSERT_EQ(Sites.size(), 1u);
  EXPECT_TRUE(Sites[0].Transformable); // A is not written here
  std::string Code = "__global__ void k(int n, const int *B, float *A) {\n"
                     "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
                     "  if (t < n) { for (int k = B[t]; k < B[t+1]; ++k) A[k] = A[k] * 2; }\n}\n";
  auto W = sitesOf(Code);
  ASSERT_EQ(W.size(), 1u);
  EXPECT_FALSE(W[0].Transformable);
  EXPECT_NE(W[0].Refused.find("'A' is written"), std::string::npos) << W[0].Refused;
}

TEST(Safety, RestrictPointersNeedNoRuntimeCheck) {
  auto Plain = sitesOf(csr(Idx, Guard, Loop));
  ASSERT_EQ(Plain.size(), 1u);
  EXPECT_EQ(Plain[0].AliasChecks, 2u); // y against B and A
  auto Restrict = sitesOf(csr(Idx, Guard, Loop,
                              "int n, const int *__restrict__ B, const float *__restrict__ A, float *__restrict__ y"));
  ASSERT_EQ(Restrict.size(), 1u);
  EXPECT_EQ(Restrict[0].AliasChecks, 0u);
}

TEST(Gather, OneLevelGatherIsFound) {
  std::string Code = "__global__ void g(int n, const int *B, const float *A, float *y) {\n"
                     "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
                     "  if (t < n) y[t] = A[B[t]] + 2 * A[B[t]];\n}\n";
  auto Sites = sitesOf(Code);
  ASSERT_EQ(Sites.size(), 1u);
  EXPECT_EQ(Sites[0].Pattern, "gather");
  EXPECT_TRUE(Sites[0].Transformable) << Sites[0].Refused;
}

TEST(Gather, NestedReadInRangeIsNotAGatherSite) {
  std::string Code = "__global__ void s(int n, const int *B, const int *col, const float *A, const float *x, float *y) {\n"
                     "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
                     "  if (t < n) { float s = 0; for (int k = B[t]; k < B[t+1]; ++k) s += A[k] * x[col[k]]; y[t] = s; }\n}\n";
  auto Sites = sitesOf(Code);
  ASSERT_EQ(Sites.size(), 1u);
  EXPECT_EQ(Sites[0].Pattern, "range");
  EXPECT_EQ(Sites[0].Arrays, "A,col");
}

// A template with no instantiation in the file has nothing to analyse.
TEST(Kernel, UninstantiatedTemplatesAreRefused) {
  std::string Code = "template <class T> __global__ void k(int n, const int *B, const T *A, T *y) {\n"
                     "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
                     "  if (t < n) { T s = 0; for (int k = B[t]; k < B[t+1]; ++k) s += A[k]; y[t] = s; }\n}\n";
  auto Sites = sitesOf(Code);
  ASSERT_EQ(Sites.size(), 1u);
  EXPECT_FALSE(Sites[0].Transformable);
  EXPECT_EQ(Sites[0].Refused, "the kernel template is not instantiated in this file");
}

} // namespace
