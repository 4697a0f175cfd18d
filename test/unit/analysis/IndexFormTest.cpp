// Index forms (Analysis/IndexForm.h): an operation on constants inside an index
// folds as Clang folds it, through parentheses and integer conversions (a
// narrowing one wraps, a widening one keeps the sign). (A constant alone is
// read through its casts: `(char)300` is 300.)
#include "AnalysisTestUtil.h"

#include "Analysis/IndexForm.h"

#include <gtest/gtest.h>

using namespace irregfix;
using namespace irregfix::test;

namespace {

// The form of the read of `a` in Code's kernel.
std::string formOfRead(const std::string &Code) {
  std::string Out;
  forEachKernel(Code, [&](const clang::FunctionDecl *K, clang::ASTContext &Ctx) {
    struct Reads : clang::RecursiveASTVisitor<Reads> {
      const clang::ArraySubscriptExpr *OfA = nullptr;
      bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr *E) {
        if (const auto *DR = llvm::dyn_cast<clang::DeclRefExpr>(E->getBase()->IgnoreParenImpCasts()))
          if (DR->getDecl()->getName() == "a")
            OfA = E;
        return true;
      }
    } R;
    R.TraverseStmt(K->getBody());
    ASSERT_NE(R.OfA, nullptr);
    const WriteSet W = WriteSet::of(K, /*DeviceOnly=*/nullptr);
    FormBuilder Forms(K, W, Ctx);
    Out = Forms.readOf(R.OfA)->str();
  });
  return Out;
}

TEST(IndexForm, ConstantsFoldThroughParenthesesAndConversions) {
  EXPECT_EQ(formOfRead(R"cu(
__global__ void k(const float *a, const int *b, float *o) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  o[t] = a[b[t] + (int)(signed char)200 * 1 + (unsigned)((3 - 1))];
}
)cu"),
            "a[((b[t] + -56) + 2)]");
  EXPECT_EQ(formOfRead(R"cu(
__global__ void k(const float *a, const int *b, float *o) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  o[t] = a[(long)(unsigned char)(300) * (short)(70000) + ((b[t]))];
}
)cu"),
            "a[(196416 + b[t])]");
}

// A linear index of the x and y indices is the thread, as written or in a
// local; j alone is not.
TEST(IndexForm, ALinearThreadIndexIsTheThread) {
  const std::string Head = R"cu(
__global__ void k(int nx, int ny, const float *a, const int *b, float *o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = threadIdx.y + blockDim.y * blockIdx.y;
  int c = nx * j + i;
)cu";
  EXPECT_EQ(formOfRead(Head + "  o[c] = a[b[j * nx + i] + 1];\n}\n"), "a[(b[t] + 1)]");
  EXPECT_EQ(formOfRead(Head + "  o[c] = a[b[c]];\n}\n"), "a[b[t]]");
  EXPECT_EQ(formOfRead(Head + "  o[c] = a[b[j]];\n}\n"), "a[b[?]]");
}

} // namespace
