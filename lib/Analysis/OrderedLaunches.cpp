#include "Analysis/OrderedLaunches.h"
#include "Analysis/AstUtil.h"
#include "Analysis/Permutability.h"
#include "Analysis/WriteSet.h"

#include <functional>

using namespace clang;

namespace irregfix {

namespace {

// An atomic's target, its first argument (the permutability walk checked
// that such an atomic only counts or flags).
bool atomicTarget(const Stmt *E, const Stmt *Parent) {
  const auto *C = dyn_cast_or_null<CallExpr>(Parent);
  const FunctionDecl *F = C ? C->getDirectCallee() : nullptr;
  return F && F->getName().starts_with("atomic") && C->getNumArgs() > 0 &&
         C->getArg(0)->IgnoreParenImpCasts() == E;
}

// Whether the kernel only stores to P: `P[i] = v`, or an atomic's target
// (`atomicAdd(P, 1)`, `atomicAdd(&P[i], 1)`, `atomicAdd(P + i, 1)`).
bool onlyStoredTo(const ParmVarDecl *P, const FunctionDecl *Kernel, ASTContext &Ctx) {
  bool Only = true;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || !Only)
      return;
    if (const auto *R = dyn_cast<DeclRefExpr>(S); R && R->getDecl() == P) {
      const Stmt *Up = enclosingStmt(R, Ctx);
      if (atomicTarget(R, Up))
        return;
      if (const auto *B = dyn_cast_or_null<BinaryOperator>(Up); B && B->isAdditiveOp() &&
                                                               B->getLHS()->IgnoreParenImpCasts() == R) {
        Only = atomicTarget(B, enclosingStmt(B, Ctx));
        return;
      }
      const auto *A = dyn_cast_or_null<ArraySubscriptExpr>(Up);
      if (!A || A->getBase()->IgnoreParenImpCasts() != R) {
        Only = false;
        return;
      }
      const Stmt *Use = enclosingStmt(A, Ctx);
      if (const auto *B = dyn_cast_or_null<BinaryOperator>(Use);
          B && B->getOpcode() == BO_Assign && B->getLHS()->IgnoreParenImpCasts() == A)
        return;
      const auto *U = dyn_cast_or_null<UnaryOperator>(Use);
      Only = U && U->getOpcode() == UO_AddrOf && atomicTarget(U, enclosingStmt(U, Ctx));
      return;
    }
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(Kernel->getBody());
  return Only;
}

} // namespace

std::optional<OrderedLaunch> findOrderedLaunch(const KernelInfo &Info, const std::vector<ScatterSite> &Updates,
                                               ASTContext &Ctx) {
  if (!Info.RefusedBecause.empty() || Info.hasTransformableSite() || !transformableScatters(Updates).empty() ||
      Info.Hoist.Hoistable || !Info.Kernel->hasBody())
    return std::nullopt;
  // Threads that never read what another writes may run in any order with
  // the same results: every array the kernel writes it only stores to (no
  // read of it, no other store it could not name), and each is checked at
  // the launch to be apart from every array it reads.
  const WriteSet &Writes = Info.Writes;
  if (Writes.hasUntracedWrite() || !Writes.writtenSymbols().empty() || !Writes.writtenReferences().empty() ||
      Writes.writesThis())
    return std::nullopt;
  std::vector<const ParmVarDecl *> Written;
  for (const ArrayRef &A : Writes.writtenArrays()) {
    if (A.isField() || !A.param() || !onlyStoredTo(A.param(), Info.Kernel, Ctx))
      return std::nullopt;
    Written.push_back(A.param());
  }
  // Indirect reads of arrays it does not write, in the kernel itself (a
  // device function's are its own to order).
  const bool Indirect = llvm::any_of(Info.Reads, [&](const ReadVerdict &V) {
    return V.Verdict == ReadVerdict::NotRewritten && V.In.empty() &&
           llvm::none_of(Written, [&](const ParmVarDecl *W) { return W->getName() == V.Array; });
  });
  if (!Indirect)
    return std::nullopt;
  OrderedLaunch Launch;
  Launch.Perm = analyzeThreadPermutability(Info, Ctx);
  if (!Launch.Perm.Permutable)
    return std::nullopt;
  for (const ParmVarDecl *W : Written)
    for (const ParmVarDecl *R : Info.Kernel->parameters())
      if (R->getType()->isPointerType() && !llvm::is_contained(Written, R) && R->isUsed())
        Launch.AliasChecks.push_back({ArrayRef(W), ArrayRef(R)});
  return Launch;
}

} // namespace irregfix
