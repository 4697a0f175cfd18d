#include "Analysis/Permutability.h"
#include "Analysis/Calls.h"
#include "Analysis/ThreadIndex.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

#include <map>
#include <set>

using namespace clang;

namespace irregfix {

namespace {

// Walks a kernel and the functions it calls, looking for what permuting
// threads would change.
class Scan : public RecursiveASTVisitor<Scan> {
public:
  Scan(ASTContext &Ctx, const VarDecl *Thread)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Thread(Thread), ThreadInit(Thread->getInit()) {}

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
    if (const auto *V = dyn_cast<VarDecl>(D))
      ++References[V];
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
    if (F && counterAtomic(C, F))
      return true; // its target is checked once the walk is done (unreadTargets)
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

  // The counters' targets must not be read back: a thread that reads one
  // could see what the threads before it in the launch did. Every reference
  // to a target's variable must be the first argument of such an atomic.
  std::string unreadTargets() const {
    for (const auto &[Var, Uses] : TargetRefs) {
      auto It = References.find(Var);
      if (It == References.end() || It->second != Uses)
        return "it uses '" + Var->getNameAsString() + "', which an atomic updates, other than in that atomic";
    }
    return "";
  }

private:
  // An integer atomicAdd/Sub/Min/Max/And/Or/Xor whose result is discarded and
  // whose target is a plain variable (a pointer parameter or local, maybe
  // indexed or offset): a counter or a flag. Its final value does not depend
  // on the order of the threads (integer operations that commute), and if no
  // thread reads the target back, no thread depends on another's update.
  bool counterAtomic(const CallExpr *C, const FunctionDecl *F) {
    static const char *const Names[] = {"atomicAdd", "atomicSub", "atomicMin", "atomicMax",
                                        "atomicAnd", "atomicOr",  "atomicXor"};
    if (!llvm::is_contained(Names, F->getName()) || C->getNumArgs() != 2 || !discarded(C))
      return false;
    const QualType T = C->getArg(0)->IgnoreParenImpCasts()->getType();
    if (!T->isPointerType() || !T->getPointeeType()->isIntegerType())
      return false;
    const Expr *Base = C->getArg(0)->IgnoreParenImpCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(Base); U && U->getOpcode() == UO_AddrOf)
      Base = U->getSubExpr()->IgnoreParenImpCasts();
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(Base))
      Base = A->getBase()->IgnoreParenImpCasts();
    else if (const auto *B = dyn_cast<BinaryOperator>(Base); B && B->isAdditiveOp())
      Base = B->getLHS()->IgnoreParenImpCasts();
    const auto *R = dyn_cast<DeclRefExpr>(Base);
    const auto *V = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
    if (!V || V == Thread)
      return false;
    ++TargetRefs[V];
    return true;
  }

  // The call is a statement of its own: its value is not used.
  bool discarded(const CallExpr *C) {
    for (const DynTypedNode &N : Ctx.getParents(*C)) {
      if (const auto *S = N.get<Stmt>())
        return isa<CompoundStmt>(S) || isa<IfStmt>(S) || isa<ForStmt>(S) || isa<WhileStmt>(S) ||
               isa<DoStmt>(S) || isa<SwitchCase>(S) || isa<LabelStmt>(S);
      return false;
    }
    return false;
  }

  bool isThread(const Expr *E) const {
    const auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return R && R->getDecl() == Thread;
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  const VarDecl *Thread;
  const Expr *ThreadInit;
  std::set<const FunctionDecl *> Seen;
  std::map<const VarDecl *, unsigned> References, TargetRefs; // all uses; as a counter's target
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
  // A one-level range (SELL-32-sigma, the locality order) or a neighbour list
  // (the locality order: the list copied in the new order, the data read in place).
  if (Only->Pattern != SitePattern::Range && Only->Pattern != SitePattern::Neighbors)
    return No(std::string("its site is a ") + patternName(Only->Pattern) + ", not a one-level range or a neighbour list");

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

  Scan Walk(Ctx, V);
  Walk.walk(Info.Kernel);
  if (Walk.Why.empty())
    Walk.Why = Walk.unreadTargets();
  if (!Walk.Why.empty())
    return No(Walk.Why);
  P.Permutable = true;
  P.ThreadVar = V;
  P.ThreadDecl = Decl;
  return P;
}

} // namespace irregfix
