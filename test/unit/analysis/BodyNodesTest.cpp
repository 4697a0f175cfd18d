// A visitor replayed over a body's recorded nodes (Analysis/BodyNodes.h) is
// called on the nodes a walk of the body would call it on, in the same order:
// with lambdas and local classes walked into, and skipped where the visitor
// traverses them itself.
#include "AnalysisTestUtil.h"

#include "Analysis/BodyNodes.h"

#include <gtest/gtest.h>

#include <string>

using namespace irregfix;
using namespace irregfix::test;

namespace {

// Stores, calls, constructions, loops, subscripts and variables, inside and
// outside a lambda, a local class and an initialiser list, in a template and
// its instantiations.
const char *const Program = R"cu(
struct Pair { int a, b; __device__ Pair(int x) : a(x), b(x) {} };
__device__ int twice(int x, int k = 2) { return x * k; }
template <class T>
__global__ void kernel(T *out, const int *idx, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  T local[4] = {T(1), T(idx[t])};
  Pair p(idx[0]);
  auto add = [&](T v) { int w = idx[t + 1]; out[w] += v; return v + twice(w); };
  struct Acc { T s; __device__ void put(T v) { s += v; int j = 0; while (j < 2) ++j; } } acc{T(0)};
  for (int i = 0; i < n; ++i) { acc.put(local[i & 3] + add(T(p.a))); out[idx[i]] = local[i & 3]; }
  int *q = &t;
  while (t < n) t += *q;
  out[t] = acc.s;
}
void launch(float *f, double *d, const int *idx, int n) {
  kernel<float><<<1, 32>>>(f, idx, n);
  kernel<double><<<1, 32>>>(d, idx, n);
}
)cu";

// Notes each node its Visit methods are called on (the kinds BodyNodes records).
template <typename Derived> struct Noting : clang::RecursiveASTVisitor<Derived> {
  std::vector<const void *> Seen;
  bool note(const void *N) {
    Seen.push_back(N);
    return true;
  }
  bool VisitBinaryOperator(clang::BinaryOperator *S) { return note(S); }
  bool VisitCompoundAssignOperator(clang::CompoundAssignOperator *S) { return note(S); }
  bool VisitUnaryOperator(clang::UnaryOperator *S) { return note(S); }
  bool VisitCallExpr(clang::CallExpr *S) { return note(S); }
  bool VisitCXXConstructExpr(clang::CXXConstructExpr *S) { return note(S); }
  bool VisitCXXNewExpr(clang::CXXNewExpr *S) { return note(S); }
  bool VisitForStmt(clang::ForStmt *S) { return note(S); }
  bool VisitWhileStmt(clang::WhileStmt *S) { return note(S); }
  bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr *S) { return note(S); }
  bool VisitLambdaExpr(clang::LambdaExpr *S) { return note(S); }
  bool VisitVarDecl(clang::VarDecl *D) { return note(D); }
  bool VisitCXXRecordDecl(clang::CXXRecordDecl *D) { return note(D); }
};

struct Plain : Noting<Plain> {};

// Traverses lambdas and local classes itself: notes them, not what is inside.
struct OwnNested : Noting<OwnNested> {
  bool TraverseLambdaExpr(clang::LambdaExpr *L) { return note(L); }
  bool TraverseCXXRecordDecl(clang::CXXRecordDecl *R) { return note(R); }
};

// Stops at the third node.
struct Stopping : Noting<Stopping> {
  bool VisitCallExpr(clang::CallExpr *S) { return note(S) && Seen.size() < 3; }
};

template <typename V> void expectSameAsTraversal(const clang::FunctionDecl *F, clang::ASTContext &Ctx) {
  V Walked, Replayed;
  Walked.TraverseStmt(F->getBody());
  replayBody(Replayed, F->getBody(), Ctx);
  EXPECT_FALSE(Walked.Seen.empty());
  EXPECT_EQ(Walked.Seen, Replayed.Seen) << F->getNameAsString();
}

TEST(BodyNodes, ReplayVisitsWhatATraversalVisits) {
  unsigned Bodies = 0;
  ASSERT_TRUE(onTranslationUnit(Program, [&](clang::ASTContext &Ctx) {
    std::vector<const clang::FunctionDecl *> Functions;
    for (const clang::Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
      if (!Ctx.getSourceManager().isInMainFile(D->getLocation()))
        continue;
      if (const auto *T = llvm::dyn_cast<clang::FunctionTemplateDecl>(D)) {
        Functions.push_back(T->getTemplatedDecl());
        for (const clang::FunctionDecl *S : T->specializations())
          Functions.push_back(S);
      } else if (const auto *F = llvm::dyn_cast<clang::FunctionDecl>(D)) {
        Functions.push_back(F);
      }
    }
    for (const clang::FunctionDecl *F : Functions) {
      if (!F->hasBody())
        continue;
      ++Bodies;
      expectSameAsTraversal<Plain>(F, Ctx);
      expectSameAsTraversal<OwnNested>(F, Ctx);
      expectSameAsTraversal<Stopping>(F, Ctx);
    }
  }));
  EXPECT_EQ(Bodies, 5u); // twice, the template, its two instantiations, launch
}

TEST(BodyNodes, NestedNodesAreSkippedOnlyByAVisitorThatTraversesThemItself) {
  ASSERT_TRUE(onTranslationUnit(Program, [&](clang::ASTContext &Ctx) {
    for (const clang::Decl *D : Ctx.getTranslationUnitDecl()->decls())
      if (const auto *T = llvm::dyn_cast<clang::FunctionTemplateDecl>(D);
          T && Ctx.getSourceManager().isInMainFile(D->getLocation())) {
        const clang::Stmt *Body = T->getTemplatedDecl()->getBody();
        Plain All;
        OwnNested Outer;
        replayBody(All, Body, Ctx);
        replayBody(Outer, Body, Ctx);
        EXPECT_GT(All.Seen.size(), Outer.Seen.size());
      }
  }));
}

} // namespace
