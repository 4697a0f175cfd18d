#include "Analysis/Permutability.h"
#include "Analysis/Calls.h"
#include "Analysis/KernelWalk.h"
#include "Analysis/Parents.h"
#include "Analysis/ThreadIndex.h"

#include "clang/AST/Attr.h"
#include "clang/Basic/SourceManager.h"
#include "clang/AST/StmtCXX.h"

#include <functional>
#include <map>

using namespace clang;

namespace irregfix {

namespace {

// What permuting threads would change, in a kernel and the functions it calls.
class Judge : public KernelJudge {
public:
  Judge(ASTContext &Ctx, const VarDecl *Thread) : Ctx(Ctx), Thread(Thread), ThreadInit(Thread->getInit()) {}

  // The one place that may read threadIdx and blockIdx.
  bool enters(const Stmt *S) override { return S != ThreadInit; }

  std::string variable(const VarDecl *V, const WalkPlace &) override {
    if (V->hasAttr<CUDASharedAttr>())
      return "it uses shared memory ('" + V->getNameAsString() + "')";
    return "";
  }

  std::string statement(const Stmt *S, const WalkPlace &) override {
    if (const auto *E = dyn_cast<DeclRefExpr>(S)) {
      const ValueDecl *D = E->getDecl();
      if (const auto *V = dyn_cast<VarDecl>(D))
        ++References[V];
      if (D->getName() == "threadIdx" || D->getName() == "blockIdx")
        return "it reads '" + D->getNameAsString() + "' other than in its thread index";
    }
    // The thread index is computed once: a write (a grid-stride step) or its
    // address taken would let it reach other rows.
    if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp() && isThread(B->getLHS()))
      return "its thread index is written";
    if (const auto *U = dyn_cast<UnaryOperator>(S);
        U && (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) && isThread(U->getSubExpr()))
      return "its thread index is written or its address taken";
    if (isa<GCCAsmStmt>(S))
      return "it contains inline assembly";
    return "";
  }

  // Math and other library functions from system headers: the name check
  // covers what they could do across threads.
  std::string call(const CallExpr *C, CallKind Kind, const FunctionDecl *F, const WalkPlace &,
                   bool &Follow) override {
    if (F && counterAtomic(C, F))
      return ""; // its target is checked once the walk is done (unreadTargets)
    if (F && cooperativeCall(F))
      return "it calls '" + F->getNameAsString() + "'";
    Follow = true;
    return unfollowable(Kind, F);
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
    for (const DynTypedNode &N : parentsOf(*C, Ctx)) {
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
  const VarDecl *Thread;
  const Expr *ThreadInit;
  std::map<const VarDecl *, unsigned> References, TargetRefs; // all uses; as a counter's target
};

// Whether the threads of a kernel whose thread index is V may be permuted.
Permutability threadsOf(const KernelInfo &Info, const VarDecl *V, ASTContext &Ctx) {
  Permutability P;
  auto No = [&](const std::string &Why) {
    P.NotBecause = Why;
    return P;
  };
  // The thread index: a local initialised with the arithmetic, declared alone
  // directly in a block, never written (isGlobalThreadIndex checked that).
  if (!V || !V->isLocalVarDecl() || !V->getInit() || !isGlobalThreadIndexArithmetic(V->getInit(), Info.Writes.locals()))
    return No("its thread index is not a local initialised with blockIdx.x * blockDim.x + threadIdx.x");
  if (V->getInit()->getBeginLoc().isMacroID() || V->getLocation().isMacroID())
    return No("its thread index is written through a macro");
  const DeclStmt *Decl = nullptr;
  for (const DynTypedNode &N : parentsOf(*V, Ctx))
    Decl = N.get<DeclStmt>();
  if (!Decl || !Decl->isSingleDecl())
    return No("its thread index is not declared on its own");
  bool InBlock = false;
  for (const DynTypedNode &N : parentsOf(*Decl, Ctx))
    InBlock |= N.get<CompoundStmt>() != nullptr;
  if (!InBlock)
    return No("its thread index is not declared directly in a block");

  Judge Threads(Ctx, V);
  std::string Why = walkKernel(Info.Kernel, Threads, Ctx.getSourceManager());
  if (Why.empty())
    Why = Threads.unreadTargets();
  if (!Why.empty())
    return No(Why);
  P.Permutable = true;
  P.ThreadVar = V;
  P.ThreadDecl = Decl;
  return P;
}

} // namespace

Permutability analyzePermutability(const KernelInfo &Info, ASTContext &Ctx) {
  auto No = [](const std::string &Why) { return Permutability{false, Why, nullptr, nullptr}; };
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
  if (Only->Pattern != kPatternRange && Only->Pattern != kPatternNeighbors)
    return No(std::string("its site is a ") + pattern_name(Only->Pattern) + ", not a one-level range or a neighbour list");
  // Permuting a linear index would renumber i, j (and k) from the permuted
  // one and the kernel's guard with them: its threads keep their order.
  if (!Only->ActiveExtents.empty())
    return No("its threads are numbered from 2-D or 3-D indices (i + nx * j), which a permuted order would have to "
              "renumber");
  const auto *Ref = dyn_cast_or_null<DeclRefExpr>(strip(Only->ThreadIndex));
  return threadsOf(Info, Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr, Ctx);
}

Permutability analyzeThreadPermutability(const KernelInfo &Info, ASTContext &Ctx) {
  auto No = [](const std::string &Why) { return Permutability{false, Why, nullptr, nullptr}; };
  if (Info.Template || Info.Kernel->isTemplateInstantiation())
    return No("it is a template");
  if (!Info.Kernel->hasBody())
    return No("its body is not in this file");
  // The one local initialised with the global thread index.
  const VarDecl *Thread = nullptr;
  unsigned Found = 0;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D);
            V && V->isLocalVarDecl() && V->getInit() &&
            isGlobalThreadIndexArithmetic(V->getInit(), Info.Writes.locals()))
          Thread = V, ++Found;
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(Info.Kernel->getBody());
  if (Found != 1)
    return No("it has no single local initialised with blockIdx.x * blockDim.x + threadIdx.x");
  return threadsOf(Info, Thread, Ctx);
}

} // namespace irregfix
