// Parent look-ups (Analysis/Parents.h) give what Clang's parent map gives:
// the same parents, in the same order, for every node the traversal meets.
#include "AnalysisTestUtil.h"

#include "Analysis/Parents.h"

#include "clang/AST/ParentMapContext.h"

#include <gtest/gtest.h>

#include <string>

using namespace irregfix;
using namespace irregfix::test;

namespace {

// Templates instantiated twice (nodes shared by the pattern and its
// instantiations have several parents), a lambda, a local class, a range
// loop, a default argument (its expression visited from each call too), an
// array bound and an initialiser list.
const char *const Program = R"cu(
struct Pair { int a, b; };
template <class T> __device__ T twice(T x, int k = 2) { return x * k; }
template <class T, int N>
__global__ void kernel(const T *in, T *out, const int *idx, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  T local[N + 1] = {};
  Pair p = {1, 2};
  auto add = [&](T v) { return v + in[idx[t]]; };
  struct Acc { T s; __device__ void put(T v) { s += v; } } acc{T(0)};
  for (T &v : local) v = twice(in[t]) + add(T(p.a));
  for (int i = 0; i < N; ++i) acc.put(local[i] + twice(in[idx[i]], 3));
  out[t] = acc.s;
}
void launch(const float *f, float *g, const double *d, double *e, const int *idx, int n) {
  kernel<float, 4><<<1, 32>>>(f, g, idx, n);
  kernel<double, 8><<<1, 32>>>(d, e, idx, n);
}
)cu";

// Every declaration, statement and type location the parent map's traversal visits.
struct AllNodes : clang::RecursiveASTVisitor<AllNodes> {
  std::vector<clang::DynTypedNode> Nodes;
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }
  bool VisitDecl(clang::Decl *D) {
    Nodes.push_back(clang::DynTypedNode::create(*D));
    return true;
  }
  bool VisitStmt(clang::Stmt *S) {
    Nodes.push_back(clang::DynTypedNode::create(*S));
    return true;
  }
  bool TraverseTypeLoc(clang::TypeLoc TL) {
    if (!TL.isNull())
      Nodes.push_back(clang::DynTypedNode::create(TL));
    return RecursiveASTVisitor::TraverseTypeLoc(TL);
  }
};

// How many nodes of Ctx's traversal scope have the parents Clang gives, and how many do not.
std::pair<size_t, size_t> compare(clang::ASTContext &Ctx) {
  AllNodes All;
  All.TraverseAST(Ctx);
  size_t Same = 0, Different = 0;
  for (const clang::DynTypedNode &N : All.Nodes) {
    const clang::DynTypedNodeList Ours = parentsOf(N, Ctx), Clangs = Ctx.getParents(N);
    bool Equal = Ours.size() == Clangs.size();
    for (size_t I = 0; Equal && I < Ours.size(); ++I)
      Equal = Ours[I] == Clangs[I];
    ++(Equal ? Same : Different);
  }
  return {Same, Different};
}

TEST(Parents, SameAsClangsOverTheWholeTranslationUnit) {
  std::pair<size_t, size_t> Counts;
  ASSERT_TRUE(onTranslationUnit(Program, [&](clang::ASTContext &Ctx) { Counts = compare(Ctx); }));
  EXPECT_GT(Counts.first, 500u);
  EXPECT_EQ(Counts.second, 0u);
}

TEST(Parents, SameAsClangsOverTheProgramsOwnDeclarations) {
  std::pair<size_t, size_t> Whole, Program_;
  ASSERT_TRUE(onTranslationUnit(Program, [&](clang::ASTContext &Ctx) {
    Whole = compare(Ctx);
    // As the tool limits its look-ups: the declarations outside system headers.
    const clang::SourceManager &SM = Ctx.getSourceManager();
    std::vector<clang::Decl *> Own;
    for (clang::Decl *D : Ctx.getTranslationUnitDecl()->decls())
      if (!SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
        Own.push_back(D);
    Ctx.setTraversalScope(Own);
    forgetParents(Ctx);
    Program_ = compare(Ctx);
  }));
  EXPECT_GT(Program_.first, 200u);
  EXPECT_LT(Program_.first, Whole.first); // the map was built again, over fewer declarations
  EXPECT_EQ(Program_.second, 0u);
}

// A straight-line kernel long enough that the map's table is megabytes (the
// tool's large kernels: its memory then comes from the system in huge pages
// where it can).
TEST(Parents, SameAsClangsOnALongStraightLineKernel) {
  std::string Long = "__global__ void sum(const float *in, float *out, const int *idx) {\n"
                     "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n  float s = 0;\n";
  for (int I = 0; I < 12000; ++I)
    Long += "  s += in[idx[t + " + std::to_string(I) + "]] * " + std::to_string(I % 7) + ";\n";
  Long += "  out[t] = s;\n}\n";
  std::pair<size_t, size_t> Counts;
  ASSERT_TRUE(onTranslationUnit(Long, [&](clang::ASTContext &Ctx) { Counts = compare(Ctx); }));
  EXPECT_GT(Counts.first, 150000u);
  EXPECT_EQ(Counts.second, 0u);
}

} // namespace
