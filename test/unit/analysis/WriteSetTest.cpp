#include "AnalysisTestUtil.h"

#include <gtest/gtest.h>

using namespace irregfix;
using namespace irregfix::test;

namespace {

// Names of the parameters the single kernel in Code writes through, and whether
// some write is untraced.
std::pair<std::string, bool> writesOf(const std::string &Code) {
  std::string Names;
  bool Untraced = false;
  forEachKernel(Code, [&](const clang::FunctionDecl *K, clang::ASTContext &) {
    WriteSet W = WriteSet::of(K);
    for (const clang::ParmVarDecl *P : K->parameters())
      if (W.writesThrough(ArrayRef(P)))
        Names += (Names.empty() ? "" : ",") + P->getNameAsString();
    Untraced = W.hasUntracedWrite();
  });
  return {Names, Untraced};
}

TEST(WriteSet, DirectStoresAndCompoundAssignments) {
  auto [Names, Untraced] = writesOf("__global__ void k(float *a, float *b, const float *c) { a[0] = c[0]; b[1] += 2; }");
  EXPECT_EQ(Names, "a,b");
  EXPECT_FALSE(Untraced);
}

TEST(WriteSet, IncrementsAndDereferences) {
  auto [Names, Untraced] = writesOf("__global__ void k(int *a, int *b, int *c) { a[0]++; *(b + 3) = 1; --*c; }");
  EXPECT_EQ(Names, "a,b,c");
}

TEST(WriteSet, LocalPointerCopies) {
  auto [Names, Untraced] = writesOf("__global__ void k(float *a, float *b) { float *p = b + 4; p[0] = 1; }");
  EXPECT_EQ(Names, "b");
  EXPECT_FALSE(Untraced);
}

TEST(WriteSet, AtomicsAndEscapesCountAsWrites) {
  auto [Names, Untraced] =
      writesOf("__device__ void f(float *p); __global__ void k(float *a, float *b, const float *c) {"
               " atomicAdd(&a[2], 1.0f); f(b + 1); }");
  EXPECT_EQ(Names, "a,b");
}

TEST(WriteSet, ReassignedPointerMakesWritesUntraced) {
  auto [Names, Untraced] = writesOf("__global__ void k(float *a, float *b, int c) { float *p = a; if (c) p = b; p[0] = 1; }");
  EXPECT_TRUE(Untraced);
}

TEST(WriteSet, SharedAndLocalArraysAreNotSources) {
  auto [Names, Untraced] =
      writesOf("__global__ void k(const float *a) { __shared__ float s[32]; float l[4]; s[threadIdx.x] = a[0]; l[1] = 2; }");
  EXPECT_EQ(Names, "");
  EXPECT_FALSE(Untraced);
}

} // namespace

TEST(WriteSet, StructFieldsAreArraysOfTheirOwn) {
  std::string Names;
  bool Untraced = true;
  forEachKernel("struct G { const int *a; float *b; float *c; };\n"
                "__global__ void k(G g) { g.b[0] = g.a[1]; float *p = g.c; p[2] = 1; }",
                [&](const clang::FunctionDecl *K, clang::ASTContext &) {
                  WriteSet W = WriteSet::of(K);
                  for (const ArrayRef &A : W.writtenArrays())
                    Names += (Names.empty() ? "" : ",") + A.spelling();
                  Untraced = W.hasUntracedWrite();
                });
  EXPECT_EQ(Names, "g.b,g.c");
  EXPECT_FALSE(Untraced);
}

