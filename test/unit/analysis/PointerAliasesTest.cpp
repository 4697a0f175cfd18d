// Local pointers into an array the launch names (Analysis/PointerAliases.h):
// which array, at which offsets, or why such a pointer is not followed.
#include "AnalysisTestUtil.h"

#include "Analysis/PointerAliases.h"

#include "clang/AST/ParentMapContext.h"

#include <gtest/gtest.h>

using namespace irregfix;
using namespace irregfix::test;

namespace {

struct Into {
  std::string Array, Offsets, Why;
};

// pointerInto for the base of the first subscript of a local named `p` in the kernel.
Into intoOf(const std::string &Code) {
  Into Out;
  Out.Why = "(no read through p)";
  forEachKernel(Code, [&](const clang::FunctionDecl *K, clang::ASTContext &Ctx) {
    WriteSet W = WriteSet::of(K, nullptr);
    struct Finder : clang::RecursiveASTVisitor<Finder> {
      const clang::Expr *Base = nullptr;
      bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr *AS) {
        if (const auto *DR = llvm::dyn_cast<clang::DeclRefExpr>(AS->getBase()->IgnoreParenImpCasts()))
          if (!Base && DR->getDecl()->getName() == "p")
            Base = AS->getBase();
        return true;
      }
    } F;
    F.TraverseStmt(K->getBody());
    if (!F.Base)
      return;
    PointerInto P = pointerInto(F.Base, W);
    Out.Array = P.Array ? P.Array.spelling() : "";
    Out.Offsets.clear();
    for (const clang::Expr *O : P.Offsets) {
      std::string S;
      llvm::raw_string_ostream OS(S);
      O->printPretty(OS, nullptr, Ctx.getPrintingPolicy());
      Out.Offsets += (Out.Offsets.empty() ? "" : ", ") + S;
    }
    Out.Why = P.Why;
  });
  return Out;
}

TEST(PointerAliases, AnOffsetFromAParameter) {
  Into I = intoOf(R"(
    __global__ void k(const int *idx, const float *x, float *out, int n) {
      int t = blockIdx.x * blockDim.x + threadIdx.x;
      const int *const p = idx + 4 * t;
      if (t < n) out[t] = x[p[1]];
    })");
  EXPECT_EQ(I.Array, "idx");
  EXPECT_EQ(I.Offsets, "4 * t");
  EXPECT_EQ(I.Why, "");
}

TEST(PointerAliases, AnAddressAndAPointerIntoAPointer) {
  Into I = intoOf(R"(
    struct Mesh { const int *corner; };
    __global__ void k(Mesh m, const float *x, float *out, int n) {
      int t = blockIdx.x * blockDim.x + threadIdx.x;
      const int *q = &m.corner[2 * t];
      const int *p = q + 1;
      if (t < n) out[t] = x[p[0]];
    })");
  EXPECT_EQ(I.Array, "m.corner");
  EXPECT_EQ(I.Offsets, "1, 2 * t");
}

TEST(PointerAliases, ChangedPointersAreNotFollowed) {
  Into Assigned = intoOf(R"(
    __global__ void k(const int *idx, const float *x, float *out, int n, int flip) {
      int t = blockIdx.x * blockDim.x + threadIdx.x;
      const int *p = idx + t;
      if (flip) p = idx;
      if (t < n) out[t] = x[p[0]];
    })");
  EXPECT_EQ(Assigned.Array, "");
  EXPECT_EQ(Assigned.Why, "a local pointer that is assigned again");
  Into Stepped = intoOf(R"(
    __global__ void k(const int *idx, const float *x, float *out, int n) {
      int t = blockIdx.x * blockDim.x + threadIdx.x;
      const int *p = idx + t;
      ++p;
      if (t < n) out[t] = x[p[0]];
    })");
  EXPECT_EQ(Stepped.Why, "a local pointer that is stepped, or its address or a reference to it is taken");
}

TEST(PointerAliases, AnotherElementTypeIsNotFollowed) {
  Into I = intoOf(R"(
    __global__ void k(const short *idx, const float *x, float *out, int n) {
      int t = blockIdx.x * blockDim.x + threadIdx.x;
      const int *p = (const int *)idx + t;
      if (t < n) out[t] = x[p[0]];
    })");
  EXPECT_EQ(I.Array, "");
  EXPECT_EQ(I.Why, "a local pointer whose elements' type is not that of 'idx'");
}

TEST(PointerAliases, ThePointerOfNoArrayIsNone) {
  Into I = intoOf(R"(
    __global__ void k(const float *x, float *out, int n) {
      __shared__ int list[64];
      int t = blockIdx.x * blockDim.x + threadIdx.x;
      const int *p = list + threadIdx.x;
      if (t < n) out[t] = x[p[0]];
    })");
  EXPECT_EQ(I.Array, "");
  EXPECT_EQ(I.Why, "");
}

} // namespace
