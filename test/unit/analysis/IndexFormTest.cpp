// Index forms (Analysis/IndexForm.h): an operation on constants inside an index
// folds as Clang folds it, through parentheses and integer conversions (a
// narrowing one wraps, a widening one keeps the sign). (A constant alone is
// read through its casts: `(char)300` is 300.) A reason that quotes the
// index's text (spelled only when read) quotes the right text.
#include "AnalysisTestUtil.h"

#include "Analysis/IndexForm.h"

#include <gtest/gtest.h>

using namespace irregfix;
using namespace irregfix::test;

namespace {

// The form of the read of `a` in Code's kernel (with Why, why its index is not known).
std::string formOfRead(const std::string &Code, bool Why = false) {
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
    const FormRef Read = Forms.readOf(R.OfA);
    Out = Why ? Read->unknownWhy() : Read->str();
  });
  return Out;
}

std::string whyOfRead(const std::string &Code) { return formOfRead(Code, /*Why=*/true); }

// The forms of the reads of members of Code's kernel (`p->m[i][j]`), or
// "row" for a subscript that leaves a row, in source order.
std::vector<std::string> formsOfMemberReads(const std::string &Code) {
  std::vector<std::string> Out;
  forEachKernel(Code, [&](const clang::FunctionDecl *K, clang::ASTContext &Ctx) {
    const WriteSet W = WriteSet::of(K, /*DeviceOnly=*/nullptr);
    FormBuilder Forms(K, W, Ctx);
    std::function<void(const clang::Stmt *)> Walk = [&](const clang::Stmt *S) {
      if (!S)
        return;
      if (const auto *AS = llvm::dyn_cast<clang::ArraySubscriptExpr>(S)) {
        const clang::Expr *Base = AS->getBase()->IgnoreParenImpCasts();
        while (const auto *Inner = llvm::dyn_cast<clang::ArraySubscriptExpr>(Base))
          Base = Inner->getBase()->IgnoreParenImpCasts();
        if (llvm::isa<clang::MemberExpr>(Base)) {
          if (isRowOfMember(AS))
            Out.push_back("row");
          else if (const FormRef F = Forms.readOf(AS))
            Out.push_back(F->str());
          else
            Out.push_back("none");
        }
      }
      for (const clang::Stmt *C : S->children())
        Walk(C);
    };
    Walk(K->getBody());
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
// local; j alone is the thread's position in y.
TEST(IndexForm, ALinearThreadIndexIsTheThread) {
  const std::string Head = R"cu(
__global__ void k(int nx, int ny, const float *a, const int *b, float *o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = threadIdx.y + blockDim.y * blockIdx.y;
  int c = nx * j + i;
)cu";
  EXPECT_EQ(formOfRead(Head + "  o[c] = a[b[j * nx + i] + 1];\n}\n"), "a[(b[t] + 1)]");
  EXPECT_EQ(formOfRead(Head + "  o[c] = a[b[c]];\n}\n"), "a[b[t]]");
  EXPECT_EQ(formOfRead(Head + "  o[c] = a[b[j]];\n}\n"), "a[b[global y]]");
}

TEST(IndexForm, ReasonsQuoteTheIndexText) {
  EXPECT_EQ(whyOfRead(R"cu(
__global__ void k(const float *a, const int *b, float *o) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  o[t] = a[(short)b[t]];
}
)cu"),
            "it converts 'b[t]' to a type narrower than int, which may change its value");

}

// A member of several dimensions of the struct a pointer points to is read
// as its flat array, at the subscripts times the strides its type gives; the
// rows on the way are no reads. A one-dimensional member is read as written.
TEST(IndexForm, MembersOfSeveralDimensionsAreReadAtTheirFlatIndex) {
  EXPECT_EQ(formsOfMemberReads(R"cu(
struct S { int one[8]; int two[16][60]; float three[8][4][16]; };
__global__ void k(const S *p, const int *b, float *o) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  o[t] = p->two[b[t]][3] + p->three[b[t]][t][2] + p->one[b[t]];
}
)cu"),
            (std::vector<std::string>{"p->two[((b[t] * 60) + 3)]", "row", "p->three[((b[t] * 64) + ((t * 16) + 2))]",
                                      "row", "row", "p->one[b[t]]"}));
}

} // namespace

// The thread's position other than its global index, and the launch's shape,
// are known parts of a form: a field of threadIdx, blockIdx, blockDim or
// gridDim by its name, the global index in y or z as such.
TEST(IndexForm, ThePositionInTheLaunchIsKnown) {
  EXPECT_EQ(formOfRead(R"cu(
__global__ void k(const float *a, const int *b, float *o) {
  o[0] = a[b[2 * threadIdx.y] + blockDim.x];
}
)cu"),
            "a[(b[(2 * threadIdx.y)] + blockDim.x)]");
  EXPECT_EQ(formOfRead(R"cu(
__global__ void k(const float *a, const int *b, float *o) {
  o[0] = a[b[blockIdx.z * blockDim.z + threadIdx.z]];
}
)cu"),
            "a[b[global z]]");
}
