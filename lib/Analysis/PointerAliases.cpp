#include "Analysis/PointerAliases.h"
#include "Analysis/AstUtil.h"
#include "Analysis/Parents.h"
#include "Analysis/WriteSet.h"

#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"

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
// How many values of a pointer that holds several are followed.
constexpr size_t kMaxValues = 8;

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

// Whether every pointer method M returns points into an array member of its
// own object (`return pArray + n;`), or is null: a pool the object holds.
bool returnsOwnArray(const CXXMethodDecl *M) {
  const FunctionDecl *Def = M ? M->getDefinition() : nullptr;
  if (!Def || !Def->getBody())
    return false;
  bool Any = false, Own = true;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || !Own || isa<LambdaExpr>(S))
      return;
    if (const auto *R = dyn_cast<ReturnStmt>(S)) {
      const Expr *E = R->getRetValue() ? strip(R->getRetValue()) : nullptr;
      if (!E || E->isNullPointerConstant(Def->getASTContext(), Expr::NPC_ValueDependentIsNotNull))
        return;
      for (int Depth = 0; Depth < 8; ++Depth) {
        const auto *BO = dyn_cast<BinaryOperator>(E);
        if (!BO || (BO->getOpcode() != BO_Add && BO->getOpcode() != BO_Sub))
          break;
        E = strip(BO->getLHS()->getType()->isPointerType() ? BO->getLHS() : BO->getRHS());
      }
      if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
        if (const auto *AS = dyn_cast<ArraySubscriptExpr>(U->getSubExpr()->IgnoreParens()))
          E = strip(AS->getBase());
      const auto *ME = dyn_cast<MemberExpr>(E);
      Own = ME && ME->getType()->isArrayType() && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts());
      Any = true;
      return;
    }
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(Def->getBody());
  return Any && Own;
}

// The space a pointer expression the walk ends at points into, other than
// through a parameter array: an array variable or field, the address of an
// object, a parameter bound by the calls, either arm of a condition.
MemorySpace endSpace(const Expr *S, const WriteSet &W, const ParamSpaces *Params, int Nesting) {
  if (S->getType()->isArrayType())
    return objectSpaceAt(S, W, Params, Nesting + 1);
  if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->getOpcode() == UO_AddrOf)
    return objectSpaceAt(U->getSubExpr(), W, Params, Nesting + 1);
  // A parameter the function steps stays inside the memory the calls bind it to.
  if (const auto *DR = dyn_cast<DeclRefExpr>(S))
    if (const auto *P = dyn_cast<ParmVarDecl>(DR->getDecl());
        P && Params && (!W.writesScalar(P) || pointerChanges(P).onlyStepped()))
      if (auto It = Params->find(P); It != Params->end())
        return It->second;
  if (const auto *C = dyn_cast<ConditionalOperator>(S)) {
    const MemorySpace True = pointerIntoAt(C->getTrueExpr(), W, Params, Nesting + 1).Space;
    return True == pointerIntoAt(C->getFalseExpr(), W, Params, Nesting + 1).Space ? True : MemorySpace::Device;
  }
  // `pool->fetch(n)` returning a pointer into the pool's own array: the pool's space.
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S); MC && returnsOwnArray(MC->getMethodDecl())) {
    const auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens());
    if (ME && ME->isArrow())
      return pointerIntoAt(ME->getBase(), W, Params, Nesting + 1).Space;
    if (ME)
      return objectSpaceAt(ME->getBase(), W, Params, Nesting + 1);
  }
  return MemorySpace::Device;
}

// The context E belongs to, through the first declaration it names, or null.
const ASTContext *contextOf(const Stmt *E) {
  if (!E)
    return nullptr;
  if (const auto *DR = dyn_cast<DeclRefExpr>(E))
    return &DR->getDecl()->getASTContext();
  for (const Stmt *C : E->children())
    if (const ASTContext *Ctx = contextOf(C))
      return Ctx;
  return nullptr;
}

std::string quotedText(const Expr *E) {
  if (const ASTContext *Ctx = contextOf(E))
    return "'" + spelledText(E, *Ctx, 48) + "'";
  std::string T;
  llvm::raw_string_ostream OS(T);
  E->printPretty(OS, nullptr, PrintingPolicy(LangOptions()));
  return "'" + T + "'";
}

// What a pointer that holds one of Values (a local's assignments, the arms of
// a condition) points into: the space or the array they all point into, at an
// offset not followed. Why starts the reason why such a pointer is not followed
// further ("a local pointer declared without a value"); it says which values
// differ where they do.
PointerInto alternativesInto(const std::vector<const Expr *> &Values, const std::string &Why, const WriteSet &W,
                             const ParamSpaces *Params, int Nesting) {
  PointerInto Out;
  Out.Why = Why;
  // Each value is followed in turn: a bound on them bounds the walk.
  if (Values.size() > kMaxValues)
    return Out;
  const Expr *First = nullptr;
  MemorySpace Space = MemorySpace::Device;
  ArrayRef Array;
  for (const Expr *Value : Values) {
    const PointerInto Into = pointerIntoAt(Value, W, Params, Nesting + 1);
    ArrayRef A = Into.Array ? Into.Array : Into.Within;
    if (!A && Into.Space == MemorySpace::Device)
      A = WriteSet::exactPointer(Value, W);
    if (Into.Space == MemorySpace::Device && !A) {
      Out.Why = Why + ", given " + quotedText(Value) + (Into.Why.empty() ? "" : " (" + Into.Why + ")") +
                ", which the analysis cannot follow";
      return Out;
    }
    if (!First) {
      First = Value;
      Space = Into.Space;
      Array = A;
      continue;
    }
    if (Into.Space != Space || A != Array) {
      Out.Why = Why + ", given " + quotedText(First) + " and " + quotedText(Value) +
                ", which point into different memory";
      return Out;
    }
  }
  if (!First)
    return Out;
  Out.Space = Space;
  if (Space == MemorySpace::Device) {
    Out.Within = Array;
    Out.Why = Why + " (its offset is not followed)";
  }
  return Out;
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
      std::string Why;
      if (!V->hasInit())
        Why = "a local pointer declared without a value";
      else if (std::string How = W.locals().howChanged(V); !How.empty())
        Why = "a local pointer that " + How;
      if (!Why.empty()) { // followed to the memory every value it is given points into
        const PointerChanges Changes = pointerChanges(V);
        if (Changes.Other)
          return alternativesInto({}, Why, W, Params, Nesting);
        std::vector<const Expr *> Values = Changes.Assigned;
        if (V->hasInit())
          Values.insert(Values.begin(), V->getInit());
        return alternativesInto(Values, Why, W, Params, Nesting);
      }
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
    if (const auto *C = dyn_cast<ConditionalOperator>(S))
      return alternativesInto({C->getTrueExpr(), C->getFalseExpr()}, "either of two pointers", W, Params, Nesting);
    // A pointer parameter the function steps (`p += s`): still inside what it
    // is bound to, at an offset the function computes.
    if (const auto *P = DR ? dyn_cast<ParmVarDecl>(DR->getDecl()) : nullptr;
        P && P->getType()->isPointerType() && W.writesScalar(P) && pointerChanges(P).onlyStepped()) {
      const auto *F = dyn_cast<FunctionDecl>(P->getDeclContext());
      PointerInto Stepped;
      Stepped.Why = "a parameter " + (F ? quoted(F) + " " : std::string()) + "steps (its offset is not followed)";
      Stepped.Within = ArrayRef(P);
      return Stepped;
    }
    // The end: the array itself (a parameter, a struct parameter's field).
    ArrayRef A = WriteSet::exactPointer(S, W);
    // An array inside the element a pointer into an array points to (`c->a`,
    // c = cells + k): inside that array's memory.
    if (const auto *M = dyn_cast<MemberExpr>(S); !A && M && M->isArrow() && M->getType()->isArrayType()) {
      const PointerInto Holder = pointerIntoAt(M->getBase(), W, Params, Nesting + 1);
      ArrayRef Of = Holder.Array ? Holder.Array : Holder.Within;
      if (!Of && Holder.Space == MemorySpace::Device)
        Of = WriteSet::exactPointer(M->getBase(), W);
      PointerInto Inside;
      if (Of) {
        Inside.Within = Of;
        Inside.Why = "an array inside an element of " + Of.quoted() + " (its offset is not followed)";
      }
      return Inside;
    }
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

namespace {

// Collects how a function changes one pointer variable (PointerChanges).
class ChangeFinder : public RecursiveASTVisitor<ChangeFinder> {
public:
  ChangeFinder(const VarDecl *V, PointerChanges &Out) : V(V), Out(Out) {}
  bool shouldVisitLambdaBody() const { return true; }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (!BO->isAssignmentOp() || !isSelf(BO->getLHS()))
      return true;
    if (BO->getOpcode() == BO_AddAssign || BO->getOpcode() == BO_SubAssign)
      Out.Stepped = true;
    else if (BO->getOpcode() != BO_Assign)
      Out.Other = true;
    else if (isStep(BO->getRHS()))
      Out.Stepped = true;
    else
      Out.Assigned.push_back(BO->getRHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp() && isSelf(UO->getSubExpr()))
      Out.Stepped = true;
    else if (UO->getOpcode() == UO_AddrOf && isSelf(UO->getSubExpr()))
      Out.Other = true;
    return true;
  }
  bool VisitCallExpr(CallExpr *C) { // a non-const reference parameter may change it
    const FunctionDecl *F = C->getDirectCallee();
    const unsigned Skip = isa<CXXOperatorCallExpr>(C) && isa_and_nonnull<CXXMethodDecl>(F) ? 1 : 0;
    for (unsigned I = 0; I < C->getNumArgs(); ++I) {
      if (!isSelf(C->getArg(I)))
        continue;
      QualType T = F && I >= Skip && I - Skip < F->getNumParams() ? F->getParamDecl(I - Skip)->getType() : QualType();
      if (I < Skip || !F || (!T.isNull() && T->isReferenceType() && !T.getNonReferenceType().isConstQualified()))
        Out.Other = true;
    }
    return true;
  }
  bool VisitVarDecl(VarDecl *D) { // a non-const reference bound to it
    if (D->getType()->isReferenceType() && !D->getType().getNonReferenceType().isConstQualified() && D->hasInit() &&
        isSelf(D->getInit()))
      Out.Other = true;
    return true;
  }

private:
  bool isSelf(const Expr *E) const {
    const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DR && DR->getDecl() == V;
  }
  // `V + e`, `e + V`, `V - e` with e an integer.
  bool isStep(const Expr *E) const {
    const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
    if (!BO || (BO->getOpcode() != BO_Add && BO->getOpcode() != BO_Sub))
      return false;
    if (isSelf(BO->getLHS()))
      return BO->getRHS()->getType()->isIntegralOrEnumerationType();
    return BO->getOpcode() == BO_Add && isSelf(BO->getRHS()) && BO->getLHS()->getType()->isIntegralOrEnumerationType();
  }

  const VarDecl *V;
  PointerChanges &Out;
};

} // namespace

const Stmt *storeThrough(const VarDecl *V) {
  const auto *F = dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
  if (!F || !F->getBody())
    return nullptr;
  // Whether lvalue E is memory V points to (`V[i]`, `*(V + i)`, `V->f`, `V[i].f`).
  std::function<bool(const Expr *)> Through = [&](const Expr *E) {
    E = E->IgnoreParenImpCasts();
    const Expr *Ptr = nullptr;
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      Ptr = AS->getBase();
    else if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_Deref)
      Ptr = U->getSubExpr();
    else if (const auto *M = dyn_cast<MemberExpr>(E)) {
      if (!M->isArrow())
        return Through(M->getBase());
      Ptr = M->getBase();
    }
    if (!Ptr)
      return false;
    for (int Depth = 0; Depth < 8; ++Depth) {
      const auto *BO = dyn_cast<BinaryOperator>(strip(Ptr));
      if (!BO || (BO->getOpcode() != BO_Add && BO->getOpcode() != BO_Sub))
        break;
      Ptr = BO->getLHS()->getType()->isPointerType() ? BO->getLHS() : BO->getRHS();
    }
    return refToVar(strip(Ptr)) == V;
  };
  const Stmt *Found = nullptr;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || Found)
      return;
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp() && Through(BO->getLHS()))
      Found = BO;
    else if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->isIncrementDecrementOp() && Through(U->getSubExpr()))
      Found = U;
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(F->getBody());
  return Found;
}

PointerChanges pointerChanges(const VarDecl *V) {
  PointerChanges Out;
  const auto *F = dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
  if (!F || !F->getBody()) {
    Out.Other = true;
    return Out;
  }
  ChangeFinder(V, Out).TraverseStmt(F->getBody());
  return Out;
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
