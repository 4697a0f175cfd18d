#include "Analysis/RenumberedGathers.h"
#include "Analysis/Parents.h"


#include <functional>

using namespace clang;

namespace irregfix {

namespace {

// E's nearest parent that is neither a parenthesis nor an implicit
// conversion, and in *Top the outermost of those above E.
DynTypedNode parentPastConversions(const Expr *E, ASTContext &Ctx, const Expr **Top) {
  *Top = E;
  while (true) {
    DynTypedNodeList Parents = parentsOf(**Top, Ctx);
    if (Parents.size() != 1)
      return DynTypedNode();
    const Expr *P = Parents[0].get<Expr>();
    if (!P || !(isa<ParenExpr>(P) || isa<ImplicitCastExpr>(P)))
      return Parents[0];
    *Top = P;
  }
}

// Whether E (an lvalue) is read as a value: its parent, past parentheses,
// converts it to an rvalue.
bool readAsValue(const Expr *E, ASTContext &Ctx) {
  const Expr *Cur = E;
  while (true) {
    DynTypedNodeList Parents = parentsOf(*Cur, Ctx);
    if (Parents.size() != 1)
      return false;
    if (const auto *Paren = Parents[0].get<ParenExpr>()) {
      Cur = Paren;
      continue;
    }
    const auto *Cast = Parents[0].get<ImplicitCastExpr>();
    return Cast && Cast->getCastKind() == CK_LValueToRValue;
  }
}

// When Index is the whole subscript of a read `X[Index]` with X a pointer
// parameter of the kernel: that read, and X's reference in *Base.
const ArraySubscriptExpr *gatherAt(const Expr *Index, const FunctionDecl *Kernel, ASTContext &Ctx,
                                   const DeclRefExpr **Base) {
  const Expr *Top = nullptr;
  const auto *Sub = parentPastConversions(Index, Ctx, &Top).get<ArraySubscriptExpr>();
  if (!Sub || Sub->getIdx() != Top || !readAsValue(Sub, Ctx))
    return nullptr;
  const auto *Ref = dyn_cast<DeclRefExpr>(Sub->getBase()->IgnoreParenImpCasts());
  const auto *Param = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  if (!Param || Param->getDeclContext() != Kernel || !Param->getType()->isPointerType())
    return nullptr;
  QualType Element = Param->getType()->getPointeeType();
  if (Element->isIncompleteType() || Element->isVoidType() || Element.isVolatileQualified())
    return nullptr;
  *Base = Ref;
  return Sub;
}

// Every reference to D in the kernel's body.
std::vector<const DeclRefExpr *> referencesTo(const ValueDecl *D, const Stmt *Body) {
  std::vector<const DeclRefExpr *> Out;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *R = dyn_cast<DeclRefExpr>(S); R && R->getDecl() == D)
      Out.push_back(R);
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(Body);
  return Out;
}

// The arrays read at a copy's values, each with its reads.
struct Gathers {
  struct Array {
    const ParmVarDecl *X = nullptr;
    std::vector<const DeclRefExpr *> Bases; // `X` in each of its reads
  };
  std::vector<Array> Arrays; // in the order of their first reads
  std::vector<const ArraySubscriptExpr *> Reads;
  // Adds the read of some X at Index; false when Index is used otherwise.
  bool add(const Expr *Index, const FunctionDecl *Kernel, ASTContext &Ctx) {
    const DeclRefExpr *Base = nullptr;
    const ArraySubscriptExpr *Read = gatherAt(Index, Kernel, Ctx, &Base);
    if (!Read)
      return false;
    const auto *X = cast<ParmVarDecl>(Base->getDecl());
    auto It = llvm::find_if(Arrays, [&](const Array &A) { return A.X == X; });
    if (It == Arrays.end())
      It = Arrays.insert(Arrays.end(), Array{X, {}});
    It->Bases.push_back(Base);
    Reads.push_back(Read);
    return true;
  }
};

// The gathers through copy P's reads, when its values are used for nothing else.
bool gathersThrough(const SiteArray &P, const FunctionDecl *Kernel, ASTContext &Ctx, Gathers &G) {
  if (P.OtherUse || P.Fields.split() || P.Reads.empty())
    return false;
  QualType Element = P.Array.elementType();
  if (!Element->isIntegerType() || Ctx.getTypeSize(Element) != 32)
    return false;
  for (const Expr *Read : P.Reads) {
    if (G.add(Read, Kernel, Ctx))
      continue;
    // `int c = col[k];` then only `x[c]`.
    const Expr *Top = nullptr;
    const auto *Local = parentPastConversions(Read, Ctx, &Top).get<VarDecl>();
    if (!Local || !Local->isLocalVarDecl() || Local->isStaticLocal() || Local->getInit() != Top ||
        !Local->getType()->isIntegerType() || Local->getType()->isReferenceType())
      return false;
    for (const DeclRefExpr *Use : referencesTo(Local, Kernel->getBody()))
      if (!G.add(Use, Kernel, Ctx))
        return false;
  }
  return !G.Arrays.empty();
}

} // namespace

std::vector<RenumberedGatherFinding> findRenumberedGathers(const KernelInfo &Info, ASTContext &Ctx) {
  std::vector<RenumberedGatherFinding> Found;
  if (!Info.Perm.Permutable || !Info.Kernel->hasBody())
    return Found;
  for (unsigned I = 0; I < Info.Sites.size(); ++I) {
    const Site &S = Info.Sites[I];
    if (S.Pattern != kPatternRange || !S.transformable())
      continue;
    const std::vector<const SiteArray *> Arrays = S.remappedArrays();
    for (unsigned J = 0; J < Arrays.size(); ++J) {
      Gathers G;
      if (!gathersThrough(*Arrays[J], Info.Kernel, Ctx, G))
        continue;
      // Each X is read at those subscripts and nowhere else, and is no array the site copies.
      const bool Only = llvm::all_of(G.Arrays, [&](const Gathers::Array &A) {
        return referencesTo(A.X, Info.Kernel->getBody()).size() == A.Bases.size() &&
               llvm::none_of(Arrays, [&](const SiteArray *C) { return C->Array == ArrayRef(A.X); });
      });
      if (!Only)
        continue;
      RenumberedGatherFinding F;
      F.Site = I;
      F.Gather.Through = J;
      for (const Gathers::Array &A : G.Arrays)
        F.Gather.Arrays.push_back({ArrayRef(A.X), {A.Bases.begin(), A.Bases.end()}});
      // The kernel reads the copies: nothing it writes may be one of the Xs.
      F.AliasChecks = S.AliasChecks;
      std::vector<ArrayRef> Written;
      for (const auto &[W, Rd] : S.AliasChecks)
        if (!llvm::is_contained(Written, W))
          Written.push_back(W);
      for (const Site::RenumberedGather::Gathered &X : F.Gather.Arrays)
        for (const ArrayRef &W : Written)
          if (!llvm::is_contained(F.AliasChecks, std::make_pair(W, X.Array)))
            F.AliasChecks.push_back({W, X.Array});
      F.Reads.assign(G.Reads.begin(), G.Reads.end());
      Found.push_back(std::move(F));
      break; // one a site
    }
  }
  return Found;
}

} // namespace irregfix
