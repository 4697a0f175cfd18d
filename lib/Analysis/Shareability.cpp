#include "Analysis/Shareability.h"
#include "Analysis/Calls.h"
#include "Analysis/ThreadIndex.h"

#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <set>

using namespace clang;

namespace irregfix {

namespace {

// Walks a kernel and the functions it calls for what the staged copy would
// collide with (dynamic shared memory) and for writes of the thread index.
class Scan : public RecursiveASTVisitor<Scan> {
public:
  Scan(const SourceManager &SM, const VarDecl *Thread) : SM(SM), Thread(Thread) {}

  std::string Why;

  void walk(const FunctionDecl *F) {
    if (!F || !Seen.insert(F->getCanonicalDecl()).second || !Why.empty())
      return;
    if (const FunctionDecl *Def = F->getDefinition(); Def && Def->hasBody())
      TraverseStmt(Def->getBody());
  }

  bool TraverseStmt(Stmt *S) { return Why.empty() && RecursiveASTVisitor::TraverseStmt(S); }

  bool VisitVarDecl(VarDecl *V) {
    if (V->hasAttr<CUDASharedAttr>() && V->hasExternalStorage())
      Why = "it uses dynamic shared memory ('" + V->getNameAsString() + "')";
    return Why.empty();
  }

  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp() && isThread(B->getLHS()))
      Why = "its thread index is written (a grid-stride loop hands a thread other blocks' rows)";
    return Why.empty();
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if ((U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) && isThread(U->getSubExpr()))
      Why = "its thread index is written or its address taken";
    return Why.empty();
  }

  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *F = nullptr;
    // Calls the analysis cannot follow could declare nothing shared of their
    // own (extern __shared__ is a declaration in the function that uses it),
    // but a body it cannot see could: refuse those.
    const CallKind Kind = classifyCall(C, SM, &F);
    Why = unfollowable(Kind, F);
    if (Kind == CallKind::Defined && Why.empty())
      walk(F);
    return Why.empty();
  }

private:
  bool isThread(const Expr *E) const {
    const auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return Thread && R && R->getDecl() == Thread;
  }

  const SourceManager &SM;
  const VarDecl *Thread;
  std::set<const FunctionDecl *> Seen;
};

} // namespace

Shareability analyzeShareability(const KernelInfo &Info, ASTContext &Ctx) {
  Shareability S;
  auto No = [&](const std::string &Why) {
    S.NotBecause = Why;
    return S;
  };
  const Site *Found = nullptr;
  for (unsigned I = 0; I < Info.Sites.size() && !Found; ++I)
    if (Info.Sites[I].transformable() && Info.Sites[I].Pattern == SitePattern::Neighbors) {
      Found = &Info.Sites[I];
      S.SiteIndex = I;
    }
  if (!Found)
    return No("it has no transformed neighbour-list site");
  if (Found->remappedArrays().size() != 1)
    return No("its neighbour-list site remaps more than one array");
  if (Info.Template || Info.Kernel->isTemplateInstantiation())
    return No("it is a template");
  if (!Info.Chunks.Chunkable)
    return No(Info.Chunks.NotBecause);

  // t is the arithmetic itself or a local initialised with it.
  const Expr *T = strip(Found->ThreadIndex);
  const VarDecl *Thread = nullptr;
  if (const auto *R = dyn_cast_or_null<DeclRefExpr>(T)) {
    Thread = dyn_cast<VarDecl>(R->getDecl());
    if (!Thread || !Thread->isLocalVarDecl() || !Thread->getInit() ||
        !isGlobalThreadIndexArithmetic(Thread->getInit()))
      return No("its thread index is not blockIdx.x * blockDim.x + threadIdx.x");
  } else if (!T || !isGlobalThreadIndexArithmetic(T)) {
    return No("its thread index is not blockIdx.x * blockDim.x + threadIdx.x");
  }

  Scan Walk(Ctx.getSourceManager(), Thread);
  Walk.walk(Info.Kernel);
  if (!Walk.Why.empty())
    return No(Walk.Why);
  S.Shareable = true;
  return S;
}

} // namespace irregfix
