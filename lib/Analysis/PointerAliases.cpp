#include "Analysis/PointerAliases.h"
#include "Analysis/AstUtil.h"
#include "Analysis/Parents.h"
#include "Analysis/WriteSet.h"

#include "clang/AST/Attr.h"

#include <functional>

using namespace clang;

namespace irregfix {

namespace {

QualType elementOf(QualType Pointer) {
  if (const auto *P = Pointer->getAs<PointerType>())
    return P->getPointeeType().getCanonicalType().getUnqualifiedType();
  return QualType();
}

} // namespace

PointerInto pointerInto(const Expr *E, const WriteSet &W) {
  PointerInto R;
  std::vector<QualType> Steps; // the element types the offsets count in
  bool ThroughLocal = false;
  for (int Depth = 0; E && Depth < 16; ++Depth) {
    const Expr *S = strip(E);
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->getOpcode() == BO_Add) {
      const bool LeftPointer = BO->getLHS()->getType()->isPointerType();
      const Expr *Offset = LeftPointer ? BO->getRHS() : BO->getLHS();
      if (!Offset->getType()->isIntegralOrEnumerationType())
        return PointerInto();
      Steps.push_back(elementOf(BO->getType()));
      R.Offsets.push_back(Offset);
      E = LeftPointer ? BO->getLHS() : BO->getRHS();
      continue;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->getOpcode() == UO_AddrOf) {
      const auto *AS = dyn_cast<ArraySubscriptExpr>(U->getSubExpr()->IgnoreParens());
      if (!AS || !AS->getBase()->getType()->isPointerType())
        return PointerInto();
      Steps.push_back(elementOf(AS->getBase()->getType()));
      R.Offsets.push_back(AS->getIdx());
      E = AS->getBase();
      continue;
    }
    const auto *DR = dyn_cast<DeclRefExpr>(S);
    const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    if (V && V->isLocalVarDecl() && !isa<ParmVarDecl>(V) && V->getType()->isPointerType()) {
      PointerInto Unfollowed;
      if (!V->hasInit())
        Unfollowed.Why = "a local pointer declared without a value";
      else if (std::string How = W.locals().howChanged(V); !How.empty())
        Unfollowed.Why = "a local pointer that " + How;
      if (!Unfollowed.Why.empty())
        return Unfollowed;
      Steps.push_back(elementOf(V->getType()));
      ThroughLocal = true;
      E = V->getInit();
      continue;
    }
    // Shared memory: on the chip, nothing for a copy to gather.
    if (V && V->hasAttr<CUDASharedAttr>()) {
      R.Offsets.clear();
      R.Shared = true;
      return R;
    }
    // The end: the array itself (a parameter, a struct parameter's field).
    ArrayRef A = WriteSet::exactPointer(S, W);
    if (!A || (!ThroughLocal && R.Offsets.empty()))
      return PointerInto(); // the array itself is exactPointer's
    const QualType Element = A.elementType().getCanonicalType().getUnqualifiedType();
    for (const QualType &T : Steps)
      if (T.isNull() || T != Element) {
        PointerInto Cast;
        Cast.Why = "a local pointer whose elements' type is not that of " + A.quoted();
        return Cast;
      }
    R.Array = A;
    return R;
  }
  return PointerInto();
}

bool startsFollowedPointer(const Expr *Subscript, const WriteSet &W, ASTContext &Ctx) {
  // Up through parentheses and casts to the `&`, then to the declaration it initialises.
  auto Up = [&](const Stmt *S) -> DynTypedNode {
    DynTypedNode N = DynTypedNode::create(*S);
    for (int Steps = 0; Steps < 8; ++Steps) {
      auto Parents = parentsOf(N, Ctx);
      if (Parents.empty())
        return DynTypedNode();
      N = Parents[0];
      const auto *E = N.get<Expr>();
      if (!E || !(isa<ParenExpr>(E) || isa<CastExpr>(E)))
        return N;
    }
    return DynTypedNode();
  };
  const auto *Addr = Up(Subscript).get<UnaryOperator>();
  if (!Addr || Addr->getOpcode() != UO_AddrOf)
    return false;
  const auto *V = Up(Addr).get<VarDecl>();
  if (!V || !V->isLocalVarDecl() || !V->getType()->isPointerType() || !V->hasInit() ||
      !W.locals().howChanged(V).empty())
    return false;
  const PointerInto Into = pointerInto(V->getInit(), W);
  if (!Into.Array || V->getType()->getPointeeType().getCanonicalType().getUnqualifiedType() !=
                         Into.Array.elementType().getCanonicalType().getUnqualifiedType())
    return false;
  // Every use subscripts it (`p[c]`): a read through a cast or a dereference
  // would not be followed, and the subscript stays the read reported.
  const auto *F = dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
  bool OnlySubscripted = F && F->getBody();
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || !OnlySubscripted)
      return;
    if (const auto *DR = dyn_cast<DeclRefExpr>(S); DR && DR->getDecl() == V) {
      DynTypedNode N = DynTypedNode::create(*DR);
      const Expr *Child = DR;
      for (;;) {
        auto Parents = parentsOf(N, Ctx);
        const auto *Cast = Parents.empty() ? nullptr : Parents[0].get<ImplicitCastExpr>();
        if (!Cast)
          break;
        Child = Cast;
        N = Parents[0];
      }
      auto Parents = parentsOf(N, Ctx);
      const auto *AS = Parents.empty() ? nullptr : Parents[0].get<ArraySubscriptExpr>();
      OnlySubscripted = AS && AS->getBase() == Child;
    }
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(F ? F->getBody() : nullptr);
  return OnlySubscripted;
}

} // namespace irregfix
