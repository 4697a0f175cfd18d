#include "Analysis/Permutability.h"
#include "Analysis/Calls.h"
#include "Analysis/ThreadIndex.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

#include <set>

using namespace clang;

namespace irregfix {

namespace {

// Walks a kernel and the functions it calls, looking for what permuting
// threads would change.
class Scan : public RecursiveASTVisitor<Scan> {
public:
  Scan(const SourceManager &SM, const VarDecl *Thread)
      : SM(SM), Thread(Thread), ThreadInit(Thread->getInit()) {}

  std::string Why;

  void walk(const FunctionDecl *F) {
    if (!F || !Seen.insert(F->getCanonicalDecl()).second || !Why.empty())
      return;
    if (const FunctionDecl *Def = F->getDefinition(); Def && Def->hasBody())
      TraverseStmt(Def->getBody());
  }

  bool TraverseStmt(Stmt *S) {
    if (!Why.empty())
      return false;
    if (S == ThreadInit)
      return true; // the one place that may read threadIdx and blockIdx
    return RecursiveASTVisitor::TraverseStmt(S);
  }

  bool VisitVarDecl(VarDecl *V) {
    if (V->hasAttr<CUDASharedAttr>())
      Why = "it uses shared memory ('" + V->getNameAsString() + "')";
    return Why.empty();
  }

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    const ValueDecl *D = E->getDecl();
    if (D->getName() == "threadIdx" || D->getName() == "blockIdx")
      Why = "it reads '" + D->getNameAsString() + "' other than in its thread index";
    return Why.empty();
  }

  // The thread index is computed once: a write (a grid-stride step) or its
  // address taken would let it reach other rows.
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp() && isThread(B->getLHS()))
      Why = "its thread index is written";
    return Why.empty();
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if ((U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) && isThread(U->getSubExpr()))
      Why = "its thread index is written or its address taken";
    return Why.empty();
  }

  bool VisitGCCAsmStmt(GCCAsmStmt *) {
    Why = "it contains inline assembly";
    return false;
  }

  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *F = nullptr;
    const CallKind Kind = classifyCall(C, SM, &F);
    if (F && cooperativeCall(F))
      Why = "it calls '" + F->getNameAsString() + "'";
    else
      Why = unfollowable(Kind, F);
    // Math and other library functions from system headers: the name check
    // above covers what they could do across threads.
    if (Kind != CallKind::Defined || !Why.empty())
      return Why.empty();
    walk(F);
    return Why.empty();
  }

private:
  bool isThread(const Expr *E) const {
    const auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return R && R->getDecl() == Thread;
  }

  const SourceManager &SM;
  const VarDecl *Thread;
  const Expr *ThreadInit;
  std::set<const FunctionDecl *> Seen;
};

} // namespace

Permutability analyzePermutability(const KernelInfo &Info, ASTContext &Ctx) {
  Permutability P;
  auto No = [&](const std::string &Why) {
    P.NotBecause = Why;
    return P;
  };
  if (Info.Template || Info.Kernel->isTemplateInstantiation())
    return No("it is a template");
  const Site *Only = nullptr;
  for (const Site &S : Info.Sites)
    if (S.transformable()) {
      if (Only)
        return No("it has more than one transformed site");
      Only = &S;
    }
  if (!Only)
    return No("it has no transformed site");
  if (Only->Pattern != SitePattern::Range)
    return No(std::string("its site is a ") + patternName(Only->Pattern) + ", not a one-level range");

  // The thread index: a local initialised with the arithmetic, declared alone
  // directly in a block, never written (isGlobalThreadIndex checked that).
  const auto *Ref = dyn_cast_or_null<DeclRefExpr>(strip(Only->ThreadIndex));
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!V || !V->isLocalVarDecl() || !V->getInit() || !isGlobalThreadIndexArithmetic(V->getInit()))
    return No("its thread index is not a local initialised with blockIdx.x * blockDim.x + threadIdx.x");
  if (V->getInit()->getBeginLoc().isMacroID() || V->getLocation().isMacroID())
    return No("its thread index is written through a macro");
  const DeclStmt *Decl = nullptr;
  for (const DynTypedNode &N : Ctx.getParents(*V))
    Decl = N.get<DeclStmt>();
  if (!Decl || !Decl->isSingleDecl())
    return No("its thread index is not declared on its own");
  bool InBlock = false;
  for (const DynTypedNode &N : Ctx.getParents(*Decl))
    InBlock |= N.get<CompoundStmt>() != nullptr;
  if (!InBlock)
    return No("its thread index is not declared directly in a block");

  Scan Walk(Ctx.getSourceManager(), V);
  Walk.walk(Info.Kernel);
  if (!Walk.Why.empty())
    return No(Walk.Why);
  P.Permutable = true;
  P.ThreadVar = V;
  P.ThreadDecl = Decl;
  return P;
}

} // namespace irregfix
