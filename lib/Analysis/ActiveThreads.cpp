#include "Analysis/ActiveThreads.h"
#include "Analysis/ThreadIndex.h"
#include "Analysis/WriteSet.h"

#include "clang/AST/ParentMapContext.h"

using namespace clang;

namespace irregfix {

// `t < n` or `n > t` → n; for `a && b`, either conjunct.
static const Expr *boundFromLess(const Expr *Cond, const WriteSet &W) {
  const auto *BO = dyn_cast<BinaryOperator>(strip(Cond));
  if (!BO)
    return nullptr;
  if (BO->getOpcode() == BO_LAnd) {
    if (const Expr *N = boundFromLess(BO->getLHS(), W))
      return N;
    return boundFromLess(BO->getRHS(), W);
  }
  if (BO->getOpcode() == BO_LT && isGlobalThreadIndex(BO->getLHS(), W))
    return BO->getRHS();
  if (BO->getOpcode() == BO_GT && isGlobalThreadIndex(BO->getRHS(), W))
    return BO->getLHS();
  return nullptr;
}

// `t >= n` or `n <= t` → n; for `a || b`, either disjunct.
static const Expr *boundFromGreaterEqual(const Expr *Cond, const WriteSet &W) {
  const auto *BO = dyn_cast<BinaryOperator>(strip(Cond));
  if (!BO)
    return nullptr;
  if (BO->getOpcode() == BO_LOr) {
    if (const Expr *N = boundFromGreaterEqual(BO->getLHS(), W))
      return N;
    return boundFromGreaterEqual(BO->getRHS(), W);
  }
  if (BO->getOpcode() == BO_GE && isGlobalThreadIndex(BO->getLHS(), W))
    return BO->getRHS();
  if (BO->getOpcode() == BO_LE && isGlobalThreadIndex(BO->getRHS(), W))
    return BO->getLHS();
  return nullptr;
}

static bool isReturn(const Stmt *S) {
  if (isa_and_nonnull<ReturnStmt>(S))
    return true;
  const auto *CS = dyn_cast_or_null<CompoundStmt>(S);
  return CS && CS->size() == 1 && isa<ReturnStmt>(CS->body_front());
}

static bool contains(const Stmt *Outer, const Stmt *Inner) {
  if (!Outer)
    return false;
  if (Outer == Inner)
    return true;
  for (const Stmt *Child : Outer->children())
    if (contains(Child, Inner))
      return true;
  return false;
}

const Expr *findActiveThreads(const Stmt *S, ASTContext &Ctx, const WriteSet &W) {
  const Stmt *Child = S;
  for (int Depth = 0; Depth < 64; ++Depth) {
    auto Parents = Ctx.getParents(*Child);
    if (Parents.empty())
      return nullptr;
    const Stmt *Parent = Parents[0].get<Stmt>();
    if (!Parent)
      return nullptr; // reached the function
    if (const auto *If = dyn_cast<IfStmt>(Parent)) {
      if (contains(If->getThen(), S))
        if (const Expr *N = boundFromLess(If->getCond(), W))
          return N;
    } else if (const auto *For = dyn_cast<ForStmt>(Parent)) {
      // The condition of a grid-stride loop bounds its variable in the body.
      if (contains(For->getBody(), S) && For->getCond())
        if (const Expr *N = boundFromLess(For->getCond(), W))
          return N;
    } else if (const auto *CS = dyn_cast<CompoundStmt>(Parent)) {
      for (const Stmt *Sibling : CS->body()) {
        if (Sibling == Child)
          break;
        const auto *If = dyn_cast<IfStmt>(Sibling);
        if (If && !If->getElse() && isReturn(If->getThen()))
          if (const Expr *N = boundFromGreaterEqual(If->getCond(), W))
            return N;
      }
    }
    Child = Parent;
  }
  return nullptr;
}

bool isLaunchEvaluable(const Expr *N, const WriteSet &W) {
  N = N->IgnoreParenImpCasts();
  if (isa<IntegerLiteral>(N) || isa<CharacterLiteral>(N))
    return true;
  if (const auto *C = dyn_cast<CastExpr>(N))
    return isLaunchEvaluable(C->getSubExpr(), W);
  if (const auto *DR = dyn_cast<DeclRefExpr>(N)) {
    const auto *P = dyn_cast<ParmVarDecl>(DR->getDecl());
    if (P)
      return !P->getType()->isReferenceType() && !W.writesScalar(P);
    // Enumerators and constexpr constants are fine too.
    if (isa<EnumConstantDecl>(DR->getDecl()))
      return true;
    const auto *V = dyn_cast<VarDecl>(DR->getDecl());
    return V && V->isConstexpr() && !V->isLocalVarDecl(); // in scope at the launch too
  }
  if (const auto *ME = dyn_cast<MemberExpr>(N))
    return !ME->isArrow() && isLaunchEvaluable(ME->getBase(), W);
  if (const auto *BO = dyn_cast<BinaryOperator>(N))
    return !BO->isAssignmentOp() && !BO->isCommaOp() && isLaunchEvaluable(BO->getLHS(), W) &&
           isLaunchEvaluable(BO->getRHS(), W);
  if (const auto *UO = dyn_cast<UnaryOperator>(N))
    return (UO->getOpcode() == UO_Minus || UO->getOpcode() == UO_Plus) &&
           isLaunchEvaluable(UO->getSubExpr(), W);
  return false;
}

} // namespace irregfix
