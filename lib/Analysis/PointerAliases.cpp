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

// How deep pointerInto and objectSpace follow each other (`p->a[i].b`).
constexpr int kMaxSpaceDepth = 8;

PointerInto pointerIntoAt(const Expr *E, const WriteSet &W, const ParamSpaces *Params, int Nesting);

MemorySpace objectSpaceAt(const Expr *E, const WriteSet &W, const ParamSpaces *Params, int Nesting) {
  if (!E || Nesting > kMaxSpaceDepth)
    return MemorySpace::Device;
  E = E->IgnoreParenImpCasts();
  if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DR->getDecl());
    if (!V)
      return MemorySpace::Device;
    if (V->hasAttr<CUDASharedAttr>())
      return MemorySpace::Shared;
    const QualType T = V->getType();
    if (const auto *P = dyn_cast<ParmVarDecl>(V)) {
      if (T->isReferenceType()) {
        if (!Params)
          return MemorySpace::Device;
        auto It = Params->find(P);
        return It != Params->end() ? It->second : MemorySpace::Device;
      }
      if (!T->isRecordType() && !T->isArrayType())
        return MemorySpace::Device;
      // A kernel's struct argument is in the launch's parameter space; a
      // called function's is its own copy.
      const auto *F = dyn_cast<FunctionDecl>(P->getDeclContext());
      return F && F->hasAttr<CUDAGlobalAttr>() ? MemorySpace::KernelParameter : MemorySpace::ThreadLocal;
    }
    return V->hasLocalStorage() && !T->isReferenceType() ? MemorySpace::ThreadLocal : MemorySpace::Device;
  }
  if (const auto *M = dyn_cast<MemberExpr>(E))
    return M->isArrow() ? pointerIntoAt(M->getBase(), W, Params, Nesting + 1).Space
                        : objectSpaceAt(M->getBase(), W, Params, Nesting + 1);
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return pointerIntoAt(AS->getBase(), W, Params, Nesting + 1).Space;
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_Deref)
    return pointerIntoAt(U->getSubExpr(), W, Params, Nesting + 1).Space;
  if (const auto *C = dyn_cast<ConditionalOperator>(E)) { // `f ? a : b` of two arrays
    const MemorySpace True = objectSpaceAt(C->getTrueExpr(), W, Params, Nesting + 1);
    return True == objectSpaceAt(C->getFalseExpr(), W, Params, Nesting + 1) ? True : MemorySpace::Device;
  }
  return MemorySpace::Device;
}

// The space a pointer expression the walk ends at points into, other than
// through a parameter array: an array variable or field, the address of an
// object, a parameter bound by the calls, either arm of a condition.
MemorySpace endSpace(const Expr *S, const WriteSet &W, const ParamSpaces *Params, int Nesting) {
  if (S->getType()->isArrayType())
    return objectSpaceAt(S, W, Params, Nesting + 1);
  if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->getOpcode() == UO_AddrOf)
    return objectSpaceAt(U->getSubExpr(), W, Params, Nesting + 1);
  if (const auto *DR = dyn_cast<DeclRefExpr>(S))
    if (const auto *P = dyn_cast<ParmVarDecl>(DR->getDecl()); P && Params && !W.writesScalar(P))
      if (auto It = Params->find(P); It != Params->end())
        return It->second;
  if (const auto *C = dyn_cast<ConditionalOperator>(S)) {
    const MemorySpace True = pointerIntoAt(C->getTrueExpr(), W, Params, Nesting + 1).Space;
    return True == pointerIntoAt(C->getFalseExpr(), W, Params, Nesting + 1).Space ? True : MemorySpace::Device;
  }
  return MemorySpace::Device;
}

PointerInto pointerIntoAt(const Expr *E, const WriteSet &W, const ParamSpaces *Params, int Nesting) {
  PointerInto R;
  if (Nesting > kMaxSpaceDepth)
    return R;
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
      if (!AS || !AS->getBase()->getType()->isPointerType()) {
        PointerInto Object;
        Object.Space = endSpace(S, W, Params, Nesting);
        return Object;
      }
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
    // Memory other than device memory: nothing for a copy to gather.
    if (MemorySpace Space = endSpace(S, W, Params, Nesting); Space != MemorySpace::Device) {
      R.Offsets.clear();
      R.Space = Space;
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

} // namespace

PointerInto pointerInto(const Expr *E, const WriteSet &W, const ParamSpaces *Params) {
  return pointerIntoAt(E, W, Params, 0);
}

MemorySpace objectSpace(const Expr *E, const WriteSet &W, const ParamSpaces *Params) {
  return objectSpaceAt(E, W, Params, 0);
}

std::string readOfSpace(MemorySpace S, const std::string &Read) {
  switch (S) {
  case MemorySpace::Shared:
    return "it reads shared memory ('" + Read + "'), which is on the chip: there is nothing to coalesce";
  case MemorySpace::ThreadLocal:
    return "it reads memory local to the thread ('" + Read +
           "'), an array of its own: no copy can be laid out for it before the launch";
  case MemorySpace::KernelParameter:
    return "it reads kernel arguments ('" + Read +
           "', an array inside a struct the kernel takes by value), which the launch passes with the call: there "
           "is no device memory to copy";
  case MemorySpace::Device:
    break;
  }
  return "";
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
